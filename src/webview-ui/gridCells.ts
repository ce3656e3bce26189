/**
 * The grid's recycled elements, apart from the scrolling that places them (grid.ts): making a body
 * row, and writing a row's data cells and the header's cells. Each view remembers what it last
 * wrote (text, tooltip, classes, width, inset), so a scroll or a selection change touches only the
 * attributes that changed, and a recycled element never keeps a stale id or tooltip. Text goes in
 * with textContent only.
 */
import type { ColumnModel } from './columns';
import { ariaColIndex } from './gridAria';
import type { CellPos, GridHost, Selection } from './gridTypes';
import { l10n } from '../shared/l10n';

/** The id of the active cell's element, for the grid's aria-activedescendant. */
export const ACTIVE_ID = 'grid-active-cell';
/** A cell's own left padding (table.css `.c`). */
const CELL_PADDING = 8;
/** A covered header's gap after the pinned edge: narrower than a cell's, as its right side keeps room for the menu. */
const HEADER_CUT_PADDING = 4;

/** What writing cells reads: the app's cells and headers, the columns' widths, the active cell. */
export interface CellSource {
  readonly host: GridHost;
  readonly model: ColumnModel;
  readonly active: CellPos;
}

/** Where the scrolling columns slide under the pinned ones: that display column, by px pixels. */
interface Covered {
  readonly col: number;
  readonly px: number;
}

interface CellView {
  readonly el: HTMLElement;
  col: number;
  text: string;
  title: string;
  cls: string;
  width: number;
  /** Pixels of the cell under the pinned columns (its text starts after them). */
  inset: number;
  /** The text is in an inner span (a covered cell: see coveredText). */
  wrapped: boolean;
}

export interface RowView {
  readonly el: HTMLElement;
  readonly pin: HTMLElement;
  readonly gutter: HTMLElement;
  readonly pad: HTMLElement;
  readonly pinCells: CellView[];
  readonly cells: CellView[];
  row: number;
  top: number;
  gutterText: string;
}

export interface HeaderCellView {
  readonly el: HTMLElement;
  readonly name: HTMLElement;
  readonly sort: HTMLElement;
  readonly filter: HTMLElement;
  col: number;
  key: string;
  width: number;
  inset: number;
}

/**
 * A cell's text: plain, or in a span isolated left-to-right when the cell is under the pinned
 * columns, whose right-to-left box puts the ellipsis on the left without moving a sign or a %.
 */
function writeText(el: HTMLElement, text: string, wrap: boolean): void {
  if (!wrap) {
    el.textContent = text;
    return;
  }
  const span = document.createElement('span');
  span.className = 'cut';
  span.textContent = text;
  el.replaceChildren(span);
}

/** A body row: its pinned part (the row number, then the pinned cells) and the scrolling cells after a pad. */
export function makeRow(rowHeight: number): RowView {
  const el = document.createElement('div');
  el.className = 'row';
  el.setAttribute('role', 'row');
  el.style.height = `${rowHeight}px`;
  const pin = document.createElement('div');
  pin.className = 'pin';
  pin.setAttribute('role', 'presentation');
  const gutter = document.createElement('div');
  gutter.className = 'gutter';
  gutter.setAttribute('role', 'rowheader');
  gutter.setAttribute('aria-colindex', '1');
  pin.appendChild(gutter);
  const pad = document.createElement('div');
  pad.className = 'pad';
  el.append(pin, pad);
  return { el, pin, gutter, pad, pinCells: [], cells: [], row: -1, top: -1, gutterText: '' };
}

