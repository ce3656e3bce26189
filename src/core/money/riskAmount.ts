/**
 * A bill with no known bound: a Wallet Database query whose match count is unknown (§4.2: 100
 * credits per match, whatever the limit). No client can cap it, so the palette's price question
 * asks for no amount (a typed amount read as a limit, and a trader typed 50,000 and paid 153,400:
 * issue 35 item 1): it says the rule first and gives what is known (unboundedBillWords).
 *
 * A watch still takes an amount per run (riskAmountProblem, parseRiskAmount): a run whose last
 * count would pass it is skipped, so there it is a rule the watch keeps, not a wish. The result
 * says when a bill passed the amount accepted.
 */
import { matchCharge } from './pricing';
import { l10n } from '../l10n';
import { fmtCredits, thousands } from '../numberText';

/** "2026-11-21 14:05 UTC": a date a person reads the same in every time zone. */
function fmtUtc(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/**
 * The price question of a query whose count is unknown, in the order a person must read it:
 * `message` (the largest words) the rule and that nobody can know the count; `known` what is
 * known (the last answer's count, dated: an estimate; core/query/runCache.ts LAST_COUNTS keeps
 * it); `rule` what bounds nothing; the Run choice's label and detail.
 */
export function unboundedBillWords(a: {
  readonly perMatch: number;
  readonly minimum: number;
  readonly ceiling: number;
  readonly now: number;
  readonly last?: { readonly at: number; readonly total: number; readonly of: 'query' | 'file' };
}): { message: string; known: string; rule: string; runLabel: string; runDetail: string } {
  const { last } = a;
  const estimate = last === undefined ? undefined : matchCharge(last.total, a.perMatch, a.minimum);
  const count = last === undefined ? '' : thousands(last.total);
  const known = last === undefined || estimate === undefined
    ? l10n.t('Nothing is known of its count yet: this query has no earlier answer here. The smallest bill is {0}; there is no largest.', fmtCredits(a.minimum))
    : last.of === 'query'
      ? l10n.t('Known: this query’s last answer, {0}, matched {1} wallets ({2}). An estimate only: the data has been refreshed since.', fmtUtc(last.at), count, fmtCredits(estimate))
      : l10n.t('Known: this file’s last answer, {0}, matched {1} wallets ({2}), for its query as it was then. An estimate only: the query and the data have changed since.', fmtUtc(last.at), count, fmtCredits(estimate));
  return {
    message: l10n.t('The bill is {0} × the wallets that match, and nobody can know how many match before the answer.', fmtCredits(a.perMatch)),
    known,
    rule: l10n.t('The limit trims the rows shown, not the bill, and your ceiling of {0} per call cannot hold it: choosing Run pays for every match. After the answer, the same query has an exact price until the next hourly refresh.', fmtCredits(a.ceiling)),
    runLabel: l10n.t('$(play) Run — {0} × the matches', fmtCredits(a.perMatch)),
    runDetail: estimate === undefined || last === undefined
      ? l10n.t('the count is not known before the answer; at least {0}', fmtCredits(a.minimum))
      : l10n.t('about {0} by the answer of {1}; the count is not known before the answer', fmtCredits(estimate), fmtUtc(last.at)),
  };
}

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
  return `Enter runs it once without your ceiling, accepting a bill of ${fmtCredits(amount)} (${thousands(matches)} matching wallets). If more match, every match is billed: the service cannot be told to stop.`;
}

/**
 * The result's one line: "1,529 matched · charged 152,900 credits · showing 100 (limit)"; with
 * `accepted` (the amount typed to lift the ceiling) below the charge, the charge says so.
 */
export function matchedSummary(total: number, charged: number, shown: number, accepted?: number): string {
  const over = accepted !== undefined && charged > accepted ? ` (above the ${thousands(accepted)} you accepted)` : '';
  const parts = [`${thousands(total)} matched`, `charged ${fmtCredits(charged)}${over}`];
  if (shown < total) parts.push(`showing ${thousands(shown)} (limit)`);
  return parts.join(' · ');
}
