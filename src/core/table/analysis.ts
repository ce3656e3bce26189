/**
 * The analysis panel's statistics (issue 15), pure and exact: a column's profile, a histogram
 * and a scatter's points over given view rows (TableView.rowIds(): filters applied, every row,
 * never a sample), read from the typed column the engine already built (numbers in a
 * Float64Array, kinds, the text of text cells). Order statistics come from one typed-array sort
 * of the view's numbers, distinct numbers from the runs of that sort, distinct texts from a Map.
 * The worker (workerTable.ts) calls these; the unit tests check them on hand-made columns.
 *
 * Exact where it is shown: a number whose double does not tell it apart (TypedColumn.exact, more
 * than 15 significant digits) is counted, listed and compared by its decimal text, so distinct
 * counts, top values, min and max are the file's values; mean and quantiles stay doubles.
 */
import type { ColumnProfile, Histogram, ProfileType, ScatterData, ValueCount } from './analysisTypes';
import { HISTOGRAM_BINS } from './analysisTypes';
import { countCells, kindOfCounts } from './columnKind';
import { formatCount } from './notices';
import { canonicalDecimal, compareDecimalText, NumberScan, numberTextScan } from './numbers';
import { cellReaders } from './typedColumn';
import { CellKind, type TypedColumn } from './types';
import { l10n } from '../l10n';

/** How many values `top` lists. */
const TOP_VALUES = 10;

/** "these 12 rows", "this 1 row": how the failures name the view. */
function rowsPhrase(n: number): string {
  return n === 1 ? l10n.t('this 1 row') : l10n.t('these {0} rows', formatCount(n));
}

/**
 * The p-quantile of ascending `sorted[0..n)`, by linear interpolation between closest ranks
 * (Hyndman & Fan type 7, numpy's and Excel PERCENTILE.INC's default): h = (n − 1)·p, the value
 * at floor(h) plus (h − floor(h)) of the step to the next. So p = 0.5 is the median (the middle
 * value, or the mean of the two middle values when n is even), p = 0 the min, p = 1 the max.
 * NaN when n is 0.
 */
export function quantile(sorted: ArrayLike<number>, p: number, n = sorted.length): number {
  if (n <= 0) return NaN;
  const h = (n - 1) * p;
  const lo = Math.floor(h);
  const a = sorted[lo] ?? NaN;
  if (lo >= n - 1) return sorted[n - 1] ?? NaN;
  const b = sorted[lo + 1] ?? NaN;
  return h === lo ? a : a + (h - lo) * (b - a);
}

/** Σ values (Neumaier's compensated sum, so a long column's mean does not drift). */
function sum(values: Float64Array): number {
  let s = 0;
  let c = 0;
  for (let i = 0; i < values.length; i++) {
    const v = values[i] ?? 0;
    const t = s + v;
    c += Math.abs(s) >= Math.abs(v) ? s - t + v : v - t + s;
    s = t;
  }
  return s + c;
}

/**
 * Equal-width bins over [min, max] of `values` (any order; a single value gets a bin of width 1
 * around it). A value on an inner edge goes to the bin above it; max goes to the last bin.
 */
export function binValues(values: ArrayLike<number>, bins: number, min: number, max: number): { edges: number[]; counts: number[] } {
  const b = Math.max(1, Math.floor(bins));
  const lo = min === max ? min - 0.5 : min;
  const hi = min === max ? max + 0.5 : max;
  const width = (hi - lo) / b;
  const edges = Array.from({ length: b + 1 }, (_, i) => (i === b ? hi : lo + i * width));
  const counts = new Array<number>(b).fill(0);
  const scale = b / (hi - lo);
  for (let i = 0; i < values.length; i++) {
    const v = values[i] ?? 0;
    let k = Math.floor((v - lo) * scale);
    if (k >= b) k = b - 1;
    else if (k < 0) k = 0;
    // Floating point may put a value one bin off its edges: the edges decide.
    if (k + 1 < b && v >= (edges[k + 1] ?? Infinity)) k++;
    else if (k > 0 && v < (edges[k] ?? -Infinity)) k--;
    counts[k] = (counts[k] ?? 0) + 1;
  }
  return { edges, counts };
}

