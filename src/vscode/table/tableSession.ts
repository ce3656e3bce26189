/**
 * One table webview and the data behind it: the table (CSV, address list, JSON rows) with its
 * view, kept in a worker thread (RemoteTable) so no pass over the file runs on the extension
 * host's main thread; the message loop (ready handshake, then one reply per request id), background indexing
 * forwarded as progress, file notices, the cell and column actions, and the analysis panel's
 * profile, histogram and scatter (computed in the worker) and charts saved as PNG, and the
 * toolbar's More menu run as the extension's commands on this table.
 */
import * as vscode from 'vscode';
import * as path from 'node:path';
import { createHash } from 'node:crypto';
import { ENDPOINTS, shortTitle } from '../../core/spec/catalog';
import { METRIC_GROUPS, TIMEFRAMES } from '../../core/spec/metrics';
import { prestartTableWorker, RemoteTable, WINDOW_CELL_CHARS } from '../../core/table';
import type { ViewQuery, ViewState } from '../../shared/tableProtocol';
import { FIRST_WINDOW, parseUiRequest, type ColumnInfo, type ProbeState, type TableLayout, type UiMessage, type UiRequest } from '../../shared/tableUiProtocol';
import { onDidChangeSettings, readSettings } from '../base/settings';
import { resultInfo } from '../../core/results/files';
import { ANALYSIS_HANDLERS } from './analysisHandlers';
import { CELL_ACTION_HANDLERS } from './cellActions';
import { columnInfo, likelyShown } from './columnInfo';
import { COMMAND_HANDLERS } from './commandHandlers';
import { DATA_HANDLERS } from './dataHandlers';
import { lastViewFor } from './savedViewStore';
import { CancelledError, errorText, isCancelled } from '../../core/errors';
import { abortable } from '../../core/abort';
import type { ExportOptions, ExportResult } from '../../core/table/exportView';
import type { TableNotice } from '../../core/table/types';
import { memberKey, StorageFamilies } from '../../core/storage';
import { l10n } from '../../shared/l10n';
import { queryKey, type HandledRequest, type Handlers, type HandledType, type Opened, type TableContext, type TableSessionDeps } from './tableContext';
import { thousands } from '../../core/numberText';
import { TABLE_VIEW_TYPE } from '../base/ids';

/** Every request the webview may send that is not the session's own (ready, probeState, log, cancel), by type, to its handler. */
const HANDLERS: Handlers<HandledType> = { ...DATA_HANDLERS, ...ANALYSIS_HANDLERS, ...CELL_ACTION_HANDLERS, ...COMMAND_HANDLERS };

/** Rows of the first window used to tell numbers and addresses apart. */
const SAMPLE_ROWS = 50;
/** The window sent with init, unasked: enough rows and columns to fill a large editor. */
const FIRST_ROWS = 64;
const FIRST_COLUMNS = 32;
/** How often indexing progress is forwarded to the webview. */
const PROGRESS_MS = 120;

/** See TableSession.snapshot. */
export interface TableSnapshot {
  readonly file: string;
  readonly endpoint?: string;
  /** Where its layout and saved views are kept: the endpoint, or a hash of the column names. */
  readonly scope: string;
  readonly columns: readonly ColumnInfo[];
  readonly query: ViewQuery;
  /** Column indexes shown, in display order. */
  readonly shown: readonly number[];
  readonly layout?: TableLayout;
}

/** See TableSession.settledView. */
interface SettledView extends TableSnapshot {
  /** Rows in the view. */
  readonly rows: number;
  /** What the table said about the file. */
  readonly notices: readonly TableNotice[];
  /** Writes the view to `target` as CSV in the table's worker (never on the extension host's thread). */
  exportView(target: string, options: ExportOptions): Promise<ExportResult>;
}

export class TableSession implements vscode.Disposable {
  private opened: Promise<Opened>;
  private current: Opened | undefined;
  /** The table the webview has had init and meta for: changes of it are pushed. */
  private shown: Opened | undefined;
  private readonly controllers = new Map<number, AbortController>();
  private readonly taps = new Set<(m: UiMessage) => void>();
  private readonly probes = new Map<number, (s: ProbeState) => void>();
  private readonly subscriptions: vscode.Disposable[] = [];
  private progressTimer: NodeJS.Timeout | undefined;
  private closing = new AbortController();
  private disposed = false;
  private probeId = 2_000_000_000;
  /** Milliseconds from the session's start to the first window sent (for the log). */
  private readonly started = performance.now();
  private firstWindowLogged = false;
  /** Files for which the last chosen saved view was applied (or something else was chosen). */
  private readonly lastViewTried = new WeakSet<Opened>();
  /**
   * The saved view a file shows, and the query it applied (as a key): named above the rows while
   * that query is in force, so no filter of a view is ever in force without its name and a Show all.
   */
  private readonly viewShown = new WeakMap<Opened, { readonly name: string; readonly key: string }>();
  private readonly context: TableContext;

