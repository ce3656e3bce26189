/**
 * Where every 32nd cell of every row starts, so a column can be read without walking each row
 * from its first cell. Built by one walk over the whole file (the only pass that looks at every
 * byte); afterwards any column is at most 31 cells from a mark. 4 bytes × rows × columns / 32:
 * 8 MB for 100,000 × 640. The walk also counts each row's cells, which finds ragged rows.
 */
import { cellStart, skipCell } from './cells';
import type { CellWalker } from './cellWalkWasm';

const STRIDE_SHIFT = 5;
const NONE = 0xffffffff;

export class CellMap {
  private readonly slots: number;
  private readonly marks: Uint32Array;
  /** Cells in each data row. */
  readonly cellCounts: Uint32Array;

  constructor(rows: number, columns: number) {
    this.slots = Math.max(1, Math.ceil(columns / (1 << STRIDE_SHIFT)));
    this.marks = new Uint32Array(rows * this.slots);
    this.cellCounts = new Uint32Array(rows);
  }

  /** Walks data row r, held in buf[start, end), recording its marks; returns its cell count. Uses `walker` when it holds buf. */
  record(r: number, buf: Buffer, start: number, end: number, walker?: CellWalker): number {
    const base = r * this.slots;
    if (walker?.holds(buf) && this.slots <= walker.maxSlots) {
      const cells = walker.walk(buf, start, end, this.slots, STRIDE_SHIFT);
      this.marks.set(walker.marks.subarray(0, this.slots), base);
      this.cellCounts[r] = cells;
      return cells;
    }
    const slots = this.slots;
    const marks = this.marks;
    let p = start;
    let c = 0;
    for (;;) {
      if ((c & 31) === 0 && c >>> STRIDE_SHIFT < slots) marks[base + (c >>> STRIDE_SHIFT)] = p - start;
      p = skipCell(buf, p, end);
      if (p >= end) break;
      p++;
      c++;
    }
    for (let s = (c >>> STRIDE_SHIFT) + 1; s < slots; s++) marks[base + s] = NONE;
    this.cellCounts[r] = c + 1;
    return c + 1;
  }

  /** The last marked cell at or before `column` in data row r, and its offset from the row's start; undefined past the row. */
  markBefore(r: number, column: number): { cell: number; offset: number } | undefined {
    const slot = Math.min(column >>> STRIDE_SHIFT, this.slots - 1);
    const mark = this.marks[r * this.slots + slot] ?? NONE;
    return mark === NONE ? undefined : { cell: slot << STRIDE_SHIFT, offset: mark };
  }

  /** Start of cell `column` of data row r held in buf[start, end), or -1 when the row is shorter. */
  locate(r: number, buf: Buffer, start: number, end: number, column: number): number {
    if (column >= (this.cellCounts[r] ?? 0)) return -1;
    const slot = column >>> STRIDE_SHIFT;
    const mark = this.marks[r * this.slots + slot] ?? NONE;
    if (mark === NONE) return -1;
    return cellStart(buf, end, column, slot << STRIDE_SHIFT, start + mark);
  }
}
