import * as vscode from 'vscode';
import type { Dispatcher } from 'undici';
import { WalletAnalyticsApi, type CallLog } from '../../core/transport/api';
import { proxyDispatcherFor } from '../../core/transport/proxy';
import { startSandboxThread, type RunningSandbox } from '../../sandbox/thread';
import { SETTINGS_SECTION } from '../../core/manifest/userOnlySettings';
import { PROXY_SETTING_KEYS, readProxySettings } from './settings';
import type { Log } from './log';
import type { ApiKeyStore } from './secrets';
import { DEFAULT_PROFILE_ID, parseScope, SANDBOX_PROFILE_ID, SANDBOX_PROFILE_NAME, scopeKey } from '../../core/transport/profiles';
import type { ProfileService } from './profiles';
import { ContextKeys } from './ids';
import type { ContextKeySetter } from './contextKeys';
import { errorText } from '../../core/errors';

type Mode = 'configured' | 'sandbox';

/**
 * One call flow's connection, fixed when the flow starts: the price is shown for it, the call is
 * sent with its client, and what follows (ledger, ambiguous-call memory, reconciliation, the job,
 * the credits refresh) is kept under its scope. A profile switched or a sandbox stopped meanwhile
 * changes nothing in it; the flow compares it with the active one before it sends (isActive).
 */
export interface BoundConnection {
  /** core/transport/profiles.ts scopeKey of the profile and base URL. */
  readonly scope: string;
  readonly profileId: string;
  readonly profileName: string;
  readonly baseUrl: string;
  /** Whose credits, for the person: "Account A (api.example.com)", "Sandbox (127.0.0.1:5173)". */
  readonly label: string;
  /** The client of that scope: that profile's key, to that base URL only. */
  readonly api: WalletAnalyticsApi;
}

/** "Account A (api.example.com)": a profile's name and the host its calls go to. */
function connectionLabel(profileName: string, baseUrl: string): string {
  let host: string;
  try {
    host = new URL(baseUrl).host;
  } catch {
    host = baseUrl;
  }
  return `${profileName} (${host})`;
}

/** Why calls with the key are held back in a folder that is not trusted (Restricted Mode). */
export const RESTRICTED_MODE =
  'This folder is in Restricted Mode: Wallet Analytics sends no request with your API key until you trust it. Result tables and query files work meanwhile.';

/**
 * Which service the window talks to: the active profile (src/vscode/base/profiles.ts) with its base URL
 * and its own key from SecretStorage, or the built-in sandbox (its own thread, loopback, its own demo
 * key). The real key is never touched by the sandbox, and the sandbox's key is never stored.
 *
 * Clients are per scope (core/transport/profiles.ts: a profile and its base URL), not per base URL: a job is
 * polled with the client of the scope it was submitted under, whatever profile is active now, and a
 * profile's key goes to that profile's base URL only (apiFor refuses a scope whose base URL is not
 * the profile's now). A removed profile has no client: its jobs are never polled with another key.
 *
 * In a folder that is not trusted the key is withheld here, in the one place every client gets it
 * from: whatever path asks, no request carries it until the folder is trusted.
 */
export class Connection implements vscode.Disposable {
  private sandbox: RunningSandbox | undefined;
  private starting: Promise<RunningSandbox> | undefined;
  private apis = new Map<string, WalletAnalyticsApi>();
  /** The one dispatcher (proxy or direct) every client shares; rebuilt when an http.* proxy setting changes. */
  private proxied: Dispatcher | undefined;
  /** A proxy setting that cannot be used: kept, so it is logged once, not on every call. */
  private proxyProblem: unknown;
  private readonly changed = new vscode.EventEmitter<Mode>();
  readonly onDidChange = this.changed.event;
  private readonly subs: vscode.Disposable[] = [];

