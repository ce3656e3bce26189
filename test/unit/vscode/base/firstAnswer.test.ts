/**
 * The sidebar's first answer without the features (src/vscode/base/firstAnswer.ts, issue 34 item 1),
 * under a stub of `vscode`: with no key stored, the Requests view's first getChildren answers
 * "nothing to list" and the status context key is noKey, so its "Set API Key" welcome shows, with
 * the features' loader never called (counted, not timed); with a key stored and a real base URL, the
 * Account view's first rows (the features' own words) and the Requests view's "checking" welcome,
 * with the features' load started; with anything only the features can tell (the sandbox starting,
 * another profile, the placeholder base URL), there is no early answer and the view waits for them,
 * as before. Before this, every first answer loaded the features, and with a key stored the
 * sidebar was blank until they were built.
 */
import assert from 'node:assert/strict';
import Module from 'node:module';
import { describe, it } from 'node:test';
// Types only: the module itself is the stub below, put in place of `vscode` before the entry's modules load.
// eslint-disable-next-line no-restricted-imports
import type * as Vscode from 'vscode';
import { Disposable, EventEmitter } from '../../fixtures/vscodeClasses';

/** One window's worth of what the early answer reads, and the context keys it set. */
interface World {
  /** When set, every setContext is recorded as it is sent but completes only when this settles (a round trip held). */
  held?: Promise<void>;
  trusted: boolean;
  settings: Record<string, unknown>;
  secrets: Record<string, string>;
  globalState: Record<string, unknown>;
  contextKeys: Map<string, unknown>;
}

const world: World = { trusted: true, settings: {}, secrets: {}, globalState: {}, contextKeys: new Map() };
const trees = new Map<string, Vscode.TreeDataProvider<unknown>>();

function api(): unknown {
  const ok = (): Disposable => new Disposable(() => undefined);
  return {
    Disposable,
    EventEmitter,
    TreeItem: class {
      id?: string;
      description?: string;
      tooltip?: unknown;
      constructor(readonly label: string) {}
    },
    ThemeIcon: class {
      constructor(readonly id: string) {}
    },
    Uri: { joinPath: (base: { path: string }, ...parts: string[]) => ({ path: [base.path, ...parts].join('/') }) },
    commands: {
      registerCommand: ok,
      executeCommand: (id: string, key: string, value: unknown) => {
        assert.equal(id, 'setContext');
        world.contextKeys.set(key, value);
        return world.held ?? Promise.resolve();
      },
    },
    lm: { registerTool: ok },
    window: {
      createTreeView: (id: string, o: { treeDataProvider: Vscode.TreeDataProvider<unknown> }) => {
        trees.set(id, o.treeDataProvider);
        return { id, dispose: () => trees.delete(id) };
      },
      registerCustomEditorProvider: ok,
    },
    workspace: {
      get isTrusted() {
        return world.trusted;
      },
      getConfiguration: () => ({ get: (key: string) => world.settings[key], inspect: (key: string) => ({ globalValue: world.settings[key] }) }),
      registerNotebookSerializer: ok,
      registerTextDocumentContentProvider: ok,
    },
  };
}

const moduleWithLoad = Module as unknown as { _load: (request: string, ...rest: unknown[]) => unknown };
const realLoad = moduleWithLoad._load;
moduleWithLoad._load = function (request: string, ...rest: unknown[]): unknown {
  return request === 'vscode' ? api() : realLoad.call(this, request, ...rest);
};

function contextOf(w: World): Vscode.ExtensionContext {
  return {
    subscriptions: [],
    extensionUri: { path: '/ext' },
    globalState: { get: (key: string) => w.globalState[key] },
    secrets: { get: (key: string) => Promise.resolve(w.secrets[key]) },
  } as unknown as Vscode.ExtensionContext;
}

/** A window with no key stored, trusted, the sandbox off, no profile remembered; `change` on top. */
function freshWorld(change: Partial<World> = {}): void {
  Object.assign(world, { held: undefined, trusted: true, settings: {}, secrets: {}, globalState: {}, contextKeys: new Map() }, change);
  trees.clear();
}

