/**
 * What a watch's run needs of its two results compared (compareSource.ts): how many rows are new
 * (only in B), gone (only in A), in both, and how many of those moved past a threshold on one
 * column. Counted where the comparison lives, in the table worker (workerTable.ts answers
 * `changes` with it), so the host receives four numbers: reading 5,000 rows × 3 cells a message
 * held the host's loop 36–47 ms a run on two 722 MB results (issue 34 item 4). Pure apart from
 * reading the comparison's cells.
 */
import { throwIfCancelled } from '../../abort';
import { parseNumberText } from '../numbers';
import type { TableSource } from '../types';
import { STATUS } from './compareSource';
import { l10n } from '../../l10n';

/** A numeric column whose move past `percent` % (either way) counts as a change. */
export interface ChangeThreshold {
  readonly column: string;
  readonly percent: number;
}

export interface ChangeCounts {
  readonly added: number;
  readonly gone: number;
  /** Rows in both whose threshold column moved past the threshold (0 without a threshold). */
  readonly changed: number;
  readonly both: number;
  /** Set when the threshold's column is not in both results (so nothing could be measured). */
  readonly missingColumn?: string;
}

/** Whether a value moved from `a` to `b` by more than `percent` % of |a| (from 0, any move counts). */
export function movedPast(a: number, b: number, percent: number): boolean {
  if (Number.isNaN(a) || Number.isNaN(b)) return false;
  if (a === 0) return b !== 0;
  return (Math.abs(b - a) / Math.abs(a)) * 100 > percent;
}

/** Rows read at a time: the cells of one read are short-lived, so the worker's young generation takes them. */
const CHUNK = 5_000;

/** The changes a comparison (a source with compareSource.ts's `status` and `name (A)`/`name (B)` columns) holds. */
export async function countChanges(cmp: Pick<TableSource, 'columns' | 'rowCount' | 'readCells'>, threshold?: ChangeThreshold, signal?: AbortSignal): Promise<ChangeCounts> {
  const status = cmp.columns.indexOf('status');
  if (status < 0) throw new RangeError(l10n.t('This table is not a comparison of two results.'));
  const ca = threshold ? cmp.columns.indexOf(`${threshold.column} (A)`) : -1;
  const cb = threshold ? cmp.columns.indexOf(`${threshold.column} (B)`) : -1;
  const measure = threshold !== undefined && ca >= 0 && cb >= 0;
  let added = 0;
  let gone = 0;
  let both = 0;
  let changed = 0;
  for (let from = 0; from < cmp.rowCount; from += CHUNK) {
    throwIfCancelled(signal);
    const rows = Array.from({ length: Math.min(cmp.rowCount, from + CHUNK) - from }, (_, i) => from + i);
    const cells = await cmp.readCells(rows, measure ? [status, ca, cb] : [status], signal);
    for (const [s, a, b] of cells) {
      if (s === STATUS.onlyB) added++;
      else if (s === STATUS.onlyA) gone++;
      else if (s === STATUS.both) {
        both++;
        if (measure && movedPast(parseNumberText(a ?? ''), parseNumberText(b ?? ''), threshold.percent)) changed++;
      }
    }
  }
  const base = { added, gone, both, changed };
  return threshold && both > 0 && !measure ? { ...base, missingColumn: threshold.column } : base;
}
