/**
 * A CSV file (or a .txt address list) as a TableSource, never held in memory as a whole.
 *
 * open: reads the first MiB, so the header and the first rows are answered at once; then indexes
 * row starts in the background (CsvIndexer, ~0.2 s for 700 MB in page cache) with progress and
 * cancellation; then, unless told not to, walks every cell once to build the CellMap, a walk that
 * gives way to any other pass asked meanwhile (a sort's column) and goes on after it.
 * readCells: byte-range reads of just the wanted rows.
 * typedColumns / searchRows: sequential passes over the file, one at a time, results cached.
 */
import { open, type FileHandle } from 'node:fs/promises';
import { extname } from 'node:path';
import { abortable, throwIfCancelled } from '../abort';
import { CancelledError } from '../errors';
import type { CellMap } from './cellMap';
import { prefixBytes } from './windowCells';
import { CellSpan, cellText, countCells, readRowCells } from './cells';
import { takeWalker, type CellWalker } from './cellWalkWasm';
import { ColumnCache } from './columnCache';
import { columnPass, MapBuild, type RaggedRows } from './csvColumnPass';
import { rowEnd, spanLine, type CsvFile } from './csvFile';
import { COMMA } from './bytes';
import type { Delimiter } from './csvDialect';
import { CsvIndexer } from './csvIndexer';
import { BOM_NOTICE, dialectNotice, Places, raggedNotice, scanNotices } from './csvNotices';
import { searchFile } from './csvSearch';
import { Listeners } from './listeners';
import { NoticeBoard } from './notices';
import { CHUNK_BYTES, READ_BUFFERS } from './rowChunks';
import type { RowOffsets } from './rowOffsets';
import type { RowHeads } from './rowHeads';
import { readRowBytes } from './rowReads';
import type { ColumnNeed, SourceChange, TableNotice, TableSource, TaskOptions, TypedColumn } from './types';
import { l10n } from '../l10n';
import { realClock, type WalkClock } from './walkClock';

/** Bytes read before open() returns: the header and about 140 rows of the widest result. */
const HEAD_BYTES = 1 << 20;
/** A pass for a column from this one on finishes the cell walk rather than find it from each row's first cell (files of more than 64 columns). */
const FAR_COLUMN = 64;
/** Searches remembered per source (a typed-ahead search repeats the same needles). */
const SEARCH_CACHE = 4;
/**
 * Rows read for a window within this long stop the background walk between two chunks; it goes
 * on once reads have been quiet this long. Beside the walk (its chunks on this thread, its two
 * reads on libuv's), windows of long cells took 1.2–1.5× as long (issue 34).
 */
const QUIET_MS = 150;

export interface OpenCsvOptions extends TaskOptions {
  /** Walk every cell in the background once the index is done, so ragged rows are reported and later passes are faster (default true). */
  readonly prepareColumns?: boolean;
  /** Read sizes in bytes; tests make them tiny to put chunk boundaries everywhere. */
  readonly readSizes?: { readonly head: number; readonly chunk: number };
  /** The walk's clock (tests). */
  readonly clock?: WalkClock;
  /** Bytes of each row's head the index keeps, whatever its rows' lengths (tests; by default CsvIndexer.keepHeads decides). */
  readonly rowHeads?: number;
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

class CsvSource implements TableSource, CsvFile {
  readonly kind: 'csv' | 'txt';
  readonly delimited: boolean;
  readonly indexed: Promise<void>;
  private names: readonly string[] = [];
  private header = 0;
  private readonly indexer: CsvIndexer;
  private readonly changes = new Listeners<SourceChange>();
  private readonly board = new NoticeBoard(() => this.changes.fire({ type: 'notices' }));
  private readonly lifetime = new AbortController();
  private readonly columnCache = new ColumnCache((needs, options) => this.queueColumnPass(needs, options.onProgress));
  private readonly searches = new Map<string, Promise<Uint8Array>>();
  private rowWaiters: { rows: number; resolve: () => void; reject: (e: unknown) => void }[] = [];
  private map: CellMap | undefined;
  /** The background walk building the map, while it has rows left (prepareColumns). */
  private build: MapBuild | undefined;
  private settleMapped: () => void = () => undefined;
  private readonly mapped = new Promise<void>((resolve) => (this.settleMapped = resolve));
  private passQueue: Promise<unknown> = Promise.resolve();
  /** Passes queued and not started yet: the background walk stops for them. */
  private waitingPasses = 0;
  private buffers: readonly Buffer[] | undefined;
  private walker: CellWalker | undefined;
  private settleIndexed: (error?: unknown) => void = () => undefined;
  /** When rows were last read for a window (clock.now()), and the pending resumption of a walk paused for them. */
  private lastRead = -Infinity;
  private cancelResume: (() => void) | undefined;

