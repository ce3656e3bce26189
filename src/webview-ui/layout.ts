/**
 * The grid's geometry, without the DOM: which rows and columns intersect the viewport, where they
 * sit, and where to scroll to show one. Rows have one height; columns have their own widths.
 *
 * Browsers cap an element's height (Chromium near 33.5 million px). Up to MAX_SCROLL_HEIGHT the
 * body is rows × row height; above it (about 360,000 rows of 22 px) the scroll range is
 * compressed: the scroll position maps proportionally onto the rows, and the rows in view are
 * placed around the current scroll position.
 */

export const MAX_SCROLL_HEIGHT = 8_000_000;

export class RowAxis {
  constructor(
    readonly count: number,
    readonly rowHeight: number,
    /** Height of the body's visible area (the viewport minus the header). */
    readonly viewport: number,
  ) {}

  private get natural(): number {
    return this.count * this.rowHeight;
  }

  /** True when the scroll range is compressed. */
  get scaled(): boolean {
    return this.natural > MAX_SCROLL_HEIGHT;
  }

  /** Height of the scrollable body. */
  get height(): number {
    return Math.min(this.natural, MAX_SCROLL_HEIGHT);
  }

  /** Rows that fit in the viewport (fractional). */
  get visibleRows(): number {
    return this.viewport / this.rowHeight;
  }

  private get maxScroll(): number {
    return Math.max(0, this.height - this.viewport);
  }

  private get maxTop(): number {
    return Math.max(0, this.count - this.visibleRows);
  }

  /** The (fractional) row at the top of the viewport. */
  topRow(scrollTop: number): number {
    if (!this.scaled) return Math.max(0, scrollTop) / this.rowHeight;
    const m = this.maxScroll;
    return m > 0 ? Math.min(1, Math.max(0, scrollTop / m)) * this.maxTop : 0;
  }

  /** The scroll position that puts `top` (a fractional row) at the top of the viewport. */
  scrollForTop(top: number): number {
    const t = Math.min(Math.max(0, top), this.maxTop);
    if (!this.scaled) return t * this.rowHeight;
    return this.maxTop > 0 ? (t / this.maxTop) * this.maxScroll : 0;
  }

  /** Where row r starts in the body, for the current scroll position. */
  rowY(r: number, scrollTop: number): number {
    if (!this.scaled) return r * this.rowHeight;
    return Math.max(0, scrollTop) + (r - this.topRow(scrollTop)) * this.rowHeight;
  }

  /** Rows [first, last) that intersect the viewport, widened by `overscan` on each side. */
  range(scrollTop: number, overscan: number): [number, number] {
    if (this.count === 0) return [0, 0];
    const top = this.topRow(scrollTop);
    const first = Math.max(0, Math.floor(top) - overscan);
    const last = Math.min(this.count, Math.ceil(top + this.visibleRows) + overscan);
    return [first, Math.max(first, last)];
  }

  /** The scroll position that shows row r whole, moving as little as possible. */
  scrollToShow(r: number, scrollTop: number): number {
    const top = this.topRow(scrollTop);
    if (r < top) return this.scrollForTop(r);
    if (r + 1 > top + this.visibleRows) return this.scrollForTop(r + 1 - this.visibleRows);
    return scrollTop;
  }
}

/** Columns laid side by side, by their widths. */
export class ColumnAxis {
  /** starts[j] is where column j begins; starts[n] is the total width. */
  readonly starts: Float64Array;

  constructor(widths: readonly number[]) {
    this.starts = new Float64Array(widths.length + 1);
    for (let j = 0; j < widths.length; j++) this.starts[j + 1] = (this.starts[j] ?? 0) + (widths[j] ?? 0);
  }

  get count(): number {
    return this.starts.length - 1;
  }

  get total(): number {
    return this.starts[this.count] ?? 0;
  }

  start(j: number): number {
    return this.starts[Math.max(0, Math.min(j, this.count))] ?? 0;
  }

  /** The column holding x (clamped to the columns there are). */
  at(x: number): number {
    let lo = 0;
    let hi = this.count - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((this.starts[mid] ?? 0) <= x) lo = mid;
      else hi = mid - 1;
    }
    return Math.max(0, lo);
  }

  /** Columns [first, last) intersecting [from, from + width), widened by overscan. */
  range(from: number, width: number, overscan: number): [number, number] {
    if (this.count === 0 || width <= 0) return [0, 0];
    const first = Math.max(0, this.at(from) - overscan);
    const last = Math.min(this.count, this.at(from + width - 1) + 1 + overscan);
    return [first, Math.max(first, last)];
  }

  /**
   * The column cut by the left edge when scrolled by `scroll` (the one sliding under pinned
   * columns) and how many of its pixels are hidden; undefined when a column starts right there.
   */
  covered(scroll: number): { column: number; px: number } | undefined {
    if (this.count === 0 || scroll <= 0 || scroll >= this.total) return undefined;
    const column = this.at(scroll);
    const px = scroll - this.start(column);
    return px > 0 ? { column, px } : undefined;
  }

  /** The scroll offset that shows column j whole in a view `width` wide, moving as little as possible. */
  scrollToShow(j: number, scroll: number, width: number): number {
    const a = this.start(j);
    const b = this.start(j + 1);
    if (a < scroll) return a;
    if (b > scroll + width) return Math.max(0, Math.min(a, b - width));
    return scroll;
  }
}
