/**
 * Which columns show, in what order, pinned or not, how wide, in what number format; presets by
 * timeframe and metric group; and the layout remembered per endpoint (by column name). No DOM.
 */
import type { ColumnInfo, NumberFormat, TableLayout } from '../shared/tableUiProtocol';
import { GRID_MAX_COLUMN_PX } from '../core/table/windowCells';

interface Preset {
  /** Timeframes whose metric columns show; empty: every timeframe. */
  readonly timeframes: readonly string[];
  /** Metric groups whose columns show; empty: every group. */
  readonly groups: readonly string[];
}

const MIN_WIDTH = 48;
/** The windows' cell limit is made from it: a wider column could show a cut cell's end. */
const MAX_WIDTH = GRID_MAX_COLUMN_PX;

/**
 * The width a column gets before anyone resizes it: room for its name (`ui`: a UI character's
 * width) and for a typical cell (`digit`: a digit's width): an address, a number, or its usual text.
 */
export function naturalWidth(digit: number, ui: number): (c: ColumnInfo) => number {
  return (c) => {
    const nameW = c.name.length * ui + 44;
    const chars = c.address ? (c.address === 'alt' ? 42 : 44) : c.numeric ? 15 : Math.max(6, c.chars ?? 20);
    return Math.round(Math.min(440, Math.max(72, nameW, chars * digit + 20)));
  };
}

/**
 * Where a column the grid stood on is after the shown columns changed (a preset, a hide, a pin):
 * its display index in `after` when it still shows, else the display index of the nearest column
 * of `before` that still does (the next one to its right first, then the one to its left). The
 * grid addresses cells by display index, so without this its active cell would keep the index and
 * land on another column.
 */
export function followColumn(before: readonly number[], after: readonly number[], index: number): number {
  if (after.length === 0) return 0;
  const at = new Map(after.map((c, d) => [c, d]));
  const col = before[index];
  if (col === undefined) return Math.max(0, Math.min(after.length - 1, index));
  for (let k = 0; k < before.length; k++) {
    for (const i of k === 0 ? [index] : [index + k, index - k]) {
      const c = before[i];
      const d = c === undefined ? undefined : at.get(c);
      if (d !== undefined) return d;
    }
  }
  return Math.max(0, Math.min(after.length - 1, index));
}

export class ColumnModel {
  readonly hidden = new Set<number>();
  /** Pinned columns in the order they were pinned. */
  pinned: number[] = [];
  readonly widths = new Map<number, number>();
  readonly formats = new Map<number, NumberFormat>();
  defaultFormat: NumberFormat = 'auto';
  private displayCache: { pinned: number[]; scrolling: number[] } | undefined;
  /** The columns shown when moves() was last asked (or the model built, or a layout applied). */
  private shownBefore: readonly number[] = [];

  constructor(
    readonly info: readonly ColumnInfo[],
    /** The width a column gets before anyone resizes it. */
    private readonly naturalWidth: (c: ColumnInfo) => number,
  ) {
    const firstAddress = info.findIndex((c) => c.address !== undefined);
    if (firstAddress >= 0) this.pinned = [firstAddress];
    this.shownBefore = this.displayed;
  }

  /**
   * Where each display index of the columns shown at the last call went since (followColumn): the
   * grid's active cell stays on its column through a preset, a hide or a pin. Always a valid display
   * index now (0 when nothing shows).
   */
  moves(): (index: number) => number {
    const before = this.shownBefore;
    const after = this.displayed;
    this.shownBefore = after;
    return (index) => followColumn(before, after, index);
  }

  get count(): number {
    return this.info.length;
  }

  /** Call after changing hidden or pinned. */
  changed(): void {
    this.displayCache = undefined;
  }

  private display(): { pinned: number[]; scrolling: number[] } {
    if (!this.displayCache) {
      const pinnedSet = new Set(this.pinned);
      const pinned = this.pinned.filter((c) => !this.hidden.has(c));
      const scrolling: number[] = [];
      for (let c = 0; c < this.info.length; c++) if (!pinnedSet.has(c) && !this.hidden.has(c)) scrolling.push(c);
      this.displayCache = { pinned, scrolling };
    }
    return this.displayCache;
  }