  private constructor(
    readonly fh: FileHandle,
    readonly size: number,
    format: Format,
    private readonly chunkBytes: number,
    tsv: boolean,
    private readonly clock: WalkClock,
  ) {
    this.kind = format.kind;
    this.delimited = format.delimited;
    this.indexer = new CsvIndexer(fh, size, format.delimited, tsv);
    this.indexed = new Promise<void>((resolve, reject) => {
      this.settleIndexed = (error) => (error === undefined ? resolve() : reject(error));
    });
    this.indexed.catch(() => undefined); // a rejection nobody awaits is not a crash
  }

  /** Opens `path` in `format`; see openCsvFile. */
  static async open(path: string, format: Format, options: OpenCsvOptions): Promise<CsvSource> {
    throwIfCancelled(options.signal);
    const fh = await open(path, 'r');
    try {
      const size = (await fh.stat()).size;
      const reads = options.readSizes ?? { head: HEAD_BYTES, chunk: CHUNK_BYTES };
      const source = new CsvSource(fh, size, format, Math.max(1, reads.chunk), format.delimited && extname(path).toLowerCase() === '.tsv', options.clock ?? realClock);
      await source.start(Math.max(1, reads.head), options);
      return source;
    } catch (e) {
      await fh.close();
      throw e;
    }
  }

  get columns(): readonly string[] {
    return this.names;
  }

  get columnCount(): number {
    return this.names.length;
  }

  get headerRows(): number {
    return this.header;
  }

  get offsets(): RowOffsets {
    return this.indexer.offsets;
  }

  /** The byte between cells, from the file's first bytes (csvDialect.ts); a comma until the head is read. */
  get delimiter(): Delimiter {
    return this.indexer.dialect.delimiter;
  }

  /** Each row's first bytes, kept by the index when its rows are long (rowHeads.ts); undefined otherwise. */
  get rowHeads(): RowHeads | undefined {
    return this.indexer.heads;
  }

  get rowCount(): number {
    return Math.max(0, this.offsets.length - this.header);
  }

  get complete(): boolean {
    return this.indexer.done;
  }

  get notices(): readonly TableNotice[] {
    return this.board.list;
  }

  onDidChange(listener: (change: SourceChange) => void): () => void {
    return this.changes.add(listener);
  }

  chunkBuffers(): readonly Buffer[] {
    // Kept for the source's life: fresh buffers per pass would only raise the peak RSS.
    if (!this.buffers) {
      const size = Math.max(1, Math.min(this.chunkBytes, this.size));
      try {
        this.walker = takeWalker(size); // the worker's warm one when the size is its (indexWarmup.ts)
        this.buffers = this.walker.buffers;
      } catch {
        this.buffers = Array.from({ length: READ_BUFFERS }, () => Buffer.allocUnsafe(size)); // no WebAssembly (e.g. --jitless): the JS walk does it
      }
    }
    return this.buffers;
  }

  /** Resolves once the cell map is built (after the background walk, or the first pass when there is none). */
  whenMapped(): Promise<void> {
    return this.mapped;
  }

