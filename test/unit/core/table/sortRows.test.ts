/**
 * The radix sort of row ids by the keys' bits (sortRows.ts) gives exactly the order of the
 * comparator it replaced: numbers by value, text in natural order, empty cells last in both
 * directions, ties in file order (by row id), several keys.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { orderKey, sortRows } from '../../../../src/core/table/sortRows';
import { sortWarmupSteps } from '../../../../src/core/table/sortWarmup';
import { TypedColumnBuilder } from '../../../../src/core/table/typedColumn';
import type { SortKey, TypedColumn } from '../../../../src/core/table/types';
import { rng } from '../../tableFixtures';

/** The comparator sort this file's radix sort replaced (Uint32Array.sort with a comparator over orderKey). */
function comparatorSort(rows: Uint32Array, keys: readonly SortKey[], columns: readonly TypedColumn[]): number[] {
  const ks = columns.map(orderKey);
  const dirs = keys.map((k) => (k.descending ? -1 : 1));
  return Array.from(rows).sort((a, b) => {
    for (let i = 0; i < ks.length; i++) {
      const k = ks[i] ?? new Float64Array(0);
      const x = k[a] ?? NaN;
      const y = k[b] ?? NaN;
      if (x === y) continue;
      const xEmpty = x !== x;
      const yEmpty = y !== y;
      if (xEmpty && yEmpty) continue;
      if (xEmpty) return 1;
      if (yEmpty) return -1;
      return x < y ? -(dirs[i] ?? 1) : (dirs[i] ?? 1);
    }
    return a - b;
  });
}

/** A typed column of `n` cells drawn from `cell`. */
function column(n: number, cell: (r: number) => string): TypedColumn {
  const b = new TypedColumnBuilder(0, n, false);
  for (let r = 0; r < n; r++) b.cell(r, cell(r));
  return b.finish();
}

