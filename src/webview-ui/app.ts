/**
 * The table page: toolbar (file switcher, search, row count, columns, number format, export),
 * sort/filter chips, file notices, progress, the grid and a status line. Holds the view state the
 * host sent, the cells it asked for (CellCache), and turns the person's actions into requests.
 */
import type { ColumnFilter, TableNotice, ViewQuery, ViewState } from '../shared/tableProtocol';
import type { ColumnInfo, ProbeState, TableMeta, UiMessage } from '../shared/tableUiProtocol';
import { TableActions } from './actions';
import { FilterChips } from './chips';
import { showColumnChooser } from './columnChooser';
import { ColumnMenus } from './columnMenus';
import { ColumnModel } from './columns';
import { el } from './dom';
import { closeFilterEditor } from './filterEditor';
import { effectiveFormat, formatCell } from './format';
import { Grid, type GridHost, type HeaderView } from './grid';
import type { Host } from './host';
import { closeMenu } from './menu';
import { NoticeList, ProgressBar, StatusLine } from './notices';
import { PlaceMemory, positionText } from './position';
import { busyLabel, headerView, nextSort, shapesRows, withFilter } from './tableQuery';
import { Toolbar } from './toolbar';
import { WindowFeed } from './windowFeed';

interface Init {
  readonly title: string;
  readonly kind: 'csv' | 'txt' | 'json';
  readonly columns: readonly string[];
  readonly view: ViewState;
  readonly notices: readonly TableNotice[];
}

/** Font metrics of the page, measured once. */
function measure(): { digit: number; ui: number; rowHeight: number } {
  const probe = (className: string, text: string): number => {
    const s = el('span', { className, text });
    s.style.position = 'absolute';
    s.style.visibility = 'hidden';
    s.style.whiteSpace = 'pre';
    document.body.appendChild(s);
    const w = s.getBoundingClientRect().width;
    const h = s.getBoundingClientRect().height;
    s.remove();
    return w / text.length || (h > 0 ? h * 0.6 : 8);
  };
  const digit = probe('measure-cell', '0123456789');
  const ui = probe('measure-ui', 'abcdefghijklmnopqrstuvwxyz_0123456789');
  const size = parseFloat(getComputedStyle(document.body).getPropertyValue('--vscode-editor-font-size')) || 13;
  return { digit, ui, rowHeight: Math.max(20, Math.round(size * 1.25) + 6) };
}

export class App implements GridHost {
  private init: Init | undefined;
  private meta: TableMeta | undefined;
  private view: ViewState | undefined;
  private model: ColumnModel | undefined;
  private grid: Grid | undefined;
  private readonly feed: WindowFeed;
  private pendingQuery: { id: number; query: ViewQuery } | undefined;
  private saveTimer = 0;
  private readonly place: PlaceMemory;
  private metrics = measure();
  // Page parts.
  private readonly toolbar = new Toolbar({
    search: (text) => this.setQuery({ ...this.query(), search: text }),
    focusGrid: () => this.grid?.scroller.focus(),
    switchFile: (file) => this.actions.switchFile(file),
    openChooser: () => this.openChooser(),
    formatChanged: () => this.layoutChanged(),
    export: () => this.actions.export(),
    openRaw: () => this.host.post({ type: 'openRaw' }),
  });
  private readonly chips = new FilterChips({
    query: () => this.query(),
    setQuery: (q) => this.setQuery(q),
    setFilter: (column, f) => this.setFilter(column, f),
    clearSearch: () => this.clearSearch(),
    clearAll: () => {
      this.toolbar.clearSearch();
      this.setQuery({});
    },
    columnName: (c) => this.model?.info[c]?.name ?? String(c),
  });
  private readonly notices = new NoticeList((row) => this.goToRow(row));
  private readonly progress = new ProgressBar();
  private readonly gridBox = el('div', { className: 'grid-box' });
  private readonly status = new StatusLine();
  private readonly actions: TableActions;
  private readonly menus: ColumnMenus;

  constructor(
    private readonly root: HTMLElement,
    private readonly host: Host,
  ) {
    this.feed = new WindowFeed(host, {
      version: () => this.view?.version,
      hasGrid: () => this.grid !== undefined,
      redraw: () => this.grid?.schedule(),
      failed: (message) => this.showError(message),
    });
    this.place = new PlaceMemory(host, () => (this.grid && this.meta ? { grid: this.grid, file: this.meta.file } : undefined));
    this.actions = new TableActions(this.host, this.progress, this.status, {
      raw: (row, column) => this.feed.get(row, column),
      columnName: (column) => this.model?.info[column]?.name,
      shownColumns: () => this.model?.displayed ?? [],
      focusGrid: () => this.grid?.scroller.focus({ preventScroll: true }),
      exportingChanged: (on) => this.toolbar.setExporting(on),
      showError: (text) => this.showError(text),
    });
    this.menus = new ColumnMenus(
      {
        grid: () => this.grid,
        model: () => this.model,
        rowCount: () => this.rowCount,
        raw: (row, column) => this.feed.get(row, column),
        query: () => this.query(),
        setQuery: (q) => this.setQuery(q),
        setFilter: (column, f) => this.setFilter(column, f),
        layoutChanged: () => this.layoutChanged(),
        openChooser: () => this.openChooser(),
      },
      this.actions,
    );
    root.textContent = ''; // the page's own "Opening…" line, shown until this script ran
    root.append(this.toolbar.el, this.chips.el, this.notices.el, this.progress.el, this.gridBox, this.status.el);
    this.gridBox.appendChild(el('div', { className: 'placeholder', text: 'Opening…' }));
  }

