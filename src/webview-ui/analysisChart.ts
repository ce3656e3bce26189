/**
 * The analysis panel's chart and what acts on it (issue 15): the scale and y-column controls, the
 * drawing and its caption, the brush (a drag on the chart, or bounds typed into its fields, become
 * range filters on the table, then "Use these N addresses as input to…"), Save as PNG, and the
 * table equivalent. Apart from the panel (analysisPanel.ts), which owns what is analysed and asks
 * the host for the figures: this part only draws those figures and turns a selection on them into
 * the table's filters. It knows the panel through ChartOwner, so the two do not import each other.
 */
import type { ColumnProfile, Histogram, ScatterData } from '../shared/analysisProtocol';
import type { ColumnFilter, ViewQuery } from '../shared/tableProtocol';
import type { TableActions } from './actions';
import { chartTable } from './analysisTables';
import type { ScaleKind } from './chartMath';
import { typedFilters } from './chartTables';
import { ChartView, type Brush, type ChartSpec, type DataBrush } from './charts';
import { button, el, select } from './dom';
import { boundShown } from './filterUnits';
import { formatCount } from './format';
import type { Host } from './host';
import type { StatusLine } from './notices';
import type { PanelMode, TableState } from './state';
import { withFilter } from './tableQuery';
import { l10n } from '../shared/l10n';

/** What the panel analyses, and the figures the host computed for it (undefined while computing). */
export interface ChartInput {
  readonly mode: PanelMode;
  readonly column: number;
  readonly yColumn: number;
  readonly xScale: ScaleKind;
  readonly yScale: ScaleKind;
  readonly profile: ColumnProfile | undefined;
  readonly histogram: Histogram | undefined;
  readonly scatter: ScatterData | undefined;
}

/** What the chart reads of the panel and asks it to do. */
export interface ChartOwner {
  input(): ChartInput;
  /** A column's name as the panel writes it. */
  name(column: number): string;
  /** The scatter's y column was chosen: the panel computes again. */
  chooseY(column: number): void;
  /** A scale was chosen: the panel draws again (a scatter) or bins again (a histogram). */
  setScale(axis: 'x' | 'y', kind: ScaleKind): void;
  /** A query of the chart's own (a brush, typed bounds, a scatter bin's rows): the figures stay as drawn. */
  setQuery(q: ViewQuery): void;
}

/** A mode's name, as the status line and a saved PNG's file name say it. */
export function modeTitle(mode: PanelMode): string {
  return mode === 'profile' ? 'Profile' : mode === 'histogram' ? 'Histogram' : 'Scatter';
}

export class AnalysisChart {
  private readonly chart = new ChartView((b) => this.brushed(b));
  private showTable = false;
  private brush: Brush | undefined;
  /** The brush's filters were applied: the next view tells how many rows they keep. */
  private applied = false;
  /** Counts the charts asked to draw: a frame drawing an older one gives way. */
  private drawGeneration = 0;
  private readonly controls = el('div', { className: 'analysis-row' });
  private readonly caption = el('div', { className: 'analysis-caption dim' });
  private readonly brushBox = el('div', { className: 'analysis-brush' });
  private readonly tools = el('div', { className: 'analysis-row' });
  private readonly tableBox = el('div', { className: 'analysis-table' });

  constructor(
    private readonly owner: ChartOwner,
    private readonly host: Host,
    private readonly state: TableState,
    private readonly actions: TableActions,
    private readonly status: StatusLine,
    /** Whether the panel shows (a frame drawing for a closed panel gives way). */
    private readonly isOpen: () => boolean,
  ) {}

  /** The chart's parts, in the panel's order. */
  get parts(): HTMLElement[] {
    return [this.controls, this.chart.el, this.caption, this.brushBox, this.tools, this.tableBox];
  }

  /** The brush's filters were applied and the view that tells their rows has not come yet. */
  get brushApplied(): boolean {
    return this.applied;
  }

  /** New figures are on the way: the chart and the brush go. */
  clear(): void {
    this.brush = undefined;
    this.chart.clear();
  }

  /** The brush no longer matches what is drawn (the histogram was binned again). */
  forgetBrush(): void {
    this.brush = undefined;
  }

  /** A view arrived: a brush whose filter a chip cleared goes too; an applied brush's offer shows its rows. */
  viewChanged(filters: readonly ColumnFilter[]): void {
    if (this.brush && !this.brush.filters.every((b) => filters.some((f) => f.column === b.column))) {
      this.brush = undefined;
      this.applied = false;
      this.chart.showBrush(undefined);
      this.renderBrush();
    }
    if (this.applied) {
      this.applied = false;
      this.renderBrush();
    }
  }

