/**
 * The analysis panel's charts without a DOM (issue 15), so node tests can check them: linear and
 * log scales with their ticks and tick labels, a histogram's bars, the scatter's points binned into
 * device pixels and blended into an image, a brush (pixels) turned into range filters (data units,
 * log axes included), and the rows of each chart's table equivalent. The drawing (charts.ts) only
 * puts these on a canvas.
 */
import { exactBounds } from '../core/table/numbers';
import type { ColumnProfile, Histogram } from '../shared/analysisProtocol';
import type { ColumnFilter } from '../shared/tableProtocol';

export type ScaleKind = 'linear' | 'log';

export interface Tick {
  readonly value: number;
  readonly label: string;
}

/**
 * Maps a data interval [d0, d1] onto a pixel interval [r0, r1] (r1 < r0 for a y axis, whose pixels
 * grow downwards). A log scale maps log10 of the values; its domain must be positive.
 */
export class Scale {
  private readonly t0: number;
  private readonly t1: number;

  constructor(
    readonly kind: ScaleKind,
    readonly d0: number,
    readonly d1: number,
    readonly r0: number,
    readonly r1: number,
  ) {
    this.t0 = this.t(d0);
    this.t1 = this.t(d1);
  }

  private t(v: number): number {
    return this.kind === 'log' ? Math.log10(v) : v;
  }

  /** Whether a value can be placed (log: only positive values). */
  accepts(v: number): boolean {
    return Number.isFinite(v) && (this.kind === 'linear' || v > 0);
  }

  toPx(v: number): number {
    const span = this.t1 - this.t0;
    if (span === 0) return (this.r0 + this.r1) / 2;
    return this.r0 + ((this.t(v) - this.t0) / span) * (this.r1 - this.r0);
  }

  fromPx(px: number): number {
    const span = this.r1 - this.r0;
    const t = span === 0 ? this.t0 : this.t0 + ((px - this.r0) / span) * (this.t1 - this.t0);
    return this.kind === 'log' ? 10 ** t : t;
  }

  /** About `count` ticks inside the domain: 1-2-5 steps (linear), powers of ten (log, when the domain spans one). */
  ticks(count = 5): Tick[] {
    const lo = Math.min(this.d0, this.d1);
    const hi = Math.max(this.d0, this.d1);
    if (this.kind === 'log') {
      const a = Math.ceil(Math.log10(lo) - 1e-9);
      const b = Math.floor(Math.log10(hi) + 1e-9);
      if (b >= a) {
        const every = Math.max(1, Math.ceil((b - a + 1) / Math.max(1, count)));
        const out: Tick[] = [];
        for (let k = a; k <= b; k += every) out.push({ value: 10 ** k, label: tickLabel(10 ** k) });
        return out;
      }
    }
    return linearTicks(lo, hi, count);
  }
}

/** The 1-2-5 step that gives about `count` intervals over [lo, hi]. */
export function niceStep(lo: number, hi: number, count: number): number {
  const span = hi - lo;
  if (!(span > 0) || !Number.isFinite(span)) return 0;
  const raw = span / Math.max(1, count);
  const p = 10 ** Math.floor(Math.log10(raw));
  const f = raw / p;
  return (f >= Math.sqrt(50) ? 10 : f >= Math.sqrt(10) ? 5 : f >= Math.SQRT2 ? 2 : 1) * p;
}

export function linearTicks(lo: number, hi: number, count = 5): Tick[] {
  if (!Number.isFinite(lo) || !Number.isFinite(hi)) return [];
  if (lo === hi) return [{ value: lo, label: tickLabel(lo) }];
  const step = niceStep(lo, hi, count);
  const out: Tick[] = [];
  const first = Math.ceil(lo / step - 1e-9);
  for (let k = first; k * step <= hi + step * 1e-9 && out.length < 50; k++) {
    const v = Number((k * step).toPrecision(12)); // 0.30000000000000004 → 0.3
    out.push({ value: v, label: tickLabel(v) });
  }
  return out;
}

