/**
 * Where each row of a delimited file starts: 8 bytes a row (800 KB for 100,000 rows), the
 * whole index of a file that is never held in memory. Physical rows here include the header.
 */
export class RowOffsets {
  private starts = new Float64Array(4096);
  private count = 0;
  /** File offset just past the last registered row (its line ending included). */
  private lastEnd = 0;
  // Sparse map from row to file line: (row, lines before it minus row) wherever that difference
  // changes, i.e. after blank lines or line breaks inside quoted cells. Empty for plain files.
  private readonly lineRows: number[] = [];
  private readonly lineShift: number[] = [];

  /** Number of physical rows registered. */
  get length(): number {
    return this.count;
  }

  /** Registers a row that starts at `start`, after `newlinesBefore` line breaks, and ends before `end`. */
  push(start: number, end: number, newlinesBefore: number): void {
    if (this.count === this.starts.length) {
      const grown = new Float64Array(this.starts.length * 2);
      grown.set(this.starts);
      this.starts = grown;
    }
    const shift = newlinesBefore - this.count;
    if (shift !== (this.lineShift[this.lineShift.length - 1] ?? 0)) {
      this.lineRows.push(this.count);
      this.lineShift.push(shift);
    }
    this.starts[this.count++] = start;
    this.lastEnd = end;
  }

  /** First byte of row r. */
  start(r: number): number {
    return this.starts[r] ?? this.lastEnd;
  }

  /** Byte after row r's bytes (its line ending and any blank lines after it included). */
  limit(r: number): number {
    return r + 1 < this.count ? (this.starts[r + 1] ?? this.lastEnd) : this.lastEnd;
  }

  /** 1-based line of the file on which row r starts. */
  line(r: number): number {
    let lo = 0;
    let hi = this.lineRows.length - 1;
    let shift = 0;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if ((this.lineRows[mid] ?? 0) <= r) {
        shift = this.lineShift[mid] ?? 0;
        lo = mid + 1;
      } else hi = mid - 1;
    }
    return r + shift + 1;
  }

  /** The row whose bytes contain file offset `at` (the last row starting at or before it). */
  rowAt(at: number): number {
    let lo = 0;
    let hi = this.count - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((this.starts[mid] ?? 0) <= at) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  /** Drops spare capacity once the file is fully indexed. */
  trim(): void {
    this.starts = this.starts.slice(0, this.count);
  }
}
