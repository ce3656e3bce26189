/**
 * The walletAnalytics settings as package.json declares them (type, default, minimum, maximum,
 * scope), read from the manifest itself so each bound is stated once. Every value read goes
 * through here: a number is clamped to its declared range, so a workspace's poll interval of 0,
 * NaN or -5 cannot turn the poller into hundreds of requests a second with the person's key, and
 * a value of the wrong type is the default. Pure: values in, values out.
 */
import { contributes } from '../../../package.json';
import { l10n } from '../l10n';

export const SETTINGS_SECTION = 'walletAnalytics';

/** One declared setting; `key` is without the `walletAnalytics.` prefix. */
interface SettingSchema {
  readonly key: string;
  readonly type: 'string' | 'number' | 'integer' | 'boolean';
  readonly default: string | number | boolean;
  readonly minimum?: number;
  readonly maximum?: number;
  readonly scope?: string;
}

const TYPES = ['string', 'number', 'integer', 'boolean'] as const;
const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

/** The declared settings, from package.json's `contributes.configuration.properties`. */
export function declaredSettings(properties: Record<string, unknown>): Map<string, SettingSchema> {
  const out = new Map<string, SettingSchema>();
  for (const [full, p] of Object.entries(properties)) {
    if (!full.startsWith(`${SETTINGS_SECTION}.`) || typeof p !== 'object' || p === null) continue;
    const r = p as Record<string, unknown>;
    const type = TYPES.find((t) => t === r.type);
    const d = r.default;
    if (!type || !(typeof d === 'string' || typeof d === 'number' || typeof d === 'boolean')) continue;
    const key = full.slice(SETTINGS_SECTION.length + 1);
    out.set(key, { key, type, default: d, minimum: num(r.minimum), maximum: num(r.maximum), scope: typeof r.scope === 'string' ? r.scope : undefined });
  }
  return out;
}

/** This extension's settings. */
export const SETTINGS: ReadonlyMap<string, SettingSchema> = declaredSettings(contributes.configuration.properties);

function schema(key: string, types: readonly SettingSchema['type'][]): SettingSchema {
  const s = SETTINGS.get(key);
  if (!s || !types.includes(s.type)) throw new Error(l10n.t('{0}.{1} is not a declared {2} setting.', SETTINGS_SECTION, key, types.join(' or ')));
  return s;
}

/** True for a setting only the user may set (scope application or machine): a workspace's value is never read. */
export function isUserOnly(s: SettingSchema): boolean {
  return s.scope === 'application' || s.scope === 'machine';
}

/**
 * A number setting's value within its declared bounds: the default when `v` is not a finite
 * number (a string, NaN, null), else clamped to [minimum, maximum], and rounded for an integer.
 */
export function numberSetting(key: string, v: unknown): number {
  const s = schema(key, ['number', 'integer']);
  const n = num(v);
  if (n === undefined) return s.default as number;
  const clamped = Math.min(s.maximum ?? Infinity, Math.max(s.minimum ?? -Infinity, n));
  return s.type === 'integer' ? Math.round(clamped) : clamped;
}

/** A string setting's value, or its default when `v` is not a string. */
export function stringSetting(key: string, v: unknown): string {
  const s = schema(key, ['string']);
  return typeof v === 'string' ? v : (s.default as string);
}

/** A boolean setting's value, or its default when `v` is not a boolean. */
export function booleanSetting(key: string, v: unknown): boolean {
  const s = schema(key, ['boolean']);
  return typeof v === 'boolean' ? v : (s.default as boolean);
}
