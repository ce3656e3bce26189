// The analysis panel's chart logic without a DOM (src/webview-ui/chartMath.ts, chartTables.ts): scales linear and
// log with their ticks, histogram bars, the scatter's pixel density, a brush turned into range
// filters in data units (log axes too), colours read from the theme, the table equivalents.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { timingFigure } from '../../timing';
import type { Histogram } from '../../../src/shared/analysisProtocol';
import type { ColumnFilter } from '../../../src/shared/tableProtocol';
import {
  binsFilter,
  blendDensity,
  brushBins,
  brushFilters,
  contrastRatio,
  countInBox,
  densityGrid,
  dotOffsets,
  extent,
  histogramBars,
  linearTicks,
  padDomain,
  pixelRound,
  parseColor,
  pointColor,
  pointStyle,
  Scale,
  tickLabel,
} from '../../../src/webview-ui/chartMath';
import { histogramRows, numberText, profileRows, scatterBinFilters, scatterRows, type ScatterRow, typedFilters } from '../../../src/webview-ui/chartTables';
import { filterUnit } from '../../../src/webview-ui/filterUnits';

const close = (a: number, b: number, eps = 1e-9): boolean => Math.abs(a - b) <= eps * Math.max(1, Math.abs(a), Math.abs(b));

describe('chart scales', () => {
  it('maps linear values to pixels and back, y growing downwards', () => {
    const x = new Scale('linear', 0, 100, 0, 500);
    assert.equal(x.toPx(0), 0);
    assert.equal(x.toPx(50), 250);
    assert.equal(x.fromPx(500), 100);
    const y = new Scale('linear', -10, 10, 300, 0);
    assert.equal(y.toPx(-10), 300);
    assert.equal(y.toPx(10), 0);
    assert.ok(close(y.fromPx(75), 5));
    assert.equal(new Scale('linear', 3, 3, 0, 100).toPx(3), 50, 'an empty domain puts its value in the middle');
  });

  it('maps log values by decades and refuses values ≤ 0', () => {
    const s = new Scale('log', 1, 10_000, 0, 400);
    assert.ok(close(s.toPx(10), 100));
    assert.ok(close(s.toPx(1000), 300));
    assert.ok(close(s.fromPx(200), 100));
    assert.equal(s.accepts(0), false);
    assert.equal(s.accepts(-5), false);
    assert.equal(s.accepts(Number.NaN), false);
    assert.equal(s.accepts(0.001), true);
    assert.equal(new Scale('linear', 0, 1, 0, 1).accepts(-5), true);
  });

  it('places linear ticks on 1-2-5 steps inside the domain, without float noise', () => {
    assert.deepEqual(
      linearTicks(0, 1, 5).map((t) => t.value),
      [0, 0.2, 0.4, 0.6, 0.8, 1],
    );
    assert.deepEqual(
      linearTicks(0.1, 0.7, 6).map((t) => t.label),
      ['0.1', '0.2', '0.3', '0.4', '0.5', '0.6', '0.7'],
    );
    const big = linearTicks(-1_234_567, 9_876_543, 5);
    assert.deepEqual(
      big.map((t) => t.label),
      ['0', '2M', '4M', '6M', '8M'],
    );
    assert.ok(big.every((t) => t.value >= -1_234_567 && t.value <= 9_876_543));
    assert.deepEqual(linearTicks(7, 7), [{ value: 7, label: '7' }]);
  });

  it('places log ticks on powers of ten, thinned when there are many decades', () => {
    assert.deepEqual(
      new Scale('log', 0.5, 20_000, 0, 1).ticks(5).map((t) => t.label),
      ['1', '10', '100', '1K', '10K'],
    );
    const wide = new Scale('log', 1e-6, 1e12, 0, 1).ticks(5);
    assert.ok(wide.length <= 6 && wide.length >= 3, wide.map((t) => t.label).join(' '));
    assert.equal(wide[0]?.label, '1e-6');
    // Within one decade there is no power of ten to show: linear steps instead.
    assert.deepEqual(
      new Scale('log', 2, 8, 0, 1).ticks(3).map((t) => t.value),
      [2, 4, 6, 8],
    );
  });

  it('labels ticks briefly', () => {
    assert.equal(tickLabel(0), '0');
    assert.equal(tickLabel(1500), '1.5K');
    assert.equal(tickLabel(-2_000_000), '-2M');
    assert.equal(tickLabel(0.25), '0.25');
    assert.equal(tickLabel(0.000001), '1e-6');
    assert.equal(tickLabel(123.456), '123');
  });

  it('finds the extent an axis shows, counting what a log axis skips, and pads it', () => {
    const v = new Float32Array([-3, 0, 2, 50, Number.NaN]);
    assert.deepEqual(extent(v, 'linear'), { min: -3, max: 50, skipped: 1 });
    assert.deepEqual(extent(v, 'log'), { min: 2, max: 50, skipped: 3 });
    const [a, b] = padDomain(0, 100, 'linear');
    assert.ok(a < 0 && b > 100);
    const [l0, l1] = padDomain(10, 1000, 'log');
    assert.ok(l0 < 10 && l0 > 0 && l1 > 1000);
    assert.deepEqual(padDomain(5, 5, 'linear'), [2.5, 7.5]);
    assert.deepEqual(padDomain(0, 0, 'linear'), [-1, 1]);
  });
});

