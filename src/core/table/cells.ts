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
 * where a cell at or before the first asked one starts. With `maxBytes` (prefixBytes of a grid
 * window's cellChars), a cell of more bytes comes as the text of its first `maxBytes` only, and the
 * last asked cell is not spanned past them: a 20 KB cell costs what its first characters cost.
 */
export function readRowCells(
  buf: Buffer,
  start: number,
  end: number,
  columns: readonly number[],
  out: string[],
  fromCell = 0,
  fromPos = start,
  delimiter: Delimiter = COMMA,
  maxBytes?: number,
): void {
  let max = fromCell;
  for (const c of columns) if (c > max) max = c;
  const last = spanCells(buf, end, max, fromCell, fromPos, delimiter, maxBytes);
  const { from, to, escaped } = spans;
  for (let k = 0; k < columns.length; k++) {
    const c = columns[k] ?? 0;
    if (c < fromCell || c > last) out.push('');
    else {
      textSpan.from = from[c] ?? 0;
      textSpan.to = maxBytes === undefined ? (to[c] ?? 0) : Math.min(to[c] ?? 0, textSpan.from + maxBytes);
      textSpan.escaped = escaped[c] === 1;
      out.push(cellText(buf, textSpan));
    }
  }
}

/**
 * When the cell at `p` reaches `bound` (< its row's end), fills `span` with its bytes up to there
 * (doubled quotes seen so far noted) and returns true; false when it ends before, or may (a quote
 * that could close it near the bound): spanCell reads those. Its last bytes may be half a
 * character or half a doubled quote, which the caller's cut drops (prefixBytes leaves room).
 */
function spanPrefix(buf: Buffer, p: number, bound: number, span: CellSpan, delimiter: Delimiter): boolean {
  if (buf[p] !== QUOTE) {
    const d = buf.indexOf(delimiter, p);
    if (d !== -1 && d < bound) return false;
    span.from = p;
    span.escaped = false;
  } else {
    let i = p + 1;
    let escaped = false;
    for (;;) {
      const q = buf.indexOf(QUOTE, i);
      if (q === -1 || q >= bound - 1) break;
      if (buf[q + 1] === QUOTE) {
        escaped = true;
        i = q + 2;
        continue;
      }
      let j = q + 1;
      while (j < bound && (buf[j] === SPACE || (buf[j] === TAB && delimiter !== TAB))) j++;
      if (j >= bound || buf[j] === delimiter) return false;
      i = q + 1; // a stray quote, kept as a character (spanQuoted's rule)
    }
    span.from = p + 1;
    span.escaped = escaped;
  }
  span.to = bound;
  span.next = bound;
  return true;
}

/** Where cells fromCell..max of the row being read lie, in shared scratch arrays (grown for wider rows). */
let spans = { from: new Int32Array(1024), to: new Int32Array(1024), escaped: new Uint8Array(1024) };
const textSpan = new CellSpan();

/**
 * Spans cells fromCell..max of the row into `spans`, each cell scanned once: the wanted cells
 * used to be scanned twice, to step over them and then to read them, which a window of long
 * quoted cells (5–20 KB, a quote every few words) paid for every cell it showed. Returns the last
 * cell spanned (the row's last, when it has fewer than max + 1).
 */
function spanCells(buf: Buffer, end: number, max: number, fromCell: number, fromPos: number, delimiter: Delimiter, maxBytes?: number): number {
  if (spans.from.length <= max) spans = { from: new Int32Array(max + 1), to: new Int32Array(max + 1), escaped: new Uint8Array(max + 1) };
  const { from, to, escaped } = spans;
  const span = textSpan;
  let p = fromPos;
  let c = fromCell;
  for (; c <= max; c++) {
    // The last cell asked needs no end: what follows it is not read.
    if (c === max && maxBytes !== undefined && p + maxBytes < end && spanPrefix(buf, p, p + maxBytes, span, delimiter)) {
      from[c] = span.from;
      to[c] = span.to;
      escaped[c] = span.escaped ? 1 : 0;
      return c;
    }
    p = spanCell(buf, p, end, span, delimiter);
    from[c] = span.from;
    to[c] = span.to;
    escaped[c] = span.escaped ? 1 : 0;
    if (p >= end) return c;
    p++;
  }
  return max;
}
