/**
 * The table page's wiring and dispatcher: lays out its parts (toolbar, chips, notices, progress,
 * the grid and the status line), routes the host's messages to them, builds the column model and
 * grid once init and meta are in, opens the analysis panel beside the grid, and applies the queries the parts ask for. The parts hold their
 * own work: the window feed the cells, the menus and actions what a person does with them, the
 * state (state.ts) what they all read.
 */
import type { ColumnFilter, ViewQuery, ViewState } from '../shared/tableProtocol';
import type { ColumnInfo, ProbeState, UiMessage } from '../shared/tableUiProtocol';
import { TableActions } from './actions';
import { AnalysisPanel } from './analysisPanel';
import { CardView } from './card';
import { isWalletRow } from '../core/table/walletCard';
import { FilterChips } from './chips';
import { NoRowsMatch } from './noRows';
import { showColumnChooser } from './columnChooser';
import { ColumnMenus } from './columnMenus';
import { ColumnModel, naturalWidth } from './columns';
import { button, el, focusIfPageFocused, measureFont } from './dom';
import { closeFilterEditor } from './filterEditor';
import { Grid } from './grid';
import { queryAnnouncement } from './gridAria';
import { TableGridHost } from './gridHost';
import type { Host } from './host';
import { closeMenu } from './menu';
import { NoticeList, ProgressBar, StatusLine } from './notices';
import { PlaceMemory } from './position';
import { TableState, type PageControl, type PanelMode } from './state';
import { busyLabel, everyRow, shapesRows, withFilter } from './tableQuery';
import { Toolbar } from './toolbar';
import { WindowFeed } from './windowFeed';
import { l10n } from '../shared/l10n';

const LAYOUT_SAVE_DELAY_MS = 400;

export class App implements PageControl {
  private readonly state = new TableState();
  private readonly feed: WindowFeed;
  private readonly place: PlaceMemory;
  private readonly actions: TableActions;
  private readonly gridHost: TableGridHost;
  private saveTimer = 0;
  // Page parts, top to bottom.
  private readonly toolbar: Toolbar;
  private readonly chips: FilterChips;
  private readonly noRows: NoRowsMatch;
  private readonly notices = new NoticeList((row) => this.goToRow(row));
  private readonly progress = new ProgressBar();
  private readonly gridBox = el('div', { className: 'grid-box' });
  private readonly panel: AnalysisPanel;
  private readonly status = new StatusLine();
  private readonly card: CardView;
  /** The file whose one row opened as a card by default (once: "Show Table" then sticks). */
  private cardDefaultDone: string | undefined;
  /** The query in force before the host sent this file's page again (init), to say what changed once it is built. */
  private reinitFrom: ViewQuery | undefined;

  constructor(
    root: HTMLElement,
    private readonly host: Host,
  ) {
    const state = this.state;
    this.feed = new WindowFeed(host, {
      version: () => state.view?.version,
      hasGrid: () => state.grid !== undefined,
      redraw: () => state.grid?.schedule(),
      failed: (message) => this.showError(message),
    });
    this.place = new PlaceMemory(host, () => (state.grid && state.meta ? { grid: state.grid, file: state.meta.file, card: this.card.open ? this.card.row : undefined } : undefined));
    this.actions = new TableActions(host, state, this.feed, this.progress, this.status, {
      exportingChanged: (on) => this.toolbar.setExporting(on),
      showError: (text) => this.showError(text),
    });
    const menus = new ColumnMenus(state, this.feed, this, this.actions);
    this.gridHost = new TableGridHost(state, this.feed, this, { menus, actions: this.actions, status: this.status, place: this.place });
    this.toolbar = new Toolbar({
      search: (text) => this.setQuery({ ...state.query(), search: text }),
      focusGrid: () => state.grid?.scroller.focus(),
      switchFile: (file) => this.actions.switchFile(file),
      openChooser: () => this.openChooser(),
      formatChanged: () => this.layoutChanged(),
      export: () => this.actions.export(),
      openRaw: () => host.post({ type: 'openRaw' }),
      analyse: () => this.toggleAnalysis(),
      tableCommand: (command) => this.actions.act({ type: 'tableCommand', command }),
    });
    this.panel = new AnalysisPanel(host, state, this, this.actions, this.status);
    this.chips = new FilterChips(state, this);
    this.noRows = new NoRowsMatch(state, this);
    this.card = new CardView({
      showTable: () => this.closeCard(),
      openExplorer: (address, chain) => this.actions.act({ type: 'openExplorer', address, chain }),
      copyAddress: (address) => this.actions.act({ type: 'copyText', text: address, what: `address ${address}` }),
    });
    root.textContent = ''; // the page's own "Opening…" line, shown until this script ran
    const main = el('div', { className: 'main-row' }, [this.gridBox, this.card.el, this.panel.el]);
    // The page's first Tab stop skips the toolbar's controls (issue 35 item 9: 11 Tabs to the grid).
    const skip = button(l10n.t('Skip to the table'), () => this.focusMain(), { className: 'skip-link' });
    root.append(skip, this.toolbar.el, this.chips.el, this.notices.el, this.progress.el, main, this.status.el);
    // The workbench focusing the editor (Ctrl+1, a tab click) focuses this window; with nothing of
    // the page focused the arrows would do nothing, so the grid (or the open card) takes it.
    window.addEventListener('focus', () => {
      const a = document.activeElement;
      if (!a || a === document.body) this.focusMain();
    });
    this.gridBox.appendChild(el('div', { className: 'placeholder', text: l10n.t('Opening…') }));
  }

