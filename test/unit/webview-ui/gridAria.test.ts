// What the table's grid tells assistive technology (issue 26 item 7), without a DOM: the indexes a
// header and its cells share (pinned columns included), the counts of a virtualised grid, and the
// live region's sentence after a sort, a filter or a search.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ariaColIndex, ariaRowIndex, gridCounts, queryAnnouncement } from '../../../src/webview-ui/gridAria';

const names = ['address', 'pnl', 'roi'];
const name = (c: number): string => names[c] ?? String(c);

describe('grid semantics', () => {
  it('numbers the header row 1 and the row-number column 1; a header and its cells share an index', () => {
    assert.equal(ariaRowIndex(-1), 1, 'the header row');
    assert.equal(ariaRowIndex(0), 2, 'the first data row');
    assert.equal(ariaRowIndex(29), 31);
    // Display index 0 is the first column, pinned or not: column 2, after the row numbers.
    assert.equal(ariaColIndex(0), 2);
    assert.equal(ariaColIndex(5), 7);
  });

  it('counts every row and column of the virtualised grid, the header row and the row numbers included', () => {
    assert.deepEqual(gridCounts(30, 6), { rowcount: 31, colcount: 7 });
    assert.deepEqual(gridCounts(0, 1), { rowcount: 1, colcount: 2 });
  });
});

describe('the live region after a query', () => {
  it('says the sort and the count', () => {
    assert.equal(queryAnnouncement({}, { sort: [{ column: 1, descending: true }] }, '30 rows', name), 'Sorted by pnl, descending: 30 rows');
    assert.equal(queryAnnouncement(undefined, { sort: [{ column: 1 }, { column: 2, descending: true }] }, '30 rows', name), 'Sorted by pnl, ascending, then roi, descending: 30 rows');
    assert.equal(queryAnnouncement({ sort: [{ column: 1 }] }, {}, '30 rows', name), 'Sort removed: 30 rows');
  });

  it('says a filter applied or removed, and "N of M rows"', () => {
    const f = { kind: 'range' as const, column: 1, min: 0 };
    assert.equal(queryAnnouncement({}, { filters: [f] }, '3 of 30 rows', name), 'Filtered: 3 of 30 rows');
    assert.equal(queryAnnouncement({ filters: [f] }, { filters: [{ ...f, min: 5 }] }, '2 of 30 rows', name), 'Filtered: 2 of 30 rows', 'a filter changed');
    assert.equal(queryAnnouncement({ filters: [f] }, { filters: [] }, '30 rows', name), 'Filter removed: 30 rows');
    assert.equal(queryAnnouncement({ filters: [f, { kind: 'empty', column: 2 }] }, { filters: [f] }, '9 of 30 rows', name), 'Filter removed: 9 of 30 rows');
    assert.equal(queryAnnouncement({ filters: [f], sort: [{ column: 2 }] }, { filters: [f] }, '3 of 30 rows', name), 'Sort removed: 3 of 30 rows', 'the same filters: not said again');
  });

  it('says a search and its clearing; nothing changed says the count alone', () => {
    assert.equal(queryAnnouncement({}, { search: 'sniper' }, '3 of 30 rows', name), 'Search “sniper”: 3 of 30 rows');
    assert.equal(queryAnnouncement({ search: 'sniper' }, { search: '' }, '30 rows', name), 'Search cleared: 30 rows');
    assert.equal(queryAnnouncement({ search: 'x' }, { search: 'x' }, '1 of 30 rows', name), '1 of 30 rows');
  });
});
