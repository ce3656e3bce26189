/**
 * The credit quota (§8.1) and the gate every paid call passes before it is sent:
 * show the price, ask above a threshold, refuse above a ceiling or above the balance.
 */
import { budgetRefusal, type BudgetState } from './budget';
import { type Quote } from './pricing';
import { PERIOD_MS, QUOTA } from './quotaPeriod';
import { l10n } from '../l10n';
import { fmtCredits, thousands } from '../numberText';
import { SettingIds } from '../ids';

/**
 * The next reset after now, for periods of 30 days counted from anchor (§8.1). The API does not
 * say when a period started, so the anchor is the setting `walletAnalytics.quotaPeriodStart`
 * (user-only: a workspace cannot move it) or, failing that, the first time the extension saw the
 * key's balance.
 */
export function nextReset(anchorMs: number, nowMs: number, periodMs = PERIOD_MS): Date {
  // An anchor in the future (a start date typed ahead) is projected back by whole periods, so the
  // period always holds now: a start ahead of now never makes the budgets count nothing.
  const periods = Math.floor((nowMs - anchorMs) / periodMs) + 1;
  return new Date(anchorMs + periods * periodMs);
}

interface GateSettings {
  readonly confirmAbove: number;
  readonly maxCreditsPerCall: number;
}

type Gate =
  | { readonly kind: 'free' }
  /** Refused before sending: nothing sent, nothing charged. `setting`: the one its button opens. */
  | { readonly kind: 'refuse'; readonly message: string; readonly setting: string }
  /** A modal confirmation above the threshold. */
  /** A confirmation above the threshold; `label` and `short` are the price in the step's words, for a pick. */
  | { readonly kind: 'modal'; readonly message: string; readonly detail: string; readonly label: string; readonly short: string }
  /**
   * A bill with no upper bound before the call runs (a Wallet Database query whose match count is
   * not known): refused under the per-call ceiling unless the person chooses Run for this one call
   * (Cancel is the default). `detail`: the budgets and balance; `refusal`: what is said on Cancel.
   */
  | { readonly kind: 'unbounded'; readonly message: string; readonly detail: string; readonly refusal: string; readonly ceiling: number; readonly budgetLeft?: number }
  /** The last step of the flow shows the price; Enter runs. */
  | { readonly kind: 'step'; readonly label: string; readonly detail: string };

/** The ceiling in force, as the price step and the CodeLens show it: "ceiling 1,000,000 credits per call". */
export function ceilingText(s: GateSettings): string {
  return l10n.t('ceiling {0} per call', fmtCredits(s.maxCreditsPerCall));
}

/** The ceiling's setting as a sentence names it (a function: a constant would be made before any bundle arrives). */
const ceilingSetting = (): string => l10n.t('“Wallet Analytics: Max Credits Per Call” (walletAnalytics.maxCreditsPerCall)');

/**
 * Decides how a call with this quote is let through. balance/reset are shown when known. `budgets`
 * (core/money/budget.ts) hold the call's worst known case (its exact price, its "up to", or for a bill
 * with no bound its smallest, with the amount typed held to what they leave).
 */
export function priceGate(q: Quote, s: GateSettings, balance: number | undefined, reset: Date | undefined, estimated = false, budgets: readonly BudgetState[] = []): Gate {
  if (q.credits === 0 && q.exact) return { kind: 'free' };
  const worst = q.exact ? q.credits : q.atMost;
  /** "balance after: N" in a dialog's detail, "balance after N" in the step's shorter line. */
  const balanceText = (colon: string): string =>
    balance === undefined
      ? l10n.t('balance unknown')
      : q.exact || q.atMost !== undefined
        ? l10n.t('balance after{0} {1}', colon, thousands(balance - (worst ?? q.credits)))
        : l10n.t('balance now{0} {1}', colon, thousands(balance));
  const day = reset?.toISOString().slice(0, 10);
  const resetText = l10n.t('next reset: {0}', day ?? l10n.t('unknown'));
  const detail = `${balanceText(':')} · ${resetText} · ${ceilingText(s)}${day && estimated ? l10n.t(' (reset date estimated)') : ''}`;
  if (worst !== undefined && worst > s.maxCreditsPerCall) {
    return {
      kind: 'refuse',
      message: q.exact
        ? l10n.t('This call would cost {0}, above your limit of {1} per call. Nothing was sent and nothing was charged. To run it, raise {2} in Settings.', fmtCredits(worst), fmtCredits(s.maxCreditsPerCall), ceilingSetting())
        : l10n.t('This call would cost up to {0}, above your limit of {1} per call. Nothing was sent and nothing was charged. To run it, raise {2} in Settings.', fmtCredits(worst), fmtCredits(s.maxCreditsPerCall), ceilingSetting()),
      setting: SettingIds.maxCreditsPerCall,
    };
  }
  if (balance !== undefined && q.credits > balance) {
    return {
      kind: 'refuse',
      message: l10n.t('This call costs {0} but the balance is {1}. Nothing was sent and nothing was charged. The balance is reset to {2} every 30 days ({3}).', fmtCredits(q.credits), fmtCredits(balance), thousands(QUOTA), resetText),
      setting: SettingIds.maxCreditsPerCall,
    };
  }
  const overBudget = budgetRefusal(worst ?? q.credits, budgets);
  if (overBudget) return { kind: 'refuse', message: overBudget.message, setting: overBudget.setting };
  if (worst === undefined) {
    // The bill follows the matches, which are not known before the query runs: the ceiling cannot
    // be proven to hold, and no client can cap a bill per match (§4.2). The price step asks for no
    // amount (one read as a limit): it says so, gives what is known, and Cancel stays the default.
    const budgetLeft = budgets.length ? Math.min(...budgets.map((b) => b.left)) : undefined;
    const withinBudget = budgetLeft === undefined ? '' : l10n.t('Your budgets leave {0}: a bill past that is still charged whole.', fmtCredits(budgetLeft));
    return {
      kind: 'unbounded',
      ceiling: s.maxCreditsPerCall,
      budgetLeft,
      message: l10n.t('This query’s match count is not known, so its bill cannot be held under your ceiling of {0} per call.', fmtCredits(s.maxCreditsPerCall)),
      detail: withinBudget ? `${withinBudget}\n\n${detail}` : detail,
      refusal: l10n.t('Not sent, nothing charged: this query’s match count is not known before its answer, so its bill could pass your ceiling of {0} per call. After one run, the same query has an exact price until the next hourly refresh.', fmtCredits(s.maxCreditsPerCall)),
    };
  }
  // The quick pick's detail line shows about 85 characters before it cuts the rest to "…": the
  // step says the same in fewer words (the ceiling last, whole). "~" marks an estimated reset date.
  const stepReset = day ? l10n.t('resets {0}{1}', estimated ? '~' : '', day) : l10n.t('reset unknown');
  const label = l10n.t('$(play) Run — {0}', q.text);
  const short = l10n.t('{0} · {1} · ceiling {2} per call', balanceText(''), stepReset, thousands(s.maxCreditsPerCall));
  if (worst > s.confirmAbove) {
    return { kind: 'modal', message: q.exact ? l10n.t('Run this call for {0}?', fmtCredits(worst)) : l10n.t('Run this call for up to {0}?', fmtCredits(worst)), detail: `${q.text}. ${detail.charAt(0).toUpperCase()}${detail.slice(1)}`, label, short };
  }
  return { kind: 'step', label, detail: short };
}
