/**
 * The stand-ins the thin entry (src/extension.ts) registers as activation's first step, before the
 * promise its activate() returns resolves (issue 34 item 1), so that whatever VS Code may ask for at any moment after activation exists: every command
 * and language-model tool package.json declares, the sidebar's tree views, the pipeline notebook's
 * serializer, the table's custom editor and the result scheme. Each is a small proxy that loads the
 * features (dist/features.js) on its first use and then hands the call to the real handler, which
 * the features give it through src/vscode/base/handOver.ts. A stand-in is never disposed and
 * replaced, so there is no moment in which an id is "not found" (the earlier hand-over disposed all
 * stand-ins before the features had registered the commands they register after reading the key).
 * Bundled into the entry: it imports nothing but vscode and the ids.
 */
import type * as vscode from 'vscode';
import { vscodeApi } from './vscodeLater';
import { PIPELINE_NOTEBOOK, REQUESTS_VIEW, RESULT_SCHEME, TABLE_VIEW_TYPE } from './ids';
import type { EarlyTree } from './firstAnswer';

/** A command's handler, as VS Code calls it. */
type Handler = (...args: unknown[]) => unknown;

/** Where the features put their real handlers (src/vscode/base/handOver.ts); undefined when the id has no stand-in. */
export interface StandInSink {
  command(id: string, handler: Handler): vscode.Disposable | undefined;
  tool(name: string, tool: vscode.LanguageModelTool<object>): vscode.Disposable | undefined;
  treeView(viewId: string, provider: vscode.TreeDataProvider<unknown>): vscode.TreeView<unknown> | undefined;
  notebookSerializer(notebookType: string, serializer: vscode.NotebookSerializer): vscode.Disposable | undefined;
  customEditor(viewType: string, provider: vscode.CustomReadonlyEditorProvider): vscode.Disposable | undefined;
  contentProvider(scheme: string, provider: vscode.TextDocumentContentProvider): vscode.Disposable | undefined;
}

/** What package.json declares that VS Code may ask for at once (read from the installed manifest, so never out of date). */
export interface Declared {
  readonly commands: readonly string[];
  readonly tools: readonly string[];
  readonly views: readonly string[];
}

function strings(list: unknown, key: string): string[] {
  if (!Array.isArray(list)) return [];
  return list.flatMap((x: unknown) => {
    const v: unknown = (x as Record<string, unknown> | null)?.[key];
    return typeof v === 'string' ? [v] : [];
  });
}

/** The ids contributes.commands, contributes.languageModelTools and contributes.views declare. */
export function declaredIn(manifest: unknown): Declared {
  const c = (manifest as { contributes?: Record<string, unknown> } | undefined)?.contributes ?? {};
  const containers = c.views && typeof c.views === 'object' ? Object.values(c.views as Record<string, unknown>) : [];
  return { commands: strings(c.commands, 'command'), tools: strings(c.languageModelTools, 'name'), views: containers.flatMap((v) => strings(v, 'id')) };
}

/** One thing the features will give: `get` waits for it, loading the features if they have not loaded. */
class Slot<T> {
  private real: T | undefined;
  constructor(
    private readonly what: string,
    private readonly load: () => Promise<unknown>,
  ) {}
  peek(): T | undefined {
    return this.real;
  }
  async get(): Promise<T> {
    if (this.real === undefined) await this.load();
    if (this.real === undefined) throw new Error(`Wallet Analytics: ${this.what} was not registered by the features.`);
    return this.real;
  }
  set(real: T): vscode.Disposable {
    this.real = real;
    return new (vscodeApi().Disposable)(() => {
      if (this.real === real) this.real = undefined;
    });
  }
}

/**
 * A tree view's data provider until the features give theirs; the view's first getChildren loads
 * them, unless `early` answers the root first (src/vscode/base/firstAnswer.ts: no key, so nothing to
 * list and its welcome shows, which needs no features; or a key stored, so the Account view's first
 * rows, while the features load). Early rows stay answered here (their items, no children) even
 * after the features come, until VS Code asks the root again, which their coming makes it do.
 */
