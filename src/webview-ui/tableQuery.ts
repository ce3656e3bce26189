/**
 * The table's query as the page changes and shows it, in pure functions (no DOM, no host): the
 * next sort keys after a header click, a header's sort mark and tooltip, a column's filter set or
 * removed, the busy line while a query is applied, and whether the analysis panel follows a new
 * query.
 */
import type { ColumnFilter, SortKey, ViewQuery } from '../shared/tableProtocol';
import type { ColumnInfo } from '../shared/tableUiProtocol';
import { l10n } from '../shared/l10n';

/** What a column header shows (the grid draws it). */
export interface HeaderView {
  readonly name: string;
  readonly title: string;
  /** ▲ / ▼ and the key's rank when several keys sort. */
  readonly sort?: string;
  /** aria-sort: the first sort key's header only. */
  readonly sortDirection?: 'ascending' | 'descending';
  readonly filtered: boolean;
}

/**
 * The sort keys after a click on a column's header. A click sorts by that column alone (ascending,
 * then descending, then not at all); Shift+click (`add`) adds it as the next key, turns it
 * descending, then removes it, keeping the other keys.
 */
export function nextSort(keys: readonly SortKey[], column: number, add: boolean): SortKey[] {
  const i = keys.findIndex((k) => k.column === column);
  const key = keys[i];
  if (add) {
    if (!key) return [...keys, { column }];
    if (!key.descending) return keys.map((k) => (k.column === column ? { column, descending: true } : k));
    return keys.filter((k) => k.column !== column);
  }
  if (keys.length === 1 && key) return key.descending ? [] : [{ column, descending: true }];
  return [{ column }];
}

/** Which rows a query keeps, as a key: its filters (in any order) and its search; a sort keeps the same rows. */
export function rowsKey(query: ViewQuery): string {
  const filters = (query.filters ?? []).map((f) => JSON.stringify(f)).sort();
  return JSON.stringify([filters, query.search ?? '']);
}

/**
 * What the analysis panel does when the table's query changes, given the rows key its figures were
 * computed over and the key of the query its own brush last set: `same` (the same rows, perhaps
 * sorted otherwise: nothing to do), `offer` (its own brush filtered them: the chart stays as drawn,
 * with the brush over it, and a Refresh is offered), or `refresh` (filters or search changed
 * elsewhere: compute again).
 */
export function panelFollow(computedKey: string, ownKey: string | undefined, now: ViewQuery): 'same' | 'offer' | 'refresh' {
  const key = rowsKey(now);
  if (key === computedKey) return 'same';
  return key === ownKey ? 'offer' : 'refresh';
}

/** The query with a column's filter replaced by `filter`, or removed (undefined). */
export function withFilter(query: ViewQuery, column: number, filter: ColumnFilter | undefined): ViewQuery {
  const rest = (query.filters ?? []).filter((x) => x.column !== column);
  return { ...query, filters: filter ? [...rest, filter] : rest };
}

/** Whether the query sorts, filters or searches (the view's rows are then not the file's). */
export function shapesRows(query: ViewQuery): boolean {
  return Boolean((query.sort ?? []).length || (query.filters ?? []).length || query.search);
}

/** Whether the query leaves rows out (filters or a search; a sort keeps every row). */
export function hidesRows(query: ViewQuery): boolean {
  return Boolean((query.filters ?? []).length || query.search);
}

/** The query that shows every row (Show all): the filters and search off, the sort kept. */
export function everyRow(query: ViewQuery): ViewQuery {
  return (query.sort ?? []).length > 0 ? { sort: query.sort } : {};
}

/** The busy line while a query is applied: "Sorting, filtering…", or "Showing every row…". */
export function busyLabel(query: ViewQuery): string {
  const sorting = (query.sort ?? []).length > 0;
  const words = [sorting ? 'Sorting' : '', (query.filters ?? []).length ? 'filtering' : '', query.search ? 'searching' : ''].filter(Boolean).join(', ');
  return `${words ? words.charAt(0).toUpperCase() + words.slice(1) : 'Showing every row'}…`;
}

/** What a column's header shows under a query: its name, tooltip, sort mark (▲/▼ and rank) and filter dot. */
export function headerView(info: ColumnInfo | undefined, column: number, query: ViewQuery): HeaderView {
  const keys = query.sort ?? [];
  const i = keys.findIndex((k) => k.column === column);
  const key = keys[i];
  const filtered = (query.filters ?? []).some((f) => f.column === column);
  const name = info?.name ?? String(column);
  const title = [
    name,
    info?.description,
    info?.kind ? `(${info.kind}${info.timeframe ? `, ${info.timeframe}` : ''})` : '',
    filtered ? l10n.t('Filtered (●).') : '',
    // A screen reader hears aria-sort on one header only (the first key); the others say their rank here.
    key && keys.length > 1 ? (key.descending ? l10n.t('Sort key {0} of {1}, descending.', i + 1, keys.length) : l10n.t('Sort key {0} of {1}, ascending.', i + 1, keys.length)) : '',
    l10n.t('Click to sort, Shift+click to add a sort key, right-click or Enter for more; Alt+Left/Right resizes.'),
  ]
    .filter(Boolean)
    .join('\n');
  return {
    name,
    title,
    sort: key ? `${key.descending ? '▼' : '▲'}${keys.length > 1 ? i + 1 : ''}` : undefined,
    // ARIA: aria-sort on one header at a time, the key that sorts first.
    sortDirection: key && i === 0 ? (key.descending ? 'descending' : 'ascending') : undefined,
    filtered,
  };
}
