import * as vscode from 'vscode';
import type { Dispatcher } from 'undici';
import { WalletAnalyticsApi, type CallLog } from '../core/api';
import { proxyDispatcherFor } from '../core/proxy';
import type { Sandbox } from '../sandbox';
import { PROXY_SETTING_KEYS, readProxySettings, readSettings } from './config';
import type { Log } from './log';
import type { ApiKeyStore } from './secrets';
import { ContextKeys } from './commands/ids';
import type { ContextKeySetter } from './contextKeys';

export type Mode = 'configured' | 'sandbox';

/** Why calls with the key are held back in a folder that is not trusted (Restricted Mode). */
export const RESTRICTED_MODE =
  'This folder is in Restricted Mode: Wallet Analytics sends no request with your API key until you trust it. Result tables and query files work meanwhile.';

/**
 * Which service the window talks to: the configured base URL with the key from SecretStorage,
 * or the built-in sandbox (in-process, loopback, its own demo key). The real key is never
 * touched by the sandbox, and the sandbox's key is never stored.
 *
 * In a folder that is not trusted the key is withheld here, in the one place every client gets it
 * from: whatever path asks, no request carries it until the folder is trusted.
 */
export class Connection implements vscode.Disposable {
  private sandbox: Sandbox | undefined;
  private starting: Promise<Sandbox> | undefined;
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
  ) {
    this.subs.push(
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration('walletAnalytics.baseUrl')) {
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
    );
  }

  get mode(): Mode {
    return this.sandbox ? 'sandbox' : 'configured';
  }

  /** The base URL calls go to now. */
  baseUrl(): string {
    return this.sandbox?.baseUrl ?? readSettings().baseUrl.replace(/\/+$/u, '');
  }

  /** The running sandbox, if any (tests read its ledger). */
  get activeSandbox(): Sandbox | undefined {
    return this.sandbox;
  }

  /** True while the folder is not trusted and calls would carry the user's key (the sandbox's own key is not withheld). */
  keyWithheld(): boolean {
    return !vscode.workspace.isTrusted && this.sandbox === undefined;
  }

  /** Whether calls can be made now: a key is stored (and the folder trusted), or the sandbox runs. */
  async canCall(): Promise<boolean> {
    return this.sandbox !== undefined || (!this.keyWithheld() && (await this.keys.get()) !== undefined);
  }

  /** The client for the current base URL. */
  api(): WalletAnalyticsApi {
    return this.apiFor(this.baseUrl()) ?? this.make(this.baseUrl());
  }

  /** The client for a base URL a job was submitted to, or undefined when that service is gone (a stopped sandbox). */
  apiFor(baseUrl: string): WalletAnalyticsApi | undefined {
    const cached = this.apis.get(baseUrl);
    if (cached) return cached;
    const configured = readSettings().baseUrl.replace(/\/+$/u, '');
    if (baseUrl !== configured && baseUrl !== this.sandbox?.baseUrl) return undefined;
    return this.make(baseUrl);
  }

  private make(baseUrl: string): WalletAnalyticsApi {
    const sandbox = this.sandbox && baseUrl === this.sandbox.baseUrl ? this.sandbox : undefined;
    const api = new WalletAnalyticsApi({
      baseUrl,
      apiKey: sandbox ? () => Promise.resolve(sandbox.demoKey) : () => (vscode.workspace.isTrusted ? this.keys.get() : Promise.resolve(undefined)),
      onLog: this.onCall,
      dispatcher: this.dispatcher(),
    });
    this.apis.set(baseUrl, api);
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
      this.log.error(e instanceof Error ? e.message : String(e));
      this.proxyProblem = e;
      throw e;
    }
  }

  /** Starts the in-process sandbox on a free loopback port and points this window at it. */
  async startSandbox(opts: { delayScale?: number } = {}): Promise<Sandbox> {
    if (this.sandbox) return this.sandbox;
    this.starting ??= (async () => {
      // Loaded on demand: the synthetic data costs nothing until someone asks for it.
      const { startSandbox } = await import('../sandbox');
      const s = await startSandbox({ port: 0, delayScale: opts.delayScale });
      this.sandbox = s;
      this.log.info(`Sandbox started at ${s.baseUrl} (synthetic data; no key, no credits, no network).`);
      await this.contextKeys.set(ContextKeys.sandbox, true);
      this.changed.fire('sandbox');
      return s;
    })().finally(() => {
      this.starting = undefined;
    });
    return this.starting;
  }

  /** Stops the sandbox and returns to the configured base URL. */
  async stopSandbox(): Promise<void> {
    const s = this.sandbox;
    if (!s) return;
    this.sandbox = undefined;
    this.apis.delete(s.baseUrl);
    await s.close();
    this.log.info('Sandbox stopped; calls go to the configured base URL again.');
    await this.contextKeys.set(ContextKeys.sandbox, false);
    this.changed.fire('configured');
  }

  dispose(): void {
    for (const d of this.subs) d.dispose();
    void this.stopSandbox();
    void this.proxied?.close();
    this.changed.dispose();
  }
}
