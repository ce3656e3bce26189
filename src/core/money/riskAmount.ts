/**
 * The amount a person types to run a bill with no known bound (a Wallet Database query whose match
 * count is unknown). Pressing Enter on a dialog must never lift the per-call ceiling: the person
 * types the credits they accept to risk, the box says back what Enter will do, and an empty box
 * runs nothing. The service bills every match whatever was typed, so the text says so, and the
 * result says when the bill passed the amount typed.
 */
import { fmtCredits } from './pricing';
import { l10n } from '../l10n';

/** The rule of the box, for its validation message and for the test hook's answer alike. */
/** `mostIs`: what bounds the amount when it is not the balance ("what your daily budget leaves today"). */
export function riskAmountProblem(text: string, min: number, balance: number | undefined, mostIs?: string): string | undefined {
  const t = text.replace(/[\s,_]/gu, '');
  if (t === '') return l10n.t('Type a whole number of credits, or press Escape: nothing is sent.');
  if (!/^\d+$/u.test(t)) return l10n.t('“{0}” is not a whole number of credits (digits only, commas allowed).', text.trim());
  const n = Number(t);
  if (!Number.isSafeInteger(n)) return l10n.t('That number is too large.');
  if (n < min) return l10n.t('At least {0}: the smallest bill this query can have.', fmtCredits(min));
  if (balance !== undefined && n > balance) return mostIs === undefined ? l10n.t('At most your balance, {0}.', fmtCredits(balance)) : l10n.t('At most {0}, {1}.', mostIs, fmtCredits(balance));
  return undefined;
}

/** The typed amount as a number, or undefined when the rule above refuses it. */
export function parseRiskAmount(text: string, min: number, balance: number | undefined, mostIs?: string): number | undefined {
  return riskAmountProblem(text, min, balance, mostIs) === undefined ? Number(text.replace(/[\s,_]/gu, '')) : undefined;
}

/** What Enter will do, said back under the box once the amount is valid. */
export function riskAmountEcho(amount: number, perMatch: number): string {
  const matches = Math.floor(amount / perMatch);
  return `Enter runs it once without your ceiling, accepting a bill of ${fmtCredits(amount)} (${matches.toLocaleString('en-US')} matching wallets). If more match, every match is billed: the service cannot be told to stop.`;
}

/**
 * The result's one line: "1,529 matched · charged 152,900 credits · showing 100 (limit)"; with
 * `accepted` (the amount typed to lift the ceiling) below the charge, the charge says so.
 */
export function matchedSummary(total: number, charged: number, shown: number, accepted?: number): string {
  const over = accepted !== undefined && charged > accepted ? ` (above the ${accepted.toLocaleString('en-US')} you accepted)` : '';
  const parts = [`${total.toLocaleString('en-US')} matched`, `charged ${fmtCredits(charged)}${over}`];
  if (shown < total) parts.push(`showing ${shown.toLocaleString('en-US')} (limit)`);
  return parts.join(' · ');
}
