/**
 * The host's handle on a table that lives in a worker thread (tableWorker.ts): the same async
 * calls the table session needs (open, window, apply, export, copy, column text, the analysis
 * panel's profile, histogram and scatter, close), progress
 * and change events, cancellation by AbortSignal, with every heavy pass on the worker's thread.
 * The host keeps only a mirror of what it must answer at once (columns, notices, the view's
 * counts), refreshed by the worker's pushes; errors come back typed (see fromWireError).
 */
import { threadId as mainThreadId, Worker, type WorkerOptions } from 'node:worker_threads';
import type { ColumnProfile, Histogram, ScatterData } from './analysisTypes';
import type { Chain, DistinctAddresses } from '../spec/addresses';
import { parsedList, type ParsedList } from '../spec/listParse';
import type { ChangeCounts, ChangeThreshold } from './compare/changeCounts';
import { HISTOGRAM_BINS } from './analysisTypes';
import { Listeners } from './listeners';
import { checkedList, unpackLines, type PackedLines } from './packedLines';
import type { PackedList } from '../spec/packedList';
import { abortReason, throwIfCancelled } from '../abort';
import { CancelledError } from '../errors';
import { bundleInUse } from '../l10n';
import type { CopyOptions, ExportOptions, ExportResult } from './exportView';
import type { Progress, SourceChange, TableNotice, TableWindow, TaskOptions, ViewQuery } from './types';
import {
  CANCELLED_WIRE_NAME,
  parseWorkerMessage,
  WARM_MESSAGE,
  type ColumnChains,
  type OpenedTable,
  type ViewSnapshot,
  type WireError,
  type WorkerMessage,
  type WorkerReply,
  type WorkerRequest,
} from './workerProtocol';
import { l10n } from '../l10n';
import { defaultWorkerFile, launchedTableThread, launcherRuns, launchTables, type TableThread } from './tableLauncher';

/** A column's distinct addresses as the worker sends them: the list packed (packedLines.ts), its counts. */
export type PackedAddresses = Omit<DistinctAddresses, 'addresses'> & { readonly addresses: PackedLines };

/** An error the table worker raised (or the worker's own failure), with its original name and code. */
export class TableWorkerError extends Error {
  constructor(
    message: string,
    /** The error's name inside the worker (Error, TypeError, …; WorkerExit when the worker itself stopped). */
    readonly remoteName: string,
    /** The Node error code (ENOENT, …) when there was one. */
    readonly code?: string,
  ) {
    super(message);
    this.name = 'TableWorkerError';
  }
}

/**
 * The error a worker reported, rebuilt on this side by the name the wire carries: a cancellation
 * (ours, or the platform's AbortError from a Node API in the worker) is a CancelledError, a
 * RangeError stays one; the rest are TableWorkerErrors.
 */
function fromWireError(e: WireError): Error {
  if (e.name === CANCELLED_WIRE_NAME || e.name === 'AbortError') return new CancelledError();
  if (e.name === 'RangeError') return new RangeError(e.message);
  return new TableWorkerError(e.message, e.name, e.code);
}

interface RemoteOpenOptions {
  /** Cancels the open (the worker stops); a later abort does nothing (close() ends the table). */
  readonly signal?: AbortSignal;
  /** The worker bundle (default: tableWorker.js beside this bundle, i.e. dist/). */
  readonly workerFile?: string;
  /** As for openCsvFile (default true). */
  readonly prepareColumns?: boolean;
  /** Opens `file` (A) and this result (B) compared by address (compareSource.ts), both in the worker. */
  readonly compareWith?: string;
}

/**
 * V8's young generation of a table worker, in MB: 48, i.e. semi-spaces of 16 MB, V8's own ceiling
 * on 64-bit. A 6 MB cap (semi-spaces of 2 MB) was tried to save 4–8 MB of peak RSS on the
 * 1,000,000-row file, but on long (5–20 KB) cells every window's strings outgrew the nursery and
 * were promoted and collected by the old generation: windows 5× slower and more memory, not less
 * (issue 34's profiles).
 */
