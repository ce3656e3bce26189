/**
 * Messages between the extension host and the table worker (tableWorker.ts), one union each way,
 * so every heavy pass (index, typing, sort, filter, search, export) runs off the host's main
 * thread and the host only posts requests and reads replies. Plain data (structured clone).
 *
 * Flow: the host starts one worker per open table and posts `open`; the worker answers `opened`
 * (header, first rows known, the worker's threadId), then pushes `changed` as indexing goes on
 * (throttled; `complete` and `notices` at once) and `indexed` or `indexFailed` at the end. Every
 * other request carries an `id`; its answer is one `reply` (by `op`) or one `failed` with the error
 * as data, and `progress` may come before it. `cancel` aborts a request; `close` ends the table.
 * Both sides validate what they receive (parseWorkerRequest, parseWorkerMessage).
 */
import { MAX_HISTOGRAM_BINS, type ColumnProfile, type Histogram, type ScatterData } from './analysisTypes';
import type { Chain, DistinctAddresses } from '../spec/addresses';
import { isCancelled } from '../errors';
import type { ChangeCounts, ChangeThreshold } from './compare/changeCounts';
import type { ExportResult } from './exportView';
import { isPackedLines, type PackedLines } from './packedLines';
import { isInt, isIntList, isQuery, isRecord } from './queryGuards';
import type { Progress, SourceChange, TableNotice, TableWindow, ViewQuery, ViewSnapshot } from './types';

export type { ViewSnapshot };

/**
 * What a worker posts to the thread that started it once its sort is warm (sortWarmup.ts); not on
 * the table's port: prestartTableWorker waits for it, and RemoteTable drops it like any message without an id.
 */
export const WARM_MESSAGE = { type: 'warm' } as const;


/** An error as data: what crosses the thread boundary, rebuilt as a typed error on the host. */
export interface WireError {
  readonly name: string;
  readonly message: string;
  /** A Node error code (ENOENT, EACCES, …) when the error had one. */
  readonly code?: string;
}

interface ExportRequestOptions {
  readonly columns?: readonly number[];
  readonly neutraliseFormulas: boolean;
  readonly header: boolean;
  readonly lineEnding: '\n' | '\r\n';
}

/** Host → worker. */
export type WorkerRequest =
  /** `compareWith`: `file` (A, the older) and that result (B) compared by address (compareSource.ts), both opened in the worker. */
  | { readonly type: 'open'; readonly id: number; readonly file: string; readonly prepareColumns?: boolean; readonly compareWith?: string }
  /** `cellChars`: cells longer than that come cut and marked (the grid's windows, windowCells.ts). */
  | { readonly type: 'window'; readonly id: number; readonly first: number; readonly last: number; readonly columns: readonly number[]; readonly cellChars?: number }
  | { readonly type: 'apply'; readonly id: number; readonly query: ViewQuery }
  | { readonly type: 'export'; readonly id: number; readonly target: string; readonly options: ExportRequestOptions }
  | {
      readonly type: 'copy';
      readonly id: number;
      readonly first: number;
      readonly last: number;
      readonly columns: readonly number[];
      readonly format: 'tsv' | 'csv';
      readonly header: boolean;
      readonly neutraliseFormulas: boolean;
    }
  | { readonly type: 'columnText'; readonly id: number; readonly column: number }
  /** The distinct addresses of a column over the view (addresses.ts), at most `limit` of them sent back: "use as input". */
  | { readonly type: 'addresses'; readonly id: number; readonly column: number; readonly chain: Chain; readonly limit?: number }
  /** A column's cells parsed as a list of addresses (spec/listParse.ts parseAddressList), here: a list source ("from a file", "from a previous result"). */
  | { readonly type: 'addressList'; readonly id: number; readonly column: number; readonly chain: Chain }
  /** Each column's chain by the one classifier over the first SAMPLE_ROWS rows (columnKind.ts), judged here, with the first row: what a result reader needs to find its address columns. */
  | { readonly type: 'columnChains'; readonly id: number }
  /** A comparison's rows new, gone, in both and moved past `threshold` (changeCounts.ts), counted here: a watch's run. */
  | { readonly type: 'changes'; readonly id: number; readonly threshold?: ChangeThreshold }
  /** The analysis panel (analysis.ts), over every row of the current view. */
  | { readonly type: 'profile'; readonly id: number; readonly column: number }
  | { readonly type: 'histogram'; readonly id: number; readonly column: number; readonly bins: number; readonly log: boolean }
  | { readonly type: 'scatter'; readonly id: number; readonly x: number; readonly y: number }
  | { readonly type: 'cancel'; readonly id: number }
  | { readonly type: 'close'; readonly id: number };

