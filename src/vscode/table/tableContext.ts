/**
 * What a table's message handlers share: the session's context (its post, its requests'
 * cancellation, its dependencies) and the file it shows. The session (tableSession.ts) keeps the
 * lifecycle and routes each request by its type to one handler; the handlers live by concern in
 * dataHandlers.ts (windows, queries, copy, export), analysisHandlers.ts (the analysis panel),
 * cellActions.ts (a cell's and a column's actions) and commandHandlers.ts (the toolbar's commands,
 * the file switcher, the layout).
 */
import type { Storage, StorageKey } from '../../core/storage';
import type { RemoteTable } from '../../core/table';
import type { Progress, ViewQuery } from '../../shared/tableProtocol';
import type { ColumnInfo, UiMessage, UiRequest } from '../../shared/tableUiProtocol';
import type { Log } from '../base/log';
import type { TablePrompts } from '../base/prompts';


export interface TableSessionDeps {
  readonly storage: Storage;
  readonly log: Log;
  readonly resultsFolder: () => string;
  readonly prompts: () => TablePrompts;
  readonly test: boolean;
}

/** A file the session opened: its table in the worker and what the host knows of it. */
export interface Opened {
  readonly file: string;
  /** The source and its view, in their worker. */
  readonly table: RemoteTable;
  readonly columns: readonly ColumnInfo[];
  readonly endpoint?: string;
  readonly files: readonly string[];
  /** The table's scope (its endpoint, or a hash of its columns): its layout and saved views are kept under it. */
  readonly scope: string;
  readonly layoutKey: StorageKey<unknown>;
  readonly unsubscribe: () => void;
}

/** What a handler may do with its session. */
export interface TableContext {
  /** The session itself (a TableSession, named by its file here so this file stays below it), for the commands its toolbar runs on it. */
  readonly session: { readonly file: string };
  readonly deps: TableSessionDeps;
  /** Posts a message to the webview (nothing once the session is closed). */
  post(m: UiMessage): void;
  /** A signal for a request: aborted by the webview's cancel or the session's end. */
  controller(requestId: number): AbortSignal;
  /** The controller of a request in flight, to abort it from elsewhere (an export's notification). */
  requestController(requestId: number): AbortController | undefined;
  /** Cancellation and the worker's progress forwarded, for an analysis request. */
  analysisOptions(requestId: number): { signal: AbortSignal; onProgress: (p: Progress) => void };
  /** The saved view a file shows, and the query it applied (as a key). */
  readonly viewShown: WeakMap<Opened, { readonly name: string; readonly key: string }>;
  /** Logs the first window sent, once per session. */
  firstWindowSent(o: Opened): void;
  /** Shows another file of the same result (a .zip's tables). */
  switchTo(o: Opened, file: string): Promise<void>;
}

/** The requests the session answers itself (the handshake, the probe, the log, a cancel); every other one has a handler. */
type LifecycleType = 'ready' | 'probeState' | 'log' | 'cancel';
export type HandledType = Exclude<UiRequest['type'], LifecycleType>;
export type HandledRequest = Extract<UiRequest, { type: HandledType }>;

/** One request type's handler. */
type Handler<K extends HandledType> = (ctx: TableContext, o: Opened, req: Extract<UiRequest, { type: K }>) => Promise<void>;
/** Handlers keyed by the request type they answer. */
export type Handlers<K extends HandledType> = { readonly [T in K]: Handler<T> };

/** A query as a key, to tell whether the one a saved view applied is still in force. */
export const queryKey = (q: ViewQuery): string => JSON.stringify({ sort: q.sort ?? [], filters: q.filters ?? [], search: q.search ?? '' });