export const TABLE_WORKER_YOUNG_GENERATION_MB = 48;

/** How a table worker is started. */
export function tableWorkerOptions(): WorkerOptions {
  // The worker's messages (a file's notices, a refused request) are said in the host's language.
  return { resourceLimits: { maxYoungGenerationSizeMb: TABLE_WORKER_YOUNG_GENERATION_MB }, workerData: { l10nBundle: bundleInUse() } };
}

/**
 * Starts the table launcher (tableLauncher.ts) of `workerFile`, once: from then on a table's worker
 * is started on the launcher's thread and the host never blocks on `new Worker` (14–40 ms) when a
 * person opens a table or reads a result. Call it at an idle moment; it blocks that once.
 */
export function startTableLauncher(workerFile: string = defaultWorkerFile()): void {
  const o = tableWorkerOptions();
  launchTables(workerFile, o.workerData, o.resourceLimits ?? {});
}

/** A worker started before it was needed (prestartTableWorker), for the next table of that bundle. */
let spare: { readonly file: string; readonly worker: Worker; readonly gone: () => void; readonly running: Promise<void> } | undefined;

/**
 * Starts a table worker now, so the next table opens without waiting for a thread, an isolate and
 * the bundle (90–120 ms of a table's index: issue 34). One spare at most; once running it never
 * keeps the process alive (unref) and is dropped if it stops. Resolves once the worker runs and its
 * sort is warm (sortWarmup.ts; WARM_MESSAGE), or once it stopped.
 */
export function prestartTableWorker(workerFile: string = defaultWorkerFile()): Promise<void> {
  if (launcherRuns(workerFile)) return Promise.resolve(); // its spare waits on the launcher's thread
  if (spare?.file !== workerFile) {
    if (spare) void spare.worker.terminate();
    const worker = new Worker(workerFile, tableWorkerOptions());
    const gone = (): void => {
      if (spare?.worker === worker) spare = undefined;
    };
    worker.once('error', gone);
    worker.once('exit', gone);
    // Held until its sort is warm (sortWarmup.ts: whoever awaits it keeps the process alive, and a
    // table opened after it finds hot code), then let go while it waits.
    const running = new Promise<void>((resolve) => {
      const warm = (m: unknown): void => {
        if (typeof m !== 'object' || m === null || (m as { type?: unknown }).type !== WARM_MESSAGE.type) return;
        worker.off('message', warm);
        if (spare?.worker === worker) worker.unref();
        resolve();
      };
      worker.on('message', warm);
      worker.once('exit', () => resolve());
    });
    spare = { file: workerFile, worker, gone, running };
  }
  return spare.running;
}

/** The spare worker of `workerFile` when there is one, else one from the launcher when it runs, else a new worker. */
function takeWorker(workerFile: string): TableThread | Promise<TableThread> {
  const s = spare;
  if (!s || s.file !== workerFile) return launchedTableThread(workerFile) ?? new Worker(workerFile, tableWorkerOptions());
  spare = undefined;
  s.worker.off('error', s.gone);
  s.worker.off('exit', s.gone);
  s.worker.ref();
  return s.worker;
}

type Op = WorkerReply['op'];
type Values = { [R in WorkerReply as R['op']]: R['value'] };
type ValueOf<K extends Op> = Values[K];
type RequestBody = WorkerRequest extends infer R ? (R extends { id: number } ? Omit<R, 'id'> : never) : never;

interface Pending {
  readonly op: Op;
  readonly resolve: (value: unknown) => void;
  readonly reject: (error: Error) => void;
  readonly onProgress?: (p: Progress) => void;
}


export class RemoteTable {
  readonly kind: OpenedTable['kind'];
  readonly columns: readonly string[];
  /** The thread the table lives on (never this one). */
  readonly threadId: number;
  /** Resolves when every row is indexed; rejects if indexing failed, the table closed first, or the worker stopped. */
  readonly indexed: Promise<void>;
  private state: ViewSnapshot;
  private noticeList: readonly TableNotice[];
  private readonly changes = new Listeners<SourceChange>();
  private settle: (error?: Error) => void = () => undefined;
  private closed: Promise<void> | undefined;

