/**
 * The analysis panel's statistics (core/table/analysis.ts), exact values on small hand-made
 * columns: empty and text cells, ties among the top values, even and odd medians, p5/p95 by
 * their stated definition, log histograms with zeros and negatives, scatter points, and a
 * filtered view whose hidden rows must not count; and a chart's PNG checked, named and written.
 */
import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { openCsvFile, TableView } from '../../../../src/core/table';
import { binValues, columnHistogram, profileColumn, quantile, scatterPoints } from '../../../../src/core/table/analysis';
import { TypedColumnBuilder } from '../../../../src/core/table/typedColumn';
import { writeAtomic } from '../../../../src/core/files/fileLock';
import { chartPngPath, pngFromDataUrl } from '../../../../src/core/table/chartPng';
import type { TypedColumn } from '../../../../src/core/table/types';
import { tempDir, writeTemp } from '../../tableFixtures';

/** A typed column from cell texts, as the sources build them. */
function column(cells: readonly string[], index = 0): TypedColumn {
  const b = new TypedColumnBuilder(index, cells.length, false);
  cells.forEach((c, r) => b.cell(r, c));
  return b.finish();
}

const all = (n: number): Uint32Array => Uint32Array.from({ length: n }, (_, i) => i);
const MAIN_A = '7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU';
const MAIN_B = '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM';
const ALT_A = '0x52908400098527886e0f7030069857d2e4169ee7';

let dir = '';
let cleanup: () => Promise<void> = () => Promise.resolve();
before(async () => ({ dir, cleanup } = await tempDir()));
after(() => cleanup());

describe('analysis: quantiles (type 7: h = (n − 1)·p, linear between closest ranks)', () => {
  it('gives the middle value for an odd count and the mean of the two middle ones for an even count', () => {
    assert.equal(quantile([1, 2, 9], 0.5), 2);
    assert.equal(quantile([1, 2, 4, 9], 0.5), 3);
    assert.equal(quantile([5], 0.5), 5);
    assert.ok(Number.isNaN(quantile([], 0.5)));
  });

  it('interpolates p5 and p95 between the closest ranks', () => {
    const xs = Array.from({ length: 21 }, (_, i) => i * 10); // 0, 10, …, 200
    assert.equal(quantile(xs, 0.05), 10); // h = 20·0.05 = 1
    assert.equal(quantile(xs, 0.95), 190); // h = 19
    assert.equal(quantile([0, 100], 0.05), 5); // h = 0.05
    assert.equal(quantile([0, 100], 0.95), 95);
    assert.equal(quantile([3, 7], 0), 3);
    assert.equal(quantile([3, 7], 1), 7);
  });
});

