/**
 * The one settings module: every read of a setting (walletAnalytics.*, and VS Code's own http.*
 * proxy settings) is here, typed, with its default in one place (package.json mirrors them).
 * The rest of the extension asks these readers and never calls getConfiguration itself.
 */
import * as vscode from 'vscode';
import { DEFAULT_POLL_INTERVAL_MS } from '../../core/jobs/poller';
import { SETTINGS_SECTION, USER_ONLY_KEYS, type UserOnlyKey } from '../../core/userOnlySettings';

/** The walletAnalytics settings the calls, jobs and table read. */
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
  pollIntervalSeconds: DEFAULT_POLL_INTERVAL_MS / 1000,
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

/** Calls listener when a walletAnalytics setting changes: any, or only those under `key` (e.g. `credits`). */
export function onDidChangeSettings(listener: () => void, key?: string): vscode.Disposable {
  const section = key === undefined ? SETTINGS_SECTION : `${SETTINGS_SECTION}.${key}`;
  return vscode.workspace.onDidChangeConfiguration((e) => {
    if (e.affectsConfiguration(section)) listener();
  });
}

/** `walletAnalytics.pollIntervalSeconds` in milliseconds: how often pending jobs and the history are read. */
export function pollIntervalMs(): number {
  return readSettings().pollIntervalSeconds * 1000;
}

/** The sidebar's settings (package.json declares them with their descriptions). */
export interface SidebarSettings {
  /** Below this balance the status bar item turns the warning colour, and one notification per period says so. */
  readonly warnBelow: number;
  /** Below this, the error colour and a second notification. */
  readonly criticalBelow: number;
  /** How often the balance is read (GET /credits, free) when nothing else asked for it. */
  readonly creditsRefreshMs: number;
  /** How often the visible Requests view reads the history while nothing runs. */
  readonly idleRefreshMs: number;
  /** Polling and refreshes wait this many times longer while the window is unfocused. */
  readonly unfocusedSlowdown: number;
}

export const SIDEBAR_DEFAULTS = {
  warnBelow: 100_000_000,
  criticalBelow: 10_000_000,
  refreshMinutes: 5,
  idleRefreshSeconds: 30,
  unfocusedSlowdown: 4,
} as const;

const positive = (v: unknown, d: number): number => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : d);

export function readSidebarSettings(): SidebarSettings {
  const c = vscode.workspace.getConfiguration(SETTINGS_SECTION);
  return {
    warnBelow: positive(c.get('credits.warnBelow'), SIDEBAR_DEFAULTS.warnBelow),
    criticalBelow: positive(c.get('credits.criticalBelow'), SIDEBAR_DEFAULTS.criticalBelow),
    creditsRefreshMs: Math.max(1, positive(c.get('credits.refreshMinutes'), SIDEBAR_DEFAULTS.refreshMinutes)) * 60_000,
    idleRefreshMs: Math.max(pollIntervalMs(), positive(c.get('history.idleRefreshSeconds'), SIDEBAR_DEFAULTS.idleRefreshSeconds) * 1000),
    unfocusedSlowdown: Math.max(1, positive(c.get('unfocusedSlowdown'), SIDEBAR_DEFAULTS.unfocusedSlowdown)),
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
