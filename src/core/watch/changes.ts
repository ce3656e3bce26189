/**
 * What changed between two runs of a watch, read from the compare engine (core/compare/): rows new
 * (only in the newer result), gone (only in the older), and, for rows in both, those whose value
 * in the threshold's column moved by more than its percentage either way. The counts make the
 * one-line notification ("Top traders of ABC…: 7 new wallets, 2 gone since 14:00 UTC").
 * The two results are read, paired and counted in the table worker (compareInWorker,
 * table/compare/changeCounts.ts); this file holds what the watch makes of the counts.
 */
import { threadId as thisThread } from 'node:worker_threads';
import type { ChangeCounts } from '../table/compare/changeCounts';
import { RemoteTable } from '../table/remoteTable';
import type { Threshold } from './model';
import { l10n } from '../l10n';
import { counted, thousands } from '../numberText';

export { movedPast } from '../table/compare/changeCounts';

/** Rows new, gone, in both and moved past the threshold (counted in the table worker: changeCounts.ts). */
export type Changes = ChangeCounts;

/** Whether anything counts as changed. */
export function anyChange(c: Changes): boolean {
  return c.added + c.gone + c.changed > 0;
}

/**
 * What the watch reads of its two runs compared: a table in the table worker (RemoteTable opened
 * with `compareWith`), so two 722 MB results are indexed, paired and counted off the extension
 * host's thread (a comparison on the host froze it for 3.6–7.3 s, and reading its rows 5,000 × 3
 * cells a message held it 36–47 ms: issue 34). Only the four counts cross to this thread.
 */
export interface ComparedTable {
  /** The thread the comparison lives on: never this one (detectChanges refuses it). */
  readonly threadId: number;
  /** The counts, with a threshold on one numeric column (changeCounts.ts countChanges, run where the comparison lives). */
  changeCounts(threshold?: Threshold, options?: { readonly signal?: AbortSignal }): Promise<Changes>;
  close(): Promise<void>;
}

/** Opens the comparison of an older (A) and a newer (B) result. */
export type OpenComparison = (older: string, newer: string) => Promise<ComparedTable>;

/** The watch's way: both results opened and compared in a table worker (`workerFile`: the bundle, default dist/tableWorker.js). */
export function compareInWorker(workerFile?: string): OpenComparison {
  return (older, newer) => RemoteTable.open(older, { compareWith: newer, ...(workerFile ? { workerFile } : {}) });
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
    return await cmp.changeCounts(threshold);
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
