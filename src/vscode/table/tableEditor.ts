/**
 * "Wallet Analytics Table": a read-only custom editor for `*.csv` (priority `option`, so "Reopen
 * Editor With…" offers it) and for the `.txt` address lists and `.json` direct results this
 * extension saves; openResult() opens every downloaded result with it. Also the "Open in Table"
 * and "Export Table" commands (the latter for its keybinding, which reaches the active table), and, under the test runner only, hooks to drive a table through its message path.
 */
import * as vscode from 'vscode';
import { registerCommand, registerCustomEditorProvider } from '../base/handOver';
import { isReplyTo, UI_REPLY_TYPES, type ProbeState, type UiAsk, type UiMessage, type UiReplyTo, type UiRequest } from '../../shared/tableUiProtocol';
import { CommandIds, TABLE_VIEW_TYPE } from '../base/ids';
import type { Log } from '../base/log';
import { registerOpenInNotebook } from './openInNotebook';
import { windowPrompts, type TablePrompts } from '../base/prompts';
import { registerSavedViews } from './savedViewCommands';
import { tableFileOf } from '../../core/results/files';
import { tableHtml, tableResourceRoots } from './tableHtml';
import { TableSession } from './tableSession';
import { startTableLauncher } from '../../core/table';
import { l10n } from '../../shared/l10n';
import { showError } from '../base/errors';
import type { Storage } from '../../core/storage';


interface TableEditorDeps {
  readonly log: Log;
  readonly storage: Storage;
  /** The folder results are written to now (address lists go in its `lists/`). */
  readonly resultsFolder: () => string;
}

/** One open table, as the integration tests see it. */
export interface TableHandle {
  /** The file shown. */
  readonly file: string;
  readonly panel: vscode.WebviewPanel;
  /** Sends a request through the same handler the webview's messages go to; resolves with the reply of its requestId (its own type, or failed). */
  request<R extends UiRequest>(req: R, timeoutMs?: number): Promise<R extends UiAsk ? UiReplyTo<R['type']> : UiMessage>;
  /** Every message posted to the webview since the table opened. */
  readonly posted: readonly UiMessage[];
  /** Asks the webview what it shows. */
  probe(): Promise<ProbeState>;
}

/** Only under ExtensionMode.Test: reach open tables and answer their prompts. */
export interface TableTestHooks {
  /** The open table showing `file` (waits for it). */
  table(file: string, timeoutMs?: number): Promise<TableHandle>;
  /** Replaces save dialogs, pickers and command runs; undefined restores the real ones. */
  setPrompts(prompts: TablePrompts | undefined): void;
}

/** Any reply type: what answers a request with an id that gets no reply of its own (a cancel, a malformed one in a test). */
const ANY_REPLY = new Set<string>([...Object.values(UI_REPLY_TYPES), 'failed']);
const isAsk = (req: UiRequest): req is UiAsk => req.type in UI_REPLY_TYPES;

class TableEditorProvider implements vscode.CustomReadonlyEditorProvider {
  readonly sessions = new Set<{ session: TableSession; posted: UiMessage[] }>();
  prompts: TablePrompts = windowPrompts;

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly deps: TableEditorDeps,
  ) {}

  openCustomDocument(uri: vscode.Uri): vscode.CustomDocument {
    return { uri, dispose: () => undefined };
  }

  resolveCustomEditor(document: vscode.CustomDocument, panel: vscode.WebviewPanel): void {
    const extensionUri = this.context.extensionUri;
    panel.webview.options = { enableScripts: true, localResourceRoots: tableResourceRoots(extensionUri) };
    const test = this.context.extensionMode === vscode.ExtensionMode.Test;
    const session = new TableSession(panel, document.uri.fsPath, {
      storage: this.deps.storage,
      log: this.deps.log,
      resultsFolder: this.deps.resultsFolder,
      prompts: () => this.prompts,
      test,
    });
    panel.webview.html = tableHtml(panel.webview, extensionUri, document.uri.path.split('/').pop() ?? 'Table');
    const entry = { session, posted: [] as UiMessage[] };
    if (test) session.tap((m) => entry.posted.push(m));
    this.sessions.add(entry);
    panel.onDidDispose(() => this.sessions.delete(entry));
  }

  /** The table in the active editor. */
  active(): { session: TableSession; posted: UiMessage[] } | undefined {
    return [...this.sessions].find((e) => e.session.panel.active);
  }

  handle(entry: { session: TableSession; posted: UiMessage[] }): TableHandle {
    const { session } = entry;
    return {
      get file() {
        return session.file;
      },
      panel: session.panel,
      posted: entry.posted,
      probe: () => session.probe(),
      request: <R extends UiRequest>(req: R, timeoutMs = 60_000) =>
        new Promise<R extends UiAsk ? UiReplyTo<R['type']> : UiMessage>((resolve, reject) => {
          type Reply = R extends UiAsk ? UiReplyTo<R['type']> : UiMessage;
          const id = 'requestId' in req ? req.requestId : undefined;
          if (id === undefined) {
            void session.receive(req).then(() => resolve({ type: 'done', requestId: -1 } as Reply), reject);
            return;
          }
          const answers = (m: UiMessage): boolean => (isAsk(req) ? isReplyTo(req.type, m) : ANY_REPLY.has(m.type));
          const timer = setTimeout(() => {
            untap();
            reject(new Error(`No reply to ${req.type} #${id} within ${timeoutMs} ms.`));
          }, timeoutMs);
          const untap = session.tap((m) => {
            if (answers(m) && 'requestId' in m && m.requestId === id) {
              clearTimeout(timer);
              untap();
              resolve(m as Reply);
            }
          });
          void session.receive(req);
        }),
    };
  }
}

