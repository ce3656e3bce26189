/**
 * Response shapes and error bodies. The spec names only `requestId` and `url` (§2.1) and
 * leaves the rest "not shown"; everything else here is our design, kept in this one file
 * so that learning the real shapes later is an edit here. Every schema is loose: extra
 * fields from the server are accepted and kept.
 */
import { z } from 'zod';
import { l10n } from '../l10n';
import { lazySchema } from '../lazySchema';

/** Status of a queued request. Not shown in the spec: `url` being set is the only proof of done. */
export type RequestStatus = 'queued' | 'running' | 'done' | 'failed';

/** The longest requestId taken (our bound: the spec shows only that it is a string, §2.1). */
export const REQUEST_ID_MAX = 512;

/** Whether a string holds a control character (C0, DEL or C1): never part of an id we can put in a URL or a log line. */
function hasControl(v: string): boolean {
  for (let i = 0; i < v.length; i++) {
    const c = v.charCodeAt(i);
    if (c < 0x20 || (c >= 0x7f && c < 0xa0)) return true;
  }
  return false;
}

/** The requestId rule in one sentence, naming it as `label` does. */
export function requestIdRule(label: string): string {
  return `${label} must be 1 to ${REQUEST_ID_MAX} characters, with no control characters, and not “.” or “..”.`;
}

/**
 * The one rule for a requestId, for the submit acknowledgement and for `GET /request/{requestId}`
 * alike, so an id the client accepted (and was charged for) can always be polled. The id is the
 * server's and opaque: any characters (`+`, `/`, `=`, spaces…) are taken and URL-encoded where
 * used (encodeRequest); result file names use a sanitised copy (src/core/results/names.ts). Only
 * what no URL path can carry is refused: control characters, and "." or "..", which a URL reads as
 * the folder itself or its parent even when percent-encoded.
 */
export function requestIdSchema(label: string): z.ZodType<string> {
  const rule = requestIdRule(label);
  return z
    .string({ error: rule })
    .min(1, { error: rule })
    .max(REQUEST_ID_MAX, { error: rule })
    .refine((v) => !hasControl(v) && v !== '.' && v !== '..', { error: rule });
}

/** What a queued submit answers. */
export const SubmitAck = lazySchema(() => z.looseObject({ requestId: requestIdSchema('The requestId') }));
export type SubmitAck = z.infer<typeof SubmitAck>;

/** A queued request record as this client keeps it (`GET /request/{id}`, items of `GET /requests`). */
const RequestRecordShape = lazySchema(() => z.looseObject({
  requestId: z.string().min(1),
  /** Empty until the job is done (§2.1). */
  url: z.string(),
  endpoint: z.string().optional(),
  status: z.string().optional(),
  createdAt: z.string().optional(),
  completedAt: z.string().optional(),
  cost: z.number().optional(),
  inputs: z.record(z.string(), z.unknown()).optional(),
  error: z.string().optional(),
}));
export type RequestRecord = z.infer<typeof RequestRecordShape>;

/** One record as read: kept (with what of it could not be read), or skipped and why. */
type ReadRecord = { readonly record: RequestRecord; readonly dropped: readonly string[] } | { readonly skipped: string };

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const shown = (v: unknown): string => {
  const t = JSON.stringify(v) ?? String(v);
  return t.length > 40 ? `${t.slice(0, 40)}…` : t;
};

/** A time as ISO text: a string as it is, a number as epoch seconds (below 1e11) or milliseconds. */
function isoTime(v: unknown): string | undefined {
  if (typeof v === 'string') return v;
  if (typeof v !== 'number' || !Number.isFinite(v) || v < 0) return undefined;
  const d = new Date(v < 1e11 ? v * 1000 : v);
  return Number.isNaN(d.getTime()) ? undefined : d.toISOString();
}

/**
 * One request record, read on its own (issue 21): the spec gives only requestId and url, so the
 * other fields' types are our guess, and one odd field must not make the record, or the whole
 * history, unreadable (a finished job would stay pending). What can be read safely is coerced: a
 * numeric-string cost to a number, a numeric time (epoch s or ms) to ISO text, `url: null` to not
 * set, an object error to its message or JSON. A field still unreadable is dropped and named. A
 * record without a usable requestId (a string, or an integer, by requestIdSchema's rule) is skipped.
 */
