/**
 * The window feed: asks the host for the windows of cells the grid is about to show, keeps what
 * comes back in the CellCache, cancels asks far from the viewport, and drops late windows of an
 * older view (an epoch grows whenever the cells are cleared). Also notes, once per page, when the
 * first rows reach the screen. No page parts of its own: it tells its owner when to redraw.
 */
import type { TableWindow } from '../shared/tableProtocol';
import { BLOCK, CellCache, type WindowAsk } from './cellCache';
import type { Host, Reply } from './host';

/** What the feed reads from and tells its owner. */
interface FeedOwner {
  /** The version of the view shown now, if any: windows of another version are stale. */
  version(): number | undefined;
  /** Whether the grid exists (the first paint is only noted once it does). */
  hasGrid(): boolean;
  /** Cells arrived (or must be asked again): redraw on the next frame. */
  redraw(): void;
  /** A window could not be read. */
  failed(message: string): void;
}

export class WindowFeed {
  private readonly cache = new CellCache();
  private readonly inflight = new Map<number, { ask: WindowAsk; epoch: number }>();
  /** Grows whenever the cache is cleared, so late windows of an older view are dropped. */
  private epoch = 0;
  private painted = false;

  constructor(
    private readonly host: Host,
    private readonly owner: FeedOwner,
  ) {}

  /** The text of a cell as held (cut, when isCut says so), or undefined while its window is on the way. */
  get(row: number, column: number): string | undefined {
    return this.cache.get(row, column);
  }

  /** Whether the held text is only the cell's first characters (the grid's windows cut long cells). */
  isCut(row: number, column: number): boolean {
    return this.cache.isCut(row, column);
  }

  /** The cell's whole value when held, else undefined (not here yet, or cut: ask the host for it). */
  whole(row: number, column: number): string | undefined {
    return this.cache.isCut(row, column) ? undefined : this.cache.get(row, column);
  }

  /** How many cells are held. */
  get size(): number {
    return this.cache.size;
  }

  /** The first rows, sent unasked with init. */
  first(window: TableWindow): void {
    if (window.version !== this.owner.version()) return;
    this.cache.put(window.start, window.columns, window.cells, true, window.cut);
    this.owner.redraw();
    this.markPainted();
  }

  /** Rows [first, last) of these columns are about to show in a view of `length` rows: ask for what is missing. */
  ensure(first: number, last: number, columns: readonly number[], length: number): void {
    for (const ask of this.cache.plan(first, last, columns, length)) {
      const epoch = this.epoch;
      // Cut: the grid draws a column's width of a cell, never 20 KB of it (core/table/windowCells.ts).
      const p = this.host.ask({ type: 'getWindow', first: ask.first, last: ask.last, columns: ask.columns, cut: true });
      this.inflight.set(p.id, { ask, epoch });
      void p.reply.then((r) => this.onWindow(p.id, r, ask, epoch));
    }
    // Windows far from what shows now are no longer worth reading.
    for (const [id, f] of this.inflight) {
      if (f.ask.last < first - 2 * BLOCK || f.ask.first > last + 2 * BLOCK) this.host.cancel(id);
    }
    this.cache.evict(first, last);
  }

  /** Drops every cell and cancels every ask (the rows mean something else now). */
  clear(): void {
    this.cache.clear();
    this.epoch++;
    for (const id of this.inflight.keys()) this.host.cancel(id);
    this.inflight.clear();
  }

  /** A new page was built: its first paint is noted again. */
  resetPainted(): void {
    this.painted = false;
  }

  /** Notes when the first rows reach the screen (after the frame that draws them). */
  markPainted(): void {
    if (this.painted || !this.owner.hasGrid()) return;
    this.painted = true;
    // Two frames: the second callback runs once the frame holding the rows has been produced.
    requestAnimationFrame(() =>
      requestAnimationFrame(() => {
        performance.mark('wa:painted');
        document.body.dataset.firstPaintMs = String(Math.round(performance.now()));
        this.host.post({ type: 'log', level: 'info', message: `first rows painted ${document.body.dataset.firstPaintMs} ms after the page started` });
      }),
    );
  }

  private onWindow(id: number, r: Reply, ask: WindowAsk, epoch: number): void {
    this.inflight.delete(id);
    if (epoch !== this.epoch) return;
    if (r.type === 'window' && r.window.version === this.owner.version()) {
      this.cache.put(r.window.start, r.window.columns, r.window.cells, false, r.window.cut);
      this.owner.redraw();
      this.markPainted();
      return;
    }
    this.cache.forget(ask);
    if (r.type === 'failed' && !r.cancelled) this.owner.failed(r.message);
    else if (r.type === 'window') this.owner.redraw(); // stale: ask again for the current view
  }
}
