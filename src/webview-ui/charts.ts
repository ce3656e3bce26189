/**
 * The analysis panel's chart on a canvas (issue 15), drawn directly: no chart library, since a
 * histogram is a few rectangles and a scatter of 100,000 points is fastest as one image (every
 * point counted into its device pixel and blended in, chartMath.ts) rather than a path per point,
 * which is also what uPlot would do for points, at the price of a dependency and its own styling.
 * Colours come from the theme (--vscode-charts-blue, --vscode-editor-foreground, …), the canvas is
 * sized in device pixels (crisp on HiDPI), and a second canvas on top shows the brush while it is
 * dragged: a range of whole bins (histogram) or a rectangle (scatter), handed to the owner in data
 * units. The page's mark `wa:chart-drawn` says when a chart is on screen (e2e measures it).
 */
import type { Histogram, ScatterData } from '../shared/analysisProtocol';
import type { ColumnFilter } from '../shared/tableProtocol';
import {
  binsFilter,
  blendDensity,
  brushBins,
  brushFilters,
  countInBox,
  densityGrid,
  extent,
  histogramBars,
  padDomain,
  parseColor,
  pointColor,
  pointStyle,
  Scale,
  type Rgb,
  type ScaleKind,
} from './chartMath';
import { el } from './dom';
import { l10n } from '../shared/l10n';
import { thousands } from '../core/numberText';

/** A brush in data units; an absent bound spans the axis. */
export interface DataBrush {
  readonly xmin?: number;
  readonly xmax?: number;
  readonly ymin?: number;
  readonly ymax?: number;
}

export type ChartSpec =
  | { readonly kind: 'histogram'; readonly histogram: Histogram; readonly xName: string }
  | { readonly kind: 'scatter'; readonly scatter: ScatterData; readonly xName: string; readonly yName: string; readonly xScale: ScaleKind; readonly yScale: ScaleKind };

/** A brush in data units: the filters it makes and the rows (histogram) or points (scatter) inside. */
export interface Brush {
  readonly filters: readonly ColumnFilter[];
  readonly count: number;
}

interface Theme {
  readonly background: string;
  readonly fg: string;
  readonly dim: string;
  readonly accent: string;
  readonly accentRgb: Rgb;
  readonly brush: string;
  readonly font: string;
  /** VS Code's high-contrast themes (a body class): every point opaque, for contrast. */
  readonly highContrast: boolean;
}

const HEIGHT = 260;
const MARGIN = { left: 58, right: 14, top: 22, bottom: 36 };

function cssVar(name: string, fallback: string): string {
  const v = getComputedStyle(document.body).getPropertyValue(name).trim();
  return v === '' ? fallback : v;
}

function readTheme(): Theme {
  const accent = cssVar('--vscode-charts-blue', '#3794ff');
  const body = getComputedStyle(document.body);
  return {
    background: cssVar('--vscode-editor-background', '#1e1e1e'),
    fg: cssVar('--vscode-editor-foreground', '#cccccc'),
    dim: cssVar('--vscode-descriptionForeground', '#999999'),
    accent,
    accentRgb: parseColor(accent) ?? { r: 55, g: 148, b: 255 },
    brush: cssVar('--vscode-charts-orange', '#d18616'),
    font: `${Math.max(10, (parseFloat(body.fontSize) || 13) - 2)}px ${body.fontFamily}`,
    highContrast: document.body.classList.contains('vscode-high-contrast'),
  };
}

export class ChartView {
  readonly el = el('div', { className: 'chart-box' });
  readonly canvas = el('canvas', { className: 'chart', attrs: { tabindex: '0', role: 'img' } });
  private readonly overlay = el('canvas', { className: 'chart-overlay', attrs: { 'aria-hidden': 'true' } });
  private spec: ChartSpec | undefined;
  private sx: Scale | undefined;
  private sy: Scale | undefined;
  private width = 0;
  private drag: { x0: number; y0: number; x1: number; y1: number } | undefined;
  /** The brush in data units, placed again when the chart is redrawn (a resize). */
  private brushData: DataBrush | undefined;
  /** What the last draw left out (log axes: values ≤ 0). */
  skipped = 0;

  constructor(private readonly brushed: (brush: Brush | undefined) => void) {
    this.el.append(this.canvas, this.overlay);
    new ResizeObserver(() => {
      if (this.spec && Math.abs(this.el.clientWidth - this.width) >= 1) this.draw(this.spec);
    }).observe(this.el);
    this.canvas.addEventListener('pointerdown', (e) => this.down(e));
    this.canvas.addEventListener('pointermove', (e) => this.move(e));
    this.canvas.addEventListener('pointerup', (e) => this.up(e));
    this.canvas.addEventListener('pointercancel', () => this.cancelDrag());
  }

