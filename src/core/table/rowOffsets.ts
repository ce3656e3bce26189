/**
 * Where each row of a delimited file starts: 2 to 4 bytes a row (400 KB for 100,000 rows), the
 * whole index of a file that is never held in memory. Physical rows here include the header.
 *
 * Two forms. Narrow, while every row starts within 64 KiB of the first row of its block of 64:
 * a 16-bit distance a row and a double a block (2.1 bytes a row: the 1,000,000-row quoted file's
 * index 2 MB, not 4; it was a tenth of that file's peak memory, issue 34). Wide, from the first row
 * that does not fit (files of long rows, which have few): starts as their low 32 bits, with the
 * rows where a start passes the next 4 GiB noted apart; the change is one copy. Line numbers (for notices) are kept as a checkpoint every 1,024 rows plus, once some row
 * holds line breaks (quoted cells) or blank lines follow it, one byte a row of extra line breaks.
 */

import { CR } from './bytes';

/** A longer row is read only this far (a file ending inside an open quote is one such row). Here, below the readers, since the index counts such rows. */
export const MAX_ROW_BYTES = 64 << 20;

const BLOCK_SHIFT = 10;
const BLOCK = 1 << BLOCK_SHIFT;
const GIB4 = 2 ** 32;
/** Rows of a block of the narrow form (2^NEAR_SHIFT), and the farthest a row may start from its block's first row. */
const NEAR_SHIFT = 6;
const NEAR_BLOCK = 1 << NEAR_SHIFT;
const NEAR_MAX = 0xffff;

/** Where a scan stands between rows: the next row's first byte, and the line feeds before it. */
export interface RowCursor {
  rowStart: number;
  rowStartNewlines: number;
}

export class RowOffsets {
  /** The narrow form: row r starts at firsts[r >> NEAR_SHIFT] + near[r]; undefined once wide. */
  private near: Uint16Array | undefined = new Uint16Array(4096);
  private firsts = new Float64Array(4096 >> NEAR_SHIFT);
  /** The wide form (empty while narrow). */
  private starts = new Uint32Array(0);
  /** highRows[k]: the first row whose start is at or past (k + 1) × 4 GiB. */
  private readonly highRows: number[] = [];
  private count = 0;
  /** File offset just past the last registered row (its line ending included). */
  private lastEnd = 0;
  // Line of each row = row + shift, shift = line breaks so far minus rows so far (0 in a plain file).
  // The shift at every 1,024th row, and how much it grew at each other row (255: see bigSteps).
  private readonly blockShift: number[] = [];
  private steps: Uint8Array | undefined;
  private readonly bigSteps = new Map<number, number>();
  private lastShift = 0;
  // Rows longer than MAX_ROW_BYTES, counted as the next row is registered (a loop over a million
  // rows after the index was ~4 ms of a fresh process's index).
  private lastStart = 0;
  private longCount = 0;
  private firstLong = 0;

  /**
   * The row that ends inside a quoted cell never closed (only ever the file's last), or -1: its
   * trailing line breaks are the cell's text, not a line ending (rowEnd keeps them).
   */
  openRow = -1;

  /** Bytes the index holds (its arrays' lengths, spare room included). */
  get heldBytes(): number {
    return (this.near ? this.near.byteLength + this.firsts.byteLength : this.starts.byteLength) + (this.steps?.byteLength ?? 0);
  }

  /** Rows the arrays have room for. */
  private get capacity(): number {
    return (this.near ?? this.starts).length;
  }

  /** Number of physical rows registered. */
  get length(): number {
    return this.count;
  }

  /** Registers a row that starts at `start`, after `newlinesBefore` line breaks, and ends before `end`. */
  push(start: number, end: number, newlinesBefore: number): void {
    if (this.count === this.capacity) this.reserve(this.capacity * 2);
    const r = this.count++;
    if (start - this.lastStart > MAX_ROW_BYTES && r > 0 && this.longCount++ === 0) this.firstLong = r - 1;
    this.lastStart = start;
    const near = this.near;
    if (near) {
      if ((r & (NEAR_BLOCK - 1)) === 0) this.firsts[r >>> NEAR_SHIFT] = start;
      const d = start - (this.firsts[r >>> NEAR_SHIFT] ?? 0);
      if (d <= NEAR_MAX) near[r] = d;
      else this.widen(r);
    }
    if (!this.near) {
      if (start >= GIB4) while (start >= GIB4 * (this.highRows.length + 1)) this.highRows.push(r);
      this.starts[r] = start; // a Uint32Array keeps the low 32 bits
    }
    const shift = newlinesBefore - r;
    if ((r & (BLOCK - 1)) === 0) this.blockShift.push(shift);
    else if (shift !== this.lastShift) this.noteStep(r, shift - this.lastShift);
    this.lastShift = shift;
    this.lastEnd = end;
  }

