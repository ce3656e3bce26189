/**
 * The comparison's arithmetic, apart from the table it feeds (compareSource.ts): which columns are
 * numbers (the one classifier, columnKind.ts), the rows of A and B paired by address (the k-th row
 * of an address in A with its k-th row in B), and a numeric cell's change B − A as text. Pure.
 */
import type { Chain } from '../../spec/addresses';
import { classifyColumn } from '../columnKind';
import { parseNumberText } from '../numbers';
import { addressKey } from './addressColumn';

/** No row on that side. */
const NONE = -1;

export interface CompareCounts {
  readonly onlyA: number;
  readonly onlyB: number;
  readonly both: number;
}

/** Columns the one classifier (columnKind.ts) calls numbers, from their first rows and names. */
export function numericColumns(names: readonly string[], sample: readonly (readonly string[])[]): Set<number> {
  const out = new Set<number>();
  for (let c = 0; c < names.length; c++) {
    if (classifyColumn(sample.map((row) => row[c] ?? ''), names[c] ?? '').kind === 'number') out.add(c);
  }
  return out;
}

/**
 * Pairs the rows of A and B by address: the k-th row of an address in A with its k-th row in B.
 * Returns the row of A and of B for each compared row (NONE where a side has no row) and counts.
 */
export function pairRows(
  addressesA: readonly string[],
  addressesB: readonly string[],
  chain: Chain,
): { rowA: Int32Array; rowB: Int32Array; counts: CompareCounts } {
  // Rows of each address in B, in file order, as a chain through `nextB` (no array per address).
  const firstB = new Map<string, number>();
  const nextB = new Int32Array(addressesB.length).fill(NONE);
  const lastB = new Map<string, number>();
  for (let r = 0; r < addressesB.length; r++) {
    const key = addressKey(addressesB[r] ?? '', chain);
    if (key === '') continue;
    const last = lastB.get(key);
    if (last === undefined) firstB.set(key, r);
    else nextB[last] = r;
    lastB.set(key, r);
  }
  lastB.clear();
  const matchOfA = new Int32Array(addressesA.length).fill(NONE);
  const usedB = new Uint8Array(addressesB.length);
  let both = 0;
  for (let r = 0; r < addressesA.length; r++) {
    const key = addressKey(addressesA[r] ?? '', chain);
    if (key === '') continue;
    const m = firstB.get(key);
    if (m === undefined) continue;
    matchOfA[r] = m;
    usedB[m] = 1;
    both++;
    const next = nextB[m] ?? NONE;
    if (next === NONE) firstB.delete(key);
    else firstB.set(key, next);
  }
  const onlyA = addressesA.length - both;
  const onlyB = addressesB.length - both;
  const total = addressesA.length + onlyB;
  const rowA = new Int32Array(total).fill(NONE);
  const rowB = new Int32Array(total).fill(NONE);
  for (let r = 0; r < addressesA.length; r++) {
    rowA[r] = r;
    rowB[r] = matchOfA[r] ?? NONE;
  }
  let i = addressesA.length;
  for (let r = 0; r < addressesB.length; r++) if (usedB[r] === 0) rowB[i++] = r;
  return { rowA, rowB, counts: { onlyA, onlyB, both } };
}

/** Decimal places of a plain decimal's text (0 with an exponent: the difference is then printed as JavaScript does). */
function decimals(text: string): number {
  if (/[eE]/u.test(text)) return -1;
  const dot = text.indexOf('.');
  return dot < 0 ? 0 : text.length - dot - 1;
}

/** B − A as text, with as many decimals as the more precise of the two cells; '' unless both are numbers. */
export function deltaText(a: string, b: string): string {
  const x = parseNumberText(a);
  const y = parseNumberText(b);
  if (Number.isNaN(x) || Number.isNaN(y)) return '';
  const d = y - x;
  const da = decimals(a);
  const db = decimals(b);
  if (da < 0 || db < 0) return String(d);
  const text = d.toFixed(Math.min(20, Math.max(da, db)));
  // -0.000 reads as a change that is not one.
  return /^-0(?:\.0*)?$/u.test(text) ? text.slice(1) : text;
}