  constructor(
    private readonly keys: ApiKeyStore,
    private readonly contextKeys: ContextKeySetter,
    private readonly log: Log,
    private readonly onCall: (e: CallLog) => void,
    readonly profiles: ProfileService,
  ) {
    this.subs.push(
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration(`${SETTINGS_SECTION}.baseUrl`)) {
          this.apis.clear();
          this.changed.fire(this.mode);
        }
        if (PROXY_SETTING_KEYS.some((k) => e.affectsConfiguration(k))) {
          // New clients get the new dispatcher. The old one is dropped, not closed: a download or
          // poll still holding an old client finishes on it, and its idle sockets time out alone.
          this.proxied = undefined;
          this.proxyProblem = undefined;
          this.apis.clear();
          this.changed.fire(this.mode);
        }
      }),
      vscode.workspace.onDidGrantWorkspaceTrust(() => this.changed.fire(this.mode)),
      // A switched, renamed or removed profile: clients of removed profiles go, the views follow.
      profiles.onDidChange(() => {
        for (const scope of [...this.apis.keys()]) if (!this.scopeAlive(scope)) this.apis.delete(scope);
        void this.keys.refresh();
        this.changed.fire(this.mode);
      }),
    );
  }

  get mode(): Mode {
    return this.sandbox && this.profiles.activeId() === SANDBOX_PROFILE_ID ? 'sandbox' : 'configured';
  }

  /** The active profile: id and name (the sandbox's while it is in use). */
  activeProfile(): { id: string; name: string } {
    if (this.mode === 'sandbox') return { id: SANDBOX_PROFILE_ID, name: SANDBOX_PROFILE_NAME };
    const id = this.profiles.activeId();
    const p = this.profiles.get(id === SANDBOX_PROFILE_ID ? this.profiles.returnId() : id) ?? this.profiles.defaultProfile();
    return { id: p.id, name: p.name };
  }

  /** The base URL calls go to now. */
  baseUrl(): string {
    if (this.mode === 'sandbox' && this.sandbox) return this.sandbox.baseUrl;
    return (this.profiles.get(this.activeProfile().id) ?? this.profiles.defaultProfile()).baseUrl;
  }

  /** What this window's per-profile records (history, ledger, caches) are keyed by now: core/transport/profiles.ts scopeKey. */
  scope(): string {
    return scopeKey(this.activeProfile().id, this.baseUrl());
  }

  /** The profile and base URL a job submitted now is recorded under (and later polled under). */
  target(): { profileId: string; baseUrl: string } {
    return { profileId: this.activeProfile().id, baseUrl: this.baseUrl() };
  }

  /** The active connection, fixed for one call flow (see BoundConnection). */
  bind(): BoundConnection {
    const { id, name } = this.activeProfile();
    const baseUrl = this.baseUrl();
    return Object.freeze({ scope: scopeKey(id, baseUrl), profileId: id, profileName: name, baseUrl, label: connectionLabel(name, baseUrl), api: this.api() });
  }

  /** The active connection's label (connectionLabel). */
  label(): string {
    return connectionLabel(this.activeProfile().name, this.baseUrl());
  }

  /** Whether `bound` is still the window's active connection (same profile, same base URL). */
  isActive(bound: BoundConnection): boolean {
    return this.scope() === bound.scope;
  }

  /** Makes a profile active in this window; the Sandbox profile starts the sandbox. Running jobs keep their own profile. */
  async switchProfile(id: string): Promise<void> {
    if (id === SANDBOX_PROFILE_ID) {
      await this.startSandbox();
      return;
    }
    await this.profiles.setActive(id);
    await this.contextKeys.set(ContextKeys.sandbox, this.mode === 'sandbox');
  }

  /** The running sandbox, if any (tests read its ledger). */
  get activeSandbox(): RunningSandbox | undefined {
    return this.sandbox;
  }

  /** True while the folder is not trusted and calls would carry the user's key (the sandbox's own key is not withheld). */
  keyWithheld(): boolean {
    return !vscode.workspace.isTrusted && this.mode !== 'sandbox';
  }

  /** Whether calls can be made now: a key is stored for the active profile (and the folder trusted), or the sandbox is in use. */
  async canCall(): Promise<boolean> {
    return this.mode === 'sandbox' || (!this.keyWithheld() && (await this.keys.get()) !== undefined);
  }

  /** The client of the active profile. */
  api(): WalletAnalyticsApi {
    const scope = this.scope();
    return this.apiFor(scope) ?? this.make(scope);
  }

  /** Whether a scope still names a service with a key here: a profile that exists with that base URL, or the running sandbox. */
  private scopeAlive(scope: string): boolean {
    const { profileId, baseUrl } = parseScope(scope);
    if (this.sandbox && baseUrl === this.sandbox.baseUrl && (profileId === SANDBOX_PROFILE_ID || profileId === DEFAULT_PROFILE_ID)) return true;
    if (profileId === SANDBOX_PROFILE_ID) return false;
    return this.profiles.get(profileId)?.baseUrl === baseUrl;
  }

  /**
   * The client for the scope a job was submitted under (jobScope; a bare base URL is the Default
   * profile's, or the running sandbox's), or undefined when that service is gone: a stopped sandbox,
   * a removed profile, or a profile whose base URL is no longer the job's (its key never goes elsewhere).
   */
  apiFor(scope: string): WalletAnalyticsApi | undefined {
    const cached = this.apis.get(scope);
    if (cached) return cached;
    if (!this.scopeAlive(scope)) return undefined;
    return this.make(scope);
  }

  private make(scope: string): WalletAnalyticsApi {
    const { profileId, baseUrl } = parseScope(scope);
    const sandbox = this.sandbox && baseUrl === this.sandbox.baseUrl && (profileId === SANDBOX_PROFILE_ID || profileId === DEFAULT_PROFILE_ID) ? this.sandbox : undefined;
    const api = new WalletAnalyticsApi({
      baseUrl,
      apiKey: sandbox
        ? () => Promise.resolve(sandbox.demoKey)
        : () => (vscode.workspace.isTrusted && profileId !== SANDBOX_PROFILE_ID ? this.keys.getFor(profileId) : Promise.resolve(undefined)),
      onLog: this.onCall,
      dispatcher: this.dispatcher(),
    });
    this.apis.set(scope, api);
    return api;
  }

  /**
   * The dispatcher for every request: http.proxy (user value) or HTTPS_PROXY/NO_PROXY, loopback
   * always direct. Throws a BadInputError (nothing sent) for a proxy URL it cannot use.
   */
  dispatcher(): Dispatcher {
    if (this.proxied) return this.proxied;
    if (this.proxyProblem !== undefined) throw this.proxyProblem;
    try {
      const choice = proxyDispatcherFor({ ...readProxySettings(), env: process.env });
      this.log.info(choice.summary);
      this.proxied = choice.dispatcher;
      return choice.dispatcher;
    } catch (e) {
      this.log.error(errorText(e));
      this.proxyProblem = e;
      throw e;
    }
  }

  /**
   * Starts the sandbox on a free loopback port, in its own worker thread (src/sandbox/thread.ts: its
   * synthetic data is drawn there, never on the extension host's thread), and makes the Sandbox
   * profile active in this window. `workerFile`: the worker bundle, for a test run outside dist/.
   */
  async startSandbox(opts: { delayScale?: number; workerFile?: string } = {}): Promise<RunningSandbox> {
    if (this.sandbox) {
      if (this.mode !== 'sandbox') await this.useSandbox();
      return this.sandbox;
    }
    this.starting ??= (async () => {
      const s = await startSandboxThread(
        { port: 0, delayScale: opts.delayScale },
        {
          workerFile: opts.workerFile,
          // A crashed thread is a stopped sandbox: the window returns to its profile, as Stop Sandbox does.
          onGone: (why) => {
            this.log.error(why);
            if (this.sandbox === s) void this.stopSandbox();
          },
        },
      );
      this.sandbox = s;
      this.log.info(`Sandbox started at ${s.baseUrl} (synthetic data; no key, no credits, no network).`);
      await this.useSandbox();
      return s;
    })().finally(() => {
      this.starting = undefined;
    });
    return this.starting;
  }

  private async useSandbox(): Promise<void> {
    await this.contextKeys.set(ContextKeys.sandbox, true);
    // Fires onDidChange through the profile service (and once more below if it was active already).
    const was = this.profiles.activeId();
    await this.profiles.setActive(SANDBOX_PROFILE_ID);
    if (was === SANDBOX_PROFILE_ID) this.changed.fire('sandbox');
  }

  /** Stops the sandbox and returns to the profile used before it. */
  async stopSandbox(): Promise<void> {
    const s = this.sandbox;
    if (!s) return;
    this.sandbox = undefined;
    for (const scope of [...this.apis.keys()]) if (parseScope(scope).baseUrl === s.baseUrl) this.apis.delete(scope);
    await s.close();
    this.log.info('Sandbox stopped; calls go to the active profile again.');
    await this.contextKeys.set(ContextKeys.sandbox, false);
    if (this.profiles.activeId() === SANDBOX_PROFILE_ID) await this.profiles.setActive(this.profiles.returnId());
    else this.changed.fire('configured');
  }

  dispose(): void {
    for (const d of this.subs) d.dispose();
    void this.stopSandbox();
    void this.proxied?.close();
    this.changed.dispose();
  }
}
