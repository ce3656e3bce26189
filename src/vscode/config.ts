import * as vscode from 'vscode';
import { SETTINGS_SECTION, USER_ONLY_KEYS, type UserOnlyKey } from '../core/userOnlySettings';

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
  /** `walletAnalytics.jobs.stalledAfterHours`: a job pending longer is stalled and polled no more. */
  readonly jobsStalledAfterHours: number;
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
  jobsStalledAfterHours: 24,
  tableNeutralizeFormulas: true,
};

/**
 * A user-only setting (core/userOnlySettings.ts): the user's own value or the default, never a
 * workspace's or a folder's, whatever VS Code would merge.
 */
function userValue<K extends UserOnlyKey>(c: vscode.WorkspaceConfiguration, k: K): Settings[K] {
  const v = c.inspect<Settings[K]>(k)?.globalValue;
  return typeof v === typeof DEFAULTS[k] ? (v as Settings[K]) : DEFAULTS[k];
}

/** The user-only settings a workspace or folder tries to set (VS Code reports them; they are ignored). */
export function workspaceUserOnlyValues(): UserOnlyKey[] {
  const c = vscode.workspace.getConfiguration(SETTINGS_SECTION);
  return USER_ONLY_KEYS.filter((k) => {
    const i = c.inspect(k);
    return i?.workspaceValue !== undefined || i?.workspaceFolderValue !== undefined;
  });
}

export function readSettings(): Settings {
  const c = vscode.workspace.getConfiguration(SETTINGS_SECTION);
  const get = <K extends Exclude<keyof Settings, 'sandboxAutoStart'>>(k: K): Settings[K] => c.get<Settings[K]>(k, DEFAULTS[k]);
  return {
    baseUrl: userValue(c, 'baseUrl'),
    confirmAbove: userValue(c, 'confirmAbove'),
    maxCreditsPerCall: userValue(c, 'maxCreditsPerCall'),
    resultsFolder: get('resultsFolder'),
    activityPageBudget: userValue(c, 'activityPageBudget'),
    maxDownloadMB: userValue(c, 'maxDownloadMB'),
    quotaPeriodStart: get('quotaPeriodStart'),
    openResultOnCompletion: get('openResultOnCompletion'),
    pollIntervalSeconds: get('pollIntervalSeconds'),
    sandboxAutoStart: c.get<boolean>('sandbox.autoStart', DEFAULTS.sandboxAutoStart),
    jobsStalledAfterHours: c.get<number>('jobs.stalledAfterHours', DEFAULTS.jobsStalledAfterHours),
    tableNeutralizeFormulas: c.get<boolean>('table.neutralizeFormulas', DEFAULTS.tableNeutralizeFormulas),
  };
}

/** VS Code's own proxy settings (section `http`), as src/core/proxy.ts takes them. */
export interface ProxySettings {
  readonly proxy: string | undefined;
  readonly strictSSL: boolean;
  readonly noProxy: string[];
  readonly proxyAuthorization: string | undefined;
}

/** The `http.*` settings that decide the proxy: a change to any of them rebuilds the clients. */
export const PROXY_SETTING_KEYS = ['http.proxy', 'http.proxyStrictSSL', 'http.noProxy', 'http.proxyAuthorization'] as const;

/**
 * The proxy settings from the user's own values only (globalValue), like the user-only
 * walletAnalytics settings: a workspace that could set http.proxy could route the key through a
 * proxy of its choosing, or turn off certificate checks, so its values are never read.
 */
export function readProxySettings(): ProxySettings {
  const c = vscode.workspace.getConfiguration('http');
  const user = <T>(k: string): unknown => c.inspect<T>(k)?.globalValue;
  const proxy = user<string>('proxy');
  const strict = user<boolean>('proxyStrictSSL');
  const noProxy = user<string[]>('noProxy');
  const auth = user<string>('proxyAuthorization');
  return {
    proxy: typeof proxy === 'string' && proxy.trim() !== '' ? proxy.trim() : undefined,
    strictSSL: typeof strict === 'boolean' ? strict : true,
    noProxy: Array.isArray(noProxy) ? noProxy.filter((h): h is string => typeof h === 'string') : [],
    proxyAuthorization: typeof auth === 'string' && auth.trim() !== '' ? auth : undefined,
  };
}
