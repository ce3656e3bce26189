/**
 * The undici side of the proxy choice (src/core/transport/proxy.ts): the dispatcher that routes
 * loopback directly and everything else through the CONNECT tunnel, the tunnel's deadline and its
 * guard. Apart from proxy.ts because these classes extend undici's, so defining them needs undici,
 * which is loaded on the first request (issue 34 item 1): proxy.ts requires this module only when
 * it builds the dispatcher, the first call's step.
 */
import { Agent, Dispatcher, EnvHttpProxyAgent, Pool } from 'undici';
import { isLoopbackHost } from './loopback';
import { l10n } from '../l10n';

/**
 * The proxy did not open the tunnel: it did not answer CONNECT in time, closed the connection, or
 * the call was stopped first. The request itself is written only into an open tunnel, so it was
 * never sent, and never charged. The message completes "the proxy <url> …".
 */
export class ProxyTunnelError extends Error {
  constructor(
    readonly code: 'PROXY_TUNNEL_TIMEOUT' | 'PROXY_TUNNEL_CLOSED' | 'PROXY_TUNNEL_STOPPED',
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'ProxyTunnelError';
  }
}


const errorCodeOf = (e: unknown): unknown => (e && typeof e === 'object' ? (e as { code?: unknown }).code : undefined);

/**
 * The connection to the proxy that undici sends CONNECT on, with a deadline for the answer
 * (headersTimeout), and a proxy that closes the connection turned into an error that ends the
 * call: undici reads a socket error while connecting as worth another try, and tries without end.
 */
type PoolConnectOptions = Parameters<Pool['connect']>[0];

class TunnelPool extends Pool {
  constructor(
    origin: URL | string,
    options: Pool.Options,
    private readonly timeoutMs: number,
  ) {
    super(origin, { ...options, headersTimeout: timeoutMs });
  }

  override connect(options: PoolConnectOptions): Promise<Dispatcher.ConnectData>;
  override connect(options: PoolConnectOptions, callback: (err: Error | null, data: Dispatcher.ConnectData) => void): void;
  override connect(options: PoolConnectOptions, callback?: (err: Error | null, data: Dispatcher.ConnectData) => void): Promise<Dispatcher.ConnectData> | void {
    const p = super.connect(options).catch((e: unknown) => {
      throw this.tunnelError(e);
    });
    if (!callback) return p;
    p.then(
      (data) => callback(null, data),
      (e: unknown) => callback(e instanceof Error ? e : new Error(String(e)), undefined as unknown as Dispatcher.ConnectData),
    );
  }

  private tunnelError(e: unknown): unknown {
    const code = errorCodeOf(e);
    if (code === 'UND_ERR_HEADERS_TIMEOUT') {
      return new ProxyTunnelError('PROXY_TUNNEL_TIMEOUT', l10n.t('did not answer CONNECT within {0} s', this.timeoutMs / 1000), { cause: e });
    }
    if (code === 'UND_ERR_SOCKET' || code === 'ECONNRESET' || code === 'EPIPE') {
      return new ProxyTunnelError('PROXY_TUNNEL_CLOSED', l10n.t('closed the connection instead of answering CONNECT'), { cause: e });
    }
    return e;
  }
}

/**
 * Ends a proxied request the moment its signal is aborted while the tunnel is still being opened
 * (undici heeds the signal only once connected, so the call's own timeout or cancel would otherwise
 * wait for the proxy). Until onConnect, nothing of the request has been written.
 */
class TunnelGuard implements Dispatcher.DispatchHandler {
  private connected = false;
  private stopped: ProxyTunnelError | undefined;

  constructor(
    private readonly inner: Dispatcher.DispatchHandler,
    signal: AbortSignal,
  ) {
    const onAbort = (): void => {
      if (this.connected || this.stopped) return;
      this.stopped = new ProxyTunnelError('PROXY_TUNNEL_STOPPED', l10n.t('had not answered CONNECT when the call\'s time ran out'));
      this.inner.onError?.(this.stopped);
    };
    if (signal.aborted) queueMicrotask(onAbort);
    else signal.addEventListener('abort', onAbort, { once: true });
    this.detach = () => signal.removeEventListener('abort', onAbort);
  }

  private readonly detach: () => void;

  onConnect(abort: (err?: Error) => void): void {
    if (this.stopped) {
      abort(this.stopped);
      return;
    }
    this.connected = true;
    this.detach();
    this.inner.onConnect?.(abort);
  }
  onUpgrade(statusCode: number, headers: Buffer[] | string[] | null, socket: import('node:stream').Duplex): void {
    if (!this.stopped) this.inner.onUpgrade?.(statusCode, headers, socket);
  }
  onResponseStarted(): void {
    if (!this.stopped) this.inner.onResponseStarted?.();
  }
  onHeaders(statusCode: number, headers: Buffer[], resume: () => void, statusText: string): boolean {
    return this.stopped ? false : (this.inner.onHeaders?.(statusCode, headers, resume, statusText) ?? true);
  }
  onData(chunk: Buffer): boolean {
    return this.stopped ? false : (this.inner.onData?.(chunk) ?? true);
  }
  onComplete(trailers: string[] | null): void {
    this.detach();
    if (!this.stopped) this.inner.onComplete?.(trailers);
  }
  onBodySent(chunkSize: number, totalBytesSent: number): void {
    if (!this.stopped) this.inner.onBodySent?.(chunkSize, totalBytesSent);
  }
  onError(err: Error): void {
    this.detach();
    if (!this.stopped) this.inner.onError?.(err);
  }
}