/** What the worker says once a table is open. */
export interface OpenedTable {
  readonly kind: 'csv' | 'txt' | 'json';
  readonly columns: readonly string[];
  readonly notices: readonly TableNotice[];
  readonly view: ViewSnapshot;
  /** The worker's thread id: never the host's. */
  readonly threadId: number;
}

/** A successful answer, by the request it answers. */
export type WorkerReply =
  | { readonly op: 'open'; readonly value: OpenedTable }
  | { readonly op: 'window'; readonly value: TableWindow }
  | { readonly op: 'apply'; readonly value: ViewSnapshot }
  | { readonly op: 'export'; readonly value: ExportResult }
  | { readonly op: 'copy'; readonly value: string }
  /** The column's text in view order (a list source), packed: an array of strings costs the host a long turn (packedLines.ts). */
  | { readonly op: 'columnText'; readonly value: PackedLines }
  | { readonly op: 'addresses'; readonly value: Omit<DistinctAddresses, 'addresses'> & { readonly addresses: PackedLines } }
  /** The parsed list: its valid addresses packed, the bad entries' texts packed with their lines, the duplicates' count (no cell of the column crosses). */
  | { readonly op: 'addressList'; readonly value: PackedAddressList }
  /** One entry a column (null: not an address column) and the first row's cells: the sampled rows' other cells never cross. */
  | { readonly op: 'columnChains'; readonly value: ColumnChains }
  /** Four counts: the watch reads no cell of its two results on the host. */
  | { readonly op: 'changes'; readonly value: ChangeCounts }
  | { readonly op: 'profile'; readonly value: ColumnProfile }
  | { readonly op: 'histogram'; readonly value: Histogram }
  /** Typed arrays survive the structured clone as typed arrays. */
  | { readonly op: 'scatter'; readonly value: ScatterData }
  | { readonly op: 'close'; readonly value: null };

/** Which columns hold addresses of which chain, judged in the worker on the first rows, and the first row (a column picker's preview). */
export interface ColumnChains {
  readonly chains: readonly (Chain | null)[];
  readonly firstRow: readonly string[];
}

/** A list parsed in the worker (spec/listParse.ts ParsedList), as it crosses to the host. */
interface PackedAddressList {
  readonly addresses: PackedLines;
  readonly invalid: PackedLines;
  /** The 1-based line (row) of each bad entry, in `invalid`'s order. */
  readonly lines: Uint32Array;
  readonly duplicates: number;
}

/** Worker → host. */
export type WorkerMessage =
  | ({ readonly type: 'reply'; readonly id: number } & WorkerReply)
  | { readonly type: 'failed'; readonly id: number; readonly error: WireError }
  | { readonly type: 'progress'; readonly id: number; readonly progress: Progress }
  | { readonly type: 'changed'; readonly change: SourceChange; readonly view: ViewSnapshot; readonly notices: readonly TableNotice[] }
  | { readonly type: 'indexed' }
  | { readonly type: 'indexFailed'; readonly error: WireError };

/** The wire name of a cancellation: by type here, since a minified bundle renames the class. */
export const CANCELLED_WIRE_NAME = 'CancelledError';

/** The error as data; anything thrown (not only Errors) becomes one. */
export function toWireError(e: unknown): WireError {
  if (isCancelled(e)) return { name: CANCELLED_WIRE_NAME, message: e.message };
  if (e instanceof Error) {
    const code = (e as { code?: unknown }).code;
    return { name: e.name, message: e.message, ...(typeof code === 'string' ? { code } : {}) };
  }
  return { name: 'Error', message: String(e) };
}

const isText = (v: unknown): v is string => typeof v === 'string';
const isBool = (v: unknown): v is boolean => typeof v === 'boolean';
const isNumber = (v: unknown): v is number => typeof v === 'number';

function isExportOptions(v: unknown): v is ExportRequestOptions {
  return (
    isRecord(v) &&
    (v.columns === undefined || isIntList(v.columns)) &&
    isBool(v.neutraliseFormulas) &&
    isBool(v.header) &&
    (v.lineEnding === '\n' || v.lineEnding === '\r\n')
  );
}

