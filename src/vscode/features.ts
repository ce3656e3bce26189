/**
 * The extension's features, built together on their first use: src/extension.ts registers a stand-in
 * for every declared command, tool, view, the pipeline serializer and the table editor
 * (src/vscode/base/standIns.ts) and loads this module (its own bundle, dist/features.js, so undici,
 * zod and the catalog are neither read nor run until then) when one of them is first used, or when
 * a query file is open, whose language features are needed at once. The real handlers reach the
 * stand-ins through src/vscode/base/handOver.ts. Data flows as the architecture describes:
 * services first, then the commands, languages, views and watches over them.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { useBundle } from '../shared/l10n';
import type { CallLog } from '../core/transport/api';
import { QueryRunCache } from '../core/query/runCache';
import { Storage } from '../core/storage';
import { filesNamedBy, InputFiles } from '../core/jobs/inputFiles';
import { ENDPOINTS } from '../core/spec/catalog';
import { errorText } from '../core/errors';
import { CallService } from './calls/callService';
import { registerAnalysisCommands } from './analysis';
import { CodeCopier, registerCopyAsCode } from './commands/copyAsCode';
import { PriceQuestions } from './calls/priceStep';
import { registerPagesCommands } from './calls/pages';
import { reconcileInHistory } from '../core/calls/reconcile';
import { registerApiKeyCommands } from './commands/apiKey';
import { registerProfileCommands } from './commands/profiles';
import { ContextKeys } from './base/ids';
import { registerEndpointCommands } from './commands/endpoints';
import { registerPipelineLanguage } from './pipeline/pipelineLanguage';
import { registerPipelineNotebook } from './pipeline/pipelineNotebook';
import { registerSandboxAndResultCommands } from './commands/sandbox';
import { registerGetStartedCommand } from './commands/walkthrough';
import { readSettings } from './base/settings';
import { Connection } from './base/connection';
import { ContextKeySetter } from './base/contextKeys';
import { CreditsService } from './base/credits';
import { JobService } from './jobs/jobService';
import { sweepResultsFolderInBackground } from './jobs/resultsFolder';
import { registerQueryLanguage } from './language';
import { Log } from './base/log';
import { PersonQuestions } from './base/personQuestions';
import { registerResultScheme } from './results/open';
import { ApiKeyStore } from './base/secrets';
import { ProfileService } from './base/profiles';
import { registerTableEditor, type TableTestHooks } from './table/tableEditor';
import type { Services } from './services';
import { ProfileStatus } from './views/profileStatus';
import { HistoryService } from './base/history';
import { WorkspaceSettingsGuard } from './base/workspaceSettings';
import { registerSidebar, type Sidebar } from './views/sidebar';
import { WatchService } from './watch/watchService';
import { AgentAllowance } from './base/agentAllowance';
import { registerAgentTools, type AgentTools } from './agents/agentTools';
import { registerWatches } from './watch/watchCommands';
import { milliseconds } from '../core/numberText';
import { useStandIns } from './base/handOver';
import type { StandInSink } from './base/standIns';

/**
 * Only under VS Code's test runner (ExtensionMode.Test): what the integration suite drives. It
 * holds the key and can spend, so an installed extension returns nothing (src/vscode/base/exports.ts).
 */
export interface TestSurface {
  readonly services: Services;
  /** The time inside the entry's activate() (what VS Code waits for). */
  readonly activationMs: number;
  /** From activate()'s start to every feature built (their first use came in between). */
  readonly featuresMs: number;
  /** performance.now() when the features were built: after activate() returned, never inside it. */
  readonly builtAt: number;
  /** The Wallet Analytics view container: Account and Requests views, credits status bar item. */
  readonly sidebar: Sidebar;
  /** The context, so tests can reach this extension's SecretStorage, log and storage folders. */
  readonly context: vscode.ExtensionContext;
  readonly table?: TableTestHooks;
  /** The price questions asked, and a stand-in for the person's click (answerForTests). */
  readonly prices: PriceQuestions;
  /** Set API Key's and the profile commands' boxes and confirmations, and a stand-in for the person (answerForTests). */
  readonly questions: PersonQuestions;
  /** Finds a workspace's attempts to set user-only settings, and tells the person once. */
  readonly workspaceSettings: WorkspaceSettingsGuard;
  /** Copy as Code: its languageForTests stands in for the person's pick. */
  readonly copier: CodeCopier;
  /** The watches: their store, runner and what they told. */
  readonly watches: WatchService;
  /** The language-model tools by name, to call as a chat would (with or without a chat's token). */
  readonly agentTools: AgentTools;
  /** The window's poll interval in ms for a suite (HistoryService.intervalForTests); undefined: the setting again. */
  readonly pollEvery: (ms: number | undefined) => void;
}