  private constructor(
    private readonly channel: Channel,
    opened: OpenedTable,
  ) {
    this.kind = opened.kind;
    this.columns = opened.columns;
    this.threadId = opened.threadId;
    this.state = opened.view;
    this.noticeList = opened.notices;
    this.indexed = new Promise<void>((resolve, reject) => {
      this.settle = (error) => (error ? reject(error) : resolve());
    });
    this.indexed.catch(() => undefined); // a rejection nobody awaits is not a crash
    channel.onEvent = (m) => this.event(m);
    channel.onExit = (error) => this.settle(error);
  }

  /** Starts a worker (tableWorkerOptions) and opens `file` in it (by extension, as openTable); resolves with the header and first rows known. */
  static async open(file: string, options: RemoteOpenOptions = {}): Promise<RemoteTable> {
    throwIfCancelled(options.signal);
    const channel = new Channel(await takeWorker(options.workerFile ?? defaultWorkerFile()));
    const early: WorkerMessage[] = [];
    channel.onEvent = (m) => early.push(m); // changes that race the reply; replayed below
    try {
      const opened = await channel.request({ type: 'open', file, prepareColumns: options.prepareColumns, ...(options.compareWith !== undefined ? { compareWith: options.compareWith } : {}) }, 'open', { signal: options.signal });
      if (opened.threadId === mainThreadId) throw new TableWorkerError(l10n.t('The table opened on the main thread.'), 'Error');
      const table = new RemoteTable(channel, opened);
      for (const m of early) table.event(m);
      return table;
    } catch (e) {
      await channel.stop();
      throw e;
    }
  }

  /** The view's counts and query, as of the worker's latest message. */
  get view(): ViewSnapshot {
    return this.state;
  }

  get rowCount(): number {
    return this.state.total;
  }

  get complete(): boolean {
    return this.state.complete;
  }

  get notices(): readonly TableNotice[] {
    return this.noticeList;
  }

  /** Subscribes to the source's changes (indexing progress, notices, completion); returns the unsubscribe function. */
  onDidChange(listener: (change: SourceChange) => void): () => void {
    return this.changes.add(listener);
  }

  /**
   * Cells of view rows [first, last) × `columns` (clamped to the view). With `cellChars` (the
   * grid's windows), longer cells come cut to it and listed in the window's `cut`: never a value to act on.
   */
  window(first: number, last: number, columns: readonly number[], signal?: AbortSignal, cellChars?: number): Promise<TableWindow> {
    return this.channel.request({ type: 'window', first, last, columns, ...(cellChars === undefined ? {} : { cellChars }) }, 'window', { signal });
  }

  /** Sorts, filters and searches in the worker; a later call cancels an earlier one still running (CancelledError). */
  async apply(query: ViewQuery, options: TaskOptions = {}): Promise<ViewSnapshot> {
    const view = await this.channel.request({ type: 'apply', query }, 'apply', options);
    if (view.version >= this.state.version) this.state = view;
    return view;
  }

  /** Writes the view to `target` as CSV (see exportView); the worker writes the file. */
  export(target: string, options: ExportOptions = {}): Promise<ExportResult> {
    const { signal, onProgress, columns, neutraliseFormulas = true, header = true, lineEnding = '\r\n' } = options;
    return this.channel.request({ type: 'export', target, options: { columns, neutraliseFormulas, header, lineEnding } }, 'export', { signal, onProgress });
  }

  /** View rows [first, last) × `columns` as TSV or CSV text (see copySelection); a RangeError past COPY_MAX_CELLS. */
  copy(first: number, last: number, columns: readonly number[], options: CopyOptions, signal?: AbortSignal): Promise<string> {
    const { format, header = true, neutraliseFormulas = true } = options;
    return this.channel.request({ type: 'copy', first, last, columns, format, header, neutraliseFormulas }, 'copy', { signal });
  }

