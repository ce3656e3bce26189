/**
 * After a queued submit ends ambiguously (no answer before our timer, a connection lost after
 * sending, a 5xx: charged 'unknown'), the job may exist and be charged. Guessing costs money
 * either way: "not charged" invites a second charge, "charged" loses a job that was made. The
 * free request history (`GET /requests`) settles it: look for a record of the same endpoint
 * and inputs, created inside the submit's time window, that this client does not track yet.
 *
 *   const r = await reconcileSubmit(api, { endpointId, inputs, sentAt, known: (id) => !!store.get(id) });
 *   r.kind === 'found'    → track r.record.requestId like any accepted job
 *   r.kind === 'notFound' → most likely not charged: offer Retry (with the price shown again)
 *   r.kind === 'unknown'  → the history could not be read or compared: say so, offer no retry
 *
 * The record shape beyond requestId and url is our design (wire.ts RequestRecord); lists over
 * 1,000 items come back summarised as `{ count, first }` (the README's "Where the spec is
 * silent"). Pure: the history reader, the clock and the sleep are injected.
 */
import { CancelledError } from '../errors';
import { ACK_TIMEOUT_MS } from '../transport/httpFailures';
import type { RequestRecord } from '../spec/wire';
import { l10n } from '../l10n';
import { isPackedList } from '../spec/packedList';

/** How far the server's clock (createdAt) may be from ours, either way. */
export const RECONCILE_CLOCK_SKEW_MS = 2 * 60_000;
/** How long the history is searched, at least, from the start of the search. */
const RECONCILE_MAX_WAIT_MS = 30_000;
/** How often the history is read while searching. */
const RECONCILE_INTERVAL_MS = 3_000;

/** What reconcileSubmit tells; `message` of each is in RECONCILE_MESSAGES. */
type ReconcileResult =
  | { readonly kind: 'found'; readonly record: RequestRecord }
  | { readonly kind: 'notFound'; readonly waitedMs: number }
  | { readonly kind: 'unknown'; readonly error: unknown };

/** The texts a person reads about a reconciliation, in one place (functions: each is made when said, in the person's language). */
export const RECONCILE_MESSAGES = {
  looking: (): string => l10n.t('No clear answer to the submit, so it may have been charged: looking for it in your request history (free)…'),
  found: (): string => l10n.t('It was accepted after all; following it.'),
  notFound: (waitedMs: number): string => l10n.t('Not in your request history after {0} s: most likely not charged.', Math.max(1, Math.round(waitedMs / 1000))),
  unknown: (): string =>
    l10n.t('Your request history could not be checked, so whether it was charged is unknown. Check Request History and your credits before submitting it again.'),
} as const;

/** The sentence for a result. */
export function reconcileMessage(r: ReconcileResult): string {
  switch (r.kind) {
    case 'found':
      return RECONCILE_MESSAGES.found();
    case 'notFound':
      return RECONCILE_MESSAGES.notFound(r.waitedMs);
    case 'unknown':
      return RECONCILE_MESSAGES.unknown();
  }
}

/** The one free call reconciliation needs. */
export interface HistoryApi {
  requests(signal?: AbortSignal): Promise<readonly RequestRecord[]>;
}

/** The submit that ended ambiguously. */
export interface AmbiguousSubmit {
  readonly endpointId: string;
  /** The validated input as it was sent (catalog.validateInput's output). */
  readonly inputs: Readonly<Record<string, unknown>>;
  /** Our clock (ms since the epoch) just before the request was sent. */
  readonly sentAt: number;
  /** True for request ids this client already tracks: those are other jobs, never this one. */
  readonly known: (requestId: string) => boolean;
}

export interface ReconcileOptions {
  /** Default RECONCILE_MAX_WAIT_MS. */
  readonly maxWaitMs?: number;
  /** Default RECONCILE_INTERVAL_MS. */
  readonly intervalMs?: number;
  /**
   * The server's acknowledgement window (§7.1, 100 s): until it has passed since the send, the
   * server may still accept the request, so "not found" is not said before then either.
   */
  readonly ackWindowMs?: number;
  /** Default RECONCILE_CLOCK_SKEW_MS. */
  readonly skewMs?: number;
  readonly now?: () => number;
  readonly sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  readonly signal?: AbortSignal;
}

/**
 * Searches the request history for the job an ambiguous submit may have made, for a bounded
 * time: until maxWaitMs has passed and the server's acknowledgement window has closed.
 * Never throws: a failure to read the history is `{ kind: 'unknown' }`.
 */
