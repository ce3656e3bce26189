/**
 * A CSV file (or a .txt address list) as a TableSource, never held in memory as a whole.
 *
 * open: reads the first MiB, so the header and the first rows are answered at once; then indexes
 * row starts in the background (RowScanner, ~0.2 s for 700 MB in page cache) with progress and
 * cancellation; then, unless told not to, walks every cell once to build the CellMap.
 * readCells: byte-range reads of just the wanted rows (neighbours merged into one read).
 * typedColumns / searchRows: sequential passes, one at a time, results cached.
 */
import { open, type FileHandle } from 'node:fs/promises';
import { hasBom } from './bytes';
import type { CellMap } from './cellMap';
import { countCells, readRowCells } from './cells';
import { columnPass, type RaggedRows } from './csvColumnPass';
import { rowEnd, spanLine, type CsvFile } from './csvFile';
import { searchFile } from './csvSearch';
import { Listeners } from './listeners';
import { NoticeBoard, formatCount, place } from './notices';
import { CHUNK_BYTES, MAX_ROW_BYTES } from './rowChunks';
import { RowOffsets } from './rowOffsets';
import { RowScanner } from './rowScanner';
import { CellSpan, cellText } from './cells';
import type { ColumnNeed, SourceChange, TableNotice, TableSource, TaskOptions, TypedColumn } from './types';
import { Utf8Check } from './utf8Check';
import { abortable } from './abort';

/** Bytes read before open() returns: about 140 rows of the widest result, plus the header. */
const HEAD_BYTES = 1 << 20;
/** Row reads closer than this are merged into one read. */
const MERGE_GAP = 64 << 10;
/** …as long as the merged read stays below this. */
const MERGE_MAX = 4 << 20;
/** Searches remembered per source (a typed-ahead search repeats the same needles). */
const SEARCH_CACHE = 4;

export interface OpenCsvOptions extends TaskOptions {
  /** Walk every cell in the background once the index is done, so ragged rows are reported and the first sort is faster (default true). */
  readonly prepareColumns?: boolean;
  /** Read sizes in bytes; tests make them tiny to put chunk boundaries everywhere. */
  readonly readSizes?: { readonly head: number; readonly chunk: number };
}

type Format = { readonly kind: 'csv' | 'txt'; readonly delimited: boolean };

/** Opens a CSV file: resolves once the header and first rows are read; indexing goes on in the background. */
export function openCsvFile(path: string, options: OpenCsvOptions = {}): Promise<CsvSource> {
  return CsvSource.open(path, { kind: 'csv', delimited: true }, options);
}

/** Opens a .txt list of addresses, one per line, as a one-column table (`address`). */
export function openAddressList(path: string, options: OpenCsvOptions = {}): Promise<CsvSource> {
  return CsvSource.open(path, { kind: 'txt', delimited: false }, options);
}

export class CsvSource implements TableSource, CsvFile {
  readonly kind: 'csv' | 'txt';
  readonly delimited: boolean;
  readonly offsets = new RowOffsets();
  headerRows = 0;
  columns: readonly string[] = [];
  complete = false;
  readonly indexed: Promise<void>;
  private readonly changes = new Listeners<SourceChange>();
  private readonly board = new NoticeBoard(() => this.changes.fire({ type: 'notices' }));
  private readonly lifetime = new AbortController();
  private head: Buffer = Buffer.alloc(0);
  private scanner: RowScanner;
  private readonly utf8 = new Utf8Check();
  private rowWaiters: { rows: number; resolve: () => void; reject: (e: unknown) => void }[] = [];
  private map: CellMap | undefined;
  private readonly columnCache = new Map<number, TypedColumn>();
  private readonly building = new Map<number, { text: boolean; promise: Promise<TypedColumn> }>();
  private passQueue: Promise<unknown> = Promise.resolve();
  private readonly searches = new Map<string, Promise<Uint8Array>>();

  private constructor(
    readonly fh: FileHandle,
    readonly size: number,
    format: Format,
    private readonly headBytes: number,
    private readonly chunkBytes: number,
  ) {
    this.kind = format.kind;
    this.delimited = format.delimited;
    this.scanner = new RowScanner(this.offsets, format.delimited, 0);
    this.indexed = new Promise<void>((resolve, reject) => {
      this.resolveIndexed = resolve;
      this.rejectIndexed = reject;
    });
    this.indexed.catch(() => undefined); // a rejection nobody awaits is not a crash
  }
  private resolveIndexed: () => void = () => undefined;
  private rejectIndexed: (e: unknown) => void = () => undefined;