describe('the sidebar answers first without the features', async () => {
  // Loaded after the stub is in place (a static import would require `vscode` first).
  const { answerEarly, earlySidebarState, startEarlyAnswer } = await import('../../../../src/vscode/base/firstAnswer');
  const { registerStandIns, declaredIn } = await import('../../../../src/vscode/base/standIns');
  type StandInSink = import('../../../../src/vscode/base/standIns').StandInSink;
  const ids = await import('../../../../src/vscode/base/ids');
  const { API_KEY_SECRET, SettingIds } = await import('../../../../src/core/ids');
  const { StorageKeys } = await import('../../../../src/core/storage');
  const declared = declaredIn({ contributes: { views: { walletAnalytics: [{ id: ids.ACCOUNT_VIEW }, { id: ids.REQUESTS_VIEW }, { id: ids.WATCHES_VIEW }] } } });

  /**
   * The entry's wiring (src/extension.ts): the stand-ins, with the early answer for the views it
   * covers. The loader waits, as the entry's does, until no early rows are on their way out
   * (rowsOut); its starts are counted, and `loaderCalled` settles at the first; the features never
   * finish here, so a view that waits for them waits on.
   */
  function activate(features: (sink: StandInSink) => Promise<unknown> = () => new Promise(() => undefined)): {
    loads: () => number;
    loaderCalled: Promise<string>;
    requests: Vscode.TreeDataProvider<unknown>;
    statusSet: () => void;
  } {
    let loads = 0;
    let called: (what: string) => void = () => undefined;
    const loaderCalled = new Promise<string>((r) => (called = r));
    const context = contextOf(world);
    const { earlyTree, statusSet, rowsOut } = startEarlyAnswer(context);
    let built: Promise<unknown> | undefined;
    const load = (): Promise<unknown> =>
      (built ??= rowsOut().then(() => {
        loads++;
        called('the features were loaded');
        return features(sink);
      }));
    const sink = registerStandIns(context, declared, load, undefined, earlyTree);
    const requests = trees.get(ids.REQUESTS_VIEW);
    assert.ok(requests, 'the Requests view has its stand-in');
    return { loads: () => loads, loaderCalled, requests, statusSet };
  }

  it('no key: the Requests view lists nothing and the status is noKey, with the features not loaded', async () => {
    freshWorld();
    const { loads, loaderCalled, requests } = activate();
    // The view's answer, or the features' loader called: whichever comes first.
    assert.deepEqual(await Promise.race([requests.getChildren(), loaderCalled]), []);
    assert.equal(world.contextKeys.get(ids.ContextKeys.status), 'noKey');
    assert.equal(world.contextKeys.get(ids.ContextKeys.errorKind), '');
    assert.equal(loads(), 0);
  });

  it('a key stored with the placeholder base URL (none set): no early answer, the view asks the features (a person with a key is never told to set one)', async () => {
    freshWorld({ secrets: { [API_KEY_SECRET]: 'k' } });
    const { loads, loaderCalled, requests } = activate();
    assert.equal(await Promise.race([requests.getChildren(), loaderCalled]), 'the features were loaded');
    assert.equal(loads(), 1);
    assert.equal(world.contextKeys.has(ids.ContextKeys.status), false);
  });

  it('what only the features can tell has no early answer: the sandbox starting, another profile', async () => {
    freshWorld({ settings: { [SettingIds.sandboxAutoStart]: true } });
    assert.equal(await earlySidebarState(contextOf(world)), undefined);
    freshWorld({ globalState: { [StorageKeys.activeProfile.key]: 'p2' } });
    assert.equal(await earlySidebarState(contextOf(world)), undefined);
    freshWorld({ globalState: { [StorageKeys.activeProfile.key]: 'default' } });
    assert.equal(await earlySidebarState(contextOf(world)), 'noKey');
    // A key with the placeholder base URL ("base URL not set" is the features' to say), or an empty key.
    freshWorld({ secrets: { [API_KEY_SECRET]: 'k' }, settings: { [SettingIds.baseUrl]: 'https://api.wallet-analytics.invalid' } });
    assert.equal(await earlySidebarState(contextOf(world)), undefined);
    freshWorld({ secrets: { [API_KEY_SECRET]: '' }, settings: { [SettingIds.baseUrl]: 'https://api.example.com' } });
    assert.equal(await earlySidebarState(contextOf(world)), undefined);
    freshWorld({ secrets: { [API_KEY_SECRET]: 'k' }, settings: { [SettingIds.baseUrl]: 'https://api.example.com' } });
    assert.equal(await earlySidebarState(contextOf(world)), 'checking');
  });

  it('a folder not trusted: untrusted, whatever the key (nothing is sent with it there)', async () => {
    freshWorld({ trusted: false, secrets: { [API_KEY_SECRET]: 'k' } });
    assert.equal(await earlySidebarState(contextOf(world)), 'untrusted');
  });

  it('once the features have set the status, the early answer sets no context key (theirs win)', async () => {
    freshWorld();
    assert.equal(await answerEarly(contextOf(world), () => true), 'noKey');
    assert.equal(world.contextKeys.size, 0);
    // Through the entry's wiring: the features' first status set, before the early read ends.
    const { statusSet, requests } = activate();
    statusSet();
    await requests.getChildren();
    assert.equal(world.contextKeys.has(ids.ContextKeys.status), false);
  });

  it('the Account view asking first (the features loading) still leaves the Requests view its early "no key"', async () => {
    // Opening the sidebar asks the Account view first: it loads the features, which take seconds on a
    // busy machine. Until their status is set, the early answer is still the one to show.
    freshWorld();
    const { loads, loaderCalled, requests } = activate();
    const account = trees.get(ids.ACCOUNT_VIEW);
    void account?.getChildren();
    await loaderCalled;
    assert.deepEqual(await requests.getChildren(), []);
    assert.equal(world.contextKeys.get(ids.ContextKeys.status), 'noKey');
    assert.equal(loads(), 1);
  });

  it('sends the status with the error kind, not a round trip after it (each set is a round trip to the workbench)', async () => {
    // With the status sent only once the kind's set came back, the welcome waited one more round
    // trip, which the features' loading holds up: it was drawn after them in most quiet rounds.
    let release: () => void = () => undefined;
    freshWorld({ held: new Promise<void>((r) => (release = r)) });
    const answered = answerEarly(contextOf(world), () => false);
    // The stub's secret read is settled: a turn of the loop lets the answer send what it sends at once.
    await new Promise<void>((r) => setImmediate(r));
    assert.equal(world.contextKeys.get(ids.ContextKeys.errorKind), '', 'the kind is sent');
    assert.equal(world.contextKeys.get(ids.ContextKeys.status), 'noKey', 'the status is sent in the same turn, before the kind\'s set has come back');
    release();
    assert.equal(await answered, 'noKey');
  });

  it('no key: the Account view is not answered early (its "not set" rows are the features\')', async () => {
    freshWorld();
    const { loaderCalled } = activate();
    const account = trees.get(ids.ACCOUNT_VIEW);
    assert.equal(await Promise.race([account?.getChildren(), loaderCalled]), 'the features were loaded');
  });

  /** The label and description of each row a view's root lists now. */
  async function rowsOf(view: Vscode.TreeDataProvider<unknown> | undefined): Promise<string[]> {
    assert.ok(view);
    const rows = (await view.getChildren()) ?? [];
    return Promise.all(rows.map(async (r) => {
      const item = await view.getTreeItem(r);
      return `${String(item.label)}: ${String(item.description)}`;
    }));
  }

  it('a key stored and a real base URL: the Account view\'s first rows and the Requests view\'s "checking" at once, the features loading to check', async () => {
    // Before, the Account view's first answer waited for the features (half a second after the click
    // quietly, seconds on a busy machine): a blank sidebar for the usual trader.
    freshWorld({ secrets: { [API_KEY_SECRET]: 'k' }, settings: { [SettingIds.baseUrl]: 'https://api.example.com/v1/' } });
    const { loads, loaderCalled, requests } = activate();
    const account = trees.get(ids.ACCOUNT_VIEW);
    // The rows, or (as before) the view waiting on the features, which never finish here: the loader
    // called and a turn of the event loop gone by (every promise the rows need settles within the turn).
    const waited = loaderCalled.then(() => new Promise<string>((r) => setImmediate(() => r('the view waited for the features'))));
    // (Before, the first getChildren waited on the features, whose loader was called at once.)
    const rows = await Promise.race([rowsOf(account), waited]);
    assert.deepEqual(rows, ['Profile: Default', 'API key: set (in SecretStorage)', 'Base URL: api.example.com/v1', 'Connection: checking…', 'Balance: —']);
    // The rows say the key is being checked: the features (whose ConnectionStatus checks it) load next,
    // once the rows are on their way (not in the turn that answers them: their bundle holds the thread).
    assert.equal(loads(), 0, 'the features are not required in the turn that answers the rows');
    assert.equal(await loaderCalled, 'the features were loaded');
    assert.equal(world.contextKeys.get(ids.ContextKeys.status), 'checking');
    assert.deepEqual(await requests.getChildren(), [], 'the Requests view lists nothing: its "checking" welcome shows');
  });

  /** Settles with `what` after a few turns of the event loop (timers and check phases): long past anything that does not wait on a round trip. */
  const turns = (what: string): Promise<string> =>
    new Promise<string>((r) => setTimeout(() => setImmediate(() => setTimeout(() => setImmediate(() => r(what)), 0)), 0));

  it('a key stored: the Account view\'s early rows do not wait for the context keys\' round trip', async () => {
    // The keys are sent first (VS Code keeps the messages' order); before, the rows were answered only
    // once the keys' set had come back from the workbench, a round trip the features' loading held up.
    let release: () => void = () => undefined;
    freshWorld({ secrets: { [API_KEY_SECRET]: 'k' }, settings: { [SettingIds.baseUrl]: 'https://api.example.com' }, held: new Promise<void>((r) => (release = r)) });
    activate();
    const account = trees.get(ids.ACCOUNT_VIEW);
    const rows = await Promise.race([rowsOf(account), turns('the rows waited for the keys')]);
    assert.equal(Array.isArray(rows) ? rows.length : rows, 5);
    assert.equal(world.contextKeys.get(ids.ContextKeys.status), 'checking', 'the status was sent before the rows');
    release();
    await turns('this window settled');
  });

  it('a key stored: the features load once a round trip sent after the early rows has come back, not before, though the Watches view asks at once', async () => {
    // Their bundle's require holds the extension host's thread; VS Code's reply with the rows is
    // written in a timer and then through the socket. Before, the Watches view (no early answer),
    // asked in the same turn as the Account view, started the load at once, and the Account view's
    // own load came a timer and a check phase after its rows: the rows were drawn with the features.
    let release: () => void = () => undefined;
    // What an earlier test's views sent a timer after their answers is sent before this window opens.
    await turns('the tests before settled');
    freshWorld({ secrets: { [API_KEY_SECRET]: 'k' }, settings: { [SettingIds.baseUrl]: 'https://api.example.com' } });
    const { loads, loaderCalled } = activate();
    const account = trees.get(ids.ACCOUNT_VIEW);
    const watches = trees.get(ids.WATCHES_VIEW);
    assert.ok(account && watches);
    // The keys' sets came back; from now on every round trip is held.
    await turns('the keys set');
    world.held = new Promise<void>((r) => (release = r));
    // The sidebar opened: its views ask together (the Watches view waits for the features).
    const rows = account.getChildren();
    void watches.getChildren();
    assert.equal(((await rows) ?? []).length, 5);
    assert.equal(world.contextKeys.has(ids.ContextKeys.earlyRowsHanded), false, 'nothing is sent in the turn that answers the rows');
    assert.equal(await Promise.race([loaderCalled, turns('the features waited')]), 'the features waited');
    assert.equal(loads(), 0);
    assert.equal(world.contextKeys.get(ids.ContextKeys.earlyRowsHanded), ids.ACCOUNT_VIEW, 'the round trip was sent, after the rows');
    release();
    assert.equal(await loaderCalled, 'the features were loaded');
    assert.equal(loads(), 1);
  });

  it('the early rows stay answered until the features redraw the view with theirs', async () => {
    freshWorld({ secrets: { [API_KEY_SECRET]: 'k' }, settings: { [SettingIds.baseUrl]: 'https://api.example.com' } });
    const real: Vscode.TreeDataProvider<string> = { getChildren: () => ['real row'], getTreeItem: (e) => new (api() as { TreeItem: new (l: string) => Vscode.TreeItem }).TreeItem(e) };
    let land: () => void = () => undefined;
    const landed = new Promise<void>((r) => (land = r));
    const { loaderCalled } = activate(async (sink) => {
      await landed;
      sink.treeView(ids.ACCOUNT_VIEW, real as Vscode.TreeDataProvider<unknown>);
    });
    const account = trees.get(ids.ACCOUNT_VIEW);
    assert.ok(account?.onDidChangeTreeData);
    let redrawn = 0;
    account.onDidChangeTreeData(() => redrawn++);
    const early = (await account.getChildren()) ?? [];
    assert.equal(early.length, 5);
    await loaderCalled;
    land();
    await new Promise<void>((r) => setImmediate(r));
    assert.equal(redrawn, 1, 'the features\' coming redraws the view');
    // VS Code may still ask about a row it was given before: the early answer draws it, not the features' provider.
    assert.equal((await account.getTreeItem(early[0])).label, 'Profile');
    assert.deepEqual(await account.getChildren(early[0]), []);
    assert.deepEqual(await rowsOf(account), ['real row: undefined']);
  });

  it('the early rows\' profile name is the Default profile\'s', async () => {
    const { DEFAULT_PROFILE_NAME } = await import('../../../../src/core/transport/profiles');
    const { EARLY_PROFILE_NAME } = await import('../../../../src/vscode/base/firstAnswer');
    assert.equal(EARLY_PROFILE_NAME, DEFAULT_PROFILE_NAME);
  });
});