/**
 * Routes loopback targets to a direct agent and everything else to undici's EnvHttpProxyAgent
 * (which itself sends no-proxy hosts directly). Also knows its proxy, so failures can name it.
 */
export class ProxyDispatcher extends Dispatcher {
  constructor(
    private readonly loopback: Dispatcher,
    private readonly rest: Dispatcher,
    /** The proxy URL (with credentials, never shown) or undefined when none is configured. */
    private readonly proxyUrl: URL | undefined,
    /** The proxy as it may be shown (no password), or undefined when none is configured. */
    readonly shownProxy: string | undefined,
    private readonly proxyLoopback: boolean,
  ) {
    super();
  }

  /** The proxy's host and port, to tell a failure to reach it from a failure further on. */
  get proxyHostPort(): { host: string; port: number } | undefined {
    const u = this.proxyUrl;
    if (!u) return undefined;
    return { host: u.hostname.replace(/^\[|\]$/gu, ''), port: Number(u.port) || (u.protocol === 'https:' ? 443 : 80) };
  }

  override dispatch(options: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler): boolean {
    const origin = options.origin === undefined ? undefined : new URL(String(options.origin));
    const direct = !this.proxyLoopback && origin !== undefined && isLoopbackHost(origin.hostname);
    if (direct) return this.loopback.dispatch(options, handler);
    // request() hands a handler of undici's classic shape (onConnect…); that is the one guarded.
    // request() passes its signal in the options (undici's types leave it out).
    const signal = (options as { signal?: unknown }).signal;
    const guarded = this.proxyUrl && signal instanceof AbortSignal && handler.onConnect && !handler.onRequestStart;
    return this.rest.dispatch(options, guarded ? new TunnelGuard(handler, signal) : handler);
  }

  override close(): Promise<void>;
  override close(callback: () => void): void;
  override close(callback?: () => void): Promise<void> | void {
    const p = Promise.all([this.loopback.close(), this.rest.close()]).then(() => undefined);
    if (!callback) return p;
    void p.then(callback, callback);
  }

  override destroy(): Promise<void>;
  override destroy(err: Error | null): Promise<void>;
  override destroy(callback: () => void): void;
  override destroy(err: Error | null, callback: () => void): void;
  override destroy(a?: Error | null | (() => void), b?: () => void): Promise<void> | void {
    const err = typeof a === 'function' ? null : (a ?? null);
    const callback = typeof a === 'function' ? a : b;
    const p = Promise.all([this.loopback.destroy(err), this.rest.destroy(err)]).then(() => undefined);
    if (!callback) return p;
    void p.then(callback, callback);
  }
}

/** What proxy.ts chose from the settings and the environment ('' for none). */
interface DispatcherChoice {
  readonly source: 'settings' | 'env' | 'none';
  readonly httpProxy: string;
  readonly httpsProxy: string;
  readonly noProxy: string;
  readonly proxyUrl: URL | undefined;
  readonly shownProxy: string | undefined;
  /** How long the proxy has to answer CONNECT. */
  readonly tunnelTimeoutMs: number;
  /** As ProxyOptions (src/core/transport/proxy.ts) says. */
  readonly ca?: string | Buffer | readonly (string | Buffer)[];
  readonly strictSSL: boolean;
  readonly proxyAuthorization?: string;
  readonly proxyLoopback?: boolean;
}

/** The dispatcher for the explicit values proxy.ts chose (every undici option set, so nothing falls back to process.env). */
export function buildDispatcher(o: DispatcherChoice): ProxyDispatcher {
  const { source, httpProxy, httpsProxy, noProxy } = o;
  const ca = o.ca as string | Buffer | (string | Buffer)[] | undefined;
  const directTls = ca === undefined ? {} : { ca };
  const proxiedTls = { ...directTls, rejectUnauthorized: o.strictSSL };
  const loopback = new Agent({ connect: directTls });
  // Every undici option below is explicit (httpProxy/httpsProxy/noProxy as strings, '' for none),
  // so EnvHttpProxyAgent never falls back to process.env by itself.
  const rest =
    source === 'none'
      ? new Agent({ connect: directTls })
      : new EnvHttpProxyAgent({
          httpProxy,
          httpsProxy,
          noProxy,
          connect: directTls,
          // Tunnel http targets too, so the proxy never sees a path or a header of ours.
          proxyTunnel: true,
          requestTls: proxiedTls,
          proxyTls: proxiedTls,
          ...(o.proxyAuthorization?.trim() ? { token: o.proxyAuthorization.trim() } : {}),
          clientFactory: (origin: URL, options: object) => new TunnelPool(origin, options, o.tunnelTimeoutMs),
        });
  const dispatcher = new ProxyDispatcher(loopback, rest, o.proxyUrl, o.shownProxy, o.proxyLoopback === true);
  return dispatcher;
}
