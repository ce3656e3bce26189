/**
 * Typed columns kept narrow (typedColumn.ts): a column of decimals that fit one scale is held as
 * 32-bit integers, and every value read from it, sorted or filtered by it, is the very double a
 * wide column holds; a cell that does not fit turns the column wide without changing a value.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { filterRows } from '../../../../src/core/table/filterRows';
import { NumberScan, parsedDecimal, parsedNumber, parseNumberText, scanNumber } from '../../../../src/core/table/numbers';
import { sortRows } from '../../../../src/core/table/sortRows';
import { scaledValue, TypedColumnBuilder } from '../../../../src/core/table/typedColumn';
import { CellKind, type ColumnFilter, type SortKey, type TypedColumn } from '../../../../src/core/table/types';
import { rng } from '../../tableFixtures';

function build(cells: readonly string[]): TypedColumn {
  const b = new TypedColumnBuilder(0, cells.length, false);
  cells.forEach((c, r) => b.cell(r, c));
  return b.finish();
}

/** Values and kinds as the cells' own parse gives them: what a wide column holds. */
function reference(cells: readonly string[]): { numbers: number[]; kinds: number[] } {
  const numbers = cells.map((c) => (c === '' ? NaN : parseNumberText(c)));
  const kinds = cells.map((c, r) => (c === '' ? CellKind.Empty : Number.isNaN(numbers[r]) ? CellKind.Text : CellKind.Number));
  return { numbers, kinds };
}

function assertSameValues(col: TypedColumn, cells: readonly string[], label: string): void {
  const ref = reference(cells);
  for (let r = 0; r < cells.length; r++) {
    assert.ok(Object.is(col.numbers[r], ref.numbers[r]), `${label}: row ${r} "${cells[r]}" reads ${col.numbers[r]}, not ${ref.numbers[r]}`);
    if (col.scaled) assert.ok(Object.is(scaledValue(col.scaled, r), ref.numbers[r]), `${label}: row ${r} scaled`);
  }
  assert.deepEqual(Array.from(col.kinds), ref.kinds, label);
}

/** A random decimal with up to `places` places and `digits` digits in all. */
function decimal(rand: () => number, places: number, digits: number): string {
  const p = Math.floor(rand() * (places + 1));
  const n = 1 + Math.floor(rand() * digits);
  let s = '';
  for (let i = 0; i < n; i++) s += String(Math.floor(rand() * 10));
  const whole = s.length > p ? s.slice(0, s.length - p) : '0';
  const frac = s.length > p ? s.slice(s.length - p) : s.padStart(p, '0');
  return `${rand() < 0.4 ? '-' : ''}${whole}${p > 0 ? `.${frac}` : ''}`;
}

