import * as vscode from 'vscode';
import type { Budgets, BudgetState } from '../../core/money/budget';
import { parseScope } from '../../core/transport/profiles';
import { nextReset } from '../../core/money/quota';
import { SpendLedger, type SpendEntry } from '../../core/money/spendLedger';
import { StorageKeys, type Storage } from '../../core/storage';
import type { RequestRecord } from '../../core/spec/wire';

export type { SpendEntry } from '../../core/money/spendLedger';


/**
 * The credits balance (fetched from the free `GET /credits`, cached for a minute), the local
 * ledger of what this extension spent, and the anchor from which 30-day resets are counted; all
 * per profile scope (Connection.scope, core/transport/profiles.ts scopeKey).
 *
 * Every method takes the scope it is about, the active one by default. A call flow passes its own
 * (Connection.bind), so a charge or a balance is never filed under a profile switched to meanwhile;
 * a balance is stored under the scope it was asked for, whatever is active when the answer comes.
 */
export class CreditsService implements vscode.Disposable {
  private readonly balances = new Map<string, { value: number; at: number }>();
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;

  /** The ledger: a stale read of globalState never loses an entry this window wrote. */
  private readonly spent: SpendLedger;

  constructor(
    private readonly storage: Storage,
    /** The client of a scope (Connection.apiFor), or undefined when that service is gone. */
    private readonly apiFor: (scope: string) => { credits(): Promise<number> } | undefined,
    /** The active scope (Connection.scope). */
    private readonly active: () => string,
    private readonly periodStartSetting: () => string,
    /**
     * The scope's request history (HistoryService's one reader, at its pace): `last` however old,
     * `read` at most once per interval. It lists every paid request of the account.
     */
    private readonly history: { last(scope: string): readonly RequestRecord[] | undefined; read(scope: string): Promise<unknown> } = { last: () => undefined, read: () => Promise.resolve() },
  ) {
    this.spent = new SpendLedger(
      {
        read: () => (this.storage.get(StorageKeys.ledger) ?? []) as SpendEntry[],
        write: (items) => this.storage.set(StorageKeys.ledger, items),
      },
      Date.now,
      (scope) => this.history.last(scope),
    );
  }

  /** The request history was read again: the budgets and the Account view count it. */
  historyChanged(): void {
    this.changed.fire();
  }

  /**
   * Reads the scope's request history (free; the last answer while younger than the interval),
   * so a budget about to be checked counts the account's other clients; a failed read leaves the
   * last one (or the ledger alone).
   */
  async readHistory(scope = this.active()): Promise<void> {
    await this.history.read(scope).catch(() => undefined);
  }

  /** The last balance known for a scope (the active one by default), however old. */
  peek(scope = this.active()): { value: number; at: number } | undefined {
    return this.balances.get(scope);
  }

  /** The balance of a scope, fetched if the cached one is older than maxAgeMs (GET /credits is free). */
  async get(maxAgeMs = 60_000, scope = this.active()): Promise<number> {
    const b = this.peek(scope);
    if (b && Date.now() - b.at < maxAgeMs) return b.value;
    return this.refresh(scope);
  }

  /** Fetches the balance of a scope (the active one by default) and keeps it under that scope. */
  async refresh(scope = this.active()): Promise<number> {
    const api = this.apiFor(scope);
    if (!api) throw new Error(`The service at ${parseScope(scope).baseUrl} is not available in this window.`);
    const value = await api.credits();
    this.balances.set(scope, { value, at: Date.now() });
    const anchors = this.storage.record(StorageKeys.quotaAnchors);
    if (anchors.get(scope) === undefined) await anchors.set(scope, Date.now());
    this.changed.fire();
    return value;
  }

  /** The next monthly reset of a scope, and whether it is estimated (no period start set). */
  nextReset(scope = this.active()): { date: Date; estimated: boolean } | undefined {
    const setting = Date.parse(this.periodStartSetting());
    if (!Number.isNaN(setting)) return { date: nextReset(setting, Date.now()), estimated: false };
    const anchor = this.storage.record(StorageKeys.quotaAnchors).get(scope);
    return anchor === undefined ? undefined : { date: nextReset(anchor, Date.now()), estimated: true };
  }

  /**
   * Records a charge under the scope it was spent in, and lowers that scope's cached balance until
   * the next refresh. `requestId`: a queued submit's, so its history record is not counted again.
   */
  async record(endpointId: string, credits: number, scope = this.active(), requestId?: string): Promise<void> {
    if (credits <= 0) return;
    await this.spent.record(endpointId, credits, scope, requestId);
    const b = this.balances.get(scope);
    if (b) this.balances.set(scope, { ...b, value: b.value - credits });
    this.changed.fire();
  }

  /** The charges of every scope, read fresh (merged with this window's), with what the scope's request history adds. */
  ledger(scope = this.active()): readonly SpendEntry[] {
    return this.spent.spend(scope);
  }

  /** Each spend budget set (walletAnalytics.budget.*) as it stands for a scope, across windows. */
  budgets(b: Budgets, scope = this.active()): BudgetState[] {
    return this.spent.budgets(b, scope, this.nextReset(scope)?.date);
  }

  /** Holds an approved call's worst known case against the budgets, checked afresh (core/money/spendLedger.ts). */
  async hold(endpointId: string, credits: number, b: Budgets, scope = this.active()): Promise<{ id: string } | { refused: string; setting: string }> {
    const r = await this.spent.hold(endpointId, credits, scope, b, this.nextReset(scope)?.date);
    this.changed.fire();
    return r;
  }

  /** Ends a hold once its call settled, charged or not. */
  async release(id: string | undefined): Promise<void> {
    if (id === undefined) return;
    await this.spent.release(id);
    this.changed.fire();
  }

  dispose(): void {
    this.changed.dispose();
  }
}
