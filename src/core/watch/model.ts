/**
 * A watch as it is kept (issue 25): what it re-runs (a past request's endpoint and inputs, a query
 * file, a pipeline), when, the price per run the person approved when creating it, the threshold
 * that makes a numeric change count, and what its runs came to. One owner of the shape: the store
 * (core/watch/store.ts) validates every record it reads with this schema.
 */
import { z } from 'zod';
import { StoredApproval } from '../money/approval';
import { lazySchema } from '../lazySchema';

export const WatchTarget = lazySchema(() => z.discriminatedUnion('kind', [
  /** A past request (the Requests view): the same endpoint and inputs again. */
  z.object({ kind: z.literal('request'), endpointId: z.string(), inputs: z.record(z.string(), z.unknown()) }),
  /** A `.waquery.json` file, read afresh at each run. */
  z.object({ kind: z.literal('query'), file: z.string() }),
  /** A `*.wapipe.json` pipeline, every call cell sent again at each run. */
  z.object({ kind: z.literal('pipeline'), file: z.string() }),
]));
export type WatchTarget = z.infer<typeof WatchTarget>;

const ScheduleSchema = lazySchema(() => z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('hourly') }),
  z.object({ kind: z.literal('daily'), at: z.number().int().min(0).max(1439) }),
  z.object({ kind: z.literal('interval'), ms: z.number().positive() }),
]));

/** A numeric column whose change past `percent` (either way) counts as a change. */
export const Threshold = lazySchema(() => z.object({ column: z.string().min(1), percent: z.number().positive() }));
export type Threshold = z.infer<typeof Threshold>;

const RunStatus = lazySchema(() => z.enum(['changed', 'unchanged', 'first', 'skipped', 'failed', 'missed']));
type RunStatus = z.infer<typeof RunStatus>;

/** What one run (or a skipped or missed slot) came to. */
export const RunRecord = lazySchema(() => z.object({
  at: z.number(),
  status: RunStatus,
  /** One line, as the view and the notification say it. */
  text: z.string(),
  credits: z.number().nonnegative(),
  resultPath: z.string().optional(),
  /** The comparison with the previous result (a `.compare.json`): the Changes table. */
  comparePath: z.string().optional(),
  /** Skipped because what it would send, or its price, is not what was approved: Approve the New Price… is offered. */
  approveAgain: z.literal(true).optional(),
}));
export type RunRecord = z.infer<typeof RunRecord>;

export const WatchRecord = lazySchema(() => z.object({
  id: z.string(),
  name: z.string(),
  target: WatchTarget,
  schedule: ScheduleSchema,
  /** The person's approval when creating it, as a record (core/money/approval.ts owns its shape and its checks). */
  approval: StoredApproval,
  threshold: Threshold.optional(),
  /** 'changed' (the default): a notification only when something changed; 'always': after every run. */
  notify: z.enum(['changed', 'always']).default('changed'),
  paused: z.boolean().default(false),
  createdAt: z.number(),
  /** The last slot taken (run, skipped or told as missed): never run again. */
  lastSlot: z.number(),
  /** The newest result a run left, what the next run is compared with. */
  lastResult: z.string().optional(),
  lastResultAt: z.number().optional(),
  /** The most recent runs, newest last (the view's last result, and the spend this period). */
  runs: z.array(RunRecord).default([]),
}));
export type WatchRecord = z.infer<typeof WatchRecord>;

/** The runs kept per watch. */
export const MAX_RUNS = 200;

/** What a watch's runs charged since `since`. */
export function spentSince(w: WatchRecord, since: number): number {
  return w.runs.reduce((s, r) => (r.at >= since ? s + r.credits : s), 0);
}

/** The watch's most recent run record. */
export function lastRun(w: WatchRecord): RunRecord | undefined {
  return w.runs[w.runs.length - 1];
}
