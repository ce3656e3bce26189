/**
 * The one settings module: every read of a setting (walletAnalytics.*, and VS Code's own http.*
 * proxy settings) is here, typed. Defaults and bounds are package.json's, applied by
 * core/manifest/settingsSchema.ts: every number is clamped to its declared range where it is read, and a
 * user-only setting (scope application) is read from the user's own value alone. The rest of the
 * extension asks these readers and never calls getConfiguration itself.
 */
import * as vscode from 'vscode';
import type { Budgets } from '../../core/money/budget';
import { booleanSetting, numberSetting, SETTINGS, stringSetting, isUserOnly } from '../../core/manifest/settingsSchema';
import { SETTINGS_SECTION, USER_ONLY_KEYS, type UserOnlyKey } from '../../core/manifest/userOnlySettings';

/** The walletAnalytics settings the calls, jobs and table read. */
interface Settings {
  readonly baseUrl: string;
  readonly confirmAbove: number;
  readonly maxCreditsPerCall: number;
  /** `budget.perDay` / `budget.perPeriod`: the spend budgets (core/money/budget.ts), 0 for none. */
  readonly budgets: Budgets;
  /** `agentAllowancePerDay`: what AI agents may spend a UTC day without asking (core/money/agentAllowance.ts), 0 for none. */
  readonly agentAllowancePerDay: number;
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
  /** `table.colorGainsAndLosses`: PnL and ROI in the theme's green and red (the sign shows either way). */
  readonly tableColorGainsAndLosses: boolean;
  /** `explorer.mainUrl` / `explorer.altUrl`: an address's explorer page, `{address}` in an https URL; empty when unset. */
  readonly explorerUrls: { readonly main: string; readonly alt: string };
}

/**
 * Reads walletAnalytics settings as declared (core/manifest/settingsSchema.ts): a number within its bounds,
 * a value of the wrong type as the default, and a user-only setting from the user's own value
 * alone, never a workspace's or a folder's, whatever VS Code would merge.
 */
function reader(): { num: (k: string) => number; str: (k: string) => string; bool: (k: string) => boolean } {
  const c = vscode.workspace.getConfiguration(SETTINGS_SECTION);
  const raw = (key: string): unknown => {
    const s = SETTINGS.get(key);
    return s && isUserOnly(s) ? c.inspect(key)?.globalValue : c.get(key);
  };
  return { num: (k) => numberSetting(k, raw(k)), str: (k) => stringSetting(k, raw(k)), bool: (k) => booleanSetting(k, raw(k)) };
}

/** The user-only settings a workspace or folder tries to set (VS Code reports them; they are ignored). */
export function workspaceUserOnlyValues(): UserOnlyKey[] {
  const c = vscode.workspace.getConfiguration(SETTINGS_SECTION);
  return USER_ONLY_KEYS.filter((k) => {
    const i = c.inspect(k);
    return i?.workspaceValue !== undefined || i?.workspaceFolderValue !== undefined;
  });
}

/** The last read of every setting, until a walletAnalytics setting changes (a read is 17 getConfiguration lookups). */
let cached: Settings | undefined;
let watching: vscode.Disposable | undefined;

/** Forgets the cached read when it may be stale; called before any listener of onDidChangeSettings hears of the change. */
function forgetIfChanged(e: vscode.ConfigurationChangeEvent): void {
  if (e.affectsConfiguration(SETTINGS_SECTION)) cached = undefined;
}

/** The walletAnalytics settings: read once, and again after VS Code says one of them changed. */
export function readSettings(): Settings {
  if (cached) return cached;
  watching ??= vscode.workspace.onDidChangeConfiguration(forgetIfChanged);
  cached = readAll();
  return cached;
}

function readAll(): Settings {
  const { num, str, bool } = reader();
  return {
    baseUrl: str('baseUrl'),
    confirmAbove: num('confirmAbove'),
    maxCreditsPerCall: num('maxCreditsPerCall'),
    budgets: { perDay: num('budget.perDay'), perPeriod: num('budget.perPeriod') },
    agentAllowancePerDay: num('agentAllowancePerDay'),
    resultsFolder: str('resultsFolder'),
    activityPageBudget: num('activityPageBudget'),
    maxDownloadMB: num('maxDownloadMB'),
    quotaPeriodStart: str('quotaPeriodStart'),
    openResultOnCompletion: bool('openResultOnCompletion'),
    pollIntervalSeconds: num('pollIntervalSeconds'),
    sandboxAutoStart: bool('sandbox.autoStart'),
    jobsStalledAfterHours: num('jobs.stalledAfterHours'),
    tableNeutralizeFormulas: bool('table.neutralizeFormulas'),
    tableColorGainsAndLosses: bool('table.colorGainsAndLosses'),
    explorerUrls: { main: str('explorer.mainUrl'), alt: str('explorer.altUrl') },
  };
}

/** Calls listener when a walletAnalytics setting changes: any, or only those under `key` (e.g. `credits`). */
export function onDidChangeSettings(listener: () => void, key?: string): vscode.Disposable {
  const section = key === undefined ? SETTINGS_SECTION : `${SETTINGS_SECTION}.${key}`;
  return vscode.workspace.onDidChangeConfiguration((e) => {
    // Listeners run in the order they were added: this one may come before the cache's own.
    forgetIfChanged(e);
    if (e.affectsConfiguration(section)) listener();
  });
}

/** `walletAnalytics.pollIntervalSeconds` in milliseconds: how often pending jobs and the history are read. */
export function pollIntervalMs(): number {
  return readSettings().pollIntervalSeconds * 1000;
}

/** The sidebar's settings (package.json declares them with their descriptions). */
interface SidebarSettings {
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

export function readSidebarSettings(): SidebarSettings {
  const { num } = reader();
  return {
    warnBelow: num('credits.warnBelow'),
    criticalBelow: num('credits.criticalBelow'),
    creditsRefreshMs: num('credits.refreshMinutes') * 60_000,
    idleRefreshMs: Math.max(pollIntervalMs(), num('history.idleRefreshSeconds') * 1000),
    unfocusedSlowdown: num('unfocusedSlowdown'),
  };
}

/** VS Code's own proxy settings (section `http`), as src/core/transport/proxy.ts takes them. */
interface ProxySettings {
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