describe('analysis: profile', () => {
  it('counts empties, distinct values and the stats of the numbers, text cells left out of them', () => {
    const col = column(['3', '', '1', 'n/a', '2', '1.0', '', '10', '1']);
    const p = profileColumn(col, all(9), 'pnl');
    assert.equal(p.type, 'number'); // 6 of the 7 filled cells are numbers
    assert.equal(p.count, 9);
    assert.equal(p.empty, 2);
    assert.equal(p.distinct, 5); // 1 (three times, "1.0" included), 2, 3, 10, "n/a"
    assert.equal(p.min, 1);
    assert.equal(p.max, 10);
    assert.equal(p.mean, 18 / 6);
    assert.equal(p.median, 1.5); // 1 1 1 2 3 10: even, mean of 1 and 2
    assert.equal(p.p5, 1);
    assert.equal(p.p95, 3 + 0.75 * 7); // h = 5·0.95 = 4.75 → 3 + 0.75·(10 − 3)
    assert.deepEqual(p.top, [
      { value: '1', count: 3 },
      { value: '3', count: 1 },
      { value: 'n/a', count: 1 },
      { value: '2', count: 1 },
      { value: '10', count: 1 },
    ]);
    assert.equal(p.name, 'pnl');
  });

  it('lists the 10 most frequent values, ties in the order first seen in the view', () => {
    // 12 values once each, then "b" and "7" twice: the top is the two pairs, then the first 8 singles in view order.
    const cells = ['z', 'y', '7', 'x', 'b', 'w', 'v', 'u', 't', 's', 'r', 'q', 'b', '7'];
    const p = profileColumn(column(cells), all(cells.length), 'label');
    assert.equal(p.type, 'text');
    assert.deepEqual(
      p.top.map((t) => `${t.value}:${t.count}`),
      ['7:2', 'b:2', 'z:1', 'y:1', 'x:1', 'w:1', 'v:1', 'u:1', 't:1', 's:1'],
    );
    assert.equal(p.distinct, 12);
    assert.equal(p.median, undefined, 'no number stats on a text column');
    assert.equal(p.histogram, undefined);
  });

  it('gives the median of an odd count and a 30-bin histogram of the numbers', () => {
    const p = profileColumn(column(['5', '1', '4', '2', '3']), all(5), 'n');
    assert.equal(p.median, 3);
    assert.equal(p.histogram?.counts.length, 30);
    assert.equal(p.histogram?.edges.length, 31);
    assert.equal(p.histogram?.edges[0], 1);
    assert.equal(p.histogram?.edges[30], 5);
    assert.equal(p.histogram?.counted, 5);
    assert.equal(p.histogram?.counts.reduce((a, b) => a + b, 0), 5);
    assert.equal(p.histogram?.counts[29], 1, 'the max is in the last bin');
  });

  it('calls a column of addresses an address column, an empty one empty, and mixed text text', () => {
    assert.equal(profileColumn(column([MAIN_A, MAIN_B, MAIN_A, '']), all(4), 'wallet').type, 'address');
    assert.equal(profileColumn(column([ALT_A, ALT_A]), all(2), 'wallet').type, 'address');
    assert.equal(profileColumn(column([MAIN_A, 'not an address']), all(2), 'wallet').type, 'text');
    const empty = profileColumn(column(['', '', '']), all(3), 'nothing');
    assert.equal(empty.type, 'empty');
    assert.equal(empty.empty, 3);
    assert.equal(empty.distinct, 0);
    assert.deepEqual(empty.top, []);
    // Half numbers is not most: text, without number stats.
    assert.equal(profileColumn(column(['1', 'a']), all(2), 'mixed').type, 'text');
  });

  it('counts only the rows of a filtered view', async () => {
    const file = await writeTemp(dir, 'wallet,pnl,winrate\nA,100,0.9\nB,-50,0.2\nC,,0.8\nD,30,0.7\nE,7,0.1\n');
    const source = await openCsvFile(file);
    await source.indexed;
    const view = new TableView(source);
    await view.apply({ filters: [{ kind: 'range', column: 2, min: 0.5 }], sort: [{ column: 1, descending: true }] });
    const [pnl] = await source.typedColumns([{ column: 1 }]);
    const p = profileColumn(pnl as TypedColumn, view.rowIds(), 'pnl');
    assert.equal(p.count, 3); // A, C, D
    assert.equal(p.empty, 1);
    assert.equal(p.min, 30);
    assert.equal(p.max, 100);
    assert.equal(p.mean, 65);
    assert.deepEqual(p.top, [
      { value: '100', count: 1 },
      { value: '30', count: 1 },
    ]);
    await source.close();
  });
});