  get kind(): ChartSpec['kind'] | undefined {
    return this.spec?.kind;
  }

  clear(): void {
    this.spec = undefined;
    this.sx = this.sy = undefined;
    this.drag = this.brushData = undefined;
    this.canvas.width = this.overlay.width = 0;
    this.el.hidden = true;
  }

  /** Draws a chart to the box's width; returns how long it took (ms). */
  draw(spec: ChartSpec): number {
    const started = performance.now();
    if (spec !== this.spec) this.brushData = undefined;
    this.spec = spec;
    this.el.hidden = false;
    const dpr = window.devicePixelRatio || 1;
    const w = Math.max(200, Math.floor(this.el.clientWidth || 320));
    this.width = w;
    for (const c of [this.canvas, this.overlay]) {
      c.width = Math.round(w * dpr);
      c.height = Math.round(HEIGHT * dpr);
      c.style.width = `${w}px`;
      c.style.height = `${HEIGHT}px`;
    }
    const ctx = this.canvas.getContext('2d');
    if (!ctx) return 0;
    const theme = readTheme();
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.fillStyle = theme.background;
    ctx.fillRect(0, 0, w, HEIGHT);
    const plot = { x: MARGIN.left, y: MARGIN.top, w: w - MARGIN.left - MARGIN.right, h: HEIGHT - MARGIN.top - MARGIN.bottom };
    if (spec.kind === 'histogram') this.drawHistogram(ctx, spec.histogram, spec.xName, plot, theme);
    else this.drawScatter(ctx, spec, plot, theme, dpr);
    this.showBrush(this.brushData);
    performance.mark('wa:chart-drawn');
    return performance.now() - started;
  }

  private drawHistogram(ctx: CanvasRenderingContext2D, h: Histogram, xName: string, plot: Plot, theme: Theme): void {
    const first = h.edges[0] ?? 0;
    const last = h.edges[h.edges.length - 1] ?? 1;
    const x = h.log ? new Scale('log', 10 ** first, 10 ** (last === first ? first + 1 : last), plot.x, plot.x + plot.w) : new Scale('linear', first, last === first ? first + 1 : last, plot.x, plot.x + plot.w);
    const top = Math.max(1, ...h.counts) * 1.05;
    const y = new Scale('linear', 0, top, plot.y + plot.h, plot.y);
    this.sx = x;
    this.sy = y;
    this.skipped = 0;
    drawGrid(ctx, x, y, plot, theme);
    ctx.fillStyle = theme.accent;
    for (const b of histogramBars(h, x, y)) ctx.fillRect(b.x + (b.w > 3 ? 0.5 : 0), b.y, b.w > 3 ? b.w - 1 : b.w, b.h);
    drawAxes(ctx, x, y, plot, theme, xName, 'rows');
    const label = `Histogram of ${xName}${h.log ? ' (log scale)' : ''}: ${h.counts.length} bins, ${thousands(h.counted)} numbers counted, ${thousands(h.left)} rows left out.`;
    this.canvas.setAttribute('aria-label', label);
  }

  private drawScatter(ctx: CanvasRenderingContext2D, spec: Extract<ChartSpec, { kind: 'scatter' }>, plot: Plot, theme: Theme, dpr: number): void {
    const { xs, ys } = spec.scatter;
    const ex = extent(xs, spec.xScale);
    const ey = extent(ys, spec.yScale);
    const [x0, x1] = padDomain(ex.min, ex.max, spec.xScale);
    const [y0, y1] = padDomain(ey.min, ey.max, spec.yScale);
    const x = new Scale(spec.xScale, x0, x1, plot.x, plot.x + plot.w);
    const y = new Scale(spec.yScale, y0, y1, plot.y + plot.h, plot.y);
    this.sx = x;
    this.sy = y;
    drawGrid(ctx, x, y, plot, theme);
    // The points, in device pixels, blended into the plot as drawn so far (one getImageData/putImageData).
    const px = Math.round(plot.x * dpr);
    const py = Math.round(plot.y * dpr);
    const pw = Math.round(plot.w * dpr);
    const ph = Math.round(plot.h * dpr);
    const dx = new Scale(spec.xScale, x0, x1, 0, pw);
    const dy = new Scale(spec.yScale, y0, y1, ph, 0);
    const style = pointStyle(xs.length, dpr, theme.highContrast);
    const grid = densityGrid(xs, ys, dx, dy, pw, ph, style.size);
    const image = ctx.getImageData(px, py, pw, ph);
    const colour = pointColor(theme.accentRgb, parseColor(theme.background), parseColor(theme.fg));
    blendDensity(grid.counts, grid.max, image.data, colour, style.floor);
    ctx.putImageData(image, px, py);
    this.skipped = grid.skipped;
    drawAxes(ctx, x, y, plot, theme, spec.xName, spec.yName);
    this.canvas.setAttribute('aria-label', l10n.t('Scatter of {0} against {1}: {2} points. Use “Show as table” for the data.', spec.yName, spec.xName, thousands(grid.drawn)));
  }