  /** Opens `path` in `format`; see openCsvFile. */
  static async open(path: string, format: Format, options: OpenCsvOptions): Promise<CsvSource> {
    options.signal?.throwIfAborted();
    const fh = await open(path, 'r');
    try {
      const size = (await fh.stat()).size;
      const sizes = options.readSizes ?? { head: HEAD_BYTES, chunk: CHUNK_BYTES };
      const source = new CsvSource(fh, size, format, Math.max(1, sizes.head), Math.max(1, sizes.chunk));
      await source.readHead();
      source.runInBackground(options);
      return source;
    } catch (e) {
      await fh.close();
      throw e;
    }
  }

  get rowCount(): number {
    return Math.max(0, this.offsets.length - this.headerRows);
  }

  chunkBuffers(): readonly [Buffer, Buffer] {
    // Kept for the source's life: reallocating 2 × 8 MiB per pass grows the peak RSS for nothing.
    const size = Math.max(1, Math.min(this.chunkBytes, this.size));
    this.buffers ??= [Buffer.allocUnsafe(size), Buffer.allocUnsafe(size)];
    return this.buffers;
  }
  private buffers: [Buffer, Buffer] | undefined;

  get columnCount(): number {
    return this.columns.length;
  }

  get notices(): readonly TableNotice[] {
    return this.board.list;
  }

  onDidChange(listener: (change: SourceChange) => void): () => void {
    return this.changes.add(listener);
  }

  async readCells(rows: ArrayLike<number>, columns: readonly number[], signal?: AbortSignal): Promise<string[][]> {
    this.checkColumns(columns);
    let max = -1;
    for (let i = 0; i < rows.length; i++) max = Math.max(max, rows[i] ?? 0);
    await this.waitForRows(max + 1, signal);
    if (max >= this.rowCount) throw new RangeError(`Row ${max} is past the last row (${this.rowCount} rows)`);
    const buffers = await this.readRows(rows, signal);
    const out: string[][] = [];
    const span = new CellSpan();
    for (let i = 0; i < rows.length; i++) {
      const p = (rows[i] ?? 0) + this.headerRows;
      const { buf, base } = buffers.get(p) ?? { buf: this.head, base: 0 };
      const s = this.offsets.start(p) - base;
      const e = rowEnd(buf, s, this.offsets.limit(p) - base);
      const cells: string[] = [];
      if (this.delimited) readRowCells(buf, s, e, columns, cells);
      else {
        spanLine(buf, s, e, span);
        const text = cellText(buf, span);
        for (let k = 0; k < columns.length; k++) cells.push(text);
      }
      out.push(cells);
    }
    return out;
  }

  async typedColumns(needs: readonly ColumnNeed[], options: TaskOptions = {}): Promise<TypedColumn[]> {
    this.checkColumns(needs.map((n) => n.column));
    await abortable(this.indexed, options.signal);
    const wantText = new Map<number, boolean>();
    for (const n of needs) wantText.set(n.column, (wantText.get(n.column) ?? false) || n.text === true);
    const missing: ColumnNeed[] = [];
    for (const [column, text] of wantText) {
      const cached = this.columnCache.get(column);
      const pending = this.building.get(column);
      const satisfied = (cached && (!text || cached.fullText)) || (pending && (!text || pending.text));
      if (!satisfied) missing.push({ column, text });
    }
    if (missing.length > 0) {
      const pass = this.queuePass(missing, options);
      missing.forEach((need, i) => {
        const promise = pass.then((cols) => cols[i] as TypedColumn);
        promise.catch(() => undefined);
        this.building.set(need.column, { text: need.text === true, promise });
      });
    }
    const results = needs.map((n) => this.building.get(n.column)?.promise ?? Promise.resolve(this.cachedColumn(n.column)));
    return abortable(Promise.all(results), options.signal);
  }

