/**
 * The grid's contracts, apart from its code: what it asks of the app (GridHost), a cell's place,
 * a selection, and the surface the keyboard and the mouse drive (GridSurface). Its own file so
 * grid.ts and gridInput.ts do not import each other: the grid creates its input, and the input
 * knows the grid only through this surface.
 */
import type { ShownCell } from './format';
import type { HeaderView } from './tableQuery';

/** What the grid reads and tells; the app implements it. */
export interface GridHost {
  readonly rowCount: number;
  /** The raw text of a cell, or undefined while its window is on the way. */
  cell(row: number, column: number): string | undefined;
  /** What a cell shows: its text, a tooltip, a gain's or a loss's tone. */
  display(column: number, text: string): ShownCell;
  numeric(column: number): boolean;
  header(column: number): HeaderView;
  /** Rows [first, last) of these columns are about to show: fetch what is missing. */
  ensure(first: number, last: number, columns: readonly number[]): void;
  sortClick(column: number, add: boolean): void;
  cellMenu(row: number, column: number, x: number, y: number): void;
  /** Alt+Enter: the row as a wallet card. */
  openCard(row: number): void;
  headerMenu(column: number, x: number, y: number): void;
  copy(): void;
  resized(column: number, width: number, done: boolean): void;
  activeChanged(): void;
}

export interface CellPos {
  /** View row; -1 is the header row. */
  readonly row: number;
  /** Display index (pinned columns first). */
  readonly col: number;
}

export interface Selection {
  readonly rows: [number, number];
  readonly cols: [number, number];
}

/** What gridInput.ts drives: the active cell and the selection, moves, and where things are drawn. */
export interface GridSurface {
  readonly scroller: HTMLElement;
  active: CellPos;
  anchor: CellPos;
  readonly selection: Selection;
  readonly visibleRowCount: number;
  moveTo(row: number, col: number, extend?: boolean): void;
  selectRect(rows: [number, number], cols: [number, number]): void;
  reveal(pos: CellPos): void;
  cellRect(pos: CellPos): DOMRect | undefined;
  columnAt(col: number): number | undefined;
  render(): void;
}