const compact = new Intl.NumberFormat('en-US', { notation: 'compact', maximumSignificantDigits: 3 });

/** A short label for an axis: 0, 0.25, 1.5K, 20M, 1e-6. */
export function tickLabel(v: number): string {
  if (v === 0) return '0';
  const a = Math.abs(v);
  if (a >= 1e15 || a < 1e-4) return v.toExponential(0).replace('e+', 'e');
  if (a >= 1000) return compact.format(v);
  return String(Number(v.toPrecision(3)));
}

/** [min, max] of the finite values an axis accepts, and how many it skipped (log: ≤ 0). */
export function extent(values: ArrayLike<number>, kind: ScaleKind): { min: number; max: number; skipped: number } {
  let min = Infinity;
  let max = -Infinity;
  let skipped = 0;
  for (let i = 0; i < values.length; i++) {
    const v = values[i] ?? NaN;
    if (!Number.isFinite(v) || (kind === 'log' && v <= 0)) {
      skipped++;
      continue;
    }
    if (v < min) min = v;
    if (v > max) max = v;
  }
  return { min, max, skipped };
}

/** A domain that shows [min, max] with a little room, never empty (one value: around it). */
export function padDomain(min: number, max: number, kind: ScaleKind): [number, number] {
  if (!Number.isFinite(min) || !Number.isFinite(max)) return kind === 'log' ? [1, 10] : [0, 1];
  if (kind === 'log') {
    const a = Math.log10(min);
    const b = Math.log10(max);
    const pad = b > a ? (b - a) * 0.03 : 0.5;
    return [10 ** (a - pad), 10 ** (b + pad)];
  }
  if (min === max) return min === 0 ? [-1, 1] : [min - Math.abs(min) / 2, max + Math.abs(max) / 2];
  const pad = (max - min) * 0.03;
  return [min - pad, max + pad];
}

/** A histogram's bin i in data units (a log histogram's edges are log10 units). */
export function binRange(h: Histogram, i: number): [number, number] {
  const a = h.edges[i] ?? NaN;
  const b = h.edges[i + 1] ?? NaN;
  return h.log ? [10 ** a, 10 ** b] : [a, b];
}

export interface Bar {
  readonly bin: number;
  readonly x: number;
  readonly y: number;
  readonly w: number;
  readonly h: number;
}

/** The bars of a histogram on an x scale (data units) and a y scale (counts, from 0); empty bins have none. */
export function histogramBars(h: Histogram, x: Scale, y: Scale): Bar[] {
  const bars: Bar[] = [];
  const base = y.toPx(0);
  for (let i = 0; i < h.counts.length; i++) {
    const c = h.counts[i] ?? 0;
    if (c <= 0) continue;
    const [a, b] = binRange(h, i);
    const x0 = x.toPx(a);
    const x1 = x.toPx(b);
    const top = y.toPx(c);
    // At least one pixel high and wide, so a bin of 1 among 100,000 still shows.
    bars.push({ bin: i, x: Math.min(x0, x1), w: Math.max(1, Math.abs(x1 - x0)), y: Math.min(top, base - 1), h: Math.max(1, Math.abs(base - top)) });
  }
  return bars;
}

/** The bins [first, last] a brush from px a to px b covers (any overlap), or undefined outside the bins. */
export function brushBins(h: Histogram, x: Scale, a: number, b: number): [number, number] | undefined {
  const lo = Math.min(a, b);
  const hi = Math.max(a, b);
  let first = -1;
  let last = -1;
  for (let i = 0; i < h.counts.length; i++) {
    const [d0, d1] = binRange(h, i);
    const p0 = Math.min(x.toPx(d0), x.toPx(d1));
    const p1 = Math.max(x.toPx(d0), x.toPx(d1));
    if (p1 >= lo && p0 <= hi) {
      if (first < 0) first = i;
      last = i;
    }
  }
  return first < 0 ? undefined : [first, last];
}

