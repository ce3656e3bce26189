/**
 * How numbers are written for people, in one owner (issue 31.3): counts with thousands separators,
 * credits ("1,234 credits", or "12.5K" in few characters), percentages and file sizes, for the
 * sidebar, the status bar, the price step, the budgets' messages, the table and the runner alike.
 * It sits at the ground of core so every room and host can use it; owners.test.ts fails on a
 * `toLocaleString` or `toFixed` written anywhere else.
 */
import { l10n } from './l10n';

/**
 * Credits in a few characters: 999,950,000 → "999.95M", 12,500 → "12.5K", 950 → "950".
 * Rounded down (a balance must never look larger than it is); 1,000,000,000 → "1000M", as the spec writes the quota.
 */
export function compactCredits(n: number): string {
  if (!Number.isFinite(n)) return '?';
  const sign = n < 0 ? '-' : '';
  const a = Math.floor(Math.abs(n));
  const [unit, suffix] = a >= 1_000_000 ? [1_000_000, 'M'] : a >= 1_000 ? [1_000, 'K'] : [1, ''];
  if (unit === 1) return `${sign}${a}`;
  const hundredths = Math.floor((a * 100) / unit);
  const whole = Math.floor(hundredths / 100);
  const frac = String(hundredths % 100).padStart(2, '0').replace(/0+$/u, '');
  return `${sign}${whole}${frac ? `.${frac}` : ''}${suffix}`;
}

/**
 * "5,000": thousands with commas, as `toLocaleString('en-US')` writes integers, without building
 * a number formatter per call (that costs tens of microseconds; a 5,000-row history calls it a lot).
 */
export function thousands(n: number): string {
  // Fractions and huge numbers: the platform's own grouping (at most three decimals).
  if (!Number.isSafeInteger(n)) return n.toLocaleString('en-US');
  const s = String(Math.abs(n));
  let out = '';
  for (let i = s.length; i > 0; i -= 3) out = (i > 3 ? ',' : '') + s.slice(Math.max(0, i - 3), i) + out;
  return n < 0 ? `-${out}` : out;
}

/** A count and its noun: "1 hour", "1,234 rows", "2 entries" (`many` when the plural is not the noun and an s). */
export function counted(n: number, one: string, many = `${one}s`): string {
  return `${thousands(n)} ${n === 1 ? one : many}`;
}

/** Exact credits: "1 credit", "999,950,000 credits". */
export function fmtCredits(n: number): string {
  return n === 1 ? l10n.t('{0} credit', thousands(n)) : l10n.t('{0} credits', thousands(n));
}

/**
 * A share written as a percentage of at most two decimals: 0 → "0%", 0.004 → "< 0.01%", 0.5 →
 * "0.50%", 12.34 → "12.3%" (`share` is already in percent).
 */
export function percent(share: number): string {
  return `${share === 0 ? '0' : share < 0.01 ? '< 0.01' : share.toFixed(share < 1 ? 2 : 1)}%`;
}

/** A file's size in the Requests view: "512 B", "1.5 KB", "12 KB", "3.4 MB". */
export function fileSize(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(n < 10 * 1024 ? 1 : 0)} KB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}

/** A size in mebibytes, one decimal: the download's and unzip's limits ("200.0 MiB"). */
export function mebibytes(n: number): string {
  return `${(n / 1024 ** 2).toFixed(1)} MiB`;
}

/** A duration in milliseconds with one decimal, for the log ("412.3 ms"). */
export function milliseconds(ms: number): string {
  return `${ms.toFixed(1)} ms`;
}
