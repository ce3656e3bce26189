/**
 * Typed errors of the client layer. Every error has a `kind` (switch on it), a message a
 * person can act on, and `charged`: whether the failed call cost credits.
 *
 *   'no'       the server refused it, or it never left this machine (§7.1, §7.2).
 *   'unknown'  the request may have reached the server and been accepted (a drop after
 *              sending, no answer before this machine's own timer, a 5xx on a paid call).
 *              The message says "may have been charged": a queued job is looked up in the
 *              free request history (jobs/reconcile.ts) before any retry; a direct call has
 *              no history, so running it again may charge again.
 *
 * Only the server's own timeout answer (504 ack_timeout, §7.1) proves that nothing was
 * queued: this machine's timer firing proves nothing about what the server did.
 *
 * Server answers are mapped to these classes once, in http.ts (`errorFromResponse`), from
 * the HTTP status and the ErrorBody code of wire.ts. Messages are redacted there too.
 *
 * Every message is made through l10n.t (core/l10n.ts) when the error is made, so it reads in the
 * person's language; the sentences shared by several messages are functions, not constants, for
 * the same reason (a constant would be English, made before any bundle arrives).
 */
import { l10n } from './l10n';
import { thousands } from './numberText';
import { SettingIds } from './ids';

/**
 * Replaces every occurrence of each secret in text with a fixed marker, for logs and error
 * messages. Here, below everything, because errors are redacted when they are made.
 */
export function redact(text: string, secrets: readonly (string | undefined)[]): string {
  let out = text;
  for (const s of secrets) {
    if (s && s.length >= 4) out = out.split(s).join('‹redacted›');
  }
  return out;
}

export type ErrorKind =
  | 'noKey'
  | 'keyRefused'
  | 'ipMismatch'
  | 'insufficientCredits'
  | 'badInput'
  | 'rateLimited'
  | 'server'
  | 'malformed'
  | 'network'
  | 'ackTimeout'
  | 'noAnswer'
  | 'notFound'
  | 'insecureUrl'
  | 'cancelled'
  | 'download'
  | 'unzip';

type Charged = 'no' | 'unknown';

const nothingCharged = (): string => l10n.t('Nothing was charged.');
const notSent = (): string => l10n.t('Nothing was sent. Nothing was charged.');
/** Command titles as the Command Palette shows them (package.nls.json holds the same English). */
const setKeyCommand = (): string => l10n.t('Wallet Analytics: Set API Key');
const resetIpCommand = (): string => l10n.t('Wallet Analytics: Reset Saved IP Address');

/** Where a call failed: which endpoint, and whether it costs credits (the message depends on it). */
export interface CallContext {
  readonly endpointId?: string;
  readonly paid?: boolean;
  /** The endpoint's family: what "may have been charged" advises depends on it. */
  readonly family?: 'queued' | 'direct' | 'account';
  /** "GET /credits", for messages. */
  readonly what?: string;
}

/**
 * What a paid call that may have been accepted says, by family. A queued job can be looked
 * up in the free request history; a direct call leaves no record, so only the balance tells.
 */
function mayHaveBeenCharged(ctx: CallContext): string {
  if (ctx.family === 'queued') return l10n.t('It may have been charged: the server may have accepted it. Do not submit it again before checking Request History (free).');
  if (ctx.family === 'direct') return l10n.t('It may have been charged: the server may have accepted it. Running it again may charge again; check your credits before you do.');
  return l10n.t('It may have been charged: the server may have accepted it. Check Request History and your credits before running it again.');
}

interface Init extends CallContext {
  readonly charged: Charged;
  readonly status?: number;
  readonly serverMessage?: string;
  readonly cause?: unknown;
}

/** The base of every error this layer throws. */
export abstract class WalletApiError extends Error {
  abstract readonly kind: ErrorKind;
  readonly charged: Charged;
  readonly status: number | undefined;
  readonly endpointId: string | undefined;
  /** What the server said, redacted; shown inside the message too. */
  serverMessage: string | undefined;

