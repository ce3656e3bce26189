/**
 * The table's analysis side panel (issue 15): a column's profile (type, count, empty, distinct,
 * min, max, mean, median, p5, p95, the top 10 values) with its histogram, a histogram alone (linear
 * or log), or a scatter of two numeric columns, all computed by the host over every row of the
 * current view. A brush on a chart, or bounds typed into its fields, becomes range filters on the
 * table (the chips show them), then offers "Use these N addresses as input to…" (the host shows
 * the price first). Every chart has a table equivalent (the scatter's: x ranges with the y
 * min, median and max of each; a range's count filters the table to its points) and can be
 * saved as a PNG. The figures follow the table: when its filters or search change elsewhere, the
 * panel computes again once they settle (its own brush's filters leave the chart as drawn, with a
 * Refresh offered). Keyboard: Tab reaches everything, Escape closes and gives the focus back; the
 * splitter takes arrow keys. This file owns what is analysed and asks the host for the figures;
 * the chart, its brush and its tools are analysisChart.ts, the table equivalents analysisTables.ts.
 */
import type { ColumnProfile, Histogram, ScatterData } from '../shared/analysisProtocol';
import type { ViewQuery, ViewState } from '../shared/tableProtocol';
import type { TableActions } from './actions';
import { AnalysisChart, modeTitle, type ChartInput, type ChartOwner } from './analysisChart';
import { profileStats } from './analysisTables';
import type { ScaleKind } from './chartMath';
import { button, el, select } from './dom';
import { formatCount } from './format';
import type { Host, Pending } from './host';
import type { StatusLine } from './notices';
import type { PageControl, PanelMode, TableState } from './state';
import { panelFollow, rowsKey } from './tableQuery';
import { l10n } from '../shared/l10n';

const MIN_WIDTH = 280;
const DEFAULT_WIDTH = 400;
/** Room for the grid's vertical scrollbar and the splitter, beside the column the panel analyses. */
const SCROLLBAR_ROOM = 24;
/** How long the table's filters stay unchanged before the panel computes again. */
const REFRESH_DELAY_MS = 400;

export class AnalysisPanel {
  readonly el = el('aside', { className: 'analysis', attrs: { 'aria-label': l10n.t('Analysis') } });
  private readonly splitter = el('div', {
    className: 'analysis-splitter',
    role: 'separator',
    attrs: { tabindex: '0', 'aria-orientation': 'vertical', 'aria-label': l10n.t('Resize the analysis panel (Left and Right arrows)') },
  });
  private readonly body = el('div', { className: 'analysis-body' });
  private mode: PanelMode = 'profile';
  private column = -1;
  private yColumn = -1;
  private xScale: ScaleKind = 'linear';
  private yScale: ScaleKind = 'linear';
  private width = DEFAULT_WIDTH;
  private returnFocus: HTMLElement | undefined;
  /** The request being answered, and a counter so a late reply of an older one is dropped. */
  private pending: Pending | undefined;
  private token = 0;
  private profile: ColumnProfile | undefined;
  private histogram: Histogram | undefined;
  private scatter: ScatterData | undefined;
  /** The view version the data was computed on, and its row count in words. */
  private computedOn = -1;
  private computedLabel: string | undefined;
  /** The rows the figures were computed over (tableQuery.rowsKey), and those of the query the panel itself last set (its brush). */
  private computedKey = '';
  private ownKey: string | undefined;
  /** A refresh waits for the filters to settle (typing in a filter, several chips cleared). */
  private refreshTimer = 0;
  private readonly chart: AnalysisChart;
  // Parts rebuilt by render().
  private readonly heading = el('h2', { className: 'analysis-title', text: l10n.t('Analysis'), attrs: { id: 'analysis-title', tabindex: '-1', 'data-key': 'title' } });
  private readonly info = el('div', { className: 'analysis-info dim', attrs: { 'aria-live': 'polite' } });
  private readonly stats = el('div', { className: 'analysis-stats' });