  /** Every cell of `column`, in view order (one typed pass in the worker, cached there). */
  async columnText(column: number, options: TaskOptions = {}): Promise<readonly string[]> {
    return unpackLines(await this.channel.request({ type: 'columnText', column }, 'columnText', options));
  }

  /** The distinct addresses of `column` of the chain, in view order, at most `limit` sent back (counted in the worker: addresses.ts). */
  async addresses(column: number, chain: Chain, options: TaskOptions & { limit?: number } = {}): Promise<DistinctAddresses> {
    const got = await this.packedAddresses(column, chain, options);
    return { ...got, addresses: await unpackLines(got.addresses) };
  }

  /** As `addresses`, the list left packed as it crossed (for a step that writes or counts it: no string per address on this thread). */
  packedAddresses(column: number, chain: Chain, options: TaskOptions & { limit?: number } = {}): Promise<PackedAddresses> {
    const { limit, ...task } = options;
    return this.channel.request({ type: 'addresses', column, chain, ...(limit !== undefined && Number.isFinite(limit) ? { limit } : {}) }, 'addresses', task);
  }

  /**
   * `column`'s cells parsed as a list of addresses of the chain (spec/listParse.ts parseAddressList) in
   * the worker: only the valid list and the bad entries cross, and the valid list comes marked
   * checked (addresses.ts checkedAddresses: parsed, normalised, distinct), so the price step's
   * input check takes it as it is.
   */
  async addressList(column: number, chain: Chain, options: TaskOptions = {}): Promise<ParsedList> {
    const got = await this.channel.request({ type: 'addressList', column, chain }, 'addressList', options);
    const valid = await checkedList(got.addresses, chain);
    const values = await unpackLines(got.invalid);
    return parsedList(valid, values.map((value, i) => ({ line: got.lines[i] ?? 0, value })), got.duplicates, chain);
  }

  /**
   * As `addresses`, a long list (over PACK_MIN_ITEMS) left one packed string on this thread
   * (spec/packedList.ts: 100,000 strings made and kept here were its loop's longest collections).
   */
  async addressesPacked(column: number, chain: Chain, options: TaskOptions & { limit?: number } = {}): Promise<Omit<DistinctAddresses, 'addresses'> & { addresses: string[] | PackedList }> {
    const got = await this.packedAddresses(column, chain, options);
    return { ...got, addresses: await checkedList(got.addresses, chain) };
  }

  /** Each column's chain (null: not an address column) by the one classifier over the first rows, judged in the worker, and the first row's cells. */
  columnChains(options: TaskOptions = {}): Promise<ColumnChains> {
    return this.channel.request({ type: 'columnChains' }, 'columnChains', options);
  }

  /** A comparison's (opened with `compareWith`) rows new, gone, in both and moved past `threshold`, counted in the worker. */
  changeCounts(threshold?: ChangeThreshold, options: TaskOptions = {}): Promise<ChangeCounts> {
    return this.channel.request({ type: 'changes', ...(threshold ? { threshold: { column: threshold.column, percent: threshold.percent } } : {}) }, 'changes', options);
  }

  /** The profile of `column` over every row of the current view (analysis.ts): type, counts, order statistics, top values, histogram. */
  profile(column: number, options: TaskOptions = {}): Promise<ColumnProfile> {
    return this.channel.request({ type: 'profile', column }, 'profile', options);
  }

  /** A histogram of `column` over the current view, `bins` equal-width bins (of log10 of the positive numbers with `log`). */
  histogram(column: number, bins = HISTOGRAM_BINS, log = false, options: TaskOptions = {}): Promise<Histogram> {
    return this.channel.request({ type: 'histogram', column, bins, log }, 'histogram', options);
  }

  /** The points of a scatter of `x` against `y`: every view row where both are numbers, as typed arrays. */
  scatter(x: number, y: number, options: TaskOptions = {}): Promise<ScatterData> {
    return this.channel.request({ type: 'scatter', x, y }, 'scatter', options);
  }

  /** Stops the table's work, releases the file and ends the worker. Safe to call twice. */
  close(): Promise<void> {
    this.closed ??= (async () => {
      try {
        await this.channel.request({ type: 'close' }, 'close', {});
      } catch {
        // The worker is stopped below either way.
      }
      await this.channel.stop();
      this.settle(new CancelledError());
    })();
    return this.closed;
  }