describe('table: narrow typed columns', () => {
  it('keeps cents, scores and counts as 32-bit integers at one scale, values exact', () => {
    const cells = ['1540.80', '-47735.43', '', '0', '12', '-0.5', '9999999.99'];
    const col = build(cells);
    assert.equal(col.scaled?.scale, 2);
    assert.equal(col.scaled?.bits.BYTES_PER_ELEMENT, 4);
    assert.equal(col.scaled?.high, undefined);
    assertSameValues(col, cells, 'cents');
    // 11 digits (a token amount with 6 places) take 40 bits: a high byte a row.
    const amounts = ['-1.187955', '8893.276453', '', '-99999.999999', '0.000001'];
    const wide = build(amounts);
    assert.equal(wide.scaled?.scale, 6);
    assert.equal(wide.scaled?.high?.length, amounts.length);
    assertSameValues(wide, amounts, 'amounts');
    assert.equal(build(['0.2226', '0.1', '1']).scaled?.scale, 4);
    assert.equal(build(['1', '2', '']).scaled?.scale, 0);
  });

  it('turns wide for a cell that does not fit (too many digits, -0, an exponent, text), before or after 1,024 numbers', () => {
    for (const odd of ['549755813888', '-0', '1e300', '88932764530.123', '0.0000000001', 'abc', '1.5e-10']) {
      for (const at of [3, 5000]) {
        const cells = Array.from({ length: 6000 }, (_, r) => (r === at ? odd : r % 7 === 0 ? '' : String((r % 300) / 4)));
        const col = build(cells);
        assert.equal(col.scaled, undefined, `"${odd}" at row ${at}`);
        assertSameValues(col, cells, `"${odd}" at row ${at}`);
      }
    }
  });

  it('raises its scale, and goes from 32 to 40 bits, when later cells need it, the earlier values unchanged', () => {
    const cells = Array.from({ length: 3000 }, (_, r) => (r < 2000 ? String(r) : r < 2500 ? `${r}.5` : `-${r % 10}.125`));
    const col = build(cells);
    assert.equal(col.scaled?.scale, 3);
    assert.equal(col.scaled?.high, undefined);
    assertSameValues(col, cells, 'rescaled');
    for (const big of ['300000000', '2147483.6481', '-549755813.887']) {
      const more = [...cells, big, '', '-1.5'];
      const grown = build(more);
      assert.ok(grown.scaled?.high, big);
      assertSameValues(grown, more, `40 bits after ${big}`);
    }
  });

  it('matches a wide column on random decimals: values, sorts and range filters', () => {
    const rand = rng(2024);
    for (let round = 0; round < 60; round++) {
      const n = 1 + Math.floor(rand() * (round % 5 === 0 ? 5000 : 400));
      const places = Math.floor(rand() * 10);
      const digits = 1 + Math.floor(rand() * 12);
      const cells = Array.from({ length: n }, () => (rand() < 0.1 ? '' : decimal(rand, places, digits)));
      const col = build(cells);
      assertSameValues(col, cells, `round ${round}`);
      // The same column wide: a text cell first makes it so; then the text is emptied.
      const wide = build(['x', ...cells]);
      const widened: TypedColumn = { ...wide, numbers: wide.numbers.subarray(1), kinds: wide.kinds.subarray(1).map((k) => (k === CellKind.Text ? CellKind.Empty : k)), textCount: 0, texts: undefined };
      for (const descending of [false, true]) {
        const keys: SortKey[] = [{ column: 0, descending }];
        const ids = Uint32Array.from({ length: n }, (_, r) => r);
        assert.deepEqual(Array.from(sortRows(ids.slice(), keys, [col])), Array.from(sortRows(ids.slice(), keys, [widened])), `round ${round} sort ${descending}`);
      }
      const a = parseNumberText(decimal(rand, places, digits));
      const b = parseNumberText(decimal(rand, places, digits));
      const filters: ColumnFilter[][] = [[{ kind: 'range', column: 0, min: Math.min(a, b), max: Math.max(a, b) }], [{ kind: 'empty', column: 0 }], [{ kind: 'nonEmpty', column: 0 }]];
      for (const f of filters) assert.deepEqual(Array.from(filterRows(n, f, [col])), Array.from(filterRows(n, f, [widened])), `round ${round} ${JSON.stringify(f)}`);
    }
  });

  it('keeps the same integers from the parser\'s mantissa (scanNumber, decimal()) as from the parsed value', () => {
    const rand = rng(77);
    for (let round = 0; round < 40; round++) {
      const n = 1 + Math.floor(rand() * (round % 4 === 0 ? 4000 : 300));
      const places = Math.floor(rand() * 10);
      const digits = 1 + Math.floor(rand() * 14);
      const cells = Array.from({ length: n }, () => (rand() < 0.1 ? '' : rand() < 0.03 ? ['-0', '-0.00', '1e3', '0.5e-2', '+7'][Math.floor(rand() * 5)] ?? '1' : decimal(rand, places, digits)));
      const fromBytes = new TypedColumnBuilder(0, n, false);
      cells.forEach((c, r) => {
        const bytes = Buffer.from(c, 'latin1');
        const found = scanNumber(bytes, 0, bytes.length);
        if (c === '') fromBytes.empty(r);
        else if (found === NumberScan.Decimal) fromBytes.decimal(r, parsedDecimal[0] ?? 0, parsedDecimal[1] ?? 0);
        else if (found === NumberScan.Other) fromBytes.number(r, parsedNumber[0] ?? NaN);
        else fromBytes.text(r, c);
      });
      const col = fromBytes.finish();
      assertSameValues(col, cells, `round ${round}`);
      assert.deepEqual(col.scaled?.scale, build(cells).scaled?.scale, `round ${round}: the same scale`);
    }
  });
});
