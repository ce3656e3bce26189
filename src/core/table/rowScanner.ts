/**
 * Finds where rows start in a CSV file fed chunk by chunk, aware of quotes, at memchr speed:
 * it jumps between quote and line-feed bytes with Buffer.indexOf and never looks at the bytes
 * in between. State carries across chunks, so chunks can be cut anywhere.
 *
 * Quote rules are papaparse's, so rows split where papaparse splits them:
 * - a quote opens a quoted cell only at the start of a cell; elsewhere it is a plain character;
 * - inside a quoted cell `""` is a quote; a quote followed by optional spaces and then a comma,
 *   a line ending or the end of the file closes the cell; any other quote is kept as a character
 *   (and counted as malformed).
 * Rows end at LF or CRLF; in a file whose first bytes end a line with a lone CR (csvDialect.ts),
 * at CR too, so CR, LF and CRLF mixed in one file are all rows (papaparse picks one of them).
 * Cells are separated by commas, or by the file's own delimiter (tab, semicolon: csvDialect.ts).
 * Blank lines are skipped, as papaparse does with skipEmptyLines.
 *
 * Chunks held in a CellWalker's memory are scanned by its WebAssembly kernel instead (the same
 * state machine, 16 bytes at a time): jumping with indexOf costs a call per quote, which on a
 * file of quoted text (every cell quoted, doubled quotes, line breaks in cells) is most bytes.
 */
import { COMMA, CR, LF, QUOTE, SPACE, TAB } from './bytes';
import type { Delimiter } from './csvDialect';
import type { CellWalker } from './cellWalkWasm';
import type { RowCursor, RowOffsets } from './rowOffsets';

// Where the scanner stands between two bytes.
const OUT = 0; // not inside a quoted cell
const IN = 1; // inside a quoted cell
const QUOTE_SEEN = 2; // inside a quoted cell, just after a quote that may close it
const QUOTE_SPACES = 3; // after such a quote and some spaces
const QUOTE_CR = 4; // after such a quote (and spaces) and a CR

/** Where a problem was found: the physical row (header = 0) and the byte. */
export interface ScanPlace {
  readonly row: number;
  readonly offset: number;
}

export class RowScanner implements RowCursor {
  private state = OUT;
  /** Where the next row starts (RowCursor: RowOffsets.pushEnds moves it on). */
  rowStart: number;
  private newlines = 0;
  rowStartNewlines = 0;
  private prevByte = LF;
  private openQuoteAt = -1;
  /** Quotes inside quoted cells that neither close them nor are doubled. */
  malformedQuotes = 0;
  firstMalformedQuote: ScanPlace | undefined;
  /** Set by finish() when the file ends inside a quoted cell. */
  unterminatedQuote: ScanPlace | undefined;
  /**
   * A lone CR ends a row too (set before the first feed, from the file's dialect). Such files take
   * the JS scan below, never the kernel, so files with LF or CRLF endings keep the kernel's speed.
   */
  crEnds = false;
  /** The byte between cells (set before the first feed); the kernel knows only the comma. */
  delimiter: Delimiter = COMMA;

  /**
   * @param rows where rows are registered
   * @param quoted false for formats without quoting (address lists): only line ends count
   * @param firstByte file offset of the first row (3 after a byte-order mark)
   */
  constructor(
    private readonly rows: RowOffsets,
    private readonly quoted: boolean,
    firstByte: number,
  ) {
    this.rowStart = firstByte;
  }