/** The range filter of bins [first, last] (data units) and the rows they count. */
export function binsFilter(h: Histogram, first: number, last: number): { filter: ColumnFilter; rows: number } {
  const [a0, a1] = binRange(h, first);
  const [b0, b1] = binRange(h, last);
  let rows = 0;
  for (let i = first; i <= last; i++) rows += h.counts[i] ?? 0;
  // Edges widened outwards by less than a hundredth of a bin, so a chip reads 141.5 rather than 141.531672153.
  const min = roundOut(a0, (a1 - a0) / 1000, 'down');
  const max = roundOut(b1, (b1 - b0) / 1000, 'up');
  return { filter: { kind: 'range', column: h.column, min, max }, rows };
}

/** v rounded down or up to the power of ten at or below `fine`. */
export function roundOut(v: number, fine: number, dir: 'down' | 'up'): number {
  if (!(fine > 0) || !Number.isFinite(fine)) return roundEdge(v);
  const step = 10 ** Math.floor(Math.log10(fine));
  const k = v / step;
  // A value already on the step (within float noise) stays put.
  const n = Math.abs(k - Math.round(k)) < 1e-6 ? Math.round(k) : dir === 'down' ? Math.floor(k) : Math.ceil(k);
  return roundEdge(n * step);
}

/** A bound to 12 significant digits (no 0.30000000000000004 in a chip), outward-safe at that precision. */
function roundEdge(v: number): number {
  return Number(v.toPrecision(12));
}

/**
 * The value at pixel p, rounded to the power of ten below what one pixel spans there: a brush
 * cannot be more precise than a pixel, and `0.4895 ≤ winrate` reads better than 0.489468886782.
 */
export function pixelRound(s: Scale, p: number): number {
  const v = s.fromPx(p);
  const perPx = Math.abs(s.fromPx(p + 0.5) - s.fromPx(p - 0.5));
  if (!(perPx > 0) || !Number.isFinite(perPx)) return roundEdge(v);
  const step = 10 ** Math.floor(Math.log10(perPx));
  return roundEdge(Math.round(v / step) * step);
}

/** A brush on the scatter: a pixel rectangle as range filters on both columns, in data units (min ≤ max whatever the drag direction or log axes). */
export function brushFilters(rect: { x0: number; y0: number; x1: number; y1: number }, x: Scale, y: Scale, xColumn: number, yColumn: number): ColumnFilter[] {
  const range = (s: Scale, p0: number, p1: number, column: number): ColumnFilter => {
    const a = pixelRound(s, p0);
    const b = pixelRound(s, p1);
    return { kind: 'range', column, min: Math.min(a, b), max: Math.max(a, b) };
  };
  const fx = range(x, rect.x0, rect.x1, xColumn);
  const fy = range(y, rect.y0, rect.y1, yColumn);
  return xColumn === yColumn ? [fx] : [fx, fy];
}

/** Points inside [xmin, xmax] × [ymin, ymax] (bounds included, as the table's range filter). */
export function countInBox(xs: ArrayLike<number>, ys: ArrayLike<number>, xmin: number, xmax: number, ymin: number, ymax: number): number {
  let n = 0;
  for (let i = 0; i < xs.length; i++) {
    const a = xs[i] ?? NaN;
    const b = ys[i] ?? NaN;
    if (a >= xmin && a <= xmax && b >= ymin && b <= ymax) n++;
  }
  return n;
}

/**
 * Every point counted into the device pixel it falls on, over a plot `w` × `h` pixels (the scales'
 * ranges are pixels of that plot, x from 0, y from h down to 0). `skipped`: points an axis cannot
 * place (log: ≤ 0). A size of 2 marks each point as 2 × 2 pixels (HiDPI).
 */
