/**
 * Settings a workspace can never choose: where the API key goes and how much a call may spend.
 * They are declared with scope `application` (user settings only), read from the user's value
 * alone, and a workspace or folder settings file that sets them is found here so the person can
 * be told it was ignored. Pure: settings text in, keys out.
 */
import { parse } from 'jsonc-parser';

export const SETTINGS_SECTION = 'walletAnalytics';

/** The user-only keys, without the section prefix. */
export const USER_ONLY_KEYS = ['baseUrl', 'confirmAbove', 'maxCreditsPerCall', 'activityPageBudget', 'maxDownloadMB'] as const;
export type UserOnlyKey = (typeof USER_ONLY_KEYS)[number];

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * The user-only keys a settings file sets: a folder's `.vscode/settings.json`, or the `settings`
 * of a `.code-workspace` file (`workspaceFile`). Both the dotted form and the nested object count.
 */
export function userOnlyKeysIn(text: string, opts: { workspaceFile?: boolean } = {}): UserOnlyKey[] {
  const root: unknown = parse(text, [], { allowTrailingComma: true, disallowComments: false });
  const settings = opts.workspaceFile ? (isObject(root) ? root.settings : undefined) : root;
  if (!isObject(settings)) return [];
  const nested = settings[SETTINGS_SECTION];
  return USER_ONLY_KEYS.filter((k) => `${SETTINGS_SECTION}.${k}` in settings || (isObject(nested) && k in nested));
}