function logCall(log: Log, e: CallLog): void {
  const credits = e.charged !== undefined ? `, ${e.charged} credits` : e.quoted ? `, ${e.quoted} credits quoted (charge unknown)` : '';
  const outcome = e.status ?? `no answer (${e.error ?? 'unknown'})`;
  const line = `${e.method} ${e.path} → ${outcome} in ${Math.round(e.durationMs)} ms${credits}${e.attempt > 1 ? ` (attempt ${e.attempt})` : ''}${e.willRetry ? ', will retry' : ''}`;
  if (e.status !== undefined && e.status < 400) log.info(line);
  else log.warn(line);
}

/** What the thin entry hands the features (src/extension.ts). */
export interface FromEntry {
  /** performance.now() when activate() began, and how long it took. */
  readonly started: number;
  readonly activationMs: number;
  /** The log channel the entry made to say it was activated. */
  readonly channel: vscode.LogOutputChannel;
  /** The entry's stand-ins, which take the real handlers. */
  readonly standIns: StandInSink;
  /** Told as the status context key is first set here: the entry's early answer sets it no more (src/vscode/base/firstAnswer.ts). */
  readonly statusSet?: () => void;
}

/**
 * Everything activate() used to build at once, built on the first use of any feature (src/extension.ts):
 * the services, every command's real handler, the views, the query language, the table editor.
 */