export function densityGrid(xs: ArrayLike<number>, ys: ArrayLike<number>, x: Scale, y: Scale, w: number, h: number, size = 1): { counts: Uint32Array; max: number; drawn: number; skipped: number } {
  const counts = new Uint32Array(w * h);
  const dot = dotOffsets(size);
  let max = 0;
  let drawn = 0;
  let skipped = 0;
  for (let i = 0; i < xs.length; i++) {
    const a = xs[i] ?? NaN;
    const b = ys[i] ?? NaN;
    if (!x.accepts(a) || !y.accepts(b)) {
      skipped++;
      continue;
    }
    const fx = x.toPx(a);
    const fy = y.toPx(b);
    // A value on the far edge of the domain lands on the last pixel, not past it.
    const px = fx === w ? w - 1 : Math.floor(fx);
    const py = fy === h ? h - 1 : Math.floor(fy);
    drawn++;
    for (let j = 0; j < dot.length; j += 2) {
      const r = py + (dot[j + 1] ?? 0);
      const c = px + (dot[j] ?? 0);
      if (r < 0 || r >= h || c < 0 || c >= w) continue;
      const k = r * w + c;
      const n = (counts[k] ?? 0) + 1;
      counts[k] = n;
      if (n > max) max = n;
    }
  }
  return { counts, max, drawn, skipped };
}

/** The pixels of a dot `size` device pixels wide, as (dx, dy) pairs around its centre: a square up to 3, a disc above. */
export function dotOffsets(size: number): Int16Array {
  const s = Math.max(1, Math.round(size));
  const half = s >> 1;
  const r2 = (s / 2) ** 2;
  const out: number[] = [];
  for (let dy = 0; dy < s; dy++) {
    for (let dx = 0; dx < s; dx++) {
      const cx = dx + 0.5 - s / 2;
      const cy = dy + 0.5 - s / 2;
      if (s > 3 && cx * cx + cy * cy > r2) continue;
      out.push(dx - half, dy - half);
    }
  }
  return Int16Array.from(out);
}

/**
 * How a scatter's points are drawn (issue 23: tiny and faint, worse in the dark theme): a dot a few
 * CSS pixels wide, larger when there are fewer points, and a lone point at 85 % opacity (opaque in
 * the high-contrast themes), so each shows against the background at any pixel ratio.
 */
export function pointStyle(points: number, dpr: number, highContrast: boolean): { cssSize: number; size: number; floor: number } {
  const cssSize = points <= 2_000 ? 5 : points <= 20_000 ? 4 : points <= 100_000 ? 3 : 2;
  return { cssSize, size: Math.max(1, Math.round(cssSize * (dpr || 1))), floor: highContrast ? 1 : 0.85 };
}

/** WCAG's relative luminance of a colour. */
function luminance(c: Rgb): number {
  const ch = (v: number): number => {
    const s = v / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * ch(c.r) + 0.7152 * ch(c.g) + 0.0722 * ch(c.b);
}

/** WCAG's contrast ratio of two colours (1 to 21). */
export function contrastRatio(a: Rgb, b: Rgb): number {
  const la = luminance(a);
  const lb = luminance(b);
  return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05);
}

/**
 * The points' colour: the theme's chart colour when it stands out from the chart's background by
 * 3:1 at least (WCAG's ratio for graphics), else the theme's foreground, which always does.
 */
export function pointColor(accent: Rgb, background: Rgb | undefined, foreground: Rgb | undefined): Rgb {
  if (!background || !foreground) return accent;
  return contrastRatio(accent, background) >= 3 ? accent : foreground;
}

export interface Rgb {
  readonly r: number;
  readonly g: number;
  readonly b: number;
}

/**
 * Blends the points into an RGBA image (the plot as already drawn): a lone point at `floor`
 * opacity (55 %; high-contrast themes pass 1, every point opaque), dense pixels up to opaque.
 */