  cellWalker(): CellWalker | undefined {
    this.chunkBuffers();
    return this.delimiter === COMMA ? this.walker : undefined;
  }

  async readCells(rows: ArrayLike<number>, columns: readonly number[], signal?: AbortSignal, cellChars?: number): Promise<string[][]> {
    this.checkColumns(columns);
    this.lastRead = this.clock.now();
    const physical = Array.from(rows, (r) => r + this.header);
    const last = physical.reduce((m, p) => Math.max(m, p), -1);
    await this.waitForRows(last + 1 - this.header, signal);
    const bad = physical.find((p) => p < this.header || p >= this.offsets.length || !Number.isInteger(p));
    if (bad !== undefined) throw new RangeError(l10n.t('No row {0} (the table has {1})', bad - this.header, this.rowCount));
    const head = this.indexer.head;
    const far = physical.filter((p) => this.offsets.limit(p) > head.length);
    const bytes = far.length > 0 ? readRowBytes(this.fh, this.offsets, far, signal) : undefined;
    const span = new CellSpan();
    const [firstColumn, maxBytes] = [Math.min(...columns), cellChars === undefined ? undefined : prefixBytes(cellChars)];
    return physical.map((p) => {
      const { buf, base } = bytes?.get(p) ?? { buf: head, base: 0 };
      const s = this.offsets.start(p) - base;
      const e = rowEnd(this.offsets, p, buf, s, this.offsets.limit(p) - base);
      const cells: string[] = [];
      if (this.delimited) {
        // With the cell map, start at the mark before the first asked column, not at cell 0.
        const mark = this.map && columns.length > 0 ? this.map.markBefore(p - this.header, firstColumn) : undefined;
        readRowCells(buf, s, e, columns, cells, mark?.cell ?? 0, s + (mark?.offset ?? 0), this.delimiter, maxBytes);
      } else {
        spanLine(buf, s, e, span);
        if (maxBytes !== undefined) span.to = Math.min(span.to, span.from + maxBytes);
        cells.push(...columns.map(() => cellText(buf, span)));
      }
      return cells;
    });
  }

  rowBytes(row: number): number {
    const p = row + this.header;
    return p < this.offsets.length ? this.offsets.limit(p) - this.offsets.start(p) : 0;
  }

  async typedColumns(needs: readonly ColumnNeed[], options: TaskOptions = {}): Promise<TypedColumn[]> {
    this.checkColumns(needs.map((n) => n.column));
    await abortable(this.indexed, options.signal);
    return abortable(this.columnCache.get(needs, { onProgress: options.onProgress }), options.signal);
  }

  searchRows(text: string, options: TaskOptions = {}): Promise<Uint8Array> {
    const key = text.toLowerCase();
    let search = this.searches.get(key);
    if (!search) {
      const signal = this.lifetime.signal;
      search = abortable(this.indexed, signal).then(() => {
        const wellFormed = this.indexer.problems.malformedQuotes === 0;
        return this.enqueue(() => searchFile(this, key, wellFormed, { signal, onProgress: options.onProgress }));
      });
      search.catch(() => this.searches.delete(key));
      this.searches.set(key, search);
      if (this.searches.size > SEARCH_CACHE) this.searches.delete(this.searches.keys().next().value ?? '');
    }
    return abortable(search, options.signal);
  }

  async close(): Promise<void> {
    this.lifetime.abort(new CancelledError());
    this.cancelResume?.();
    await this.indexed.catch(() => undefined);
    await this.passQueue.catch(() => undefined);
    await this.fh.close();
  }

