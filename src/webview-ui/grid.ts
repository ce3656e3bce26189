/**
 * The grid: a scroller holding a spacer sized to every row and column, over which only the rows
 * and columns in view (plus a small overscan) exist as elements. The header row sticks to the top
 * and the pinned columns (with the row numbers) stick to the left, both by CSS `position: sticky`,
 * so the compositor keeps them in place while scrolling. Elements are recycled: a scroll moves rows
 * and rewrites the text of cells whose content changed, nothing more. Cells are written with
 * textContent only. This file places rows and columns as the view scrolls; the elements themselves
 * (a row, its cells, the header's cells) are made and written in gridCells.ts, and the keyboard
 * and the mouse are handled in gridInput.ts.
 */
import type { ColumnModel } from './columns';
import { ColumnAxis, RowAxis } from './layout';
import { formatCount } from './format';
import { ariaRowIndex, gridCounts } from './gridAria';
import { ACTIVE_ID, makeRow, syncCells, syncHeader, type CellSource, type HeaderCellView, type RowView } from './gridCells';
import { GridInput } from './gridInput';
import type { CellPos, GridHost, Selection } from './gridTypes';
import { l10n } from '../shared/l10n';

const OVERSCAN_ROWS = 6;
const OVERSCAN_COLS = 2;
/** Rows and columns fetched beyond the overscan, so a steady scroll finds its cells ready. */
const PREFETCH_ROWS = 40;
const PREFETCH_COLS = 4;

/** How long the last renders took (ms), for the e2e test's scroll figures; a small ring. */
const renderTimes: number[] = [];
const RENDER_TIMES = 1024;
(globalThis as { __waRenderTimes?: number[] }).__waRenderTimes = renderTimes;

export class Grid {
  readonly scroller: HTMLElement;
  private readonly sizer: HTMLElement;
  private readonly headerRow: HTMLElement;
  private readonly headerPin: HTMLElement;
  private readonly corner: HTMLElement;
  private readonly headerPad: HTMLElement;
  private readonly headerPinCells: HeaderCellView[] = [];
  private readonly headerCells: HeaderCellView[] = [];
  private readonly rows = new Map<number, RowView>();
  private readonly pool: RowView[] = [];
  private axis = new RowAxis(0, 22, 0);
  private cols = new ColumnAxis([]);
  private gutterWidth = 48;
  private pinnedWidth = 0;
  private frame = 0;
  private sizerKey = '';
  active: CellPos = { row: 0, col: 0 };
  anchor: CellPos = { row: 0, col: 0 };

  constructor(
    parent: HTMLElement,
    private readonly model: ColumnModel,
    private readonly host: GridHost,
    readonly rowHeight: number,
    readonly headerHeight: number,
    private readonly digitWidth: number,
  ) {
    this.scroller = document.createElement('div');
    this.scroller.className = 'scroller';
    this.scroller.tabIndex = 0;
    this.scroller.setAttribute('role', 'grid');
    this.scroller.setAttribute('aria-multiselectable', 'true');
    this.scroller.setAttribute('aria-label', l10n.t('Result table'));
    this.scroller.style.setProperty('--row-line', `${rowHeight}px`);
    this.sizer = document.createElement('div');
    this.sizer.className = 'sizer';
    this.headerRow = document.createElement('div');
    this.headerRow.className = 'hrow';
    this.headerRow.setAttribute('role', 'row');
    this.headerRow.setAttribute('aria-rowindex', String(ariaRowIndex(-1)));
    this.headerRow.style.height = `${headerHeight}px`;
    this.headerPin = document.createElement('div');
    this.headerPin.className = 'pin';
    this.headerPin.setAttribute('role', 'presentation');
    this.corner = document.createElement('div');
    this.corner.className = 'gutter hcell corner';
    this.corner.setAttribute('role', 'columnheader');
    this.corner.setAttribute('aria-colindex', '1');
    this.corner.textContent = '#';
    this.corner.title = l10n.t('Row number (click to select everything)');
    this.headerPin.appendChild(this.corner);
    this.headerPad = document.createElement('div');
    this.headerPad.className = 'pad';
    this.headerRow.append(this.headerPin, this.headerPad);
    this.sizer.appendChild(this.headerRow);
    this.scroller.appendChild(this.sizer);
    parent.appendChild(this.scroller);

    this.scroller.addEventListener('scroll', () => this.schedule(), { passive: true });
    new ResizeObserver(() => this.schedule()).observe(this.scroller);
    new GridInput(this, this.sizer, model, host);
  }

