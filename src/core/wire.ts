/**
 * Response shapes and error bodies. The spec names only `requestId` and `url` (§2.1) and
 * leaves the rest "not shown"; everything else here is our design, kept in this one file
 * so that learning the real shapes later is an edit here. Every schema is loose: extra
 * fields from the server are accepted and kept.
 */
import { z } from 'zod';

/** Status of a queued request. Not shown in the spec: `url` being set is the only proof of done. */
export const REQUEST_STATUSES = ['queued', 'running', 'done', 'failed'] as const;
export type RequestStatus = (typeof REQUEST_STATUSES)[number];

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
export const SubmitAck = z.looseObject({ requestId: requestIdSchema('The requestId') });
export type SubmitAck = z.infer<typeof SubmitAck>;

/** A queued request record (`GET /request/{id}`, items of `GET /requests`). */
export const RequestRecord = z.looseObject({
  requestId: z.string().min(1),
  /** Empty until the job is done (§2.1). */
  url: z.string().default(''),
  endpoint: z.string().optional(),
  status: z.string().optional(),
  createdAt: z.string().optional(),
  completedAt: z.string().optional(),
  cost: z.number().optional(),
  inputs: z.record(z.string(), z.unknown()).optional(),
  error: z.string().optional(),
});
export type RequestRecord = z.infer<typeof RequestRecord>;

/** `GET /requests`: a bare array, or an object holding one under `requests`. */
export const RequestList = z.union([
  z.array(RequestRecord),
  z.looseObject({ requests: z.array(RequestRecord) }).transform((o) => o.requests),
]);

/**
 * `GET /credits` carries a number in a string (§2.3); a bare JSON number is accepted too. Only
 * decimal digits are a balance: `Number()` would also read "0x10" as 16, "0b11" as 3, "1e3" as
 * 1000, " 5" as 5 and "" as 0, and "-5" is no balance at all. "1,234" is refused too, since a
 * separator reads differently per locale (1.234 in German). A balance steers spending, so a value
 * we are not sure of is an error the user sees, never a guess.
 */
export const Credits = z
  .union([z.string(), z.number(), z.looseObject({ credits: z.union([z.string(), z.number()]) })])
  .transform((v, ctx) => {
    const raw = typeof v === 'object' ? v.credits : v;
    const n = typeof raw === 'number' ? raw : /^[0-9]+$/u.test(raw) ? Number(raw) : Number.NaN;
    if (!Number.isSafeInteger(n) || n < 0) {
      ctx.addIssue({ code: 'custom', message: `credits is not a whole number of decimal digits: ${JSON.stringify(raw)}` });
      return z.NEVER;
    }
    return n;
  });

/** `POST /reset_ip` answer; its body is not shown, so anything 2xx is success. */
export const ResetIp = z.unknown();

/** One queryable field of the Wallet Database (`GET /wallet_database/columns`). */
export const ColumnInfo = z.looseObject({
  name: z.string().min(1),
  type: z.enum(['number', 'integer', 'string', 'boolean']).default('number'),
  metric: z.string().optional(),
  timeframe: z.string().optional(),
  group: z.string().optional(),
  kind: z.string().optional(),
  description: z.string().optional(),
});
export type ColumnInfo = z.infer<typeof ColumnInfo>;
export const ColumnList = z.union([
  z.array(ColumnInfo),
  z.looseObject({ columns: z.array(ColumnInfo) }).transform((o) => o.columns),
]);

/** `POST /wallet_database` and its second-chain twin. */
export const WalletDatabaseResult = z.looseObject({
  total: z.number().int().nonnegative(),
  wallets: z.array(z.record(z.string(), z.unknown())),
});
export type WalletDatabaseResult = z.infer<typeof WalletDatabaseResult>;

/** `POST /token_creators` */
export const CreatorsPage = z.looseObject({
  creators: z.array(z.record(z.string(), z.unknown())),
  page: z.number().int().optional(),
  total: z.number().int().optional(),
});

/** `GET /token_creators/{address}` */
export const CreatorRecord = z.looseObject({
  address: z.string(),
  tokens: z.array(z.record(z.string(), z.unknown())),
});

/** A page of swaps (`GET /wallets/{address}/activity`); `nextCursor` absent or null on the last page. */
export const ActivityPage = z.looseObject({
  swaps: z.array(z.record(z.string(), z.unknown())),
  nextCursor: z.string().nullable().optional(),
});
export type ActivityPage = z.infer<typeof ActivityPage>;

/** `GET /altchain_pnl`: every metric of one wallet. */
export const WalletMetrics = z.looseObject({
  address: z.string(),
  metrics: z.record(z.string(), z.number().nullable()),
});

/**
 * Error body (not shown in the spec; our design): `{ "error": { "code", "message" } }`.
 * The client also accepts `{ "message" }`, `{ "error": "text" }` or plain text.
 */
export const ErrorBody = z.looseObject({
  error: z.union([z.string(), z.looseObject({ code: z.string().optional(), message: z.string().optional() })]).optional(),
  message: z.string().optional(),
  code: z.string().optional(),
});

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
