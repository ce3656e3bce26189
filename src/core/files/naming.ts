/**
 * The one rule for naming a new file that never replaces one (issue 31.3): `x.csv`, then `x-2.csv`,
 * `x-3.csv`… before the extension, as results, notebooks, address lists, extracted folders and new
 * queries are named. writeInside.ts tries the names in order; test/unit/house/owners.test.ts holds that no
 * other file writes a numbering rule of its own. Pure: no file system.
 */

/**
 * The i-th name (from 1) a new file may take when its first choice is taken: `name` itself, then
 * `-2`, `-3`… before its extension (`pnl-2026-11-21-1015-2.csv`); a name without an extension, or a
 * folder, ends with it (`result-2`). A leading dot is not an extension (`.env-2`). A compound
 * `suffix` (`.waquery.json`) keeps the number before all of it: `wallets-2.waquery.json`.
 */
export function nthName(name: string, i: number, suffix?: string): string {
  if (i <= 1) return name;
  if (suffix !== undefined && name.endsWith(suffix) && name.length > suffix.length) return `${name.slice(0, -suffix.length)}-${i}${suffix}`;
  const dot = name.lastIndexOf('.');
  return dot > 0 ? `${name.slice(0, dot)}-${i}${name.slice(dot)}` : `${name}-${i}`;
}

/** The i-th name (from 1) of a folder: `name`, then `name-2`… (a folder's dots are not an extension). */
export function nthFolderName(name: string, i: number): string {
  return i <= 1 ? name : `${name}-${i}`;
}
