/** What the passes over an indexed CSV or address-list file need to know about it. */
import type { FileHandle } from 'node:fs/promises';
import { SPACE, TAB, trimLineEnd } from './bytes';
import type { CellWalker } from './cellWalkWasm';
import { CellSpan, spanCell } from './cells';
import type { Delimiter } from './csvDialect';
import type { RowHeads } from './rowHeads';
import type { RowOffsets } from './rowOffsets';

export interface CsvFile {
  readonly fh: FileHandle;
  readonly size: number;
  /** Physical rows; data row r is physical row r + headerRows. */
  readonly offsets: RowOffsets;
  readonly headerRows: number;
  readonly rowCount: number;
  readonly columnCount: number;
  /** False for address lists: one cell per line, trimmed, no quoting. */
  readonly delimited: boolean;
  /** The byte between cells (csvDialect.ts). */
  readonly delimiter: Delimiter;
  /** Each row's first bytes, where the index kept them (rowHeads.ts). */
  readonly rowHeads?: RowHeads | undefined;
  /** The buffers whole-file passes read into by turns (one pass runs at a time). */
  chunkBuffers(): readonly Buffer[];
  /** The wasm cell walker over those buffers; undefined where WebAssembly is not available, or the delimiter is not a comma (the kernels know only the comma). */
  cellWalker(): CellWalker | undefined;
}

/**
 * End of physical row p's bytes that begin at `start` in `buf` and run (line ending included) to
 * `limit`, both buf positions: its line ending left out, unless the row ends inside a quoted cell
 * never closed, whose last line breaks are its text.
 */
export function rowEnd(offsets: RowOffsets, p: number, buf: Buffer, start: number, limit: number): number {
  const end = Math.min(limit, buf.length);
  return p === offsets.openRow ? end : trimLineEnd(buf, start, end);
}

/** Spans the single, trimmed cell of an address-list line. */
export function spanLine(buf: Buffer, start: number, end: number, span: CellSpan): void {
  let a = start;
  let b = end;
  while (a < b && (buf[a] === SPACE || buf[a] === TAB)) a++;
  while (b > a && (buf[b - 1] === SPACE || buf[b - 1] === TAB)) b--;
  span.from = a;
  span.to = b;
  span.next = end;
  span.escaped = false;
}

/** Spans cell `column` at `at` (a cell start, or -1 when the row is too short) of a row ending at `end`. */
export function spanAt(file: CsvFile, buf: Buffer, rowStart: number, end: number, at: number, span: CellSpan): boolean {
  if (!file.delimited) {
    spanLine(buf, rowStart, end, span);
    return true;
  }
  if (at < 0) return false;
  spanCell(buf, at, end, span, file.delimiter);
  return true;
}
