/**
 * The thin entry VS Code loads (issue 34 item 1). Activation registers a stand-in for everything
 * VS Code may ask for at once (src/vscode/base/standIns.ts: every declared command and tool, the
 * sidebar's views, the pipeline serializer, the table editor, the result scheme), right after the
 * activate() call VS Code times, and waits for nothing: VS Code holds every command's run until the
 * promise activate() returns resolves. The features (src/vscode/features.ts: the services, views, languages and every
 * real handler) are a dynamic import, which esbuild builds as their own bundle (dist/features.js,
 * esbuild.mjs), loaded on the first use of any stand-in, or as soon as a query file is open (its
 * completion, hovers and CodeLens are needed at once). Under the test runner activate() resolves with
 * its test surface, a promise of the built features.
 */
// First, before `vscode`: the clock of the entry's own loading starts as its bundle starts to run.
import { entryLoadStarted } from './vscode/base/loadClock';
import type * as vscode from 'vscode';
import { vscodeApi } from './vscode/base/vscodeLater';
import { exportsFor } from './vscode/base/exports';
import { startEarlyAnswer } from './vscode/base/firstAnswer';
import { LOG_CHANNEL, WAQUERY_LANGUAGE } from './vscode/base/ids';
import { declaredIn, registerStandIns } from './vscode/base/standIns';
import type { Services } from './vscode/services';
import type { Sidebar } from './vscode/views/sidebar';
import type { TestSurface } from './vscode/features';

/** What activate() returns under the test runner; outside it, nothing (src/vscode/base/exports.ts). */
export interface ExtensionExports {
  /** Loads the features (once) and resolves when they are built. */
  readonly testing: Promise<TestSurface>;
}

/** The integration suite's view of the exports (test/integration/support.ts api()): the services and sidebar up front. */
export interface ExtensionApi {
  readonly services: Services;
  readonly activationMs: number;
  readonly sidebar: Sidebar;
  readonly testing: TestSurface;
}

/** The entry's module has run: from entryLoadStarted to here is what of VS Code's code loading happens inside our bundle. */
const entryLoaded = performance.now();

/** After the current task: VS Code records the activation as done before the features' bundle is read. */
const afterActivation = (): Promise<void> => new Promise((r) => setImmediate(r));

/**
 * VS Code's own activation figure (Running Extensions, "Activation: N ms") is codeLoadingTime +
 * activateCallTime: the require() of this file and this call up to its return, each by Date.now()
 * in the extension host (extHostExtensionService.ts, ExtensionActivationTimesBuilder). The promise
 * returned is timed apart (activateResolvedTime, not shown there), and VS Code waits for it before
 * it counts the extension activated and runs the command, view or language that activated it. So
 * the call only schedules: everything is registered in the microtask right after it returns, one
 * step, before that promise resolves (every declared id exists by then; nothing is registered twice).
 */
export function activate(context: vscode.ExtensionContext): Promise<ExtensionExports | undefined> {
  const started = performance.now();
  return Promise.resolve().then(() => registerAll(context, started));
}

/** The stand-ins, the log channel and the query-file watch: what activation does, right after the call VS Code times. */
function registerAll(context: vscode.ExtensionContext, started: number): ExtensionExports | undefined {
  const begun = performance.now();
  const channel = vscodeApi().window.createOutputChannel(LOG_CHANNEL, { log: true });
  context.subscriptions.push(channel);
  const costs = [`the log channel ${(performance.now() - begun).toFixed(1)} ms`];
  let activationMs = 0;
  let features: Promise<TestSurface> | undefined;
  // The sidebar's first answer from one SecretStorage read, not the features (a person with no key
  // sees "Set API Key" at once; one with a key, the Account view's first rows while the connection is
  // checked); it stops as the features' ConnectionStatus first sets the status.
  let lap = performance.now();
  const early = startEarlyAnswer(context);
  costs.push(`the early answer's reads ${(performance.now() - lap).toFixed(1)} ms`);
  const load = (): Promise<TestSurface> =>
    // Not while a view's early rows are on their way out: the bundle's require holds the thread.
    (features ??= early.rowsOut().then(() => import('./vscode/features')).then(
      (f) => f.activateFeatures(context, { started, activationMs, channel, standIns, statusSet: early.statusSet }),
      (e: unknown) => {
        channel.error(`The features did not load: ${String(e)}`);
        throw e;
      },
    ));
  const standIns = registerStandIns(context, declaredIn(context.extension.packageJSON), load, (what, ms) => costs.push(`${what} ${ms.toFixed(1)} ms`), (id) =>
    early.earlyTree(id).then((tree) => {
      // Written with the clock (bench/activationBench.ts reads it): when a view's early rows were handed to VS Code.
      if (tree) channel.info(`Early answer for ${id}: ${tree.roots.length} rows at ${new Date().toISOString()}`);
      return tree;
    }),
  );
  // A key stored meanwhile (in another window) is news only the features can tell: they load.
  lap = performance.now();
  context.subscriptions.push(context.secrets.onDidChange(() => void early.state.then((s) => (s === undefined ? undefined : load())).catch(() => undefined)));
  // A query file open now, or opened later, needs its language features without a command first.
  const loadSoon = (): void => void afterActivation().then(load).catch(() => undefined);
  if (vscodeApi().workspace.textDocuments.some((d) => d.languageId === WAQUERY_LANGUAGE)) loadSoon();
  else {
    const opened = vscodeApi().workspace.onDidOpenTextDocument((d) => {
      if (d.languageId !== WAQUERY_LANGUAGE) return;
      opened.dispose();
      loadSoon();
    });
    context.subscriptions.push(opened);
  }
  costs.push(`the key and query-file watches ${(performance.now() - lap).toFixed(1)} ms`);
  activationMs = performance.now() - started;
  // The clock is written out: a new channel's first lines are stamped when its file opens, which can
  // be seconds later when the features' load holds the thread (bench/activationBench.ts reads it, and
  // each kind of registration's cost).
  channel.info(
    `Activated in ${activationMs.toFixed(1)} ms at ${new Date().toISOString()} (every command and view registered; the features load on first use). ` +
      `Loading the entry ${(entryLoaded - entryLoadStarted).toFixed(1)} ms (the \`vscode\` object first), then ${(started - entryLoaded).toFixed(1)} ms to the call. ` +
      `From the call to the registrations ${(begun - started).toFixed(1)} ms. Then: ${costs.join(', ')}.`,
  );
  // Only under the test runner is the load started here (a promise built for exportsFor() would start it everywhere).
  if (context.extensionMode !== vscodeApi().ExtensionMode.Test) return undefined;
  return exportsFor(context.extensionMode, { testing: afterActivation().then(load) });
}

export function deactivate(): void {
  // Everything is disposed through context.subscriptions.
}
