/**
 * Settings a workspace can never choose: where the API key goes, how much a call may spend, and
 * how often requests are sent with the key. They are the ones package.json declares with scope
 * `application` (user settings only; the list is taken from there, so it is stated once), read
 * from the user's value alone, and a workspace or folder settings file that sets them is found
 * here so the person can be told it was ignored. Pure: settings text in, keys out.
 */
import { parse } from 'jsonc-parser';
import { isUserOnly, SETTINGS, SETTINGS_SECTION } from './settingsSchema';

export { SETTINGS_SECTION };

/** A user-only key, without the section prefix. */
export type UserOnlyKey = string;

/** The user-only keys, without the section prefix, in package.json's order. */
export const USER_ONLY_KEYS: readonly UserOnlyKey[] = [...SETTINGS.values()].filter(isUserOnly).map((s) => s.key);

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
  return USER_ONLY_KEYS.filter((k) => `${SETTINGS_SECTION}.${k}` in settings || (isObject(nested) && k in nested) || nestedHas(nested, k));
}

/** `jobs.stalledAfterHours` set as `{ "jobs": { "stalledAfterHours": … } }` under the section. */
function nestedHas(section: unknown, key: string): boolean {
  let at: unknown = section;
  for (const part of key.split('.')) {
    if (!isObject(at) || !(part in at)) return false;
    at = at[part];
  }
  return true;
}