/** Writes view row r's cells for these columns (display indexes from firstDisplay), adding or removing elements to match. */
export function syncCells(src: CellSource, parent: HTMLElement, list: CellView[], columns: readonly number[], firstDisplay: number, r: number, sel: Selection, covered?: Covered): void {
  while (list.length > columns.length) list.pop()?.el.remove();
  while (list.length < columns.length) {
    const el = document.createElement('div');
    el.setAttribute('role', 'gridcell');
    parent.appendChild(el);
    list.push({ el, col: -1, text: '\u0000', title: '', cls: '', width: -1, inset: 0, wrapped: false });
  }
  const inRows = src.active.row >= 0 && r >= sel.rows[0] && r <= sel.rows[1];
  for (let j = 0; j < columns.length; j++) {
    const c = columns[j] ?? 0;
    const cv = list[j] as CellView;
    const d = firstDisplay + j;
    const raw = src.host.cell(r, c);
    const shown = raw === undefined ? { text: '' } : src.host.display(c, raw);
    const text = shown.text;
    const title = shown.title ?? '';
    const selected = inRows && d >= sel.cols[0] && d <= sel.cols[1];
    const isActive = r === src.active.row && d === src.active.col;
    const inset = covered?.col === d ? covered.px : 0;
    const cls = `c${src.host.numeric(c) ? ' num' : ''}${shown.tone ? ` ${shown.tone}` : ''}${inset > 0 ? ' under-pin' : ''}${raw === undefined ? ' loading' : ''}${selected ? ' sel' : ''}${isActive ? ' active' : ''}`;
    if (cv.col !== d) {
      cv.col = d;
      cv.el.setAttribute('aria-colindex', String(ariaColIndex(d)));
      cv.el.dataset.d = String(d);
    }
    const wrap = inset > 0;
    if (cv.text !== text || cv.wrapped !== wrap) {
      cv.text = text;
      cv.wrapped = wrap;
      writeText(cv.el, text, wrap);
    }
    if (cv.title !== title) {
      cv.title = title;
      if (title) cv.el.title = title;
      else cv.el.removeAttribute('title');
    }
    // A column sliding under the pinned ones shows what is right of the pinned edge, in its own
    // alignment, cut on the left with an ellipsis (table.css .under-pin): "…795.50", never a bare
    // tail or first digit that would read as another number (issue 35 item 5).
    if (cv.inset !== inset) {
      cv.inset = inset;
      cv.el.style.paddingLeft = inset > 0 ? `${inset + CELL_PADDING}px` : '';
    }
    if (cv.cls !== cls) {
      cv.cls = cls;
      cv.el.className = cls;
      cv.el.setAttribute('aria-selected', String(selected));
    }
    const w = src.model.width(c);
    if (cv.width !== w) {
      cv.width = w;
      cv.el.style.width = `${w}px`;
    }
    // Recycled elements keep their attributes: the id goes exactly where the active cell is.
    if (isActive) cv.el.id = ACTIVE_ID;
    else if (cv.el.id) cv.el.removeAttribute('id');
  }
}

/** Writes the header cells of these columns (display indexes from firstDisplay): name, sort, filter mark, width. */
export function syncHeader(src: CellSource, parent: HTMLElement, list: HeaderCellView[], columns: readonly number[], firstDisplay: number, covered?: Covered): void {
  while (list.length > columns.length) list.pop()?.el.remove();
  while (list.length < columns.length) {
    const el = document.createElement('div');
    el.className = 'hcell';
    el.setAttribute('role', 'columnheader');
    const name = document.createElement('span');
    name.className = 'hname';
    // The name in its own left-to-right span: under the pinned columns the box turns right-to-left
    // (the ellipsis on the left) and the name must read as written.
    const nameText = document.createElement('span');
    nameText.className = 'cut';
    name.appendChild(nameText);
    const sort = document.createElement('span');
    sort.className = 'hsort';
    sort.setAttribute('aria-hidden', 'true');
    const filter = document.createElement('span');
    filter.className = 'hfilter';
    filter.setAttribute('aria-hidden', 'true');
    const menu = document.createElement('span');
    menu.className = 'hmenu';
    menu.textContent = '⋮';
    menu.title = l10n.t('Column actions (Enter)');
    menu.setAttribute('aria-hidden', 'true');
    const resize = document.createElement('span');
    resize.className = 'rsz';
    resize.setAttribute('aria-hidden', 'true');
    el.append(name, sort, filter, menu, resize);
    parent.appendChild(el);
    list.push({ el, name: nameText, sort, filter, col: -1, key: '', width: -1, inset: 0 });
  }
  for (let j = 0; j < columns.length; j++) {
    const c = columns[j] ?? 0;
    const hv = list[j] as HeaderCellView;
    const d = firstDisplay + j;
    const h = src.host.header(c);
    const isActive = src.active.row < 0 && d === src.active.col;
    if (!isActive && hv.el.id) hv.el.removeAttribute('id');
    const key = `${d}|${h.name}|${h.sort ?? ''}|${h.filtered}|${isActive}|${src.host.numeric(c)}`;
    if (hv.key !== key) {
      hv.key = key;
      hv.col = d;
      hv.el.dataset.d = String(d);
      hv.el.setAttribute('aria-colindex', String(ariaColIndex(d)));
      hv.name.textContent = h.name;
      hv.el.title = h.title;
      hv.sort.textContent = h.sort ?? '';
      hv.filter.textContent = h.filtered ? '●' : '';
      hv.el.classList.toggle('num', src.host.numeric(c));
      hv.el.classList.toggle('sorted', h.sort !== undefined);
      hv.el.classList.toggle('filtered', h.filtered);
      hv.el.classList.toggle('active', isActive);
      if (h.sortDirection) hv.el.setAttribute('aria-sort', h.sortDirection);
      else hv.el.removeAttribute('aria-sort');
    }
    const w = src.model.width(c);
    if (hv.width !== w) {
      hv.width = w;
      hv.el.style.width = `${w}px`;
    }
    const inset = covered?.col === d ? covered.px : 0;
    if (hv.inset !== inset) {
      hv.inset = inset;
      hv.el.style.paddingLeft = inset > 0 ? `${inset + HEADER_CUT_PADDING}px` : '';
      hv.el.classList.toggle('under-pin', inset > 0);
    }
  }
}