  searchRows(text: string, options: TaskOptions = {}): Promise<Uint8Array> {
    const key = text.toLowerCase();
    let search = this.searches.get(key);
    if (!search) {
      search = abortable(this.indexed, this.lifetime.signal).then(() =>
        this.enqueue(() => searchFile(this, key, { signal: this.lifetime.signal, onProgress: options.onProgress })),
      );
      search.catch(() => this.searches.delete(key));
      this.searches.set(key, search);
      if (this.searches.size > SEARCH_CACHE) this.searches.delete(this.searches.keys().next().value ?? '');
    }
    return abortable(search, options.signal);
  }

  async close(): Promise<void> {
    this.lifetime.abort(new Error('The table was closed'));
    await this.indexed.catch(() => undefined);
    await this.passQueue.catch(() => undefined);
    await this.fh.close();
  }

  /** Reads the head of the file: byte-order mark, header, first rows. */
  private async readHead(): Promise<void> {
    let length = Math.min(this.size, Math.max(3, this.headBytes)); // at least a BOM's worth
    let head = Buffer.allocUnsafe(length);
    let got = (await this.fh.read(head, 0, length, 0)).bytesRead;
    const bom = hasBom(head);
    if (bom) {
      this.scanner = new RowScanner(this.offsets, this.delimited, 3);
      this.board.set({ code: 'bom', severity: 'info', message: 'The file starts with a byte-order mark (BOM); it was ignored.' });
    }
    const from = bom ? 3 : 0;
    this.scanner.feed(head.subarray(from, got), from);
    this.utf8.feed(head.subarray(from, got), from);
    // A header longer than the head: read on until it ends (or the row cap).
    while (this.offsets.length === 0 && got < this.size && got < MAX_ROW_BYTES) {
      length = Math.min(this.size, length * 2);
      const grown = Buffer.allocUnsafe(length);
      head.copy(grown, 0, 0, got);
      const more = (await this.fh.read(grown, got, length - got, got)).bytesRead;
      if (more === 0) break;
      this.scanner.feed(grown.subarray(got, got + more), got);
      this.utf8.feed(grown.subarray(got, got + more), got);
      head = grown;
      got += more;
    }
    this.head = head.subarray(0, got);
    this.headEnd = got;
    if (got >= this.size) this.endScan(got);
    this.readHeader();
    if (this.complete) this.noteScanProblems(got);
    this.checkHeadRows();
  }
  private headEnd = 0;

  private readHeader(): void {
    if (this.offsets.length === 0) return;
    const s = this.offsets.start(0);
    const e = rowEnd(this.head, s, this.offsets.limit(0));
    if (!this.delimited) {
      const span = new CellSpan();
      spanLine(this.head, s, e, span);
      this.headerRows = cellText(this.head, span).toLowerCase() === 'address' ? 1 : 0;
      this.columns = ['address'];
      return;
    }
    this.headerRows = 1;
    const n = countCells(this.head, s, e);
    const names: string[] = [];
    readRowCells(this.head, s, e, Array.from({ length: n }, (_, i) => i), names);
    this.columns = names;
  }

  /** Ragged rows among the first rows, reported at once; the full walk counts them all later. */
  private checkHeadRows(): void {
    if (!this.delimited) return;
    for (let p = this.headerRows; p < this.offsets.length && this.offsets.limit(p) <= this.headEnd; p++) {
      const s = this.offsets.start(p);
      const cells = countCells(this.head, s, rowEnd(this.head, s, this.offsets.limit(p)));
      if (cells !== this.columns.length) {
        this.noteRagged({ count: 1, firstRow: p - this.headerRows, firstCells: cells }, false);
        return;
      }
    }
  }

  private runInBackground(options: OpenCsvOptions): void {
    const signal = AbortSignal.any([this.lifetime.signal, ...(options.signal ? [options.signal] : [])]);
    const run = async (): Promise<void> => {
      if (!this.complete) await this.indexRest(signal, options);
      this.complete = true;
      this.changes.fire({ type: 'complete', rowCount: this.rowCount });
      this.settleWaiters();
      this.resolveIndexed();
      if (options.prepareColumns !== false && this.delimited && this.rowCount > 0) {
        this.queuePass([], {}).catch(() => undefined);
      }
    };
    run().catch((e: unknown) => {
      this.rejectIndexed(e);
      this.settleWaiters(e);
    });
  }

