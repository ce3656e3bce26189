/**
 * The analysis panel's charts as a person reads them without the picture (issue 15): each chart's
 * table equivalent (a histogram's bins, a scatter's binned counts, each row a filter), numbers as
 * the panel writes them, a profile's rows, and the typed range filters of the panel's fields. The
 * scales and the drawing's arithmetic are in chartMath.ts. No DOM, so node tests check it.
 */
import { exactBounds, parseNumberText } from '../core/table/numbers';
import type { ColumnProfile, Histogram } from '../shared/analysisProtocol';
import type { ColumnFilter } from '../shared/tableProtocol';
import { binRange, extent, roundOut, Scale, type ScaleKind } from './chartMath';
import { boundFromTyped, PLAIN_UNIT, type FilterUnit } from './filterUnits';
import { thousands } from '../core/numberText';

// ---- table equivalents -----------------------------------------------------------------------

/** A histogram as rows of a table: the bin's range and its count. */
export function histogramRows(h: Histogram): { from: string; to: string; count: number }[] {
  return h.counts.map((count, i) => {
    const [a, b] = binRange(h, i);
    return { from: numberText(a), to: numberText(b), count };
  });
}

export interface ScatterRow {
  readonly from: string;
  readonly to: string;
  readonly points: number;
  readonly yMin: string;
  readonly yMedian: string;
  readonly yMax: string;
  /** The bin's x edges and its points' y extent, in data units (y: NaN when the bin is empty). */
  readonly x0: number;
  readonly x1: number;
  readonly y0: number;
  readonly y1: number;
}

/**
 * A scatter as a table a screen reader can walk: the x axis cut into `bins` equal parts (equal in
 * log10 on a log axis), and for each the points and their y minimum, median and maximum. Points an
 * axis cannot place (log: ≤ 0) are left out, as on the chart.
 */
export function scatterRows(xs: ArrayLike<number>, ys: ArrayLike<number>, xKind: ScaleKind, yKind: ScaleKind, bins = 10): ScatterRow[] {
  const ex = extent(xs, xKind);
  if (!Number.isFinite(ex.min)) return [];
  const one = ex.max === ex.min;
  const s = new Scale(xKind, ex.min, one ? ex.min : ex.max, 0, bins);
  // Each point's bin, then the y values grouped by bin (counting sort), each group sorted for its median.
  const binOf = new Int32Array(xs.length).fill(-1);
  const n = new Int32Array(bins);
  for (let i = 0; i < xs.length; i++) {
    const a = xs[i] ?? NaN;
    const b = ys[i] ?? NaN;
    if (!s.accepts(a) || !Number.isFinite(b) || (yKind === 'log' && b <= 0)) continue;
    const k = Math.min(bins - 1, Math.max(0, Math.floor(one ? 0 : s.toPx(a))));
    binOf[i] = k;
    n[k] = (n[k] ?? 0) + 1;
  }
  const start = new Int32Array(bins + 1);
  for (let k = 0; k < bins; k++) start[k + 1] = (start[k] ?? 0) + (n[k] ?? 0);
  const fill = start.slice(0, bins);
  const values = new Float64Array(start[bins] ?? 0);
  for (let i = 0; i < xs.length; i++) {
    const k = binOf[i] ?? -1;
    if (k < 0) continue;
    values[fill[k] ?? 0] = ys[i] ?? NaN;
    fill[k] = (fill[k] ?? 0) + 1;
  }
  const rows: ScatterRow[] = [];
  for (let k = 0; k < bins; k++) {
    const c = n[k] ?? 0;
    const ys0 = values.subarray(start[k] ?? 0, start[k + 1] ?? 0).sort();
    const lo = c > 0 ? (ys0[0] ?? NaN) : NaN;
    const hi = c > 0 ? (ys0[c - 1] ?? NaN) : NaN;
    const median = c === 0 ? NaN : c % 2 === 1 ? (ys0[(c - 1) / 2] ?? NaN) : ((ys0[c / 2 - 1] ?? NaN) + (ys0[c / 2] ?? NaN)) / 2;
    const x0 = s.fromPx(k);
    const x1 = one ? x0 : s.fromPx(k + 1);
    rows.push({ from: numberText(x0, true), to: numberText(x1, true), points: c, yMin: numberText(lo, true), yMedian: numberText(median, true), yMax: numberText(hi, true), x0, x1, y0: lo, y1: hi });
    if (one) break; // one value: one row
  }
  return rows;
}

/**
 * "Show these rows" of a scatter table row: range filters on x (the bin's edges) and y (its points'
 * extent), widened outwards past the points' float32 rounding and then to a readable bound, so the
 * table keeps every point of the bin (a point on an edge shared with the next bin is in both).
 */
