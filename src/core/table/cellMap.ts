/**
 * Where cells start, so a pass over a column can start at the cell instead of walking each row
 * from its first cell. Built by one walk over the whole file (the only pass that looks at every
 * byte); the walk also counts each row's cells, which finds ragged rows. Three layouts:
 *
 * - marks (more than 64 columns): where every 32nd cell starts, 4 bytes each (8 MB for
 *   100,000 × 640); any column is then at most 31 cells from a mark.
 * - cells (64 columns or fewer): where every cell starts, as offsets from the row's start in the
 *   narrowest type that holds the longest row (1, 2 or 4 bytes). A column after a 20 KB cell is
 *   read as fast as the first one.
 * - deltas (64 columns or fewer, when the cells layout would cost more than 1/16 of the file,
 *   i.e. many short rows): one byte a cell, the distance from the cell before; 255 means "walk
 *   this one cell" (a cell of 254 bytes or more), 0 "past the row's end".
 * - cells of one byte with escapes (sizes.shortRows: nearly every row shorter than 255 bytes,
 *   though some are longer): the cells layout in a byte a cell, 255 meaning "not here" (past the
 *   row's end, or at 255 bytes or more): such a cell is walked to from the last one recorded.
 *   A far column is then one load away, as the first is (deltas add ~2 ns a row per 4 cells).
 * - pairs (3 or 4 columns, rows of fewer than 255 bytes, or nearly all of them): the cells
 *   of one byte with escapes, for every second cell only (cells 2, 4…); an odd cell is one
 *   cell's walk from the one before it.
 * - quads (5 to 64 columns, rows as for pairs): the same for every fourth cell (4, 8, 12…), any
 *   other cell at most three cells' walk from one: 2 bytes a row of 12 columns where pairs took 5,
 *   2 MB of the 1,000,000-row quoted file's map, where pairs (5 MB) left its memory growth at
 *   0.26 × the file, over the 0.25 × budget (issue 34).
 */
import { COMMA } from './bytes';
import { cellStart, skipCell } from './cells';
import type { CellWalker } from './cellWalkWasm';
import type { Delimiter } from './csvDialect';

const STRIDE_SHIFT = 5;
const NONE = 0xffffffff;
/** At most this many columns get a place for every cell. */
const PER_CELL_MAX_COLUMNS = 64;

export type CellMapLayout = 'marks' | 'cells' | 'deltas' | 'pairs' | 'quads';

interface CellMapSizes {
  /** Bytes of the longest row (decides the offset type of the cells layout). */
  readonly maxRowBytes?: number;
  /** Bytes of the file (bounds the memory of the cells layout). */
  readonly fileBytes?: number;
  /** Nearly every row (all but 1 in 100 or fewer) is shorter than 255 bytes: one byte a cell, with escapes, whatever the longest. */
  readonly shortRows?: boolean;
  /** Forces a layout (tests). */
  readonly layout?: CellMapLayout;
}

type Offsets = Uint8Array | Uint16Array | Uint32Array;

export class CellMap {
  readonly layout: CellMapLayout;
  private readonly columns: number;
  /** Entries a row: marks, or cells 1..columns-1 (cell 0 starts at the row's start). */
  private readonly slots: number;
  private readonly data: Offsets;
  /** The deltas layout's bytes as 32-bit words (four cells each). */
  private readonly words: Uint32Array | undefined;
  /** The value meaning "past the row's end" in `data` (cells layout), or "not here" with escapes. */
  private readonly none: number;
  /** Cells layout of one byte for rows that may pass 255 bytes: `none` is then walked from the last cell recorded. */
  private readonly escapes: boolean;
  /** Cells in each data row (marks layout only; the others know a row's end from `data`). */
  private readonly cellCounts: Uint32Array | undefined;
  private scratch: Uint32Array;
  /** pairs and quads: every (1 << stride)th cell has a place (1, 2); 0 otherwise. */
  private readonly stride: number;

