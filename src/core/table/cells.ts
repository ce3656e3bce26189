/**
 * Cells of one CSV row held in a byte buffer, read by hand: the row's bytes [start, end) exclude
 * its line ending. The quote rules are the row scanner's (papaparse's), so a cell read here is the
 * cell papaparse would give. One reader serves windows, typed columns, search and export, so what
 * is shown is what is sorted, filtered and exported. Cells are separated by `delimiter`, the
 * file's (csvDialect.ts): a comma unless the file says otherwise.
 */
import { COMMA, QUOTE, SPACE, TAB } from './bytes';
import type { Delimiter } from './csvDialect';

/** Where a cell's text lies; reused between calls to spare allocations in hot loops. */
export class CellSpan {
  /** First byte of the cell's text. */
  from = 0;
  /** Byte after the cell's text. */
  to = 0;
  /** The delimiter after the cell, or the row's end. */
  next = 0;
  /** The text holds doubled quotes to fold into one. */
  escaped = false;
}

/** Fills `span` with the cell that starts at `p` and returns the position of the delimiter after it (or `end`). */
export function spanCell(buf: Buffer, p: number, end: number, span: CellSpan, delimiter: Delimiter = COMMA): number {
  if (p < end && buf[p] === QUOTE) return spanQuoted(buf, p, end, span, delimiter);
  let i = p;
  while (i < end && buf[i] !== delimiter) i++;
  span.from = p;
  span.to = i;
  span.next = i;
  span.escaped = false;
  return i;
}

function spanQuoted(buf: Buffer, open: number, end: number, span: CellSpan, delimiter: Delimiter): number {
  let i = open + 1;
  let escaped = false;
  for (;;) {
    const q = buf.indexOf(QUOTE, i);
    if (q === -1 || q >= end) {
      // Unterminated (only possible in the file's last row): the rest is the cell, as papaparse does.
      span.from = open + 1;
      span.to = end;
      span.next = end;
      span.escaped = false;
      return end;
    }
    let j = q + 1;
    if (j < end && buf[j] === QUOTE) {
      escaped = true;
      i = j + 1;
      continue;
    }
    // Spaces or tabs, then the delimiter or the row's end, close the cell (a tab that is the delimiter closes it at once).
    while (j < end && (buf[j] === SPACE || (buf[j] === TAB && delimiter !== TAB))) j++;
    if (j >= end || buf[j] === delimiter) {
      span.from = open + 1;
      span.to = q;
      span.next = j;
      span.escaped = escaped;
      return j;
    }
    i = q + 1; // a stray quote inside the cell is kept as a character
  }
}

/** Position of the delimiter after the cell that starts at `p`, or `end`. */
export function skipCell(buf: Buffer, p: number, end: number, delimiter: Delimiter = COMMA): number {
  if (p < end && buf[p] === QUOTE) return spanQuoted(buf, p, end, scratch, delimiter);
  let i = p;
  while (i < end && buf[i] !== delimiter) i++;
  return i;
}
const scratch = new CellSpan();

/** The text of a spanned cell. */
export function cellText(buf: Buffer, span: CellSpan): string {
  if (span.from >= span.to) return '';
  const text = buf.toString('utf8', span.from, span.to);
  return span.escaped ? text.replaceAll('""', '"') : text;
}

/**
 * Start of cell `index` of the row, walking from cell `fromCell` that starts at `fromPos`;
 * -1 when the row has fewer cells.
 */
export function cellStart(buf: Buffer, end: number, index: number, fromCell: number, fromPos: number, delimiter: Delimiter = COMMA): number {
  let p = fromPos;
  for (let c = fromCell; c < index; c++) {
    p = skipCell(buf, p, end, delimiter);
    if (p >= end) return -1;
    p++;
  }
  return p;
}

/** Number of cells in the row [start, end). */
export function countCells(buf: Buffer, start: number, end: number, delimiter: Delimiter = COMMA): number {
  let p = start;
  let n = 1;
  for (;;) {
    p = skipCell(buf, p, end, delimiter);
    if (p >= end) return n;
    p++;
    n++;
  }
}

/**
 * Appends to `out` the texts of `columns` of the row [start, end), in the order asked; cells past
 * the row's end are ''. The walk starts from cell `fromCell` at `fromPos` when a cell map knows
 * where a cell at or before the first asked one starts.
 */
export function readRowCells(buf: Buffer, start: number, end: number, columns: readonly number[], out: string[], fromCell = 0, fromPos = start, delimiter: Delimiter = COMMA): void {
  const starts = cellStarts(buf, end, columns, fromCell, fromPos, delimiter);
  const span = new CellSpan();
  for (let k = 0; k < columns.length; k++) {
    const at = starts[columns[k] ?? 0] ?? -1;
    if (at < 0) out.push('');
    else {
      spanCell(buf, at, end, span, delimiter);
      out.push(cellText(buf, span));
    }
  }
}

let startsScratch = new Int32Array(1024);

/** Starts of cells fromCell..max(columns) of the row (-1 past its end), in a shared scratch array. */
function cellStarts(buf: Buffer, end: number, columns: readonly number[], fromCell: number, fromPos: number, delimiter: Delimiter): Int32Array {
  let max = 0;
  for (const c of columns) if (c > max) max = c;
  if (startsScratch.length <= max) startsScratch = new Int32Array(max + 1);
  const starts = startsScratch;
  let p = fromPos;
  let c = fromCell;
  for (; c <= max; c++) {
    starts[c] = p;
    p = skipCell(buf, p, end, delimiter);
    if (p >= end) break;
    p++;
  }
  for (c++; c <= max; c++) starts[c] = -1;
  return starts;
}
