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
 * splitter takes arrow keys.
 */
import type { ColumnProfile, Histogram, ScatterData } from '../shared/analysisProtocol';
import type { ColumnFilter, ViewQuery, ViewState } from '../shared/tableProtocol';
import type { TableActions } from './actions';
import { histogramRows, profileRows, scatterBinFilters, scatterRows, typedFilters, type ScaleKind } from './chartMath';
import { ChartView, type Brush, type ChartSpec, type DataBrush } from './charts';
import { button, el, select } from './dom';
import { formatCount } from './format';
import type { Host, Pending } from './host';
import type { StatusLine } from './notices';
import type { PageControl, TableState } from './state';
import { panelFollow, rowsKey, withFilter } from './tableQuery';
import { l10n } from '../shared/l10n';

export type PanelMode = 'profile' | 'histogram' | 'scatter';

const MIN_WIDTH = 280;
const DEFAULT_WIDTH = 400;
/** Room for the grid's vertical scrollbar and the splitter, beside the column the panel analyses. */
const SCROLLBAR_ROOM = 24;
/** How long the table's filters stay unchanged before the panel computes again. */
export const REFRESH_DELAY_MS = 400;

export class AnalysisPanel {
  readonly el = el('aside', { className: 'analysis', attrs: { 'aria-label': l10n.t('Analysis') } });
  private readonly splitter = el('div', {
    className: 'analysis-splitter',
    role: 'separator',
    attrs: { tabindex: '0', 'aria-orientation': 'vertical', 'aria-label': l10n.t('Resize the analysis panel (Left and Right arrows)') },
  });
  private readonly body = el('div', { className: 'analysis-body' });
  private readonly chart = new ChartView((b) => this.brushed(b));
  private mode: PanelMode = 'profile';
  private column = -1;
  private yColumn = -1;
  private xScale: ScaleKind = 'linear';
  private yScale: ScaleKind = 'linear';
  private showTable = false;
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
  private brush: Brush | undefined;
  /** The brush's filters were applied: the next view tells how many rows they keep. */
  private brushApplied = false;
  /** Counts the charts asked to draw: a frame drawing an older one gives way. */
  private drawGeneration = 0;
  // Parts rebuilt by render().
  private readonly heading = el('h2', { className: 'analysis-title', text: l10n.t('Analysis'), attrs: { id: 'analysis-title', tabindex: '-1', 'data-key': 'title' } });
  private readonly info = el('div', { className: 'analysis-info dim', attrs: { 'aria-live': 'polite' } });
  private readonly stats = el('div', { className: 'analysis-stats' });
  private readonly chartControls = el('div', { className: 'analysis-row' });
  private readonly caption = el('div', { className: 'analysis-caption dim' });
  private readonly brushBox = el('div', { className: 'analysis-brush' });
  private readonly tableBox = el('div', { className: 'analysis-table' });
  private readonly chartTools = el('div', { className: 'analysis-row' });

  constructor(
    private readonly host: Host,
    private readonly state: TableState,
    private readonly control: PageControl,
    private readonly actions: TableActions,
    private readonly status: StatusLine,
  ) {
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
    const filters = view.query.filters ?? [];
    if (this.brush && !this.brush.filters.every((b) => filters.some((f) => f.column === b.column))) {
      // A chip cleared the brush's filter: the brush goes too.
      this.brush = undefined;
      this.brushApplied = false;
      this.chart.showBrush(undefined);
      this.renderBrush();
    }
    if (this.brushApplied) {
      this.brushApplied = false;
      this.renderBrush();
    }
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
    this.brush = undefined;
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
      this.status.say(`${this.modeTitle()} of ${this.name(this.column)} in ${Math.round(total)} ms.`);
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
        this.brush = undefined;
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
    this.renderChart();
    b.append(this.chartControls, this.chart.el, this.caption, this.brushBox, this.chartTools, this.tableBox);
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
    else if (view && view.version !== this.computedOn && !this.brushApplied) {
      this.info.append(' · the table’s rows have changed since. ', button(l10n.t('Refresh'), () => this.open(this.column, this.mode), { className: 'link' }));
    }
  }