  private async indexRest(signal: AbortSignal, options: TaskOptions): Promise<void> {
    const buffers = this.chunkBuffers();
    let which = 0;
    let pos = this.headEnd;
    const read = (at: number): Promise<Buffer> => {
      const buf = which === 0 ? buffers[0] : buffers[1];
      which = 1 - which;
      const p = this.fh.read(buf, 0, Math.min(buf.length, this.size - at), at).then((r) => buf.subarray(0, r.bytesRead));
      p.catch(() => undefined);
      return p;
    };
    let next = pos < this.size ? read(pos) : undefined;
    while (next) {
      const chunk = await next;
      signal.throwIfAborted();
      const at = pos;
      pos += chunk.length;
      next = chunk.length > 0 && pos < this.size ? read(pos) : undefined;
      this.scanner.feed(chunk, at);
      this.utf8.feed(chunk, at);
      this.changes.fire({ type: 'progress', rowCount: this.rowCount, bytesDone: pos, bytesTotal: this.size });
      options.onProgress?.({ task: 'index', done: pos, total: this.size });
      this.settleWaiters();
    }
    this.endScan(pos);
    this.noteScanProblems(pos);
  }

  /** Ends the scan at `end` (the file size, or less if the file shrank while read). */
  private endScan(end: number): void {
    this.scanner.finish(end);
    this.utf8.finish();
    this.offsets.trim();
    this.complete = true;
  }

  /** Turns what the scan found into notices; needs the header read. */
  private noteScanProblems(end: number): void {
    const rows = this.offsets.length;
    const { unterminatedQuote: open, malformedQuotes, firstMalformedQuote: bad } = this.scanner;
    if (rows === 0) {
      this.board.set({ code: 'emptyFile', severity: 'warning', message: 'The file is empty: it has no header and no rows.' });
    } else if (this.delimited && rows === 1) {
      this.board.set({ code: 'headerOnly', severity: 'info', message: 'The file has a header but no data rows.' });
    }
    if (open) {
      this.board.set({
        code: 'unterminatedQuote',
        severity: 'error',
        message: `A quoted cell opened at ${this.where(open.row)} is never closed: everything after it, ${formatCount(end - open.offset)} bytes, is read as one cell.`,
        ...this.rowAndLine(open.row),
      });
    }
    if (malformedQuotes > 0 && bad) {
      this.board.set({
        code: 'malformedQuote',
        severity: 'warning',
        message: `${formatCount(malformedQuotes)} quote${malformedQuotes === 1 ? '' : 's'} inside quoted cells ${malformedQuotes === 1 ? 'is' : 'are'} neither doubled nor closing the cell, first at ${this.where(bad.row)}; kept as characters.`,
        count: malformedQuotes,
        ...this.rowAndLine(bad.row),
      });
    }
    if (this.utf8.firstInvalid !== undefined && rows > 0) {
      const p = this.offsets.rowAt(this.utf8.firstInvalid);
      this.board.set({
        code: 'invalidUtf8',
        severity: 'warning',
        message: `The file is not valid UTF-8 from ${this.where(p)} (byte ${formatCount(this.utf8.firstInvalid)}); such bytes are shown as �. Later places are not listed.`,
        ...this.rowAndLine(p),
      });
    }
    this.noteLongRows();
  }

  private noteLongRows(): void {
    let count = 0;
    let first = 0;
    for (let p = 0; p < this.offsets.length; p++) {
      if (this.offsets.limit(p) - this.offsets.start(p) > MAX_ROW_BYTES && count++ === 0) first = p;
    }
    if (count > 0) {
      this.board.set({
        code: 'longRow',
        severity: 'warning',
        message: `${formatCount(count)} row${count === 1 ? ' is' : 's are'} longer than ${MAX_ROW_BYTES >> 20} MiB, first ${this.where(first)}; only that much of each is read.`,
        count,
        ...this.rowAndLine(first),
      });
    }
  }

  private noteRagged(ragged: RaggedRows, complete: boolean): void {
    const { count, firstRow, firstCells } = ragged;
    const rows = complete ? `${formatCount(count)} row${count === 1 ? '' : 's'}` : 'Some rows';
    this.board.set({
      code: 'raggedRows',
      severity: 'warning',
      message: `${rows} do${complete && count === 1 ? 'es' : ''} not have the header's ${formatCount(this.columns.length)} cells, first ${this.where(firstRow + this.headerRows)} with ${formatCount(firstCells)}; missing cells are shown empty and extra cells are dropped.`,
      ...(complete ? { count } : {}),
      ...this.rowAndLine(firstRow + this.headerRows),
    });
  }

