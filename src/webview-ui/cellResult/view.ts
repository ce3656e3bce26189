/**
 * One pipeline cell's result in the notebook: its status line, a small table of one page of rows,
 * the pager and "Open as Table". Built with textContent only (a CSV cell is text, never markup);
 * coloured by the theme's variables; every control a native button, so Tab reaches it. Pages come
 * from the host (the table engine's worker reads them: vscode/pipeline/cellResultMessaging.ts);
 * without messaging (a read-only view of the notebook) the first page shows and the pager is off.
 */
import { pageStart, PAGE_ROWS, type CellResult, type CellResultReply, type CellResultRequest } from '../../shared/cellResultProtocol';
import { button, el } from '../dom';
import { cellShown, columnsNote, pageLabel, statusLine } from './cells';
import { l10n } from '../../shared/l10n';
import { thousands } from '../../core/numberText';

/** How a view asks the host; undefined when the renderer has no messaging. */
export interface PageChannel {
  /** Sends a page request; the reply comes to `onReply` of the view that asked. */
  request(view: CellResultView, make: (requestId: number) => CellResultRequest): void;
  post(message: CellResultRequest): void;
}

const STYLE_ID = 'wa-cell-result-style';
/*
 * Gains and losses are the theme's chart colours mixed with a quarter of its text colour: on a
 * notebook's striped rows the plain ones are under the 4.5:1 text needs (axe in pipeline.test.ts:
 * Light Modern's green 3.96:1 and red 4.34:1 on #f5f5f5, Dark Modern's red 4.18:1 on #272727).
 * The mix keeps the hue and raises the contrast in light and dark themes alike (table.css does the
 * same for the green of light themes). In high contrast the header row is on the editor's own
 * background: the header background the other themes use is a light grey there (#b9b9b9 under
 * white text in Dark High Contrast, 1.96:1), and the theme's contrast border sets it apart.
 */
const CSS = `
.wa-cr { font-family: var(--vscode-font-family); font-size: var(--vscode-font-size, 13px); color: var(--vscode-foreground); padding: 4px 0; }
.wa-cr-status { margin: 0 0 6px; }
.wa-cr-status strong { font-weight: 600; }
.wa-cr-wrap { overflow-x: auto; max-width: 100%; border: 1px solid var(--vscode-notebook-cellBorderColor, var(--vscode-panel-border, transparent)); }
.wa-cr-wrap:focus { outline: 1px solid var(--vscode-focusBorder); outline-offset: -1px; }
.wa-cr table { border-collapse: collapse; font-family: var(--vscode-editor-font-family, monospace); font-size: var(--vscode-editor-font-size, 12px); }
.wa-cr th, .wa-cr td { padding: 2px 8px; border-bottom: 1px solid var(--vscode-notebook-cellBorderColor, var(--vscode-panel-border, transparent)); white-space: nowrap; max-width: 32em; overflow: hidden; text-overflow: ellipsis; text-align: left; }
.wa-cr th { font-weight: 600; background: var(--vscode-keybindingTable-headerBackground, var(--vscode-editor-inactiveSelectionBackground, transparent)); position: sticky; top: 0; }
body.vscode-high-contrast .wa-cr th { background: var(--vscode-editor-background); border-bottom-color: var(--vscode-contrastBorder, currentColor); }
.wa-cr td.num, .wa-cr th.num { text-align: right; font-variant-numeric: tabular-nums; }
.wa-cr td.rownum { color: var(--vscode-descriptionForeground); text-align: right; }
.wa-cr td.gain { color: color-mix(in srgb, var(--vscode-charts-green, var(--vscode-testing-iconPassed)) 75%, var(--vscode-foreground)); }
.wa-cr td.loss { color: color-mix(in srgb, var(--vscode-charts-red, var(--vscode-errorForeground)) 75%, var(--vscode-foreground)); }
.wa-cr-bar { display: flex; gap: 8px; align-items: center; margin-top: 6px; flex-wrap: wrap; }
.wa-cr-bar .wa-cr-label { color: var(--vscode-descriptionForeground); }
.wa-cr-note { color: var(--vscode-descriptionForeground); margin: 4px 0 0; }
.wa-cr-error { color: var(--vscode-errorForeground); }
.wa-cr button { font-family: inherit; font-size: inherit; padding: 2px 10px; border: 1px solid var(--vscode-button-border, transparent); border-radius: 2px; cursor: pointer;
  color: var(--vscode-button-secondaryForeground); background: var(--vscode-button-secondaryBackground); }
.wa-cr button:hover:not(:disabled) { background: var(--vscode-button-secondaryHoverBackground); }
.wa-cr button.primary { color: var(--vscode-button-foreground); background: var(--vscode-button-background); }
.wa-cr button.primary:hover:not(:disabled) { background: var(--vscode-button-hoverBackground); }
.wa-cr button:focus-visible { outline: 1px solid var(--vscode-focusBorder); outline-offset: 2px; }
.wa-cr button:disabled { opacity: 0.5; cursor: default; }
`;

