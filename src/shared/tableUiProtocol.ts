/**
 * The results-table webview's full message set: the data protocol of tableProtocol.ts (windows,
 * queries, copy, export) plus what the table's interface adds on top of it (column information and
 * remembered layouts, cell and column actions, the file switcher, the toolbar's extension commands,
 * a test probe). Still one union each way, imported by both bundles; parseUiRequest validates
 * everything the webview sends.
 */
import { isInt, isRecord } from '../core/table/queryGuards';
import { NUMBER_FORMATS, type NumberFormat, type TableLayout } from '../core/table/tableLayout';
import { HISTOGRAM_BINS, MAX_HISTOGRAM_BINS, type ColumnProfile, type Histogram, type ScatterData } from './analysisProtocol';
import { parseTableRequest, type TableMessage, type TableRequest } from './tableProtocol';

export { type NumberFormat, type TableLayout };


/** What the host knows about a column beyond its name. */
export interface ColumnInfo {
  readonly name: string;
  /** Most non-empty cells of the first rows are numbers. */
  readonly numeric: boolean;
  /** The cells are addresses of this chain (wallets or tokens). */
  readonly address?: 'main' | 'alt';
  /** A profit or a return (PnL, ROI): shown with its sign and, unless turned off, coloured (core/table/columnKind.ts isSignedColumn). */
  readonly signed?: boolean;
  /** ISO dates and times: shown in the person's local time, UTC on hover. */
  readonly date?: boolean;
  /** For `<metric>_<timeframe>` columns (src/core/spec/metrics.ts). */
  readonly metric?: string;
  readonly group?: string;
  readonly timeframe?: string;
  /** MetricKind: usd, native, ratio (shown as %), count, seconds, number; also usd for a numeric `…_usd` column outside the metrics (columnInfo). */
  readonly kind?: string;
  readonly description?: string;
  /** Characters of the longest cell among the first rows (capped), to size the column. */
  readonly chars?: number;
}

/** Everything the interface needs besides the data, sent right after `init`. */
export interface TableMeta {
  /** The file shown (base name) and, for an extracted .zip result, every table file beside it. */
  readonly file: string;
  readonly files: readonly string[];
  /** The endpoint that produced the result, when known (sidecar or file name). */
  readonly endpoint?: string;
  readonly endpointTitle?: string;
  readonly columns: readonly ColumnInfo[];
  readonly layout?: TableLayout;
  /** The saved view the table shows (its name), while its sort, filters and search are in force unchanged. */
  readonly savedView?: string;
  readonly metricGroups: readonly string[];
  readonly timeframes: readonly string[];
  /** The extension runs under its test runner: the webview answers `probe`. */
  readonly test: boolean;
  /** `walletAnalytics.table.colorGainsAndLosses`: PnL and ROI in green and red (the sign shows either way). */
  readonly colorGainsAndLosses?: boolean;
}

/** What the webview shows, for the integration tests (answers `probe`). */
export interface ProbeState {
  readonly countLabel: string;
  readonly headers: readonly string[];
  /** Text of the rendered body cells, row by row (pinned first), as a person reads them. */
  readonly rows: readonly (readonly string[])[];
  readonly firstRow: number;
  readonly cellCount: number;
  readonly notices: readonly string[];
}

/** The extension commands the table's own toolbar offers; the host runs each on the table that asked. */
export type TableCommand = 'openInNotebook' | 'saveView' | 'applyView' | 'compareWith';
export const TABLE_COMMANDS: readonly TableCommand[] = ['openInNotebook', 'saveView', 'applyView', 'compareWith'];