  /** "row 12 (line 13)" for physical row p; "the header (line 1)" for the header. */
  private where(p: number): string {
    if (p < this.headerRows) return `the header (line ${this.offsets.line(p)})`;
    return place(p - this.headerRows + 1, this.offsets.line(p));
  }

  private rowAndLine(p: number): { row?: number; line: number } {
    return p < this.headerRows ? { line: this.offsets.line(p) } : { row: p - this.headerRows + 1, line: this.offsets.line(p) };
  }

  private checkColumns(columns: readonly number[]): void {
    for (const c of columns) {
      if (!Number.isInteger(c) || c < 0 || c >= this.columns.length) throw new RangeError(`No column ${c} (the table has ${this.columns.length})`);
    }
  }

  private cachedColumn(column: number): TypedColumn {
    const c = this.columnCache.get(column);
    if (!c) throw new Error(`Column ${column} was not built`);
    return c;
  }

  /** Runs passes over the file one at a time: two at once would only fight over the disk. */
  private enqueue<T>(task: () => Promise<T>): Promise<T> {
    const result = this.passQueue.then(task, task);
    this.passQueue = result.catch(() => undefined);
    return result;
  }

  private queuePass(needs: readonly ColumnNeed[], options: TaskOptions): Promise<TypedColumn[]> {
    return this.enqueue(async () => {
      const result = await columnPass(this, needs, this.map, { signal: this.lifetime.signal, onProgress: options.onProgress });
      if (result.map) this.map = result.map;
      if (result.ragged) this.noteRagged(result.ragged, true);
      for (const col of result.columns) {
        this.columnCache.set(col.column, col);
        this.building.delete(col.column);
      }
      return result.columns;
    }).catch((e: unknown) => {
      for (const n of needs) this.building.delete(n.column);
      throw e;
    });
  }

  /** Reads the bytes of the given data rows that are not in the head, merging neighbours. */
  private async readRows(rows: ArrayLike<number>, signal?: AbortSignal): Promise<Map<number, { buf: Buffer; base: number }>> {
    const wanted: number[] = [];
    for (let i = 0; i < rows.length; i++) {
      const p = (rows[i] ?? 0) + this.headerRows;
      if (this.offsets.limit(p) > this.headEnd) wanted.push(p);
    }
    wanted.sort((a, b) => a - b);
    const runs: { first: number; start: number; end: number; rows: number[] }[] = [];
    for (const p of wanted) {
      const start = this.offsets.start(p);
      const end = Math.min(this.offsets.limit(p), start + MAX_ROW_BYTES);
      const run = runs[runs.length - 1];
      if (run && run.rows[run.rows.length - 1] === p) continue;
      if (run && start - run.end <= MERGE_GAP && end - run.start <= MERGE_MAX) {
        run.end = Math.max(run.end, end);
        run.rows.push(p);
      } else runs.push({ first: p, start, end, rows: [p] });
    }
    const out = new Map<number, { buf: Buffer; base: number }>();
    await Promise.all(
      runs.map(async (run) => {
        const buf = Buffer.allocUnsafe(run.end - run.start);
        const { bytesRead } = await this.fh.read(buf, 0, buf.length, run.start);
        signal?.throwIfAborted();
        const chunk = { buf: buf.subarray(0, bytesRead), base: run.start };
        for (const p of run.rows) out.set(p, chunk);
      }),
    );
    return out;
  }

  private waitForRows(rows: number, signal?: AbortSignal): Promise<void> {
    if (this.complete || this.rowCount >= rows) return Promise.resolve();
    const waiting = new Promise<void>((resolve, reject) => this.rowWaiters.push({ rows, resolve, reject }));
    return abortable(waiting, signal);
  }

  private settleWaiters(error?: unknown): void {
    const still: typeof this.rowWaiters = [];
    for (const w of this.rowWaiters) {
      if (error !== undefined) w.reject(error);
      else if (this.complete || this.rowCount >= w.rows) w.resolve();
      else still.push(w);
    }
    this.rowWaiters = still;
  }
}