const hist: Histogram = { column: 4, edges: [0, 10, 20, 30, 40], counts: [5, 0, 1, 94], log: false, counted: 100, left: 3 };
const logHist: Histogram = { column: 2, edges: [0, 1, 2, 3], counts: [10, 20, 30], log: true, counted: 60, left: 7 };

describe('histogram geometry and brush', () => {
  it('draws a bar per non-empty bin, a bin of 1 among 100 still a pixel high', () => {
    const x = new Scale('linear', 0, 40, 0, 400);
    const y = new Scale('linear', 0, 100, 200, 0);
    const bars = histogramBars(hist, x, y);
    assert.deepEqual(
      bars.map((b) => b.bin),
      [0, 2, 3],
    );
    assert.deepEqual(bars[0], { bin: 0, x: 0, w: 100, y: 190, h: 10 });
    assert.equal(bars[1]?.h, 2);
    assert.ok(close(bars[2]?.y ?? 0, 12) && close(bars[2]?.h ?? 0, 188));
  });

  it('draws a log histogram on a log axis, its edges being log10 units', () => {
    const x = new Scale('log', 1, 1000, 0, 300);
    const bars = histogramBars(logHist, x, new Scale('linear', 0, 30, 100, 0));
    assert.deepEqual(
      bars.map((b) => [Math.round(b.x), Math.round(b.w)]),
      [
        [0, 100],
        [100, 100],
        [200, 100],
      ],
    );
  });

  it('turns a dragged range into whole bins, a range filter and the rows it keeps', () => {
    const x = new Scale('linear', 0, 40, 0, 400);
    assert.deepEqual(brushBins(hist, x, 250, 120), [1, 2], 'right to left works too');
    assert.deepEqual(brushBins(hist, x, 5, 5), [0, 0]);
    assert.equal(brushBins(hist, x, 450, 500), undefined);
    assert.deepEqual(binsFilter(hist, 1, 3), { filter: { kind: 'range', column: 4, min: 10, max: 40 }, rows: 95 });
    const lx = new Scale('log', 1, 1000, 0, 300);
    const bins = brushBins(logHist, lx, 150, 160);
    assert.deepEqual(bins, [1, 1]);
    const odd: Histogram = { column: 2, edges: [141.531672153, 500.25, 12762.7079926], counts: [3, 4], log: false, counted: 7, left: 0 };
    assert.deepEqual(binsFilter(odd, 0, 1).filter, { kind: 'range', column: 2, min: 141.5, max: 12770 }, 'widened outwards by at most a hundredth of a bin');
    assert.deepEqual(binsFilter(logHist, 1, 2), { filter: { kind: 'range', column: 2, min: 10, max: 1000 }, rows: 50 }, 'log bins filter in data units');
  });
});

