/**
 * What changed between two runs of a watch, read from the compare engine (core/compare/): rows new
 * (only in the newer result), gone (only in the older), and, for rows in both, those whose value
 * in the threshold's column moved by more than its percentage either way. The counts make the
 * one-line notification ("Top traders of ABC…: 7 new wallets, 2 gone since 14:00 UTC").
 * Pure apart from reading the two results, which happens in the table worker (compareInWorker).
 */
import { threadId as thisThread } from 'node:worker_threads';
import { STATUS } from '../table/compare/compareSource';
import { parseNumberText } from '../table/numbers';
import { RemoteTable } from '../table/remoteTable';
import type { Threshold } from './model';
import { l10n } from '../l10n';
import { counted, thousands } from '../numberText';

export interface Changes {
  readonly added: number;
  readonly gone: number;
  /** Rows in both whose threshold column moved past the threshold (0 without a threshold). */
  readonly changed: number;
  readonly both: number;
  /** Set when the threshold's column is not in both results (so nothing could be measured). */
  readonly missingColumn?: string;
}

/** Whether anything counts as changed. */
export function anyChange(c: Changes): boolean {
  return c.added + c.gone + c.changed > 0;
}

/** Whether a value moved from `a` to `b` by more than `percent` % of |a| (from 0, any move counts). */
export function movedPast(a: number, b: number, percent: number): boolean {
  if (Number.isNaN(a) || Number.isNaN(b)) return false;
  if (a === 0) return b !== 0;
  return (Math.abs(b - a) / Math.abs(a)) * 100 > percent;
}

/**
 * What the watch reads of its two runs compared: a table in the table worker (RemoteTable opened
 * with `compareWith`), so two 722 MB results are indexed and paired off the extension host's
 * thread (a comparison on the host froze it for 3.6–7.3 s: issue 34). Only windows of three
 * columns cross to this thread.
 */
export interface ComparedTable {
  /** The thread the comparison lives on: never this one (detectChanges refuses it). */
  readonly threadId: number;
  readonly columns: readonly string[];
  readonly rowCount: number;
  window(first: number, last: number, columns: readonly number[], signal?: AbortSignal): Promise<{ readonly cells: readonly (readonly string[])[] }>;
  close(): Promise<void>;
}

/** Opens the comparison of an older (A) and a newer (B) result. */
export type OpenComparison = (older: string, newer: string) => Promise<ComparedTable>;

/** The watch's way: both results opened and compared in a table worker (`workerFile`: the bundle, default dist/tableWorker.js). */
export function compareInWorker(workerFile?: string): OpenComparison {
  return (older, newer) => RemoteTable.open(older, { compareWith: newer, ...(workerFile ? { workerFile } : {}) });
}

/** Rows read from the worker at a time: three short cells each, so a window's message costs the host well under a millisecond. */
const CHUNK = 5_000;

/** The changes a comparison holds, with a threshold on one numeric column. */
async function changesOf(cmp: ComparedTable, threshold?: Threshold, signal?: AbortSignal): Promise<Changes> {
  const status = cmp.columns.indexOf('status');
  const ca = threshold ? cmp.columns.indexOf(`${threshold.column} (A)`) : -1;
  const cb = threshold ? cmp.columns.indexOf(`${threshold.column} (B)`) : -1;
  const measure = ca >= 0 && cb >= 0;
  let added = 0;
  let gone = 0;
  let both = 0;
  let changed = 0;
  for (let from = 0; from < cmp.rowCount; from += CHUNK) {
    const { cells } = await cmp.window(from, Math.min(cmp.rowCount, from + CHUNK), measure ? [status, ca, cb] : [status], signal);
    for (const [s, a, b] of cells) {
      if (s === STATUS.onlyB) added++;
      else if (s === STATUS.onlyA) gone++;
      else if (s === STATUS.both) {
        both++;
        if (measure && threshold && movedPast(parseNumberText(a ?? ''), parseNumberText(b ?? ''), threshold.percent)) changed++;
      }
    }
  }
  const base = { added, gone, both, changed };
  return threshold && both > 0 && !measure ? { ...base, missingColumn: threshold.column } : base;
}

/**
 * Compares an older and a newer result of a watch (A: older, B: newer) and counts what changed.
 * The comparison is opened by `open` (compareInWorker in the product) and must live on another
 * thread: one opened on this thread is refused, so a path that would read a result on the
 * extension host's thread fails in the tests instead of freezing the editor.
 */
export async function detectChanges(older: string, newer: string, threshold: Threshold | undefined, open: OpenComparison): Promise<Changes> {
  const cmp = await open(older, newer);
  try {
    if (cmp.threadId === thisThread) throw new Error(l10n.t('A watch compared its results on the extension host\'s thread; it compares them in the table worker.'));
    return await changesOf(cmp, threshold);
  } finally {
    await cmp.close();
  }
}

/** "7 new wallets, 2 gone, 3 moved past 20% on realized_pnl_usd_7d" (or "no change"). */
export function changesText(c: Changes, threshold?: Threshold): string {
  const parts: string[] = [];
  if (c.added > 0) parts.push(`${counted(c.added, 'new wallet')}`);
  if (c.gone > 0) parts.push(`${thousands(c.gone)} gone`);
  if (c.changed > 0 && threshold) parts.push(`${thousands(c.changed)} moved past ${threshold.percent}% on ${threshold.column}`);
  return parts.length ? parts.join(', ') : l10n.t('no change');
}

/** "14:00 UTC" (today) or "2026-11-24 14:00 UTC". */
export function sinceText(at: number, now: number): string {
  const d = new Date(at).toISOString();
  const time = `${d.slice(11, 16)} UTC`;
  return d.slice(0, 10) === new Date(now).toISOString().slice(0, 10) ? time : `${d.slice(0, 10)} ${time}`;
}

/** The notification's one line: "Top traders of ABC…: 7 new wallets, 2 gone since 14:00 UTC". */
export function changeLine(name: string, c: Changes, threshold: Threshold | undefined, since: number, now: number): string {
  return `${name}: ${changesText(c, threshold)} since ${sinceText(since, now)}`;
}
