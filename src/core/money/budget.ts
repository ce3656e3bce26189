/**
 * Spend budgets: the most the person lets this extension spend in a UTC day and in a quota period
 * (the 30 days of §8.1), each optional (0: none). The per-call ceiling stops one large call; a
 * budget stops many small ones (a loop of cheap calls could spend a month's quota in an afternoon).
 *
 * The spend is the ledger's (what this extension charged under one profile scope), plus the holds
 * of calls approved and not yet settled, in any window: a price approved in one window counts in
 * the other before its charge is known, so two windows cannot each spend the whole day's budget.
 *
 * Also the forecast the Account view shows: the period's spend at its current pace, to the reset.
 * Pure: the ledger, the settings and the clock are arguments.
 */
import { PERIOD_MS } from './quotaPeriod';
import { l10n } from '../l10n';
import { compactCredits, fmtCredits } from '../numberText';
import { SettingIds } from '../ids';

export const DAY_MS = 24 * 3600 * 1000;

/** How long a hold counts when its window never settled it (the window closed mid-call). */
export const HOLD_TTL_MS = 3600 * 1000;

/** The budget settings, in credits; 0 is no budget. */
export interface Budgets {
  readonly perDay: number;
  readonly perPeriod: number;
}

/** A ledger entry as the budget reads it (src/vscode/base/credits.ts SpendEntry, or a hold). */
interface Spent {
  readonly credits: number;
  readonly at: number;
  readonly scope: string;
  /** A call approved and not yet settled: counted for HOLD_TTL_MS, then forgotten. */
  readonly hold?: boolean;
}

type BudgetKind = 'day' | 'period';

export const BUDGET_SETTING: Record<BudgetKind, string> = {
  day: SettingIds.budgetPerDay,
  period: SettingIds.budgetPerPeriod,
};

/** A budget's name in a sentence (a function: a constant would be made before any bundle arrives). */
const budgetName = (kind: BudgetKind): string => (kind === 'day' ? l10n.t('daily budget') : l10n.t('30-day budget'));

/** One budget as it stands: what it allows, what is spent (and held) in its window, when it resets. */
export interface BudgetState {
  readonly kind: BudgetKind;
  readonly budget: number;
  readonly spent: number;
  readonly left: number;
  readonly since: number;
  readonly resetsAt: Date;
  /** True when the period's start is not known and the last 30 days are counted instead. */
  readonly rolling: boolean;
}

/** Midnight UTC of the day `now` is in. */
export function utcDayStart(now: number): number {
  return Math.floor(now / DAY_MS) * DAY_MS;
}

/** The credits of a scope's entries since `since` (holds only while fresh). */
function spentSince(entries: readonly Spent[], scope: string, since: number, now: number): number {
  let sum = 0;
  for (const e of entries) {
    if (e.scope !== scope || e.at < since) continue;
    if (e.hold && now - e.at > HOLD_TTL_MS) continue;
    sum += e.credits;
  }
  return sum;
}

/**
 * Each budget that is set, as it stands now for a scope. `reset` is the quota period's next reset
 * when known; without it the period budget counts the last 30 days.
 */
export function budgetStates(b: Budgets, entries: readonly Spent[], scope: string, now: number, reset: Date | undefined): BudgetState[] {
  const out: BudgetState[] = [];
  if (b.perDay > 0) {
    const since = utcDayStart(now);
    const spent = spentSince(entries, scope, since, now);
    out.push({ kind: 'day', budget: b.perDay, spent, left: Math.max(0, b.perDay - spent), since, resetsAt: new Date(since + DAY_MS), rolling: false });
  }
  if (b.perPeriod > 0) {
    const since = reset ? reset.getTime() - PERIOD_MS : now - PERIOD_MS;
    const spent = spentSince(entries, scope, since, now);
    out.push({ kind: 'period', budget: b.perPeriod, spent, left: Math.max(0, b.perPeriod - spent), since, resetsAt: reset ?? new Date(now + PERIOD_MS), rolling: reset === undefined });
  }
  return out;
}

/** "2026-12-25 00:00 UTC" */
function utcTime(d: Date): string {
  return `${d.toISOString().slice(0, 10)} ${d.toISOString().slice(11, 16)} UTC`;
}

/** When a budget resets, in words. */
export function resetWords(s: BudgetState): string {
  return s.rolling ? l10n.t('as older calls leave the last 30 days (the period start is not known yet)') : l10n.t('at {0}', utcTime(s.resetsAt));
}