  constructor(
    private readonly host: Host,
    private readonly state: TableState,
    private readonly control: PageControl,
    actions: TableActions,
    private readonly status: StatusLine,
  ) {
    const owner: ChartOwner = {
      input: (): ChartInput => ({ mode: this.mode, column: this.column, yColumn: this.yColumn, xScale: this.xScale, yScale: this.yScale, profile: this.profile, histogram: this.histogram, scatter: this.scatter }),
      name: (column: number): string => this.name(column),
      chooseY: (column: number): void => {
        this.yColumn = column;
        this.load();
        this.render();
        this.body.querySelector<HTMLElement>('.y-select')?.focus();
      },
      setScale: (axis: 'x' | 'y', kind: ScaleKind): void => {
        if (axis === 'x') this.xScale = kind;
        else this.yScale = kind;
        if (this.mode === 'scatter') this.chart.redraw();
        else this.rebin();
      },
      setQuery: (q: ViewQuery): void => this.setQuery(q),
    };
    this.chart = new AnalysisChart(owner, host, state, actions, status, () => this.isOpen);
    this.el.hidden = true;
    this.el.setAttribute('aria-labelledby', 'analysis-title');
    this.el.append(this.splitter, this.body);
    this.el.style.width = `${this.width}px`;
    this.el.addEventListener('keydown', (e) => {
      if (e.key === 'Escape') {
        e.preventDefault();
        e.stopPropagation();
        this.close(true);
      }
    });
    this.wireSplitter();
  }

  get isOpen(): boolean {
    return !this.el.hidden;
  }

  /** Opens (or switches) the panel on a column; the focus goes back to `returnFocus` on close. */
  open(column: number, mode: PanelMode, returnFocus?: HTMLElement): void {
    const info = this.state.model?.info;
    if (!info || column < 0 || column >= info.length) return;
    if (!this.isOpen) this.returnFocus = returnFocus ?? (document.activeElement instanceof HTMLElement ? document.activeElement : undefined);
    this.el.hidden = false;
    this.mode = mode;
    if (column !== this.column) this.xScale = 'linear';
    this.column = column;
    if (mode === 'scatter' && (this.yColumn < 0 || this.yColumn === column || !info[this.yColumn]?.numeric)) this.yColumn = this.defaultY(column);
    this.load();
    this.render();
    this.revealColumn();
    (mode === 'scatter' ? this.body.querySelector<HTMLElement>('.y-select') : this.heading)?.focus();
  }

  /**
   * The panel takes the grid's right side; it must not hide the column it analyses (issue 23). It
   * narrows (down to its least width) so the gutter, the pinned columns and that column fit beside
   * it, and the grid scrolls sideways to show the column. The rows stay where they are.
   */
  private revealColumn(): void {
    const { grid, model } = this.state;
    const d = model?.displayed.indexOf(this.column) ?? -1;
    if (!grid || !model || d < 0) return;
    const total = this.el.parentElement?.clientWidth ?? 0;
    const pinned = d < model.pinnedColumns.length;
    const need = grid.fixedWidth + (pinned ? 0 : model.width(this.column)) + SCROLLBAR_ROOM;
    const fits = Math.floor(total - need);
    if (total > 0 && fits < this.width) this.setWidth(Math.max(MIN_WIDTH, fits));
    grid.reveal({ row: -1, col: d });
    grid.schedule();
    // Once more after the layout settled (the grid's scrollbar and the panel's own width can move
    // the edge by a few pixels after this first measure).
    requestAnimationFrame(() => {
      if (!this.isOpen || this.state.model?.displayed.indexOf(this.column) !== d) return;
      grid.reveal({ row: -1, col: d });
      grid.render();
      // What the grid thinks it shows can pass the panel's edge by a few pixels: measure and nudge.
      const right = grid.cellRect({ row: -1, col: d })?.right ?? 0;
      const edge = this.el.getBoundingClientRect().left;
      if (right > edge) grid.scroller.scrollLeft += Math.ceil(right - edge) + 1;
    });
  }

  /** The panel's width, within its bounds; the splitter and revealColumn() set it. */
  private setWidth(w: number): void {
    const max = Math.max(MIN_WIDTH, window.innerWidth - 200);
    this.width = Math.round(Math.max(MIN_WIDTH, Math.min(max, w)));
    this.el.style.width = `${this.width}px`;
    this.splitter.setAttribute('aria-valuenow', String(this.width));
  }

  /** The toolbar's Analyse button: open on the grid's column, or close. */
  toggle(column: number, returnFocus: HTMLElement): void {
    if (this.isOpen) this.close(true);
    else this.open(column, 'profile', returnFocus);
  }

  /** A new file or table: the panel's columns meant the old one, so it closes without moving the focus. */
  reset(): void {
    if (!this.isOpen) return;
    this.returnFocus = undefined;
    this.close(false);
  }