/** Webview → host. */
export type UiRequest =
  | TableRequest
  /** Put text on the clipboard (a cell, an address). */
  | { readonly type: 'copyText'; readonly requestId: number; readonly text: string; readonly what: string }
  /** Run the wallet activity command for an address (the price step still shows). */
  | { readonly type: 'walletActivity'; readonly requestId: number; readonly address: string; readonly chain: 'main' | 'alt' }
  /** Open an address's page on its chain's block explorer (walletAnalytics.explorer.*), from the host. */
  | { readonly type: 'openExplorer'; readonly requestId: number; readonly address: string; readonly chain: 'main' | 'alt' }
  /** Append addresses to an address list file the person picks. */
  | { readonly type: 'addToList'; readonly requestId: number; readonly addresses: readonly string[] }
  /** "Use these N addresses as input to…": the column's addresses over the view's rows. */
  | { readonly type: 'useAsInput'; readonly requestId: number; readonly column: number }
  | { readonly type: 'saveLayout'; readonly layout: TableLayout }
  | { readonly type: 'switchFile'; readonly requestId: number; readonly file: string }
  | { readonly type: 'openRaw' }
  /** The toolbar's More menu: an extension command run on this table (Open in Notebook, saved views, Compare with…). */
  | { readonly type: 'tableCommand'; readonly requestId: number; readonly command: TableCommand }
  | { readonly type: 'log'; readonly level: 'info' | 'warn' | 'error'; readonly message: string }
  | { readonly type: 'probeState'; readonly requestId: number; readonly state: ProbeState }
  /** The analysis panel (analysisProtocol.ts): a column's profile, a histogram, a scatter's points, a chart saved as PNG. */
  | { readonly type: 'profile'; readonly requestId: number; readonly column: number }
  | { readonly type: 'histogram'; readonly requestId: number; readonly column: number; readonly bins: number; readonly log: boolean }
  | { readonly type: 'scatter'; readonly requestId: number; readonly x: number; readonly y: number }
  | { readonly type: 'savePng'; readonly requestId: number; readonly name: string; readonly dataUrl: string };

/**
 * Host → webview. A `window` with requestId FIRST_WINDOW was not asked for: the host sends the
 * first rows of the likely shown columns right after `init`, so they paint without a round trip.
 */
export const FIRST_WINDOW = 0;
export type UiMessage =
  | TableMessage
  | { readonly type: 'meta'; readonly meta: TableMeta }
  | { readonly type: 'probe'; readonly requestId: number }
  /** The saved view shown now, after meta: one opened by itself or saved, or none (the person changed the rows' shape). */
  | { readonly type: 'savedView'; readonly name?: string }
  /** The Export Table command (its keybinding): export as the toolbar's Export… does, since only the webview knows the shown columns. */
  | { readonly type: 'exportShown' }
  | { readonly type: 'profile'; readonly requestId: number; readonly profile: ColumnProfile }
  | { readonly type: 'histogram'; readonly requestId: number; readonly histogram: Histogram }
  | { readonly type: 'scatter'; readonly requestId: number; readonly scatter: ScatterData };

/**
 * Each request that is answered, paired with its reply's type. A caller gets the one reply it
 * asked for (or `failed`, which any request may get instead), not the union of every reply to
 * narrow: UiReplyTo<'getWindow'> is the `window` message. Requests absent here get no reply.
 */
export const UI_REPLY_TYPES = {
  getWindow: 'window',
  setQuery: 'queryApplied',
  copy: 'done',
  export: 'done',
  copyText: 'done',
  walletActivity: 'done',
  openExplorer: 'done',
  addToList: 'done',
  useAsInput: 'done',
  switchFile: 'done',
  tableCommand: 'done',
  profile: 'profile',
  histogram: 'histogram',
  scatter: 'scatter',
  savePng: 'done',
} as const satisfies Partial<Record<UiRequest['type'], UiMessage['type']>>;

/** A request that gets a reply. */
export type UiAsk = Extract<UiRequest, { type: keyof typeof UI_REPLY_TYPES }>;
/** The reply to a request of type T: its own message, or `failed`. */
export type UiReplyTo<T extends UiAsk['type']> = Extract<UiMessage, { type: (typeof UI_REPLY_TYPES)[T] | 'failed' }>;

/** Whether m is the reply to a request of type T (its type pairs with T; the ids are the caller's to compare). */
export function isReplyTo<T extends UiAsk['type']>(type: T, m: UiMessage): m is UiReplyTo<T> {
  return m.type === 'failed' || m.type === UI_REPLY_TYPES[type];
}

const MAX_TEXT = 1_000_000;
/** A PNG of a chart as a data: URL (a 4K canvas compresses well below this). */
const MAX_PNG_URL = 40_000_000;
const MAX_LIST = 100_000;

const isText = (v: unknown, max = MAX_TEXT): v is string => typeof v === 'string' && v.length <= max;
const isNames = (v: unknown): v is string[] => Array.isArray(v) && v.length <= MAX_LIST && v.every((s) => isText(s, 10_000));
/** Addresses the webview hands over (a cell's, today): far more than it sends, each far longer than any address. */
const MAX_ADDRESSES = 10_000;
const isAddresses = (v: unknown): v is string[] => Array.isArray(v) && v.length > 0 && v.length <= MAX_ADDRESSES && v.every((s) => isText(s, 200));