  protected constructor(message: string, init: Init) {
    super(message, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = new.target.name;
    this.charged = init.charged;
    this.status = init.status;
    this.endpointId = init.endpointId;
    this.serverMessage = init.serverMessage;
  }

  /** Removes every secret from the message, stack and every text field (a server may echo the key back). */
  redacted(secrets: readonly (string | undefined)[]): this {
    this.message = redact(this.message, secrets);
    if (this.stack) this.stack = redact(this.stack, secrets);
    const self = this as unknown as Record<string, unknown>;
    for (const k of Object.keys(self)) {
      const v = self[k];
      if (typeof v === 'string') self[k] = redact(v, secrets);
      else if (Array.isArray(v)) self[k] = v.map((x: unknown) => (typeof x === 'string' ? redact(x, secrets) : x));
    }
    return this;
  }
}

/** Appends "Nothing was charged." for refused paid calls (§7.2: a refused call says it cost nothing). */
function refusal(text: string, ctx: CallContext): string {
  return ctx.paid ? `${text} ${nothingCharged()}` : text;
}

function said(serverMessage: string | undefined): string {
  return serverMessage ? ` ${l10n.t('The server said: “{0}”.', serverMessage.replace(/\.$/u, ''))}` : '';
}

function dot(s: string): string {
  return /[.!?\u201D]$/u.test(s) ? s : `${s}.`;
}

/** No key is stored: nothing was sent. */
export class MissingKeyError extends WalletApiError {
  readonly kind = 'noKey' as const;
  constructor(ctx: CallContext = {}) {
    super(refusal(l10n.t('No API key is set. Run “{0}” to enter the key issued with your API plan.', setKeyCommand()), ctx), {
      ...ctx,
      charged: 'no',
    });
  }
}

/** 401 (or 403 without ip_mismatch): the key is unknown or its plan lacks the API. */
export class KeyRefusedError extends WalletApiError {
  readonly kind = 'keyRefused' as const;
  constructor(ctx: CallContext & { status?: number; serverMessage?: string } = {}) {
    super(
      refusal(
        l10n.t('The API key was refused.{0} Run “{1}” to enter a valid key (the plan with the Wallet Database and the API is required).', said(ctx.serverMessage), setKeyCommand()),
        ctx,
      ),
      { ...ctx, charged: 'no' },
    );
  }
}

/**
 * 403 ip_mismatch: the key is bound to one IP address (§5.3); POST /reset_ip is free. In a remote
 * window (SSH, WSL, Codespaces) the extension runs on the remote machine, so its calls leave from
 * there: the message names that case, since "this machine" is not the one in front of the person.
 */
export class IpMismatchError extends WalletApiError {
  readonly kind = 'ipMismatch' as const;
  constructor(ctx: CallContext & { status?: number; serverMessage?: string } = {}) {
    super(
      refusal(
        l10n.t(
          'The key is bound to one IP address, and this call came from a machine whose address differs.{0} In a remote window (SSH, WSL, Codespaces), calls leave from the remote machine, not from this computer. “{1}” (free) binds the key to the machine that makes the next call; then try again.',
          said(ctx.serverMessage),
          resetIpCommand(),
        ),
        ctx,
      ),
      { ...ctx, charged: 'no' },
    );
  }
}

/** 402: the balance does not cover the price; refused, so nothing was charged. */
export class InsufficientCreditsError extends WalletApiError {
  readonly kind = 'insufficientCredits' as const;
  readonly balance: number | undefined;
  readonly needed: number | undefined;
  constructor(ctx: CallContext & { status?: number; serverMessage?: string; balance?: number; needed?: number } = {}) {
    const needed = ctx.needed === undefined ? undefined : thousands(ctx.needed);
    const balance = ctx.balance === undefined ? undefined : thousands(ctx.balance);
    const head =
      needed !== undefined && balance !== undefined
        ? l10n.t('Not enough credits for this call: it costs {0} and the balance is {1}.', needed, balance)
        : needed !== undefined
          ? l10n.t('Not enough credits for this call: it costs {0}.', needed)
          : balance !== undefined
            ? l10n.t('Not enough credits for this call: the balance is {0}.', balance)
            : l10n.t('Not enough credits for this call.');
    super(`${head} ${nothingCharged()} ${l10n.t('The quota is reset every 30 days.')}`, { ...ctx, charged: 'no' });
    this.balance = ctx.balance;
    this.needed = ctx.needed;
  }
}

/** Input refused, by validateInput before sending or by the server with 400. */
export class BadInputError extends WalletApiError {
  readonly kind = 'badInput' as const;
  /** 'client': caught by validateInput before anything was sent; 'server': refused with 400. */
  readonly source: 'client' | 'server';
  readonly problems: readonly string[];
  constructor(ctx: CallContext & { status?: number; serverMessage?: string; problems?: readonly string[]; source: 'client' | 'server' }) {
    const problems = ctx.problems ?? (ctx.serverMessage ? [ctx.serverMessage] : []);
    const list = problems.map(dot).join(' ');
    const text =
      ctx.source === 'client'
        ? l10n.t('Check the input: {0} {1}', list || l10n.t('it is not valid.'), notSent())
        : refusal(l10n.t('The server refused the input: {0}', list || l10n.t('HTTP {0}.', ctx.status ?? 400)), ctx);
    super(text, { ...ctx, charged: 'no' });
    this.source = ctx.source;
    this.problems = problems;
  }
}

/** 429: too many requests; carries the Retry-After wait. */
export class RateLimitedError extends WalletApiError {
  readonly kind = 'rateLimited' as const;
  /** How long the server asked to wait (Retry-After), when it said. */
  readonly retryAfterMs: number | undefined;
  constructor(ctx: CallContext & { status?: number; serverMessage?: string; retryAfterMs?: number } = {}) {
    const text =
      ctx.retryAfterMs === undefined
        ? l10n.t('Too many requests: the server asks to wait a little before trying again.')
        : l10n.t('Too many requests: the server asks to wait {0} s before trying again.', Math.ceil(ctx.retryAfterMs / 1000));
    super(refusal(text, ctx), { ...ctx, charged: 'no' });
    this.retryAfterMs = ctx.retryAfterMs;
  }
}

/** 5xx: on a paid call the outcome is unknown (it may have been accepted). */
export class ServerError extends WalletApiError {
  readonly kind = 'server' as const;
  constructor(ctx: CallContext & { status?: number; serverMessage?: string } = {}) {
    const paid = ctx.paid === true;
    super(
      l10n.t('The server failed (HTTP {0}).{1} {2}', ctx.status ?? 500, said(ctx.serverMessage), paid ? mayHaveBeenCharged(ctx) : l10n.t('Try again in a moment.')),
      { ...ctx, charged: paid ? 'unknown' : 'no' },
    );
  }
}

/** A 2xx answer that is not JSON or does not match its wire.ts schema, or an unexpected redirect. */
export class MalformedResponseError extends WalletApiError {
  readonly kind = 'malformed' as const;
  /** What was wrong with the answer, e.g. "requestId: expected string". */
  readonly problem: string;
  constructor(ctx: CallContext & { status?: number; problem: string }) {
    const paid = ctx.paid === true;
    super(
      `${ctx.what ? l10n.t('The server’s answer to {0} was not understood: {1}', ctx.what, dot(ctx.problem)) : l10n.t('The server’s answer was not understood: {0}', dot(ctx.problem))}${paid ? ` ${mayHaveBeenCharged(ctx)}` : ''}`,
      { ...ctx, charged: paid ? 'unknown' : 'no' },
    );
    this.problem = ctx.problem;
  }
}

/** No HTTP answer: refused connection, DNS, TLS, drop, or no answer in time on a free call. */

/**
 * Why nothing could be reached, in words, from the error code of a request that never left: a
 * name DNS does not know, a port nobody listens on, a network that cannot get there, a timeout,
 * a certificate refused.
 */
export function unreachableWords(code: string | undefined, origin: string | undefined): string {
  let host = origin ?? l10n.t('the server');
  try {
    if (origin) host = new URL(origin).host;
  } catch {
    // keep the origin as given
  }
  switch (code) {
    case 'ENOTFOUND':
      return l10n.t('No server named {0} exists: the name is unknown to DNS, so the address is probably wrong', host);
    case 'EAI_AGAIN':
      return l10n.t('The name {0} could not be looked up (DNS did not answer): the network may be down, or the address wrong', host);
    case 'ECONNREFUSED':
      return l10n.t('{0} refused the connection: nothing listens at that address and port', host);
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
    case 'EADDRNOTAVAIL':
      return l10n.t('The network cannot reach {0}', host);
    case 'UND_ERR_CONNECT_TIMEOUT':
    case 'ETIMEDOUT':
      return l10n.t('{0} did not accept a connection in time', host);
    default:
      if (code && (code.startsWith('ERR_TLS') || code.includes('CERT'))) return l10n.t('The secure connection to {0} failed: its certificate was not accepted', host);
      return l10n.t('Could not reach {0}', origin ?? l10n.t('the server'));
  }
}

export class NetworkError extends WalletApiError {
  readonly kind = 'network' as const;
  /** False when the failure proves the request never left (connection refused, DNS, TLS, connect timeout). */
  readonly sent: boolean;
  readonly code: string | undefined;
  /** The proxy failed, not the API's address: the proxy settings are what to change. */
  readonly viaProxy: boolean;
  /** `proxy`: the proxy failed (its detail says how), not the API's address. */
  constructor(ctx: CallContext & { sent: boolean; code?: string; detail: string; origin?: string; proxy?: boolean; cause?: unknown }) {
    const where = ctx.origin ? ctx.origin : l10n.t('the server');
    const text = ctx.sent
      ? `${l10n.t('The connection to {0} failed after the request was sent ({1}).', where, ctx.detail)} ${ctx.paid ? mayHaveBeenCharged(ctx) : l10n.t('Try again in a moment.')}`
      : ctx.proxy
        ? `${l10n.t('Could not reach {0} through the proxy ({1}).', where, ctx.detail)} ${notSent()}`
        : `${unreachableWords(ctx.code, ctx.origin)} (${ctx.detail}). ${notSent()} ${l10n.t("If the address is wrong, change {0} in your user settings (or the profile's base URL); otherwise check the network.", SettingIds.baseUrl)}`;
    super(text, { ...ctx, charged: ctx.sent && ctx.paid ? 'unknown' : 'no' });
    this.sent = ctx.sent;
    this.code = ctx.code;
    this.viaProxy = ctx.proxy === true;
  }
}

/**
 * §7.1: the server's own answer (504 ack_timeout) that it could not acknowledge the request
 * in time, so it was not queued and not charged. Only that answer proves it: this machine's
 * timer firing is a NoAnswerError.
 */
export class AckTimeoutError extends WalletApiError {
  readonly kind = 'ackTimeout' as const;
  constructor(ctx: CallContext & { status?: number; serverMessage?: string; timeoutMs?: number } = {}) {
    const secs = ctx.timeoutMs === undefined ? 100 : Math.round(ctx.timeoutMs / 100) / 10;
    super(
      `${l10n.t('The server did not acknowledge the request within {0} s, so it was not queued, not charged (§7.1).', secs)} ${nothingCharged()} ${l10n.t('Try again later.')}`,
      { ...ctx, charged: 'no' },
    );
  }
}

/**
 * A paid call got no answer before this machine's own timer fired. The request was sent, and
 * the server may have accepted and charged it inside its own window, so nothing is proven.
 */
export class NoAnswerError extends WalletApiError {
  readonly kind = 'noAnswer' as const;
  readonly timeoutMs: number;
  constructor(ctx: CallContext & { timeoutMs: number }) {
    const secs = Math.round(ctx.timeoutMs / 100) / 10;
    super(`${l10n.t('No answer from the server within {0} s; this machine stopped waiting, but the request was sent.', secs)} ${mayHaveBeenCharged(ctx)}`, {
      ...ctx,
      charged: 'unknown',
    });
    this.timeoutMs = ctx.timeoutMs;
  }
}

/** 404: an unknown request id, creator or path. */
export class NotFoundError extends WalletApiError {
  readonly kind = 'notFound' as const;
  constructor(ctx: CallContext & { status?: number; serverMessage?: string } = {}) {
    // An unknown request id: what to do next, in words every host can act on (a service finds a
    // request only under the key it was sent with: another profile's, the runner's WA_API_KEY).
    const next = ctx.endpointId === 'request' ? ` ${l10n.t('Check the id, and that this key is the one it was sent with: the request history (free) lists this key’s requests.')}` : '';
    super(refusal(`${ctx.what ? l10n.t('Not found: {0}.', ctx.what) : l10n.t('Not found.')}${said(ctx.serverMessage)}${next}`, ctx), { ...ctx, charged: 'no' });
  }
}

/** A URL the key or a download must not go to: plain http off loopback, credentials in it. */
export class InsecureUrlError extends WalletApiError {
  readonly kind = 'insecureUrl' as const;
  constructor(ctx: CallContext & { url: string; reason: string }) {
    super(`${l10n.t('Refused to use {0}: {1}', ctx.url, dot(ctx.reason))} ${notSent()}`, { ...ctx, charged: 'no' });
  }
}

/**
 * Cancelled: by the caller's AbortSignal, a newer request that replaces this one, or a closing
 * table or window. The one cancellation type of the extension (a test holds it): every
 * AbortController is aborted with one, and a signal aborted any other way is turned into one
 * (abortReason, core/abort.ts), so a cancellation is recognised by type (isCancelled), never by
 * its words.
 */
export class CancelledError extends WalletApiError {
  readonly kind = 'cancelled' as const;
  constructor(ctx: CallContext & { mayHaveBeenSent?: boolean; cause?: unknown } = {}) {
    const unknown = ctx.paid === true && ctx.mayHaveBeenSent !== false;
    super(unknown ? `${l10n.t('Cancelled.')} ${mayHaveBeenCharged(ctx)}` : l10n.t('Cancelled.'), { ...ctx, charged: unknown ? 'unknown' : 'no' });
  }
}

type DownloadProblem = 'http' | 'truncated' | 'tooLarge' | 'redirects' | 'io';

/** A result file could not be saved. Downloading a result is free, so nothing is charged. */
export class DownloadError extends WalletApiError {
  readonly kind = 'download' as const;
  readonly problem: DownloadProblem;
  constructor(problem: DownloadProblem, message: string, extra: { status?: number; cause?: unknown } = {}) {
    super(message, { charged: 'no', ...extra });
    this.problem = problem;
  }
}

export type UnzipProblem = 'zipSlip' | 'badName' | 'symlink' | 'tooManyEntries' | 'tooLarge' | 'ratio' | 'corrupt' | 'io';

/** A result archive was refused or could not be extracted; nothing was left behind. */
export class UnzipError extends WalletApiError {
  readonly kind = 'unzip' as const;
  readonly problem: UnzipProblem;
  constructor(problem: UnzipProblem, message: string, cause?: unknown) {
    super(message, { charged: 'no', cause });
    this.problem = problem;
  }
}

/**
 * What an error says, as text: its message, or the thrown value itself when it is not an Error.
 * The one place that turns "something thrown" into words (a test holds every other file to it).
 */
export function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** Whether e is a cancellation (the one type: CancelledError), so it is not reported as a failure. */
export function isCancelled(e: unknown): e is CancelledError {
  return e instanceof CancelledError;
}

/** Narrowing helper: is e one of this layer's errors? */
export function isWalletApiError(e: unknown): e is WalletApiError {
  return e instanceof WalletApiError;
}
