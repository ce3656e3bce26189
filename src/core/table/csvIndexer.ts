/**
 * Reads a delimited file and scans it into row offsets: the head at open (so the first rows can
 * be shown at once), then the rest in big sequential reads, the next read in flight while the
 * current chunk is scanned. It also checks UTF-8 on the way (about 20 ms for 700 MB).
 */
import type { FileHandle } from 'node:fs/promises';
import { hasBom } from './bytes';
import type { CellWalker } from './cellWalkWasm';
import { MAX_ROW_BYTES, RowOffsets } from './rowOffsets';
import { DEFAULT_DIALECT, detectDialect, DIALECT_SAMPLE, type Dialect } from './csvDialect';
import { headBytesFor, headsReach, RowHeads } from './rowHeads';
import { RowScanner, type ScanPlace } from './rowScanner';
import { Utf8Check } from './utf8Check';
import { throwIfCancelled } from '../abort';

/** What the scan found wrong with the file. */
export interface ScanProblems {
  readonly unterminatedQuote: ScanPlace | undefined;
  readonly malformedQuotes: number;
  readonly firstMalformedQuote: ScanPlace | undefined;
  /** File offset of the first byte that is not UTF-8. */
  readonly firstInvalidUtf8: number | undefined;
}

export class CsvIndexer {
  /** Physical rows (the header included). */
  readonly offsets = new RowOffsets();
  /** The first bytes of the file, kept to answer the first rows without reading again. */
  head: Buffer = Buffer.alloc(0);
  bom = false;
  /** How the file is read (its delimiter, whether CR ends rows): decided by readHead from the first bytes. */
  dialect: Dialect = DEFAULT_DIALECT;
  /** True once every byte is scanned. */
  done = false;
  /** Each row's first bytes, when keepHeads() asked for them and they stayed within its budget. */
  heads: RowHeads | undefined;
  private scanner: RowScanner;
  private readonly utf8 = new Utf8Check();

  /** @param tsv the file's name ends in .tsv (its cells are separated by tabs) */
  constructor(
    private readonly fh: FileHandle,
    private readonly size: number,
    delimited: boolean,
    private readonly tsv = false,
  ) {
    this.scanner = new RowScanner(this.offsets, delimited, 0);
  }

  get problems(): ScanProblems {
    const s = this.scanner;
    return {
      unterminatedQuote: s.unterminatedQuote,
      malformedQuotes: s.malformedQuotes,
      firstMalformedQuote: s.firstMalformedQuote,
      firstInvalidUtf8: this.utf8.firstInvalid,
    };
  }

  /**
   * Reads and scans the first `bytes` of the file, and on until the first row ends, once its
   * dialect is known (`this.dialect`); with the kernel of `walkerFor(dialect)` when the head fits
   * in its buffer (the JS scan of a MiB of quoted text, run once while V8 still interprets it,
   * took ~8 ms of a 200 MB file's 80 ms index).
   */
  async readHead(bytes: number, delimited: boolean, walkerFor: (dialect: Dialect) => CellWalker | undefined = () => undefined): Promise<void> {
    let length = Math.min(this.size, Math.max(3, bytes)); // at least a BOM's worth
    let head = Buffer.allocUnsafe(length);
    let got = (await this.fh.read(head, 0, length, 0)).bytesRead;
    this.bom = hasBom(head);
    const from = this.bom ? 3 : 0;
    if (this.bom) this.scanner = new RowScanner(this.offsets, delimited, 3);
    this.dialect = await this.readDialect(head.subarray(0, got), from);
    this.scanner.crEnds = this.dialect.crEnds;
    if (delimited) this.scanner.delimiter = this.dialect.delimiter;
    const walker = walkerFor(this.dialect);
    const first = head.subarray(from, got);
    const staged = walker?.stage(first);
    this.scan(staged ?? first, from, staged ? walker : undefined);
    // A header longer than the head: read on until it ends (or the row cap).
    while (this.offsets.length === 0 && got < this.size && got < MAX_ROW_BYTES) {
      length = Math.min(this.size, length * 2);
      const grown = Buffer.allocUnsafe(length);
      head.copy(grown, 0, 0, got);
      const more = (await this.fh.read(grown, got, length - got, got)).bytesRead;
      if (more === 0) break;
      this.scan(grown.subarray(got, got + more), got);
      head = grown;
      got += more;
    }
    this.head = head.subarray(0, got);
    if (got >= this.size) this.finish(got);
  }