  /**
   * Registers the rows that end at the scan kernel's line feeds (RowScanner.feedKernel): `ends`
   * holds n pairs, a line feed's place in `chunk` and the line feeds before it since `newlines`;
   * `chunk` is at file offset `base`, `prevByte` the byte before it; `cursor` is where the next
   * row starts and the line feeds before it, moved on past each. A row of no bytes or of a lone
   * CR (a blank line) is skipped, as push()'s callers do. push()'s work with its fields in locals,
   * one call a chunk: a call a row was a quarter of the 1,000,000-row quoted file's index (issue 34).
   */
  pushEnds(chunk: Uint8Array, base: number, ends: Uint32Array, n: number, newlines: number, prevByte: number, cursor: RowCursor): void {
    let rowStart = cursor.rowStart;
    let rowStartNewlines = cursor.rowStartNewlines;
    if (base + chunk.length >= GIB4) {
      // Starts past 4 GiB (a file that big) take push(), which notes them.
      for (let i = 0; i < n; i++) {
        const lfAt = ends[2 * i] ?? 0;
        const length = base + lfAt - rowStart;
        if (length > 1 || (length === 1 && (lfAt > 0 ? chunk[lfAt - 1] : prevByte) !== CR)) this.push(rowStart, base + lfAt + 1, rowStartNewlines);
        rowStart = base + lfAt + 1;
        rowStartNewlines = newlines + (ends[2 * i + 1] ?? 0) + 1;
      }
    } else {
      if (this.count + n > this.capacity) this.reserve(Math.max(this.count + n, this.capacity * 2));
      // Starts below 4 GiB here: the wide form needs no high rows; the narrow one widens at most once.
      let near = this.near;
      const firsts = this.firsts;
      let starts = this.starts;
      let steps = this.steps;
      let count = this.count;
      let lastStart = this.lastStart;
      let lastShift = this.lastShift;
      let lastEnd = this.lastEnd;
      for (let i = 0; i < n; i++) {
        const lfAt = ends[2 * i] ?? 0;
        const end = base + lfAt + 1;
        const length = end - 1 - rowStart;
        if (length > 1 || (length === 1 && (lfAt > 0 ? chunk[lfAt - 1] : prevByte) !== CR)) {
          const r = count++;
          if (rowStart - lastStart > MAX_ROW_BYTES && r > 0 && this.longCount++ === 0) this.firstLong = r - 1;
          lastStart = rowStart;
          if (near) {
            if ((r & (NEAR_BLOCK - 1)) === 0) firsts[r >>> NEAR_SHIFT] = rowStart;
            const d = rowStart - (firsts[r >>> NEAR_SHIFT] ?? 0);
            if (d <= NEAR_MAX) near[r] = d;
            else {
              this.widen(r);
              near = undefined;
              starts = this.starts;
              starts[r] = rowStart;
            }
          } else starts[r] = rowStart;
          const shift = rowStartNewlines - r;
          // Once one row has a step, every row's is written (0 mostly): a branch on whether a
          // row holds a line break, in a file where half the rows do, was mispredicted half the
          // time (about 8 ms of the 1,000,000-row quoted file's ~20 ms here).
          if ((r & (BLOCK - 1)) === 0) this.blockShift.push(shift);
          else if (steps) steps[r] = shift - lastShift < 255 ? shift - lastShift : this.bigStep(r, shift - lastShift);
          else if (shift !== lastShift) {
            this.noteStep(r, shift - lastShift);
            steps = this.steps;
          }
          lastShift = shift;
          lastEnd = end;
        }
        rowStart = end;
        rowStartNewlines = newlines + (ends[2 * i + 1] ?? 0) + 1;
      }
      this.count = count;
      this.lastStart = lastStart;
      this.lastShift = lastShift;
      this.lastEnd = lastEnd;
    }
    cursor.rowStart = rowStart;
    cursor.rowStartNewlines = rowStartNewlines;
  }

  /** Turns the index wide, rows [0, rows) copied (row `rows` and on are the caller's to store). */
  private widen(rows: number): void {
    const near = this.near;
    if (!near) return;
    const starts = new Uint32Array(near.length);
    for (let r = 0; r < rows; r++) {
      const start = (this.firsts[r >>> NEAR_SHIFT] ?? 0) + (near[r] ?? 0);
      if (start >= GIB4) while (start >= GIB4 * (this.highRows.length + 1)) this.highRows.push(r);
      starts[r] = start;
    }
    this.starts = starts;
    this.near = undefined;
    this.firsts = new Float64Array(0);
  }

