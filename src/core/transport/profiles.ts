/**
 * Connection profiles: a name, a base URL and a key of its own, so one person can keep two
 * accounts (two keys, maybe on one base URL) and the sandbox apart. Pure: the list, its checks,
 * and the "scope" that keys everything kept per profile.
 *
 * Why a scope string: two profiles can share a base URL with two keys (two accounts), so jobs, the
 * request history, the spend ledger and the caches are keyed by `scopeKey(profileId, baseUrl)`, not
 * by base URL. A value that holds a scope is named a scope (never `baseUrl`); parseScope gives its
 * parts back. The Default profile's scope is its bare base URL; other profiles append
 * `#profile=<id>`, which no base URL has (`checkProfileBaseUrl` refuses a fragment).
 */
import { checkUrl } from './http';
import { isLoopbackHost } from './loopback';
import { errorText } from '../errors';
import { l10n } from '../l10n';
import { API_KEY_SECRET, DEFAULT_PROFILE_ID } from '../ids';

export interface Profile {
  readonly id: string;
  readonly name: string;
  /** Normalised: no trailing slash, no query, no fragment. */
  readonly baseUrl: string;
}

/** The profile of the `walletAnalytics.baseUrl` setting (its id kept in core/ids.ts, which the thin entry reads). */
export { DEFAULT_PROFILE_ID };
/** The built-in sandbox: no key, no credits; its base URL is wherever it runs now. */
export const SANDBOX_PROFILE_ID = 'sandbox';
export const DEFAULT_PROFILE_NAME = 'Default';
export const SANDBOX_PROFILE_NAME = 'Sandbox';

/** The SecretStorage entry that holds a profile's key; the Default profile's has no suffix. */
export function secretNameFor(profileId: string): string {
  return profileId === DEFAULT_PROFILE_ID ? API_KEY_SECRET : `${API_KEY_SECRET}.${profileId}`;
}

const SCOPE_MARK = '#profile=';
const ID_RE = /^[a-z0-9][a-z0-9-]{0,63}$/u;

/** What per-profile records are keyed by: the bare base URL for the Default profile, else `<baseUrl>#profile=<id>`. */
export function scopeKey(profileId: string, baseUrl: string): string {
  return profileId === DEFAULT_PROFILE_ID ? baseUrl : `${baseUrl}${SCOPE_MARK}${profileId}`;
}

/** The profile and base URL of a scope; a scope without a profile mark is the Default profile's. */
export function parseScope(scope: string): { profileId: string; baseUrl: string } {
  const at = scope.lastIndexOf(SCOPE_MARK);
  if (at >= 0) {
    const id = scope.slice(at + SCOPE_MARK.length);
    if (ID_RE.test(id)) return { profileId: id, baseUrl: scope.slice(0, at) };
  }
  return { profileId: DEFAULT_PROFILE_ID, baseUrl: scope };
}

/** A base URL as profiles keep it: the origin and path, without trailing slashes. */
export function normalizeBaseUrl(raw: string): string {
  return raw.trim().replace(/\/+$/u, '');
}

/**
 * Checks a profile's base URL as `walletAnalytics.baseUrl` is checked (core/transport/http.ts checkUrl):
 * https, or http for loopback only, no user name or password; and no query or fragment, which
 * would end up in every request path. Returns an error message, or undefined when it is fine.
 */
export function checkProfileBaseUrl(raw: string): string | undefined {
  const v = normalizeBaseUrl(raw);
  if (v === '') return 'Enter the API’s base URL, e.g. https://api.example.com';
  let u: URL;
  try {
    u = new URL(v);
  } catch {
    return `“${v}” is not a valid URL: enter one such as https://api.example.com`;
  }
  // The same rules as the client's checkUrl (core/transport/http.ts), said in this step's own words.
  if (u.protocol !== 'https:' && u.protocol !== 'http:') return 'The base URL must start with https://';
  if (u.protocol === 'http:' && !isLoopbackHost(u.hostname)) return `Plain http:// is allowed only for loopback hosts (127.0.0.1, localhost, [::1]): use https://${u.host}`;
  if (u.username || u.password) return 'The base URL must not hold a user name or password.';
  if (v.includes('?') || v.includes('#')) return 'The base URL must not hold a query (?…) or a fragment (#…).';
  try {
    checkUrl(v, 'base URL');
  } catch (e) {
    return errorText(e);
  }
  return undefined;
}

/** Checks a profile name against the others (case-insensitive, the built-in names included). */
export function checkProfileName(raw: string, others: readonly Profile[], exceptId?: string): string | undefined {
  const name = raw.trim();
  if (name === '') return 'Enter a name for the profile.';
  if (name.length > 60) return 'Keep the name to 60 characters.';
  const lower = name.toLowerCase();
  if (lower === DEFAULT_PROFILE_NAME.toLowerCase() || lower === SANDBOX_PROFILE_NAME.toLowerCase()) return `“${name}” is the name of a built-in profile.`;
  if (others.some((p) => p.id !== exceptId && p.name.toLowerCase() === lower)) return `A profile named “${name}” exists already.`;
  return undefined;
}

/** A fresh id (lower-case letters and digits), not one of `taken` nor a built-in id. */
export function newProfileId(taken: readonly string[], random: () => number = Math.random): string {
  for (;;) {
    const id = `p${Math.floor(random() * 36 ** 8).toString(36).padStart(8, '0')}`;
    if (!taken.includes(id) && id !== DEFAULT_PROFILE_ID && id !== SANDBOX_PROFILE_ID) return id;
  }
}

/**
 * The stored list of added profiles, read defensively (it is shared by every window and could be
 * from another version): entries that are not well-formed, use a built-in id, repeat an id or
 * carry a base URL the checks refuse are dropped, so a key can never be sent to an unchecked URL.
 */
export function parseProfiles(stored: unknown): Profile[] {
  if (!Array.isArray(stored)) return [];
  const out: Profile[] = [];
  for (const e of stored as unknown[]) {
    if (typeof e !== 'object' || e === null) continue;
    const { id, name, baseUrl } = e as Record<string, unknown>;
    if (typeof id !== 'string' || typeof name !== 'string' || typeof baseUrl !== 'string') continue;
    if (!ID_RE.test(id) || id === DEFAULT_PROFILE_ID || id === SANDBOX_PROFILE_ID || out.some((p) => p.id === id)) continue;
    if (name.trim() === '' || checkProfileBaseUrl(baseUrl) !== undefined) continue;
    out.push({ id, name: name.trim(), baseUrl: normalizeBaseUrl(baseUrl) });
  }
  return out;
}

/** Adds a profile after checking its name and base URL; throws with the reason when one is refused. */
export function addProfile(list: readonly Profile[], input: { name: string; baseUrl: string }, id: string): Profile[] {
  const nameProblem = checkProfileName(input.name, list);
  if (nameProblem) throw new Error(nameProblem);
  const urlProblem = checkProfileBaseUrl(input.baseUrl);
  if (urlProblem) throw new Error(urlProblem);
  return [...list, { id, name: input.name.trim(), baseUrl: normalizeBaseUrl(input.baseUrl) }];
}

export function renameProfile(list: readonly Profile[], id: string, name: string): Profile[] {
  if (!list.some((p) => p.id === id)) throw new Error(l10n.t('That profile no longer exists.'));
  const problem = checkProfileName(name, list, id);
  if (problem) throw new Error(problem);
  return list.map((p) => (p.id === id ? { ...p, name: name.trim() } : p));
}