/** Adds the renderer's style sheet to the page once (as text: a style element's textContent). */
function ensureStyle(doc: Document): void {
  if (doc.getElementById(STYLE_ID)) return;
  const s = doc.createElement('style');
  s.id = STYLE_ID;
  s.textContent = CSS;
  doc.head.appendChild(s);
}

/** How long a page may take (the engine opens the file in a worker first: seconds for a large one). */
const ANSWER_MS = 60_000;
const SCROLL_KEYS = new Set(['ArrowLeft', 'ArrowRight', 'Home', 'End']);

/**
 * The output's frame hands every key on to the notebook, where Enter edits the cell (and takes the
 * focus away, scrolling to it): Enter and Space on our buttons, and the sideways keys in the rows'
 * region, are this view's own, so they stop here (their default action, a press or a scroll, stays).
 */
function keepOwnKeys(e: KeyboardEvent): void {
  if (e.ctrlKey || e.metaKey || e.altKey) return;
  const t = e.target;
  const press = t instanceof HTMLButtonElement && (e.key === 'Enter' || e.key === ' ');
  const scroll = t instanceof HTMLElement && t.classList.contains('wa-cr-wrap') && SCROLL_KEYS.has(e.key);
  if (press || scroll) e.stopPropagation();
}

export class CellResultView {
  private start = 0;
  private rows: readonly (readonly string[])[];
  private pending: number | undefined;
  private readonly body: HTMLTableSectionElement;
  private readonly label: HTMLSpanElement;
  private readonly error: HTMLSpanElement;
  private readonly prev: HTMLButtonElement | undefined;
  private readonly next: HTMLButtonElement | undefined;

  constructor(
    private readonly root: HTMLElement,
    private readonly result: CellResult,
    private readonly channel: PageChannel | undefined,
  ) {
    ensureStyle(root.ownerDocument);
    this.rows = result.first;
    root.replaceChildren();
    const box = el('div', { className: 'wa-cr' });
    const [status, ...rest] = statusLine(result).split(' · ');
    box.appendChild(el('p', { className: 'wa-cr-status' }, [el('strong', { text: status ?? '' }), document.createTextNode(rest.length > 0 ? ` · ${rest.join(' · ')}` : '')]));
    if (result.file !== '') box.appendChild(el('p', { className: 'wa-cr-note', text: l10n.t('Result: {0}', result.file) }));
    const cut = columnsNote(result.columns.length, result.columnCount);
    if (cut) box.appendChild(el('p', { className: 'wa-cr-note', text: cut }));

    this.body = el('tbody');
    if (result.columns.length > 0) {
      const head = el('tr', {}, [el('th', { className: 'num', text: '#', attrs: { scope: 'col' } })]);
      for (const c of result.columns) {
        const th = el('th', { className: c.numeric ? 'num' : '', text: c.name, title: c.description ?? c.name, attrs: { scope: 'col' } });
        // As wide as the first rows' longest cell (the table's own measure), so a page does not shift the columns.
        if (c.chars !== undefined) th.style.minWidth = `${Math.min(c.chars, 40)}ch`;
        head.appendChild(th);
      }
      const table = el('table', { attrs: { 'aria-label': l10n.t('Result of {0}', result.cell) } }, [el('thead', {}, [head]), this.body]);
      // The table scrolls sideways; focusable, so the arrow keys scroll it.
      box.appendChild(el('div', { className: 'wa-cr-wrap', role: 'region', attrs: { tabindex: '0', 'aria-label': l10n.t('Rows of {0}', result.cell) } }, [table]));
    }
    box.addEventListener('keydown', keepOwnKeys);

    this.label = el('span', { className: 'wa-cr-label', attrs: { 'aria-live': 'polite' } });
    this.error = el('span', { className: 'wa-cr-error', attrs: { role: 'status' } });
    const bar = el('div', { className: 'wa-cr-bar' });
    const paged = result.rows > PAGE_ROWS && result.columns.length > 0;
    if (paged && channel) {
      this.prev = button(l10n.t('Previous'), () => this.go(this.start - PAGE_ROWS), { title: l10n.t('The previous {0} rows', PAGE_ROWS), attrs: { 'aria-label': l10n.t('Previous rows') } });
      this.next = button(l10n.t('Next'), () => this.go(this.start + PAGE_ROWS), { title: l10n.t('The next {0} rows', PAGE_ROWS), attrs: { 'aria-label': l10n.t('Next rows') } });
      bar.append(this.prev, this.next);
    }
    bar.appendChild(this.label);
    if (channel) bar.appendChild(button(l10n.t('Open as Table'), () => channel.post({ type: 'openTable', cell: result.cell }), { className: 'primary', title: l10n.t('Open the whole result in the table editor') }));
    bar.appendChild(this.error);
    box.appendChild(bar);
    root.appendChild(box);
    this.paint();
  }