  private renderStats(): void {
    const s = this.stats;
    s.textContent = '';
    const p = this.profile;
    if (this.mode !== 'profile' || !p) return;
    const dl = el('dl', { className: 'profile-stats' });
    for (const [k, v] of profileRows(p)) dl.append(el('dt', { text: k }), el('dd', { text: v }));
    s.appendChild(dl);
    if (p.top.length > 0) {
      const table = el('table', { className: 'analysis-grid', attrs: { 'aria-label': l10n.t('Top {0} values of {1}', p.top.length, p.name) } });
      table.appendChild(el('caption', { text: l10n.t('Top {0} values', p.top.length) }));
      table.appendChild(el('thead', {}, [el('tr', {}, [el('th', { text: l10n.t('Value'), attrs: { scope: 'col' } }), el('th', { text: l10n.t('Rows'), attrs: { scope: 'col' } })])]));
      const tbody = el('tbody');
      for (const t of p.top) tbody.appendChild(el('tr', {}, [el('td', { className: 'value', text: t.value, title: t.value }), el('td', { className: 'num', text: formatCount(t.count) })]));
      table.appendChild(tbody);
      s.appendChild(table);
    }
  }

  private renderChart(): void {
    const controls = this.chartControls;
    controls.textContent = '';
    this.caption.textContent = '';
    this.chartTools.textContent = '';
    this.tableBox.textContent = '';
    const info = this.state.model?.info ?? [];
    const scaleSelect = (value: ScaleKind, label: string, set: (k: ScaleKind) => void): HTMLSelectElement =>
      select(
        [
          { value: 'linear', label: l10n.t('{0}: linear', label) },
          { value: 'log', label: l10n.t('{0}: log', label) },
        ],
        value,
        (v) => set(v === 'log' ? 'log' : 'linear'),
        { className: 'dropdown', attrs: { 'aria-label': l10n.t('{0} scale', label), 'data-key': `scale-${label}` } },
      );
    if (this.mode === 'scatter') {
      const numeric = info.map((c, i) => ({ c, i })).filter(({ c, i }) => c.numeric && i !== this.column);
      const y = select(
        numeric.map(({ c, i }) => ({ value: String(i), label: c.name })),
        String(this.yColumn),
        (v) => {
          this.yColumn = Number(v);
          this.load();
          this.render();
          this.body.querySelector<HTMLElement>('.y-select')?.focus();
        },
        { className: 'dropdown y-select', attrs: { 'aria-label': l10n.t('Against (y axis)'), 'data-key': 'y' } },
      );
      controls.append(el('span', { className: 'dim', text: l10n.t('Against') }), y);
    }
    const spec = this.chartSpec();
    if (this.mode === 'scatter' || this.histogram) {
      controls.append(
        scaleSelect(this.xScale, 'X', (k) => {
          this.xScale = k;
          if (this.mode === 'scatter') this.redraw();
          else this.rebin();
        }),
      );
    }
    if (this.mode === 'scatter') {
      controls.append(
        scaleSelect(this.yScale, 'Y', (k) => {
          this.yScale = k;
          this.redraw();
        }),
      );
    }
    if (!spec) {
      this.chart.clear();
      this.brushBox.textContent = '';
      if (this.mode === 'profile' && this.profile && !this.profile.histogram) this.caption.textContent = l10n.t('No histogram: the column holds no numbers.');
      return;
    }
    // Drawn once the panel is laid out (the chart takes the panel's width).
    const generation = ++this.drawGeneration;
    requestAnimationFrame(() => {
      if (generation !== this.drawGeneration || !this.isOpen) return;
      const ms = this.chart.draw(spec);
      this.chart.showBrush(this.queryBrush(spec));
      this.caption.textContent = this.captionText(ms);
    });
    this.caption.textContent = this.captionText(undefined);
    this.renderBrush();
    const save = button(l10n.t('Save as PNG…'), () => this.savePng(), { className: 'secondary', title: l10n.t('Save the chart as a PNG file'), attrs: { 'data-key': 'png' } });
    const tableToggle = button(this.showTable ? l10n.t('Hide Table') : l10n.t('Show as Table'), () => {
      this.showTable = !this.showTable;
      this.renderChart();
      this.chartTools.querySelector<HTMLElement>('.table-toggle')?.focus();
    }, { className: 'secondary table-toggle', attrs: { 'aria-pressed': String(this.showTable), 'aria-controls': 'analysis-table', 'data-key': 'table' } });
    this.chartTools.append(save, tableToggle);
    this.tableBox.id = 'analysis-table';
    if (this.showTable) this.tableBox.appendChild(this.tableEquivalent());
  }

