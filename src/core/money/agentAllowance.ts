/**
 * The agent allowance (issue 33 Deliver 2): the credits AI agents in VS Code (language-model tools)
 * may spend in a UTC day without the person being asked for each call; the runner's MCP server has
 * its own, per session (--max-credits, src/runner/mcpPaid.ts). It is the one place that says what
 * the window's allowance is:
 *
 * - **setting**: `walletAnalytics.agentAllowancePerDay` (application scope: a workspace can never
 *   raise it), default 0: every paid call of an agent asks the person;
 * - **period**: the UTC day, as the daily budget (core/money/budget.ts utcDayStart);
 * - **spent**: the agent ledger, a SpendLedger of its own in the state every window shares
 *   (StorageKeys.agentLedger): a charge made under the allowance, and a hold while such a call is
 *   in flight, so two agents (or two windows) cannot each spend what is left.
 *
 * Within it a call still passes the ceiling and the budgets (the price step holds them). Past it,
 * or with no chat behind the call, the price step asks. Pure: the ledger's entries and the clock
 * are arguments.
 */
import { budgetStates, type BudgetState } from './budget';
import { l10n } from '../l10n';
import { fmtCredits } from '../numberText';
import { SettingIds } from '../ids';


/** The allowance as a budget of one UTC day (perDay), as the ledger's hold and the view read it. */
export function allowanceBudgets(perDay: number): { readonly perDay: number; readonly perPeriod: number } {
  return { perDay, perPeriod: 0 };
}

/** The allowance as it stands for a scope now: set, spent and held today, left, when it resets. */
export type AllowanceState = BudgetState;

/** The allowance today for a scope, or undefined when it is 0 (none: every agent call asks). */
export function allowanceState(perDay: number, entries: Parameters<typeof budgetStates>[1], scope: string, now: number): AllowanceState | undefined {
  return budgetStates(allowanceBudgets(perDay), entries, scope, now, undefined)[0];
}

/** "120 credits of your agent allowance left today (of 500; resets 00:00 UTC)", or that there is none. */
export function allowanceWords(s: AllowanceState | undefined): string {
  if (!s) return l10n.t('No agent allowance is set ({0} is 0): the person is asked for every paid call.', SettingIds.agentAllowancePerDay);
  return l10n.t('{0} of the agent allowance left today (of {1}; resets {2} UTC).', fmtCredits(s.left), fmtCredits(s.budget), s.resetsAt.toISOString().slice(0, 16).replace('T', ' '));
}