function isLayout(v: unknown): v is TableLayout {
  if (!isRecord(v) || !isNames(v.hidden) || !isNames(v.pinned) || !isRecord(v.widths) || !isRecord(v.formats)) return false;
  const widthsOk = Object.values(v.widths).every((w) => typeof w === 'number' && Number.isFinite(w) && w >= 0 && w <= 10_000);
  const formatsOk = Object.values(v.formats).every((f) => NUMBER_FORMATS.includes(f as NumberFormat));
  return widthsOk && formatsOk && NUMBER_FORMATS.includes(v.defaultFormat as NumberFormat);
}

function isProbe(v: unknown): v is ProbeState {
  return (
    isRecord(v) &&
    typeof v.countLabel === 'string' &&
    isNames(v.headers) &&
    Array.isArray(v.rows) &&
    v.rows.every(isNames) &&
    isInt(v.firstRow) &&
    isInt(v.cellCount) &&
    isNames(v.notices)
  );
}

/** The request a webview message holds, or undefined when it is not a well-formed one (the host ignores those). */
export function parseUiRequest(message: unknown): UiRequest | undefined {
  const data = parseTableRequest(message);
  if (data) return data;
  if (!isRecord(message)) return undefined;
  const m = message;
  switch (m.type) {
    case 'copyText':
      return isInt(m.requestId) && isText(m.text, 50 * MAX_TEXT) && isText(m.what, 200) ? (m as UiRequest) : undefined;
    case 'walletActivity':
      return isInt(m.requestId) && isText(m.address, 200) && (m.chain === 'main' || m.chain === 'alt') ? (m as UiRequest) : undefined;
    case 'openExplorer':
      return isInt(m.requestId) && isText(m.address, 200) && (m.chain === 'main' || m.chain === 'alt') ? { type: 'openExplorer', requestId: m.requestId, address: m.address, chain: m.chain } : undefined;
    case 'addToList':
      return isInt(m.requestId) && isAddresses(m.addresses) ? (m as UiRequest) : undefined;
    case 'useAsInput':
      return isInt(m.requestId) && isInt(m.column) ? (m as UiRequest) : undefined;
    case 'saveLayout':
      return isLayout(m.layout) ? (m as UiRequest) : undefined;
    case 'switchFile':
      return isInt(m.requestId) && isText(m.file, 1000) ? (m as UiRequest) : undefined;
    case 'openRaw':
      return { type: 'openRaw' };
    case 'tableCommand':
      return isInt(m.requestId) && TABLE_COMMANDS.includes(m.command as TableCommand) ? { type: 'tableCommand', requestId: m.requestId, command: m.command as TableCommand } : undefined;
    case 'log':
      return (m.level === 'info' || m.level === 'warn' || m.level === 'error') && isText(m.message, 10_000) ? (m as UiRequest) : undefined;
    case 'probeState':
      return isInt(m.requestId) && isProbe(m.state) ? (m as UiRequest) : undefined;
    case 'profile':
      return isInt(m.requestId) && isInt(m.column) ? { type: 'profile', requestId: m.requestId, column: m.column } : undefined;
    case 'histogram': {
      const bins = m.bins === undefined ? HISTOGRAM_BINS : m.bins;
      const ok = isInt(m.requestId) && isInt(m.column) && isInt(bins) && bins >= 1 && bins <= MAX_HISTOGRAM_BINS && (m.log === undefined || typeof m.log === 'boolean');
      return ok ? { type: 'histogram', requestId: m.requestId as number, column: m.column as number, bins: bins as number, log: m.log === true } : undefined;
    }
    case 'scatter':
      return isInt(m.requestId) && isInt(m.x) && isInt(m.y) ? { type: 'scatter', requestId: m.requestId, x: m.x, y: m.y } : undefined;
    case 'savePng':
      return isInt(m.requestId) && isText(m.name, 200) && isText(m.dataUrl, MAX_PNG_URL) && m.dataUrl.startsWith('data:image/png;base64,')
        ? { type: 'savePng', requestId: m.requestId, name: m.name, dataUrl: m.dataUrl }
        : undefined;
    default:
      return undefined;
  }
}
