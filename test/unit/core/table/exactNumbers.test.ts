/**
 * Numbers exactly as the file has them (issue 22): digits past a double's 15 (token amounts in
 * base units pass 2^53) order, filter, count and show by their decimal text; a decimal out of a
 * number's range stays text and is counted apart. Through both ways a column is typed: a CSV's
 * bytes (scanNumber) and cell texts (JSON rows).
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { jsonRowsSource, openCsvFile, TableView, type TableSource } from '../../../../src/core/table';
import { profileColumn } from '../../../../src/core/table/analysis';
import { TypedColumnBuilder } from '../../../../src/core/table/typedColumn';
import { typedFilters } from '../../../../src/webview-ui/chartTables';
import { tempDir, writeTemp } from '../../tableFixtures';

let dir = '';
let cleanup: () => Promise<void> = () => Promise.resolve();
before(async () => ({ dir, cleanup } = await tempDir()));
after(() => cleanup());

/** The same one-column table as a CSV file and as JSON rows. */
async function sources(values: readonly string[]): Promise<[string, TableSource][]> {
  const file = await openCsvFile(await writeTemp(dir, `v\n${values.join('\n')}\n`));
  await file.indexed;
  return [
    ['csv', file],
    ['json', jsonRowsSource(values.map((v) => ({ v })))],
  ];
}

async function column(view: TableView): Promise<string[]> {
  const w = await view.window(0, view.length, [0]);
  return w.cells.map((r) => r[0] ?? '');
}

const BIG = ['1000000000000000001', '999999999999999999', '1000000000000000000', '5', '999999999999999998.5', '1e18'];

describe('exact numbers: sorts', () => {
  it('orders decimals that share a double by their exact value, both ways', async () => {
    for (const [kind, source] of await sources(BIG)) {
      const view = new TableView(source);
      await view.apply({ sort: [{ column: 0 }] });
      assert.deepEqual(await column(view), ['5', '999999999999999998.5', '999999999999999999', '1000000000000000000', '1e18', '1000000000000000001'], kind);
      await view.apply({ sort: [{ column: 0, descending: true }] });
      // Equal values (1e18 and 1000000000000000000) keep file order in both directions.
      assert.deepEqual(await column(view), ['1000000000000000001', '1000000000000000000', '1e18', '999999999999999999', '999999999999999998.5', '5'], kind);
    }
  });

  it('orders them exactly in a column that also holds text', async () => {
    for (const [kind, source] of await sources([...BIG, 'abc'])) {
      const view = new TableView(source);
      await view.apply({ sort: [{ column: 0 }] });
      assert.deepEqual(await column(view), ['5', '999999999999999998.5', '999999999999999999', '1000000000000000000', '1e18', '1000000000000000001', 'abc'], kind);
    }
  });
});

describe('exact numbers: range filters', () => {
  it('a range at exactly one big value matches it (and its equal spellings) only', async () => {
    for (const [kind, source] of await sources(BIG)) {
      const view = new TableView(source);
      await view.apply({ filters: [{ kind: 'range', column: 0, min: 1e18, max: 1e18, minText: '1000000000000000000', maxText: '1000000000000000000' }] });
      assert.deepEqual(await column(view), ['1000000000000000000', '1e18'], kind);
      await view.apply({ filters: [{ kind: 'range', column: 0, min: 1e18, minText: '999999999999999999' }] });
      assert.deepEqual(await column(view), ['1000000000000000001', '999999999999999999', '1000000000000000000', '1e18'], kind);
    }
  });

  it('a bound typed with every digit keeps them on its way to the filter (the brush fields)', () => {
    const exact = { kind: 'range', column: 0, min: 1e18, max: 1e18, minText: '999999999999999999', maxText: '1000000000000000001' };
    assert.deepEqual(typedFilters([{ column: 0, min: ' 999999999999999999', max: '1000000000000000001' }]), [exact]);
    // A bound of 15 significant digits or fewer is its double exactly.
    assert.deepEqual(typedFilters([{ column: 0, min: '12.5', max: '1000000000000000000' }]), [{ kind: 'range', column: 0, min: 12.5, max: 1e18 }]);
  });

  it('a long bound is exact on a narrow column too', async () => {
    const view = new TableView(jsonRowsSource([{ v: '0.1' }, { v: '0.2' }]));
    await view.apply({ filters: [{ kind: 'range', column: 0, min: 0.1, minText: '0.1000000000000000001' }] });
    assert.deepEqual(await column(view), ['0.2']);
  });
});

describe('exact numbers: out of range', () => {
  it('a decimal past a number’s range is text, and the profile counts it (its mean stays a number)', async () => {
    for (const [kind, source] of await sources(['1', '2', '1e400', '-1e400', '1e-400', '3', '4', '5', '6'])) {
      const [col] = await source.typedColumns([{ column: 0 }]);
      assert.ok(col);
      assert.equal(col.numberCount, 6, kind);
      assert.equal(col.textCount, 3, kind);
      const p = profileColumn(col, Uint32Array.from({ length: 9 }, (_, i) => i), 'v');
      assert.equal(p.type, 'number', kind);
      assert.equal(p.mean, 3.5, kind);
      assert.equal(p.outOfRange, 3, kind);
      assert.equal(p.max, 6, kind);
    }
  });
});

describe('exact numbers: the profile', () => {
  it('lists top values with the file’s digits, and counts 12 distinct values as 12', async () => {
    const twelve = Array.from({ length: 12 }, (_, i) => String(12345678901234567890n + BigInt(i)));
    for (const [kind, source] of await sources(['123456789012345678901234', '123456789012345678901234', ...twelve])) {
      const [col] = await source.typedColumns([{ column: 0 }]);
      assert.ok(col);
      const p = profileColumn(col, Uint32Array.from({ length: 14 }, (_, i) => i), 'v');
      assert.equal(p.distinct, 13, kind);
      assert.deepEqual(p.top[0], { value: '123456789012345678901234', count: 2 }, kind);
      assert.deepEqual(p.top.slice(1).map((t) => t.value), twelve.slice(0, 9), kind);
      assert.equal(p.minText, '12345678901234567890', kind);
      assert.equal(p.maxText, '123456789012345678901234', kind);
    }
  });

  it('short numbers read as before: one value per double, min and max as JavaScript writes them', () => {
    const b = new TypedColumnBuilder(0, 4, false);
    ['1.50', '1.5', '-2', '0.0000001'].forEach((t, r) => b.cell(r, t));
    const p = profileColumn(b.finish(), Uint32Array.from([0, 1, 2, 3]), 'v');
    assert.equal(p.distinct, 3);
    assert.deepEqual(p.top[0], { value: '1.5', count: 2 });
    assert.equal(p.minText, '-2');
  });
});
