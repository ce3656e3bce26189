/**
 * Every command id the extension registers, in one map. package.json must declare
 * exactly these (plus the catalog's generated endpoint commands); a test checks both ways.
 */
export const CommandIds = {
  setApiKey: 'walletAnalytics.setApiKey',
  clearApiKey: 'walletAnalytics.clearApiKey',
  // ---- profiles (src/vscode/commands/profiles.ts) ----
  addProfile: 'walletAnalytics.addProfile',
  /** Also the profile status bar item's click and the Account view's profile row. */
  switchProfile: 'walletAnalytics.switchProfile',
  renameProfile: 'walletAnalytics.renameProfile',
  removeProfile: 'walletAnalytics.removeProfile',
  startSandbox: 'walletAnalytics.startSandbox',
  stopSandbox: 'walletAnalytics.stopSandbox',
  showLog: 'walletAnalytics.showLog',
  /** A .csv, .txt or .json file (or a result folder) in the Wallet Analytics Table: the argument, the active file, or a picked one. */
  openInTable: 'walletAnalytics.openInTable',
  /** A QuickPick of every endpoint, with its bot command and price. */
  runEndpoint: 'walletAnalytics.runEndpoint',
  /** Continues a partial page read (activity, token creators): the argument (a path or Uri), or a picked file. */
  resumePages: 'walletAnalytics.resumePages',
  /** From a notification or a view only (hidden from the palette). */
  retryDownload: 'walletAnalytics.retryDownload',
  /** From a notification or a view only (hidden from the palette). */
  openResult: 'walletAnalytics.openResult',
  // ---- the sidebar (src/vscode/views/) ----
  /** Focuses the Account view (the credits status bar item's click). */
  showAccount: 'walletAnalytics.showAccount',
  refreshAccount: 'walletAnalytics.refreshAccount',
  /** Also the welcome view's "Retry". */
  refreshRequests: 'walletAnalytics.refreshRequests',
  filterRequests: 'walletAnalytics.filterRequests',
  searchRequests: 'walletAnalytics.searchRequests',
  clearRequestsFilter: 'walletAnalytics.clearRequestsFilter',
  /** From the Requests view only (hidden from the palette): they act on a row. */
  openRequest: 'walletAnalytics.openRequest',
  revealRequest: 'walletAnalytics.revealRequest',
  downloadRequestAgain: 'walletAnalytics.downloadRequestAgain',
  copyRequestId: 'walletAnalytics.copyRequestId',
  rerunRequest: 'walletAnalytics.rerunRequest',
  useResultAsInput: 'walletAnalytics.useResultAsInput',
  showMoreRequests: 'walletAnalytics.showMoreRequests',
  openRequestFile: 'walletAnalytics.openRequestFile',
  // ---- .waquery.json files (src/vscode/language/) ----
  /** Creates an example query file, with comments explaining the model. */
  newQuery: 'walletAnalytics.newQuery',
  /** Reads the queryable fields from the server again (free) and re-checks open queries. */
  refreshQueryFields: 'walletAnalytics.refreshQueryFields',
  /** The query file's CodeLens "▶ Run" (also the editor title's play button). */
  runQuery: 'walletAnalytics.runQuery',
  runQueryOnSecondChain: 'walletAnalytics.runQueryOnSecondChain',
  /** The exact price of running a query again, from its run since the last hourly refresh. */
  estimateQuery: 'walletAnalytics.estimateQuery',
  /** A call as the runner's command line (or Python, TypeScript or PowerShell that run it), to the clipboard: from a Requests item, a query file, the price step or the palette. */
  copyAsCode: 'walletAnalytics.copyAsCode',
  // ---- the table (src/vscode/table/) ----
  /** Exports the active table's shown rows and columns to a CSV file (the toolbar's Export…; Ctrl/Cmd+Alt+E). */
  exportTable: 'walletAnalytics.exportTable',
  // ---- analysis on results (src/vscode/analysis/) ----
  /** Two results compared by address, in the table: the arguments (an Explorer selection, paths), else two picks. */
  compareResults: 'walletAnalytics.compareResults',
  /** The same with A given: a Requests item or the table's title bar (hidden from the palette). */
  compareWith: 'walletAnalytics.compareWith',
  /** Intersect, union or subtract the addresses of two or more results into a list file. */
  addressSets: 'walletAnalytics.addressSets',
  /** Writes a Jupyter notebook (pandas, DuckDB) of the active table's view beside its result, and opens it. */
  openInNotebook: 'walletAnalytics.openInNotebook',
  // ---- pipelines (src/vscode/pipeline/pipelineNotebook.ts) ----
  newPipeline: 'walletAnalytics.newPipeline',
  pipelineOpenResult: 'walletAnalytics.pipelineOpenResult',
  pipelineRefreshCell: 'walletAnalytics.pipelineRefreshCell',
  /** Writes the command-line runner (wallet-analytics.cjs) beside the open pipeline, with a workflow and a cron line for a schedule (src/vscode/pipeline/exportPipeline.ts). */
  exportPipelineScript: 'walletAnalytics.exportPipelineScript',
  /** Saved views of the active table (its sort, filters, chosen columns and number formats), per endpoint. */
  saveTableView: 'walletAnalytics.saveTableView',
  applyTableView: 'walletAnalytics.applyTableView',
  deleteTableView: 'walletAnalytics.deleteTableView',
  // ---- watches (src/vscode/watch/) ----
  /** A past request (Requests item), a query file or a pipeline, re-run on a schedule; its price per run approved once. */
  watchThis: 'walletAnalytics.watchThis',
  /** The Watches view's row switch (hidden from the palette). */
  pauseWatch: 'walletAnalytics.pauseWatch',
  resumeWatch: 'walletAnalytics.resumeWatch',
  runWatchNow: 'walletAnalytics.runWatchNow',
  approveWatchAgain: 'walletAnalytics.approveWatchAgain',
  removeWatch: 'walletAnalytics.removeWatch',
  /** The watch for the command-line runner (wallet-analytics.cjs), with a GitHub Actions workflow and a crontab line on its schedule (hidden from the palette). */
  exportWatch: 'walletAnalytics.exportWatch',
  /** The last result's Changes table (or the result) of a watch (hidden from the palette). */
  openWatchResult: 'walletAnalytics.openWatchResult',
  // ---- the Getting Started walkthrough (package.json contributes.walkthroughs) ----
  /** Opens the walkthrough: key or sandbox, a first call with its price, the table, a query file. */
  getStarted: 'walletAnalytics.getStarted',
} as const;

