/**
 * What changed between two runs of a watch, read from the compare engine (core/compare/): rows new
 * (only in the newer result), gone (only in the older), and, for rows in both, those whose value
 * in the threshold's column moved by more than its percentage either way. The counts make the
 * one-line notification ("Top traders of ABC…: 7 new wallets, 2 gone since 14:00 UTC").
 * Pure apart from reading the two results.
 */
import { compareSources, STATUS, type CompareSource } from '../compare/compareSource';
import { parseNumberText } from '../table/numbers';
import { openTable } from '../table/openTable';
import type { TableSource } from '../table/types';
import type { Threshold } from './model';
import { l10n } from '../l10n';

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

const CHUNK = 5_000;

/** The changes a comparison holds, with a threshold on one numeric column. */
async function changesOf(cmp: CompareSource, threshold?: Threshold, signal?: AbortSignal): Promise<Changes> {
  const { onlyA, onlyB, both } = cmp.counts;
  const base = { added: onlyB, gone: onlyA, both };
  if (!threshold || both === 0) return { ...base, changed: 0 };
  const ca = cmp.columns.indexOf(`${threshold.column} (A)`);
  const cb = cmp.columns.indexOf(`${threshold.column} (B)`);
  if (ca < 0 || cb < 0) return { ...base, changed: 0, missingColumn: threshold.column };
  const status = cmp.columns.indexOf('status');
  let changed = 0;
  // Rows of A come first, in A's order: every row in both is among them.
  const rowsOfA = cmp.rowCount - onlyB;
  for (let from = 0; from < rowsOfA; from += CHUNK) {
    const rows = Array.from({ length: Math.min(CHUNK, rowsOfA - from) }, (_, i) => from + i);
    const cells = await cmp.readCells(rows, [status, ca, cb], signal);
    for (const [s, a, b] of cells) {
      if (s === STATUS.both && movedPast(parseNumberText(a ?? ''), parseNumberText(b ?? ''), threshold.percent)) changed++;
    }
  }
  return { ...base, changed };
}

/** Compares an older and a newer result of a watch (A: older, B: newer) and counts what changed. */
export async function detectChanges(older: string, newer: string, threshold?: Threshold, open: (p: string) => Promise<TableSource> = (p) => openTable(p)): Promise<Changes> {
  const [a, b] = await Promise.all([open(older), open(newer)]);
  try {
    const cmp = await compareSources(a, b, { labels: { a: 'the previous run', b: 'this run' } });
    return await changesOf(cmp, threshold);
  } finally {
    await Promise.all([a.close(), b.close()]);
  }
}

const plural = (n: number, one: string, many = `${one}s`): string => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

/** "7 new wallets, 2 gone, 3 moved past 20% on realized_pnl_usd_7d" (or "no change"). */
export function changesText(c: Changes, threshold?: Threshold): string {
  const parts: string[] = [];
  if (c.added > 0) parts.push(`${plural(c.added, 'new wallet')}`);
  if (c.gone > 0) parts.push(`${c.gone.toLocaleString('en-US')} gone`);
  if (c.changed > 0 && threshold) parts.push(`${c.changed.toLocaleString('en-US')} moved past ${threshold.percent}% on ${threshold.column}`);
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