  /** @param delimiter the file's (csvDialect.ts); a file of another than comma is walked in JS, never given a walker */
  constructor(rows: number, columns: number, sizes: CellMapSizes = {}, private readonly delimiter: Delimiter = COMMA) {
    this.columns = Math.max(1, columns);
    const maxRow = sizes.maxRowBytes ?? Infinity;
    const perCell = this.columns <= PER_CELL_MAX_COLUMNS;
    const cellBytes = maxRow < 0xff || sizes.shortRows === true ? 1 : maxRow < 0xffff ? 2 : 4;
    const roomy = rows * (this.columns - 1) * cellBytes <= (sizes.fileBytes ?? Infinity) / 16;
    this.layout = sizes.layout ?? (!perCell ? 'marks' : cellBytes === 1 && this.columns > 2 ? (this.columns > 4 ? 'quads' : 'pairs') : roomy || cellBytes === 1 ? 'cells' : 'deltas');
    this.stride = this.layout === 'pairs' ? 1 : this.layout === 'quads' ? 2 : 0;
    this.escapes = (this.layout === 'cells' && cellBytes === 1 && maxRow >= 0xff) || this.stride > 0;
    // Deltas rows are padded to whole 32-bit words, so locate() can add four deltas at a time.
    this.slots =
      this.layout === 'marks' ? Math.ceil(this.columns / (1 << STRIDE_SHIFT)) : this.layout === 'deltas' ? (this.columns + 2) & ~3 : this.stride > 0 ? (this.columns - 1) >>> this.stride : this.columns - 1;
    const size = rows * this.slots;
    if (this.layout === 'marks') this.data = new Uint32Array(size);
    else if (this.layout === 'deltas') {
      this.data = new Uint8Array(size);
      this.words = new Uint32Array(this.data.buffer, 0, size >>> 2);
    }
    else this.data = cellBytes === 1 || this.stride > 0 ? new Uint8Array(size) : cellBytes === 2 ? new Uint16Array(size) : new Uint32Array(size);
    this.none = this.stride > 0 ? 0xff : this.layout === 'cells' ? (cellBytes === 1 ? 0xff : cellBytes === 2 ? 0xffff : NONE) : NONE;
    this.cellCounts = this.layout === 'marks' ? new Uint32Array(rows) : undefined;
    this.scratch = new Uint32Array(this.columns);
  }

  /** Bytes the map holds (what it adds to a table's memory). */
  get bytes(): number {
    return this.data.byteLength + (this.cellCounts?.byteLength ?? 0);
  }

  /** Walks data row r, held in buf[start, end), recording where its cells start; returns its cell count. Uses `walker` when it holds buf. */
  record(r: number, buf: Buffer, start: number, end: number, walker?: CellWalker): number {
    const marks = this.layout === 'marks';
    const strided = this.stride > 0;
    const wanted = marks ? this.slots : strided ? this.slots + 1 : this.columns;
    const shift = marks ? STRIDE_SHIFT : this.stride;
    let cells: number;
    let starts: Uint32Array;
    if (walker?.holds(buf) && wanted <= walker.maxSlots && this.delimiter === COMMA) {
      cells = walker.walk(buf, start, end, wanted, shift);
      starts = walker.marks;
    } else {
      cells = this.walk(buf, start, end, wanted, shift);
      starts = this.scratch;
    }
    if (this.cellCounts) this.cellCounts[r] = cells;
    const base = r * this.slots;
    if (marks) this.data.set(starts.subarray(0, this.slots), base);
    else if (strided) {
      for (let k = 1; k <= this.slots; k++) this.data[base + k - 1] = Math.min(starts[k] ?? NONE, this.none);
    } else if (this.layout === 'cells') {
      for (let c = 1; c < this.columns; c++) this.data[base + c - 1] = Math.min(starts[c] ?? NONE, this.none);
    } else {
      for (let c = 1; c < this.columns; c++) {
        const at = starts[c] ?? NONE;
        const d = at === NONE ? 0 : at - (starts[c - 1] ?? 0);
        this.data[base + c - 1] = d >= 255 ? 255 : d;
      }
    }
    return cells;
  }

  /** The JS walk: starts of every (1 << shift)th cell into the scratch array, as the kernel does. */
  private walk(buf: Buffer, start: number, end: number, wanted: number, shift: number): number {
    if (this.scratch.length < wanted) this.scratch = new Uint32Array(wanted);
    const out = this.scratch;
    const mask = (1 << shift) - 1;
    let p = start;
    let c = 0;
    for (;;) {
      if ((c & mask) === 0 && c >>> shift < wanted) out[c >>> shift] = p - start;
      p = skipCell(buf, p, end, this.delimiter);
      if (p >= end) break;
      p++;
      c++;
    }
    for (let s = (c >>> shift) + 1; s < wanted; s++) out[s] = NONE;
    return c + 1;
  }