  /** The range filters in force on the chart's columns, as a brush. */
  private queryBrush(spec: ChartSpec): DataBrush | undefined {
    const filters = this.state.query().filters ?? [];
    const range = (column: number): { min?: number; max?: number } | undefined => {
      const f = filters.find((x) => x.column === column);
      return f?.kind === 'range' ? f : undefined;
    };
    const x = range(spec.kind === 'scatter' ? spec.scatter.x : spec.histogram.column);
    const y = spec.kind === 'scatter' ? range(spec.scatter.y) : undefined;
    if (!x && !y) return undefined;
    return { xmin: x?.min, xmax: x?.max, ymin: y?.min, ymax: y?.max };
  }

  private redraw(): void {
    this.brush = undefined;
    this.renderChart();
  }

  private chartSpec(): ChartSpec | undefined {
    if (this.mode === 'scatter') {
      return this.scatter ? { kind: 'scatter', scatter: this.scatter, xName: this.name(this.scatter.x), yName: this.name(this.scatter.y), xScale: this.xScale, yScale: this.yScale } : undefined;
    }
    return this.histogram ? { kind: 'histogram', histogram: this.histogram, xName: this.name(this.histogram.column) } : undefined;
  }

  private captionText(ms: number | undefined): string {
    const drawn = ms === undefined ? '' : ` Drawn in ${Math.round(ms)} ms.`;
    if (this.mode === 'scatter' && this.scatter) {
      const s = this.scatter;
      const skipped = this.chart.skipped;
      const log = skipped > 0 ? ` ${formatCount(skipped)} not drawn: ≤ 0 on a log axis.` : '';
      return `${formatCount(s.xs.length)} points; ${formatCount(s.left)} rows left out (a cell empty or not a number).${log}${drawn}`;
    }
    const h = this.histogram;
    if (!h) return '';
    const left = h.left > 0 ? ` ${formatCount(h.left)} rows left out (${h.log ? 'empty, not a number or ≤ 0' : 'empty or not a number'}).` : '';
    return `${formatCount(h.counted)} numbers in ${h.counts.length} bins${h.log ? ' of log10' : ''}.${left}${drawn}`;
  }

  // ---- the brush -----------------------------------------------------------------------------

  private brushed(b: Brush | undefined): void {
    this.brush = b;
    this.renderBrush();
    if (b) this.applyFilters(b.filters);
  }

  private applyFilters(filters: readonly ColumnFilter[]): void {
    let q = this.state.query();
    for (const f of filters) q = withFilter(q, f.column, f);
    this.brushApplied = true;
    this.setQuery(q);
    this.renderBrush();
  }