  // ---- messages from the host --------------------------------------------------------------

  receive(m: UiMessage): void {
    if (this.host.route(m)) return;
    const state = this.state;
    switch (m.type) {
      case 'init':
        performance.mark('wa:init');
        // The same file again (a saved view applied from the palette): build() says what changed.
        this.reinitFrom = state.init?.title === m.title ? state.view?.query : undefined;
        state.init = m;
        state.view = m.view;
        this.notices.set(m.notices);
        state.meta = undefined;
        this.feed.clear();
        return;
      case 'window':
        this.feed.first(m.window);
        return;
      case 'meta':
        performance.mark('wa:meta');
        state.meta = m.meta;
        state.savedView = m.meta.savedView;
        this.build();
        return;
      case 'savedView':
        state.savedView = m.name;
        this.chips.render();
        return;
      case 'view':
        this.onView(m.view);
        return;
      case 'progress':
        if (m.progress.task === 'index') this.progress.index(m.progress.done, m.progress.total, state.view?.total ?? 0);
        return;
      case 'notices':
        this.notices.set(m.notices);
        this.notices.render();
        return;
      case 'failed':
        this.showError(m.message);
        return;
      case 'probe':
        if (state.meta?.test) this.host.post({ type: 'probeState', requestId: m.requestId, state: this.probeState() });
        return;
      case 'exportShown':
        if (state.meta) this.actions.export();
        return;
      default:
        return;
    }
  }

  // ---- building the page -------------------------------------------------------------------

  private build(): void {
    const { init, meta } = this.state;
    if (!init || !meta) return;
    closeMenu();
    closeFilterEditor();
    this.panel.reset();
    this.feed.resetPainted();
    const { digit, ui, rowHeight } = measureFont();
    const info: ColumnInfo[] = init.columns.map((name, i) => meta.columns[i] ?? { name, numeric: false });
    const model = new ColumnModel(info, naturalWidth(digit, ui));
    if (meta.layout) model.applyLayout(meta.layout);
    this.state.model = model;
    this.notices.resetDismissed();
    this.toolbar.build(meta, model, this.state.query().search ?? '', this.actions.exporting);
    this.gridBox.textContent = '';
    const cardRow = this.card.row;
    this.closeCard(false);
    const grid = new Grid(this.gridBox, model, this.gridHost, rowHeight, rowHeight + 6, digit);
    this.state.grid = grid;
    this.gridBox.appendChild(this.noRows.el);
    grid.scroller.setAttribute('aria-label', `${init.title}: ${init.view.countLabel}`);
    grid.scroller.addEventListener('scroll', () => this.place.saveSoon(), { passive: true });
    this.onView(init.view, true);
    const from = this.reinitFrom;
    this.reinitFrom = undefined;
    const said = from ? queryAnnouncement(from, init.view.query, init.view.countLabel, (c) => this.state.columnName(c) ?? String(c)) : undefined;
    if (said !== undefined && said !== init.view.countLabel) this.status.say(said);
    this.notices.render();
    this.chips.render();
    grid.render();
    const saved = this.place.restore(grid, meta.file);
    grid.schedule();
    this.gridHost.activeChanged();
    // A page built while the person is elsewhere (a late load, a setting changed) leaves the focus there.
    focusIfPageFocused(grid.scroller);
    performance.mark('wa:built');
    if (this.feed.size > 0) this.feed.markPainted();
    // The card open before: in this page (a rebuild), else as saved when the tab was left.
    const reopen = cardRow ?? saved?.card;
    if (reopen !== undefined && reopen < this.state.rowCount) this.openCard(reopen);
    else if (!saved) this.defaultCard();
  }