  /** Redraws on the next frame (coalesced). */
  schedule(): void {
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      this.render();
    });
  }

  /** Forgets every rendered row (after the columns or the rows changed meaning). */
  reset(): void {
    for (const [r, v] of this.rows) {
      this.rows.delete(r);
      v.el.remove();
      this.pool.push(v);
    }
    this.sizerKey = '';
    this.clampActive();
    this.schedule();
  }

  get displayed(): number[] {
    return this.model.displayed;
  }

  /** The selected rectangle (view rows, display indexes), inclusive; the header row is never part of it. */
  get selection(): Selection {
    const r0 = Math.max(0, Math.min(this.anchor.row, this.active.row));
    const r1 = Math.max(0, this.anchor.row, this.active.row);
    const c0 = Math.min(this.anchor.col, this.active.col);
    const c1 = Math.max(this.anchor.col, this.active.col);
    return { rows: [r0, r1], cols: [c0, c1] };
  }

  get visibleRowCount(): number {
    return Math.max(1, Math.floor(this.axis.visibleRows));
  }

  /** Moves the active cell (and the anchor, unless extending), scrolls it into view and redraws. */
  moveTo(row: number, col: number, extend = false): void {
    const n = this.host.rowCount;
    const d = this.model.shownCount;
    this.active = { row: Math.max(-1, Math.min(n - 1, row)), col: Math.max(0, Math.min(d - 1, col)) };
    if (!extend || this.active.row < 0) this.anchor = this.active;
    this.reveal(this.active);
    this.render();
    this.host.activeChanged();
  }

  /** Selects whole rows or columns, or everything. */
  selectRect(rows: [number, number], cols: [number, number]): void {
    this.anchor = { row: rows[0], col: cols[0] };
    this.active = { row: rows[1], col: cols[1] };
    this.render();
    this.host.activeChanged();
  }

  /** The width the row gutter and the pinned columns take: what never scrolls sideways. */
  get fixedWidth(): number {
    return this.gutterWidth + this.pinnedWidth;
  }

  /** Scrolls so that a cell shows whole. */
  reveal(pos: CellPos): void {
    const P = this.model.pinnedColumns.length;
    if (pos.row >= 0) {
      const top = this.axis.scrollToShow(pos.row, this.scroller.scrollTop);
      if (Math.abs(top - this.scroller.scrollTop) > 0.5) this.scroller.scrollTop = top;
    }
    if (pos.col >= P) {
      const width = this.scroller.clientWidth - this.gutterWidth - this.pinnedWidth;
      const left = this.cols.scrollToShow(pos.col - P, this.scroller.scrollLeft, width);
      if (Math.abs(left - this.scroller.scrollLeft) > 0.5) this.scroller.scrollLeft = left;
    }
  }

  /** Scrolls so that view row r is at the top. */
  scrollToRow(r: number): void {
    this.scroller.scrollTop = this.axis.scrollForTop(r);
  }

  /** The client rectangle of a rendered cell, for anchoring a menu. */
  cellRect(pos: CellPos): DOMRect | undefined {
    const el = pos.row < 0 ? this.headerCellEl(pos.col) : this.cellEl(pos);
    return el?.getBoundingClientRect();
  }

  /** Column (source index) at a display index. */
  columnAt(col: number): number | undefined {
    return this.displayed[col];
  }

  /** Every grid cell in the DOM now: data cells, headers and row numbers. */
  cellCount(): number {
    return this.scroller.querySelectorAll('[role=gridcell],[role=columnheader],[role=rowheader]').length;
  }

  /** The rows rendered now, in order, with the text of their cells as shown (pinned first). */
  renderedRows(): { first: number; rows: string[][] } {
    const list = [...this.rows.values()].sort((a, b) => a.row - b.row);
    return { first: list[0]?.row ?? 0, rows: list.map((v) => [...v.pinCells, ...v.cells].map((c) => c.el.textContent ?? '')) };
  }

  renderedHeaders(): string[] {
    return [...this.headerPinCells, ...this.headerCells].map((h) => h.name.textContent ?? '');
  }

  render(): void {
    const started = performance.now();
    this.draw();
    if (renderTimes.length >= RENDER_TIMES) renderTimes.shift();
    renderTimes.push(performance.now() - started);
  }

  private draw(): void {
    const model = this.model;
    const n = this.host.rowCount;
    const pinned = model.pinnedColumns;
    const scrolling = model.scrollingColumns;
    const P = pinned.length;
    this.gutterWidth = Math.ceil(this.digitWidth * Math.max(3, String(n).length + 1)) + 16;
    this.pinnedWidth = pinned.reduce((s, c) => s + model.width(c), 0);
    this.cols = new ColumnAxis(scrolling.map((c) => model.width(c)));
    const left = this.gutterWidth + this.pinnedWidth;

    // Read the geometry first, then write.
    const clientW = this.scroller.clientWidth;
    const clientH = this.scroller.clientHeight;
    this.axis = new RowAxis(n, this.rowHeight, Math.max(0, clientH - this.headerHeight));
    const totalW = left + this.cols.total;
    const totalH = this.headerHeight + this.axis.height;
    const key = `${totalW}x${totalH}`;
    if (key !== this.sizerKey) {
      this.sizerKey = key;
      this.sizer.style.width = `${totalW}px`;
      this.sizer.style.height = `${totalH}px`;
    }
    const st = this.scroller.scrollTop;
    const sl = this.scroller.scrollLeft;
    const [r0, r1] = this.axis.range(st, OVERSCAN_ROWS);
    const [c0, c1] = this.cols.range(sl, clientW - left, OVERSCAN_COLS);

    const src: CellSource = { host: this.host, model, active: this.active };
    const counts = gridCounts(n, model.shownCount);
    this.scroller.setAttribute('aria-rowcount', String(counts.rowcount));
    this.scroller.setAttribute('aria-colcount', String(counts.colcount));
    document.getElementById(ACTIVE_ID)?.removeAttribute('id');

    // Only while pinned columns cover the scrolling ones' left edge.
    const under = P > 0 ? this.cols.covered(sl) : undefined;
    const covered = under ? { col: P + under.column, px: under.px } : undefined;

    // Header.
    this.corner.style.width = `${this.gutterWidth}px`;
    syncHeader(src, this.headerPin, this.headerPinCells, pinned, 0);
    this.headerPad.style.width = `${this.cols.start(c0)}px`;
    syncHeader(src, this.headerRow, this.headerCells, scrolling.slice(c0, c1), P + c0, covered);

    // Body rows: recycle the ones that left, place the ones that came.
    for (const [r, v] of this.rows) {
      if (r < r0 || r >= r1) {
        this.rows.delete(r);
        v.el.remove();
        this.pool.push(v);
      }
    }
    const sel = this.selection;
    const visibleScrolling = scrolling.slice(c0, c1);
    for (let r = r0; r < r1; r++) {
      let v = this.rows.get(r);
      if (!v) {
        v = this.pool.pop() ?? makeRow(this.rowHeight);
        v.row = r;
        v.top = -1;
        this.rows.set(r, v);
        this.sizer.appendChild(v.el);
      }
      const top = this.headerHeight + this.axis.rowY(r, st);
      if (v.top !== top) {
        v.top = top;
        v.el.style.top = `${top}px`;
        v.el.setAttribute('aria-rowindex', String(ariaRowIndex(r)));
        v.el.classList.toggle('odd', r % 2 === 1);
      }
      const gutterText = formatCount(r + 1);
      if (v.gutterText !== gutterText) {
        v.gutterText = gutterText;
        v.gutter.textContent = gutterText;
      }
      v.gutter.style.width = `${this.gutterWidth}px`;
      v.gutter.classList.toggle('sel', r >= sel.rows[0] && r <= sel.rows[1] && this.active.row >= 0);
      syncCells(src, v.pin, v.pinCells, pinned, 0, r, sel);
      v.pad.style.width = `${this.cols.start(c0)}px`;
      syncCells(src, v.el, v.cells, visibleScrolling, P + c0, r, sel, covered);
    }
    if (this.active.row < 0) this.headerCellEl(this.active.col)?.setAttribute('id', ACTIVE_ID);
    if (document.getElementById(ACTIVE_ID)) this.scroller.setAttribute('aria-activedescendant', ACTIVE_ID);
    else this.scroller.removeAttribute('aria-activedescendant');

    // Data: what shows plus a margin, for the pinned and nearby columns.
    const f0 = Math.max(0, r0 - PREFETCH_ROWS);
    const f1 = Math.min(n, r1 + PREFETCH_ROWS);
    const wanted = [...pinned, ...scrolling.slice(Math.max(0, c0 - PREFETCH_COLS), c1 + PREFETCH_COLS)];
    if (n > 0 && wanted.length > 0) this.host.ensure(f0, f1, wanted);
  }

  // ------------------------------------------------------------------------------------------

  private headerCellEl(col: number): HTMLElement | undefined {
    return [...this.headerPinCells, ...this.headerCells].find((h) => h.col === col)?.el;
  }

  private cellEl(pos: CellPos): HTMLElement | undefined {
    const v = this.rows.get(pos.row);
    return v ? [...v.pinCells, ...v.cells].find((c) => c.col === pos.col)?.el : undefined;
  }

  private clampActive(): void {
    const n = this.host.rowCount;
    const col = this.model.moves(); // the same column, or the nearest still shown: not the same display index
    const clamp = (p: CellPos): CellPos => ({ row: Math.max(-1, Math.min(n - 1, p.row)), col: col(p.col) });
    this.active = clamp(this.active);
    this.anchor = clamp(this.anchor);
  }
}
