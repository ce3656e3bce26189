/**
 * The credit quota's facts (§8.1): how many credits a period holds and how long a period is. Its
 * own file, below both the price gate (quota.ts) and the spend budgets (budget.ts), which each
 * need the period and one of which uses the other.
 */

export const QUOTA = 1_000_000_000;
export const PERIOD_MS = 30 * 24 * 3600 * 1000;