  /** Row r has `step` more line breaks before it than rows (not at a block's start). */
  private noteStep(r: number, step: number): void {
    this.steps ??= new Uint8Array(this.capacity);
    this.steps[r] = step < 255 ? step : this.bigStep(r, step);
  }

  /** A step of 255 or more: kept apart, 255 in `steps` (line() looks it up). */
  private bigStep(r: number, step: number): number {
    this.bigSteps.set(r, step);
    return 255;
  }

  /** Rows whose bytes (limit − start) pass MAX_ROW_BYTES: how many, and the first (0 when none). */
  longRows(): { count: number; first: number } {
    let count = this.longCount;
    let first = this.firstLong;
    if (this.count > 0 && this.lastEnd - this.lastStart > MAX_ROW_BYTES && count++ === 0) first = this.count - 1;
    return { count, first };
  }

  /** First byte of row r. */
  start(r: number): number {
    if (r >= this.count) return this.lastEnd;
    if (this.near) return (this.firsts[r >>> NEAR_SHIFT] ?? 0) + (this.near[r] ?? 0);
    const low = this.starts[r] ?? 0;
    if (this.highRows.length === 0) return low;
    let high = 0;
    while (high < this.highRows.length && (this.highRows[high] ?? 0) <= r) high++;
    return low + high * GIB4;
  }

  /** Byte after row r's bytes (its line ending and any blank lines after it included). */
  limit(r: number): number {
    return r + 1 < this.count ? this.start(r + 1) : this.lastEnd;
  }

  /** Where rows first..last − 1 start, then where row last − 1 ends (its limit): last − first + 1 values, for rows that start below 4 GiB. */
  bounds(first: number, last: number): Uint32Array {
    const out = new Uint32Array(Math.max(0, last - first) + 1);
    if (last <= first) return out;
    if (this.near) for (let r = first; r < last; r++) out[r - first] = this.start(r);
    else if (this.highRows.length === 0) out.set(this.starts.subarray(first, last));
    else for (let r = first; r < last; r++) out[r - first] = this.start(r);
    out[last - first] = this.limit(last - 1);
    return out;
  }

  /** 1-based line of the file on which row r starts. */
  line(r: number): number {
    if (this.count === 0) return r + 1;
    const row = Math.min(r, this.count - 1);
    const block = row >>> BLOCK_SHIFT;
    let shift = this.blockShift[block] ?? 0;
    if (this.steps) {
      for (let i = (block << BLOCK_SHIFT) + 1; i <= row; i++) {
        const step = this.steps[i] ?? 0;
        shift += step === 255 ? (this.bigSteps.get(i) ?? 255) : step;
      }
    }
    // Rows past the last share its shift (a row about to be registered).
    return r + shift + 1;
  }

  /** The row whose bytes contain file offset `at` (the last row starting at or before it). */
  rowAt(at: number): number {
    let lo = 0;
    let hi = this.count - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.start(mid) <= at) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  /**
   * Makes room for `rows` rows in one step (an estimate from the first rows): growing by doubling
   * leaves every smaller array behind as garbage, and the peak RSS pays for each of them.
   */
  reserve(rows: number): void {
    if (rows <= this.capacity) return;
    if (this.near) {
      this.near = resized(this.near, rows);
      this.firsts = resized(this.firsts, (rows + NEAR_BLOCK - 1) >>> NEAR_SHIFT);
    } else this.starts = resized(this.starts, rows);
    if (this.steps) this.steps = resized(this.steps, rows);
  }

  /** Drops spare capacity once the file is fully indexed (a copy, so only when the spare is more than 1/16). */
  trim(): void {
    if (this.capacity - this.count <= this.count >>> 4) return;
    if (this.near) {
      this.near = this.near.slice(0, this.count);
      this.firsts = this.firsts.slice(0, (this.count + NEAR_BLOCK - 1) >>> NEAR_SHIFT);
    } else this.starts = this.starts.slice(0, this.count);
    if (this.steps) this.steps = this.steps.slice(0, this.count);
  }
}

function resized<T extends Uint8Array | Uint16Array | Uint32Array | Float64Array>(a: T, length: number): T {
  const grown = new (a.constructor as new (n: number) => T)(length);
  grown.set(a.subarray(0, Math.min(a.length, length)));
  return grown;
}
