/**
 * The grid's keyboard and mouse. The grid holds the focus; the active cell is its
 * aria-activedescendant. Keys: arrows, Page Up/Down, Home/End, Ctrl+Home/End, Shift+… to select,
 * Ctrl+A, Ctrl+C, Shift+Space (row), Ctrl+Space (column), Escape, and Enter, F2, Shift+F10 or the
 * menu key for the cell's actions, Alt+Enter for the row as a wallet card, and on the header row
 * Alt+Left/Right to narrow or widen the column (what dragging its edge does). Mouse: click to select (Shift to extend, drag to select a
 * range), a header to sort (Shift+click adds a key) or its ⋮ for its menu, the corner for
 * everything, a row number for its row, a header's edge to resize; right-click or double-click
 * for the actions.
 */
import type { ColumnModel } from './columns';
import type { CellPos, Grid, GridHost } from './grid';

/** Pixels a column grows or shrinks by with Alt+Right / Alt+Left on its header. */
const RESIZE_STEP = 16;

export class GridInput {
  private dragging = false;

  /** Listens on the grid's scroller (keys) and sizer (mouse), for the page's lifetime. */
  constructor(
    private readonly grid: Grid,
    sizer: HTMLElement,
    private readonly model: ColumnModel,
    private readonly host: GridHost,
  ) {
    grid.scroller.addEventListener('keydown', (e) => this.onKey(e));
    sizer.addEventListener('mousedown', (e) => this.onMouseDown(e));
    sizer.addEventListener('mouseover', (e) => this.onDragOver(e));
    document.addEventListener('mouseup', () => (this.dragging = false));
    sizer.addEventListener('contextmenu', (e) => this.onContextMenu(e));
    sizer.addEventListener('dblclick', (e) => {
      const pos = this.posOf(e.target);
      if (pos && pos.row >= 0) this.openMenuAt(pos, e.clientX, e.clientY);
    });
  }

  /** The cell (view row, display index) an event target belongs to; row -1 for a header. */
  private posOf(target: EventTarget | null): CellPos | undefined {
    const t = target as HTMLElement | null;
    const header = t?.closest<HTMLElement>('.hcell');
    if (header && !header.classList.contains('corner')) return { row: -1, col: Number(header.dataset.d) };
    const cell = t?.closest<HTMLElement>('[role=gridcell]');
    const rowEl = t?.closest<HTMLElement>('.row');
    if (!cell || !rowEl) return undefined;
    const rowIndex = Number(rowEl.getAttribute('aria-rowindex')) - 2;
    return { row: rowIndex, col: Number(cell.dataset.d) };
  }

  private onMouseDown(e: MouseEvent): void {
    const t = e.target as HTMLElement;
    this.grid.scroller.focus({ preventScroll: true });
    if (e.button !== 0) return;
    if (t.classList.contains('rsz')) {
      this.startResize(e, t);
      return;
    }
    if (t.closest('.corner')) {
      e.preventDefault();
      this.grid.selectRect([0, Math.max(0, this.host.rowCount - 1)], [0, Math.max(0, this.model.shownCount - 1)]);
      return;
    }
    const gutter = t.closest<HTMLElement>('.row .gutter');
    if (gutter) {
      e.preventDefault();
      const r = Number(gutter.closest('.row')?.getAttribute('aria-rowindex')) - 2;
      const from = e.shiftKey ? this.grid.anchor.row : r;
      this.grid.anchor = { row: from, col: 0 };
      this.grid.active = { row: r, col: Math.max(0, this.model.shownCount - 1) };
      this.grid.render();
      this.host.activeChanged();
      return;
    }
    const pos = this.posOf(t);
    if (!pos) return;
    e.preventDefault();
    if (pos.row < 0) {
      const c = this.grid.columnAt(pos.col);
      this.grid.active = pos;
      this.grid.render();
      if (c === undefined) return;
      if (t.classList.contains('hmenu')) {
        const r = t.getBoundingClientRect();
        this.host.headerMenu(c, r.left, r.bottom);
      } else this.host.sortClick(c, e.shiftKey);
      return;
    }
    this.grid.moveTo(pos.row, pos.col, e.shiftKey);
    this.dragging = true;
  }

  private onDragOver(e: MouseEvent): void {
    if (!this.dragging || (e.buttons & 1) === 0) {
      this.dragging = false;
      return;
    }
    const pos = this.posOf(e.target);
    if (pos && pos.row >= 0 && (pos.row !== this.grid.active.row || pos.col !== this.grid.active.col)) this.grid.moveTo(pos.row, pos.col, true);
  }

