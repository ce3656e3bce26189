/**
 * The cells the webview holds: only windows it asked for, by view row and source column, in
 * blocks of BLOCK rows. Tracks which (block, column) pairs are asked for or held, so a scroll asks
 * only for what is missing, and drops blocks far from the viewport when it holds too many.
 * Cleared whenever the view changes (a new sort, filter or search). No DOM. A cell the window
 * brought cut (its first characters only, for the grid to draw) is held as cut: never its value.
 */

export const BLOCK = 64;
/** Blocks kept at most (64 × 48 = 3,072 rows of the shown columns: a few MB). */
const MAX_BLOCKS = 48;

export interface WindowAsk {
  readonly block: number;
  readonly first: number;
  readonly last: number;
  readonly columns: number[];
}

export class CellCache {
  private readonly rows = new Map<number, Map<number, string>>();
  /** Per row: the columns whose text is cut. */
  private readonly cutCells = new Map<number, Set<number>>();
  /** Per block: columns asked for or held. */
  private readonly asked = new Map<number, Set<number>>();
  /** Blocks in the order they were last used (oldest first). */
  private readonly used = new Map<number, true>();

  get(row: number, column: number): string | undefined {
    return this.rows.get(row)?.get(column);
  }

  /** Whether the cell's text is held cut (only its first characters). */
  isCut(row: number, column: number): boolean {
    return this.cutCells.get(row)?.has(column) === true;
  }

  /** What to ask for so that rows [first, last) × columns are held or on their way; marks them asked. */
  plan(first: number, last: number, columns: readonly number[], rowCount: number): WindowAsk[] {
    const asks: WindowAsk[] = [];
    if (last <= first || columns.length === 0) return asks;
    for (let b = Math.floor(first / BLOCK); b * BLOCK < last; b++) {
      this.touch(b);
      const set = this.asked.get(b) ?? new Set<number>();
      this.asked.set(b, set);
      const missing = columns.filter((c) => !set.has(c));
      const start = b * BLOCK;
      const end = Math.min(rowCount, start + BLOCK);
      if (missing.length === 0 || end <= start) continue;
      for (const c of missing) set.add(c);
      asks.push({ block: b, first: start, last: end, columns: missing });
    }
    return asks;
  }

  /**
   * A window arrived: rows from `start`, cells[i][j] for columns[j]. `unasked`: it came without a
   * request, so the blocks it fills whole are marked held (and not asked for again). `cut`: the
   * cells (i × columns.length + j) that came cut.
   */
  put(start: number, columns: readonly number[], cells: readonly (readonly string[])[], unasked = false, cut: readonly number[] = []): void {
    if (unasked) {
      for (let b = Math.ceil(start / BLOCK); (b + 1) * BLOCK <= start + cells.length; b++) {
        const set = this.asked.get(b) ?? new Set<number>();
        this.asked.set(b, set);
        this.touch(b);
        for (const c of columns) set.add(c);
      }
    }
    for (let i = 0; i < cells.length; i++) {
      const r = start + i;
      let row = this.rows.get(r);
      if (!row) {
        row = new Map();
        this.rows.set(r, row);
      }
      const values = cells[i] ?? [];
      for (let j = 0; j < columns.length; j++) row.set(columns[j] ?? 0, values[j] ?? '');
      const was = this.cutCells.get(r);
      if (was) for (const c of columns) was.delete(c);
    }
    for (const at of cut) {
      const r = start + Math.floor(at / columns.length);
      const set = this.cutCells.get(r) ?? new Set<number>();
      this.cutCells.set(r, set);
      set.add(columns[at % columns.length] ?? 0);
    }
  }

  /** An ask failed or was cancelled: it may be asked again. */
  forget(ask: WindowAsk): void {
    const set = this.asked.get(ask.block);
    if (set) for (const c of ask.columns) set.delete(c);
  }

  /** Drops the least recently used blocks beyond the limit, never those in [keepFirst, keepLast). */
  evict(keepFirst: number, keepLast: number): void {
    if (this.used.size <= MAX_BLOCKS) return;
    const keepA = Math.floor(keepFirst / BLOCK);
    const keepB = Math.floor(Math.max(keepFirst, keepLast - 1) / BLOCK);
    for (const b of this.used.keys()) {
      if (this.used.size <= MAX_BLOCKS) break;
      if (b >= keepA && b <= keepB) continue;
      this.used.delete(b);
      this.asked.delete(b);
      for (let r = b * BLOCK; r < (b + 1) * BLOCK; r++) {
        this.rows.delete(r);
        this.cutCells.delete(r);
      }
    }
  }

  clear(): void {
    this.rows.clear();
    this.cutCells.clear();
    this.asked.clear();
    this.used.clear();
  }

  /** Rows held (for tests and the probe). */
  get size(): number {
    return this.rows.size;
  }

  private touch(b: number): void {
    this.used.delete(b);
    this.used.set(b, true);
  }
}