export async function activateFeatures(context: vscode.ExtensionContext, entry: FromEntry): Promise<TestSurface> {
  // Before anything registers: each id the entry holds a stand-in for goes to that stand-in.
  useStandIns(entry.standIns);
  // Every l10n.t in the host and the core reads VS Code's bundle for the display language.
  useBundle(vscode.l10n.bundle);
  const contextKeys = new ContextKeySetter((key) => {
    if (key === ContextKeys.status) entry.statusSet?.();
  });
  // Profiles (src/vscode/base/profiles.ts): each its base URL and key; the keys store acts on the one in use.
  // Every stored value, through one typed map of keys (src/core/storage.ts); long input lists in files
  // of the storage folder, not in the globalState VS Code loads before activate() (src/core/jobs/inputFiles.ts).
  const inputFiles = new InputFiles(context.globalStorageUri.fsPath);
  const storage = new Storage(context, inputFiles);
  const profiles = new ProfileService(storage);
  const keys = new ApiKeyStore(context.secrets, contextKeys, () => profiles.keyProfileId());
  const log = new Log(() => keys.peekAll(), entry.channel);
  const connection = new Connection(keys, contextKeys, log, (e) => logCall(log, e), profiles);
  // One history reader and one pace for the window: the poller, every view and the budgets share them.
  const history = new HistoryService(connection);
  const credits = new CreditsService(
    storage,
    (scope) => connection.apiFor(scope),
    () => connection.scope(),
    () => readSettings().quotaPeriodStart,
    // The budgets count every paid request of the account the history lists (issue 35 item 4).
    { last: (scope) => history.fetcher.peek(scope)?.records, read: (scope) => history.fetcher.get(scope) },
  );
  const unwatchHistory = history.fetcher.onDidFetch(() => credits.historyChanged());
  context.subscriptions.push({ dispose: unwatchHistory });
  const jobs = new JobService(context, storage, inputFiles, connection, log, history);
  const allowance = new AgentAllowance(storage);
  context.subscriptions.push(profiles, keys, log, connection, credits, jobs, history, allowance, new ProfileStatus(connection));
  const services: Services = { contextKeys, keys, log, connection, credits, jobs, storage, allowance };

  // The key and the profiles change only on the person's own answers to `questions`.
  const questions = new PersonQuestions();
  registerApiKeyCommands(context, services, questions);
  registerGetStartedCommand(context, {
    contextKeys,
    hasKey: () => (keys.peek() ?? '') !== '',
    sandbox: () => connection.mode === 'sandbox',
    onDidChange: (listener) => vscode.Disposable.from(keys.onDidChange(listener), connection.onDidChange(listener)),
  });
  registerProfileCommands(context, services, questions);
  registerResultScheme(context);
  // One call flow for every way a call starts; only the person's answers to `prices` spend.
  const prices = new PriceQuestions();
  const queryRuns = new QueryRunCache(path.join(context.globalStorageUri.fsPath, 'query-runs'));
  const copier = new CodeCopier(connection, storage);
  const calls = new CallService({
    connection,
    credits,
    jobs,
    log,
    storage,
    questions: prices,
    queryRuns,
    reconcile: (q) => reconcileInHistory(q.via.api, { endpointId: q.ep.id, input: q.input, sentAt: q.sentAt, progress: q.progress, known: (id) => jobs.store.get(id) !== undefined }),
    copyAsCode: (ep, input, ctx) => copier.copy(ep, input, { ctx }),
  });
  registerEndpointCommands(context, calls);
  registerPagesCommands(context, { connection, credits, jobs, log, questions: prices });
  registerSandboxAndResultCommands(context, { connection, jobs, showLog: () => log.channel.show(true) });
  const queryLanguage = registerQueryLanguage(context, services, calls, queryRuns);
  registerPipelineNotebook(context, { calls, questions: prices, connection, store: () => jobs.store, persons: questions, queryRuns, columns: () => queryLanguage.fields.ensure(), resultsFolder: () => jobs.folder() });
  registerPipelineLanguage(context, queryLanguage.fields);
  // AI agents' tools (issue 33): every paid one through the call flow above, within the allowance or asked.
  const agentTools = registerAgentTools(context, { calls, credits, connection, allowance, jobs, queryRuns, questions: prices, store: () => jobs.store });
  const table = registerTableEditor(context, { log, storage, resultsFolder: () => jobs.folder() });

  await keys.refresh();
  await contextKeys.set(ContextKeys.sandbox, false);
  if (readSettings().sandboxAutoStart || process.env.WALLET_ANALYTICS_SANDBOX === '1') await connection.startSandbox();
  // Built once the key and the sandbox are known, so the views open on the right content.
  const sidebar = registerSidebar(context, services, history);
  registerCopyAsCode(context, copier, {
    connection, jobs, storage, queries: queryLanguage.runner,
    historyItem: (id) => sidebar.requests.provider.model.get(id),
  });
  registerAnalysisCommands(context, {
    doneJobs: () => jobs.store.all().filter((j) => j.state === 'done'),
    resultsFolder: () => jobs.folder(),
    persons: questions,
    resultOfRequest: (id) => {
      const item = sidebar.requests.provider.model.get(id);
      if (!item) return Promise.reject(new Error('That request is no longer in the history.'));
      return sidebar.requests.files.ensure(item, connection.scope());
    },
  });
  // Watches (src/vscode/watch/): one window runs them; each run goes through the call flow above.
  const testMode = context.extensionMode === vscode.ExtensionMode.Test;
  const watches = new WatchService({
    calls, connection, credits, log, store: () => jobs.store,
    dir: path.join(context.globalStorageUri.fsPath, 'watches'),
    resultsFolder: () => jobs.folder(),
    // The test runner looks every half second, so a test interval of seconds runs on time.
    tickMs: testMode ? 500 : 30_000,
    testMode,
  });
  registerWatches(context, {
    watches, questions: prices, testMode, historyItem: (id) => sidebar.requests.provider.model.get(id),
    exporter: { persons: questions, baseUrl: () => connection.baseUrl() },
  });
  jobs.start();
  // Recent inputs saved whole by an earlier version move their long lists into files, once.
  const endpointIds = ENDPOINTS.map((e) => e.id);
  const recentMoved = storage.moveRecentLists(endpointIds).then(
    (n) => n > 0 && log.info(`Moved the long lists of ${n} endpoints' recent inputs into files.`),
    (e: unknown) => log.warn(`Recent inputs' long lists stay in the window's state: ${errorText(e)}`),
  );
  // Then the files no state names any more (a job trimmed from the records, an input no longer recent), a day old.
  void Promise.all([recentMoved, jobs.listsMoved])
    .then(() => inputFiles.prune(new Set(storage.storedInputs(endpointIds).flatMap(filesNamedBy))))
    .then(
      (n) => n > 0 && log.info(`Deleted ${n} files of long input lists no job or recent input names any more.`),
      (e: unknown) => log.warn(`Old input lists not cleaned up: ${errorText(e)}`),
    );
  // A workspace cannot choose where the key goes or how much may be spent; say so when one tries.
  const workspaceSettings = new WorkspaceSettingsGuard(storage);
  context.subscriptions.push(workspaceSettings);
  void workspaceSettings.check().catch((e: unknown) => log.warn(`Workspace settings not checked: ${String(e)}`));
  // A crash's .part files and extraction folders; fire-and-forget, so activation never waits on the disk.
  sweepResultsFolderInBackground(() => jobs.folder(), log);
  const builtAt = performance.now();
  const featuresMs = builtAt - entry.started;
  log.info(`Features ready ${milliseconds(featuresMs)} after activation began, at ${new Date().toISOString()}.`);
  return { services, activationMs: entry.activationMs, featuresMs, builtAt, sidebar, context, table, prices, questions, workspaceSettings, copier, watches, agentTools, pollEvery: (ms) => history.intervalForTests(ms) };
}