/** The request a message holds, or undefined when it is not a well-formed one (the worker answers those with `failed`). */
export function parseWorkerRequest(message: unknown): WorkerRequest | undefined {
  if (!isRecord(message) || !isInt(message.id)) return undefined;
  const m = message;
  switch (m.type) {
    case 'open':
      return isText(m.file) && m.file !== '' && (m.prepareColumns === undefined || isBool(m.prepareColumns)) && (m.compareWith === undefined || (isText(m.compareWith) && m.compareWith !== ''))
        ? (m as WorkerRequest)
        : undefined;
    case 'window':
      return isInt(m.first) && isInt(m.last) && isIntList(m.columns) && (m.cellChars === undefined || (isInt(m.cellChars) && m.cellChars >= 1)) ? (m as WorkerRequest) : undefined;
    case 'apply':
      return isQuery(m.query) ? (m as WorkerRequest) : undefined;
    case 'export':
      return isText(m.target) && m.target !== '' && isExportOptions(m.options) ? (m as WorkerRequest) : undefined;
    case 'copy':
      return isInt(m.first) && isInt(m.last) && isIntList(m.columns) && (m.format === 'tsv' || m.format === 'csv') && isBool(m.header) && isBool(m.neutraliseFormulas)
        ? (m as WorkerRequest)
        : undefined;
    case 'columnText':
    case 'profile':
      return isInt(m.column) ? (m as WorkerRequest) : undefined;
    case 'addresses':
      return isInt(m.column) && (m.chain === 'main' || m.chain === 'alt') && (m.limit === undefined || isInt(m.limit)) ? (m as WorkerRequest) : undefined;
    case 'addressList':
      return isInt(m.column) && (m.chain === 'main' || m.chain === 'alt') ? (m as WorkerRequest) : undefined;
    case 'changes':
      return m.threshold === undefined || (isRecord(m.threshold) && isText(m.threshold.column) && m.threshold.column !== '' && isNumber(m.threshold.percent) && m.threshold.percent > 0) ? (m as WorkerRequest) : undefined;
    case 'histogram':
      return isInt(m.column) && isInt(m.bins) && m.bins >= 1 && m.bins <= MAX_HISTOGRAM_BINS && isBool(m.log) ? (m as WorkerRequest) : undefined;
    case 'scatter':
      return isInt(m.x) && isInt(m.y) ? (m as WorkerRequest) : undefined;
    case 'columnChains':
    case 'cancel':
    case 'close':
      return m as WorkerRequest;
    default:
      return undefined;
  }
}

const isWireError = (v: unknown): v is WireError => isRecord(v) && isText(v.name) && isText(v.message) && (v.code === undefined || isText(v.code));
const isTexts = (v: unknown): v is string[] => Array.isArray(v) && v.every(isText);

function isSnapshot(v: unknown): v is ViewSnapshot {
  return isRecord(v) && isInt(v.version) && isInt(v.length) && isInt(v.total) && isBool(v.complete) && isText(v.countLabel) && isQuery(v.query);
}

function isNotices(v: unknown): v is TableNotice[] {
  return Array.isArray(v) && v.every((n) => isRecord(n) && isText(n.code) && isText(n.severity) && isText(n.message));
}

function isChange(v: unknown): v is SourceChange {
  if (!isRecord(v)) return false;
  switch (v.type) {
    case 'progress':
      return isInt(v.rowCount) && isInt(v.bytesDone) && isInt(v.bytesTotal);
    case 'notices':
      return true;
    case 'complete':
      return isInt(v.rowCount);
    default:
      return false;
  }
}

function isWindow(v: unknown): v is TableWindow {
  return isRecord(v) && isInt(v.version) && isInt(v.start) && isIntList(v.rowIds) && isIntList(v.columns) && Array.isArray(v.cells) && v.cells.every(isTexts) && (v.cut === undefined || isIntList(v.cut));
}

const isNumbers = (v: unknown): v is number[] => Array.isArray(v) && v.every(isNumber);
const isOptionalNumber = (v: unknown): boolean => v === undefined || isNumber(v);