  // ---- messages from the host --------------------------------------------------------------

  receive(m: UiMessage): void {
    if (this.host.route(m)) return;
    switch (m.type) {
      case 'init':
        performance.mark('wa:init');
        this.init = m;
        this.view = m.view;
        this.notices.set(m.notices);
        this.meta = undefined;
        this.feed.clear();
        return;
      case 'window':
        this.feed.first(m.window);
        return;
      case 'meta':
        performance.mark('wa:meta');
        this.meta = m.meta;
        this.build();
        return;
      case 'view':
        this.onView(m.view);
        return;
      case 'progress':
        if (m.progress.task === 'index') this.progress.index(m.progress.done, m.progress.total, this.view?.total ?? 0);
        return;
      case 'notices':
        this.notices.set(m.notices);
        this.notices.render();
        return;
      case 'failed':
        this.showError(m.message);
        return;
      case 'probe':
        if (this.meta?.test) this.host.post({ type: 'probeState', requestId: m.requestId, state: this.probeState() });
        return;
      case 'exportShown':
        if (this.meta) this.actions.export();
        return;
      default:
        return;
    }
  }

  // ---- GridHost ----------------------------------------------------------------------------

  get rowCount(): number {
    return this.view?.length ?? 0;
  }

  cell(row: number, column: number): string | undefined {
    return this.feed.get(row, column);
  }

  display(column: number, text: string): string {
    const m = this.model;
    if (!m) return text;
    return formatCell(text, effectiveFormat(m.info[column], m.formats.get(column), m.defaultFormat));
  }

  numeric(column: number): boolean {
    return this.model?.info[column]?.numeric ?? false;
  }

  header(column: number): HeaderView {
    return headerView(this.model?.info[column], column, this.query());
  }

  ensure(first: number, last: number, columns: readonly number[]): void {
    if (this.view) this.feed.ensure(first, last, columns, this.view.length);
  }

  sortClick(column: number, add: boolean): void {
    this.setQuery({ ...this.query(), sort: nextSort(this.query().sort ?? [], column, add) });
  }

  cellMenu(row: number, column: number, x: number, y: number): void {
    this.menus.cell(row, column, x, y);
  }

  headerMenu(column: number, x: number, y: number): void {
    this.menus.header(column, x, y);
  }

  copy(): void {
    if (this.grid) this.actions.copySelection(this.grid, this.rowCount);
  }

  resized(column: number, width: number, done: boolean): void {
    this.model?.setWidth(column, width);
    this.grid?.schedule();
    if (done) this.layoutChanged();
  }

  activeChanged(): void {
    const grid = this.grid;
    const model = this.model;
    if (!grid || !model) return;
    const c = grid.columnAt(grid.active.col);
    this.status.position(positionText(grid, c === undefined ? '' : (model.info[c]?.name ?? ''), this.rowCount));
    this.place.saveSoon();
  }

  // ---- building the page -------------------------------------------------------------------

  private build(): void {
    const init = this.init;
    const meta = this.meta;
    if (!init || !meta) return;
    closeMenu();
    closeFilterEditor();
    this.feed.resetPainted();
    this.metrics = measure();
    const { digit, ui } = this.metrics;
    const info: ColumnInfo[] = init.columns.map((name, i) => meta.columns[i] ?? { name, numeric: false });
    const model = new ColumnModel(info, (c) => {
      const nameW = c.name.length * ui + 44;
      const chars = c.address ? (c.address === 'alt' ? 42 : 44) : c.numeric ? 15 : Math.max(6, c.chars ?? 20);
      return Math.round(Math.min(440, Math.max(72, nameW, chars * digit + 20)));
    });
    if (meta.layout) model.applyLayout(meta.layout);
    this.model = model;
    this.notices.resetDismissed();
    this.toolbar.build(meta, model, this.query().search ?? '', this.actions.exporting);
    this.gridBox.textContent = '';
    const rh = this.metrics.rowHeight;
    this.grid = new Grid(this.gridBox, model, this, rh, rh + 6, digit);
    this.grid.scroller.setAttribute('aria-label', `${init.title}: ${init.view.countLabel}`);
    this.grid.scroller.addEventListener('scroll', () => this.place.saveSoon(), { passive: true });
    this.onView(init.view, true);
    this.notices.render();
    this.chips.render();
    this.grid.render();
    this.place.restore(this.grid, meta.file);
    this.grid.schedule();
    this.activeChanged();
    this.grid.scroller.focus({ preventScroll: true });
    performance.mark('wa:built');
    if (this.feed.size > 0) this.feed.markPainted();
  }