describe('scatter brush, density and colours', () => {
  it('turns a brush rectangle into range filters in data units, on linear and log axes', () => {
    const x = new Scale('linear', 0, 1, 0, 100);
    const y = new Scale('log', 1, 1e6, 600, 0); // a decade per 100 px, upwards
    const f = brushFilters({ x0: 80, y0: 100, x1: 20, y1: 400 }, x, y, 3, 9);
    assert.deepEqual(f, [
      { kind: 'range', column: 3, min: 0.2, max: 0.8 },
      { kind: 'range', column: 9, min: 100, max: 100_000 },
    ]);
    assert.equal(brushFilters({ x0: 0, y0: 0, x1: 10, y1: 10 }, x, x, 3, 3).length, 1, 'a column against itself: one filter');
    // Bounds are as precise as a pixel, no more: 1,000 px over [0, 1] gives 3 decimals.
    const fine = new Scale('linear', 0, 1, 0, 1000);
    assert.deepEqual(brushFilters({ x0: 489.4688, y0: 0, x1: 816.6187, y1: 10 }, fine, fine, 1, 1), [{ kind: 'range', column: 1, min: 0.489, max: 0.817 }]);
  });

  it('rounds a pixel’s value to what a pixel spans, on log axes too', () => {
    assert.equal(pixelRound(new Scale('linear', 0, 2_000_000, 0, 200), 123.4567), 1_230_000, 'a pixel spans 10,000');
    assert.equal(pixelRound(new Scale('log', 1, 1e6, 0, 600), 250.3), 318, 'near 317.5 a pixel spans about 7: whole numbers');
  });

  it('counts the points inside a box, bounds included', () => {
    const xs = new Float32Array([0, 1, 2, 3]);
    const ys = new Float32Array([5, 6, 7, 8]);
    assert.equal(countInBox(xs, ys, 1, 2, 0, 100), 2);
    assert.equal(countInBox(xs, ys, 0, 3, 6, 7), 2);
  });

  it('counts every point into its pixel, skipping what a log axis cannot place', () => {
    const xs = new Float32Array([0.5, 0.5, 9.5, -1, 5]);
    const ys = new Float32Array([0.5, 0.5, 9.5, 1, 0]);
    const x = new Scale('linear', 0, 10, 0, 10);
    const y = new Scale('linear', 0, 10, 10, 0);
    const g = densityGrid(xs, ys, x, y, 10, 10);
    assert.equal(g.drawn, 5);
    assert.equal(g.max, 2);
    assert.equal(g.counts[9 * 10 + 0], 2, 'two points on one pixel, bottom left');
    assert.equal(g.counts[0 * 10 + 9], 1, 'top right');
    assert.equal(g.counts.reduce((a, b) => a + b, 0), 4, 'x = -1 falls outside the plot (clipped); y = 0 on the bottom edge shows');
    const logged = densityGrid(xs, ys, new Scale('log', 0.1, 10, 0, 10), y, 10, 10);
    assert.equal(logged.skipped, 1);
    const big = densityGrid(new Float32Array([5]), new Float32Array([5]), x, y, 10, 10, 2);
    assert.equal(big.counts.reduce((a, b) => a + b, 0), 4, 'HiDPI: 2 × 2 pixels a point');
  });

  it('draws a scatter point a few CSS pixels wide and nearly opaque, at any pixel ratio (issue 23: tiny and faint)', () => {
    for (const dpr of [1, 2]) {
      const few = pointStyle(300, dpr, false);
      assert.ok(few.cssSize >= 4 && few.size >= 4 * dpr, `300 points at ${dpr}×: ${JSON.stringify(few)}`);
      assert.ok(few.floor >= 0.8, 'a lone point stands out');
      const many = pointStyle(100_000, dpr, false);
      assert.ok(many.size >= 2 * dpr && many.size <= few.size, `100,000 points at ${dpr}×: ${JSON.stringify(many)}`);
    }
    assert.equal(pointStyle(300, 1, true).floor, 1, 'high contrast: opaque');
    // One point of 5 device pixels covers a disc of them, centred on its pixel.
    const x = new Scale('linear', 0, 20, 0, 20);
    const y = new Scale('linear', 0, 20, 20, 0);
    const g = densityGrid(new Float32Array([10]), new Float32Array([10]), x, y, 20, 20, 5);
    const lit = g.counts.reduce((a, b) => a + b, 0);
    assert.ok(lit >= 13 && lit < 25, `a disc, not a square: ${lit}`);
    assert.equal(g.counts[10 * 20 + 10], 1, 'the centre');
    assert.equal(dotOffsets(1).length, 2, 'one pixel');
    assert.equal(dotOffsets(3).length, 18, 'a 3 × 3 square');
  });

  it('colours the points in the theme’s chart colour unless it fades into the background', () => {
    const blue = { r: 55, g: 148, b: 255 };
    const dark = { r: 31, g: 31, b: 31 };
    const fg = { r: 204, g: 204, b: 204 };
    assert.ok(contrastRatio(blue, dark) > 3);
    assert.deepEqual(pointColor(blue, dark, fg), blue);
    const navy = { r: 20, g: 30, b: 70 };
    assert.deepEqual(pointColor(navy, dark, fg), fg, 'a chart colour close to the background gives way to the foreground');
    assert.deepEqual(pointColor(blue, undefined, fg), blue);
    assert.equal(Math.round(contrastRatio({ r: 0, g: 0, b: 0 }, { r: 255, g: 255, b: 255 })), 21);
  });

  it('draws 100,000 points into pixels quickly', () => {
    const n = 100_000;
    const xs = new Float32Array(n);
    const ys = new Float32Array(n);
    for (let i = 0; i < n; i++) {
      xs[i] = Math.sin(i) * 1000;
      ys[i] = Math.cos(i * 1.3) * 50;
    }
    const t = performance.now();
    const x = new Scale('linear', -1000, 1000, 0, 1600);
    const y = new Scale('linear', -50, 50, 1000, 0);
    const g = densityGrid(xs, ys, x, y, 1600, 1000, 2);
    const pixels = new Uint8ClampedArray(1600 * 1000 * 4);
    blendDensity(g.counts, g.max, pixels, { r: 55, g: 148, b: 255 });
    const ms = performance.now() - t;
    assert.equal(g.drawn, n);
    // About 30 ms on an idle core: a figure (bench:analysis times the charts), failed only by a benchmark run.
    timingFigure('density grid of the points', ms, 100, 1_500);
  });

  it('blends a lone point at 55 % and the densest pixel opaque', () => {
    const counts = new Uint32Array([0, 1, 9]);
    const px = new Uint8ClampedArray(12).fill(0);
    blendDensity(counts, 9, px, { r: 200, g: 100, b: 0 });
    assert.deepEqual([...px.slice(0, 4)], [0, 0, 0, 0], 'no point: untouched');
    assert.deepEqual([...px.slice(4, 8)], [110, 55, 0, 255]);
    assert.deepEqual([...px.slice(8, 12)], [200, 100, 0, 255]);
    const hc = new Uint8ClampedArray(12).fill(0);
    blendDensity(counts, 9, hc, { r: 200, g: 100, b: 0 }, 1);
    assert.deepEqual([...hc.slice(4, 8)], [200, 100, 0, 255], 'high contrast: a lone point opaque');
  });

  it('reads the colours VS Code themes define', () => {
    assert.deepEqual(parseColor('#3794ff'), { r: 55, g: 148, b: 255 });
    assert.deepEqual(parseColor(' #fff '), { r: 255, g: 255, b: 255 });
    assert.deepEqual(parseColor('#3794ffcc'), { r: 55, g: 148, b: 255 });
    assert.deepEqual(parseColor('rgba(1, 2, 3, 0.5)'), { r: 1, g: 2, b: 3 });
    assert.equal(parseColor('var(--x)'), undefined);
    assert.equal(parseColor(''), undefined);
  });
});

