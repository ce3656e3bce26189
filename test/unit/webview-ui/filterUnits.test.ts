/**
 * Filters in the units the grid shows (issue 22): a column shown as a percentage takes and shows
 * percentages (typing 60 on a ratio shown `69.63%` means 0.6, not 60), bounds move by their
 * decimal text (exact), chips say bounds as the cells read, and a view emptied by its filters
 * says so with the filters that did it.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { effectiveFormat, formatCell } from '../../../src/webview-ui/format';
import { boundFromTyped, boundShown, describeFilter, filterUnit, noRowsMatch, shiftDecimal } from '../../../src/webview-ui/filterUnits';
import { exactBounds } from '../../../src/core/table/numbers';

const percent = filterUnit('percent');
const plain = filterUnit('thousands');

describe('filter units', () => {
  it('reads a bound typed on a ratio column shown as % as a percentage', () => {
    const format = effectiveFormat({ kind: 'ratio', numeric: true }, undefined, 'auto');
    assert.equal(format, 'percent');
    assert.equal(formatCell('0.6963', format), '69.63%');
    const unit = filterUnit(format);
    assert.deepEqual(boundFromTyped('60', unit), { value: 0.6, text: '0.6' });
    assert.deepEqual(boundFromTyped('60%', unit), { value: 0.6, text: '0.6' });
    assert.deepEqual(boundFromTyped('69.63', unit), { value: 0.6963, text: '0.6963' }, 'exact: not 0.6962999…');
    assert.deepEqual(boundFromTyped(' -12.5 ', unit), { value: -0.125, text: '-0.125' });
    assert.equal(boundFromTyped('', unit), undefined);
    assert.equal(boundFromTyped('sixty', unit), 'bad');
  });

  it('keeps a long bound typed in percent exact: the moved text, not the typed one, reaches the filter', () => {
    const b = boundFromTyped('12345678901234567891', percent);
    assert.ok(typeof b === 'object');
    assert.equal(b.text, '123456789012345678.91');
    assert.deepEqual(exactBounds(b.text, b.value, '', undefined), { minText: '123456789012345678.91' });
  });

  it('reads other columns in the file\'s scale, with %, k, m and b when typed', () => {
    assert.deepEqual(boundFromTyped('60', plain), { value: 60, text: '60' });
    assert.deepEqual(boundFromTyped('25%', plain), { value: 0.25, text: '0.25' });
    assert.deepEqual(boundFromTyped('1.5k', plain), { value: 1500, text: '1500' });
    assert.deepEqual(boundFromTyped('2M', plain), { value: 2_000_000, text: '2000000' });
    assert.deepEqual(boundFromTyped('1,000', plain), { value: 1000, text: '1000' });
    assert.deepEqual(boundFromTyped('1e-3', plain), { value: 0.001, text: '0.001' });
  });

  it('shows a bound back in the unit it was typed in', () => {
    assert.equal(boundShown(0.6963, percent), '69.63');
    assert.equal(boundShown(0.6, percent), '60');
    assert.equal(boundShown(1500, plain), '1500');
    assert.equal(describeFilter({ kind: 'range', column: 0, min: 0.6, max: 0.8 }, 'winrate', percent), '60% ≤ winrate ≤ 80%');
    assert.equal(describeFilter({ kind: 'range', column: 0, min: 0.6 }, 'winrate', percent), 'winrate ≥ 60%');
    assert.equal(describeFilter({ kind: 'range', column: 0, max: 5 }, 'volume'), 'volume ≤ 5');
  });

  it('moves the decimal point of the text, keeping every digit', () => {
    const cases: [string, number, string][] = [
      ['69.63', -2, '0.6963'], ['0.6963', 2, '69.63'], ['5', -2, '0.05'], ['-0.5', 2, '-50'], ['1.5', 3, '1500'],
      ['1e-3', 0, '0.001'], ['12345678901234567891', -2, '123456789012345678.91'], ['0', 2, '0'], ['-0.00', 2, '0'], ['.5', 1, '5'],
    ];
    for (const [text, places, want] of cases) assert.equal(shiftDecimal(text, places), want, `${text} × 10^${places}`);
  });
});

describe('no rows match', () => {
  const describe1 = (f: Parameters<typeof describeFilter>[0]) => describeFilter(f, 'winrate', percent);
  it('says which filters and search emptied the view', () => {
    const said = noRowsMatch({ length: 0, total: 1200, query: { filters: [{ kind: 'range', column: 0, min: 60 }], search: 'abc' } }, describe1);
    assert.deepEqual(said, { title: 'No rows match: none of the 1,200 rows passes these', causes: ['winrate ≥ 6000%', 'search “abc”'] });
  });

  it('says nothing when rows are shown, the table is empty, or nothing filters', () => {
    assert.equal(noRowsMatch({ length: 3, total: 10, query: { filters: [{ kind: 'empty', column: 0 }] } }, describe1), undefined);
    assert.equal(noRowsMatch({ length: 0, total: 0, query: { filters: [{ kind: 'empty', column: 0 }] } }, describe1), undefined);
    assert.equal(noRowsMatch({ length: 0, total: 10, query: {} }, describe1), undefined);
  });
});