describe('table: sort keys without a comparator', () => {
  it('orders values by their bits: -0 and 0 tie (file order), extremes in place, empty cells last both ways', () => {
    const cells = ['3', '', '-0', '0', '-2.5', '3', '1e300', '-1e300', '0.1', '-0', '', '5e-324', '-5e-324'];
    const col = column(cells.length, (r) => cells[r] ?? '');
    const rows = Uint32Array.from(cells.keys());
    const up = Array.from(sortRows(rows.slice(), [{ column: 0 }], [col]), (r) => `${cells[r]}@${r}`);
    assert.deepEqual(up, ['-1e300@7', '-2.5@4', '-5e-324@12', '-0@2', '0@3', '-0@9', '5e-324@11', '0.1@8', '3@0', '3@5', '1e300@6', '@1', '@10']);
    const down = Array.from(sortRows(rows.slice(), [{ column: 0, descending: true }], [col]), (r) => `${cells[r]}@${r}`);
    assert.deepEqual(down, ['1e300@6', '3@0', '3@5', '0.1@8', '5e-324@11', '-0@2', '0@3', '-0@9', '-5e-324@12', '-2.5@4', '-1e300@7', '@1', '@10']);
  });

  it('sorts in place with a spare buffer longer than the rows as scratch', () => {
    const cells = ['2', '', '1', '3', '1'];
    const col = column(cells.length, (r) => cells[r] ?? '');
    const rows = Uint32Array.from([4, 3, 2, 1, 0]);
    const spare = new Uint32Array(8).fill(7);
    assert.deepEqual(Array.from(sortRows(rows, [{ column: 0 }], [col], spare)), [2, 4, 0, 3, 1]);
    assert.deepEqual(Array.from(sortRows(rows, [{ column: 0, descending: true }], [col], spare)), [3, 0, 2, 4, 1]);
  });

  it('orders text naturally after numbers, empty cells last both ways, ties in file order', () => {
    const cells = ['w10', '', '3', 'W2', 'abc', '3', '', '-1', 'w2', '10'];
    const col = column(cells.length, (r) => cells[r] ?? '');
    const rows = Uint32Array.from(cells.keys());
    const up = Array.from(sortRows(rows.slice(), [{ column: 0 }], [col]), (r) => `${cells[r]}@${r}`);
    assert.deepEqual(up, ['-1@7', '3@2', '3@5', '10@9', 'abc@4', 'w2@8', 'W2@3', 'w10@0', '@1', '@6']);
    const down = Array.from(sortRows(rows.slice(), [{ column: 0, descending: true }], [col]), (r) => `${cells[r]}@${r}`);
    assert.deepEqual(down, ['w10@0', 'W2@3', 'w2@8', 'abc@4', '10@9', '3@2', '3@5', '-1@7', '@1', '@6']);
  });

  it('matches the comparator sort on random columns, subsets in any order, one to three keys', () => {
    const rand = rng(99);
    for (let round = 0; round < 40; round++) {
      // Big rounds have more than 65,536 distinct values, so the radix takes its second pass.
      const n = round % 10 === 0 ? 70_000 + Math.floor(rand() * 5000) : 1 + Math.floor(rand() * 300);
      const spread = [3, 50, 1e6][round % 3] ?? 3;
      const cols = Array.from({ length: 3 }, () =>
        column(n, () => {
          const x = rand();
          if (x < 0.1) return '';
          if (x < 0.2) return ['a', 'B', 'w2', 'w10', 'é'][Math.floor(rand() * 5)] ?? 'a';
          if (x < 0.25) return rand() < 0.5 ? '-0' : '0';
          return String(Math.floor((rand() - 0.5) * spread) / 4);
        }),
      );
      const keys: SortKey[] = Array.from({ length: 1 + (round % 3) }, (_, i) => ({ column: i, descending: rand() < 0.5 }));
      const picked = Array.from({ length: n }, (_, r) => r).filter(() => rand() < 0.7);
      for (let i = picked.length - 1; i > 0; i--) {
        const j = Math.floor(rand() * (i + 1));
        [picked[i], picked[j]] = [picked[j] ?? 0, picked[i] ?? 0];
      }
      const rows = Uint32Array.from(picked);
      const used = cols.slice(0, keys.length);
      const expected = comparatorSort(rows, keys, used);
      assert.deepEqual(Array.from(sortRows(rows, keys, used)), expected, `round ${round}, ${n} rows, keys ${JSON.stringify(keys)}`);
    }
  });

  it('matches the comparator sort on every digit of 32- and 40-bit narrow columns and of doubles, rows in any order', () => {
    const rand = rng(7);
    const kinds = [
      { name: '32-bit', cell: (): string => (Math.floor((rand() - 0.5) * 4e9) / 100).toFixed(2) },
      { name: '40-bit', cell: (): string => (Math.floor((rand() - 0.5) * 1e12) / 1e6).toFixed(6) },
      { name: 'doubles', cell: (): string => String((rand() - 0.5) * 10 ** Math.floor(rand() * 40 - 20)) },
    ];
    for (const { name, cell } of kinds) {
      const n = 20_000;
      const col = column(n, () => (rand() < 0.05 ? '' : rand() < 0.02 ? '0' : cell()));
      if (name === '32-bit') assert.ok(col.scaled && !col.scaled.high, name);
      if (name === '40-bit') assert.ok(col.scaled?.high, name);
      if (name === 'doubles') assert.ok(!col.scaled, name);
      const picked = Array.from({ length: n }, (_, r) => r).filter(() => rand() < 0.8);
      for (let i = picked.length - 1; i > 0; i--) {
        const j = Math.floor(rand() * (i + 1));
        [picked[i], picked[j]] = [picked[j] ?? 0, picked[i] ?? 0];
      }
      for (const descending of [false, true]) {
        const keys = [{ column: 0, descending }];
        for (const rows of [Uint32Array.from({ length: n }, (_, i) => i), Uint32Array.from(picked)]) {
          const expected = comparatorSort(rows, keys, [col]);
          assert.deepEqual(Array.from(sortRows(rows.slice(), keys, [col], new Uint32Array(n))), expected, `${name}, ${rows.length} rows, descending ${descending}`);
        }
      }
    }
  });

  it('the worker\'s warm-up sorts each of its columns right, and a sort after it is the comparator\'s order (issue 34: the first sort found its loops cold)', () => {
    const steps = sortWarmupSteps();
    assert.ok(steps.length >= 6, 'every kind of column, both directions');
    for (const step of steps) {
      const ids = step();
      assert.equal(new Set(ids).size, ids.length, 'a permutation of the rows');
    }
    const rand = rng(55);
    const b = new TypedColumnBuilder(0, 5000, false);
    for (let r = 0; r < 5000; r++) if (rand() < 0.9) b.decimal(r, Math.floor((rand() - 0.5) * 2e11), 6);
    else b.empty(r);
    const column = b.finish();
    assert.ok(column.scaled?.high, 'a 40-bit narrow column, as a token amount gives');
    for (const descending of [true, false]) {
      const keys = [{ column: 0, descending }];
      assert.deepEqual(Array.from(sortRows(Uint32Array.from({ length: 5000 }, (_, i) => i), keys, [column])), comparatorSort(Uint32Array.from({ length: 5000 }, (_, i) => i), keys, [column]));
    }
  });
});