  close(refocus = true): void {
    if (!this.isOpen) return;
    if (this.pending) this.host.cancel(this.pending.id);
    this.pending = undefined;
    this.token++;
    clearTimeout(this.refreshTimer);
    this.refreshTimer = 0;
    this.el.hidden = true;
    const back = this.returnFocus;
    this.returnFocus = undefined;
    if (!refocus) return;
    if (back?.isConnected) back.focus();
    else this.state.grid?.scroller.focus();
  }

  /** A view arrived (a query applied, rows indexed): the brush's row count, or a note that the panel's numbers are older. */
  viewChanged(view: ViewState): void {
    if (!this.isOpen) return;
    this.chart.viewChanged(view.query.filters ?? []);
    const follow = panelFollow(this.computedKey, this.ownKey, view.query);
    if (follow === 'same') this.computedOn = view.version; // sorted otherwise: the same rows, the same figures
    else if (follow === 'refresh') this.refreshSoon();
    this.renderInfo(view);
  }

  /** The table's filters or search changed elsewhere: computes again once they have settled. */
  private refreshSoon(): void {
    clearTimeout(this.refreshTimer);
    this.refreshTimer = window.setTimeout(() => {
      this.refreshTimer = 0;
      const view = this.state.view;
      if (!this.isOpen || !view || this.state.pendingQuery || panelFollow(this.computedKey, this.ownKey, view.query) !== 'refresh') return;
      this.load();
      this.render(); // keeps the focus on the control that had it
    }, REFRESH_DELAY_MS);
  }

  /** A query of the panel's own (a brush, typed bounds, a scatter bin's rows): the figures stay as drawn. */
  private setQuery(q: ViewQuery): void {
    this.ownKey = rowsKey(q);
    this.control.setQuery(q);
  }

  // ---- asking the host -----------------------------------------------------------------------

  private load(): void {
    if (this.pending) this.host.cancel(this.pending.id);
    const token = ++this.token;
    this.profile = undefined;
    this.histogram = undefined;
    this.scatter = undefined;
    this.computedOn = this.state.view?.version ?? -1;
    this.computedLabel = this.state.view?.countLabel;
    this.computedKey = rowsKey(this.state.view?.query ?? {});
    this.ownKey = undefined;
    clearTimeout(this.refreshTimer);
    this.refreshTimer = 0;
    this.chart.clear();
    performance.mark('wa:chart-request');
    const started = performance.now();
    const p =
      this.mode === 'profile'
        ? this.host.ask({ type: 'profile', column: this.column })
        : this.mode === 'histogram'
          ? this.host.ask({ type: 'histogram', column: this.column, bins: 30, log: this.xScale === 'log' })
          : this.yColumn >= 0
            ? this.host.ask({ type: 'scatter', x: this.column, y: this.yColumn })
            : undefined;
    if (!p) {
      this.info.textContent = l10n.t('A scatter needs a second numeric column; this table has none.');
      return;
    }
    this.pending = p;
    this.info.textContent = this.mode === 'scatter' ? l10n.t('Reading the points of every row…') : l10n.t('Reading every row of the view…');
    void p.reply.then((r) => {
      if (token !== this.token) return;
      this.pending = undefined;
      if (r.type === 'profile') {
        this.profile = r.profile;
        this.histogram = r.profile.histogram;
      } else if (r.type === 'histogram') this.histogram = r.histogram;
      else if (r.type === 'scatter') this.scatter = r.scatter;
      else if (r.type === 'failed') {
        this.info.textContent = r.cancelled ? l10n.t('Stopped.') : l10n.t('Could not compute: {0}', r.message);
        return;
      }
      this.render();
      const total = performance.now() - started;
      this.status.say(`${modeTitle(this.mode)} of ${this.name(this.column)} in ${Math.round(total)} ms.`);
    });
  }

  /** The histogram again, with the other x scale (the host bins log10 of the positive values). */
  private rebin(): void {
    if (this.mode === 'profile' && this.xScale === 'linear' && this.profile?.histogram) {
      this.histogram = this.profile.histogram;
      this.render();
      return;
    }
    if (this.pending) this.host.cancel(this.pending.id);
    const token = ++this.token;
    const p = this.host.ask({ type: 'histogram', column: this.column, bins: 30, log: this.xScale === 'log' });
    this.pending = p;
    performance.mark('wa:chart-request');
    void p.reply.then((r) => {
      if (token !== this.token) return;
      this.pending = undefined;
      if (r.type === 'histogram') {
        this.histogram = r.histogram;
        this.chart.forgetBrush();
        this.render();
      } else if (r.type === 'failed' && !r.cancelled) this.info.textContent = l10n.t('Could not compute: {0}', r.message);
    });
  }

