import * as vscode from 'vscode';

/** Every setting the extension reads, typed, with its default in one place (package.json mirrors them). */
export interface Settings {
  readonly baseUrl: string;
  readonly confirmAbove: number;
  readonly maxCreditsPerCall: number;
  readonly resultsFolder: string;
  readonly activityPageBudget: number;
  readonly maxDownloadMB: number;
  readonly quotaPeriodStart: string;
  readonly openResultOnCompletion: boolean;
  readonly pollIntervalSeconds: number;
  readonly sandboxAutoStart: boolean;
  /** `table.neutralizeFormulas`: a `'` before cells a spreadsheet would run, in every export and copy. */
  readonly tableNeutralizeFormulas: boolean;
}

export const DEFAULTS: Settings = {
  baseUrl: 'https://api.wallet-analytics.invalid',
  confirmAbove: 1_000,
  maxCreditsPerCall: 1_000_000,
  resultsFolder: '',
  activityPageBudget: 20,
  maxDownloadMB: 4_096,
  quotaPeriodStart: '',
  openResultOnCompletion: false,
  pollIntervalSeconds: 5,
  sandboxAutoStart: false,
  tableNeutralizeFormulas: true,
};

export function readSettings(): Settings {
  const c = vscode.workspace.getConfiguration('walletAnalytics');
  const get = <K extends Exclude<keyof Settings, 'sandboxAutoStart'>>(k: K): Settings[K] => c.get<Settings[K]>(k, DEFAULTS[k]);
  return {
    baseUrl: get('baseUrl'),
    confirmAbove: get('confirmAbove'),
    maxCreditsPerCall: get('maxCreditsPerCall'),
    resultsFolder: get('resultsFolder'),
    activityPageBudget: get('activityPageBudget'),
    maxDownloadMB: get('maxDownloadMB'),
    quotaPeriodStart: get('quotaPeriodStart'),
    openResultOnCompletion: get('openResultOnCompletion'),
    pollIntervalSeconds: get('pollIntervalSeconds'),
    sandboxAutoStart: c.get<boolean>('sandbox.autoStart', DEFAULTS.sandboxAutoStart),
    tableNeutralizeFormulas: c.get<boolean>('table.neutralizeFormulas', DEFAULTS.tableNeutralizeFormulas),
  };
}
