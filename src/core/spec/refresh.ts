/**
 * The hourly metric refresh (§1.4, §8.5), as one rule for the client and the sandbox.
 *
 * The spec says only "refreshed hourly" and "the same Wallet Database query returns the same
 * wallets for up to an hour". We read it as: the metrics refresh at the top of every UTC hour,
 * so two runs give the same answer exactly when they fall in the same UTC clock hour. A run at
 * 14:50 and one at 15:10 are 20 minutes apart but on either side of a refresh. Counting an hour
 * from the run instead (what the client once did) called such a re-run "exact" and its cached
 * answer current when the sandbox, refreshing on the clock, had moved on.
 *
 * The client's run cache and price text and the sandbox's hourly data all call these functions,
 * so they cannot disagree. Pure: every function takes the time (ms since the epoch).
 */

/** The length of one refresh period: an hour. */
export const REFRESH_PERIOD_MS = 3_600_000;

/** The number of the refresh period holding `ms`, counted from the epoch (the sandbox seeds its hourly data with it). */
export function refreshPeriodIndex(ms: number): number {
  return Math.floor(ms / REFRESH_PERIOD_MS);
}

/** When the refresh period holding `ms` began: the top of its UTC hour. */
export function refreshPeriodStart(ms: number): number {
  return refreshPeriodIndex(ms) * REFRESH_PERIOD_MS;
}

/** When the metrics next refresh after `ms`: the top of the next UTC hour. */
export function nextRefresh(ms: number): number {
  return refreshPeriodStart(ms) + REFRESH_PERIOD_MS;
}

/** Whether two times fall in one refresh period, i.e. the same query gives the same answer at both. */
export function sameRefreshPeriod(a: number, b: number): boolean {
  return refreshPeriodIndex(a) === refreshPeriodIndex(b);
}

/** A refresh time as a person reads it, unambiguous in every time zone: "15:00 UTC". */
export function fmtRefreshTime(ms: number): string {
  const d = new Date(ms);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${p(d.getUTCHours())}:${p(d.getUTCMinutes())} UTC`;
}