  /**
   * Keeps each row's first bytes from here on (RowHeads), the rows read so far taken from the
   * head, so a pass over one of the first columns reads them, not the file: when the head's data
   * rows (after `headerRows`) are long, headBytesFor them, unless those rows' heads would hold few
   * of their `columns` (headsReach), dropped past 1/12 of the file in all (rows shorter further on);
   * or `headBytes` whatever the rows (tests). Between readHead and readRest.
   */
  keepHeads(headerRows: number, blockBytes: number, headBytes?: number, columns = 0): void {
    const n = this.offsets.length;
    const rows = n - headerRows; // the data rows wholly in the head (the header may be the only one)
    const mean = rows > 0 ? (this.offsets.limit(n - 1) - this.offsets.start(headerRows)) / rows : this.head.length;
    const bytes = headBytes ?? headBytesFor(mean);
    if (this.done || bytes <= 0 || bytes > blockBytes) return;
    if (headBytes === undefined && !headsReach(this.head, this.offsets, headerRows, n, bytes, columns, this.dialect.delimiter)) return;
    this.heads = new RowHeads(bytes, blockBytes, headBytes === undefined ? Math.ceil(this.size / 12) : Infinity);
    this.feedHeads(this.head, 0);
  }

  /**
   * Reads and scans the rest of the file into `buffers` by turns (with `walker`'s kernel when
   * they are its own); `onChunk(bytesDone)` after each chunk. Every buffer is being read while the
   * main thread waits: a chunk scanned, its buffer is read again at once, so with n buffers n − 1
   * reads are in flight while one is scanned, and each hand-off to libuv's threads overlaps the
   * other reads (with one read at a time, 1 MiB reads of the wide file waited ~25 ms in all for
   * those hand-offs; reads from the page cache are copies, and two at once use both cores).
   */
  async readRest(buffers: readonly Buffer[], signal: AbortSignal, onChunk: (bytesDone: number) => void, walker?: CellWalker): Promise<void> {
    let pos = this.head.length;
    this.reserveRows(pos);
    let readAt = pos;
    let which = 0;
    const inFlight: { readonly bytes: Promise<Buffer>; readonly length: number }[] = [];
    const issue = (): void => {
      const buf = buffers[which];
      if (readAt >= this.size || !buf) return;
      which = (which + 1) % buffers.length;
      const length = Math.min(buf.length, this.size - readAt);
      const bytes = this.fh.read(buf, 0, length, readAt).then((r) => buf.subarray(0, r.bytesRead));
      bytes.catch(() => undefined); // awaited below, unless an abort stops the loop first
      inFlight.push({ bytes, length });
      readAt += length;
    };
    for (let k = 0; k < buffers.length; k++) issue();
    for (let read = inFlight.shift(); read; read = inFlight.shift()) {
      const chunk = await read.bytes;
      throwIfCancelled(signal);
      const at = pos;
      pos += chunk.length;
      if (chunk.length < read.length) {
        // The file shrank while being read: the read after this one started past its new end.
        for (const other of inFlight.splice(0)) await other.bytes.catch(() => undefined);
        readAt = chunk.length > 0 ? pos : this.size;
      }
      this.scan(chunk, at, walker);
      onChunk(pos);
      issue(); // into the buffer just scanned
    }
    this.finish(pos); // pos < size only if the file shrank while being read
  }

  /** The dialect from the file's first DIALECT_SAMPLE bytes after `from` (the BOM): from `head` when it holds them (it does at 1 MiB), else read for it. */
  private async readDialect(head: Buffer, from: number): Promise<Dialect> {
    const want = Math.min(this.size, DIALECT_SAMPLE);
    let sample = head.subarray(0, want);
    if (head.length < want) {
      sample = Buffer.allocUnsafe(want);
      sample = sample.subarray(0, (await this.fh.read(sample, 0, want, 0)).bytesRead);
    }
    return detectDialect(sample.subarray(Math.min(from, sample.length)), sample.length >= this.size, this.tsv);
  }

  /** Sizes the row index once for the whole file, from the rows in its first `scanned` bytes (2% spare; doubling covers a wrong guess). */
  private reserveRows(scanned: number): void {
    const rows = this.offsets.length;
    if (rows < 16 || scanned <= 0) return;
    const estimate = Math.ceil(((this.size * rows) / scanned) * 1.02) + 64;
    this.offsets.reserve(Math.min(estimate, Math.ceil(this.size / 2) + 1));
  }

  private scan(chunk: Buffer, base: number, walker?: CellWalker): void {
    this.scanner.feed(chunk, base, walker);
    this.utf8.feed(chunk, base);
    if (this.heads) this.feedHeads(chunk, base);
  }

  private feedHeads(chunk: Buffer, base: number): void {
    if (this.heads && !this.heads.feed(chunk, base, this.offsets, this.scanner.rowStart)) this.heads = undefined;
  }

  private finish(end: number): void {
    this.scanner.finish(end);
    this.heads?.finish(this.offsets);
    this.utf8.finish();
    this.offsets.trim();
    this.done = true;
  }
}