  /** The min/max fields (the keyboard's brush), Apply and Clear, and the "Use these N addresses" offer. */
  private renderBrush(): void {
    const box = this.brushBox;
    box.textContent = '';
    const spec = this.chartSpec();
    if (!spec) return;
    const columns = spec.kind === 'scatter' ? [spec.scatter.x, spec.scatter.y] : [spec.histogram.column];
    const filters = this.state.query().filters ?? [];
    const fields = columns.map((column) => {
      const f = filters.find((x) => x.column === column && x.kind === 'range');
      const range = f?.kind === 'range' ? f : undefined;
      const input = (which: 'min' | 'max'): HTMLInputElement => {
        const i = el('input', { className: 'input bound', attrs: { type: 'text', inputmode: 'decimal', 'aria-label': `${this.name(column)} ${which === 'min' ? 'minimum' : 'maximum'}`, placeholder: which, 'data-key': `${which}-${column}` } });
        const v = range?.[which];
        i.value = v === undefined ? '' : String(v);
        i.addEventListener('keydown', (e) => {
          if (e.key === 'Enter') apply();
        });
        return i;
      };
      return { column, min: input('min'), max: input('max') };
    });
    const error = el('div', { className: 'error-text', attrs: { 'aria-live': 'assertive' } });
    const apply = (): void => {
      const typed = typedFilters(fields.map((f) => ({ column: f.column, min: f.min.value, max: f.max.value })));
      if (typeof typed === 'string') {
        error.textContent = typed;
        return;
      }
      const cleared = fields.filter((f) => !(typed ?? []).some((t) => t.column === f.column)).map((f) => f.column);
      let q = this.state.query();
      for (const c of cleared) q = withFilter(q, c, undefined);
      for (const f of typed ?? []) q = withFilter(q, f.column, f);
      this.brush = typed ? { filters: typed, count: -1 } : undefined;
      const x = typed?.find((f) => f.column === columns[0]);
      const y = typed?.find((f) => f.column === columns[1]);
      this.chart.showBrush(typed ? { ...(x?.kind === 'range' ? { xmin: x.min, xmax: x.max } : {}), ...(y?.kind === 'range' ? { ymin: y.min, ymax: y.max } : {}) } : undefined);
      this.brushApplied = true;
      this.setQuery(q);
    };
    const clear = (): void => {
      let q = this.state.query();
      for (const c of columns) q = withFilter(q, c, undefined);
      this.brush = undefined;
      this.chart.showBrush(undefined);
      this.setQuery(q);
    };
    const fieldset = el('fieldset', { className: 'analysis-fields' }, [el('legend', { className: 'dim', text: spec.kind === 'scatter' ? l10n.t('Brush: drag a rectangle, or type the bounds') : l10n.t('Brush: drag across bars, or type the bounds') })]);
    for (const f of fields) fieldset.appendChild(el('div', { className: 'analysis-row' }, [el('span', { className: 'bound-name', text: this.name(f.column), title: this.name(f.column) }), f.min, el('span', { text: '–' }), f.max]));
    fieldset.appendChild(el('div', { className: 'analysis-row' }, [button(l10n.t('Apply'), apply, { className: 'secondary' }), button(l10n.t('Clear'), clear, { className: 'secondary' })]));
    fieldset.appendChild(error);
    box.appendChild(fieldset);
    // The offer, once the view holds the brushed rows.
    const active = columns.some((c) => filters.some((f) => f.column === c));
    const address = this.addressColumn();
    if (active && !this.brushApplied && !this.state.pendingQuery) {
      const n = this.state.rowCount;
      const said = el('div', { className: 'analysis-row' }, [el('span', { text: l10n.t('{0} rows in the {1}.', formatCount(n), this.brush ? 'brush' : 'filters') })]);
      if (address !== undefined) {
        const use = button(l10n.t('Use these {0} addresses as input to…', formatCount(n)), () => this.actions.useAsInput(address, this.name(address)), {
          className: 'primary',
          title: l10n.t('The {0} column of the {1} rows (the price shows first)', this.name(address), formatCount(n)),
        });
        use.disabled = n === 0;
        said.appendChild(use);
      }
      box.appendChild(said);
    } else if (this.brush && this.brushApplied) box.appendChild(el('div', { className: 'dim', text: this.brush.count >= 0 ? l10n.t('{0} in the brush; filtering the table…', formatCount(this.brush.count)) : l10n.t('Filtering the table…') }));
  }

  /** A row of the scatter's table: its points become the table's rows (the brush shows the bin on the chart). */
  private showBin(filters: ColumnFilter[], points: number): void {
    const [fx, fy] = filters;
    this.brush = { filters, count: points };
    this.chart.showBrush({ ...(fx?.kind === 'range' ? { xmin: fx.min, xmax: fx.max } : {}), ...(fy?.kind === 'range' ? { ymin: fy.min, ymax: fy.max } : {}) });
    this.applyFilters(filters);
  }

