// The pipeline notebook renderer's pure parts (issue 24): the page protocol validated at both ends,
// the output item's bounds (rows, columns, cell length, no key), the cells shown by the table's own
// formatting rules, a page read by the table engine's worker, and the manifest's contribution.
import assert from 'node:assert/strict';
import { readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ResultReader } from '../../../../src/core/results/readResult';
import { sampleAddress } from '../../../../src/core/spec/samples';
import {
  CELL_RESULT_MIME,
  CELL_RESULT_RENDERER_ID,
  MAX_CELL_CHARS,
  PAGE_ROWS,
  pageStart,
  parseCellResult,
  parseCellResultReply,
  parseCellResultRequest,
} from '../../../../src/shared/cellResultProtocol';
import { cellShown, columnsNote, pageLabel, statusLine } from '../../../../src/webview-ui/cellResult/cells';
// cellResultData.ts and columnInfo.ts hold no vscode import, so a node test may read them.
// eslint-disable-next-line no-restricted-imports
import { cellResultOf } from '../../../../src/vscode/pipeline/cellResultData';
// eslint-disable-next-line no-restricted-imports
import { columnInfo } from '../../../../src/vscode/table/columnInfo';
import { tempDir, writeTemp } from '../../tableFixtures';

let root = __dirname;
while (!statSync(join(root, 'package.json'), { throwIfNoEntry: false })?.isFile()) root = dirname(root);
const workerFile = join(root, 'dist', 'tableWorker.js');

const W = (i: number): string => sampleAddress('main', i);

describe('pipeline renderer: the page protocol at the host (what a renderer may ask)', () => {
  it('takes a page request and an Open as Table request, and nothing else', () => {
    assert.deepEqual(parseCellResultRequest({ type: 'page', requestId: 3, cell: 'pnl', file: 'pnl.csv', start: 20 }), { type: 'page', requestId: 3, cell: 'pnl', file: 'pnl.csv', start: 20 });
    assert.deepEqual(parseCellResultRequest({ type: 'openTable', cell: 'pnl' }), { type: 'openTable', cell: 'pnl' });
    // Foreign fields do not cross (a path, say): the request is rebuilt from its known fields.
    assert.deepEqual(parseCellResultRequest({ type: 'page', requestId: 1, cell: 'pnl', file: 'pnl.csv', start: 0, path: '/etc/passwd' }), { type: 'page', requestId: 1, cell: 'pnl', file: 'pnl.csv', start: 0 });
    for (const bad of [
      undefined,
      null,
      'page',
      [],
      { type: 'page', requestId: 1, cell: 'pnl', file: 'pnl.csv' },
      { type: 'page', requestId: 1, cell: 'pnl', start: 0 },
      { type: 'page', requestId: 1, cell: 'pnl', file: '', start: 0 },
      { type: 'page', requestId: 1, cell: 'pnl', file: 'pnl.csv', start: -10 },
      { type: 'page', requestId: 1, cell: 'pnl', file: 'pnl.csv', start: 1.5 },
      { type: 'page', requestId: 1, cell: 'pnl', file: 'pnl.csv', start: '10' },
      { type: 'page', requestId: 1, cell: 'pnl', file: 'pnl.csv', start: Number.MAX_SAFE_INTEGER + 2 },
      { type: 'page', requestId: -1, cell: 'pnl', file: 'pnl.csv', start: 0 },
      { type: 'page', requestId: 1, cell: '', file: 'pnl.csv', start: 0 },
      { type: 'page', requestId: 1, cell: 'x'.repeat(5000), file: 'pnl.csv', start: 0 },
      { type: 'page', requestId: 1, cell: 7, file: 'pnl.csv', start: 0 },
      { type: 'openTable' },
      { type: 'readFile', cell: 'pnl' },
    ]) {
      assert.equal(parseCellResultRequest(bad), undefined, JSON.stringify(bad));
    }
  });
});

