/**
 * The table in a worker thread (RemoteTable ↔ dist/tableWorker.js): the same answers as the engine
 * in this thread for windows, sorts, filters, search, export and copy; cancellation; close; errors
 * arriving typed; and proof that the work ran on another thread. Needs `node esbuild.mjs` (the
 * worker bundle) as well as the test build.
 */
import assert from 'node:assert/strict';
import { existsSync, statSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { threadId, Worker, type WorkerOptions } from 'node:worker_threads';
import {
  COPY_MAX_CELLS,
  copySelection,
  exportView,
  openCsvFile,
  prestartTableWorker,
  RemoteTable,
  TableView,
  TableWorkerError,
  TABLE_WORKER_YOUNG_GENERATION_MB,
  tableWorkerOptions,
  type SourceChange,
  type ViewQuery,
} from '../../../../src/core/table';
import { CancelledError } from '../../../../src/core/errors';
import { columnHistogram, profileColumn, scatterPoints } from '../../../../src/core/table/analysis';
import { parseWorkerMessage, parseWorkerRequest } from '../../../../src/core/table/workerProtocol';
import { papaRows, randomCell, rng, tempDir, toCsv, writeTemp } from '../../tableFixtures';

function repoRoot(): string {
  for (let d = __dirname; dirname(d) !== d; d = dirname(d)) {
    if (statSync(join(d, 'package.json'), { throwIfNoEntry: false })?.isFile()) return d;
  }
  throw new Error(`no package.json above ${__dirname}`);
}
const workerFile = join(repoRoot(), 'dist', 'tableWorker.js');

let dir = '';
let cleanup: () => Promise<void> = () => Promise.resolve();
let small = '';
let smallCsv = '';
let big = '';
const BIG_ROWS = 20_000;
const BIG_COLUMNS = 60;

before(async () => {
  assert.ok(existsSync(workerFile), `${workerFile} is not built (node esbuild.mjs)`);
  ({ dir, cleanup } = await tempDir());
  const rand7 = rng(7);
  const header = ['c0', 'col,1', 'c2', 'c3', 'c4', 'c5'];
  const rows = Array.from({ length: 300 }, () => header.map(() => randomCell(rand7)));
  smallCsv = toCsv({ header, rows, eol: '\r\n', bom: false, finalNewline: true }, rand7);
  small = await writeTemp(dir, smallCsv);
  // Enough cells that a column pass takes many reads (a cancel lands mid-pass) and a full copy is over COPY_MAX_CELLS.
  const rand = rng(11);
  const lines = [Array.from({ length: BIG_COLUMNS }, (_, c) => `c${c}`).join(',')];
  for (let r = 0; r < BIG_ROWS; r++) lines.push(Array.from({ length: BIG_COLUMNS }, () => (rand() * 1e6 - 5e5).toFixed(3)).join(','));
  big = await writeTemp(dir, lines.join('\n') + '\n');
});
after(() => cleanup());

async function inProcess(file: string, query: ViewQuery): Promise<TableView> {
  const source = await openCsvFile(file);
  await source.indexed;
  const view = new TableView(source);
  await view.apply(query);
  return view;
}

async function openRemote(file: string): Promise<RemoteTable> {
  const table = await RemoteTable.open(file, { workerFile });
  await table.indexed;
  return table;
}

describe('table worker: round trip', () => {
  it('opens on another thread and answers windows, sorts, filters and search as the engine does here', async () => {
    const table = await RemoteTable.open(small, { workerFile });
    try {
      assert.notEqual(table.threadId, threadId, 'the table must live on the worker thread, not this one');
      const expected = papaRows(smallCsv);
      assert.deepEqual(table.columns, expected[0]);
      await table.indexed;
      assert.equal(table.complete, true);
      assert.equal(table.rowCount, expected.length - 1);
      assert.equal(table.view.countLabel, `${expected.length - 1} rows`);
      const all = table.columns.map((_, i) => i);
      const first = await table.window(0, 10, all);
      assert.deepEqual(first.cells, expected.slice(1, 11));

      const queries: ViewQuery[] = [
        { sort: [{ column: 1, descending: true }, { column: 2 }] },
        { filters: [{ kind: 'range', column: 1, min: -100, max: 1000 }] },
        { filters: [{ kind: 'contains', column: 2, text: 'A' }], sort: [{ column: 0 }] },
        { filters: [{ kind: 'nonEmpty', column: 3 }] },
        { search: 'line' },
      ];
      for (const query of queries) {
        const state = await table.apply(query);
        const local = await inProcess(small, query);
        assert.equal(state.length, local.length, JSON.stringify(query));
        assert.equal(state.countLabel, local.countLabel(), JSON.stringify(query));
        assert.deepEqual(state.query, query);
        assert.equal(table.view.version, state.version);
        const remote = await table.window(0, state.length, all);
        const here = await local.window(0, local.length, all);
        assert.equal(remote.version, state.version);
        assert.deepEqual(remote.rowIds, here.rowIds, JSON.stringify(query));
        assert.deepEqual(remote.cells, here.cells, JSON.stringify(query));
        await local.source.close();
      }
    } finally {
      await table.close();
    }
  });

  it('cuts a window\'s long cells when asked, and lists them, as the engine does here (issue 34)', async () => {
    const table = await openRemote(small);
    const local = await inProcess(small, {});
    try {
      const all = table.columns.map((_, i) => i);
      const cut = await table.window(0, 300, all, undefined, 3);
      const here = await local.window(0, 300, all, undefined, 3);
      assert.deepEqual([cut.cells, cut.cut], [here.cells, here.cut]);
      assert.ok((cut.cut ?? []).length > 0, 'some cells of the file are longer than 3 characters');
      assert.equal((await table.window(0, 300, all)).cut, undefined, 'a window asked without a limit is whole');
    } finally {
      await table.close();
      await local.source.close();
    }
  });

  it('exports and copies the view as the engine does here', async () => {
    const query: ViewQuery = { sort: [{ column: 1 }], filters: [{ kind: 'nonEmpty', column: 1 }] };
    const table = await openRemote(small);
    const local = await inProcess(small, query);
    try {
      await table.apply(query);
      const progress: number[] = [];
      const target = join(dir, 'remote-export.csv');
      const result = await table.export(target, { columns: [2, 0], onProgress: (p) => progress.push(p.done) });
      const localTarget = join(dir, 'local-export.csv');
      const localResult = await exportView(local, localTarget, { columns: [2, 0] });
      assert.deepEqual(result, localResult);
      assert.equal(await readFile(target, 'utf8'), await readFile(localTarget, 'utf8'));
      assert.equal(progress.at(-1), local.length, 'the last progress says every row is written');
      const copied = await table.copy(2, 40, [0, 1, 3], { format: 'tsv', header: true });
      assert.equal(copied, await copySelection(local, 2, 40, [0, 1, 3], { format: 'tsv', header: true }));
      const text = await table.columnText(2);
      assert.deepEqual(text, (await local.window(0, local.length, [2])).cells.map((r) => r[0]));
    } finally {
      await local.source.close();
      await table.close();
    }
  });

  it('tells the host how indexing goes, and resolves indexed when every row is known', async () => {
    const table = await RemoteTable.open(big, { workerFile });
    const changes: SourceChange[] = [];
    table.onDidChange((c) => changes.push(c));
    try {
      await table.indexed;
      // The last change can follow `indexed` by a message; wait for it.
      for (let i = 0; i < 50 && !changes.some((c) => c.type === 'complete') && !table.complete; i++) await new Promise((r) => setTimeout(r, 10));
      assert.equal(table.complete, true);
      assert.equal(table.rowCount, BIG_ROWS);
      assert.equal(table.view.length, BIG_ROWS);
    } finally {
      await table.close();
    }
  });
});

describe('table worker: cancellation and close', () => {
  it('a cancelled sort rejects at once with a CancelledError and leaves the view as it was', async () => {
    const table = await openRemote(big);
    try {
      const before = table.view.version;
      const c = new AbortController();
      const applying = table.apply({ sort: [{ column: 5 }] }, { signal: c.signal });
      c.abort();
      await assert.rejects(applying, (e: unknown) => e instanceof CancelledError);
      // The next answer comes after the worker handled the cancel: the rows are still in file order.
      const w = await table.window(0, 3, [0]);
      assert.equal(w.version, before);
      assert.deepEqual(w.rowIds, [0, 1, 2]);
      // And the table still works.
      const state = await table.apply({ sort: [{ column: 5 }] });
      assert.equal(state.version, before + 1);
    } finally {
      await table.close();
    }
  });

  it('a newer apply cancels one still running in the worker', async () => {
    const table = await openRemote(big);
    try {
      const first = table.apply({ sort: [{ column: 7 }] });
      const second = table.apply({ filters: [{ kind: 'range', column: 8, max: 0 }] });
      await assert.rejects(first, (e: unknown) => e instanceof CancelledError);
      const state = await second;
      assert.deepEqual(state.query, { filters: [{ kind: 'range', column: 8, max: 0 }] });
      assert.ok(state.length > 0 && state.length < BIG_ROWS);
    } finally {
      await table.close();
    }
  });

  it('a cancelled export leaves no file under the chosen name', async () => {
    const table = await openRemote(big);
    try {
      const target = join(dir, 'cancelled.csv');
      const c = new AbortController();
      const exporting = table.export(target, { signal: c.signal, onProgress: () => c.abort() });
      await assert.rejects(exporting, (e: unknown) => e instanceof CancelledError);
      // The worker removes its temp file after the cancel: give it a moment.
      for (let i = 0; i < 100 && (await readdir(dir)).some((f) => f.includes('cancelled')); i++) await new Promise((r) => setTimeout(r, 20));
      assert.deepEqual((await readdir(dir)).filter((f) => f.includes('cancelled')), []);
    } finally {
      await table.close();
    }
  });

  it('an open cancelled while the worker starts rejects at once with a CancelledError', async () => {
    const c = new AbortController();
    const opening = RemoteTable.open(big, { workerFile, signal: c.signal });
    c.abort();
    await assert.rejects(opening, (e: unknown) => e instanceof CancelledError);
  });

  it('a sort reports the worker pass progress to the host', async () => {
    const table = await openRemote(big);
    try {
      const seen: string[] = [];
      await table.apply({ sort: [{ column: 9 }] }, { onProgress: (p) => seen.push(p.task) });
      assert.ok(seen.includes('columns'), `progress seen: ${seen.join(', ')}`);
    } finally {
      await table.close();
    }
  });

  it('an open cancelled before it starts never starts a worker; close ends the worker and fails later calls', async () => {
    const c = new AbortController();
    c.abort();
    await assert.rejects(RemoteTable.open(small, { workerFile, signal: c.signal }), (e: unknown) => e instanceof CancelledError);
    const table = await RemoteTable.open(big, { workerFile });
    const indexed = table.indexed.then(() => 'done', (e: unknown) => (e instanceof CancelledError ? 'cancelled' : 'other'));
    await table.close();
    await table.close(); // twice is fine
    assert.ok(['done', 'cancelled'].includes(await indexed), 'indexing either finished or stopped with the close');
    await assert.rejects(table.window(0, 1, [0]), (e: unknown) => e instanceof TableWorkerError && e.code === 'TABLE_CLOSED');
  });
});

describe('table worker: analysis (profile, histogram, scatter)', () => {
  it('answers over the current view as the statistics in this thread do, typed arrays arriving as typed arrays', async () => {
    const query: ViewQuery = { filters: [{ kind: 'range', column: 1, min: -100, max: 1e9 }], sort: [{ column: 2, descending: true }] };
    const table = await openRemote(big);
    const local = await inProcess(big, query);
    try {
      await table.apply(query);
      assert.ok(local.length > 0 && local.length < BIG_ROWS, 'the filter hides rows');
      const rows = local.rowIds();
      const [c3, c4] = await local.source.typedColumns([{ column: 3 }, { column: 4 }]);
      if (!c3 || !c4) throw new Error('no typed columns');

      const profile = await table.profile(3);
      assert.ok(profile.ms >= 0);
      assert.deepEqual({ ...profile, ms: 0 }, profileColumn(c3, rows, 'c3'));
      assert.equal(profile.count, local.length);
      assert.equal(profile.type, 'number');

      const histogram = await table.histogram(4, 12, true);
      assert.deepEqual(histogram, columnHistogram(c4, rows, 'c4', 12, true));
      assert.equal(histogram.counted + histogram.left, local.length);

      const scatter = await table.scatter(3, 4);
      const here = scatterPoints(c3, c4, rows, 'c3', 'c4');
      assert.ok(scatter.xs instanceof Float32Array && scatter.ys instanceof Float32Array && scatter.rowIndex instanceof Uint32Array);
      assert.deepEqual(scatter.xs, here.xs);
      assert.deepEqual(scatter.ys, here.ys);
      assert.deepEqual(scatter.rowIndex, here.rowIndex);
      assert.equal(scatter.xs.length + scatter.left, local.length);
    } finally {
      await local.source.close();
      await table.close();
    }
  });

  it('says why a chart cannot be drawn, refuses an unknown column, and cancels', async () => {
    const file = await writeTemp(dir, 'name,pnl\nA,\nB,n/a\nC,5\n');
    const table = await openRemote(file);
    try {
      await table.apply({ filters: [{ kind: 'contains', column: 0, text: 'a' }, { kind: 'nonEmpty', column: 0 }] });
      await assert.rejects(table.histogram(1), (e: unknown) => {
        assert.ok(e instanceof TableWorkerError, String(e));
        assert.equal(e.message, 'pnl has no numbers in this 1 row.');
        return true;
      });
      await assert.rejects(table.profile(9), RangeError);
      await assert.rejects(table.scatter(0, 9), RangeError);
      const profile = await table.profile(1);
      assert.equal(profile.count, 1);
      assert.equal(profile.empty, 1);
      assert.equal(profile.type, 'empty');
    } finally {
      await table.close();
    }
    const bigTable = await openRemote(big);
    try {
      const c = new AbortController();
      const profiling = bigTable.profile(7, { signal: c.signal });
      c.abort();
      await assert.rejects(profiling, (e: unknown) => e instanceof CancelledError);
      assert.equal((await bigTable.profile(7)).count, BIG_ROWS, 'the table still answers');
    } finally {
      await bigTable.close();
    }
  });
});

describe('table worker: its heap', () => {
  it('lets its young generation grow to 16 MB semi-spaces while it makes short-lived strings (issue 34: a 2 MB cap made windows on long cells 5× slower)', async () => {
    // The same garbage as a table session makes (short strings, some surviving a while), in a
    // worker started as table workers are and in one without limits; each reports its new space.
    const code = `
      const { parentPort } = require('node:worker_threads');
      const v8 = require('node:v8');
      let keep = [];
      for (let i = 0; i < 3e6; i++) { keep.push('row ' + i + ',' + (i * 7)); if (keep.length > 20000) keep = []; }
      const space = v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space');
      parentPort.postMessage(space.space_size);`;
    const newSpace = (options: WorkerOptions): Promise<number> =>
      new Promise((resolve, reject) => {
        const w = new Worker(code, { ...options, eval: true });
        w.once('message', (size: number) => void w.terminate().then(() => resolve(size)));
        w.once('error', reject);
      });
    const limited = await newSpace(tableWorkerOptions());
    const free = await newSpace({});
    assert.equal(TABLE_WORKER_YOUNG_GENERATION_MB, 48);
    assert.ok(limited <= 32 << 20, `a table worker's new space is ${limited} bytes, within its two 16 MB semi-spaces`);
    assert.ok(limited > 4 << 20, `a table worker's new space grew to ${limited} bytes, past the old 2 MB semi-spaces that made windows on long cells 5× slower (issue 34)`);
    assert.ok(free > 0);
  });
});

describe('table worker: a spare started before it is needed (issue 34)', () => {
  it('the next open takes the spare worker: the table answers from another thread, the same as a fresh worker', async () => {
    await prestartTableWorker(workerFile);
    const spared = await RemoteTable.open(small, { workerFile });
    const fresh = await RemoteTable.open(small, { workerFile });
    try {
      assert.notEqual(spared.threadId, threadId);
      assert.notEqual(spared.threadId, fresh.threadId, 'one worker a table');
      assert.deepEqual(spared.columns, fresh.columns);
      assert.deepEqual((await spared.window(0, 3, [0, 1])).cells, (await fresh.window(0, 3, [0, 1])).cells);
    } finally {
      await Promise.all([spared.close(), fresh.close()]);
    }
  });

  it('a spare that died is dropped: the next open starts its own worker', async () => {
    const broken = await writeTemp(dir, "throw new Error('boom');\n", '.js');
    await prestartTableWorker(broken);
    await prestartTableWorker(workerFile); // replaces it
    const table = await RemoteTable.open(small, { workerFile });
    try {
      assert.notEqual(table.threadId, threadId);
    } finally {
      await table.close();
    }
  });

  it('a table worker says when its sort is warm, to the thread that started it (prestartTableWorker waits for it; issue 34), and a table on the spare sorts', async () => {
    const worker = new Worker(workerFile, tableWorkerOptions());
    try {
      const first = await new Promise<unknown>((resolve, reject) => {
        worker.once('message', resolve);
        worker.once('error', reject);
      });
      assert.deepEqual(first, { type: 'warm' });
    } finally {
      await worker.terminate();
    }
    await prestartTableWorker(workerFile);
    const table = await RemoteTable.open(small, { workerFile });
    try {
      await table.apply({ sort: [{ column: 0, descending: true }] });
      assert.equal(table.rowCount, 300);
    } finally {
      await table.close();
    }
  });
});

describe('table worker: errors cross the thread boundary typed', () => {
  it('a missing file: TableWorkerError with the fs code', async () => {
    await assert.rejects(RemoteTable.open(join(dir, 'nope.csv'), { workerFile }), (e: unknown) => {
      assert.ok(e instanceof TableWorkerError, String(e));
      assert.equal(e.code, 'ENOENT');
      assert.equal(e.remoteName, 'Error');
      return true;
    });
  });

  it('a copy over COPY_MAX_CELLS and an unknown column: RangeError', async () => {
    const table = await openRemote(big);
    try {
      assert.ok(BIG_ROWS * BIG_COLUMNS > COPY_MAX_CELLS);
      const all = Array.from({ length: BIG_COLUMNS }, (_, i) => i);
      await assert.rejects(table.copy(0, BIG_ROWS, all, { format: 'csv' }), RangeError);
      await assert.rejects(table.columnText(BIG_COLUMNS + 3), RangeError);
    } finally {
      await table.close();
    }
  });

  it('a worker that dies: TableWorkerError, not a hang', async () => {
    const broken = await writeTemp(dir, "throw new Error('boom');\n", '.js');
    await assert.rejects(RemoteTable.open(small, { workerFile: broken }), (e: unknown) => {
      assert.ok(e instanceof TableWorkerError, String(e));
      assert.match(e.message, /boom/u);
      return true;
    });
  });
});

describe('table worker: protocol validation', () => {
  it('accepts well-formed requests and refuses the rest', () => {
    assert.ok(parseWorkerRequest({ type: 'open', id: 1, file: '/x.csv' }));
    assert.ok(parseWorkerRequest({ type: 'apply', id: 2, query: { sort: [{ column: 1, descending: true }] } }));
    assert.ok(parseWorkerRequest({ type: 'export', id: 3, target: '/t.csv', options: { neutraliseFormulas: true, header: true, lineEnding: '\r\n' } }));
    assert.ok(parseWorkerRequest({ type: 'profile', id: 4, column: 2 }));
    assert.ok(parseWorkerRequest({ type: 'histogram', id: 5, column: 2, bins: 30, log: true }));
    assert.ok(parseWorkerRequest({ type: 'scatter', id: 6, x: 2, y: 3 }));
    assert.ok(parseWorkerRequest({ type: 'window', id: 7, first: 0, last: 60, columns: [0], cellChars: 400 }));
    assert.ok(parseWorkerRequest({ type: 'changes', id: 8 }));
    assert.ok(parseWorkerRequest({ type: 'changes', id: 9, threshold: { column: 'pnl', percent: 20 } }));
    for (const bad of [
      { type: 'changes', id: 1, threshold: { column: '', percent: 20 } },
      { type: 'changes', id: 1, threshold: { column: 'pnl', percent: 0 } },
      { type: 'changes', id: 1, threshold: 'pnl' },
      null,
      { type: 'open', file: '/x.csv' },
      { type: 'open', id: 1, file: '' },
      { type: 'window', id: 1, first: -1, last: 2, columns: [0] },
      { type: 'window', id: 1, first: 0, last: 2, columns: [0], cellChars: 0 },
      { type: 'window', id: 1, first: 0, last: 2, columns: [0], cellChars: '9' },
      { type: 'apply', id: 1, query: { sort: [{ column: 'a' }] } },
      { type: 'apply', id: 1, query: { filters: [{ kind: 'regex', column: 0 }] } },
      { type: 'export', id: 1, target: '/t.csv', options: { neutraliseFormulas: true, header: true, lineEnding: '\r' } },
      { type: 'copy', id: 1, first: 0, last: 2, columns: [0], format: 'xls', header: true, neutraliseFormulas: true },
      { type: 'profile', id: 1, column: -1 },
      { type: 'histogram', id: 1, column: 0, bins: 0, log: false },
      { type: 'histogram', id: 1, column: 0, bins: 201, log: false },
      { type: 'histogram', id: 1, column: 0, bins: 30 },
      { type: 'scatter', id: 1, x: 0 },
      { type: 'drop', id: 1 },
    ]) {
      assert.equal(parseWorkerRequest(bad), undefined, JSON.stringify(bad));
    }
  });

  it('accepts well-formed worker messages and refuses the rest', () => {
    const view = { version: 1, length: 2, total: 2, complete: true, countLabel: '2 rows', query: {} };
    assert.ok(parseWorkerMessage({ type: 'reply', id: 1, op: 'apply', value: view }));
    assert.ok(parseWorkerMessage({ type: 'changed', change: { type: 'complete', rowCount: 2 }, view, notices: [] }));
    assert.ok(parseWorkerMessage({ type: 'failed', id: 1, error: { name: 'Error', message: 'x', code: 'ENOENT' } }));
    const histogram = { column: 1, edges: [0, 1, 2], counts: [3, 4], log: false, counted: 7, left: 0 };
    const profile = { column: 1, name: 'pnl', type: 'number', count: 7, empty: 0, distinct: 2, min: 0, max: 2, mean: 1, median: 1, p5: 0, p95: 2, top: [{ value: '1', count: 4 }], histogram, ms: 3 };
    const scatter = { x: 1, y: 2, xs: Float32Array.of(1, 2), ys: Float32Array.of(3, 4), rowIndex: Uint32Array.of(0, 5), left: 1, ms: 2 };
    assert.ok(parseWorkerMessage({ type: 'reply', id: 1, op: 'profile', value: profile }));
    assert.ok(parseWorkerMessage({ type: 'reply', id: 1, op: 'histogram', value: histogram }));
    assert.ok(parseWorkerMessage({ type: 'reply', id: 1, op: 'scatter', value: scatter }));
    assert.ok(parseWorkerMessage({ type: 'reply', id: 1, op: 'changes', value: { added: 1, gone: 2, changed: 0, both: 3, missingColumn: 'pnl' } }));
    for (const bad of [
      { type: 'reply', id: 1, op: 'changes', value: { added: 1, gone: 2, changed: 0 } },
      { type: 'reply', id: 1, op: 'changes', value: { added: 1, gone: 2, changed: 0, both: 3, cells: 4, missingColumn: 7 } },
      { type: 'reply', id: 1, op: 'profile', value: { ...profile, type: 'date' } },
      { type: 'reply', id: 1, op: 'profile', value: { ...profile, top: [{ value: 1, count: 4 }] } },
      { type: 'reply', id: 1, op: 'histogram', value: { ...histogram, edges: [0, 1] } },
      { type: 'reply', id: 1, op: 'scatter', value: { ...scatter, xs: [1, 2] } },
      { type: 'reply', id: 1, op: 'scatter', value: { ...scatter, rowIndex: Uint32Array.of(0) } },
      { type: 'reply', id: 1, op: 'apply', value: { ...view, countLabel: 3 } },
      { type: 'reply', id: 1, op: 'copy', value: 3 },
      { type: 'reply', id: 1, op: 'window', value: { version: 0, start: 0, rowIds: [0], columns: [0], cells: [[1]] } },
      { type: 'failed', id: 1, error: 'boom' },
      { type: 'changed', change: { type: 'progress', rowCount: 1 }, view, notices: [] },
      { type: 'mystery' },
    ]) {
      assert.equal(parseWorkerMessage(bad), undefined, JSON.stringify(bad));
    }
  });
});
