/**
 * How the transport (http.ts) reads a failure: a non-2xx answer mapped to its typed error (the
 * ErrorBody code first, then the HTTP status), Retry-After read, and a network error's code told
 * apart by whether it proves the request never left this machine (so it may be retried without
 * any chance of a second charge). Its own file so http.ts holds the sending, not the reading.
 */
import { ErrorBody, ERROR_CODES } from '../spec/wire';
import {
  AckTimeoutError,
  BadInputError,
  InsufficientCreditsError,
  IpMismatchError,
  KeyRefusedError,
  MalformedResponseError,
  NotFoundError,
  RateLimitedError,
  ServerError,
  WalletApiError,
  type CallContext,
  errorText,
} from '../errors';
import { l10n } from '../l10n';

/** §7.1: a submit not acknowledged within 100 seconds is refused; nothing is queued or charged. */
export const ACK_TIMEOUT_MS = 100_000;

/** Retry-After in milliseconds, from delta-seconds or an HTTP date; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | string[] | undefined, now: number = Date.now()): number | undefined {
  const v = (Array.isArray(value) ? value[0] : value)?.trim();
  if (!v) return undefined;
  if (/^\d+$/u.test(v)) return Number(v) * 1000;
  const at = Date.parse(v);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

// ---- server answers → typed errors (the one mapping) ----

interface ParsedError {
  code: string | undefined;
  message: string | undefined;
  balance: number | undefined;
}

function numberIn(o: unknown, keys: readonly string[]): number | undefined {
  if (!o || typeof o !== 'object') return undefined;
  for (const k of keys) {
    const v = (o as Record<string, unknown>)[k];
    const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
    if (Number.isFinite(n)) return n;
  }
  return undefined;
}

function parseErrorBody(text: string): ParsedError {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    const t = text.trim();
    // An HTML error page says nothing a person can use.
    return { code: undefined, message: t && !t.startsWith('<') ? t.slice(0, 300) : undefined, balance: undefined };
  }
  const r = ErrorBody.safeParse(json);
  if (!r.success) return { code: undefined, message: undefined, balance: undefined };
  const e = r.data.error;
  const inner = typeof e === 'object' ? e : undefined;
  const balanceKeys = ['balance', 'credits', 'remaining'];
  return {
    code: inner?.code ?? r.data.code,
    message: (typeof e === 'string' ? e : inner?.message) ?? r.data.message,
    balance: numberIn(inner, balanceKeys) ?? numberIn(r.data, balanceKeys),
  };
}

/** Maps a non-2xx answer to its typed error, from the ErrorBody code first, then the HTTP status. */
export function errorFromResponse(
  status: number,
  headers: Record<string, string | string[] | undefined>,
  text: string,
  ctx: CallContext & { quoted?: number; knownBalance?: number; ackTimeoutMs?: number },
): WalletApiError {
  const { code, message, balance } = parseErrorBody(text);
  const base = { ...ctx, status, serverMessage: message };
  if (status >= 300 && status < 400) {
    const to = headers.location;
    return new MalformedResponseError({
      ...ctx,
      status,
      problem: l10n.t('an unexpected redirect (HTTP {0}{1}); redirects are not followed, so the key stays with the base URL', status, to ? l10n.t(' to {0}', String(to)) : ''),
    });
  }
  const C = ERROR_CODES;
  const byCode: Record<string, () => WalletApiError> = {
    [C.keyRefused]: () => new KeyRefusedError(base),
    [C.ipMismatch]: () => new IpMismatchError(base),
    [C.insufficientCredits]: () => new InsufficientCreditsError({ ...base, balance: balance ?? ctx.knownBalance, needed: ctx.quoted }),
    [C.badInput]: () => new BadInputError({ ...base, source: 'server' }),
    [C.notFound]: () => new NotFoundError(base),
    [C.ackTimeout]: () => new AckTimeoutError({ ...base, timeoutMs: ACK_TIMEOUT_MS }),
    [C.rateLimited]: () => new RateLimitedError({ ...base, retryAfterMs: parseRetryAfter(headers['retry-after']) }),
    [C.server]: () => new ServerError(base),
  };
  const known = code === undefined ? undefined : byCode[code];
  if (known) return known();
  if (status === 401) return new KeyRefusedError(base);
  if (status === 402) return new InsufficientCreditsError({ ...base, balance: balance ?? ctx.knownBalance, needed: ctx.quoted });
  if (status === 403) return new KeyRefusedError(base);
  if (status === 404) return new NotFoundError(base);
  if (status === 429) return new RateLimitedError({ ...base, retryAfterMs: parseRetryAfter(headers['retry-after']) });
  if (status >= 500) return new ServerError(base);
  return new BadInputError({ ...base, source: 'server', problems: [message ?? l10n.t('HTTP {0}', status)] });
}

// ---- network failures ----

/** Error codes that prove the request never left this machine. */
const NOT_SENT_CODES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EADDRNOTAVAIL',
  'UND_ERR_CONNECT_TIMEOUT',
]);

export function codeOf(e: unknown): string | undefined {
  if (!e || typeof e !== 'object') return undefined;
  const c = (e as { code?: unknown }).code;
  if (typeof c === 'string') return c;
  // Node's happy-eyeballs connect may wrap several attempts in an AggregateError.
  const inner = (e as { errors?: unknown }).errors;
  return Array.isArray(inner) ? codeOf(inner[0]) : codeOf((e as { cause?: unknown }).cause);
}

export function provesNotSent(code: string | undefined): boolean {
  return code !== undefined && (NOT_SENT_CODES.has(code) || code.startsWith('ERR_TLS') || code.includes('CERT'));
}

export function describeNetwork(e: unknown, code: string | undefined): string {
  const msg = errorText(e);
  return code && !msg.includes(code) ? `${code}: ${msg}` : msg;
}

// ---- the transport ----


