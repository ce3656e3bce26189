/**
 * How credits are written in few characters or exactly, for the sidebar, the status bar and the
 * budgets' messages alike: one owner below all of them, so money need not borrow the sidebar's
 * formatting (core/history/format.ts).
 */

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
  if (!Number.isSafeInteger(n)) return n.toLocaleString('en-US');
  const s = String(Math.abs(n));
  let out = '';
  for (let i = s.length; i > 0; i -= 3) out = (i > 3 ? ',' : '') + s.slice(Math.max(0, i - 3), i) + out;
  return n < 0 ? `-${out}` : out;
}

/** Exact credits, "999,950,000 credits" (as pricing's fmtCredits writes them). */
export function exactCredits(n: number): string {
  return `${thousands(n)} credit${n === 1 ? '' : 's'}`;
}