/** The numbers of `rows` in `col`, in view order, and how many of the rows are not numbers. */
function viewNumbers(col: TypedColumn, rows: ArrayLike<number>): { values: Float64Array; left: number } {
  const cell = cellReaders(col);
  const values = new Float64Array(rows.length);
  let k = 0;
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i] ?? 0;
    if (cell.kind(r) === CellKind.Number) values[k++] = cell.value(r);
  }
  return { values: values.subarray(0, k), left: rows.length - k };
}

/**
 * A histogram of column `col` (named `name`) over view `rows`: `bins` equal-width bins over its
 * numbers, or with `log` over log10 of its positive numbers (zero, negative, empty and text
 * cells are then `left`). Throws when no cell counts, with a sentence that says so.
 */
export function columnHistogram(col: TypedColumn, rows: ArrayLike<number>, name: string, bins: number, log: boolean): Histogram {
  const { values: all, left: notNumbers } = viewNumbers(col, rows);
  let values = all;
  if (log) {
    values = new Float64Array(all.length);
    let k = 0;
    for (let i = 0; i < all.length; i++) {
      const v = all[i] ?? 0;
      if (v > 0) values[k++] = Math.log10(v);
    }
    values = values.subarray(0, k);
  }
  if (values.length === 0) {
    const what = log ? (all.length > 0 ? l10n.t('no positive numbers (a log scale needs them)') : l10n.t('no numbers')) : l10n.t('no numbers');
    throw new Error(l10n.t('{0} has {1} in {2}.', name, what, rowsPhrase(rows.length)));
  }
  let min = Infinity;
  let max = -Infinity;
  for (let i = 0; i < values.length; i++) {
    const v = values[i] ?? 0;
    if (v < min) min = v;
    if (v > max) max = v;
  }
  const { edges, counts } = binValues(values, bins, min, max);
  return { column: col.column, edges, counts, log, counted: values.length, left: notNumbers + (all.length - values.length) };
}

/**
 * The profile of column `col` (named `name`) over view `rows`. Type: `empty` when every cell
 * is empty; else `address`, `number` or `text` (dates are text here) as the one classifier
 * decides (columnKind.ts: addresses first, numbers when more than half the cells are). Numbers
 * are told apart by exact value ("1.0" and "1" are one value, listed as 1). `ms` is left 0 for
 * the caller to fill.
 */
export function profileColumn(col: TypedColumn, rows: ArrayLike<number>, name: string): ColumnProfile {
  const cell = cellReaders(col);
  const texts = col.texts ?? col.fullText ?? [];
  const exact = col.exact;
  const n = rows.length;
  const nums = new Float64Array(n);
  let k = 0;
  let empty = 0;
  const textCounts = new Map<string, number>();
  // Long decimals by their exact value (canonicalDecimal), apart from the runs of doubles.
  const longCounts = new Map<string, number>();
  const shortNums = exact ? new Float64Array(n) : undefined;
  let shorts = 0;
  for (let i = 0; i < n; i++) {
    const r = rows[i] ?? 0;
    const kind = cell.kind(r);
    if (kind === CellKind.Number) {
      const v = cell.value(r);
      nums[k++] = v;
      const long = exact?.get(r);
      if (long !== undefined) {
        const t = canonicalDecimal(long) ?? long;
        longCounts.set(t, (longCounts.get(t) ?? 0) + 1);
      } else if (shortNums) shortNums[shorts++] = v;
    } else if (kind === CellKind.Text) {
      const t = texts[r] ?? '';
      textCounts.set(t, (textCounts.get(t) ?? 0) + 1);
    } else empty++;
  }
  const sorted = nums.subarray(0, k).sort();
  const runSource = shortNums ? shortNums.subarray(0, shorts).sort() : sorted;
  // Runs of equal numbers in the sorted values: the distinct numbers and how often each occurs.
  const runValues = new Float64Array(runSource.length);
  const runCounts = new Uint32Array(runSource.length);
  let runs = 0;
  for (let i = 0; i < runSource.length; ) {
    const v = runSource[i] ?? 0;
    let j = i + 1;
    while (j < runSource.length && runSource[j] === v) j++;
    runValues[runs] = v;
    runCounts[runs] = j - i;
    runs++;
    i = j;
  }
  const filled = n - empty;
  const type = profileType(filled, k, textCounts);
  const top = topValues(col, rows, runValues.subarray(0, runs), runCounts.subarray(0, runs), textCounts, longCounts);
  const outOfRange = col.outOfRangeCount ? outOfRangeCells(textCounts) : 0;
  const base = { column: col.column, name, type, count: n, empty, distinct: runs + longCounts.size + textCounts.size, top, ...(outOfRange > 0 ? { outOfRange } : {}), ms: 0 };
  if (type !== 'number') return base;
  const min = sorted[0] ?? NaN;
  const max = sorted[k - 1] ?? NaN;
  const { edges, counts } = binValues(sorted, HISTOGRAM_BINS, min, max);
  const ends = longCounts.size > 0 ? exactEnds(runValues.subarray(0, runs), longCounts) : { minText: canonicalDecimal(String(min)), maxText: canonicalDecimal(String(max)) };
  return {
    ...base,
    min,
    max,
    ...(ends.minText !== undefined ? { minText: ends.minText } : {}),
    ...(ends.maxText !== undefined ? { maxText: ends.maxText } : {}),
    mean: sum(sorted) / k,
    median: quantile(sorted, 0.5),
    p5: quantile(sorted, 0.05),
    p95: quantile(sorted, 0.95),
    histogram: { column: col.column, edges, counts, log: false, counted: k, left: n - k },
  };
}