describe('pipeline renderer: the host’s reply at the renderer (what it will show)', () => {
  const page = (rows: unknown): unknown => ({ type: 'page', requestId: 2, cell: 'pnl', start: 10, total: 40, rows });
  it('takes a page of at most PAGE_ROWS rows, no wider than the table, of short text cells', () => {
    const rows = Array.from({ length: PAGE_ROWS }, (_, i) => [W(i + 1), String(i)]);
    assert.deepEqual(parseCellResultReply(page(rows), 2), { type: 'page', requestId: 2, cell: 'pnl', start: 10, total: 40, rows });
    assert.deepEqual(parseCellResultReply({ type: 'pageError', requestId: 2, cell: 'pnl', message: 'gone' }, 2), { type: 'pageError', requestId: 2, cell: 'pnl', message: 'gone' });
  });
  it('refuses more rows than a page, a row wider than the table, a cell that is not text or is too long', () => {
    assert.equal(parseCellResultReply(page(Array.from({ length: PAGE_ROWS + 1 }, () => ['a', 'b'])), 2), undefined);
    assert.equal(parseCellResultReply(page([['a', 'b', 'c']]), 2), undefined);
    assert.equal(parseCellResultReply(page([['a', 5]]), 2), undefined);
    assert.equal(parseCellResultReply(page([['a', null]]), 2), undefined);
    assert.equal(parseCellResultReply(page([['a', 'x'.repeat(MAX_CELL_CHARS + 1)]]), 2), undefined);
    assert.equal(parseCellResultReply(page('rows'), 2), undefined);
    assert.equal(parseCellResultReply({ type: 'page', requestId: 2, cell: 'pnl', start: 0, rows: [] }, 2), undefined, 'no total');
    assert.equal(parseCellResultReply({ type: 'html', requestId: 2, cell: 'pnl', html: '<b>x</b>' }, 2), undefined);
  });
});

describe('pipeline renderer: the output item', () => {
  const columns = ['wallet', 'realized_pnl_usd_30d', 'note'];
  const sample = Array.from({ length: 50 }, (_, i) => [W(i + 1), i % 2 ? `-${i}.25` : `${i}123456789012345678901`, i === 0 ? `<img src=x onerror=alert(1)> ${'y'.repeat(10_000)}` : '=HYPERLINK("x")']);

  it('holds at most a page of rows, each cell cut, whatever the result’s size, and no key or path', () => {
    const r = cellResultOf('pnl', 'done', 25_000, 'pnl-20260101.csv', { rows: 5000, columns, sample }, true);
    assert.equal(r.first.length, PAGE_ROWS);
    assert.equal(r.rows, 5000);
    assert.ok(r.first.every((row) => row.every((c) => c.length <= MAX_CELL_CHARS)));
    assert.equal(r.first[0]?.[2]?.length, MAX_CELL_CHARS, 'the 10 KB cell is cut');
    assert.ok(r.first[0]?.[2]?.startsWith('<img src=x'), 'a cell is carried as the text it is');
    // What is in it: these keys and nothing else (no key, no folder: the file's name only).
    assert.deepEqual(Object.keys(r).sort(), ['cell', 'colorGainsAndLosses', 'columnCount', 'columns', 'credits', 'file', 'first', 'rows', 'status', 'version']);
    assert.ok(!JSON.stringify(r).includes('api_key'));
    assert.ok(JSON.stringify(r).length < 20_000, `${JSON.stringify(r).length} characters`);
    // The renderer accepts what the host writes, and refuses the same with one row too many.
    assert.deepEqual(parseCellResult(JSON.parse(JSON.stringify(r))), r);
    assert.equal(parseCellResult({ ...r, first: [...r.first, ['a', 'b', 'c']] }), undefined);
    assert.equal(parseCellResult({ ...r, version: 2 }), undefined);
    assert.equal(parseCellResult({ ...r, credits: -1 }), undefined);
    assert.equal(parseCellResult({ ...r, columns: [{ name: 'x' }] }), undefined);
  });

  it('has the table’s own column information (address, signed PnL), and cuts a very wide result to MAX_COLUMNS', () => {
    const r = cellResultOf('pnl', 'done', 5, 'f.csv', { rows: 50, columns, sample }, true);
    assert.deepEqual(r.columns, columnInfo(columns, sample));
    assert.equal(r.columns[0]?.address, 'main');
    assert.equal(r.columns[1]?.signed, true);
    const wide = Array.from({ length: 640 }, (_, i) => `c${i}`);
    const w = cellResultOf('x', 'done', 0, 'w.csv', { rows: 1, columns: wide, sample: [wide.map((_, i) => String(i))] }, true);
    assert.equal(w.columns.length, 200);
    assert.equal(w.columnCount, 640);
    assert.equal(w.first[0]?.length, 200);
    assert.equal(columnsNote(w.columns.length, w.columnCount), 'Showing 200 of 640 columns; Open as Table shows them all.');
    assert.ok(parseCellResult(w));
  });
});