function isHistogram(v: unknown): v is Histogram {
  return (
    isRecord(v) &&
    isInt(v.column) &&
    isNumbers(v.edges) &&
    isIntList(v.counts) &&
    v.edges.length === v.counts.length + 1 &&
    isBool(v.log) &&
    isInt(v.counted) &&
    isInt(v.left)
  );
}

function isProfile(v: unknown): v is ColumnProfile {
  return (
    isRecord(v) &&
    isInt(v.column) &&
    isText(v.name) &&
    (v.type === 'number' || v.type === 'address' || v.type === 'text' || v.type === 'empty') &&
    isInt(v.count) &&
    isInt(v.empty) &&
    isInt(v.distinct) &&
    [v.min, v.max, v.mean, v.median, v.p5, v.p95].every(isOptionalNumber) &&
    [v.minText, v.maxText].every((t) => t === undefined || isText(t)) &&
    (v.outOfRange === undefined || isInt(v.outOfRange)) &&
    Array.isArray(v.top) &&
    v.top.every((t) => isRecord(t) && isText(t.value) && isInt(t.count)) &&
    (v.histogram === undefined || isHistogram(v.histogram)) &&
    isNumber(v.ms)
  );
}

function isScatter(v: unknown): v is ScatterData {
  return (
    isRecord(v) &&
    isInt(v.x) &&
    isInt(v.y) &&
    v.xs instanceof Float32Array &&
    v.ys instanceof Float32Array &&
    v.rowIndex instanceof Uint32Array &&
    v.xs.length === v.ys.length &&
    v.xs.length === v.rowIndex.length &&
    isInt(v.left) &&
    isNumber(v.ms)
  );
}

function isReplyValue(op: unknown, v: unknown): boolean {
  switch (op) {
    case 'open':
      return isRecord(v) && (v.kind === 'csv' || v.kind === 'txt' || v.kind === 'json') && isTexts(v.columns) && isNotices(v.notices) && isSnapshot(v.view) && isInt(v.threadId);
    case 'window':
      return isWindow(v);
    case 'apply':
      return isSnapshot(v);
    case 'export':
      return isRecord(v) && isInt(v.rows) && isInt(v.bytes);
    case 'copy':
      return isText(v);
    case 'columnText':
      return isPackedLines(v);
    case 'addresses':
      return isRecord(v) && isPackedLines(v.addresses) && isInt(v.distinct) && isInt(v.skipped);
    case 'addressList':
      return isRecord(v) && isPackedLines(v.addresses) && isPackedLines(v.invalid) && v.lines instanceof Uint32Array && v.lines.length === v.invalid.lengths.length && isInt(v.duplicates);
    case 'columnChains':
      return isRecord(v) && Array.isArray(v.chains) && v.chains.every((c) => c === null || c === 'main' || c === 'alt') && isTexts(v.firstRow);
    case 'changes':
      return isRecord(v) && isInt(v.added) && isInt(v.gone) && isInt(v.changed) && isInt(v.both) && (v.missingColumn === undefined || isText(v.missingColumn));
    case 'profile':
      return isProfile(v);
    case 'histogram':
      return isHistogram(v);
    case 'scatter':
      return isScatter(v);
    case 'close':
      return v === null;
    default:
      return false;
  }
}

/** The message the worker sent, or undefined when it is not a well-formed one. */
export function parseWorkerMessage(message: unknown): WorkerMessage | undefined {
  if (!isRecord(message)) return undefined;
  const m = message;
  switch (m.type) {
    case 'reply':
      return isInt(m.id) && isReplyValue(m.op, m.value) ? (m as WorkerMessage) : undefined;
    case 'failed':
      return isInt(m.id) && isWireError(m.error) ? (m as WorkerMessage) : undefined;
    case 'progress':
      return isInt(m.id) &&
        isRecord(m.progress) &&
        (m.progress.task === 'index' || m.progress.task === 'columns' || m.progress.task === 'search' || m.progress.task === 'export') &&
        typeof m.progress.done === 'number' &&
        typeof m.progress.total === 'number'
        ? (m as WorkerMessage)
        : undefined;
    case 'changed':
      return isChange(m.change) && isSnapshot(m.view) && isNotices(m.notices) ? (m as WorkerMessage) : undefined;
    case 'indexed':
      return { type: 'indexed' };
    case 'indexFailed':
      return isWireError(m.error) ? (m as WorkerMessage) : undefined;
    default:
      return undefined;
  }
}
