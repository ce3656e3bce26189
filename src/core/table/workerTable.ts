/**
 * The table worker's side of workerProtocol.ts: one source and its view, the requests answered by
 * id, cancellation by id, and the source's changes pushed to the host (progress throttled, so a
 * 1.8 GB index costs the host a message every PUSH_MS, not one per chunk). Runs inside the worker
 * (tableWorker.ts wires it to parentPort); `post` is the only way out, so it is tested as is.
 */
import { basename } from 'node:path';
import { threadId } from 'node:worker_threads';
import { abortable, throwIfCancelled } from '../abort';
import { distinctAddresses } from '../spec/addresses';
import { parseAddressList } from '../spec/listParse';
import { compareSources } from './compare/compareSource';
import { countChanges } from './compare/changeCounts';
import { columnHistogram, profileColumn, scatterPoints } from './analysis';
import { copySelection, exportView } from './exportView';
import { openTable } from './openTable';
import { sampleColumnChain, SAMPLE_ROWS } from './columnKind';
import { packLines } from './packedLines';
import { TableView } from './tableView';
import type { Progress, SourceChange, TableSource, TaskOptions, TypedColumn } from './types';
import { parseWorkerRequest, toWireError, type OpenedTable, type ViewSnapshot, type WorkerMessage, type WorkerReply, type WorkerRequest } from './workerProtocol';
import { CancelledError } from '../errors';
import { l10n } from '../l10n';

/** Two results compared by address in this worker (a watch's two runs): the comparison owns and closes both. */
async function openComparison(a: string, b: string, signal: AbortSignal): Promise<TableSource> {
  const [sa, sb] = await Promise.allSettled([openTable(a, { signal }), openTable(b, { signal })]);
  if (sa.status === 'rejected' || sb.status === 'rejected') {
    if (sa.status === 'fulfilled') await sa.value.close();
    if (sb.status === 'fulfilled') await sb.value.close();
    throw sa.status === 'rejected' ? sa.reason : (sb as PromiseRejectedResult).reason;
  }
  try {
    return await compareSources(sa.value, sb.value, { signal, ownsSources: true, labels: { a: basename(a), b: basename(b) } });
  } catch (e) {
    await Promise.all([sa.value.close(), sb.value.close()]);
    throw e;
  }
}

/** Least time between two progress messages of one kind. */
const PUSH_MS = 50;

type Post = (message: WorkerMessage) => void;

export class WorkerTable {
  private source: TableSource | undefined;
  private view: TableView | undefined;
  private unsubscribe: (() => void) | undefined;
  private readonly controllers = new Map<number, AbortController>();
  private readonly lifetime = new AbortController();
  private pushTimer: NodeJS.Timeout | undefined;
  private pendingChange: SourceChange | undefined;
  private lastPush = 0;

  constructor(private readonly post: Post) {}

  /** Handles one message from the host; never throws (a failure is answered with `failed`). */
  receive(raw: unknown): void {
    const req = parseWorkerRequest(raw);
    if (!req) {
      const id = typeof raw === 'object' && raw !== null ? (raw as { id?: unknown }).id : undefined;
      if (typeof id === 'number') this.post({ type: 'failed', id, error: { name: 'TypeError', message: l10n.t('The table worker received a malformed request.') } });
      return;
    }
    if (req.type === 'cancel') {
      this.controllers.get(req.id)?.abort(new CancelledError());
      return;
    }
    const own = new AbortController();
    this.controllers.set(req.id, own);
    const signal = AbortSignal.any([own.signal, this.lifetime.signal]);
    this.answer(req, signal).then(
      (reply) => this.post({ type: 'reply', id: req.id, ...reply }),
      (e: unknown) => this.post({ type: 'failed', id: req.id, error: toWireError(e) }),
    ).finally(() => this.controllers.delete(req.id));
  }

