/**
 * The identifiers the core names (issue 31.3), one family with src/vscode/base/ids.ts (commands,
 * views, context keys, the window's other ids) and src/core/storage.ts (the storage keys), as
 * GitLens keeps its identifiers in one `constants.*` family: the setting keys the core's messages
 * and checks name, the key's SecretStorage entries and the endpoint commands' prefix. Here, below
 * every room, so core names a setting without importing the window; owners.test.ts fails on a
 * `walletAnalytics.` id spelt anywhere else.
 */

/** Setting keys the core and the window name (package.json declares them; settings.ts reads them). */
export const SettingIds = {
  baseUrl: 'walletAnalytics.baseUrl',
  maxCreditsPerCall: 'walletAnalytics.maxCreditsPerCall',
  agentAllowancePerDay: 'walletAnalytics.agentAllowancePerDay',
  budgetPerDay: 'walletAnalytics.budget.perDay',
  budgetPerPeriod: 'walletAnalytics.budget.perPeriod',
  explorerMainUrl: 'walletAnalytics.explorer.mainUrl',
  explorerAltUrl: 'walletAnalytics.explorer.altUrl',
  /** Read by the thin entry too (src/vscode/base/firstAnswer.ts): a sandbox that starts with the extension changes the sidebar's first answer. */
  sandboxAutoStart: 'walletAnalytics.sandbox.autoStart',
  /** The credits section (its warning thresholds), opened as one in the Settings editor. */
  credits: 'walletAnalytics.credits',
} as const;

/** The profile of the `walletAnalytics.baseUrl` setting, whose key is API_KEY_SECRET itself (core/transport/profiles.ts; the thin entry reads it too). */
export const DEFAULT_PROFILE_ID = 'default';

/** The SecretStorage entry of the Default profile's key; another profile's adds `.<profile id>`. */
export const API_KEY_SECRET = 'walletAnalytics.apiKey';

/** Every endpoint command's id begins so (the catalog's commandIdOf; npm run sync tells them from the others by it). */
export const ENDPOINT_COMMAND_PREFIX = 'walletAnalytics.endpoint.';

/** The key that marks a saved comparison's file (`{ "walletAnalyticsCompare": 1, "a": …, "b": … }`). */
export const COMPARE_FILE_MARK = 'walletAnalyticsCompare';
