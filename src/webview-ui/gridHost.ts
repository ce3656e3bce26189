/**
 * The grid's side of the page: what the grid reads (cells from the window feed, their shown text,
 * header marks under the query) and where what it tells goes (a sort click to the query, the menus,
 * Ctrl+C, a resized column, the active cell to the status line and the saved place).
 */
import type { TableActions } from './actions';
import type { ColumnMenus } from './columnMenus';
import { displayCell, type ShownCell } from './format';
import type { GridHost } from './gridTypes';
import type { StatusLine } from './notices';
import type { PlaceMemory } from './position';
import { positionText } from './positionText';
import type { PageControl, TableState } from './state';
import { headerView, nextSort, type HeaderView } from './tableQuery';
import type { WindowFeed } from './windowFeed';

export class TableGridHost implements GridHost {
  constructor(
    private readonly state: TableState,
    private readonly feed: WindowFeed,
    private readonly control: PageControl,
    private readonly parts: { readonly menus: ColumnMenus; readonly actions: TableActions; readonly status: StatusLine; readonly place: PlaceMemory },
  ) {}

  get rowCount(): number {
    return this.state.rowCount;
  }

  /** A cut cell ends in an ellipsis: the grid shows that the rest is not drawn. */
  cell(row: number, column: number): string | undefined {
    const text = this.feed.get(row, column);
    return text !== undefined && this.feed.isCut(row, column) ? `${text}…` : text;
  }

  display(column: number, text: string): ShownCell {
    const m = this.state.model;
    const info = m?.info[column];
    if (!m || !info) return { text };
    return displayCell(info, text, m.formats.get(column), m.defaultFormat, this.state.meta?.colorGainsAndLosses !== false);
  }

  numeric(column: number): boolean {
    return this.state.model?.info[column]?.numeric ?? false;
  }

  header(column: number): HeaderView {
    return headerView(this.state.model?.info[column], column, this.state.query());
  }

  ensure(first: number, last: number, columns: readonly number[]): void {
    const view = this.state.view;
    if (view) this.feed.ensure(first, last, columns, view.length);
  }

  sortClick(column: number, add: boolean): void {
    const q = this.state.query();
    this.control.setQuery({ ...q, sort: nextSort(q.sort ?? [], column, add) });
  }

  cellMenu(row: number, column: number, x: number, y: number): void {
    this.parts.menus.cell(row, column, x, y);
  }

  openCard(row: number): void {
    this.control.openCard(row);
  }

  headerMenu(column: number, x: number, y: number): void {
    this.parts.menus.header(column, x, y);
  }

  copy(): void {
    this.parts.actions.copySelection();
  }

  resized(column: number, width: number, done: boolean): void {
    this.state.model?.setWidth(column, width);
    this.state.grid?.schedule();
    if (done) this.control.layoutChanged();
  }

  activeChanged(): void {
    const { grid, model } = this.state;
    if (!grid || !model) return;
    const c = grid.columnAt(grid.active.col);
    this.parts.status.position(positionText(grid, c === undefined ? '' : (model.info[c]?.name ?? ''), this.state.rowCount));
    this.parts.place.saveSoon();
  }
}