  constructor(
    readonly panel: vscode.WebviewPanel,
    readonly documentFile: string,
    private readonly deps: TableSessionDeps,
  ) {
    this.context = this.makeContext();
    this.opened = this.open(documentFile);
    this.subscriptions.push(
      panel.webview.onDidReceiveMessage((m: unknown) => void this.receive(m)),
      panel.onDidDispose(() => this.dispose()),
      // The page is built again with the new colours (its place is kept, as on a file switch).
      onDidChangeSettings(() => {
        if (this.shown) void this.sendInit(this.shown).catch((e: unknown) => this.deps.log.warn(`Table: ${errorText(e)}`));
      }, 'table.colorGainsAndLosses'),
    );
  }

  /** The file shown now (the document, or another file of the same .zip result). */
  get file(): string {
    return this.current?.file ?? this.documentFile;
  }

  /** Listens to every message posted to the webview (tests). */
  tap(listener: (m: UiMessage) => void): () => void {
    this.taps.add(listener);
    return () => this.taps.delete(listener);
  }

  /** Asks the webview what it shows (tests): resolves with its answer. */
  probe(timeoutMs = 10_000): Promise<ProbeState> {
    const requestId = ++this.probeId;
    return new Promise<ProbeState>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.probes.delete(requestId);
        reject(new Error(`The table webview did not answer a probe within ${timeoutMs} ms.`));
      }, timeoutMs);
      this.probes.set(requestId, (s) => {
        clearTimeout(timer);
        resolve(s);
      });
      this.post({ type: 'probe', requestId });
    });
  }

  /** Handles one message from the webview: the same path for the real webview and for tests. */
  async receive(raw: unknown): Promise<void> {
    const req = parseUiRequest(raw);
    if (!req) {
      this.deps.log.warn(`Table: ignored a malformed webview message (${typeof raw === 'object' && raw ? String((raw as { type?: unknown }).type) : typeof raw}).`);
      return;
    }
    try {
      await this.handle(req);
    } catch (e) {
      const requestId = 'requestId' in req ? req.requestId : undefined;
      const cancelled = isCancelled(e);
      if (!cancelled) this.deps.log.warn(`Table: ${req.type} failed: ${errorText(e)}`);
      this.post({ type: 'failed', requestId, message: cancelled ? l10n.t('Cancelled.') : errorText(e), cancelled });
    } finally {
      if ('requestId' in req) this.controllers.delete(req.requestId);
    }
  }

  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    this.closing.abort(new CancelledError());
    for (const c of this.controllers.values()) c.abort(new CancelledError());
    clearTimeout(this.progressTimer);
    for (const d of this.subscriptions) d.dispose();
    void this.opened.then(
      (o) => {
        o.unsubscribe();
        return o.table.close();
      },
      () => undefined,
    );
  }

  // ------------------------------------------------------------------------------------------

  /**
   * What the table shows now, for the commands that take it further (Open in Notebook, saved
   * views): its file, columns, query and shown columns (the remembered layout, by the webview's rule).
   */
  async snapshot(): Promise<TableSnapshot> {
    const o = await this.opened;
    const layout = this.deps.storage.get(o.layoutKey) as TableLayout | undefined;
    return { file: o.file, endpoint: o.endpoint, scope: o.scope, columns: o.columns, query: o.table.view.query, shown: likelyShown(o.columns, layout), layout };
  }

  /**
   * The snapshot once every row is indexed (the view's rows and the file's notices are then
   * final), with its export: what Open in Notebook hands the worker. Rejects when `signal` aborts.
   */
  async settledView(signal?: AbortSignal): Promise<SettledView> {
    const o = await this.opened;
    await abortable(o.table.indexed, signal);
    const snap = await this.snapshot();
    const table = o.table;
    return {
      ...snap,
      rows: table.view.length,
      notices: table.notices,
      exportView: (target, options) => table.export(target, options),
    };
  }

  /**
   * Shows a saved view (`name`; none when undefined): its layout (when given) remembered for this
   * endpoint as the column chooser's is, its query applied, and the page rebuilt with both and its
   * name. Resolves with the count label.
   */
  async applyView(query: ViewQuery, layout: TableLayout | undefined, name?: string): Promise<string> {
    const o = await this.opened;
    this.lastViewTried.add(o);
    if (layout) await this.deps.storage.set(o.layoutKey, layout);
    const state = await o.table.apply(query, { signal: this.closing.signal });
    if (name === undefined) this.viewShown.delete(o);
    else this.viewShown.set(o, { name, key: queryKey(state.query) });
    await this.sendInit(o);
    return state.countLabel;
  }

  /** The table's query was just saved as the view `name`: the page names it from now on. */
  async viewSaved(name: string): Promise<void> {
    const o = await this.opened;
    this.viewShown.set(o, { name, key: queryKey(o.table.view.query) });
    if (this.shown === o) this.post({ type: 'savedView', name });
  }

  /** Once per file opened: a result of an endpoint that has a last chosen saved view opens in it (its query, after the first rows). */
  private openInLastView(o: Opened): void {
    if (this.lastViewTried.has(o)) return;
    this.lastViewTried.add(o);
    const start = lastViewFor(this.deps.storage, o.scope, o.table.columns);
    if (!start) return;
    o.table.apply(start.query, { signal: this.closing.signal }).then(
      (state) => {
        this.viewShown.set(o, { name: start.name, key: queryKey(state.query) });
        // The name first: the rows it narrows never show without it.
        if (this.shown === o) this.post({ type: 'savedView', name: start.name });
        if (this.shown === o) this.post({ type: 'view', view: this.viewState(o) });
        this.deps.log.info(`Table: ${path.basename(o.file)} opened in the saved view "${start.name}": ${state.countLabel}.`);
      },
      (e: unknown) => {
        if (!isCancelled(e)) this.deps.log.warn(`Table: the saved view "${start.name}" could not be applied: ${errorText(e)}`);
      },
    );
  }

  /** Asks the webview to export what it shows (the Export Table command); it alone knows the shown columns. */
  exportShown(): void {
    this.post({ type: 'exportShown' });
  }

  private post(m: UiMessage): void {
    if (this.disposed) return;
    for (const t of this.taps) t(m);
    void this.panel.webview.postMessage(m).then(undefined, () => undefined);
  }

  private controller(requestId: number): AbortSignal {
    const c = new AbortController();
    this.controllers.set(requestId, c);
    return AbortSignal.any([c.signal, this.closing.signal]);
  }

  private viewState(o: Opened): ViewState {
    return o.table.view;
  }

  private async open(file: string): Promise<Opened> {
    const signal = this.closing.signal;
    const [table, info] = await Promise.all([RemoteTable.open(file, { signal }), resultInfo(file)]);
    // The next table's worker, started once this one is indexed (not while it competes for the cores).
    table.indexed.then(() => prestartTableWorker(), () => undefined);
    let sample: readonly (readonly string[])[];
    try {
      const sampleRows = Math.min(table.rowCount, SAMPLE_ROWS);
      sample = sampleRows > 0 ? (await table.window(0, sampleRows, table.columns.map((_, i) => i), signal)).cells : [];
    } catch (e) {
      await table.close();
      throw e;
    }
    const columns = columnInfo(table.columns, sample);
    const scope = info.endpoint ?? `columns:${createHash('sha1').update(table.columns.join('\n')).digest('hex').slice(0, 16)}`;
    const layoutKey = memberKey(StorageFamilies.tableLayout, scope);
    let latest: { bytesDone: number; bytesTotal: number } | undefined;
    const unsubscribe = table.onDidChange((change) => {
      // Nothing is pushed before the webview has init and meta (sendInit catches up then): it could not use it yet.
      if (change.type === 'notices') {
        if (this.shown?.table === table) this.post({ type: 'notices', notices: table.notices });
      } else if (change.type === 'complete') {
        clearTimeout(this.progressTimer);
        this.progressTimer = undefined;
        if (this.shown?.table === table && this.current?.table === table) {
          this.post({ type: 'view', view: this.viewState(this.current) });
          this.post({ type: 'progress', progress: { task: 'index', done: 1, total: 1 } });
        }
        this.deps.log.info(`Table: ${path.basename(file)} indexed, ${thousands(change.rowCount)} rows in ${Math.round(performance.now() - this.started)} ms.`);
      } else {
        latest = change;
        this.progressTimer ??= setTimeout(() => {
          this.progressTimer = undefined;
          if (this.shown?.table !== table || this.current?.table !== table || table.complete || !latest) return;
          this.post({ type: 'view', view: this.viewState(this.current) });
          this.post({ type: 'progress', progress: { task: 'index', done: latest.bytesDone, total: latest.bytesTotal } });
        }, PROGRESS_MS);
      }
    });
    table.indexed.catch((e: unknown) => {
      if (!isCancelled(e) && !this.disposed) this.post({ type: 'failed', message: `Reading ${path.basename(file)} stopped: ${errorText(e)}` });
    });
    const opened: Opened = { file, table, columns, endpoint: info.endpoint, files: info.files, scope, layoutKey, unsubscribe };
    this.current = opened;
    return opened;
  }

  private async sendInit(o: Opened): Promise<void> {
    const ep = o.endpoint ? ENDPOINTS.find((e) => e.id === o.endpoint) : undefined;
    const title = path.basename(o.file);
    const layout = this.deps.storage.get(o.layoutKey) as TableLayout | undefined;
    this.panel.title = title;
    this.shown = undefined;
    const noticesAtInit = o.table.notices;
    this.post({ type: 'init', title, kind: o.table.kind, columns: o.table.columns, view: this.viewState(o), notices: o.table.notices });
    // The first rows of the columns it will show, before it asks: they paint without a round trip.
    const rows = Math.min(o.table.view.length, FIRST_ROWS);
    if (rows > 0 && o.columns.length > 0) {
      const window = await o.table.window(0, rows, likelyShown(o.columns, layout).slice(0, FIRST_COLUMNS), this.closing.signal, WINDOW_CELL_CHARS);
      this.post({ type: 'window', requestId: FIRST_WINDOW, window });
    }
    this.post({
      type: 'meta',
      meta: {
        file: title,
        files: o.files.map((f) => path.relative(path.dirname(o.files[0] ?? f), f)),
        endpoint: o.endpoint,
        endpointTitle: ep ? shortTitle(ep) : undefined,
        columns: o.columns,
        layout,
        savedView: this.viewShown.get(o)?.name,
        metricGroups: METRIC_GROUPS,
        timeframes: TIMEFRAMES,
        test: this.deps.test,
        colorGainsAndLosses: readSettings().tableColorGainsAndLosses,
      },
    });
    // From here on changes are pushed as they come; catch up with those since init.
    this.shown = o;
    this.post({ type: 'view', view: this.viewState(o) });
    if (o.table.notices !== noticesAtInit) this.post({ type: 'notices', notices: o.table.notices });
    if (o.table.complete) this.post({ type: 'progress', progress: { task: 'index', done: 1, total: 1 } });
    this.openInLastView(o);
  }

  private async handle(req: UiRequest): Promise<void> {
    if (req.type === 'ready') {
      try {
        await this.sendInit(await this.opened);
      } catch (e) {
        if (!isCancelled(e)) this.post({ type: 'failed', message: `${path.basename(this.file)} could not be opened: ${errorText(e)}` });
      }
      return;
    }
    if (req.type === 'probeState') {
      this.probes.get(req.requestId)?.(req.state);
      this.probes.delete(req.requestId);
      return;
    }
    if (req.type === 'log') {
      this.deps.log[req.level](`Table webview: ${req.message}`);
      return;
    }
    if (req.type === 'cancel') {
      this.controllers.get(req.requestId)?.abort(new CancelledError());
      return;
    }
    const o = await this.opened;
    // The map holds one handler per type, so the one for req.type takes req (TypeScript cannot correlate the two).
    const handler = HANDLERS[req.type] as (ctx: TableContext, o: Opened, req: HandledRequest) => Promise<void>;
    await handler(this.context, o, req);
  }

  /** What the handlers may do with this session (tableContext.ts). */
  private makeContext(): TableContext {
    return {
      session: this,
      deps: this.deps,
      post: (m) => this.post(m),
      controller: (requestId) => this.controller(requestId),
      requestController: (requestId) => this.controllers.get(requestId),
      analysisOptions: (requestId) => ({ signal: this.controller(requestId), onProgress: (progress) => this.post({ type: 'progress', requestId, progress }) }),
      viewShown: this.viewShown,
      firstWindowSent: (o) => {
        if (this.firstWindowLogged) return;
        this.firstWindowLogged = true;
        this.deps.log.info(`Table: ${path.basename(o.file)}: first window sent ${Math.round(performance.now() - this.started)} ms after opening.`);
      },
      switchTo: async (o, file) => {
        const target = o.files.find((f) => path.relative(path.dirname(o.files[0] ?? f), f) === file);
        if (!target) throw new Error(`${file} is not a file of this result.`);
        if (target === o.file) return;
        // Its own tab, not this one's content swapped: a custom editor's tab is named by its file,
        // and a tab reading a_traders.csv over b_tokens.csv's rows misleads (seen in the e2e walk).
        await vscode.commands.executeCommand('vscode.openWith', vscode.Uri.file(target), TABLE_VIEW_TYPE, { preview: false });
      },
    };
  }
}