  /** A cell at or before `column` in data row r whose place is known, and its offset from the row's start; undefined past the row. */
  markBefore(r: number, column: number): { cell: number; offset: number } | undefined {
    if (this.layout === 'marks') {
      const slot = Math.min(column >>> STRIDE_SHIFT, this.slots - 1);
      const mark = this.data[r * this.slots + slot] ?? NONE;
      return mark === NONE ? undefined : { cell: slot << STRIDE_SHIFT, offset: mark };
    }
    const base = r * this.slots;
    if (this.stride > 0) {
      const k = this.pairBefore(base, column >>> this.stride);
      return { cell: k << this.stride, offset: k === 0 ? 0 : (this.data[base + k - 1] ?? 0) };
    }
    if (this.layout === 'cells') {
      let c = column;
      let at = c === 0 ? 0 : (this.data[base + c - 1] ?? this.none);
      if (this.escapes) {
        while (at === this.none && c > 0) at = --c === 0 ? 0 : (this.data[base + c - 1] ?? this.none);
      }
      return at === this.none ? undefined : { cell: c, offset: at };
    }
    let offset = 0;
    for (let c = 1; c <= column; c++) {
      const d = this.data[base + c - 1] ?? 0;
      if (d === 0 || d === 255) return { cell: c - 1, offset };
      offset += d;
    }
    return { cell: column, offset };
  }

  /** Pairs and quads layouts: the last recorded mark k (cell k << stride) at or before mark `k` of the row at `base` (k = 0: the row's start, always known). */
  private pairBefore(base: number, k: number): number {
    let at = k;
    while (at > 0 && (this.data[base + at - 1] ?? this.none) === this.none) at--;
    return at;
  }

  /** Start of cell `column` of data row r held in buf[start, end), or -1 when the row is shorter. */
  locate(r: number, buf: Buffer, start: number, end: number, column: number): number {
    if (this.layout === 'marks') {
      if (column >= (this.cellCounts?.[r] ?? 0)) return -1;
      const slot = column >>> STRIDE_SHIFT;
      const mark = this.data[r * this.slots + slot] ?? NONE;
      if (mark === NONE) return -1;
      return cellStart(buf, end, column, slot << STRIDE_SHIFT, start + mark, this.delimiter);
    }
    if (column === 0) return start;
    const base = r * this.slots;
    if (this.stride > 0) {
      const k = this.pairBefore(base, column >>> this.stride);
      const at = start + (k === 0 ? 0 : (this.data[base + k - 1] ?? 0));
      const cell = k << this.stride;
      return cell === column ? at : cellStart(buf, end, column, cell, at, this.delimiter);
    }
    if (this.layout === 'cells') {
      const at = this.data[base + column - 1] ?? this.none;
      if (at !== this.none) return start + at;
      if (!this.escapes) return -1;
      // Not here: walk from the last cell recorded before it (rare: a row of 255 bytes or more).
      let c = column - 1;
      while (c > 0 && (this.data[base + c - 1] ?? this.none) === this.none) c--;
      return cellStart(buf, end, column, c, start + (c === 0 ? 0 : (this.data[base + c - 1] ?? 0)), this.delimiter);
    }
    let p = start;
    let c = 1;
    // Four deltas at a time while none of them is 0 or 255 (a far column costs ~1/4 of the adds).
    const words = this.words;
    if (words) {
      for (let w = base >>> 2; c + 3 <= column; c += 4, w++) {
        const x = words[w] ?? 0;
        if (((x - 0x01010101) & ~x & 0x80808080) !== 0 || ((~x - 0x01010101) & x & 0x80808080) !== 0) break;
        const pairs = (x & 0x00ff00ff) + ((x >>> 8) & 0x00ff00ff);
        p += (pairs & 0xffff) + (pairs >>> 16);
      }
    }
    for (; c <= column; c++) {
      const d = this.data[base + c - 1] ?? 0;
      if (d === 0) return -1;
      if (d === 255) {
        p = skipCell(buf, p, end, this.delimiter);
        if (p >= end) return -1;
        p++;
      } else p += d;
    }
    return p;
  }
}