  // ---- drawing the panel ---------------------------------------------------------------------

  private render(): void {
    const info = this.state.model?.info ?? [];
    const b = this.body;
    // The panel is rebuilt when data arrives: the focus stays on the same control.
    const active = document.activeElement;
    const focusKey = active instanceof HTMLElement && b.contains(active) ? active.dataset.key : undefined;
    b.textContent = '';
    const close = button('✕', () => this.close(true), { className: 'chip-x', title: l10n.t('Close (Escape)'), attrs: { 'aria-label': l10n.t('Close the analysis panel'), 'data-key': 'close' } });
    b.append(el('div', { className: 'analysis-head' }, [this.heading, close]));
    const columnSelect = select(
      info.map((c, i) => ({ value: String(i), label: c.name })),
      String(this.column),
      (v) => this.open(Number(v), this.mode),
      { className: 'dropdown', attrs: { 'aria-label': l10n.t('Column'), 'data-key': 'column' } },
    );
    const modes = el('div', { className: 'analysis-modes', role: 'group', attrs: { 'aria-label': l10n.t('What to show') } });
    const numeric = info[this.column]?.numeric ?? false;
    for (const [mode, label] of [
      ['profile', 'Profile'],
      ['histogram', 'Histogram'],
      ['scatter', 'Scatter'],
    ] as const) {
      const m = button(label, () => this.open(this.column, mode), { className: mode === this.mode ? 'mode on' : 'mode', attrs: { 'aria-pressed': String(mode === this.mode), 'data-key': `mode-${mode}` } });
      m.disabled = mode !== 'profile' && !numeric;
      modes.appendChild(m);
    }
    b.append(el('label', { className: 'analysis-row' }, [el('span', { className: 'dim', text: l10n.t('Column') }), columnSelect]), modes, this.info);
    this.renderInfo(this.state.view);
    this.renderStats();
    b.append(this.stats);
    this.chart.render();
    b.append(...this.chart.parts);
    if (focusKey) b.querySelector<HTMLElement>(`[data-key="${focusKey}"]`)?.focus();
  }

  private renderInfo(view: ViewState | undefined): void {
    const ms = this.profile?.ms ?? this.scatter?.ms;
    const parts: string[] = [];
    if (this.pending) return;
    if (this.computedLabel) parts.push(`Over ${this.computedLabel}`);
    if (ms !== undefined) parts.push(`computed in ${formatCount(Math.round(ms))} ms`);
    this.info.textContent = parts.join(', ');
    if (this.refreshTimer !== 0) this.info.append(' · The rows changed: computing again…');
    else if (view && view.version !== this.computedOn && !this.chart.brushApplied) {
      this.info.append(' · the table’s rows have changed since. ', button(l10n.t('Refresh'), () => this.open(this.column, this.mode), { className: 'link' }));
    }
  }

  private renderStats(): void {
    const s = this.stats;
    s.textContent = '';
    const p = this.profile;
    if (this.mode !== 'profile' || !p) return;
    s.append(...profileStats(p));
  }

  // ---- helpers -------------------------------------------------------------------------------

  private name(column: number): string {
    return this.state.columnName(column) ?? `column ${column + 1}`;
  }

  private defaultY(x: number): number {
    const info = this.state.model?.info ?? [];
    const displayed = this.state.model?.displayed ?? [];
    return displayed.find((c) => c !== x && info[c]?.numeric) ?? info.findIndex((c, i) => i !== x && c.numeric);
  }

  private wireSplitter(): void {
    const s = this.splitter;
    const setWidth = (w: number): void => this.setWidth(w);
    s.setAttribute('aria-valuemin', String(MIN_WIDTH));
    s.setAttribute('aria-valuenow', String(this.width));
    s.addEventListener('keydown', (e) => {
      if (e.key === 'ArrowLeft') setWidth(this.width + 20);
      else if (e.key === 'ArrowRight') setWidth(this.width - 20);
      else return;
      e.preventDefault();
    });
    s.addEventListener('pointerdown', (e) => {
      s.setPointerCapture(e.pointerId);
      const startX = e.clientX;
      const startW = this.width;
      const move = (m: PointerEvent): void => setWidth(startW + (startX - m.clientX));
      const up = (): void => {
        s.removeEventListener('pointermove', move);
        s.removeEventListener('pointerup', up);
      };
      s.addEventListener('pointermove', move);
      s.addEventListener('pointerup', up);
    });
  }
}