  /** A one-row result of wallet metrics opens as its card, once per file; the table is one click away. */
  private defaultCard(): void {
    const { init, meta, view } = this.state;
    if (!init || !meta || !view?.complete || this.cardDefaultDone === meta.file) return;
    this.cardDefaultDone = meta.file;
    if (view.total === 1 && view.length === 1 && isWalletRow(init.columns)) this.openCard(0);
  }

  // ---- the wallet card ---------------------------------------------------------------------

  openCard(row: number): void {
    const { model, grid } = this.state;
    if (!model || !grid) return;
    if (!isWalletRow(model.info.map((c) => c.name))) {
      this.status.say('This table has no wallet metric columns to show as a card.');
      return;
    }
    const info = model.info;
    const rowCount = this.state.rowCount;
    this.panel.reset();
    this.gridBox.hidden = true;
    this.card.loading(row);
    // Also opened by a build (the card a one-wallet result opens as): never from elsewhere.
    focusIfPageFocused(this.card.el);
    this.place.saveNow();
    const p = this.host.ask({ type: 'getWindow', first: row, last: row + 1, columns: info.map((_, c) => c) });
    void p.reply.then((r) => {
      if (this.card.row !== row || !this.card.open) return;
      if (r.type === 'window' && r.window.cells[0]) {
        this.card.show(row, rowCount, info, r.window.cells[0], this.state.meta?.colorGainsAndLosses !== false);
        this.status.say(`Row ${row + 1} as a wallet card. Escape or “Show Table” for the table.`);
      } else {
        this.closeCard();
        if (r.type === 'failed') this.showError(r.message);
      }
    });
  }

  /** The focus on what the page shows: the open card, else the grid. */
  private focusMain(): void {
    if (this.card.open) this.card.el.focus({ preventScroll: true });
    else this.state.grid?.scroller.focus({ preventScroll: true });
  }

  /** Back to the grid (focused, unless the page is being rebuilt). */
  private closeCard(focus = true): void {
    if (!this.card.open) return;
    this.card.hide();
    this.gridBox.hidden = false;
    if (focus) this.place.saveNow();
    this.state.grid?.schedule();
    if (focus) this.state.grid?.scroller.focus({ preventScroll: true });
  }

  // ---- PageControl: what the parts ask of the page -----------------------------------------

  openChooser(): void {
    const { model, meta, grid } = this.state;
    const button = this.toolbar.columnsButton;
    if (!model || !meta || !button) return;
    showColumnChooser({ model, timeframes: meta.timeframes, groups: meta.metricGroups, returnFocus: grid?.scroller ?? button, changed: () => this.layoutChanged() });
  }

  analyse(column: number, mode: PanelMode): void {
    this.panel.open(column, mode, this.state.grid?.scroller);
  }

  /** The toolbar's Analyse: the panel on the grid's current column, or closed. */
  private toggleAnalysis(): void {
    const grid = this.state.grid;
    const model = this.state.model;
    if (!grid || !model) return;
    const column = model.displayed[Math.max(0, grid.active.col)] ?? model.displayed[0] ?? 0;
    this.panel.toggle(column, this.toolbar.analyseButton ?? grid.scroller);
  }

  /** Columns changed (shown, pinned, widths, formats): redraw and remember for this endpoint. */
  layoutChanged(): void {
    if (this.state.model) this.toolbar.updateColumns(this.state.model);
    // A column's format is its filter's unit: the chips and the empty view say bounds in it.
    this.chips.render();
    this.noRows.render();
    this.state.grid?.reset();
    clearTimeout(this.saveTimer);
    this.saveTimer = window.setTimeout(() => {
      if (this.state.model) this.host.post({ type: 'saveLayout', layout: this.state.model.toLayout() });
    }, LAYOUT_SAVE_DELAY_MS);
  }