  /**
   * Scans `chunk`, whose first byte is at file offset `base`; with the kernel when `walker` holds
   * the chunk and its quotes are dense (`kernel: 'always'`: whenever it holds it; tests).
   */
  feed(chunk: Buffer, base: number, walker?: CellWalker, kernel: 'auto' | 'always' = 'auto'): void {
    if (this.crEnds) {
      this.feedCrEnds(chunk, base);
      return;
    }
    const delimiter = this.delimiter;
    if (walker?.holds(chunk) && this.quoted && delimiter === COMMA && (kernel === 'always' || quoteDense(chunk))) {
      this.feedKernel(chunk, base, walker);
      return;
    }
    const len = chunk.length;
    let p = 0;
    let state = this.state;
    let nl = -1; // next LF at or after p, len when none; -1 when not looked up yet
    let qt = -1; // next quote at or after p, same convention
    while (p < len) {
      if (state === OUT) {
        if (nl < p) nl = find(chunk, LF, p);
        if (qt < p) qt = this.quoted ? find(chunk, QUOTE, p) : len;
        if (nl <= qt) {
          if (nl === len) break;
          this.endRow(chunk, base, nl);
          p = nl + 1;
          continue;
        }
        const before = qt > 0 ? chunk[qt - 1] : this.prevByte;
        if (base + qt === this.rowStart || before === delimiter) {
          state = IN;
          this.openQuoteAt = base + qt;
        }
        p = qt + 1;
      } else if (state === IN) {
        if (qt < p) qt = find(chunk, QUOTE, p);
        if (nl < p) nl = find(chunk, LF, p);
        while (nl < qt) {
          this.newlines++; // a line break inside a quoted cell: the row goes on
          nl = find(chunk, LF, nl + 1);
        }
        if (qt === len) break;
        state = QUOTE_SEEN;
        p = qt + 1;
      } else {
        // The few bytes after a quote inside a quoted cell decide what the quote was.
        const b = chunk[p];
        if (state === QUOTE_CR) {
          if (b !== LF) this.malformed(base + p);
          state = b === LF ? OUT : IN; // LF: the row ends here, OUT handles it
          continue;
        }
        if (b === QUOTE) {
          state = state === QUOTE_SEEN ? IN : QUOTE_SEEN; // "" is a quote; after spaces, a new candidate
          if (state === QUOTE_SEEN) this.malformed(base + p);
          p++;
        } else if (b === delimiter) {
          state = OUT;
          p++;
        } else if (b === LF) {
          state = OUT;
        } else if (b === CR) {
          state = QUOTE_CR;
          p++;
        } else if (b === SPACE || b === TAB) {
          state = QUOTE_SPACES;
          p++;
        } else {
          this.malformed(base + p);
          state = IN;
          p++;
        }
      }
    }
    this.state = state;
    if (len > 0) this.prevByte = chunk[len - 1] ?? LF;
  }

  /**
   * feed() for a file whose rows may end at a lone CR too. A row ends at LF or CR; CR LF is a row
   * end then an empty line, which is skipped; a line break counts once for line numbers.
   */
  private feedCrEnds(chunk: Buffer, base: number): void {
    const delimiter = this.delimiter;
    const len = chunk.length;
    let p = 0;
    let state = this.state;
    let lf = -1; // next LF / CR / quote at or after p, len when none; -1 when not looked up yet
    let cr = -1;
    let qt = -1;
    while (p < len) {
      if (lf < p) lf = find(chunk, LF, p);
      if (cr < p) cr = find(chunk, CR, p);
      if (state === OUT) {
        if (qt < p) qt = this.quoted ? find(chunk, QUOTE, p) : len;
        const end = Math.min(lf, cr);
        if (end <= qt) {
          if (end === len) break;
          this.endRowAt(chunk, base, end);
          p = end + 1;
          continue;
        }
        const before = qt > 0 ? chunk[qt - 1] : this.prevByte;
        if (base + qt === this.rowStart || before === delimiter) {
          state = IN;
          this.openQuoteAt = base + qt;
        }
        p = qt + 1;
      } else if (state === IN) {
        if (qt < p) qt = find(chunk, QUOTE, p);
        // Line breaks inside the quoted cell: the row goes on.
        for (let at = Math.min(lf, cr); at < qt; at = Math.min(lf, cr)) {
          if (!isSecondOfCrLf(chunk, at, this.prevByte)) this.newlines++;
          if (at === lf) lf = find(chunk, LF, at + 1);
          else cr = find(chunk, CR, at + 1);
        }
        if (qt === len) break;
        state = QUOTE_SEEN;
        p = qt + 1;
      } else {
        // After a quote inside a quoted cell, as in feed(); a CR or LF closes the cell and ends the row.
        const b = chunk[p];
        if (b === QUOTE) {
          state = state === QUOTE_SEEN ? IN : QUOTE_SEEN;
          if (state === QUOTE_SEEN) this.malformed(base + p);
          p++;
        } else if (b === delimiter) {
          state = OUT;
          p++;
        } else if (b === LF || b === CR) {
          state = OUT;
        } else if (b === SPACE || b === TAB) {
          state = QUOTE_SPACES;
          p++;
        } else {
          this.malformed(base + p);
          state = IN;
          p++;
        }
      }
    }
    this.state = state;
    if (len > 0) this.prevByte = chunk[len - 1] ?? LF;
  }