/** Opens a file (or the first table file of a result folder) in the table. */
export async function openInTable(p: string): Promise<void> {
  const file = await tableFileOf(p);
  if (!file) throw new Error(`${p} holds no .csv, .txt or .json file to show.`);
  await vscode.commands.executeCommand('vscode.openWith', vscode.Uri.file(file), TABLE_VIEW_TYPE, { preview: false });
}

/** Registers the custom editor and the "Open in Table" command; returns test hooks under the test runner. */
/** How long after the features load the table launcher starts: past the first paint of what a person opened. */
const LAUNCHER_IDLE_MS = 1_500;

export function registerTableEditor(context: vscode.ExtensionContext, deps: TableEditorDeps): TableTestHooks | undefined {
  const provider = new TableEditorProvider(context, deps);
  // The table launcher, started once at an idle moment after the features load (its own
  // `new Worker` blocks this thread 14–40 ms once): from then on no table, list, "use as input"
  // or comparison starts its worker on the host's thread (issue 34 item 4).
  const launcher = setTimeout(() => startTableLauncher(), LAUNCHER_IDLE_MS);
  launcher.unref();
  context.subscriptions.push({ dispose: () => clearTimeout(launcher) });
  context.subscriptions.push(
    registerCustomEditorProvider(TABLE_VIEW_TYPE, provider, {
      // The webview reloads when shown again (state kept by the host and vscode.setState): no hidden DOM held.
      webviewOptions: { retainContextWhenHidden: false },
      supportsMultipleEditorsPerDocument: true,
    }),
    registerCommand(CommandIds.exportTable, () => {
      const entry = provider.active();
      if (!entry) {
        void vscode.window.showInformationMessage(l10n.t('Open a result in the Wallet Analytics Table first.'));
        return false;
      }
      entry.session.exportShown();
      return true;
    }),
    registerCommand(CommandIds.openInTable, async (target?: unknown) => {
      let p = target instanceof vscode.Uri ? target.fsPath : typeof target === 'string' ? target : undefined;
      p ??= vscode.window.activeTextEditor?.document.uri.scheme === 'file' ? vscode.window.activeTextEditor.document.uri.fsPath : undefined;
      if (!p) {
        const picked = await vscode.window.showOpenDialog({
          title: l10n.t('Open in Wallet Analytics Table'),
          canSelectMany: false,
          filters: { 'Tables': ['csv', 'txt', 'json'], 'All files': ['*'] },
        });
        p = picked?.[0]?.fsPath;
      }
      if (!p) return;
      try {
        await openInTable(p);
      } catch (e) {
        void showError(e);
      }
    }),
  );
  registerOpenInNotebook(context, () => provider.active()?.session, deps.log);
  registerSavedViews(context, { storage: deps.storage, log: deps.log, active: () => provider.active()?.session, prompts: () => provider.prompts });
  if (context.extensionMode !== vscode.ExtensionMode.Test) return undefined;
  return {
    async table(file, timeoutMs = 20_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const entry = [...provider.sessions].reverse().find((e) => e.session.file === file || e.session.documentFile === file);
        if (entry) return provider.handle(entry);
        if (Date.now() > deadline) throw new Error(`No table shows ${file} after ${timeoutMs} ms.`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
    setPrompts(prompts) {
      provider.prompts = prompts ?? windowPrompts;
    },
  };
}