export function scatterBinFilters(row: ScatterRow, xColumn: number, yColumn: number): ColumnFilter[] {
  const bound = (lo: number, hi: number): { min: number; max: number } => {
    const slack = (v: number): number => Math.abs(v) * 1e-7; // float32 keeps 24 bits: a relative error below 6e-8
    const a = lo - slack(lo);
    const b = hi + slack(hi);
    // A thousandth of the range, or five significant digits when the range is one value.
    const fine = Math.max((b - a) / 1000, Math.max(Math.abs(a), Math.abs(b)) * 1e-5);
    return { min: roundOut(a, fine, 'down'), max: roundOut(b, fine, 'up') };
  };
  const x = bound(row.x0, row.x1);
  const filters: ColumnFilter[] = [{ kind: 'range', column: xColumn, ...x }];
  if (row.points > 0 && yColumn !== xColumn) filters.push({ kind: 'range', column: yColumn, ...bound(row.y0, row.y1) });
  return filters;
}

const plain = new Intl.NumberFormat('en-US', { maximumSignificantDigits: 6 });
const short = new Intl.NumberFormat('en-US', { maximumSignificantDigits: 4 });

/** A number for a table or the profile: 6 significant digits (4 when `brief`, for the narrow chart tables) with separators, exponents when tiny or huge. */
export function numberText(v: number | undefined, brief = false): string {
  if (v === undefined || Number.isNaN(v)) return '';
  if (!Number.isFinite(v)) return String(v);
  const a = Math.abs(v);
  if (a !== 0 && (a < 1e-4 || a >= 1e15)) return v.toExponential(brief ? 2 : 3);
  return (brief ? short : plain).format(v);
}

const everyDigit = new Intl.NumberFormat('en-US', { maximumFractionDigits: 20 });

/** A value of the file with thousands separators and every digit it has ("170184" → "170,184"); exponents as numberText writes them. */
function fileNumberText(text: string): string {
  const v = parseNumberText(text);
  if (Number.isNaN(v) || text.length > 40) return text;
  const a = Math.abs(v);
  if (a !== 0 && (a < 1e-4 || a >= 1e15) && !/^[+-]?\d+$/u.test(text)) return numberText(v);
  // Intl reads a string argument as an exact decimal (ES2023 Intl.NumberFormat v3); its types only list numbers.
  return everyDigit.format(text as unknown as number);
}

// ---- the panel's words -----------------------------------------------------------------------

/** A column profile as label/value rows (numbers only where the column has them). */
export function profileRows(p: ColumnProfile): [string, string][] {
  const rows: [string, string][] = [
    ['Type', p.type],
    ['Count', thousands(p.count)],
    ['Empty', thousands(p.empty)],
    ['Distinct', thousands(p.distinct)],
  ];
  if (p.outOfRange !== undefined) rows.push(['Out of range', `${thousands(p.outOfRange)} (decimals past a number's range, kept as text)`]);
  // Min and max are values of the file: its digits, every one, with the separators the computed
  // rows have (one number format in a profile, not "170184" beside "21,193.6": issue 35 item 7).
  if (p.min !== undefined) rows.push(['Min', fileNumberText(p.minText ?? String(p.min))]);
  if (p.max !== undefined) rows.push(['Max', fileNumberText(p.maxText ?? String(p.max))]);
  const stats: [string, number | undefined][] = [
    ['Mean', p.mean],
    ['Median', p.median],
    ['p5', p.p5],
    ['p95', p.p95],
  ];
  for (const [label, v] of stats) if (v !== undefined) rows.push([label, numberText(v)]);
  return rows;
}

/**
 * The range filters typed into the panel's fields, each read in the unit its column is shown in
 * (filterUnits.ts: 50 on a ratio shown as a percentage is 50 %, 0.5 in the file; issue 35 item 6);
 * undefined when every field is blank, or what is wrong in words.
 */
export function typedFilters(fields: readonly { column: number; min: string; max: string; unit?: FilterUnit }[]): ColumnFilter[] | string | undefined {
  const out: ColumnFilter[] = [];
  for (const f of fields) {
    const ta = boundFromTyped(f.min, f.unit ?? PLAIN_UNIT);
    const tb = boundFromTyped(f.max, f.unit ?? PLAIN_UNIT);
    if (ta === undefined && tb === undefined) continue;
    if (ta === 'bad' || tb === 'bad') return 'The bounds must be numbers.';
    const min = ta?.value;
    const max = tb?.value;
    if (min !== undefined && max !== undefined && min > max) return 'The minimum is above the maximum.';
    out.push({ kind: 'range', column: f.column, ...(min !== undefined ? { min } : {}), ...(max !== undefined ? { max } : {}), ...exactBounds(ta?.text ?? '', min, tb?.text ?? '', max) });
  }
  return out.length > 0 ? out : undefined;
}