  /** The controls, the chart (drawn on the next frame, once laid out), its caption, brush, tools and table. */
  render(): void {
    const input = this.owner.input();
    const controls = this.controls;
    controls.textContent = '';
    this.caption.textContent = '';
    this.tools.textContent = '';
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
    if (input.mode === 'scatter') {
      const numeric = info.map((c, i) => ({ c, i })).filter(({ c, i }) => c.numeric && i !== input.column);
      const y = select(
        numeric.map(({ c, i }) => ({ value: String(i), label: c.name })),
        String(input.yColumn),
        (v) => this.owner.chooseY(Number(v)),
        { className: 'dropdown y-select', attrs: { 'aria-label': l10n.t('Against (y axis)'), 'data-key': 'y' } },
      );
      controls.append(el('span', { className: 'dim', text: l10n.t('Against') }), y);
    }
    const spec = this.spec();
    if (input.mode === 'scatter' || input.histogram) controls.append(scaleSelect(input.xScale, 'X', (k) => this.owner.setScale('x', k)));
    if (input.mode === 'scatter') controls.append(scaleSelect(input.yScale, 'Y', (k) => this.owner.setScale('y', k)));
    if (!spec) {
      this.chart.clear();
      this.brushBox.textContent = '';
      if (input.mode === 'profile' && input.profile && !input.profile.histogram) this.caption.textContent = l10n.t('No histogram: the column holds no numbers.');
      return;
    }
    // Drawn once the panel is laid out (the chart takes the panel's width).
    const generation = ++this.drawGeneration;
    requestAnimationFrame(() => {
      if (generation !== this.drawGeneration || !this.isOpen()) return;
      const ms = this.chart.draw(spec);
      this.chart.showBrush(this.queryBrush(spec));
      this.caption.textContent = this.captionText(ms);
    });
    this.caption.textContent = this.captionText(undefined);
    this.renderBrush();
    const save = button(l10n.t('Save as PNG…'), () => this.savePng(), { className: 'secondary', title: l10n.t('Save the chart as a PNG file'), attrs: { 'data-key': 'png' } });
    const tableToggle = button(this.showTable ? l10n.t('Hide Table') : l10n.t('Show as Table'), () => {
      this.showTable = !this.showTable;
      this.render();
      this.tools.querySelector<HTMLElement>('.table-toggle')?.focus();
    }, { className: 'secondary table-toggle', attrs: { 'aria-pressed': String(this.showTable), 'aria-controls': 'analysis-table', 'data-key': 'table' } });
    this.tools.append(save, tableToggle);
    this.tableBox.id = 'analysis-table';
    if (this.showTable) this.tableBox.appendChild(chartTable(spec, (filters, points) => this.showBin(filters, points)));
  }