  /** Pinned columns that show, in pin order. */
  get pinnedColumns(): readonly number[] {
    return this.display().pinned;
  }

  /** Columns that scroll sideways, in file order. */
  get scrollingColumns(): readonly number[] {
    return this.display().scrolling;
  }

  /** Every shown column, as displayed: pinned first. A display index addresses this list. */
  get displayed(): number[] {
    const d = this.display();
    return [...d.pinned, ...d.scrolling];
  }

  get shownCount(): number {
    const d = this.display();
    return d.pinned.length + d.scrolling.length;
  }

  isPinned(c: number): boolean {
    return this.pinned.includes(c);
  }

  width(c: number): number {
    const own = this.widths.get(c);
    if (own !== undefined) return own;
    const info = this.info[c];
    return info ? this.naturalWidth(info) : 100;
  }

  setWidth(c: number, w: number): void {
    this.widths.set(c, Math.round(Math.min(MAX_WIDTH, Math.max(MIN_WIDTH, w))));
  }

  togglePin(c: number): void {
    this.pinned = this.isPinned(c) ? this.pinned.filter((p) => p !== c) : [...this.pinned, c];
    this.hidden.delete(c);
    this.changed();
  }

  setHidden(c: number, hide: boolean): void {
    if (hide) this.hidden.add(c);
    else this.hidden.delete(c);
    this.changed();
  }

  /** Shows the identity columns and the metric columns of the chosen timeframes and groups; hides the other metrics. */
  applyPreset(p: Preset): void {
    this.info.forEach((col, c) => {
      if (!col.metric) return;
      const tfOk = p.timeframes.length === 0 || p.timeframes.includes(col.timeframe ?? '');
      const groupOk = p.groups.length === 0 || p.groups.includes(col.group ?? '');
      if (tfOk && groupOk) this.hidden.delete(c);
      else this.hidden.add(c);
    });
    this.changed();
  }

  showAll(): void {
    this.hidden.clear();
    this.changed();
  }

  /** Hides every column but the pinned ones and those that are not metrics. */
  hideMetrics(): void {
    this.info.forEach((col, c) => {
      if (col.metric && !this.isPinned(c)) this.hidden.add(c);
    });
    this.changed();
  }

  /** The layout to remember, by column name. */
  toLayout(): TableLayout {
    const name = (c: number): string => this.info[c]?.name ?? '';
    const widths: Record<string, number> = {};
    for (const [c, w] of this.widths) widths[name(c)] = w;
    const formats: Record<string, NumberFormat> = {};
    for (const [c, f] of this.formats) formats[name(c)] = f;
    return { hidden: [...this.hidden].map(name), pinned: this.pinned.map(name), widths, formats, defaultFormat: this.defaultFormat };
  }

  /** Applies a remembered layout; names the file does not have are ignored. */
  applyLayout(layout: TableLayout): void {
    const byName = new Map(this.info.map((col, c) => [col.name, c]));
    const index = (n: string): number | undefined => byName.get(n);
    this.hidden.clear();
    for (const n of layout.hidden) {
      const c = index(n);
      if (c !== undefined) this.hidden.add(c);
    }
    this.pinned = layout.pinned.map(index).filter((c): c is number => c !== undefined);
    this.widths.clear();
    for (const [n, w] of Object.entries(layout.widths)) {
      const c = index(n);
      if (c !== undefined) this.setWidth(c, w);
    }
    this.formats.clear();
    for (const [n, f] of Object.entries(layout.formats)) {
      const c = index(n);
      if (c !== undefined) this.formats.set(c, f);
    }
    this.defaultFormat = layout.defaultFormat;
    this.changed();
    // Never hide every column: a file whose names all differ would show nothing.
    if (this.shownCount === 0) this.showAll();
    this.shownBefore = this.displayed;
  }
}
