import * as vscode from 'vscode';
import { isWalletApiError, errorText } from '../../core/errors';
import { isPlaceholderUrl } from '../../core/transport/placeholder';
import { ContextKeys } from './ids';
import type { Connection } from './connection';
import type { ContextKeySetter } from './contextKeys';
import type { CreditsService } from './credits';
import type { ApiKeyStore } from './secrets';

/**
 * What the sidebar can say about the connection, and which welcome view shows:
 * - noKey: no key stored and no sandbox: "Set API Key", "Try the Sandbox";
 * - noBaseUrl: the base URL is still the placeholder (a `.invalid` host, which never resolves):
 *   nothing is called on its own, so no request leaves the machine by surprise;
 * - checking: a first answer is awaited;
 * - ok: the last call answered;
 * - offline: the last call got no usable answer (network, server error, …): "Retry" and the error;
 * - refused: the key was refused or is bound to another IP: "Set API Key", "Reset IP";
 * - untrusted: the folder is in Restricted Mode, so nothing is sent with the key: "Manage Workspace Trust".
 */
export type SidebarState = 'noKey' | 'noBaseUrl' | 'checking' | 'ok' | 'offline' | 'refused' | 'untrusted';

interface StatusError {
  /** WalletApiError kind (network, server, keyRefused, ipMismatch, …), or `other`. */
  readonly kind: string;
  readonly message: string;
}

export function stateOfError(e: unknown): { state: SidebarState; error: StatusError } {
  const kind = isWalletApiError(e) ? e.kind : 'other';
  const message = errorText(e);
  const state: SidebarState = kind === 'keyRefused' || kind === 'ipMismatch' ? 'refused' : kind === 'noKey' ? 'noKey' : 'offline';
  return { state, error: { kind, message } };
}

export class ConnectionStatus implements vscode.Disposable {
  private current: SidebarState = 'checking';
  private err: StatusError | undefined;
  private generation = 0;
  /** Whether the context keys were set at least once. */
  private published = false;
  private readonly changed = new vscode.EventEmitter<SidebarState>();
  readonly onDidChange = this.changed.event;
  private readonly subs: vscode.Disposable[] = [];

  constructor(
    private readonly connection: Connection,
    private readonly keys: ApiKeyStore,
    private readonly credits: CreditsService,
    private readonly contextKeys: ContextKeySetter,
  ) {
    this.subs.push(
      keys.onDidChange(() => void this.recheck()),
      connection.onDidChange(() => void this.recheck()),
    );
    // Start from what is known now (the key was read before the sidebar is built), so the views
    // open on the right welcome content instead of passing through "checking".
    const known = this.quickState();
    if (known) this.current = known;
    void this.recheck();
  }

  /** noKey or noBaseUrl when that is plain without asking anyone; else undefined (a check is needed). */
  private quickState(): SidebarState | undefined {
    if (this.connection.keyWithheld()) return 'untrusted';
    if (this.connection.mode !== 'sandbox' && !this.keys.peek()) return 'noKey';
    if (this.connection.mode === 'configured' && isPlaceholderUrl(this.connection.baseUrl())) return 'noBaseUrl';
    return undefined;
  }

  get state(): SidebarState {
    return this.current;
  }

  get error(): StatusError | undefined {
    return this.err;
  }

  /** Whether the extension may call the service on its own (a key or the sandbox, and a real base URL). */
  get canPoll(): boolean {
    return this.current !== 'noKey' && this.current !== 'noBaseUrl' && this.current !== 'untrusted';
  }

  /**
   * Re-reads the key state and, when calls are possible, checks the key with the free
   * `GET /credits` (the spec's first call: it proves the key works and costs nothing).
   */
  async recheck(): Promise<SidebarState> {
    const gen = ++this.generation;
    const scope = this.connection.scope();
    if (this.connection.keyWithheld()) return this.set('untrusted', undefined, gen);
    if (!(await this.connection.canCall())) return this.set('noKey', undefined, gen);
    if (this.connection.mode === 'configured' && isPlaceholderUrl(scope)) return this.set('noBaseUrl', undefined, gen);
    if (this.current !== 'ok') await this.set('checking', undefined, gen);
    try {
      await this.credits.refresh();
      return await this.set('ok', undefined, gen, scope);
    } catch (e) {
      const s = stateOfError(e);
      return this.set(s.state, s.error, gen, scope);
    }
  }

  /** Records the outcome of a call against a scope (Connection.scope: a history fetch, a credits refresh). */
  async report(scope: string, e?: unknown): Promise<void> {
    if (scope !== this.connection.scope() || !this.canPoll) return;
    if (e === undefined) await this.set('ok', undefined, this.generation, scope);
    else {
      const s = stateOfError(e);
      await this.set(s.state, s.error, this.generation, scope);
    }
  }

  private async set(state: SidebarState, error: StatusError | undefined, gen: number, scope?: string): Promise<SidebarState> {
    // An answer that arrives after a newer check started, or for a base URL no longer in use, is old news.
    if (gen !== this.generation || (scope !== undefined && scope !== this.connection.scope())) return this.current;
    const same = this.published && state === this.current && error?.message === this.err?.message;
    this.published = true;
    this.current = state;
    this.err = error;
    // The kind first: a `when` clause (and a reader of the status) never sees a new status with an old kind.
    await this.contextKeys.set(ContextKeys.errorKind, error?.kind ?? '');
    await this.contextKeys.set(ContextKeys.status, state);
    if (!same) this.changed.fire(state);
    return state;
  }

  dispose(): void {
    for (const s of this.subs) s.dispose();
    this.changed.dispose();
  }
}