export function blendDensity(counts: Uint32Array, max: number, pixels: Uint8ClampedArray, color: Rgb, floor = 0.55): void {
  const logMax = Math.log(max + 1);
  for (let k = 0; k < counts.length; k++) {
    const n = counts[k] ?? 0;
    if (n === 0) continue;
    const alpha = max <= 1 ? floor : floor + (1 - floor) * ((Math.log(n + 1) - Math.LN2) / Math.max(1e-9, logMax - Math.LN2));
    const o = k * 4;
    pixels[o] = (pixels[o] ?? 0) * (1 - alpha) + color.r * alpha;
    pixels[o + 1] = (pixels[o + 1] ?? 0) * (1 - alpha) + color.g * alpha;
    pixels[o + 2] = (pixels[o + 2] ?? 0) * (1 - alpha) + color.b * alpha;
    pixels[o + 3] = 255;
  }
}

/** A CSS colour as VS Code's theme variables give it (#rgb, #rrggbb, #rrggbbaa, rgb(), rgba()); undefined otherwise. */
export function parseColor(text: string): Rgb | undefined {
  const s = text.trim().toLowerCase();
  let m = /^#([0-9a-f]{3,4})$/u.exec(s);
  if (m?.[1]) {
    const d = m[1];
    const c = (i: number): number => parseInt(`${d[i] ?? '0'}${d[i] ?? '0'}`, 16);
    return { r: c(0), g: c(1), b: c(2) };
  }
  m = /^#([0-9a-f]{6})(?:[0-9a-f]{2})?$/u.exec(s);
  if (m?.[1]) {
    const n = parseInt(m[1], 16);
    return { r: (n >> 16) & 255, g: (n >> 8) & 255, b: n & 255 };
  }
  m = /^rgba?\(\s*([\d.]+)[\s,]+([\d.]+)[\s,]+([\d.]+)/u.exec(s);
  if (m?.[1] && m[2] && m[3]) return { r: Number(m[1]), g: Number(m[2]), b: Number(m[3]) };
  return undefined;
}

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

// ---- the panel's words -----------------------------------------------------------------------

/** A column profile as label/value rows (numbers only where the column has them). */
export function profileRows(p: ColumnProfile): [string, string][] {
  const count = (n: number): string => n.toLocaleString('en-US');
  const rows: [string, string][] = [
    ['Type', p.type],
    ['Count', count(p.count)],
    ['Empty', count(p.empty)],
    ['Distinct', count(p.distinct)],
  ];
  if (p.outOfRange !== undefined) rows.push(['Out of range', `${count(p.outOfRange)} (decimals past a number's range, kept as text)`]);
  // Min and max are values of the file: its digits, every one; the others are computed.
  if (p.min !== undefined) rows.push(['Min', p.minText ?? numberText(p.min)]);
  if (p.max !== undefined) rows.push(['Max', p.maxText ?? numberText(p.max)]);
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
 * The range filters typed into the brush fields (x, and y for a scatter): a blank bound is open;
 * undefined when nothing is typed; an error text when a bound is not a number or min > max.
 */
export function typedFilters(fields: readonly { column: number; min: string; max: string }[]): ColumnFilter[] | string | undefined {
  const out: ColumnFilter[] = [];
  for (const f of fields) {
    const a = f.min.trim();
    const b = f.max.trim();
    if (a === '' && b === '') continue;
    const min = a === '' ? undefined : Number(a);
    const max = b === '' ? undefined : Number(b);
    if ((min !== undefined && !Number.isFinite(min)) || (max !== undefined && !Number.isFinite(max))) return 'The bounds must be numbers.';
    if (min !== undefined && max !== undefined && min > max) return 'The minimum is above the maximum.';
    out.push({ kind: 'range', column: f.column, ...(min !== undefined ? { min } : {}), ...(max !== undefined ? { max } : {}), ...exactBounds(a, min, b, max) });
  }
  return out.length > 0 ? out : undefined;
}
