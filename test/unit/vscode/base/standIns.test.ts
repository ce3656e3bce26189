/**
 * The thin entry's stand-ins (src/vscode/base/standIns.ts, issue 34 item 1) under a stub of `vscode`
 * that, like VS Code, refuses a second registration of an id: a command, a tool, a view, the
 * pipeline serializer and the table editor used before the features loaded load them and reach the
 * real handler; the features' registrations (src/vscode/base/handOver.ts) go to the stand-ins, so
 * no id is ever registered twice or missing. The regression it holds: the first stand-ins were
 * disposed before the features had registered the commands they register after an await (reading
 * the key), and those commands were "not found" for a moment.
 */
import assert from 'node:assert/strict';
import Module from 'node:module';
import { describe, it } from 'node:test';
// Types only: the module itself is the stub below, put in place of `vscode` before the stand-ins load.
// eslint-disable-next-line no-restricted-imports
import type * as Vscode from 'vscode';
import { Disposable, EventEmitter } from '../../fixtures/vscodeClasses';

type Fn = (...args: unknown[]) => unknown;

/** Just enough of `vscode` for the stand-ins, keeping what was registered. */
class Stub {
  readonly commands = new Map<string, Fn>();
  readonly tools = new Map<string, Vscode.LanguageModelTool<object>>();
  readonly trees = new Map<string, Vscode.TreeDataProvider<unknown>>();
  readonly serializers = new Map<string, Vscode.NotebookSerializer>();
  readonly editors = new Map<string, Vscode.CustomReadonlyEditorProvider>();
  readonly contents = new Map<string, Vscode.TextDocumentContentProvider>();

  private once<T>(map: Map<string, T>, id: string, v: T): { dispose(): void } {
    if (map.has(id)) throw new Error(`'${id}' already exists`);
    map.set(id, v);
    return { dispose: () => map.delete(id) };
  }

  api(): unknown {
    class TreeItem {
      constructor(readonly label: string) {}
    }
    return {
      Disposable,
      EventEmitter,
      TreeItem,
      commands: {
        registerCommand: (id: string, f: Fn) => this.once(this.commands, id, f),
        executeCommand: async (id: string, ...args: unknown[]) => {
          const f = this.commands.get(id);
          if (!f) throw new Error(`command '${id}' not found`);
          return f(...args);
        },
      },
      lm: { registerTool: (name: string, t: Vscode.LanguageModelTool<object>) => this.once(this.tools, name, t) },
      window: {
        createTreeView: (id: string, o: { treeDataProvider: Vscode.TreeDataProvider<unknown> }) => ({ ...this.once(this.trees, id, o.treeDataProvider), id }),
        registerCustomEditorProvider: (id: string, p: Vscode.CustomReadonlyEditorProvider) => this.once(this.editors, id, p),
      },
      workspace: {
        registerNotebookSerializer: (id: string, s: Vscode.NotebookSerializer) => this.once(this.serializers, id, s),
        registerTextDocumentContentProvider: (id: string, p: Vscode.TextDocumentContentProvider) => this.once(this.contents, id, p),
      },
    };
  }
}

const stub = new Stub();
const moduleWithLoad = Module as unknown as { _load: (request: string, ...rest: unknown[]) => unknown };
const realLoad = moduleWithLoad._load;
moduleWithLoad._load = function (request: string, ...rest: unknown[]): unknown {
  return request === 'vscode' ? stub.api() : realLoad.call(this, request, ...rest);
};

const context = { subscriptions: [] as { dispose(): unknown }[] } as unknown as Vscode.ExtensionContext;
const token = {} as Vscode.CancellationToken;

