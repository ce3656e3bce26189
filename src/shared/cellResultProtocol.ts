/**
 * A pipeline cell's result as the notebook renderer shows it (issue 24): the output item the host
 * writes (mime CELL_RESULT_MIME), and the page protocol between the renderer and the host. Imported
 * by both bundles (the extension and the renderer), so one file says what crosses.
 *
 * Why this shape: the output item is saved in the notebook model and goes to the renderer as JSON,
 * so it holds a bounded first page (PAGE_ROWS rows, each cell cut at MAX_CELL_CHARS), never the
 * result file, and nothing secret: the cell's name, its status, what it charged, its row count and
 * the table's own column information. Further rows come from the host a page at a time, read by
 * the table engine's worker (core/results/readResult.ts); the request names the cell, not a path,
 * so a renderer can only read a result its notebook's cell has. Both directions are validated on
 * entry: the host trusts nothing a renderer posts, the renderer nothing it is given.
 */
import { isInt, isRecord } from '../core/table/queryGuards';
import type { ColumnInfo } from './tableUiProtocol';

export const CELL_RESULT_MIME = 'application/vnd.wallet-analytics.cell-result+json';
/** package.json contributes.notebookRenderer[0].id: how the host finds the renderer's messaging. */
export const CELL_RESULT_RENDERER_ID = 'wallet-analytics.pipeline-cell-result';
/** Rows in the output item, and in one page. */
export const PAGE_ROWS = 10;
/** Longer cells are cut (with "…") before they cross; "Open as Table" shows the whole text. */
export const MAX_CELL_CHARS = 500;
/** Columns carried in a page: more are not shown inline (the table shows them all). */
export const MAX_COLUMNS = 200;
const MAX_NAME = 1_000;

/** The output item's JSON. */
export interface CellResult {
  readonly version: 1;
  /** The cell's name in its pipeline: what a page request names. */
  readonly cell: string;
  /** "done", "reused from disk (free)". */
  readonly status: string;
  readonly credits: number;
  /** Data rows in the result (the header is not a row). */
  readonly rows: number;
  /** The result file's name (not its folder). */
  readonly file: string;
  /** The table's column information (vscode/table/columnInfo.ts), at most MAX_COLUMNS. */
  readonly columns: readonly ColumnInfo[];
  /** Columns the result has in all (more than `columns.length` when cut). */
  readonly columnCount: number;
  /** The first rows, at most PAGE_ROWS. */
  readonly first: readonly (readonly string[])[];
  /** `walletAnalytics.table.colorGainsAndLosses`, as in the table. */
  readonly colorGainsAndLosses: boolean;
}

/** Renderer → host. */
export type CellResultRequest =
  | {
      readonly type: 'page';
      readonly requestId: number;
      readonly cell: string;
      /** The result file's name the view shows: a cell run again since has another, and its rows would not fit the view's columns. */
      readonly file: string;
      readonly start: number;
    }
  | { readonly type: 'openTable'; readonly cell: string };

/** Host → renderer: the reply to a `page` request (matched by requestId). */
export type CellResultReply =
  | { readonly type: 'page'; readonly requestId: number; readonly cell: string; readonly start: number; readonly rows: readonly (readonly string[])[]; readonly total: number }
  | { readonly type: 'pageError'; readonly requestId: number; readonly cell: string; readonly message: string };

const isName = (v: unknown): v is string => typeof v === 'string' && v.length > 0 && v.length <= MAX_NAME;
const isCount = (v: unknown): v is number => isInt(v) && v <= Number.MAX_SAFE_INTEGER;
const isRow = (v: unknown, width: number): v is string[] => Array.isArray(v) && v.length <= width && v.every((c) => typeof c === 'string' && c.length <= MAX_CELL_CHARS);
const isRows = (v: unknown, width: number): v is string[][] => Array.isArray(v) && v.length <= PAGE_ROWS && v.every((r) => isRow(r, width));

function isColumn(v: unknown): v is ColumnInfo {
  if (!isRecord(v) || !isName(v.name) || typeof v.numeric !== 'boolean') return false;
  const optText = (k: string): boolean => v[k] === undefined || (typeof v[k] === 'string' && v[k].length <= MAX_NAME);
  const optFlag = (k: string): boolean => v[k] === undefined || typeof v[k] === 'boolean';
  return (
    (v.address === undefined || v.address === 'main' || v.address === 'alt') &&
    optFlag('signed') &&
    optFlag('date') &&
    ['metric', 'group', 'timeframe', 'kind', 'description'].every(optText) &&
    (v.chars === undefined || isInt(v.chars))
  );
}

/** What a renderer posted, if it is a request the host answers; anything else is undefined. */
export function parseCellResultRequest(message: unknown): CellResultRequest | undefined {
  if (!isRecord(message) || !isName(message.cell)) return undefined;
  const { cell } = message;
  if (message.type === 'page') {
    const { requestId, start, file } = message;
    return isCount(requestId) && isCount(start) && isName(file) ? { type: 'page', requestId, cell, file, start } : undefined;
  }
  if (message.type === 'openTable') return { type: 'openTable', cell };
  return undefined;
}

/** What the host sent, if it is a reply to a page request of ours (rows no wider than `width` columns). */
export function parseCellResultReply(message: unknown, width: number): CellResultReply | undefined {
  if (!isRecord(message) || !isCount(message.requestId) || !isName(message.cell)) return undefined;
  const { requestId, cell } = message;
  if (message.type === 'page') {
    return isCount(message.start) && isCount(message.total) && isRows(message.rows, width) ? { type: 'page', requestId, cell, start: message.start, rows: message.rows, total: message.total } : undefined;
  }
  if (message.type === 'pageError') return typeof message.message === 'string' && message.message.length <= MAX_NAME ? { type: 'pageError', requestId, cell, message: message.message } : undefined;
  return undefined;
}

/** An output item's JSON, if it is a cell result this renderer can show. */
export function parseCellResult(json: unknown): CellResult | undefined {
  if (!isRecord(json) || json.version !== 1) return undefined;
  const v = json;
  if (!isName(v.cell) || typeof v.status !== 'string' || v.status.length > MAX_NAME || typeof v.file !== 'string' || v.file.length > MAX_NAME) return undefined;
  if (!isCount(v.credits) || !isCount(v.rows) || !isCount(v.columnCount) || typeof v.colorGainsAndLosses !== 'boolean') return undefined;
  if (!Array.isArray(v.columns) || v.columns.length > MAX_COLUMNS || !v.columns.every(isColumn) || !isRows(v.first, v.columns.length)) return undefined;
  return { version: 1, cell: v.cell, status: v.status, credits: v.credits, rows: v.rows, file: v.file, columns: v.columns, columnCount: v.columnCount, first: v.first, colorGainsAndLosses: v.colorGainsAndLosses };
}

/** A cell cut to MAX_CELL_CHARS (what crosses; the file keeps the whole text). */
export function clipCell(text: string): string {
  return text.length > MAX_CELL_CHARS ? `${text.slice(0, MAX_CELL_CHARS - 1)}…` : text;
}

/** The first page of rows `start`… of a result with `total` rows: where a page starts (clamped, a multiple of PAGE_ROWS). */
export function pageStart(start: number, total: number): number {
  if (total <= 0) return 0;
  const last = Math.floor((total - 1) / PAGE_ROWS) * PAGE_ROWS;
  return Math.min(Math.floor(Math.max(0, start) / PAGE_ROWS) * PAGE_ROWS, last);
}
