/**
 * What the grid tells assistive technology, in pure functions (no DOM), so one place numbers it:
 * the ARIA indexes of rows and columns (the header row is row 1 and the row-number column is column
 * 1, so a column header and the cells under it share one index, pinned or scrolling, which is how
 * a screen reader names a cell's column), the grid's counts (the grid is virtualised: only the rows
 * in view exist, so the counts say how many there are), and the sentence the live region says once
 * a sort, a filter or a search has been applied: "Sorted by pnl, descending: 30 rows",
 * "Filtered: 3 of 30 rows".
 */
import type { ViewQuery } from '../shared/tableProtocol';
import { rowsKey } from './tableQuery';
import { l10n } from '../shared/l10n';

/** aria-rowindex of a view row; -1, the header row, is 1. */
export function ariaRowIndex(viewRow: number): number {
  return viewRow + 2;
}

/** aria-colindex of a display column (pinned first), header and cells alike; the row numbers are 1. */
export function ariaColIndex(display: number): number {
  return display + 2;
}

/** aria-rowcount and aria-colcount of a grid showing `rows` rows of `columns` columns (the header row and the row numbers count). */
export function gridCounts(rows: number, columns: number): { rowcount: number; colcount: number } {
  return { rowcount: rows + 1, colcount: columns + 1 };
}

/**
 * What the live region says when `after` has been applied over `before` (the query that was in
 * force): what changed, then the view's count label ("3 of 30 rows"). `name` gives a column's name.
 */
export function queryAnnouncement(before: ViewQuery | undefined, after: ViewQuery, countLabel: string, name: (column: number) => string): string {
  const was = before ?? {};
  const parts: string[] = [];
  const sort = after.sort ?? [];
  if (JSON.stringify(was.sort ?? []) !== JSON.stringify(sort)) {
    const keys = sort.map((k) => (k.descending ? l10n.t('{0}, descending', name(k.column)) : l10n.t('{0}, ascending', name(k.column))));
    parts.push(sort.length === 0 ? l10n.t('Sort removed') : l10n.t('Sorted by {0}', keys.join(l10n.t(', then '))));
  }
  const nBefore = (was.filters ?? []).length;
  const nAfter = (after.filters ?? []).length;
  if (JSON.stringify(rowsKey({ filters: was.filters })) !== JSON.stringify(rowsKey({ filters: after.filters }))) {
    parts.push(nAfter === 0 ? (nBefore === 1 ? l10n.t('Filter removed') : l10n.t('Filters removed')) : nAfter < nBefore ? l10n.t('Filter removed') : l10n.t('Filtered'));
  }
  const search = after.search ?? '';
  if ((was.search ?? '') !== search) parts.push(search === '' ? l10n.t('Search cleared') : l10n.t('Search “{0}”', search));
  return parts.length === 0 ? countLabel : l10n.t('{0}: {1}', parts.join('; '), countLabel);
}