  private async answer(req: Exclude<WorkerRequest, { type: 'cancel' }>, signal: AbortSignal): Promise<WorkerReply> {
    if (req.type === 'open') return { op: 'open', value: await this.open(req.file, req.prepareColumns, signal, req.compareWith) };
    if (req.type === 'close') return { op: 'close', value: await this.close() };
    const view = this.view;
    if (!view) throw new Error(l10n.t('No table is open in this worker.'));
    const onProgress = this.progress(req.id);
    switch (req.type) {
      case 'window': {
        const last = Math.min(req.last, view.length);
        return { op: 'window', value: await view.window(Math.min(req.first, last), last, req.columns, signal, req.cellChars) };
      }
      case 'apply':
        await view.apply(req.query, { signal, onProgress });
        return { op: 'apply', value: this.snapshot() };
      case 'export':
        return { op: 'export', value: await exportView(view, req.target, { ...req.options, signal, onProgress }) };
      case 'copy':
        return { op: 'copy', value: await copySelection(view, req.first, req.last, req.columns, req) };
      case 'columnText': {
        if (req.column >= view.source.columns.length) throw new RangeError(l10n.t('There is no column {0}.', req.column));
        const [typed] = await view.source.typedColumns([{ column: req.column, text: true }], { signal, onProgress });
        const text = typed?.fullText ?? [];
        return { op: 'columnText', value: packLines(Array.from(view.rowIds(), (id) => text[id] ?? '')) };
      }
      case 'addresses': {
        if (req.column >= view.source.columns.length) throw new RangeError(l10n.t('There is no column {0}.', req.column));
        await abortable(view.source.indexed, signal);
        const [typed] = await view.source.typedColumns([{ column: req.column, text: true }], { signal, onProgress });
        const text = typed?.fullText ?? [];
        const { addresses, ...counts } = distinctAddresses(Array.from(view.rowIds(), (id) => text[id] ?? ''), req.chain, req.limit);
        return { op: 'addresses', value: { ...counts, addresses: packLines(addresses) } };
      }
      case 'addressList': {
        if (req.column >= view.source.columns.length) throw new RangeError(l10n.t('There is no column {0}.', req.column));
        await abortable(view.source.indexed, signal);
        const [typed] = await view.source.typedColumns([{ column: req.column, text: true }], { signal, onProgress });
        const text = typed?.fullText ?? [];
        // Parsed here, as the host parsed the cells before: 100,000 cells never become strings on the host, nor its Set.
        const { valid, invalid, duplicates } = parseAddressList(Array.from(view.rowIds(), (id) => text[id] ?? ''), req.chain);
        return { op: 'addressList', value: { addresses: packLines(valid), invalid: packLines(invalid.map((b) => b.value)), lines: Uint32Array.from(invalid, (b) => b.line), duplicates } };
      }
      case 'columnChains': {
        // The first rows judged here: a 640-column result's sample is 32,000 cells, strings the host would make and collect (issue 34 item 4).
        const rows = Math.min(view.length, SAMPLE_ROWS);
        const names = view.source.columns;
        const sample = rows > 0 ? (await view.window(0, rows, names.map((_, i) => i), signal)).cells : [];
        return { op: 'columnChains', value: { chains: names.map((name, i) => sampleColumnChain(sample, i, name) ?? null), firstRow: sample[0] ?? [] } };
      }
      case 'changes':
        return { op: 'changes', value: await countChanges(view.source, req.threshold, signal) };
      case 'profile': {
        const t0 = performance.now();
        const [col] = await this.typed(view, [req.column], { signal, onProgress });
        const profile = profileColumn(col as TypedColumn, view.rowIds(), view.source.columns[req.column] ?? '');
        return { op: 'profile', value: { ...profile, ms: performance.now() - t0 } };
      }
      case 'histogram': {
        const [col] = await this.typed(view, [req.column], { signal, onProgress });
        return { op: 'histogram', value: columnHistogram(col as TypedColumn, view.rowIds(), view.source.columns[req.column] ?? '', req.bins, req.log) };
      }
      case 'scatter': {
        const t0 = performance.now();
        const [x, y] = await this.typed(view, [req.x, req.y], { signal, onProgress });
        const names = view.source.columns;
        const points = scatterPoints(x as TypedColumn, y as TypedColumn, view.rowIds(), names[req.x] ?? '', names[req.y] ?? '');
        return { op: 'scatter', value: { ...points, ms: performance.now() - t0 } };
      }
    }
  }

  /** Typed columns over every row (the index finished first, so nothing is a partial count). */
  private async typed(view: TableView, columns: readonly number[], options: TaskOptions & { signal: AbortSignal }): Promise<TypedColumn[]> {
    for (const c of columns) if (c >= view.source.columns.length) throw new RangeError(l10n.t('There is no column {0}.', c));
    await abortable(view.source.indexed, options.signal);
    const typed = await view.source.typedColumns(
      columns.map((column) => ({ column })),
      options,
    );
    throwIfCancelled(options.signal);
    return typed;
  }

  private async open(file: string, prepareColumns: boolean | undefined, signal: AbortSignal, compareWith?: string): Promise<OpenedTable> {
    if (this.source) throw new Error(l10n.t('A table is already open in this worker.'));
    const source = compareWith === undefined ? await openTable(file, { signal, prepareColumns }) : await openComparison(file, compareWith, signal);
    if (signal.aborted) {
      await source.close();
      throwIfCancelled(signal);
    }
    this.source = source;
    this.view = new TableView(source);
    this.unsubscribe = source.onDidChange((change) => this.changed(change));
    source.indexed.then(
      () => {
        this.flush();
        this.post({ type: 'indexed' });
      },
      (e: unknown) => this.post({ type: 'indexFailed', error: toWireError(e) }),
    );
    return { kind: source.kind, columns: source.columns, notices: source.notices, view: this.snapshot(), threadId };
  }

  private async close(): Promise<null> {
    this.lifetime.abort(new CancelledError());
    clearTimeout(this.pushTimer);
    this.pendingChange = undefined;
    this.unsubscribe?.();
    await this.source?.close();
    return null;
  }

  private snapshot(): ViewSnapshot {
    const view = this.view;
    if (!view) return { version: 0, length: 0, total: 0, complete: false, countLabel: '', query: {} };
    return { version: view.version, length: view.length, total: view.total, complete: view.source.complete, countLabel: view.countLabel(), query: view.query };
  }

  /** Notices and completion go out at once; row progress at most every PUSH_MS, the latest one. */
  private changed(change: SourceChange): void {
    if (change.type !== 'progress') {
      this.flush();
      this.push(change);
      return;
    }
    this.pendingChange = change;
    const wait = this.lastPush + PUSH_MS - performance.now();
    if (wait <= 0) this.flush();
    else this.pushTimer ??= setTimeout(() => this.flush(), wait);
  }

  private flush(): void {
    clearTimeout(this.pushTimer);
    this.pushTimer = undefined;
    const change = this.pendingChange;
    this.pendingChange = undefined;
    if (change) this.push(change);
  }

  private push(change: SourceChange): void {
    this.lastPush = performance.now();
    this.post({ type: 'changed', change, view: this.snapshot(), notices: this.source?.notices ?? [] });
  }

  /** A request's progress, throttled to one message every PUSH_MS (and always its last step). */
  private progress(id: number): (p: Progress) => void {
    let last = 0;
    return (progress) => {
      const now = performance.now();
      if (now - last < PUSH_MS && progress.done < progress.total) return;
      last = now;
      this.post({ type: 'progress', id, progress });
    };
  }
}
