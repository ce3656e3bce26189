/**
 * The undici transport: one place that knows the base URL, the `api_key` header, timeouts,
 * retries, and how server answers become typed errors (errors.ts).
 *
 * Rules it keeps, whoever calls it:
 * - The key goes only to the base URL's origin, only in the `api_key` header, never in a URL,
 *   never in a log line or an error message (redacted even when the server echoes it back).
 *   Redirects are not followed, so the key cannot be carried elsewhere by a 3xx.
 * - Plain http:// is refused unless the host is loopback (127.0.0.0/8, localhost, [::1]).
 * - Retries: a free GET is retried on network errors, 5xx and 429 (exponential backoff with
 *   jitter, Retry-After honoured). Anything else (a POST, a paid GET) is retried only when the
 *   failure proves the server did not accept it: a refused connection before any byte was
 *   sent, or a 429 refusal. A 5xx, a dropped connection after sending, or no answer before
 *   this machine's own timer is reported with charged 'unknown' and never retried, so nothing
 *   can be charged twice.
 * - Paid calls wait at most `ackTimeoutMs` (100 s, §7.1) for the server's answer. When that
 *   timer fires the outcome is unknown (NoAnswerError): the server may have accepted the call
 *   inside its own window. Only its 504 ack_timeout answer proves nothing was queued.
 */
import type { Dispatcher } from 'undici';
import { undici } from './undici';
import { sleep } from '../abort';
import { isLoopbackHost } from './loopback';
import { proxyCertificateHint, proxyFailure } from './proxy';
import { ACK_TIMEOUT_MS, codeOf, describeNetwork, errorFromResponse, provesNotSent } from './httpFailures';
import {
  BadInputError,
  CancelledError,
  InsecureUrlError,
  MissingKeyError,
  NetworkError,
  NoAnswerError,
  RateLimitedError,
  WalletApiError,
  redact,
  type CallContext,
  type ErrorKind,
} from '../errors';
import { l10n } from '../l10n';
import { jsonTextSliced } from '../spec/jsonText';

const DEFAULT_TIMEOUT_MS = 30_000;
/** Bigger JSON answers than this are refused rather than held in memory. */
const MAX_JSON_BYTES = 256 * 1024 * 1024;

export interface RetryOptions {
  /** Attempts in all, the first included. */
  readonly attempts?: number;
  readonly baseDelayMs?: number;
  readonly maxDelayMs?: number;
  /** A Retry-After longer than this is not waited for: the call fails with the wait in its message. */
  readonly maxRetryAfterMs?: number;
}

const RETRY_DEFAULTS: Required<RetryOptions> = { attempts: 4, baseDelayMs: 250, maxDelayMs: 8_000, maxRetryAfterMs: 60_000 };

/** One attempt of one call, for the log. Never holds headers or the key. */
export interface CallLog {
  readonly endpointId: string | undefined;
  readonly method: string;
  /** Path and query string (addresses and options; the key is never in a URL). */
  readonly path: string;
  /** HTTP status, absent when no answer came. */
  readonly status: number | undefined;
  readonly durationMs: number;
  /** 1 for the first attempt. */
  readonly attempt: number;
  readonly quoted: number | undefined;
  /** Credits this attempt cost: 0 for a refusal, undefined when unknown. */
  readonly charged: number | undefined;
  readonly error: ErrorKind | undefined;
  /** True when another attempt follows. */
  readonly willRetry: boolean;
}

interface TransportOptions {
  readonly baseUrl: string;
  readonly apiKey: () => Promise<string | undefined>;
  readonly dispatcher?: Dispatcher;
  readonly ackTimeoutMs?: number;
  /** Time allowed for a free call's answer, and between two chunks of any body. */
  readonly timeoutMs?: number;
  readonly retry?: RetryOptions;
  readonly onLog?: (entry: CallLog) => void;
}

/** What the api layer asks the transport to send. */
interface HttpCall {
  readonly endpointId?: string;
  readonly method: 'GET' | 'POST';
  /** Starts with '/', already percent-encoded (catalog.encodeRequest). */
  readonly path: string;
  readonly query?: Readonly<Record<string, string>>;
  readonly body?: unknown;
  /** Whether the endpoint costs credits: decides retries, timeouts and what errors say. */
  readonly paid: boolean;
  /** The endpoint's family, for what an ambiguous failure advises (queued: check the history). */
  readonly family?: CallContext['family'];
  readonly quoted?: number;
  /** Credits the answer shows were charged (per match, per returned), for the log. */
  readonly chargeOf?: (json: unknown) => number | undefined;
  /** The balance last seen, for the insufficient-credits message. */
  readonly knownBalance?: number;
  readonly signal?: AbortSignal;
}