  /** Reads the head and header, then indexes the rest in the background. */
  private async start(headBytes: number, options: OpenCsvOptions): Promise<void> {
    // A file longer than the head needs the walker for the rest anyway: the head is scanned with it
    // too, once the file's dialect says the kernel can read it.
    const walkerFor = (): CellWalker | undefined => (this.size > headBytes ? this.cellWalker() : undefined);
    await this.indexer.readHead(headBytes, this.delimited, walkerFor);
    if (this.indexer.bom) this.board.set(BOM_NOTICE);
    this.readHeader();
    const dialect = this.delimited ? dialectNotice(this.indexer.dialect, this.names.length) : undefined;
    if (dialect) this.board.set(dialect);
    this.checkHeadRows(walkerFor());
    if (this.delimited) this.indexer.keepHeads(this.header, Math.max(1, Math.min(this.chunkBytes, this.size)), options.rowHeads, this.names.length);
    const signal = options.signal ? AbortSignal.any([this.lifetime.signal, options.signal]) : this.lifetime.signal;
    const run = async (): Promise<void> => {
      if (!this.indexer.done) {
        await this.indexer.readRest(this.chunkBuffers(), signal, (done) => {
          this.changes.fire({ type: 'progress', rowCount: this.rowCount, bytesDone: done, bytesTotal: this.size });
          options.onProgress?.({ task: 'index', done, total: this.size });
          this.settleWaiters();
        }, this.cellWalker());
      }
      const places = new Places(this.offsets, this.header);
      for (const n of scanNotices(this.indexer.problems, this.offsets, places, this.delimited, this.size)) this.board.set(n);
      this.changes.fire({ type: 'complete', rowCount: this.rowCount });
      this.settleWaiters();
      this.settleIndexed();
      if (options.prepareColumns !== false && this.delimited && this.rowCount > 0) {
        this.build = new MapBuild(this);
        this.queueMapWalk(); // the cell map, for ragged rows and faster passes
      }
    };
    run().catch((e: unknown) => {
      this.settleIndexed(e);
      this.settleWaiters(e);
    });
  }

  /** Column names from the first row; an address list has one, `address`, and a header only if its first line says so. */
  private readHeader(): void {
    if (this.offsets.length === 0) return;
    const head = this.indexer.head;
    const s = this.offsets.start(0);
    const e = rowEnd(this.offsets, 0, head, s, this.offsets.limit(0));
    if (!this.delimited) {
      const span = new CellSpan();
      spanLine(head, s, e, span);
      this.header = cellText(head, span).toLowerCase() === 'address' ? 1 : 0;
      this.names = ['address'];
      return;
    }
    this.header = 1;
    const names: string[] = [];
    readRowCells(head, s, e, Array.from({ length: countCells(head, s, e, this.delimiter) }, (_, i) => i), names, 0, s, this.delimiter);
    this.names = names;
  }

  /**
   * A ragged row among the first rows is reported at once; the full walk counts them all later.
   * Cells are counted by `walker`'s kernel when the head fits in its buffer (the rest is not read yet).
   */
  private checkHeadRows(walker: CellWalker | undefined): void {
    if (!this.delimited) return;
    const head = this.indexer.head;
    // The rows wholly in the head (limits only grow: a prefix of the rows).
    let last = this.offsets.length;
    while (last > this.header && this.offsets.limit(last - 1) > head.length) last--;
    const report = (p: number, cells: number): void => {
      const ragged = { count: 1, firstRow: p - this.header, firstCells: cells };
      this.board.set(raggedNotice(ragged, this.names.length, this.header, new Places(this.offsets, this.header), false));
    };
    const staged = walker?.stage(head);
    if (staged && walker) {
      const first = walker.firstRowNotOf(staged, this.offsets.bounds(this.header, last), this.names.length);
      if (first) report(this.header + first.index, first.cells);
      return;
    }
    for (let p = this.header; p < last; p++) {
      const s = this.offsets.start(p);
      const cells = countCells(head, s, rowEnd(this.offsets, p, head, s, this.offsets.limit(p)), this.delimiter);
      if (cells !== this.names.length) {
        report(p, cells);
        return;
      }
    }
  }