  /** Ends the row at the LF or CR at chunk[at] (crEnds): a row with no bytes (a blank line, or the LF of CR LF) is skipped. */
  private endRowAt(chunk: Buffer, base: number, at: number): void {
    if (base + at > this.rowStart) this.rows.push(this.rowStart, base + at + 1, this.rowStartNewlines);
    if (!isSecondOfCrLf(chunk, at, this.prevByte)) this.newlines++;
    this.rowStart = base + at + 1;
    this.rowStartNewlines = this.newlines;
  }

  private feedKernel(chunk: Buffer, base: number, walker: CellWalker): void {
    const len = chunk.length;
    const s = walker.scanState;
    const rows = walker.scanRows;
    let p = 0;
    while (p < len) {
      const prev = p > 0 ? (chunk[p - 1] ?? LF) : this.prevByte;
      const newlines = this.newlines;
      p = walker.scan(chunk, p, len, this.state, prev, this.malformedQuotes === 0);
      this.registerRows(chunk, base, rows, s[2] ?? 0, newlines);
      this.newlines = newlines + (s[1] ?? 0);
      this.state = s[0] ?? OUT;
      if ((s[5] ?? -1) !== -1) this.openQuoteAt = base + (s[5] ?? 0);
      const malformed = s[3] ?? 0;
      if (malformed > 0) {
        if (this.malformedQuotes === 0) this.firstMalformedQuote = { row: this.rows.length, offset: base + (s[4] ?? 0) };
        this.malformedQuotes += malformed;
      }
    }
    if (len > 0) this.prevByte = chunk[len - 1] ?? LF;
  }

  /** endRow() for each of the `n` row ends the kernel found in `chunk` (at file offset `base`), `newlines` the line feeds before the kernel call: one call into the index for them all. */
  private registerRows(chunk: Buffer, base: number, rows: Uint32Array, n: number, newlines: number): void {
    this.rows.pushEnds(chunk, base, rows, n, newlines, this.prevByte, this);
  }

  /** Registers the last row (a file need not end with a line break); `fileEnd` is the file size. */
  finish(fileEnd: number): void {
    const open = this.state === IN;
    if (open) this.unterminatedQuote = { row: this.rows.length, offset: this.openQuoteAt };
    const length = fileEnd - this.rowStart;
    if (length > 1 || (length === 1 && this.prevByte !== CR)) {
      this.rows.push(this.rowStart, fileEnd, this.rowStartNewlines);
    }
    if (open) this.rows.openRow = this.rows.length - 1;
    this.state = OUT;
  }

  private endRow(chunk: Buffer, base: number, lfAt: number): void {
    const length = base + lfAt - this.rowStart;
    const lastByte = lfAt > 0 ? chunk[lfAt - 1] : this.prevByte;
    if (length > 1 || (length === 1 && lastByte !== CR)) {
      this.rows.push(this.rowStart, base + lfAt + 1, this.rowStartNewlines);
    }
    this.newlines++;
    this.rowStart = base + lfAt + 1;
    this.rowStartNewlines = this.newlines;
  }

  private malformed(offset: number): void {
    if (this.malformedQuotes++ === 0) this.firstMalformedQuote = { row: this.rows.length, offset };
  }
}

/** True when chunk[at] is the LF of a CR LF (the byte before it, or `prevByte` at 0, is a CR). */
function isSecondOfCrLf(chunk: Buffer, at: number, prevByte: number): boolean {
  return chunk[at] === LF && (at > 0 ? chunk[at - 1] : prevByte) === CR;
}

/** Sample of a chunk looked at to choose the scan: the kernel where quotes are dense, indexOf jumps where they are rare. */
const SAMPLE_BYTES = 64 << 10;
const DENSE_QUOTES = 64;

/** True when the chunk's first 64 KiB hold 64 quotes or more (one every KiB: indexOf jumps would cost more than the kernel). */
function quoteDense(chunk: Buffer): boolean {
  const limit = Math.min(chunk.length, SAMPLE_BYTES);
  let at = -1;
  for (let n = 0; n < DENSE_QUOTES; n++) {
    at = chunk.indexOf(QUOTE, at + 1);
    if (at === -1 || at >= limit) return false;
  }
  return true;
}

function find(chunk: Buffer, byte: number, from: number): number {
  const i = chunk.indexOf(byte, from);
  return i === -1 ? chunk.length : i;
}