  /** Draws again with the brush gone (a scale changed on a scatter). */
  redraw(): void {
    this.brush = undefined;
    this.render();
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

  private spec(): ChartSpec | undefined {
    const { mode, scatter, histogram, xScale, yScale } = this.owner.input();
    const name = (c: number): string => this.owner.name(c);
    if (mode === 'scatter') return scatter ? { kind: 'scatter', scatter, xName: name(scatter.x), yName: name(scatter.y), xScale, yScale } : undefined;
    return histogram ? { kind: 'histogram', histogram, xName: name(histogram.column) } : undefined;
  }

  private captionText(ms: number | undefined): string {
    const { mode, scatter, histogram } = this.owner.input();
    const drawn = ms === undefined ? '' : ` Drawn in ${Math.round(ms)} ms.`;
    if (mode === 'scatter' && scatter) {
      const s = scatter;
      const skipped = this.chart.skipped;
      const log = skipped > 0 ? ` ${formatCount(skipped)} not drawn: ≤ 0 on a log axis.` : '';
      return `${formatCount(s.xs.length)} points; ${formatCount(s.left)} rows left out (a cell empty or not a number).${log}${drawn}`;
    }
    const h = histogram;
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
    this.applied = true;
    this.owner.setQuery(q);
    this.renderBrush();
  }

  /** The min/max fields (the keyboard's brush), Apply and Clear, and the "Use these N addresses" offer. */
  private renderBrush(): void {
    const box = this.brushBox;
    box.textContent = '';
    const spec = this.spec();
    if (!spec) return;
    const name = (c: number): string => this.owner.name(c);
    const columns = spec.kind === 'scatter' ? [spec.scatter.x, spec.scatter.y] : [spec.histogram.column];
    const filters = this.state.query().filters ?? [];
    const fields = columns.map((column) => {
      const f = filters.find((x) => x.column === column && x.kind === 'range');
      const range = f?.kind === 'range' ? f : undefined;
      // Bounds are typed and shown in the unit the column's cells are shown in (a ratio as %).
      const unit = this.state.filterUnit(column);
      const inUnit = unit.suffix ? ` (${unit.suffix})` : '';
      const input = (which: 'min' | 'max'): HTMLInputElement => {
        const i = el('input', { className: 'input bound', attrs: { type: 'text', inputmode: 'decimal', 'aria-label': `${name(column)} ${which === 'min' ? 'minimum' : 'maximum'}${inUnit}`, placeholder: `${which}${unit.suffix}`, 'data-key': `${which}-${column}` } });
        const v = range?.[which];
        i.value = v === undefined ? '' : boundShown(v, unit);
        i.addEventListener('keydown', (e) => {
          if (e.key === 'Enter') apply();
        });
        return i;
      };
      return { column, unit, min: input('min'), max: input('max') };
    });
    const error = el('div', { className: 'error-text', attrs: { 'aria-live': 'assertive' } });
    const apply = (): void => {
      const typed = typedFilters(fields.map((f) => ({ column: f.column, min: f.min.value, max: f.max.value, unit: f.unit })));
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
      this.applied = true;
      this.owner.setQuery(q);
    };
    const clear = (): void => {
      let q = this.state.query();
      for (const c of columns) q = withFilter(q, c, undefined);
      this.brush = undefined;
      this.chart.showBrush(undefined);
      this.owner.setQuery(q);
    };
    const fieldset = el('fieldset', { className: 'analysis-fields' }, [el('legend', { className: 'dim', text: spec.kind === 'scatter' ? l10n.t('Brush: drag a rectangle, or type the bounds') : l10n.t('Brush: drag across bars, or type the bounds') })]);
    for (const f of fields) fieldset.appendChild(el('div', { className: 'analysis-row' }, [el('span', { className: 'bound-name', text: name(f.column), title: name(f.column) }), f.min, el('span', { text: '–' }), f.max]));
    fieldset.appendChild(el('div', { className: 'analysis-row' }, [button(l10n.t('Apply'), apply, { className: 'secondary' }), button(l10n.t('Clear'), clear, { className: 'secondary' })]));
    fieldset.appendChild(error);
    box.appendChild(fieldset);
    // The offer, once the view holds the brushed rows.
    const active = columns.some((c) => filters.some((f) => f.column === c));
    const address = this.addressColumn();
    if (active && !this.applied && !this.state.pendingQuery) {
      const n = this.state.rowCount;
      const said = el('div', { className: 'analysis-row' }, [el('span', { text: l10n.t('{0} rows in the {1}.', formatCount(n), this.brush ? 'brush' : 'filters') })]);
      if (address !== undefined) {
        const use = button(l10n.t('Use these {0} addresses as input to…', formatCount(n)), () => this.actions.useAsInput(address, name(address)), {
          className: 'primary',
          title: l10n.t('The {0} column of the {1} rows (the price shows first)', name(address), formatCount(n)),
        });
        use.disabled = n === 0;
        said.appendChild(use);
      }
      box.appendChild(said);
    } else if (this.brush && this.applied) box.appendChild(el('div', { className: 'dim', text: this.brush.count >= 0 ? l10n.t('{0} in the brush; filtering the table…', formatCount(this.brush.count)) : l10n.t('Filtering the table…') }));
  }

  /** A row of the scatter's table: its points become the table's rows (the brush shows the bin on the chart). */
  private showBin(filters: ColumnFilter[], points: number): void {
    const [fx, fy] = filters;
    this.brush = { filters, count: points };
    this.chart.showBrush({ ...(fx?.kind === 'range' ? { xmin: fx.min, xmax: fx.max } : {}), ...(fy?.kind === 'range' ? { ymin: fy.min, ymax: fy.max } : {}) });
    this.applyFilters(filters);
  }

  /** The column whose addresses a brush hands on: the wallets (main chain) first. */
  private addressColumn(): number | undefined {
    const info = this.state.model?.info ?? [];
    const main = info.findIndex((c) => c.address === 'main');
    const any = info.findIndex((c) => c.address !== undefined);
    const i = main >= 0 ? main : any;
    return i >= 0 ? i : undefined;
  }

  private savePng(): void {
    const { mode, column, yColumn } = this.owner.input();
    const name = (c: number): string => this.owner.name(c);
    const file = `${modeTitle(mode).toLowerCase()}-${mode === 'scatter' ? `${name(column)}-vs-${name(yColumn)}` : name(column)}`.replace(/[^\w.-]+/gu, '_');
    void this.host.ask({ type: 'savePng', name: file, dataUrl: this.chart.png() }).reply.then((r) => {
      if (r.type === 'done') this.status.say(r.message ?? 'Chart saved.');
      else if (r.type === 'failed') (r.cancelled ? this.status.say.bind(this.status) : this.status.error.bind(this.status))(r.message);
    });
  }
}