function readRequestRecord(raw: unknown): ReadRecord {
  if (!isObject(raw)) return { skipped: `not an object (${shown(raw)})` };
  const id = typeof raw.requestId === 'number' && Number.isSafeInteger(raw.requestId) ? String(raw.requestId) : raw.requestId;
  const idOk = requestIdSchema('The requestId').safeParse(id);
  if (!idOk.success) return { skipped: `no usable requestId (${shown(raw.requestId)})` };
  const out: Record<string, unknown> = { ...raw, requestId: idOk.data };
  const dropped: string[] = [];
  const drop = (key: string): void => {
    dropped.push(`${key} ${shown(raw[key])}`);
    delete out[key];
  };
  if (raw.url === null || raw.url === undefined) out.url = '';
  else if (typeof raw.url !== 'string') {
    drop('url');
    out.url = '';
  }
  for (const key of ['endpoint', 'status'] as const) if (raw[key] !== undefined && typeof raw[key] !== 'string') drop(key);
  for (const key of ['createdAt', 'completedAt'] as const) {
    if (raw[key] === undefined) continue;
    const t = isoTime(raw[key]);
    if (t === undefined) drop(key);
    else out[key] = t;
  }
  if (raw.cost !== undefined) {
    const c = raw.cost;
    const n = typeof c === 'number' ? c : typeof c === 'string' && /^\s*[0-9]+(\.[0-9]+)?\s*$/u.test(c) ? Number(c) : Number.NaN;
    if (Number.isFinite(n)) out.cost = n;
    else drop('cost');
  }
  if (raw.inputs !== undefined && !isObject(raw.inputs)) drop('inputs');
  if (raw.error === null) delete out.error;
  else if (raw.error !== undefined && typeof raw.error !== 'string') {
    const e = raw.error;
    out.error = isObject(e) && typeof e.message === 'string' ? e.message : JSON.stringify(e);
  }
  const r = RequestRecordShape.safeParse(out);
  // Every field was made to fit above; this is the shape's own guard.
  return r.success ? { record: r.data, dropped } : { skipped: r.error.issues[0]?.message ?? 'unreadable' };
}

/** `GET /request/{id}`: one record, read as readRequestRecord reads it (refused only without a usable requestId). */
export const RequestRecord = lazySchema(() => z.unknown().transform((v, ctx): RequestRecord => {
  const r = readRequestRecord(v);
  if ('skipped' in r) {
    ctx.addIssue({ code: 'custom', message: l10n.t('the request record has {0}', r.skipped) });
    return z.NEVER;
  }
  return r.record;
}));

/** `GET /requests` as read: the readable records, and a line for each record skipped or field dropped (for the log). */
type RequestHistory = RequestRecord[] & { readonly unreadable?: readonly string[] };

/** Each record of a history read on its own: one odd record never hides the others. */
export function readRequestList(items: readonly unknown[]): RequestHistory {
  const records: RequestRecord[] = [];
  const unreadable: string[] = [];
  items.forEach((item, i) => {
    const r = readRequestRecord(item);
    if ('skipped' in r) unreadable.push(`record ${i + 1} skipped: ${r.skipped}`);
    else {
      records.push(r.record);
      if (r.dropped.length > 0) unreadable.push(`record ${r.record.requestId}: unreadable ${r.dropped.join(', ')} (left out)`);
    }
  });
  return Object.assign(records, unreadable.length > 0 ? { unreadable } : {});
}

/** What of a history could not be read (readRequestList), for the log; [] when all of it was. */
export function unreadableOf(list: readonly RequestRecord[]): readonly string[] {
  return (list as RequestHistory).unreadable ?? [];
}

/** `GET /requests`: a bare array, or an object holding one under `requests`; each record read on its own. */
export const RequestList = lazySchema(() => z
  .union([z.array(z.unknown()), z.looseObject({ requests: z.array(z.unknown()) }).transform((o) => o.requests)])
  .transform((items) => readRequestList(items)));