/** Text cells (counted by text) that are decimals out of a double's range. */
function outOfRangeCells(textCounts: ReadonlyMap<string, number>): number {
  let out = 0;
  for (const [t, c] of textCounts) if (numberTextScan(t) === NumberScan.OutOfRange) out += c;
  return out;
}

/** The exact least and greatest of the short numbers' ascending distinct doubles and the long decimals (canonical texts). */
function exactEnds(runValues: Float64Array, longCounts: ReadonlyMap<string, number>): { minText: string | undefined; maxText: string | undefined } {
  let minText = runValues.length > 0 ? canonicalDecimal(String(runValues[0])) : undefined;
  let maxText = runValues.length > 0 ? canonicalDecimal(String(runValues[runValues.length - 1])) : undefined;
  for (const t of longCounts.keys()) {
    if (minText === undefined || compareDecimalText(t, minText) < 0) minText = t;
    if (maxText === undefined || compareDecimalText(t, maxText) > 0) maxText = t;
  }
  return { minText, maxText };
}

/** The column's kind by the one classifier (columnKind.ts), over every cell of the view: number cells, and text cells by their distinct texts. */
function profileType(filled: number, numberCells: number, textCounts: ReadonlyMap<string, number>): ProfileType {
  if (filled === 0) return 'empty';
  const c = { filled, numbers: numberCells, main: 0, alt: 0, digitMain: 0, dates: 0 };
  for (const [value, count] of textCounts) {
    const one = countCells([value]);
    c.numbers += one.numbers * count;
    c.main += one.main * count;
    c.alt += one.alt * count;
    c.digitMain += one.digitMain * count;
    c.dates += one.dates * count;
  }
  const kind = kindOfCounts(c).kind;
  if (kind === 'number') return numberCells > 0 ? 'number' : 'text'; // decimals out of range only: no statistics
  return kind === 'address' ? kind : 'text';
}

/** Starts the key of a long decimal among top values' keys (no cell's text starts with it: cells hold no NUL here). */
const LONG_KEY = '\u0000';