export interface HttpAnswer {
  readonly status: number;
  readonly text: string;
  /** The parsed body; `undefined` when the body is empty or not JSON. */
  readonly json: unknown;
  readonly isJson: boolean;
  readonly contentType: string | undefined;
}

// ---- URLs ----

/** Parses and checks a base or file URL: https, or http only for loopback; no credentials. */
export function checkUrl(raw: string, what: string): URL {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    throw new BadInputError({ source: 'client', problems: [l10n.t('The {0} “{1}” is not a valid URL', what, raw)] });
  }
  const shown = `${u.protocol}//${u.host}`;
  if (u.protocol !== 'https:' && u.protocol !== 'http:') {
    throw new InsecureUrlError({ url: shown, reason: l10n.t('the {0} must start with https://', what) });
  }
  if (u.username || u.password) {
    throw new InsecureUrlError({ url: shown, reason: l10n.t('the {0} must not hold a user name or password', what) });
  }
  if (u.protocol === 'http:' && !isLoopbackHost(u.hostname)) {
    throw new InsecureUrlError({
      url: shown,
      reason: l10n.t('plain http:// is allowed only for loopback hosts (127.0.0.1, localhost, [::1]); use https:// for {0}', u.hostname),
    });
  }
  return u;
}

async function readCapped(body: AsyncIterable<Buffer>, max: number): Promise<string> {
  const chunks: Buffer[] = [];
  let n = 0;
  for await (const c of body) {
    n += c.length;
    if (n > max) throw new Error(l10n.t('the answer is larger than {0} bytes', max));
    chunks.push(c);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * The full URL of a catalog path and query under a base URL: the transport sends to it, and "Copy as
 * Code" (src/core/codegen/snippets.ts) hands the runner the base URL joined the same way.
 */
export function callUrl(base: URL, path: string, query: Readonly<Record<string, string>> = {}): URL {
  if (!path.startsWith('/') || path.startsWith('//')) throw new Error(l10n.t('Not a path: {0}', path));
  const u = new URL(base.origin);
  u.pathname = base.pathname.replace(/\/+$/u, '') + path;
  for (const [k, v] of Object.entries(query)) u.searchParams.set(k, v);
  return u;
}

/** The headers of every call: the key only in `api_key` (§5.1), JSON asked for, no compression. */
function callHeaders(key: string, hasBody: boolean): Record<string, string> {
  const headers: Record<string, string> = { api_key: key, accept: 'application/json', 'accept-encoding': 'identity' };
  if (hasBody) headers['content-type'] = 'application/json';
  return headers;
}

/**
 * The body text of a POST: its JSON, exactly as sent (JSON.stringify's text), written a slice of a
 * long list per turn of the host's loop: a body of 100,000 addresses was one stretch of 18–60 ms.
 */
function callBody(body: unknown): Promise<string> {
  return typeof body === 'object' && body !== null ? jsonTextSliced(body as Record<string, unknown>) : Promise.resolve(JSON.stringify(body));
}

/** Sends calls to the base URL with the key, retries what is safe to retry, and maps failures to typed errors. */
export class HttpTransport {
  readonly base: URL;
  private readonly retry: Required<RetryOptions>;
  private readonly ackTimeoutMs: number;
  private readonly timeoutMs: number;

  constructor(private readonly opts: TransportOptions) {
    this.base = checkUrl(opts.baseUrl, 'base URL');
    this.retry = { ...RETRY_DEFAULTS, ...opts.retry };
    this.ackTimeoutMs = opts.ackTimeoutMs ?? ACK_TIMEOUT_MS;
    this.timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  }

  get dispatcher(): Dispatcher | undefined {
    return this.opts.dispatcher;
  }

  /** The key, or a MissingKeyError. */
  async key(ctx: CallContext = {}): Promise<string> {
    const k = await this.opts.apiKey();
    if (!k) throw new MissingKeyError(ctx);
    return k;
  }

  /** True when url has the base URL's origin (scheme, host and port): only then may it carry the key. */
  isBaseOrigin(url: URL): boolean {
    return url.origin === this.base.origin;
  }

  /** The full URL of a catalog path and query under the base URL. */
  urlFor(path: string, query: Readonly<Record<string, string>> = {}): URL {
    const u = callUrl(this.base, path, query);
    if (!this.isBaseOrigin(u)) throw new Error(l10n.t('Path left the base origin: {0}', path));
    return u;
  }

  /** Sends one call, retrying only what cannot charge twice; resolves with a 2xx answer or throws a WalletApiError. */
  async send(call: HttpCall): Promise<HttpAnswer> {
    const ctx: CallContext = { endpointId: call.endpointId, paid: call.paid, family: call.family, what: `${call.method} ${call.path}` };
    let key: string | undefined;
    try {
      if (call.signal?.aborted) throw new CancelledError({ ...ctx, mayHaveBeenSent: false });
      key = await this.key(ctx);
      for (let attempt = 1; ; attempt++) {
        const started = performance.now();
        try {
          const answer = await this.attempt(call, key, ctx);
          this.log(call, key, { attempt, started, status: answer.status, charged: this.chargedOnSuccess(call, answer.json) });
          return answer;
        } catch (e) {
          const err = e instanceof WalletApiError ? e : this.unexpected(e, ctx);
          const wait = this.retryDelay(call, err, attempt);
          this.log(call, key, {
            attempt,
            started,
            status: err.status,
            charged: err.charged === 'no' ? 0 : undefined,
            error: err.kind,
            willRetry: wait !== undefined,
          });
          if (wait === undefined) throw err;
          await sleep(wait, call.signal, () => new CancelledError({ ...ctx, mayHaveBeenSent: false }));
        }
      }
    } catch (e) {
      throw this.scrub(e, key);
    }
  }

  private chargedOnSuccess(call: HttpCall, json: unknown): number {
    if (!call.paid) return 0;
    return call.chargeOf?.(json) ?? call.quoted ?? 0;
  }

  /** Milliseconds to wait before another attempt, or undefined when this failure must not be retried. */
  private retryDelay(call: HttpCall, err: WalletApiError, attempt: number): number | undefined {
    if (attempt >= this.retry.attempts || call.signal?.aborted) return undefined;
    const idempotent = call.method === 'GET' && !call.paid;
    // A proxy that asks for credentials (407/403) will ask again: another attempt only waits.
    // So will one that did not open the tunnel in time (each try would wait as long again).
    if (err instanceof NetworkError && (err.code === 'PROXY_AUTH' || err.code === 'PROXY_TUNNEL_TIMEOUT' || err.code === 'PROXY_TUNNEL_STOPPED')) return undefined;
    const provenRefused = err.kind === 'rateLimited' || (err instanceof NetworkError && !err.sent);
    const transient = err.kind === 'network' || err.kind === 'server' || err.kind === 'rateLimited';
    if (!(idempotent ? transient : provenRefused)) return undefined;
    if (err instanceof RateLimitedError && err.retryAfterMs !== undefined) {
      return err.retryAfterMs > this.retry.maxRetryAfterMs ? undefined : err.retryAfterMs;
    }
    const exp = Math.min(this.retry.maxDelayMs, this.retry.baseDelayMs * 2 ** (attempt - 1));
    // Equal jitter: at least half the backoff, so retries of many clients spread out but still back off.
    return exp / 2 + Math.random() * (exp / 2);
  }

  private async attempt(call: HttpCall, key: string, ctx: CallContext): Promise<HttpAnswer> {
    const url = this.urlFor(call.path, call.query);
    // Written before the answer's clock starts: the body's slices are not the server's time.
    const body = call.body === undefined ? undefined : await callBody(call.body);
    // A long body is written over several turns: a cancel in them is before anything was sent.
    if (call.signal?.aborted) throw new CancelledError({ ...ctx, mayHaveBeenSent: false });
    const limit = call.paid ? this.ackTimeoutMs : this.timeoutMs;
    const ac = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      ac.abort(new Error('timeout'));
    }, limit);
    const onCancel = (): void => ac.abort(new Error('cancelled'));
    call.signal?.addEventListener('abort', onCancel, { once: true });
    const headers = callHeaders(key, body !== undefined);
    try {
      let res: Dispatcher.ResponseData;
      try {
        res = await undici().request(url, {
          method: call.method,
          headers,
          body,
          signal: ac.signal,
          dispatcher: this.opts.dispatcher,
          headersTimeout: limit + 1_000,
          bodyTimeout: this.timeoutMs,
        });
      } catch (e) {
        // A tunnel the proxy never opened proves the request was never written, whoever stopped the wait.
        const tunnel = proxyFailure(e, this.opts.dispatcher, url);
        if (call.signal?.aborted) throw new CancelledError(tunnel ? { ...ctx, mayHaveBeenSent: false } : ctx);
        if (timedOut && !tunnel) {
          // Our own timer proves nothing about the server: a paid call may have been accepted.
          throw call.paid
            ? new NoAnswerError({ ...ctx, timeoutMs: limit })
            : new NetworkError({ ...ctx, sent: true, detail: l10n.t('no answer within {0} s', limit / 1000), origin: this.base.origin });
        }
        throw this.networkError(e, ctx, url);
      }
      // The answer has begun: the acknowledgement deadline is met.
      clearTimeout(timer);
      let text: string;
      try {
        text = await readCapped(res.body, MAX_JSON_BYTES);
      } catch (e) {
        if (call.signal?.aborted) throw new CancelledError(ctx);
        const code = codeOf(e);
        throw new NetworkError({ ...ctx, sent: true, code, detail: l10n.t('the answer broke off: {0}', describeNetwork(e, code)), origin: this.base.origin, cause: e });
      }
      if (res.statusCode < 200 || res.statusCode >= 300) {
        throw errorFromResponse(res.statusCode, res.headers, text, { ...ctx, quoted: call.quoted, knownBalance: call.knownBalance });
      }
      let json: unknown;
      let isJson = false;
      if (text.trim() !== '') {
        try {
          json = JSON.parse(text);
          isJson = true;
        } catch {
          json = undefined;
        }
      }
      const ct = res.headers['content-type'];
      return { status: res.statusCode, text, json, isJson, contentType: Array.isArray(ct) ? ct[0] : ct };
    } finally {
      clearTimeout(timer);
      call.signal?.removeEventListener('abort', onCancel);
    }
  }

  /**
   * A failure before any answer. A proxy that refused the tunnel, or could not be reached, is
   * named as the cause: the request was never written, so nothing was sent or charged.
   */
  private networkError(e: unknown, ctx: CallContext, url: URL): NetworkError {
    const viaProxy = proxyFailure(e, this.opts.dispatcher, url);
    if (viaProxy) return new NetworkError({ ...ctx, sent: false, code: viaProxy.code, detail: viaProxy.detail, origin: this.base.origin, proxy: true, cause: e });
    const code = codeOf(e);
    const hint = code && (code.startsWith('ERR_TLS') || code.includes('CERT')) ? proxyCertificateHint(this.opts.dispatcher) : undefined;
    const detail = describeNetwork(e, code) + (hint ? `; ${hint}` : '');
    return new NetworkError({ ...ctx, sent: !provesNotSent(code), code, detail, origin: this.base.origin, cause: e });
  }

  private unexpected(e: unknown, ctx: CallContext): WalletApiError {
    const code = codeOf(e);
    return new NetworkError({ ...ctx, sent: !provesNotSent(code), code, detail: describeNetwork(e, code), origin: this.base.origin, cause: e });
  }

  private scrub(e: unknown, key: string | undefined): unknown {
    if (e instanceof WalletApiError) return e.redacted([key]);
    if (e instanceof Error && key) {
      e.message = redact(e.message, [key]);
      if (e.stack) e.stack = redact(e.stack, [key]);
    }
    return e;
  }

  private log(
    call: HttpCall,
    key: string,
    a: { attempt: number; started: number; status?: number; charged?: number; error?: ErrorKind; willRetry?: boolean },
  ): void {
    if (!this.opts.onLog) return;
    const qs = new URLSearchParams(call.query ?? {}).toString();
    try {
      this.opts.onLog({
        endpointId: call.endpointId,
        method: call.method,
        path: redact(qs ? `${call.path}?${qs}` : call.path, [key]),
        status: a.status,
        durationMs: Math.round(performance.now() - a.started),
        attempt: a.attempt,
        quoted: call.quoted,
        charged: a.charged,
        error: a.error,
        willRetry: a.willRetry ?? false,
      });
    } catch {
      // A failing log sink must not fail the call.
    }
  }
}