/** Context keys the extension sets, for `when` clauses in package.json. */
export const ContextKeys = {
  hasKey: 'walletAnalytics.hasKey',
  sandbox: 'walletAnalytics.sandbox',
  /** The sidebar's connection state, for its welcome views: noKey | noBaseUrl | checking | ok | offline | refused. */
  status: 'walletAnalytics.status',
  /** With status offline: the error's kind (network, server, rateLimited, insecureUrl, …). */
  errorKind: 'walletAnalytics.errorKind',
  /** The Requests view has a filter or search in force. */
  requestsFiltered: 'walletAnalytics.requestsFiltered',
  /** The walkthrough's first step: a key or the sandbox in use, set only once the walkthrough showed (commands/walkthrough.ts). */
  walkthroughKeyOrSandbox: 'walletAnalytics.walkthrough.keyOrSandbox',
  /** The view whose early rows were last handed to VS Code (src/vscode/base/firstAnswer.ts): set for its round trip, sent after the rows. */
  earlyRowsHanded: 'walletAnalytics.earlyRowsHanded',
} as const;

/** The Requests view's id (package.json contributes.views): the sidebar creates it, the price step focuses it. */
export const REQUESTS_VIEW = 'walletAnalyticsRequests';

/** The sidebar's other views (package.json contributes.views). */
export const ACCOUNT_VIEW = 'walletAnalyticsAccount';
export const WATCHES_VIEW = 'walletAnalyticsWatches';

/** The pipeline notebook's type (package.json contributes.notebooks) and its controller. */
export const PIPELINE_NOTEBOOK = 'wallet-analytics-pipeline';
export const PIPELINE_CONTROLLER = 'wallet-analytics-pipeline-runner';

/** The read-only scheme for a result's raw text, so a result is never edited by accident. */
export const RESULT_SCHEME = 'wallet-analytics-result';

/** The table's custom editor (package.json contributes.customEditors). */
export const TABLE_VIEW_TYPE = 'walletAnalytics.table';

/** The query files' language (package.json contributes.languages; onLanguage:waquery activates the extension). */
export const WAQUERY_LANGUAGE = 'waquery';

/** The log channel's name: the thin entry makes it (src/extension.ts), the features' Log writes to it. */
export const LOG_CHANNEL = 'Wallet Analytics';

/** The status bar items' ids (the person can hide each by it). */
export const StatusBarIds = {
  credits: 'walletAnalytics.credits',
  profile: 'walletAnalytics.profile',
} as const;

/** The diagnostic collections' names. */
export const DiagnosticIds = {
  query: 'walletAnalytics.query',
  pipeline: 'walletAnalytics.pipeline',
} as const;

/** The id of the Getting Started walkthrough in package.json (contributes.walkthroughs); a test checks they agree. */
export const WALKTHROUGH_ID = 'gettingStarted';