/**
 * `GET /credits` carries a number in a string (§2.3); a bare JSON number is accepted too. Only
 * decimal digits are a balance: `Number()` would also read "0x10" as 16, "0b11" as 3, "1e3" as
 * 1000, " 5" as 5 and "" as 0, and "-5" is no balance at all. "1,234" is refused too, since a
 * separator reads differently per locale (1.234 in German). A balance steers spending, so a value
 * we are not sure of is an error the user sees, never a guess.
 */
export const Credits = lazySchema(() => z
  .union([z.string(), z.number(), z.looseObject({ credits: z.union([z.string(), z.number()]) })])
  .transform((v, ctx) => {
    const raw = typeof v === 'object' ? v.credits : v;
    const n = typeof raw === 'number' ? raw : /^[0-9]+$/u.test(raw) ? Number(raw) : Number.NaN;
    if (!Number.isSafeInteger(n) || n < 0) {
      ctx.addIssue({ code: 'custom', message: l10n.t('credits is not a whole number of decimal digits: {0}', JSON.stringify(raw)) });
      return z.NEVER;
    }
    return n;
  }));

/** `POST /reset_ip` answer; its body is not shown, so anything 2xx is success. */
export const ResetIp = lazySchema(() => z.unknown());

/** One queryable field of the Wallet Database (`GET /wallet_database/columns`). */
export const ColumnInfo = lazySchema(() => z.looseObject({
  name: z.string().min(1),
  type: z.enum(['number', 'integer', 'string', 'boolean']).default('number'),
  metric: z.string().optional(),
  timeframe: z.string().optional(),
  group: z.string().optional(),
  kind: z.string().optional(),
  description: z.string().optional(),
}));
export type ColumnInfo = z.infer<typeof ColumnInfo>;
export const ColumnList = lazySchema(() => z.union([
  z.array(ColumnInfo),
  z.looseObject({ columns: z.array(ColumnInfo) }).transform((o) => o.columns),
]));

/** `POST /wallet_database` and its second-chain twin. */
export const WalletDatabaseResult = lazySchema(() => z.looseObject({
  total: z.number().int().nonnegative(),
  wallets: z.array(z.record(z.string(), z.unknown())),
}));
export type WalletDatabaseResult = z.infer<typeof WalletDatabaseResult>;

/** `POST /token_creators` */
export const CreatorsPage = lazySchema(() => z.looseObject({
  creators: z.array(z.record(z.string(), z.unknown())),
  page: z.number().int().optional(),
  total: z.number().int().optional(),
}));

/** `GET /token_creators/{address}` */
export const CreatorRecord = lazySchema(() => z.looseObject({
  address: z.string(),
  tokens: z.array(z.record(z.string(), z.unknown())),
}));

/** A page of swaps (`GET /wallets/{address}/activity`); `nextCursor` absent or null on the last page. */
export const ActivityPage = lazySchema(() => z.looseObject({
  swaps: z.array(z.record(z.string(), z.unknown())),
  nextCursor: z.string().nullable().optional(),
}));
export type ActivityPage = z.infer<typeof ActivityPage>;

/** `GET /altchain_pnl`: every metric of one wallet. */
export const WalletMetrics = lazySchema(() => z.looseObject({
  address: z.string(),
  metrics: z.record(z.string(), z.number().nullable()),
}));

/**
 * Error body (not shown in the spec; our design): `{ "error": { "code", "message" } }`.
 * The client also accepts `{ "message" }`, `{ "error": "text" }` or plain text.
 */
export const ErrorBody = lazySchema(() => z.looseObject({
  error: z.union([z.string(), z.looseObject({ code: z.string().optional(), message: z.string().optional() })]).optional(),
  message: z.string().optional(),
  code: z.string().optional(),
}));

/** Error codes the sandbox sends and the client maps (with the HTTP status) to typed errors. */
export const ERROR_CODES = {
  badInput: 'bad_input', // 400
  keyRefused: 'key_refused', // 401
  insufficientCredits: 'insufficient_credits', // 402
  ipMismatch: 'ip_mismatch', // 403
  notFound: 'not_found', // 404
  ackTimeout: 'ack_timeout', // 504 at submit: nothing queued, nothing charged (§7.1)
  rateLimited: 'rate_limited', // 429
  server: 'server_error', // 5xx
} as const;