/**
 * The refusal of a call that needs `needed` credits (its worst known case) past a budget, or
 * undefined when every budget leaves enough. The message says what is left, what the call needs
 * and when the budget resets; `setting` is the one the refusal's button opens.
 */
export function budgetRefusal(needed: number, states: readonly BudgetState[]): { message: string; setting: string; state: BudgetState } | undefined {
  const over = states.filter((s) => needed > s.left).sort((a, b) => a.left - b.left)[0];
  if (!over) return undefined;
  const held = over.spent >= over.budget ? l10n.t('is used up') : l10n.t('has {0} left', fmtCredits(over.left));
  return {
    state: over,
    setting: BUDGET_SETTING[over.kind],
    message: l10n.t('Past your {0}: this call needs {1}, and your {2} of {3} {4} ({5} spent). Nothing was sent and nothing was charged. It resets {6}; to run it sooner, raise {7} in Settings.', budgetName(over.kind), fmtCredits(needed), budgetName(over.kind), fmtCredits(over.budget), held, fmtCredits(over.spent), resetWords(over), BUDGET_SETTING[over.kind]),
  };
}

/** The spend of a period at its current pace, projected to the period's end. */
export interface Forecast {
  readonly spent: number;
  /**
   * What `spent` is: this editor's spend (its ledger and the request history), or what the account
   * used (the quota less the balance read: every tool's calls, a script's too).
   */
  readonly basis?: 'spend' | 'used';
  readonly projected: number;
  readonly of: number;
  readonly by: Date;
  /** "at this pace: 41M of 1000M by 2026-12-25" */
  readonly text: string;
  /** "41M of 1000M by 12-25": the Account row's value, whole at the sidebar's default width (its label says "Forecast"). */
  readonly short: string;
}

/** Credits in millions, as the forecast writes them: "41M", "0.5M", "1000M". */
function millions(n: number): string {
  if (n < 1_000_000) return compactCredits(n);
  const m = n / 1_000_000;
  return `${m >= 100 ? Math.round(m) : Number(m.toPrecision(3))}M`;
}

/**
 * The period's spend projected to `by` (the reset) at the pace since `since` (the period start):
 * spent + spent / elapsed × remaining. `of` is what it is measured against (a budget or the quota).
 */
export function forecast(spent: number, since: number, now: number, by: Date, of: number): Forecast {
  return projection(spent, spent + pace(spent, since, now, by), of, by);
}

/** What a spend since `since` adds by `by` at its pace, read over at least a day (the first minutes of a period say little about the rest). */
function pace(spent: number, since: number, now: number, by: Date): number {
  return (spent / Math.max(now - since, DAY_MS)) * Math.max(0, by.getTime() - now);
}

function projection(spent: number, projected: number, of: number, by: Date): Forecast {
  const p = Math.round(projected);
  const day = by.toISOString().slice(0, 10);
  const amounts = l10n.t('{0} of {1} by', millions(p), millions(of));
  return { spent, projected: p, of, by, text: l10n.t('at this pace: {0} {1}', amounts, day), short: `${amounts} ${day.slice(5)}` };
}

/**
 * The Account view's forecast. Against a period budget, this editor's spend (what the budget
 * counts). Against the quota, what the account used when it is more (the quota less the balance
 * read: a trader who also calls the API from scripts had 877M used and a forecast of "0 of 1000M").
 * Its pace is the account's when the period's start is known (walletAnalytics.quotaPeriodStart);
 * when the start is only estimated (the first balance read), what was used before it has no pace:
 * the projection is what is used plus this editor's pace.
 */
export function accountForecast(o: { readonly spend: number; readonly used: number | undefined; readonly since: number; readonly estimated: boolean; readonly now: number; readonly by: Date; readonly perPeriod: number; readonly quota: number }): Forecast {
  if (o.perPeriod > 0) return { ...forecast(o.spend, o.since, o.now, o.by, o.perPeriod), basis: 'spend' };
  if (o.used === undefined || o.used <= o.spend) return { ...forecast(o.spend, o.since, o.now, o.by, o.quota), basis: 'spend' };
  const ahead = o.estimated ? pace(o.spend, o.since, o.now, o.by) : pace(o.used, o.since, o.now, o.by);
  return { ...projection(o.used, o.used + ahead, o.quota, o.by), basis: 'used' };
}