  private onContextMenu(e: MouseEvent): void {
    const pos = this.posOf(e.target);
    if (!pos) return;
    e.preventDefault();
    if (pos.row >= 0) {
      const s = this.grid.selection;
      const inside = pos.row >= s.rows[0] && pos.row <= s.rows[1] && pos.col >= s.cols[0] && pos.col <= s.cols[1];
      if (!inside) this.grid.moveTo(pos.row, pos.col);
    } else {
      this.grid.active = pos;
      this.grid.render();
    }
    this.openMenuAt(pos, e.clientX, e.clientY);
  }

  private openMenuAt(pos: CellPos, x: number, y: number): void {
    const c = this.grid.columnAt(pos.col);
    if (c === undefined) return;
    if (pos.row < 0) this.host.headerMenu(c, x, y);
    else this.host.cellMenu(pos.row, c, x, y);
  }

  /** Opens the actions of the active cell (or header) beside it. */
  private openActiveMenu(): void {
    this.grid.reveal(this.grid.active);
    this.grid.render();
    const r = this.grid.cellRect(this.grid.active);
    this.openMenuAt(this.grid.active, r ? r.left + 8 : 40, r ? r.bottom : 40);
  }

  private startResize(e: MouseEvent, handle: HTMLElement): void {
    e.preventDefault();
    e.stopPropagation();
    const d = Number(handle.closest<HTMLElement>('.hcell')?.dataset.d);
    const c = this.grid.columnAt(d);
    if (c === undefined) return;
    const startX = e.clientX;
    const startW = this.model.width(c);
    const move = (ev: MouseEvent): void => this.host.resized(c, startW + ev.clientX - startX, false);
    const up = (ev: MouseEvent): void => {
      document.removeEventListener('mousemove', move);
      document.removeEventListener('mouseup', up);
      this.host.resized(c, startW + ev.clientX - startX, true);
    };
    document.addEventListener('mousemove', move);
    document.addEventListener('mouseup', up);
  }

  private onKey(e: KeyboardEvent): void {
    const ctrl = e.ctrlKey || e.metaKey;
    const { row, col } = this.grid.active;
    if (row < 0 && e.altKey && !ctrl && (e.key === 'ArrowLeft' || e.key === 'ArrowRight')) {
      const c = this.grid.columnAt(col);
      if (c !== undefined) this.host.resized(c, this.model.width(c) + (e.key === 'ArrowRight' ? RESIZE_STEP : -RESIZE_STEP), true);
      e.preventDefault();
      e.stopPropagation();
      return;
    }
    const n = this.host.rowCount;
    const d = this.model.shownCount;
    const page = Math.max(1, this.grid.visibleRowCount - 1);
    switch (e.key) {
      case 'ArrowUp':
        this.grid.moveTo(ctrl ? 0 : row - 1, col, e.shiftKey);
        break;
      case 'ArrowDown':
        this.grid.moveTo(ctrl ? n - 1 : row + 1, col, e.shiftKey);
        break;
      case 'ArrowLeft':
        this.grid.moveTo(row, ctrl ? 0 : col - 1, e.shiftKey);
        break;
      case 'ArrowRight':
        this.grid.moveTo(row, ctrl ? d - 1 : col + 1, e.shiftKey);
        break;
      case 'PageUp':
        this.grid.moveTo(Math.max(row < 0 ? -1 : 0, row - page), col, e.shiftKey);
        break;
      case 'PageDown':
        this.grid.moveTo(row + page, col, e.shiftKey);
        break;
      case 'Home':
        // The first column may be pinned (always in view): show the start of the scrolling ones too.
        this.grid.scroller.scrollLeft = 0;
        this.grid.moveTo(ctrl ? 0 : row, 0, e.shiftKey);
        break;
      case 'End':
        this.grid.moveTo(ctrl ? n - 1 : row, d - 1, e.shiftKey);
        break;
      case 'Enter':
        if (e.altKey) {
          if (row >= 0) this.host.openCard(row);
          break;
        }
        this.openActiveMenu();
        break;
      case 'F2':
      case 'ContextMenu':
        this.openActiveMenu();
        break;
      case 'F10':
        if (!e.shiftKey) return;
        this.openActiveMenu();
        break;
      case 'Escape':
        this.grid.anchor = this.grid.active;
        this.grid.render();
        this.host.activeChanged();
        break;
      case ' ':
        if (e.shiftKey && row >= 0) this.grid.selectRect([row, row], [0, d - 1]);
        else if (ctrl) this.grid.selectRect([0, n - 1], [col, col]);
        else return;
        break;
      default:
        if (ctrl && (e.key === 'a' || e.key === 'A')) this.grid.selectRect([0, n - 1], [0, d - 1]);
        else if (ctrl && (e.key === 'c' || e.key === 'C')) this.host.copy();
        else return;
    }
    e.preventDefault();
    e.stopPropagation();
  }
}
