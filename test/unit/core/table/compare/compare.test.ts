/**
 * Two results compared by address (src/core/compare): which rows are in A, B or both, the Δ
 * columns (B − A) for the numeric columns both share by name, the A and B values, counts, and
 * sort / filter / search through TableView like any table; the saved comparison file opens
 * through openTable.
 */
import assert from 'node:assert/strict';
import { statSync } from 'node:fs';
import { readdir, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { compareFileText, comparePath, readCompareFile, saveComparison } from '../../../../../src/core/table/compare/compareFile';
import { compareSources, STATUS, type CompareSource } from '../../../../../src/core/table/compare/compareSource';
import { deltaText, pairRows } from '../../../../../src/core/table/compare/pairRows';
import { pickAddressColumn } from '../../../../../src/core/table/columnKind';
import { endpointFromName } from '../../../../../src/core/results/names';
import { jsonRowsSource, openCsvFile, openTable, RemoteTable, TableView, type TableSource } from '../../../../../src/core/table';
import { tempDir, writeTemp } from '../../../tableFixtures';

let dir = '';
let cleanup: () => Promise<void> = () => Promise.resolve();
before(async () => ({ dir, cleanup } = await tempDir()));
after(() => cleanup());

// Base58 addresses of 44 characters; W1 and w1 differ only in case (two wallets on the main chain).
const W1 = 'W1' + '1'.repeat(42);
const w1 = 'w1' + '1'.repeat(42);
const W2 = 'W2' + '2'.repeat(42);
const W3 = 'W3' + '3'.repeat(42);
const W4 = 'W4' + '4'.repeat(42);

async function csv(text: string): Promise<TableSource> {
  const s = await openCsvFile(await writeTemp(dir, text));
  await s.indexed;
  return s;
}

/** Every cell of the table, by column name, in view order. */
async function table(view: TableView, names: readonly string[]): Promise<Record<string, string>[]> {
  const cols = names.map((n) => view.source.columns.indexOf(n));
  assert.ok(cols.every((c) => c >= 0), `columns ${names.join(', ')} in ${view.source.columns.join(', ')}`);
  const w = await view.window(0, view.length, cols);
  return w.cells.map((row) => Object.fromEntries(names.map((n, i) => [n, row[i] ?? ''])));
}

async function sample(): Promise<CompareSource> {
  const a = await csv(`wallet,label,pnl,trades\n${W1},one,10.5,3\n${W2},two,-2,7\n${W3},three,5,\n${w1},lower,1,1\n`);
  const b = await csv(`trades,address,pnl,extra\n4,${W2},1.25,x\n9,${W4},3,y\n3,${W1},10.5,z\n`);
  return compareSources(a, b, { ownsSources: true, labels: { a: 'a.csv', b: 'b.csv' } });
}

describe('compare: rows and columns', () => {
  it('marks each row only in A, only in B or in both, with counts (case matters on the main chain)', async () => {
    const cmp = await sample();
    const view = new TableView(cmp);
    assert.deepEqual(await table(view, ['status', 'address']), [
      { status: STATUS.both, address: W1 },
      { status: STATUS.both, address: W2 },
      { status: STATUS.onlyA, address: W3 },
      { status: STATUS.onlyA, address: w1 },
      { status: STATUS.onlyB, address: W4 },
    ]);
    assert.deepEqual(cmp.counts, { onlyA: 2, onlyB: 1, both: 2 });
    assert.equal(cmp.rowCount, 5);
    const notice = cmp.notices[0];
    assert.equal(notice?.code, 'compared');
    assert.match(notice?.message ?? '', /2 in both, 2 only in A, 1 only in B/u);
    await cmp.close();
  });

  it('has a Δ column for each numeric column both share by name, then A and B values', async () => {
    const cmp = await sample();
    // `label` is text; `extra` is only in B; `wallet`/`address` are the keys; `trades` is in another place in B.
    assert.deepEqual(cmp.columns, ['status', 'address', 'Δ pnl', 'Δ trades', 'label (A)', 'pnl (A)', 'pnl (B)', 'trades (A)', 'trades (B)', 'extra (B)']);
    assert.equal(cmp.deltaColumns, 2);
    const rows = await table(new TableView(cmp), ['address', 'Δ pnl', 'Δ trades', 'pnl (A)', 'pnl (B)', 'extra (B)', 'label (A)']);
    assert.deepEqual(rows, [
      { address: W1, 'Δ pnl': '0.0', 'Δ trades': '0', 'pnl (A)': '10.5', 'pnl (B)': '10.5', 'extra (B)': 'z', 'label (A)': 'one' },
      { address: W2, 'Δ pnl': '3.25', 'Δ trades': '-3', 'pnl (A)': '-2', 'pnl (B)': '1.25', 'extra (B)': 'x', 'label (A)': 'two' },
      { address: W3, 'Δ pnl': '', 'Δ trades': '', 'pnl (A)': '5', 'pnl (B)': '', 'extra (B)': '', 'label (A)': 'three' },
      { address: w1, 'Δ pnl': '', 'Δ trades': '', 'pnl (A)': '1', 'pnl (B)': '', 'extra (B)': '', 'label (A)': 'lower' },
      { address: W4, 'Δ pnl': '', 'Δ trades': '', 'pnl (A)': '', 'pnl (B)': '3', 'extra (B)': 'y', 'label (A)': '' },
    ]);
    await cmp.close();
  });

  it('sorts and filters through TableView: Δ by value, status as text, empty Δ last', async () => {
    const cmp = await sample();
    const view = new TableView(cmp);
    const delta = cmp.columns.indexOf('Δ pnl');
    await view.apply({ sort: [{ column: delta, descending: true }] });
    assert.deepEqual((await table(view, ['address'])).map((r) => r.address), [W2, W1, W3, w1, W4]);
    await view.apply({ filters: [{ kind: 'range', column: delta, min: 1 }] });
    assert.deepEqual((await table(view, ['address', 'Δ pnl'])), [{ address: W2, 'Δ pnl': '3.25' }]);
    await view.apply({ filters: [{ kind: 'contains', column: 0, text: 'only in b' }] });
    assert.deepEqual((await table(view, ['address'])).map((r) => r.address), [W4]);
    assert.equal(view.countLabel(), '1 of 5 rows');
    await view.apply({ filters: [{ kind: 'contains', column: delta, text: '3.2' }] });
    assert.deepEqual((await table(view, ['address'])).map((r) => r.address), [W2]);
    await view.apply({ filters: [{ kind: 'empty', column: cmp.columns.indexOf('pnl (B)') }] });
    assert.deepEqual((await table(view, ['address'])).map((r) => r.address), [W3, w1]);
    await view.apply({ sort: [{ column: 1 }] });
    assert.equal(view.length, 5);
    await view.apply({ search: 'lower' });
    assert.deepEqual((await table(view, ['address'])).map((r) => r.address), [w1]);
    await cmp.close();
  });

  it('pairs the k-th row of a repeated address in A with its k-th row in B', () => {
    const { rowA, rowB, counts } = pairRows([W1, W1, W1, '', W2], [W1, '', W1], 'main');
    assert.deepEqual([...rowA], [0, 1, 2, 3, 4, -1]);
    assert.deepEqual([...rowB], [0, 2, -1, -1, -1, 1]);
    assert.deepEqual(counts, { onlyA: 3, onlyB: 1, both: 2 });
  });

  it('compares second-chain addresses ignoring case', () => {
    const x = '0x' + 'ab'.repeat(20);
    const { counts } = pairRows([x.toUpperCase().replace('0X', '0x')], [x], 'alt');
    assert.deepEqual(counts, { onlyA: 0, onlyB: 0, both: 1 });
  });

  it('refuses a result without an address column, and two chains', async () => {
    const a = jsonRowsSource([{ name: 'x', v: 1 }]);
    const b = jsonRowsSource([{ address: W1, v: 2 }]);
    await assert.rejects(compareSources(a, b, { labels: { a: 'a.json', b: 'b.json' } }), /a\.json has no address column/u);
    const alt = jsonRowsSource([{ address: '0x' + '1'.repeat(40) }]);
    await assert.rejects(compareSources(b, alt), /cannot be compared/u);
  });

  it('gives Δ with the precision of its cells', () => {
    assert.equal(deltaText('0.1', '0.3'), '0.2');
    assert.equal(deltaText('1.50000000', '2.25'), '0.75000000');
    assert.equal(deltaText('5', '3'), '-2');
    assert.equal(deltaText('0.30', '0.30'), '0.00');
    assert.equal(deltaText('1e3', '2000'), '1000');
    assert.equal(deltaText('', '1'), '');
    assert.equal(deltaText('n/a', '1'), '');
  });

  it('picks the wallet column among several address columns', () => {
    const mint = 'M'.repeat(44);
    assert.equal(pickAddressColumn(['token', 'trader', 'v'], [[mint, W1, '1']])?.name, 'trader');
    assert.equal(pickAddressColumn(['address'], [])?.name, 'address');
    assert.equal(pickAddressColumn(['name'], [['bob']]), undefined);
  });
});

describe('compare: a saved comparison opens as a table', () => {
  it('opens a .compare.json through openTable, a .txt list on one side', async () => {
    const a = await writeTemp(dir, `address,pnl\n${W1},1\n${W2},2\n`);
    const b = await writeTemp(dir, `${W2}\n${W3}\n`, '.txt');
    const file = comparePath(dir, a, b);
    assert.match(file, / vs .*\.compare\.json$/u);
    // Named after two results of an endpoint, a comparison must not pass for one (its layout is its own).
    const named = comparePath(dir, '/r/pnl-20261121-101500-req_1.csv', '/r/pnl-20261122-101500-req_2.csv');
    assert.equal(endpointFromName(named), undefined, named);
    await writeFile(file, compareFileText({ a, b }));
    assert.deepEqual(await readCompareFile(file), { a, b });
    const source = await openTable(file);
    const view = new TableView(source);
    assert.deepEqual(await table(view, ['status', 'address', 'pnl (A)']), [
      { status: STATUS.onlyA, address: W1, 'pnl (A)': '1' },
      { status: STATUS.both, address: W2, 'pnl (A)': '2' },
      { status: STATUS.onlyB, address: W3, 'pnl (A)': '' },
    ]);
    await source.close();
  });

  it('saves a comparison in compares/ of the results folder (saveComparison), the same two results again over their own file', async () => {
    const a = await writeTemp(dir, `address,pnl\n${W1},1\n`);
    const b = await writeTemp(dir, `address,pnl\n${W2},2\n`);
    const file = await saveComparison(dir, a, b);
    assert.equal(file, join(dir, 'compares', basename(comparePath(dir, a, b))));
    assert.deepEqual(await readCompareFile(file), { a, b });
    assert.equal(await saveComparison(dir, a, b), file);
    assert.deepEqual(await readdir(join(dir, 'compares')), [basename(file)]);
  });

  it('opens in the table worker as the table session opens it (RemoteTable), sorted there', async () => {
    let root = __dirname;
    while (!statSync(join(root, 'package.json'), { throwIfNoEntry: false })?.isFile()) root = dirname(root);
    const a = await writeTemp(dir, `address,pnl\n${W1},1\n${W2},2\n`);
    const b = await writeTemp(dir, `address,pnl\n${W2},7\n${W1},0.5\n${W3},1\n`);
    const file = join(dir, 'worker.compare.json');
    await writeFile(file, compareFileText({ a, b }));
    const table = await RemoteTable.open(file, { workerFile: join(root, 'dist', 'tableWorker.js') });
    try {
      assert.deepEqual(table.columns, ['status', 'address', 'Δ pnl', 'pnl (A)', 'pnl (B)']);
      assert.match(table.notices[0]?.message ?? '', /2 in both, 0 only in A, 1 only in B/u);
      await table.apply({ sort: [{ column: 2, descending: true }] });
      const w = await table.window(0, 3, [1, 2]);
      assert.deepEqual(w.cells, [[W2, '5'], [W1, '-0.5'], [W3, '']]);
    } finally {
      await table.close();
    }
  });

  it('says what is wrong with a file that is not a comparison, or a side that is missing', async () => {
    const bad = join(dir, 'bad.compare.json');
    await writeFile(bad, '{"a": 1}');
    await assert.rejects(openTable(bad), /not a comparison file/u);
    const missing = join(dir, 'missing.compare.json');
    await writeFile(missing, compareFileText({ a: join(dir, 'nope.csv'), b: join(dir, 'nope2.csv') }));
    await assert.rejects(openTable(missing), /nope\.csv could not be opened/u);
  });
});
