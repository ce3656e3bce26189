/**
 * What a person sees of a source: a subset and order of its rows (a Uint32Array of row ids),
 * chosen by sort keys, column filters and a global search. Windows of the view are read from
 * the source on demand, only the rows and columns asked for.
 */
import { abortable, throwIfCancelled } from '../abort';
import { filterNeed, filterRows } from './filterRows';
import { formatCount } from './notices';
import { sortRows } from './sortRows';
import type { TableSource, TableWindow, TaskOptions, TypedColumn, ViewQuery } from './types';
import { CancelledError } from '../errors';
import { cutCells } from './windowCells';

export class TableView {
  private rows: Uint32Array | undefined; // undefined: every row, in file order
  /**
   * The buffer the rows are in (a row id per source row), kept between queries. The next query's
   * rows go into a new one, and the sort's scratch is this one (its rows are replaced in the same
   * synchronous step), let go after it. Two kept buffers (the second as the next query's) cost
   * the 1,000,000-row file's view 8 MB for good, 4 of them only ever scratch: its peak memory
   * was 0.26 × the file (issue 34's budget 0.25 ×). A query now allocates one buffer, not two.
   */
  private held: Uint32Array | undefined;
  private current: ViewQuery = {};
  private applying: AbortController | undefined;
  private counter = 0;

  constructor(readonly source: TableSource) {}

  /** The query the rows reflect. */
  get query(): ViewQuery {
    return this.current;
  }

  /** Grows by one each time apply() changes the rows. */
  get version(): number {
    return this.counter;
  }

  /** Rows in the view. */
  get length(): number {
    return this.rows ? this.rows.length : this.source.rowCount;
  }

  /** Rows in the source. */
  get total(): number {
    return this.source.rowCount;
  }

  /** True when a filter or search hides rows. */
  get isFiltered(): boolean {
    return (this.current.filters?.length ?? 0) > 0 || (this.current.search ?? '') !== '';
  }

  /** Bytes of row-id buffers the view keeps between queries (what its rows cost the worker's memory). */
  get heldBytes(): number {
    return this.held?.byteLength ?? 0;
  }

  /** Source row ids of view rows [first, last). */
  rowIds(first = 0, last = this.length): Uint32Array {
    const from = Math.max(0, first);
    const to = Math.min(last, this.length);
    if (to <= from) return new Uint32Array(0);
    if (this.rows) return this.rows.slice(from, to);
    const ids = new Uint32Array(to - from);
    for (let i = 0; i < ids.length; i++) ids[i] = from + i;
    return ids;
  }

  /**
   * Sorts, filters and searches; resolves when the new rows are in place. A later call cancels
   * an earlier one still running (which then rejects with a CancelledError).
   */
  async apply(query: ViewQuery, options: TaskOptions = {}): Promise<void> {
    this.applying?.abort(new CancelledError());
    const own = new AbortController();
    this.applying = own;
    const signal = options.signal ? AbortSignal.any([own.signal, options.signal]) : own.signal;
    const sort = query.sort ?? [];
    const filters = query.filters ?? [];
    const search = query.search ?? '';
    if (sort.length === 0 && filters.length === 0 && search === '') {
      this.commit(undefined, query);
      return;
    }
    await abortable(this.source.indexed, signal);
    const needs = [...filters.map(filterNeed), ...sort.map((k) => ({ column: k.column }))];
    const [columns, mask] = await Promise.all([
      this.source.typedColumns(needs, { signal, onProgress: options.onProgress }),
      search === '' ? Promise.resolve(undefined) : this.source.searchRows(search, { signal, onProgress: options.onProgress }),
    ]);
    throwIfCancelled(signal);
    const filterColumns = columns.slice(0, filters.length) as TypedColumn[];
    const sortColumns = columns.slice(filters.length) as TypedColumn[];
    const rowCount = this.source.rowCount;
    const into = new Uint32Array(rowCount);
    const rows = filterRows(rowCount, filters, filterColumns, mask, into);
    // The old rows' buffer as scratch (sortRows makes its own when there is none or it is short).
    if (sort.length > 0) sortRows(rows, sort, sortColumns, this.held);
    this.commit(rows, query, into);
  }

  /**
   * Cells of view rows [first, last) × `columns`; with `cellChars`, a longer cell is cut to that
   * many characters and listed in the window's `cut` (the grid's windows, windowCells.ts).
   */
  async window(first: number, last: number, columns: readonly number[], signal?: AbortSignal, cellChars?: number): Promise<TableWindow> {
    const version = this.counter;
    const ids = Array.from(this.rowIds(first, last));
    const cells = await this.source.readCells(ids, columns, signal, cellChars);
    const cut = cellChars === undefined ? undefined : cutCells(cells, cellChars);
    return { version, start: Math.max(0, first), rowIds: ids, columns, cells, ...(cut ? { cut } : {}) };
  }

  /** "12,345 of 100,000 rows" when filtered, else "100,000 rows". */
  countLabel(): string {
    const total = this.total;
    const noun = total === 1 ? 'row' : 'rows';
    const known = this.source.complete ? '' : '+';
    return this.isFiltered ? `${formatCount(this.length)} of ${formatCount(total)}${known} ${noun}` : `${formatCount(total)}${known} ${noun}`;
  }

  /** The new rows (in `held`, kept until the next query; none in file order). */
  private commit(rows: Uint32Array | undefined, query: ViewQuery, held?: Uint32Array): void {
    this.rows = rows;
    this.held = held;
    this.current = query;
    this.counter++;
  }
}
