/**
 * Every command id the extension registers, in one map. package.json must declare
 * exactly these (plus the catalog's generated endpoint commands); a test checks both ways.
 */
export const CommandIds = {
  setApiKey: 'walletAnalytics.setApiKey',
  clearApiKey: 'walletAnalytics.clearApiKey',
  startSandbox: 'walletAnalytics.startSandbox',
  stopSandbox: 'walletAnalytics.stopSandbox',
  showLog: 'walletAnalytics.showLog',
  /** A QuickPick of every endpoint, with its bot command and price. */
  runEndpoint: 'walletAnalytics.runEndpoint',
  /** From a notification or a view only (hidden from the palette). */
  retryDownload: 'walletAnalytics.retryDownload',
  /** From a notification or a view only (hidden from the palette). */
  openResult: 'walletAnalytics.openResult',
} as const;

/** Commands that need an argument from a view or notification, hidden from the palette. */
export const VIEW_ONLY_COMMANDS: readonly CommandId[] = [CommandIds.retryDownload, CommandIds.openResult];

export type CommandId = (typeof CommandIds)[keyof typeof CommandIds];

/** Context keys the extension sets, for `when` clauses in package.json. */
export const ContextKeys = {
  hasKey: 'walletAnalytics.hasKey',
  sandbox: 'walletAnalytics.sandbox',
} as const;