describe('chart table equivalents', () => {
  it('lists a histogram’s bins with their ranges in data units', () => {
    assert.deepEqual(histogramRows(logHist), [
      { from: '1', to: '10', count: 10 },
      { from: '10', to: '100', count: 20 },
      { from: '100', to: '1,000', count: 30 },
    ]);
  });

  it('cuts a scatter’s x axis into bins with the y minimum, median and maximum of each', () => {
    const xs = new Float32Array([0, 1, 2, 9, 10, -4, 2.5]);
    const ys = new Float32Array([1, 3, 5, 7, 9, 11, 2]);
    const rows = scatterRows(xs, ys, 'linear', 'linear', 2);
    const words = (r: ScatterRow[]): unknown[] => r.map(({ from, to, points, yMin, yMedian, yMax }) => ({ from, to, points, yMin, yMedian, yMax }));
    assert.deepEqual(words(rows), [
      { from: '-4', to: '3', points: 5, yMin: '1', yMedian: '3', yMax: '11' },
      { from: '3', to: '10', points: 2, yMin: '7', yMedian: '8', yMax: '9' },
    ]);
    assert.deepEqual([rows[0]?.x0, rows[0]?.x1, rows[0]?.y0, rows[0]?.y1], [-4, 3, 1, 11]);
    const logRows = scatterRows(xs, ys, 'log', 'linear', 1);
    assert.equal(logRows[0]?.points, 5, 'a log x axis leaves out 0 and -4');
    assert.deepEqual(words(scatterRows(new Float32Array([2, 2]), new Float32Array([1, 3]), 'linear', 'linear', 5)), [{ from: '2', to: '2', points: 2, yMin: '1', yMedian: '2', yMax: '3' }]);
    assert.deepEqual(scatterRows(new Float32Array(0), new Float32Array(0), 'linear', 'linear'), []);
    const empty = scatterRows(new Float32Array([0, 10]), new Float32Array([1, 1]), 'linear', 'linear', 5)[2];
    assert.deepEqual(empty && words([empty]), [{ from: '4', to: '6', points: 0, yMin: '', yMedian: '', yMax: '' }]);
  });

  it('filters the table to a scatter bin’s points: x and y ranges that keep every one, float32 rounding included', () => {
    // 0.35 and 0.7 are not float32 numbers: the float32 values sit a little off the file's.
    const fileXs = [0.35, 0.36, 0.41, 0.7];
    const fileYs = [-120.33, 5, 17.1, 250.9];
    const rows = scatterRows(new Float32Array(fileXs), new Float32Array(fileYs), 'linear', 'linear', 2);
    const kept = (filters: ColumnFilter[]): number[] =>
      fileXs.flatMap((x, i) => {
        const values = [x, fileYs[i] ?? NaN];
        return filters.every((f) => f.kind === 'range' && (f.min === undefined || (values[f.column] ?? NaN) >= f.min) && (f.max === undefined || (values[f.column] ?? NaN) <= f.max)) ? [i] : [];
      });
    const first = scatterBinFilters(rows[0] as ScatterRow, 0, 1);
    assert.equal(first.length, 2);
    assert.deepEqual(kept(first), [0, 1, 2], JSON.stringify(first));
    const last = scatterBinFilters(rows[1] as ScatterRow, 0, 1);
    assert.deepEqual(kept(last), [3], JSON.stringify(last));
    for (const f of [...first, ...last]) if (f.kind === 'range') assert.ok(String(f.min).length <= 8 && String(f.max).length <= 8, `readable bounds: ${JSON.stringify(f)}`);
    // An empty bin filters on x alone; x and y the same column, one filter.
    assert.equal(scatterBinFilters({ ...(rows[0] as ScatterRow), points: 0 }, 0, 1).length, 1);
    assert.equal(scatterBinFilters(rows[0] as ScatterRow, 2, 2).length, 1);
  });

  it('lists a profile’s figures, the numeric ones only for numbers', () => {
    const base = { column: 1, name: 'winrate_30d', count: 100_000, empty: 2_000, distinct: 3_671, top: [], ms: 12 };
    assert.deepEqual(profileRows({ ...base, type: 'number', min: 0, max: 1, mean: 0.501354, median: 0.503, p5: 0.2524, p95: 0.7517 }), [
      ['Type', 'number'],
      ['Count', '100,000'],
      ['Empty', '2,000'],
      ['Distinct', '3,671'],
      ['Min', '0'],
      ['Max', '1'],
      ['Mean', '0.501354'],
      ['Median', '0.503'],
      ['p5', '0.2524'],
      ['p95', '0.7517'],
    ]);
    assert.equal(profileRows({ ...base, type: 'address' }).length, 4);
  });

  it('reads the brush typed into the fields: blank bounds open, errors in words', () => {
    assert.deepEqual(
      typedFilters([
        { column: 1, min: ' 0.4 ', max: '' },
        { column: 2, min: '', max: '' },
      ]),
      [{ kind: 'range', column: 1, min: 0.4 }],
    );
    assert.deepEqual(typedFilters([{ column: 3, min: '-1e3', max: '5' }]), [{ kind: 'range', column: 3, min: -1000, max: 5 }]);
    assert.equal(typedFilters([{ column: 1, min: '', max: '' }]), undefined);
    assert.equal(typedFilters([{ column: 1, min: 'abc', max: '' }]), 'The bounds must be numbers.');
    assert.equal(typedFilters([{ column: 1, min: '5', max: '1' }]), 'The minimum is above the maximum.');
  });

  it('reads typed bounds in the unit the column is shown in: 50 on a ratio shown as % is 0.5 (issue 35 item 6)', () => {
    const percent = filterUnit('percent');
    assert.deepEqual(typedFilters([{ column: 1, min: '50', max: '', unit: percent }]), [{ kind: 'range', column: 1, min: 0.5 }]);
    assert.deepEqual(typedFilters([{ column: 1, min: '12.5', max: '69.63', unit: percent }]), [{ kind: 'range', column: 1, min: 0.125, max: 0.6963 }]);
    assert.deepEqual(typedFilters([{ column: 2, min: '50', max: '', unit: filterUnit('thousands') }]), [{ kind: 'range', column: 2, min: 50 }], 'a column shown in its own scale');
    assert.equal(typedFilters([{ column: 1, min: '60', max: '50', unit: percent }]), 'The minimum is above the maximum.');
  });

  it('writes numbers for people', () => {
    assert.equal(numberText(1234567.891), '1,234,570');
    assert.equal(numberText(0.5), '0.5');
    assert.equal(numberText(0.00001234), '1.234e-5');
    assert.equal(numberText(undefined), '');
    assert.equal(numberText(0.434997221, true), '0.435', 'brief, for the chart tables');
    assert.equal(numberText(-199969.5, true), '-200,000');
  });
});
