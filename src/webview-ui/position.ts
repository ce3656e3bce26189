/**
 * Where the person is in the table (the status line's words are positionText.ts's): the scroll
 * position, active cell and open wallet card kept in the webview's state, so a hidden
 * and shown-again tab (or a reloaded window) opens the same file where it was left (issue 35 item 8:
 * the card was dropped).
 */
import type { Grid } from './grid';
import type { Host } from './host';

interface SavedState {
  readonly file: string;
  readonly scrollTop: number;
  readonly scrollLeft: number;
  readonly row: number;
  readonly col: number;
  /** The view row open as a wallet card; absent when the table showed. */
  readonly card?: number;
}

const SAVE_DELAY_MS = 300;

/** Keeps the grid's place in the webview state, a moment after it last moved. */
export class PlaceMemory {
  private timer = 0;

  /** `current` gives the grid, its file and the card's row when there is one (read when the save happens). */
  constructor(
    private readonly host: Host,
    private readonly current: () => { grid: Grid; file: string; card: number | undefined } | undefined,
  ) {}

  saveSoon(): void {
    clearTimeout(this.timer);
    this.timer = window.setTimeout(() => this.saveNow(), SAVE_DELAY_MS);
  }

  /** Saves at once: a card opened or closed (the tab may be left the next moment). */
  saveNow(): void {
    clearTimeout(this.timer);
    const c = this.current();
    if (!c) return;
    const { grid, file, card } = c;
    const s: SavedState = { file, scrollTop: grid.scroller.scrollTop, scrollLeft: grid.scroller.scrollLeft, row: grid.active.row, col: grid.active.col, ...(card !== undefined ? { card } : {}) };
    this.host.setState(s);
  }

  /**
   * Puts a new grid back where it was, if its file is the one saved; returns what else was saved
   * for it (the card's row, undefined when the table showed), or undefined when nothing was.
   */
  restore(grid: Grid, file: string): { readonly card: number | undefined } | undefined {
    const saved = this.host.getState<SavedState>();
    if (!saved || saved.file !== file) return undefined;
    grid.scroller.scrollTop = saved.scrollTop;
    grid.scroller.scrollLeft = saved.scrollLeft;
    grid.active = { row: saved.row, col: saved.col };
    grid.anchor = grid.active;
    return { card: saved.card };
  }
}