class TreeProxy implements vscode.TreeDataProvider<unknown> {
  private readonly changed = new (vscodeApi().EventEmitter)<unknown>();
  readonly onDidChangeTreeData = this.changed.event;
  /** Whether the root was answered without the features: their provider is asked again when it comes. */
  private answeredEarly = false;
  /** The rows answered early, with the answer that drew them. */
  private readonly earlyRows = new WeakMap<object, EarlyTree>();
  constructor(
    readonly slot: Slot<vscode.TreeDataProvider<unknown>>,
    private readonly early: () => Promise<EarlyTree | undefined> = () => Promise.resolve(undefined),
  ) {}
  forward(real: vscode.TreeDataProvider<unknown>): vscode.Disposable {
    const sub = real.onDidChangeTreeData?.((e) => this.changed.fire(e));
    const given = this.slot.set(real);
    if (this.answeredEarly) this.changed.fire(undefined);
    return vscodeApi().Disposable.from(given, sub ?? new (vscodeApi().Disposable)(() => undefined), this.changed);
  }
  private earlyOf(element: unknown): EarlyTree | undefined {
    return typeof element === 'object' && element !== null ? this.earlyRows.get(element) : undefined;
  }
  async getChildren(element?: unknown): Promise<unknown[]> {
    if (element === undefined && this.slot.peek() === undefined) {
      const early = await this.early();
      if (early && this.slot.peek() === undefined) {
        this.answeredEarly = true;
        for (const row of early.roots) this.earlyRows.set(row, early);
        // The features check what the early rows say is being checked; their coming redraws the view
        // (forward). The loader waits for these rows to have left (firstAnswer.ts rowsOut).
        if (early.loadNow) void this.slot.get().catch(() => undefined);
        return [...early.roots];
      }
    }
    if (this.earlyOf(element)) return [];
    return (await (await this.slot.get()).getChildren(element)) ?? [];
  }
  // Other elements come only from the real provider, so it is there whenever VS Code asks about one.
  getTreeItem(element: unknown): vscode.TreeItem | Thenable<vscode.TreeItem> {
    const early = this.earlyOf(element);
    if (early) return early.item(element as object);
    const real = this.slot.peek();
    return real ? real.getTreeItem(element) : new (vscodeApi().TreeItem)('');
  }
  getParent(element: unknown): vscode.ProviderResult<unknown> {
    return this.earlyOf(element) ? undefined : this.slot.peek()?.getParent?.(element);
  }
  resolveTreeItem(item: vscode.TreeItem, element: unknown, token: vscode.CancellationToken): vscode.ProviderResult<vscode.TreeItem> {
    const real = this.slot.peek();
    return !this.earlyOf(element) && real?.resolveTreeItem ? real.resolveTreeItem(item, element, token) : item;
  }
}

/** The options each view is created with: VS Code takes them once, at creation, so the entry holds them. */
const TREE_OPTIONS: Readonly<Record<string, { showCollapseAll?: boolean }>> = { [REQUESTS_VIEW]: { showCollapseAll: true } };

/**
 * Registers every stand-in, all in one go (src/extension.ts runs this right after its activate() call
 * returns, before the promise VS Code waits on resolves). `load` loads and builds the features once;
 * every stand-in's first use calls it. `spent` is told what each kind of registration cost, in ms,
 * which the entry logs (bench/activationBench.ts reads it: what VS Code's extension host charges).
 * `earlyTree` gives a view's root before the features load (none: its welcome shows at once; or the
 * Account view's first rows with a key stored); by default every view waits for them.
 */