describe('stand-ins: everything exists at activation, and the first use loads the features', async () => {
  // Loaded after the stub is in place (a static import would require `vscode` first).
  const { registerStandIns, declaredIn } = await import('../../../../src/vscode/base/standIns');
  const handOver = await import('../../../../src/vscode/base/handOver');
  const ids = await import('../../../../src/vscode/base/ids');
  const declared = declaredIn({
    contributes: {
      commands: [{ command: 'walletAnalytics.early' }, { command: 'walletAnalytics.afterKey' }],
      languageModelTools: [{ name: 'walletAnalytics_price' }],
      views: { walletAnalytics: [{ id: ids.ACCOUNT_VIEW }, { id: ids.REQUESTS_VIEW }] },
    },
  });
  let loads = 0;
  let built = false;
  const calls: string[] = [];
  // What features.ts does: register some handlers, wait (the key is read), then register the rest.
  const features = async (): Promise<void> => {
    loads++;
    handOver.registerCommand('walletAnalytics.early', (a: unknown) => `early ${String(a)}`);
    await new Promise((r) => setImmediate(r));
    handOver.registerCommand('walletAnalytics.afterKey', (a: unknown, b: unknown) => `afterKey ${String(a)} ${String(b)}`);
    // An id the manifest does not declare is VS Code's own registration.
    handOver.registerCommand('walletAnalytics.undeclared', () => 'own');
    handOver.registerTool('walletAnalytics_price', { invoke: () => ({ content: ['42 credits'] }) as unknown as Vscode.LanguageModelToolResult });
    const changed = new (stub.api() as { EventEmitter: new () => Vscode.EventEmitter<unknown> }).EventEmitter();
    handOver.createTreeView(ids.ACCOUNT_VIEW, {
      treeDataProvider: { getChildren: () => ['balance'], getTreeItem: (e) => ({ label: String(e) }), onDidChangeTreeData: changed.event },
    });
    handOver.registerNotebookSerializer(ids.PIPELINE_NOTEBOOK, { deserializeNotebook: () => ({ cells: [] }) as unknown as Vscode.NotebookData, serializeNotebook: () => new Uint8Array([1]) });
    handOver.registerCustomEditorProvider(ids.TABLE_VIEW_TYPE, { openCustomDocument: (uri) => ({ uri, dispose: () => undefined }), resolveCustomEditor: () => void calls.push('resolved') }, {});
    handOver.registerTextDocumentContentProvider(ids.RESULT_SCHEME, { provideTextDocumentContent: () => 'a,b' });
    built = true;
  };
  let loading: Promise<void> | undefined;
  const load = (): Promise<void> => (loading ??= features());
  const sink = registerStandIns(context, declared, load);
  handOver.useStandIns(sink);

  it('registers every declared command, tool and view, the serializer, the editor and the scheme, and loads nothing', () => {
    assert.deepEqual([...stub.commands.keys()], ['walletAnalytics.early', 'walletAnalytics.afterKey']);
    assert.deepEqual([...stub.tools.keys()], ['walletAnalytics_price']);
    assert.deepEqual([...stub.trees.keys()], [ids.ACCOUNT_VIEW, ids.REQUESTS_VIEW]);
    assert.deepEqual([...stub.serializers.keys(), ...stub.editors.keys(), ...stub.contents.keys()], [ids.PIPELINE_NOTEBOOK, ids.TABLE_VIEW_TYPE, ids.RESULT_SCHEME]);
    assert.equal(loads, 0);
  });

  it('a command registered after the features awaited, run before they loaded, loads them and runs with its arguments', async () => {
    const stub2 = stub.api() as typeof Vscode;
    const answer = await stub2.commands.executeCommand('walletAnalytics.afterKey', 1, 'x');
    assert.equal(answer, 'afterKey 1 x');
    assert.equal(loads, 1);
    assert.ok(built);
    // Once loaded, straight to the handler; the features' registrations went to the stand-ins, not a second time to VS Code.
    assert.equal(await stub2.commands.executeCommand('walletAnalytics.early', 2), 'early 2');
    assert.deepEqual([...stub.commands.keys()], ['walletAnalytics.early', 'walletAnalytics.afterKey', 'walletAnalytics.undeclared']);
    assert.equal(loads, 1);
  });

  it('the tool, the view, the serializer, the editor and the scheme reach the real ones', async () => {
    const tool = stub.tools.get('walletAnalytics_price');
    assert.deepEqual(await tool?.invoke({ input: {} } as Vscode.LanguageModelToolInvocationOptions<object>, token), { content: ['42 credits'] });
    assert.equal(await tool?.prepareInvocation?.({ input: {} } as Vscode.LanguageModelToolInvocationPrepareOptions<object>, token), undefined);
    const account = stub.trees.get(ids.ACCOUNT_VIEW);
    assert.deepEqual(await account?.getChildren(), ['balance']);
    assert.deepEqual(await account?.getTreeItem('balance'), { label: 'balance' });
    assert.deepEqual(await stub.serializers.get(ids.PIPELINE_NOTEBOOK)?.serializeNotebook({ cells: [] } as unknown as Vscode.NotebookData, token), new Uint8Array([1]));
    const doc = await stub.editors.get(ids.TABLE_VIEW_TYPE)?.openCustomDocument({ path: '/r.csv' } as Vscode.Uri, {} as Vscode.CustomDocumentOpenContext, token);
    assert.deepEqual(doc?.uri, { path: '/r.csv' });
    await stub.editors.get(ids.TABLE_VIEW_TYPE)?.resolveCustomEditor(doc as Vscode.CustomDocument, {} as Vscode.WebviewPanel, token);
    assert.deepEqual(calls, ['resolved']);
    assert.equal(await stub.contents.get(ids.RESULT_SCHEME)?.provideTextDocumentContent({} as Vscode.Uri, token), 'a,b');
    assert.equal(loads, 1);
  });

  it('a view the features never gave says so instead of hanging', async () => {
    await assert.rejects(Promise.resolve(stub.trees.get(ids.REQUESTS_VIEW)?.getChildren()), /the view walletAnalyticsRequests was not registered/u);
  });
});