  private openChooser(): void {
    const model = this.model;
    const meta = this.meta;
    const button = this.toolbar.columnsButton;
    if (!model || !meta || !button) return;
    showColumnChooser({ model, timeframes: meta.timeframes, groups: meta.metricGroups, returnFocus: this.grid?.scroller ?? button, changed: () => this.layoutChanged() });
  }

  /** Columns changed (shown, pinned, widths, formats): redraw and remember for this endpoint. */
  private layoutChanged(): void {
    if (this.model) this.toolbar.updateColumns(this.model);
    this.grid?.reset();
    clearTimeout(this.saveTimer);
    this.saveTimer = window.setTimeout(() => {
      if (this.model) this.host.post({ type: 'saveLayout', layout: this.model.toLayout() });
    }, 400);
  }

  // ---- queries -----------------------------------------------------------------------------

  /** The query in force, or the one being applied. */
  private query(): ViewQuery {
    return this.pendingQuery?.query ?? this.view?.query ?? {};
  }

  private setFilter(column: number, f: ColumnFilter | undefined): void {
    this.setQuery(withFilter(this.query(), column, f));
  }

  private setQuery(query: ViewQuery): void {
    if (this.pendingQuery) this.host.cancel(this.pendingQuery.id);
    const p = this.host.ask({ type: 'setQuery', query }, (pr) => this.progress.task(pr.task === 'search' ? 'Searching every cell' : 'Reading column values', pr.done, pr.total));
    this.pendingQuery = { id: p.id, query };
    this.progress.setBusy(busyLabel(query));
    this.chips.render();
    this.grid?.render();
    const started = performance.now();
    void p.reply.then((r) => {
      if (this.pendingQuery?.id !== p.id) return; // a later query replaced it
      this.pendingQuery = undefined;
      this.progress.setBusy(undefined);
      if (r.type === 'queryApplied' && r.view.version === this.view?.version) {
        this.status.say(`${r.view.countLabel} (${Math.round(performance.now() - started)} ms).`);
      } else if (r.type === 'queryApplied') {
        this.feed.clear();
        this.onView(r.view, true);
        this.grid?.scrollToRow(0);
        if (this.grid) this.grid.active = { row: Math.min(0, r.view.length - 1), col: this.grid.active.col };
        if (this.grid) this.grid.anchor = this.grid.active;
        this.grid?.reset();
        this.activeChanged();
        this.status.say(`${r.view.countLabel} (${Math.round(performance.now() - started)} ms).`);
      } else if (r.type === 'failed' && !r.cancelled) this.showError(r.message);
      this.chips.render();
      this.grid?.render();
    });
  }

  /**
   * A view state: from init or the reply to our own query (`replace`), or pushed by the host: more
   * rows indexed (same version), or a query applied that this page did not ask for (a newer version:
   * the rows mean something else now, so the cells held are dropped).
   */
  private onView(v: ViewState, replace = false): void {
    const current = this.view;
    if (!replace && current && v.version !== current.version) {
      if (v.version < current.version) return;
      this.view = v;
      this.feed.clear();
      this.grid?.reset();
      this.grid?.scrollToRow(0);
      this.toolbar.showSearch(v.query.search ?? '');
      this.chips.render();
    }
    this.view = v;
    this.toolbar.countLabel = v.countLabel;
    this.activeChanged();
    this.grid?.scroller.setAttribute('aria-label', `${this.init?.title ?? 'Table'}: ${v.countLabel}`);
    this.grid?.schedule();
  }

  // ---- search, notices, errors, saved state -------------------------------------------------

  private clearSearch(): void {
    this.toolbar.clearSearch();
    this.setQuery({ ...this.query(), search: '' });
  }

  /** A notice's "Go to row": row (1-based) of the file, which is the view's row only while nothing sorts, filters or searches. */
  private goToRow(row: number): void {
    if (shapesRows(this.query())) {
      this.status.say('Clear the sort, filters and search to go to a row of the file.');
      return;
    }
    this.grid?.moveTo(row - 1, this.grid.active.col);
    this.grid?.scroller.focus();
  }

  private showError(text: string): void {
    this.status.error(text);
    if (!this.grid) {
      this.gridBox.textContent = '';
      this.gridBox.appendChild(el('div', { className: 'placeholder error', role: 'alert', text }));
    }
  }

  private probeState(): ProbeState {
    const grid = this.grid;
    const rendered = grid?.renderedRows() ?? { first: 0, rows: [] };
    return {
      countLabel: this.toolbar.countLabel,
      headers: grid?.renderedHeaders() ?? [],
      rows: rendered.rows,
      firstRow: rendered.first,
      cellCount: grid?.cellCount() ?? 0,
      notices: this.notices.texts(),
    };
  }
}