export function registerStandIns(
  context: vscode.ExtensionContext,
  declared: Declared,
  load: () => Promise<unknown>,
  spent: (what: string, ms: number) => void = () => undefined,
  earlyTree: (viewId: string) => Promise<EarlyTree | undefined> = () => Promise.resolve(undefined),
): StandInSink {
  let since = performance.now();
  const lap = (what: string): void => {
    const now = performance.now();
    spent(what, now - since);
    since = now;
  };
  const handlers = new Map<string, Slot<Handler>>();
  for (const id of declared.commands) {
    const slot = new Slot<Handler>(`the command ${id}`, load);
    handlers.set(id, slot);
    // Straight to the handler once it is there; before, the same call after the features load.
    const run = (...args: unknown[]): unknown => {
      const h = slot.peek();
      return h ? h(...args) : slot.get().then((real) => real(...args));
    };
    context.subscriptions.push(vscodeApi().commands.registerCommand(id, run));
  }
  lap(`${declared.commands.length} commands`);
  const tools = new Map<string, Slot<vscode.LanguageModelTool<object>>>();
  for (const name of declared.tools) {
    const slot = new Slot<vscode.LanguageModelTool<object>>(`the tool ${name}`, load);
    tools.set(name, slot);
    context.subscriptions.push(
      vscodeApi().lm.registerTool<object>(name, {
        invoke: async (options, token) => (await slot.get()).invoke(options, token),
        prepareInvocation: async (options, token) => {
          const real = await slot.get();
          return real.prepareInvocation ? real.prepareInvocation(options, token) : undefined;
        },
      }),
    );
  }
  lap(`${declared.tools.length} tools`);
  const trees = new Map<string, { proxy: TreeProxy; view: vscode.TreeView<unknown> }>();
  for (const id of declared.views) {
    const proxy = new TreeProxy(new Slot(`the view ${id}`, load), () => earlyTree(id));
    const view = vscodeApi().window.createTreeView(id, { treeDataProvider: proxy, ...TREE_OPTIONS[id] });
    context.subscriptions.push(view);
    trees.set(id, { proxy, view });
  }
  lap(`${declared.views.length} views`);
  // A pipeline file opened (or restored) right now is read through this; its reading loads the features,
  // whose controller then exists before the notebook shows.
  const serializer = new Slot<vscode.NotebookSerializer>('the pipeline serializer', load);
  const table = new Slot<vscode.CustomReadonlyEditorProvider>('the table editor', load);
  const results = new Slot<vscode.TextDocumentContentProvider>('the result scheme', load);
  context.subscriptions.push(
    vscodeApi().workspace.registerNotebookSerializer(
      PIPELINE_NOTEBOOK,
      {
        deserializeNotebook: async (content, token) => (await serializer.get()).deserializeNotebook(content, token),
        serializeNotebook: async (data, token) => (await serializer.get()).serializeNotebook(data, token),
      },
      { transientOutputs: true },
    ),
    vscodeApi().window.registerCustomEditorProvider(
      TABLE_VIEW_TYPE,
      {
        openCustomDocument: async (uri, ctx, token) => (await table.get()).openCustomDocument(uri, ctx, token),
        resolveCustomEditor: async (doc, panel, token) => (await table.get()).resolveCustomEditor(doc, panel, token),
      },
      // The webview reloads when shown again (state kept by the host and vscode.setState): no hidden DOM held.
      { webviewOptions: { retainContextWhenHidden: false }, supportsMultipleEditorsPerDocument: true },
    ),
    vscodeApi().workspace.registerTextDocumentContentProvider(RESULT_SCHEME, {
      provideTextDocumentContent: async (uri, token) => (await results.get()).provideTextDocumentContent(uri, token),
    }),
  );
  lap('3 providers');
  const only = <T>(key: string, expected: string, slot: Slot<T>, real: T): vscode.Disposable | undefined => (key === expected ? slot.set(real) : undefined);
  return {
    command: (id, handler) => handlers.get(id)?.set(handler),
    tool: (name, tool) => tools.get(name)?.set(tool),
    treeView: (viewId, provider) => {
      const t = trees.get(viewId);
      if (!t) return undefined;
      context.subscriptions.push(t.proxy.forward(provider));
      return t.view;
    },
    notebookSerializer: (type, s) => only(type, PIPELINE_NOTEBOOK, serializer, s),
    customEditor: (viewType, p) => only(viewType, TABLE_VIEW_TYPE, table, p),
    contentProvider: (scheme, p) => only(scheme, RESULT_SCHEME, results, p),
  };
}
