/**
 * Every command id the extension registers, in one map. package.json must declare
 * exactly these (plus the catalog's generated endpoint commands); a test checks both ways.
 */
export const CommandIds = {
  setApiKey: 'walletAnalytics.setApiKey',
  clearApiKey: 'walletAnalytics.clearApiKey',
} as const;

export type CommandId = (typeof CommandIds)[keyof typeof CommandIds];

/** Context keys the extension sets, for `when` clauses in package.json. */
export const ContextKeys = {
  hasKey: 'walletAnalytics.hasKey',
} as const;