export async function reconcileSubmit(api: HistoryApi, q: AmbiguousSubmit, opts: ReconcileOptions = {}): Promise<ReconcileResult> {
  const now = opts.now ?? Date.now;
  const sleep = opts.sleep ?? sleepFor;
  const interval = Math.max(1, opts.intervalMs ?? RECONCILE_INTERVAL_MS);
  const skew = opts.skewMs ?? RECONCILE_CLOCK_SKEW_MS;
  const { signal } = opts;
  const start = now();
  const deadline = Math.max(start + (opts.maxWaitMs ?? RECONCILE_MAX_WAIT_MS), q.sentAt + (opts.ackWindowMs ?? ACK_TIMEOUT_MS));
  const cancelled = (): ReconcileResult => ({ kind: 'unknown', error: new CancelledError({ endpointId: q.endpointId, paid: true, family: 'queued' }) });
  let lastError: unknown;
  let uncertain: RequestRecord | undefined;
  for (;;) {
    if (signal?.aborted) return cancelled();
    const readAt = now();
    try {
      const m = findSubmitted(await api.requests(signal), q, readAt, skew);
      if (m.record) return { kind: 'found', record: m.record };
      uncertain = m.uncertain;
      lastError = undefined;
    } catch (e) {
      if (signal?.aborted) return cancelled();
      lastError = e;
    }
    const t = now();
    if (t >= deadline) break;
    await sleep(Math.min(interval, deadline - t), signal);
  }
  if (lastError !== undefined) return { kind: 'unknown', error: lastError };
  if (uncertain) {
    return {
      kind: 'unknown',
      error: new Error(l10n.t('Request {0} may be this one, but the history does not show its endpoint, inputs or time, so it cannot be told apart.', uncertain.requestId)),
    };
  }
  return { kind: 'notFound', waitedMs: now() - start };
}

/**
 * The record in `records` that the submit made, if one is there: same endpoint, same inputs,
 * created between (sentAt − skew) and (readAt + skew), not tracked already; the closest in
 * time to the send when several are. `uncertain` is an untracked record that could be it but
 * lacks a field needed to tell (endpoint, inputs or a readable createdAt).
 */
export function findSubmitted(
  records: readonly RequestRecord[],
  q: AmbiguousSubmit,
  readAt: number,
  skewMs: number = RECONCILE_CLOCK_SKEW_MS,
): { record?: RequestRecord; uncertain?: RequestRecord } {
  let best: { record: RequestRecord; distance: number } | undefined;
  let uncertain: RequestRecord | undefined;
  for (const r of records) {
    if (q.known(r.requestId)) continue;
    const at = r.createdAt === undefined ? NaN : Date.parse(r.createdAt);
    const checks = [
      r.endpoint === undefined ? undefined : sameEndpoint(r.endpoint, q.endpointId),
      r.inputs === undefined ? undefined : sameInputs(q.inputs, r.inputs),
      Number.isNaN(at) ? undefined : at >= q.sentAt - skewMs && at <= readAt + skewMs,
    ];
    if (checks.includes(false)) continue;
    if (checks.includes(undefined)) {
      uncertain ??= r;
      continue;
    }
    const distance = Math.abs(at - q.sentAt);
    if (!best || distance < best.distance) best = { record: r, distance };
  }
  return { ...(best ? { record: best.record } : {}), ...(uncertain ? { uncertain } : {}) };
}

/** The endpoint as a record names it: our id, or its path ("/pnl"). */
function sameEndpoint(recorded: string, endpointId: string): boolean {
  return recorded.replace(/^\/+/u, '') === endpointId;
}

/**
 * Whether the inputs a record shows are the ones sent: key order ignored; empty values
 * (undefined, null, '') the same as absent; scalars compared as the text they travel as (a GET
 * sends `hours=6`, a server may keep "6"); a list the server summarised as `{ count, first }`
 * equal to a sent list of that length that begins with those items.
 */
export function sameInputs(sent: unknown, recorded: unknown): boolean {
  if (isEmpty(sent) || isEmpty(recorded)) return isEmpty(sent) && isEmpty(recorded);
  // A list carried packed (spec/packedList.ts): against a summary, only its count and first items are read.
  if (isPackedList(sent)) {
    const s = listSummary(recorded);
    if (!s) return sameInputs(sent.toArray(), recorded);
    return s.count === sent.length && s.first.length <= sent.length && (s.first.length > 0 || s.count === 0) && sameInputs(sent.items(0, s.first.length), [...s.first]);
  }
  if (Array.isArray(sent)) {
    if (Array.isArray(recorded)) return recorded.length === sent.length && sent.every((v, i) => sameInputs(v, recorded[i]));
    const s = listSummary(recorded);
    return s !== undefined && s.count === sent.length && s.first.length <= sent.length && (s.first.length > 0 || s.count === 0) && s.first.every((v, i) => sameInputs(sent[i], v));
  }
  if (isObject(sent)) {
    if (!isObject(recorded)) return false;
    const keys = new Set([...Object.keys(sent), ...Object.keys(recorded)]);
    for (const k of keys) if (!sameInputs(sent[k], recorded[k])) return false;
    return true;
  }
  if (isObject(recorded) || Array.isArray(recorded)) return false;
  return scalarText(sent) === scalarText(recorded);
}

function isEmpty(v: unknown): boolean {
  return v === undefined || v === null || v === '';
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function listSummary(v: unknown): { count: number; first: readonly unknown[] } | undefined {
  if (!isObject(v)) return undefined;
  const { count, first } = v;
  return typeof count === 'number' && Array.isArray(first) ? { count, first } : undefined;
}

function scalarText(v: unknown): string {
  return typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint' ? String(v) : JSON.stringify(v) ?? '';
}

function sleepFor(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const done = (): void => {
      clearTimeout(t);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const t = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}
