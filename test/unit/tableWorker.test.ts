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
import { threadId } from 'node:worker_threads';
import {
  COPY_MAX_CELLS,
  copySelection,
  exportView,
  openCsvFile,
  RemoteTable,
  TableView,
  TableWorkerError,
  type SourceChange,
  type ViewQuery,
} from '../../src/core/table';
import { parseWorkerMessage, parseWorkerRequest } from '../../src/core/table/workerProtocol';
import { papaRows, randomCell, rng, tempDir, toCsv, writeTemp } from './tableFixtures';

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
  it('a cancelled sort rejects at once with an AbortError and leaves the view as it was', async () => {
    const table = await openRemote(big);
    try {
      const before = table.view.version;
      const c = new AbortController();
      const applying = table.apply({ sort: [{ column: 5 }] }, { signal: c.signal });
      c.abort();
      await assert.rejects(applying, { name: 'AbortError' });
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
      await assert.rejects(first, { name: 'AbortError' });
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
      await assert.rejects(exporting, { name: 'AbortError' });
      // The worker removes its temp file after the cancel: give it a moment.
      for (let i = 0; i < 100 && (await readdir(dir)).some((f) => f.includes('cancelled')); i++) await new Promise((r) => setTimeout(r, 20));
      assert.deepEqual((await readdir(dir)).filter((f) => f.includes('cancelled')), []);
    } finally {
      await table.close();
    }
  });

  it('an open cancelled while the worker starts rejects at once with an AbortError', async () => {
    const c = new AbortController();
    const opening = RemoteTable.open(big, { workerFile, signal: c.signal });
    c.abort();
    await assert.rejects(opening, { name: 'AbortError' });
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
    await assert.rejects(RemoteTable.open(small, { workerFile, signal: c.signal }), { name: 'AbortError' });
    const table = await RemoteTable.open(big, { workerFile });
    const indexed = table.indexed.then(() => 'done', (e: unknown) => (e instanceof Error ? e.name : 'thrown'));
    await table.close();
    await table.close(); // twice is fine
    assert.ok(['done', 'AbortError'].includes(await indexed), 'indexing either finished or stopped with the close');
    await assert.rejects(table.window(0, 1, [0]), (e: unknown) => e instanceof TableWorkerError && e.code === 'TABLE_CLOSED');
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
    for (const bad of [
      null,
      { type: 'open', file: '/x.csv' },
      { type: 'open', id: 1, file: '' },
      { type: 'window', id: 1, first: -1, last: 2, columns: [0] },
      { type: 'apply', id: 1, query: { sort: [{ column: 'a' }] } },
      { type: 'apply', id: 1, query: { filters: [{ kind: 'regex', column: 0 }] } },
      { type: 'export', id: 1, target: '/t.csv', options: { neutraliseFormulas: true, header: true, lineEnding: '\r' } },
      { type: 'copy', id: 1, first: 0, last: 2, columns: [0], format: 'xls', header: true, neutraliseFormulas: true },
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
    for (const bad of [
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