  private event(m: WorkerMessage): void {
    switch (m.type) {
      case 'changed':
        if (m.view.version >= this.state.version) this.state = m.view;
        this.noticeList = m.notices;
        this.changes.fire(m.change);
        return;
      case 'indexed':
        this.settle();
        return;
      case 'indexFailed':
        this.settle(fromWireError(m.error));
        return;
      default:
        return;
    }
  }
}

/** Requests to one worker matched with their replies by id; events and the worker's end handed on. */
class Channel {
  onEvent: (m: WorkerMessage) => void = () => undefined;
  onExit: (error: Error) => void = () => undefined;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private stopping = false;

  constructor(private readonly worker: TableThread) {
    worker.on('message', (raw: unknown) => this.message(raw));
    worker.on('error', (e: Error) => this.fail(new TableWorkerError(l10n.t('The table worker failed: {0}', e.message), e.name, 'WORKER_FAILED')));
    worker.on('exit', (code) => {
      if (!this.stopping) this.fail(new TableWorkerError(l10n.t('The table worker stopped (exit code {0}).', code), 'WorkerExit', 'WORKER_EXITED'));
    });
  }

  request<K extends Op>(body: RequestBody & { type: K }, op: K, options: TaskOptions): Promise<ValueOf<K>> {
    const { signal, onProgress } = options;
    if (signal?.aborted) return Promise.reject(abortReason(signal));
    if (this.stopping) return Promise.reject(new TableWorkerError(l10n.t('The table is closed.'), 'Error', 'TABLE_CLOSED'));
    const id = this.nextId++;
    return new Promise<ValueOf<K>>((resolve, reject) => {
      const onAbort = (): void => {
        if (!this.pending.delete(id)) return;
        this.worker.postMessage({ type: 'cancel', id } satisfies WorkerRequest);
        reject(abortReason(signal as AbortSignal));
      };
      const done = (): void => signal?.removeEventListener('abort', onAbort);
      this.pending.set(id, {
        op,
        resolve: (v) => {
          done();
          resolve(v as ValueOf<K>);
        },
        reject: (e) => {
          done();
          reject(e);
        },
        onProgress,
      });
      signal?.addEventListener('abort', onAbort, { once: true });
      this.worker.postMessage({ ...body, id } as WorkerRequest);
    });
  }

  /** Ends the worker; requests still waiting reject. */
  async stop(): Promise<void> {
    if (this.stopping) return;
    this.stopping = true;
    this.fail(new CancelledError());
    await this.worker.terminate();
  }

  private message(raw: unknown): void {
    const m = parseWorkerMessage(raw);
    if (!m) {
      const id = typeof raw === 'object' && raw !== null ? (raw as { id?: unknown }).id : undefined;
      const p = typeof id === 'number' ? this.pending.get(id) : undefined;
      if (p && typeof id === 'number') {
        this.pending.delete(id);
        p.reject(new TableWorkerError(l10n.t('The table worker sent a malformed reply.'), 'TypeError', 'MALFORMED_REPLY'));
      }
      return;
    }
    if (m.type === 'reply' || m.type === 'failed' || m.type === 'progress') {
      const p = this.pending.get(m.id);
      if (!p) return; // cancelled here already
      if (m.type === 'progress') {
        p.onProgress?.(m.progress);
        return;
      }
      this.pending.delete(m.id);
      if (m.type === 'failed') p.reject(fromWireError(m.error));
      else if (m.op === p.op) p.resolve(m.value);
      else p.reject(new TableWorkerError(l10n.t('The table worker answered {0} with {1}.', p.op, m.op), 'TypeError', 'MALFORMED_REPLY'));
      return;
    }
    this.onEvent(m);
  }

  private fail(error: Error): void {
    const waiting = [...this.pending.values()];
    this.pending.clear();
    for (const p of waiting) p.reject(error);
    this.onExit(error);
  }
}