  private savePng(): void {
    const name = `${this.modeTitle().toLowerCase()}-${this.mode === 'scatter' ? `${this.name(this.column)}-vs-${this.name(this.yColumn)}` : this.name(this.column)}`.replace(/[^\w.-]+/gu, '_');
    void this.host.ask({ type: 'savePng', name, dataUrl: this.chart.png() }).reply.then((r) => {
      if (r.type === 'done') this.status.say(r.message ?? 'Chart saved.');
      else if (r.type === 'failed') (r.cancelled ? this.status.say.bind(this.status) : this.status.error.bind(this.status))(r.message);
    });
  }

  // ---- the table equivalent ------------------------------------------------------------------

  private tableEquivalent(): HTMLElement {
    const spec = this.chartSpec();
    const table = el('table', { className: 'analysis-grid' });
    const head = (names: string[]): HTMLElement => el('thead', {}, [el('tr', {}, names.map((n) => el('th', { text: n, attrs: { scope: 'col' } })))]);
    const tbody = el('tbody');
    if (spec?.kind === 'histogram') {
      table.setAttribute('aria-label', l10n.t('Histogram of {0} as a table', spec.xName));
      table.append(el('caption', { text: l10n.t('{0}: rows per bin', spec.xName) }), head(['From', 'To', 'Rows']));
      for (const r of histogramRows(spec.histogram)) tbody.appendChild(el('tr', {}, [el('td', { className: 'num', text: r.from }), el('td', { className: 'num', text: r.to }), el('td', { className: 'num', text: formatCount(r.count) })]));
    } else if (spec?.kind === 'scatter') {
      table.setAttribute('aria-label', l10n.t('Scatter of {0} against {1} as a table', spec.yName, spec.xName));
      table.append(
        el('caption', { text: l10n.t('x: {0} in 10 ranges; y: {1} of the points in each. A count shows its rows in the table.', spec.xName, spec.yName) }),
        head(['x from', 'x to', 'Points', 'y min', 'y median', 'y max']),
      );
      const { x, y } = spec.scatter;
      for (const [i, r] of scatterRows(spec.scatter.xs, spec.scatter.ys, spec.xScale, spec.yScale, 10).entries()) {
        const count = el('td', { className: 'num' });
        if (r.points > 0) {
          // The count is the way to the range's points (a filter on x and y, as a brush of that range would be); the panel stays narrow.
          const show = button(formatCount(r.points), () => this.showBin(scatterBinFilters(r, x, y), r.points), {
            className: 'link show-rows',
            title: l10n.t('Show these {0} rows in the table', formatCount(r.points)),
            attrs: { 'aria-label': l10n.t('{0}: show these rows, {1} {2} to {3}', formatCount(r.points), spec.xName, r.from, r.to), 'data-key': `bin-${i}` },
          });
          count.appendChild(show);
        } else count.textContent = '0';
        const text = (t: string): HTMLElement => el('td', { className: 'num', text: t });
        tbody.appendChild(el('tr', {}, [text(r.from), text(r.to), count, text(r.yMin), text(r.yMedian), text(r.yMax)]));
      }
    }
    table.appendChild(tbody);
    return table;
  }

  // ---- helpers -------------------------------------------------------------------------------

  private name(column: number): string {
    return this.state.columnName(column) ?? `column ${column + 1}`;
  }

  private modeTitle(): string {
    return this.mode === 'profile' ? 'Profile' : this.mode === 'histogram' ? 'Histogram' : 'Scatter';
  }

  private defaultY(x: number): number {
    const info = this.state.model?.info ?? [];
    const displayed = this.state.model?.displayed ?? [];
    return displayed.find((c) => c !== x && info[c]?.numeric) ?? info.findIndex((c, i) => i !== x && c.numeric);
  }

  /** The column whose addresses a brush hands on: the wallets (main chain) first. */
  private addressColumn(): number | undefined {
    const info = this.state.model?.info ?? [];
    const main = info.findIndex((c) => c.address === 'main');
    const any = info.findIndex((c) => c.address !== undefined);
    const i = main >= 0 ? main : any;
    return i >= 0 ? i : undefined;
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