/** The index of `v` in ascending `values` (it is there). */
function indexOf(values: Float64Array, v: number): number {
  let lo = 0;
  let hi = values.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((values[mid] ?? 0) < v) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The TOP_VALUES most frequent values, most frequent first, ties in the order first seen in the
 * view. With T the TOP_VALUES-th largest count, every value seen more than T times is in, and
 * the rest are the first values seen exactly T times; one pass over the view in order finds
 * them (a number's count by binary search in the sorted runs) and stops once all are found.
 */
function topValues(
  col: TypedColumn,
  rows: ArrayLike<number>,
  runValues: Float64Array,
  runCounts: Uint32Array,
  textCounts: ReadonlyMap<string, number>,
  longCounts: ReadonlyMap<string, number>,
): ValueCount[] {
  const total = runCounts.length + textCounts.size + longCounts.size;
  if (total === 0) return [];
  const all = new Uint32Array(total);
  all.set(runCounts);
  let i = runCounts.length;
  for (const c of textCounts.values()) all[i++] = c;
  for (const c of longCounts.values()) all[i++] = c;
  all.sort();
  const threshold = all[Math.max(0, total - TOP_VALUES)] ?? 1;
  let above = 0;
  let at = 0;
  for (let j = 0; j < total; j++) {
    const c = all[j] ?? 0;
    if (c > threshold) above++;
    else if (c === threshold) at++;
  }
  const ties = Math.min(at, TOP_VALUES - above);
  const wanted = above + ties;
  // Keyed by the number or the text: a Map tells 1 from "1" (and -0 from 0 it does not, as the runs);
  // a long decimal by LONG_KEY and its exact value, apart from any text.
  const chosen = new Map<number | string, { value: string; count: number; first: number }>();
  const exact = col.exact;
  let tiesTaken = 0;
  const cell = cellReaders(col);
  const texts = col.texts ?? col.fullText ?? [];
  for (let v = 0; v < rows.length && chosen.size < wanted; v++) {
    const r = rows[v] ?? 0;
    const kind = cell.kind(r);
    let key: number | string;
    let count: number;
    let value: string;
    const long = kind === CellKind.Number ? exact?.get(r) : undefined;
    if (long !== undefined) {
      value = canonicalDecimal(long) ?? long;
      key = LONG_KEY + value;
      count = longCounts.get(value) ?? 0;
    } else if (kind === CellKind.Number) {
      key = cell.value(r);
      value = canonicalDecimal(String(key)) ?? String(key);
      count = runCounts[indexOf(runValues, key)] ?? 0;
    } else if (kind === CellKind.Text) {
      key = texts[r] ?? '';
      value = key;
      count = textCounts.get(key) ?? 0;
    } else continue;
    if (count < threshold || chosen.has(key)) continue;
    if (count === threshold) {
      if (tiesTaken === ties) continue;
      tiesTaken++;
    }
    chosen.set(key, { value, count, first: v });
  }
  return [...chosen.values()]
    .sort((a, b) => b.count - a.count || a.first - b.first)
    .map(({ value, count }) => ({ value, count }));
}

/**
 * Every view row where both cells are numbers, as points: xs, ys (Float32, what a canvas draws)
 * and the view row index of each; `left` counts the other rows. Throws when no row has both.
 */
export function scatterPoints(x: TypedColumn, y: TypedColumn, rows: ArrayLike<number>, xName: string, yName: string): ScatterData {
  const n = rows.length;
  const xs = new Float32Array(n);
  const ys = new Float32Array(n);
  const rowIndex = new Uint32Array(n);
  const xc = cellReaders(x);
  const yc = cellReaders(y);
  let k = 0;
  for (let i = 0; i < n; i++) {
    const r = rows[i] ?? 0;
    if (xc.kind(r) !== CellKind.Number || yc.kind(r) !== CellKind.Number) continue;
    xs[k] = xc.value(r);
    ys[k] = yc.value(r);
    rowIndex[k] = i;
    k++;
  }
  if (k === 0) {
    const which = x.column === y.column ? l10n.t('{0} has no numbers', xName) : l10n.t('{0} and {1} have no row where both are numbers', xName, yName);
    throw new Error(l10n.t('{0} in {1}.', which, rowsPhrase(n)));
  }
  // Copies of the filled part (slice, not subarray), so what is posted is only the points.
  return { x: x.column, y: y.column, xs: xs.slice(0, k), ys: ys.slice(0, k), rowIndex: rowIndex.slice(0, k), left: n - k, ms: 0 };
}