  /** Shows a brush given in data units (typed into the panel's fields); undefined bounds span the axis. */
  showBrush(b: DataBrush | undefined): void {
    const { sx, sy } = this;
    this.brushData = b;
    if (!b || !sx || !sy) {
      this.drag = undefined;
      this.drawOverlay();
      return;
    }
    const px = (s: Scale, v: number | undefined, end: number): number => (v === undefined || !s.accepts(v) ? end : s.toPx(v));
    this.drag = {
      x0: px(sx, b.xmin, sx.r0),
      x1: px(sx, b.xmax, sx.r1),
      y0: this.spec?.kind === 'scatter' ? px(sy, b.ymin, sy.r0) : sy.r0,
      y1: this.spec?.kind === 'scatter' ? px(sy, b.ymax, sy.r1) : sy.r1,
    };
    this.drawOverlay();
  }

  /** The chart as a PNG data: URL (without the brush). */
  png(): string {
    return this.canvas.toDataURL('image/png');
  }

  // ---- the brush -----------------------------------------------------------------------------

  private point(e: PointerEvent): { x: number; y: number } {
    const r = this.canvas.getBoundingClientRect();
    return { x: e.clientX - r.left, y: e.clientY - r.top };
  }

  private down(e: PointerEvent): void {
    if (!this.sx || !this.sy || e.button !== 0) return;
    const p = this.point(e);
    const sy = this.sy;
    const inside = p.x >= Math.min(this.sx.r0, this.sx.r1) && p.x <= Math.max(this.sx.r0, this.sx.r1) && p.y >= Math.min(sy.r0, sy.r1) && p.y <= Math.max(sy.r0, sy.r1);
    if (!inside) return;
    this.canvas.setPointerCapture(e.pointerId);
    const histogram = this.spec?.kind === 'histogram';
    this.drag = { x0: p.x, x1: p.x, y0: histogram ? sy.r0 : p.y, y1: histogram ? sy.r1 : p.y };
    this.drawOverlay();
  }

  private move(e: PointerEvent): void {
    if (!this.drag || !this.canvas.hasPointerCapture(e.pointerId)) return;
    const p = this.point(e);
    const clampX = (v: number): number => Math.max(MARGIN.left, Math.min(this.width - MARGIN.right, v));
    const clampY = (v: number): number => Math.max(MARGIN.top, Math.min(HEIGHT - MARGIN.bottom, v));
    this.drag = { ...this.drag, x1: clampX(p.x), y1: this.spec?.kind === 'scatter' ? clampY(p.y) : this.drag.y1 };
    this.drawOverlay();
  }

  private up(e: PointerEvent): void {
    const d = this.drag;
    if (!d || !this.canvas.hasPointerCapture(e.pointerId)) return;
    this.canvas.releasePointerCapture(e.pointerId);
    const spec = this.spec;
    const { sx, sy } = this;
    const tiny = Math.abs(d.x1 - d.x0) < 3 && (spec?.kind === 'histogram' || Math.abs(d.y1 - d.y0) < 3);
    if (!spec || !sx || !sy || tiny) {
      this.cancelDrag();
      this.brushed(undefined);
      return;
    }
    if (spec.kind === 'histogram') {
      const bins = brushBins(spec.histogram, sx, d.x0, d.x1);
      if (!bins) return this.cancelDrag();
      const { filter, rows } = binsFilter(spec.histogram, bins[0], bins[1]);
      // The brush snaps to the bins it covers: the filter keeps exactly the rows they count.
      if (filter.kind === 'range') this.showBrush({ xmin: filter.min, xmax: filter.max });
      this.brushed({ filters: [filter], count: rows });
      return;
    }
    const filters = brushFilters(d, sx, sy, spec.scatter.x, spec.scatter.y);
    const fx = filters[0];
    const fy = filters[1] ?? fx;
    if (fx?.kind === 'range' && fy?.kind === 'range') this.brushData = { xmin: fx.min, xmax: fx.max, ymin: fy.min, ymax: fy.max };
    const count = fx?.kind === 'range' && fy?.kind === 'range' ? countInBox(spec.scatter.xs, spec.scatter.ys, fx.min ?? -Infinity, fx.max ?? Infinity, fy.min ?? -Infinity, fy.max ?? Infinity) : 0;
    this.brushed({ filters, count });
  }