  private checkColumns(columns: readonly number[]): void {
    for (const c of columns) {
      if (!Number.isInteger(c) || c < 0 || c >= this.names.length) throw new RangeError(l10n.t('No column {0} (the table has {1})', c, this.names.length));
    }
  }

  /** Runs passes over the file one at a time: two at once would only fight over the disk. */
  private enqueue<T>(task: () => Promise<T>): Promise<T> {
    this.waitingPasses++;
    const start = (): Promise<T> => {
      this.waitingPasses--;
      return task();
    };
    const result = this.passQueue.then(start, start);
    this.passQueue = result.catch(() => undefined);
    return result;
  }

  /**
   * Queues a pass that types `needs`; the pass is shared, so it is never cancelled by one caller.
   * Before the map is whole, the pass finds its cells from each row's first cell (JavaScript
   * finds a wallet file's sort column in the first 300 bytes of a 7 KB row, where the walk reads
   * all of them; on the 1,000,000 rows of quoted text too it beat finishing the walk in the same
   * pass), except in a file of more than 64 columns asked for a cell past the 64th: that pass
   * finishes the walk as it goes. With no background walk (prepareColumns false), the first pass
   * builds the map.
   */
  private queueColumnPass(needs: readonly ColumnNeed[], onProgress?: TaskOptions['onProgress']): Promise<TypedColumn[]> {
    return this.enqueue(async () => {
      const options = { signal: this.lifetime.signal, onProgress };
      const walking = this.build; // under way: its map holds the rows it walked
      const far = walking?.map.layout === 'marks' && needs.some((n) => n.column >= FAR_COLUMN);
      const build = this.map || !this.delimited ? undefined : walking ? (far ? walking : undefined) : new MapBuild(this);
      const places = this.map ? { map: this.map, rows: this.rowCount } : walking ? { map: walking.map, rows: walking.walked } : undefined;
      const result = await columnPass(this, needs, build ? { build } : { places }, options);
      this.mapBuilt(result);
      return result.columns;
    });
  }

  /**
   * Queues (the rest of) the background walk that builds the map. It stops for any pass queued
   * meanwhile, and queues itself again after them; and for windows being read, going on once
   * they have been quiet for QUIET_MS.
   */
  private queueMapWalk(): void {
    this.enqueue(async () => {
      const build = this.build;
      if (!build || this.map || this.lifetime.signal.aborted) return;
      if (this.readRecently()) return this.resumeWalkLater();
      const result = await columnPass(this, [], { build }, { signal: this.lifetime.signal, stop: () => this.waitingPasses > 0 || this.readRecently() });
      if (result.map) this.mapBuilt(result);
      else if (this.waitingPasses > 0) this.queueMapWalk();
      else this.resumeWalkLater();
    }).catch(() => undefined);
  }

  private readRecently(): boolean {
    return this.clock.now() - this.lastRead < QUIET_MS;
  }

  /** Queues the walk again QUIET_MS after the last window's read (once: a later read moves it on when it comes due). */
  private resumeWalkLater(): void {
    if (this.cancelResume || this.lifetime.signal.aborted) return;
    const wait = Math.max(0, this.lastRead + QUIET_MS - this.clock.now());
    this.cancelResume = this.clock.after(wait, () => {
      this.cancelResume = undefined;
      this.queueMapWalk();
    });
  }

  private mapBuilt(result: { readonly map: CellMap | undefined; readonly ragged: RaggedRows | undefined }): void {
    if (!result.map) return;
    this.map = result.map;
    this.build = undefined;
    if (result.ragged) this.board.set(raggedNotice(result.ragged, this.names.length, this.header, new Places(this.offsets, this.header), true));
    this.settleMapped();
  }

  private waitForRows(rows: number, signal?: AbortSignal): Promise<void> {
    if (this.complete || this.rowCount >= rows) return Promise.resolve();
    return abortable(new Promise<void>((resolve, reject) => this.rowWaiters.push({ rows, resolve, reject })), signal);
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
