/**
 * Messages between the results-table webview and the extension host, one union each way,
 * imported by both bundles. Plain data only (structured clone): windows are string[][] of just
 * the asked cells (see TableWindow).
 *
 * Flow: the webview posts `ready`; the host answers `init`. The webview asks for windows as the
 * person scrolls (`getWindow`, by view row and column index) and changes the query (`setQuery`);
 * a request's reply carries its `requestId`. The host pushes `view` whenever the rows change
 * (query applied, or more rows indexed), `progress` during long passes, `notices` when a file
 * problem is found. A window whose `version` differs from the latest `view.version` is stale.
 */
import { isInt, isIntList, isQuery, isRecord } from '../core/table/queryGuards';
import type { ColumnFilter, Progress, SortKey, TableNotice, TableWindow, ViewQuery, ViewSnapshot } from '../core/table/types';

export type { ColumnFilter, Progress, SortKey, TableNotice, TableWindow, ViewQuery };

/** The view as the grid needs it, without any cells: the same snapshot the table's worker sends the host. */
export type ViewState = ViewSnapshot;

/** Webview → host. */
export type TableRequest =
  | { readonly type: 'ready' }
  /** `cut`: the grid's window, whose long cells may come cut to WINDOW_CELL_CHARS (core/table/windowCells.ts) and listed in its `cut`. */
  | { readonly type: 'getWindow'; readonly requestId: number; readonly first: number; readonly last: number; readonly columns: readonly number[]; readonly cut?: boolean }
  | { readonly type: 'setQuery'; readonly requestId: number; readonly query: ViewQuery }
  | { readonly type: 'cancel'; readonly requestId: number }
  | {
      readonly type: 'copy';
      readonly requestId: number;
      readonly first: number;
      readonly last: number;
      readonly columns: readonly number[];
      readonly format: 'tsv' | 'csv';
      readonly header: boolean;
    }
  | { readonly type: 'export'; readonly requestId: number; readonly columns?: readonly number[] };

/** Host → webview. */
export type TableMessage =
  | {
      readonly type: 'init';
      readonly title: string;
      readonly kind: 'csv' | 'txt' | 'json';
      readonly columns: readonly string[];
      readonly view: ViewState;
      readonly notices: readonly TableNotice[];
    }
  | { readonly type: 'view'; readonly view: ViewState }
  | { readonly type: 'window'; readonly requestId: number; readonly window: TableWindow }
  | { readonly type: 'queryApplied'; readonly requestId: number; readonly view: ViewState }
  | { readonly type: 'progress'; readonly requestId?: number; readonly progress: Progress }
  | { readonly type: 'notices'; readonly notices: readonly TableNotice[] }
  | { readonly type: 'done'; readonly requestId: number; readonly message?: string }
  | { readonly type: 'failed'; readonly requestId?: number; readonly message: string; readonly cancelled?: boolean };

/**
 * Bounds on what the webview may ask for, so a compromised or buggy webview cannot make the host
 * read a huge window into memory (1,000 rows × 20,000 columns took 869 MB and 38 s, issue 21). The
 * grid asks for blocks of 64 rows (webview-ui/cellCache.ts) of the columns on screen, so these sit
 * far above what it ever asks. A request past them is refused before the file is read.
 */
export const MAX_WINDOW_ROWS = 10_000;
export const MAX_WINDOW_COLUMNS = 1_000;
export const MAX_WINDOW_CELLS = 250_000;
/** Column lists of a copy or an export (their cells are bounded by COPY_MAX_CELLS and by streaming). */
export const MAX_COLUMN_LIST = 100_000;
/** A query's filters and sort keys, and any text in it (a search, a contains filter). */
export const MAX_QUERY_FILTERS = 10_000;
export const MAX_SORT_KEYS = 1_000;
export const MAX_QUERY_TEXT = 10_000;

const isColumns = (v: unknown, max: number): v is number[] => Array.isArray(v) && v.length <= max && isIntList(v);

function isWindow(first: unknown, last: unknown, columns: unknown): boolean {
  if (!isInt(first) || !isInt(last) || !isColumns(columns, MAX_WINDOW_COLUMNS)) return false;
  const rows = Math.max(0, last - first);
  return rows <= MAX_WINDOW_ROWS && rows * columns.length <= MAX_WINDOW_CELLS;
}

/** isQuery's shape, within the bounds above. */
function isBoundedQuery(v: unknown): boolean {
  if (!isQuery(v)) return false;
  const q = v as ViewQuery;
  const texts = [q.search ?? '', ...(q.filters ?? []).map((f) => (f.kind === 'contains' ? f.text : ''))];
  return (q.filters ?? []).length <= MAX_QUERY_FILTERS && (q.sort ?? []).length <= MAX_SORT_KEYS && texts.every((t) => t.length <= MAX_QUERY_TEXT);
}

/** The request a webview message holds, or undefined when it is not a well-formed one (the host ignores those). */
export function parseTableRequest(message: unknown): TableRequest | undefined {
  if (!isRecord(message)) return undefined;
  const m = message;
  switch (m.type) {
    case 'ready':
      return { type: 'ready' };
    case 'getWindow':
      return isInt(m.requestId) && isWindow(m.first, m.last, m.columns) && (m.cut === undefined || typeof m.cut === 'boolean') ? (m as TableRequest) : undefined;
    case 'setQuery':
      return isInt(m.requestId) && isBoundedQuery(m.query) ? (m as TableRequest) : undefined;
    case 'cancel':
      return isInt(m.requestId) ? (m as TableRequest) : undefined;
    case 'copy':
      return isInt(m.requestId) && isInt(m.first) && isInt(m.last) && isColumns(m.columns, MAX_COLUMN_LIST) && (m.format === 'tsv' || m.format === 'csv') && typeof m.header === 'boolean'
        ? (m as TableRequest)
        : undefined;
    case 'export':
      return isInt(m.requestId) && (m.columns === undefined || isColumns(m.columns, MAX_COLUMN_LIST)) ? (m as TableRequest) : undefined;
    default:
      return undefined;
  }
}