  /** Columns a reply's rows may have (what this view shows). */
  get width(): number {
    return this.result.columns.length;
  }

  /** Asks the host for the page that starts at `start` (clamped); the reply repaints. */
  private go(start: number): void {
    const want = pageStart(start, this.result.rows);
    if (!this.channel || want === this.start || this.pending !== undefined) return;
    this.channel.request(this, (requestId) => {
      this.pending = requestId;
      // An extension that never answers (it was reloaded) must not leave the pager stuck.
      setTimeout(() => {
        if (this.pending !== requestId) return;
        this.pending = undefined;
        this.error.textContent = l10n.t('No answer from the extension: run the cell again, or use Open as Table.');
        this.paintButtons();
      }, ANSWER_MS);
      return { type: 'page', requestId, cell: this.result.cell, file: this.result.file, start: want };
    });
    this.paintButtons();
  }

  /** A reply from the host; one that is not the answer to this view's latest request is dropped. */
  onReply(reply: CellResultReply): void {
    if (reply.requestId !== this.pending || reply.cell !== this.result.cell) return;
    this.pending = undefined;
    if (reply.type === 'pageError') {
      this.error.textContent = reply.message;
      this.paintButtons();
      return;
    }
    this.error.textContent = '';
    this.start = reply.start;
    this.rows = reply.rows;
    this.paint();
  }

  private paint(): void {
    const cols = this.result.columns;
    const trs = this.rows.map((row, i) => {
      const tr = el('tr', {}, [el('td', { className: 'rownum', text: thousands(this.start + i + 1) })]);
      cols.forEach((info, c) => {
        const shown = cellShown(info, row[c] ?? '', this.result.colorGainsAndLosses);
        const cls = [info.numeric ? 'num' : '', shown.tone ?? ''].filter(Boolean).join(' ');
        tr.appendChild(el('td', { className: cls, text: shown.text, ...(shown.title !== undefined ? { title: shown.title } : {}) }));
      });
      return tr;
    });
    this.body.replaceChildren(...trs);
    this.label.textContent = cols.length > 0 ? pageLabel(this.start, this.rows.length, this.result.rows) : '';
    this.paintButtons();
  }

  /**
   * Previous and Next are off at either end. Not while a page is on its way: a disabled button
   * loses the keyboard's focus (a second press meanwhile is ignored by go()). One turned off with
   * the focus on it hands the focus to the other.
   */
  private paintButtons(): void {
    if (!this.prev || !this.next) return;
    const focused = this.root.ownerDocument.activeElement;
    this.prev.disabled = this.start === 0;
    this.next.disabled = this.start + PAGE_ROWS >= this.result.rows;
    if (focused === this.next && this.next.disabled) this.prev.focus();
    if (focused === this.prev && this.prev.disabled) this.next.focus();
    this.root.setAttribute('aria-busy', String(this.pending !== undefined));
  }

  dispose(): void {
    this.pending = undefined;
    this.root.replaceChildren();
  }
}
