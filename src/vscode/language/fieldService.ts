import * as vscode from 'vscode';
import type { Chain } from '../../core/spec/addresses';
import { FIELD_LIST_MAX_AGE_MS, type FieldCache, type FieldCacheEntry } from '../../core/query/fieldCache';
import type { ChainColumns } from '../../core/query/fields';
import type { ColumnInfo } from '../../core/spec/wire';
import { RESTRICTED_MODE, type Connection } from '../base/connection';
import type { Log } from '../base/log';
import { errorText } from '../../core/errors';

/**
 * The queryable fields of the service this window talks to: from memory, else the disk cache
 * (per profile scope, Connection.scope: a profile and its base URL), else `GET /wallet_database/columns` and its second-chain twin (both free).
 * Fires onDidChange when the lists of the current base URL change or the base URL does.
 */
export class QueryFieldService implements vscode.Disposable {
  private readonly known = new Map<string, FieldCacheEntry>();
  private readonly loading = new Map<string, Promise<FieldCacheEntry | undefined>>();
  private readonly failures = new Map<string, string>();
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;
  private readonly subs: vscode.Disposable[] = [];

  constructor(
    private readonly cache: FieldCache,
    private readonly connection: Connection,
    private readonly log: Log,
    keyChanged: vscode.Event<unknown>,
  ) {
    // A new base URL or key may read what could not be read before.
    const retry = (): void => {
      this.failures.clear();
      this.changed.fire();
    };
    this.subs.push(connection.onDidChange(retry), keyChanged(retry));
  }

  /** The lists known now for the current base URL; starts loading them when none are. */
  peek(): ChainColumns | undefined {
    const scope = this.connection.scope();
    const entry = this.known.get(scope);
    // After a failure, wait for a new key, base URL or an explicit refresh rather than retry on every keystroke.
    if (!entry && !this.failures.has(scope)) void this.ensure();
    return entry;
  }

  /** Why the lists could not be read, when the last attempt failed. */
  problem(): string | undefined {
    return this.known.has(this.connection.scope()) ? undefined : this.failures.get(this.connection.scope());
  }

  /** The lists of the current base URL: memory, disk, or the server. */
  async ensure(): Promise<ChainColumns | undefined> {
    const scope = this.connection.scope();
    const mem = this.known.get(scope);
    if (mem) return mem;
    let p = this.loading.get(scope);
    if (!p) {
      p = this.load(scope).finally(() => this.loading.delete(scope));
      this.loading.set(scope, p);
    }
    return p;
  }

  private async load(scope: string): Promise<FieldCacheEntry | undefined> {
    const disk = await this.cache.read(scope);
    if (disk) {
      this.remember(disk);
      if (Date.now() - disk.fetchedAt > FIELD_LIST_MAX_AGE_MS) void this.refresh().catch(() => undefined);
      return disk;
    }
    if (!(await this.connection.canCall())) {
      this.failures.set(scope, this.connection.keyWithheld() ? RESTRICTED_MODE : 'no API key is set and the sandbox is not running');
      this.changed.fire();
      return undefined;
    }
    try {
      return await this.refresh();
    } catch {
      return undefined;
    }
  }

  /**
   * Reads both chains' lists from the server (free), keeps them on disk and in memory. In Restricted
   * Mode nothing is sent with the key, and that (not a missing key) is the reason given.
   */
  async refresh(): Promise<FieldCacheEntry> {
    const scope = this.connection.scope();
    if (this.connection.keyWithheld()) {
      this.failures.set(scope, RESTRICTED_MODE);
      this.changed.fire();
      throw new Error(RESTRICTED_MODE);
    }
    const api = this.connection.api();
    const read = async (chain: Chain): Promise<ColumnInfo[] | undefined> => {
      try {
        return await api.columns(chain);
      } catch (e) {
        this.log.warn(`Query fields (${chain} chain) could not be read from ${this.connection.baseUrl()}: ${errorText(e)}`);
        if (chain === 'main') throw e;
        return undefined;
      }
    };
    try {
      const [main, alt] = await Promise.all([read('main'), read('alt')]);
      const entry: FieldCacheEntry = { scope, fetchedAt: Date.now(), main, alt };
      await this.cache.write(entry).catch((e: unknown) => this.log.warn(`Query fields not cached on disk: ${String(e)}`));
      this.failures.delete(scope);
      this.remember(entry);
      this.log.info(`Query fields read from ${this.connection.baseUrl()}: ${main?.length ?? 0} on the main chain, ${alt?.length ?? 'none'} on the second chain (free).`);
      return entry;
    } catch (e) {
      this.failures.set(scope, errorText(e));
      this.changed.fire();
      throw e;
    }
  }

  private remember(entry: FieldCacheEntry): void {
    this.known.set(entry.scope, entry);
    this.changed.fire();
  }

  dispose(): void {
    for (const s of this.subs) s.dispose();
    this.changed.dispose();
  }
}
