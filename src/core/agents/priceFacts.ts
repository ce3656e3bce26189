/**
 * What an agent is told of a call's price before it is made (issue 33), and what the chat's
 * confirmation shows: the exact price (or its bound), the balance after, the ceiling, what each
 * budget and the agent allowance leave, and whether the person will be asked. The same gate as the
 * price step decides it (core/money/quota.ts priceGate), from the same quote, so what the agent is
 * told is what the call flow will do. Host-independent: the host reads the balance, the budgets and
 * the allowance (VS Code from its services, the runner from its flags) and passes them in. Pure.
 */
import { shortTitle, validateInput, type Endpoint } from '../spec/catalog';
import { quote, type Quote, type QuoteContext } from '../money/pricing';
import { priceGate } from '../money/quota';
import { resetWords, type BudgetState } from '../money/budget';
import { allowanceWords, type AllowanceState } from '../money/agentAllowance';
import { l10n } from '../l10n';
import { fmtCredits, thousands } from '../numberText';

/** A call's price as an agent sees it, and whether the allowance covers it. */
export interface PriceFacts {
  readonly input: Record<string, unknown>;
  readonly quote: Quote;
  /** The worst known case (undefined: no bound, a Wallet Database query whose count is unknown). */
  readonly worst: number | undefined;
  /** Refused before sending (ceiling, balance, budgets): the reason. */
  readonly refusal?: string;
  /** Within what the allowance leaves now (and not refused). */
  readonly covered: boolean;
  /** The lines a person and a model read: price, balance after, ceiling, budgets, allowance. */
  readonly lines: readonly string[];
}

/** What the host knows when it prices a call. */
interface PriceContext {
  readonly ctx?: QuoteContext;
  readonly balance?: number;
  readonly settings: { readonly confirmAbove: number; readonly maxCreditsPerCall: number };
  readonly budgets: readonly BudgetState[];
  readonly reset?: { readonly date: Date; readonly estimated: boolean };
  readonly allowance?: AllowanceState;
  /** The allowance in the host's words (the MCP session's --max-credits); default: the setting's (allowanceWords). */
  readonly allowanceText?: string;
}

/** Prices a call of `ep` with raw inputs (validated here), or says why the inputs are not valid. */
export function agentPriceFacts(ep: Endpoint, raw: unknown, p: PriceContext): PriceFacts | { readonly problems: readonly string[] } {
  const v = validateInput(ep, raw);
  if (!v.ok) return { problems: v.errors };
  const q = quote(ep, v.input, p.ctx);
  const gate = priceGate(q, p.settings, p.balance, p.reset?.date, p.reset?.estimated === true, p.budgets);
  const worst = q.exact ? q.credits : q.atMost;
  const covered = worst !== undefined && p.allowance !== undefined && worst <= p.allowance.left && (gate.kind === 'step' || gate.kind === 'modal');
  const { balance } = p;
  const lines = [
    l10n.t('{0}: {1}.', shortTitle(ep), q.text),
    balance === undefined ? l10n.t('Balance unknown.') : worst === undefined ? l10n.t('Balance now: {0}.', thousands(balance)) : l10n.t('Balance after: {0}.', thousands(balance - worst)),
    l10n.t('The per-call ceiling: {0}.', fmtCredits(p.settings.maxCreditsPerCall)),
    ...p.budgets.map((b) => l10n.t('{0} budget: {1} left of {2} (resets {3}).', b.kind === 'day' ? l10n.t('Daily') : l10n.t('30-day'), thousands(b.left), thousands(b.budget), resetWords(b))),
    p.allowanceText ?? allowanceWords(p.allowance),
  ];
  return { input: v.input, quote: q, worst, covered, lines, ...(gate.kind === 'refuse' ? { refusal: gate.message } : {}) };
}

/** Whether the person will be asked, in words (for the free price tool and the chat's line). */
export function askedWords(f: PriceFacts): string {
  if (f.refusal !== undefined) return l10n.t('It would be refused before sending: {0}', f.refusal);
  if (f.worst === undefined) return l10n.t('Its bill has no bound before it runs (100 credits per match), so the person is always asked, in the price step.');
  return f.covered ? l10n.t('Within the agent allowance: the chat’s confirmation is the only question.') : l10n.t('Beyond the agent allowance: the extension’s price step asks the person (Cancel is the default).');
}