  setFilter(column: number, f: ColumnFilter | undefined): void {
    this.setQuery(withFilter(this.state.query(), column, f));
  }

  clearSearch(): void {
    this.toolbar.clearSearch();
    this.setQuery({ ...this.state.query(), search: '' });
  }

  /** Every row of the file, in the sort in force: a saved view's Show all, and No rows match's clear (the host drops the view's name). */
  showAll(): void {
    this.toolbar.clearSearch();
    this.setQuery(everyRow(this.state.query()));
    this.state.grid?.scroller.focus();
  }

  clearAll(): void {
    this.toolbar.clearSearch();
    this.setQuery({});
  }

  setQuery(query: ViewQuery): void {
    const state = this.state;
    if (state.pendingQuery) this.host.cancel(state.pendingQuery.id);
    const p = this.host.ask({ type: 'setQuery', query }, (pr) => this.progress.task(pr.task === 'search' ? 'Searching every cell' : 'Reading column values', pr.done, pr.total));
    state.pendingQuery = { id: p.id, query };
    this.progress.setBusy(busyLabel(query));
    this.chips.render();
    state.grid?.render();
    const started = performance.now();
    const before = state.view?.query;
    const said = (v: ViewState): void => this.status.say(queryAnnouncement(before, v.query, v.countLabel, (c) => state.columnName(c) ?? String(c)), `(${Math.round(performance.now() - started)} ms)`);
    void p.reply.then((r) => {
      if (state.pendingQuery?.id !== p.id) return; // a later query replaced it
      state.pendingQuery = undefined;
      this.progress.setBusy(undefined);
      if (r.type === 'queryApplied' && r.view.version === state.view?.version) {
        said(r.view);
      } else if (r.type === 'queryApplied') {
        this.feed.clear();
        this.onView(r.view, true);
        const grid = state.grid;
        grid?.scrollToRow(0);
        if (grid) grid.active = { row: Math.min(0, r.view.length - 1), col: grid.active.col };
        if (grid) grid.anchor = grid.active;
        grid?.reset();
        this.gridHost.activeChanged();
        said(r.view);
      } else if (r.type === 'failed' && !r.cancelled) this.showError(r.message);
      this.chips.render();
      state.grid?.render();
      if (state.view) this.panel.viewChanged(state.view);
    });
  }

  // ---- views, notices, errors --------------------------------------------------------------

  /**
   * A view state: from init or the reply to our own query (`replace`), or pushed by the host: more
   * rows indexed (same version), or a query applied that this page did not ask for (a newer version:
   * the rows mean something else now, so the cells held are dropped).
   */
  private onView(v: ViewState, replace = false): void {
    const state = this.state;
    const current = state.view;
    if (!replace && current && v.version !== current.version) {
      if (v.version < current.version) return;
      state.view = v;
      this.feed.clear();
      state.grid?.reset();
      state.grid?.scrollToRow(0);
      this.toolbar.showSearch(v.query.search ?? '');
      this.chips.render();
      // A query from elsewhere (a saved view applied from the palette) is said as one of ours is
      // (ours is said when its reply comes).
      if (!state.pendingQuery && (shapesRows(v.query) || shapesRows(current.query))) this.status.say(queryAnnouncement(current.query, v.query, v.countLabel, (c) => state.columnName(c) ?? String(c)));
    }
    state.view = v;
    this.toolbar.countLabel = v.countLabel;
    this.gridHost.activeChanged();
    state.grid?.scroller.setAttribute('aria-label', `${state.init?.title ?? 'Table'}: ${v.countLabel}`);
    state.grid?.schedule();
    this.noRows.render();
    if (!replace) this.panel.viewChanged(v);
    this.defaultCard();
  }

  /** A notice's "Go to row": row (1-based) of the file, which is the view's row only while nothing sorts, filters or searches. */
  private goToRow(row: number): void {
    if (shapesRows(this.state.query())) {
      this.status.say('Clear the sort, filters and search to go to a row of the file.');
      return;
    }
    const grid = this.state.grid;
    grid?.moveTo(row - 1, grid.active.col);
    grid?.scroller.focus();
  }

  private showError(text: string): void {
    this.status.error(text);
    if (!this.state.grid) {
      this.gridBox.textContent = '';
      this.gridBox.appendChild(el('div', { className: 'placeholder error', role: 'alert', text }));
    }
  }

  private probeState(): ProbeState {
    const grid = this.state.grid;
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