describe('pipeline renderer: cells shown by the table’s rules', () => {
  const info = columnInfo(['wallet', 'realized_pnl_usd_30d', 'balance', 'note', 'at'], [[W(1), '-1234.5', '12345678901234567890123', '=1+1', '2024-05-01T12:00:00Z']]);
  const [wallet, pnl, balance, note, at] = info;

  it('keeps every digit of a long number (the exact decimal, never a double), the file’s text on hover', () => {
    const c = cellShown(balance, '12345678901234567890123', true);
    assert.equal(c.text, '12,345,678,901,234,567,890,123');
    assert.equal(c.title, '12345678901234567890123');
    // Rounded by the table's default format: the file's exact text is the tooltip.
    assert.deepEqual(cellShown(balance, '0.123456789', true), { text: '0.1235', title: '0.123456789' });
    // Out of a number's range: shown as it is.
    assert.deepEqual(cellShown(balance, '1e400', true), { text: '1e400' });
  });

  it('shows a profit with its sign and tone (as the table), an address and a CSV formula as the text they are', () => {
    assert.deepEqual(cellShown(pnl, '-1234.5', true), { text: '\u22121,234.50', tone: 'loss', title: '-1234.5' });
    assert.deepEqual(cellShown(pnl, '-1234.5', false), { text: '\u22121,234.50', title: '-1234.5' });
    assert.deepEqual(cellShown(wallet, W(1), true), { text: W(1) });
    assert.deepEqual(cellShown(note, '=1+1', true), { text: '=1+1' });
    assert.deepEqual(cellShown(note, '<b>bold</b>', true), { text: '<b>bold</b>' });
    assert.match(cellShown(at, '2024-05-01T12:00:00Z', true).title ?? '', /2024-05-01 12:00:00 UTC/u);
  });

  it('says the status, the credits and the rows, and which rows a page shows', () => {
    assert.equal(statusLine({ status: 'done', credits: 25_000, rows: 5000 }), 'done · 25,000 credits charged · 5,000 rows');
    assert.equal(statusLine({ status: 'done', credits: 1, rows: 1 }), 'done · 1 credit charged · 1 row');
    // A reused cell charged nothing in this run: no "· 4,755 credits charged" beside "(free)" (issue 35.13).
    assert.equal(statusLine({ status: 'reused from disk (free)', credits: 0, rows: 1 }), 'reused from disk (free) · 1 row');
    assert.equal(pageLabel(10, 10, 5000), 'Rows 11–20 of 5,000');
    assert.equal(pageLabel(0, 0, 0), 'No rows');
    assert.equal(pageStart(25, 40), 20);
    assert.equal(pageStart(10_000, 41), 40);
    assert.equal(pageStart(10_000, 40), 30);
    assert.equal(pageStart(0, 0), 0);
  });
});

describe('pipeline renderer: a page read by the table engine’s worker', () => {
  let dir: { dir: string; cleanup: () => Promise<void> };
  before(async () => {
    dir = await tempDir();
  });
  after(async () => {
    await dir.cleanup();
  });

  it('reads rows [first, first + count) in file order, only the columns asked', async () => {
    const lines = ['wallet,n,extra', ...Array.from({ length: 25 }, (_, i) => `${W(i + 1)},${i + 1},x${i}`)];
    const file = await writeTemp(dir.dir, `${lines.join('\n')}\n`);
    const reader = await ResultReader.open(file, { workerFile });
    try {
      const page = await reader.page(20, PAGE_ROWS, { columns: 2 });
      assert.deepEqual(page, Array.from({ length: 5 }, (_, i) => [W(21 + i), String(21 + i)]));
      assert.deepEqual(await reader.page(30, PAGE_ROWS), []);
      assert.equal((await reader.page(0, PAGE_ROWS)).length, PAGE_ROWS);
    } finally {
      await reader.close();
    }
  });
});

describe('pipeline renderer: the manifest', () => {
  it('contributes the renderer under the protocol’s id and mime, its bundle shipped', () => {
    const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
      contributes: { notebookRenderer?: { id: string; entrypoint: string; mimeTypes: string[]; requiresMessaging?: string }[] };
    };
    const r = manifest.contributes.notebookRenderer?.find((x) => x.id === CELL_RESULT_RENDERER_ID);
    assert.ok(r, 'the renderer is contributed');
    assert.deepEqual(r.mimeTypes, [CELL_RESULT_MIME]);
    assert.equal(r.requiresMessaging, 'optional');
    assert.equal(r.entrypoint, './dist/cellResultRenderer.js');
    assert.match(readFileSync(join(root, '.vscodeignore'), 'utf8'), /^!dist\/cellResultRenderer\.js$/mu);
  });
});