describe('analysis: histogram', () => {
  it('bins over [min, max], edges deciding, the max in the last bin', () => {
    const { edges, counts } = binValues([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 5, 0, 10);
    assert.deepEqual(edges, [0, 2, 4, 6, 8, 10]);
    assert.deepEqual(counts, [2, 2, 2, 2, 3]);
    const one = binValues([4, 4], 2, 4, 4);
    assert.deepEqual(one.edges, [3.5, 4, 4.5]);
    assert.deepEqual(one.counts, [0, 2]);
  });

  it('leaves empty and text cells out, counting them as left', () => {
    const h = columnHistogram(column(['1', '', 'x', '3']), all(4), 'v', 2, false);
    assert.deepEqual(h.edges, [1, 2, 3]);
    assert.deepEqual(h.counts, [1, 1]);
    assert.equal(h.counted, 2);
    assert.equal(h.left, 2);
    assert.equal(h.log, false);
  });

  it('on a log scale bins log10 of the positive numbers; zeros, negatives, empties and text are left', () => {
    const h = columnHistogram(column(['1', '10', '100', '1000', '0', '-5', '', 'abc']), all(8), 'v', 3, true);
    assert.deepEqual(h.edges, [0, 1, 2, 3]);
    assert.deepEqual(h.counts, [1, 1, 2]);
    assert.equal(h.counted, 4);
    assert.equal(h.left, 4);
    assert.equal(h.log, true);
  });

  it('fails with a sentence when nothing can be counted', () => {
    assert.throws(() => columnHistogram(column(['', 'a', '']), all(3), 'realized_pnl_usd_7d', 30, false), {
      message: 'realized_pnl_usd_7d has no numbers in these 3 rows.',
    });
    assert.throws(() => columnHistogram(column(['0', '-1']), all(2), 'pnl', 30, true), {
      message: 'pnl has no positive numbers (a log scale needs them) in these 2 rows.',
    });
    assert.throws(() => columnHistogram(column(['a']), all(1), 'pnl', 30, false), { message: 'pnl has no numbers in this 1 row.' });
  });

  it('counts only view rows', () => {
    const h = columnHistogram(column(['1', '2', '3', '4']), Uint32Array.of(3, 1), 'v', 2, false);
    assert.equal(h.counted, 2);
    assert.deepEqual(h.edges, [2, 3, 4]);
  });
});

describe('analysis: scatter', () => {
  it('keeps the view rows where both cells are numbers, with each point’s view row index', () => {
    const x = column(['1', '2', '', '4', 'x', '6'], 0);
    const y = column(['10', '20', '30', 'y', '50', '60.5'], 1);
    const rows = Uint32Array.of(5, 3, 2, 1, 0, 4); // a sorted view: its row i is source row rows[i]
    const s = scatterPoints(x, y, rows, 'a', 'b');
    assert.deepEqual([...s.xs], [6, 2, 1]);
    assert.deepEqual([...s.ys], [60.5, 20, 10]);
    assert.deepEqual([...s.rowIndex], [0, 3, 4]);
    assert.equal(s.left, 3);
    assert.ok(s.xs instanceof Float32Array && s.ys instanceof Float32Array && s.rowIndex instanceof Uint32Array);
    assert.equal(s.xs.buffer.byteLength, 12, 'only the points are posted');
  });

  it('fails with a sentence when no row has two numbers', () => {
    assert.throws(() => scatterPoints(column(['1', '']), column(['', '2'], 1), all(2), 'a', 'b'), {
      message: 'a and b have no row where both are numbers in these 2 rows.',
    });
  });
});

describe('analysis: a chart saved as PNG', () => {
  // The 8-byte PNG signature and an IHDR chunk's start: enough to be told apart from other bytes.
  const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);

  it('decodes a PNG data URL and refuses anything else', () => {
    assert.deepEqual(pngFromDataUrl(`data:image/png;base64,${png.toString('base64')}`), png);
    assert.throws(() => pngFromDataUrl(`data:image/jpeg;base64,${png.toString('base64')}`), /not arrive as a PNG/u);
    assert.throws(() => pngFromDataUrl('data:image/png;base64,@@@'), /not valid base64/u);
    assert.throws(() => pngFromDataUrl(`data:image/png;base64,${Buffer.from('GIF89a, not a png').toString('base64')}`), /not a PNG image/u);
  });

  it('proposes <result>-<chart>.png beside the result, the chart name safe for a file name', () => {
    assert.equal(chartPngPath('/r/pnl-20261121-101500-req_1.csv', 'scatter winrate_30d × realized_pnl_usd_30d'), '/r/pnl-20261121-101500-req_1-scatter winrate_30d × realized_pnl_usd_30d.png');
    assert.equal(chartPngPath('/r/a.json', 'x/y: "z"?'), '/r/a-x-y- -z.png');
    assert.equal(chartPngPath('/r/a.csv', '../..'), '/r/a-chart.png');
  });

  it('writes the bytes atomically: the file whole, no temp file left', async () => {
    const target = join(dir, 'chart.png');
    await writeAtomic(target, png);
    assert.deepEqual(await readFile(target), png);
    assert.deepEqual((await readdir(dir)).filter((f) => f.startsWith('chart.png')), ['chart.png']);
    await assert.rejects(writeAtomic(join(dir, 'missing', 'chart.png'), png), { code: 'ENOENT' });
  });
});