  private cancelDrag(): void {
    this.drag = this.brushData = undefined;
    this.drawOverlay();
  }

  private drawOverlay(): void {
    const ctx = this.overlay.getContext('2d');
    if (!ctx) return;
    const dpr = this.overlay.width / Math.max(1, this.width);
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.clearRect(0, 0, this.overlay.width, this.overlay.height);
    const d = this.drag;
    if (!d) return;
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    const color = readTheme().brush;
    const x = Math.min(d.x0, d.x1);
    const y = Math.min(d.y0, d.y1);
    const w = Math.abs(d.x1 - d.x0);
    const h = Math.abs(d.y1 - d.y0);
    ctx.globalAlpha = 0.18;
    ctx.fillStyle = color;
    ctx.fillRect(x, y, w, h);
    ctx.globalAlpha = 1;
    ctx.strokeStyle = color;
    ctx.lineWidth = 1.5;
    ctx.setLineDash([4, 3]);
    ctx.strokeRect(x, y, w, h);
  }
}

interface Plot {
  readonly x: number;
  readonly y: number;
  readonly w: number;
  readonly h: number;
}

function drawGrid(ctx: CanvasRenderingContext2D, x: Scale, y: Scale, plot: Plot, theme: Theme): void {
  ctx.save();
  ctx.strokeStyle = theme.dim;
  ctx.globalAlpha = 0.22;
  ctx.lineWidth = 1;
  ctx.beginPath();
  for (const t of x.ticks(Math.max(2, Math.floor(plot.w / 80)))) {
    const p = Math.round(x.toPx(t.value)) + 0.5;
    ctx.moveTo(p, plot.y);
    ctx.lineTo(p, plot.y + plot.h);
  }
  for (const t of y.ticks(5)) {
    const p = Math.round(y.toPx(t.value)) + 0.5;
    ctx.moveTo(plot.x, p);
    ctx.lineTo(plot.x + plot.w, p);
  }
  ctx.stroke();
  ctx.restore();
}

function drawAxes(ctx: CanvasRenderingContext2D, x: Scale, y: Scale, plot: Plot, theme: Theme, xName: string, yName: string): void {
  ctx.save();
  ctx.strokeStyle = theme.fg;
  ctx.globalAlpha = 0.6;
  ctx.beginPath();
  ctx.moveTo(plot.x + 0.5, plot.y);
  ctx.lineTo(plot.x + 0.5, plot.y + plot.h + 0.5);
  ctx.lineTo(plot.x + plot.w, plot.y + plot.h + 0.5);
  ctx.stroke();
  ctx.globalAlpha = 1;
  ctx.fillStyle = theme.fg;
  ctx.font = theme.font;
  ctx.textAlign = 'center';
  ctx.textBaseline = 'top';
  let right = -Infinity;
  for (const t of x.ticks(Math.max(2, Math.floor(plot.w / 80)))) {
    const p = x.toPx(t.value);
    const half = ctx.measureText(t.label).width / 2;
    if (p - half < right + 6) continue; // no overlapping labels
    ctx.fillText(t.label, p, plot.y + plot.h + 4);
    right = p + half;
  }
  ctx.textAlign = 'right';
  ctx.textBaseline = 'middle';
  for (const t of y.ticks(5)) ctx.fillText(t.label, plot.x - 5, y.toPx(t.value));
  ctx.fillStyle = theme.dim;
  ctx.textAlign = 'center';
  ctx.textBaseline = 'bottom';
  ctx.fillText(fit(ctx, xName + (x.kind === 'log' ? ' (log)' : ''), plot.w), plot.x + plot.w / 2, plot.y + plot.h + 34);
  ctx.textAlign = 'left';
  ctx.textBaseline = 'top';
  ctx.fillText(fit(ctx, yName + (y.kind === 'log' ? ' (log)' : ''), plot.w), 4, 4);
  ctx.restore();
}

/** The text cut with … to fit `width` pixels. */
function fit(ctx: CanvasRenderingContext2D, text: string, width: number): string {
  if (ctx.measureText(text).width <= width) return text;
  let t = text;
  while (t.length > 1 && ctx.measureText(`${t}…`).width > width) t = t.slice(0, -1);
  return `${t}…`;
}
