/**
 * What a call costs, computed before it is sent (§8.2, §4.2, §4.3 rule 5).
 * Pure: the same function drives the price preview, the confirmation threshold,
 * the per-call ceiling, and the sandbox's charging, so they cannot disagree.
 */
import type { Endpoint } from '../spec/catalog';
import { fmtRefreshTime, nextRefresh, sameRefreshPeriod } from '../spec/refresh';
import { l10n } from '../l10n';
import { fmtCredits, thousands } from '../numberText';
import { isPackedList } from '../spec/packedList';

export interface Quote {
  /**
   * The credits this call costs. Per match without a known count: the minimum. Per creator returned
   * and per page without a known count: the most (`atMost`), since reading may stop early.
   */
  readonly credits: number;
  /** True when `credits` is exactly what will be charged. */
  readonly exact: boolean;
  /** The largest the bill can be, when known (per-returned: a full page). */
  readonly atMost?: number;
  /** One line a person reads before paying, e.g. "200 credits (2 tokens × 100)". */
  readonly text: string;
}

export interface QuoteContext {
  /**
   * Wallet Database: a known match count. Alone, it is the count of this very call (charging after
   * the answer). With `matchesAt`, it is the count of an earlier identical run at that time (ms),
   * and the price is exact only while `now` is in the same refresh period (src/core/spec/refresh.ts).
   */
  readonly knownMatches?: number;
  /** When the run that gave `knownMatches` was sent (ms). */
  readonly matchesAt?: number;
  /** The time the quote is for (ms); default Date.now(). Read only with `matchesAt`. */
  readonly now?: number;
  /** Activity and token creators: the most pages the call will read (it stops early at the last page). */
  readonly pages?: number;
  /** Token creators: how many creators the page returned (for charging after the fact). */
  readonly returned?: number;
}

/** The price of one call of ep with validated input. */
export function quote(ep: Endpoint, input: Record<string, unknown>, ctx: QuoteContext = {}): Quote {
  const rule = ep.price;
  switch (rule.kind) {
    case 'free':
      return { credits: 0, exact: true, text: l10n.t('Free') };
    case 'flat':
      return { credits: rule.credits, exact: true, text: fmtCredits(rule.credits) };
    case 'perItem': {
      const v = input[rule.field];
      const n = Array.isArray(v) || isPackedList(v) ? v.length : 0;
      const credits = n * rule.credits;
      return {
        credits,
        exact: true,
        text: `${fmtCredits(credits)} (${thousands(n)} ${rule.unit}${n === 1 ? '' : 's'} × ${rule.credits})`,
      };
    }
    case 'perMatch': {
      const unknown = l10n.t('{0} credits per matching wallet, at least {1}: the bill follows the number of matches, not the limit', rule.credits, fmtCredits(rule.minimum));
      if (ctx.knownMatches === undefined) return { credits: rule.minimum, exact: false, text: unknown };
      const matches = thousands(ctx.knownMatches);
      const credits = matchCharge(ctx.knownMatches, rule.credits, rule.minimum);
      if (ctx.matchesAt === undefined) {
        return { credits, exact: true, text: l10n.t('{0} ({1} matching wallets × {2})', fmtCredits(credits), matches, rule.credits) };
      }
      const now = ctx.now ?? Date.now();
      // An earlier run's count is this call's count only until the next hourly refresh.
      if (now >= ctx.matchesAt && sameRefreshPeriod(ctx.matchesAt, now)) {
        return {
          credits,
          exact: true,
          text: l10n.t('{0} ({1} matching wallets × {2}, from the same query at {3}; exact until the refresh at {4})', fmtCredits(credits), matches, rule.credits, fmtRefreshTime(ctx.matchesAt), fmtRefreshTime(nextRefresh(ctx.matchesAt))),
        };
      }
      return {
        credits: rule.minimum,
        exact: false,
        text: l10n.t('{0} (the last run\'s {1} matches are from before the refresh at {2})', unknown, matches, fmtRefreshTime(nextRefresh(ctx.matchesAt))),
      };
    }
    case 'perReturned': {
      const size = typeof input[rule.field] === 'number' ? (input[rule.field] as number) : 0;
      if (ctx.returned !== undefined) {
        const credits = ctx.returned * rule.credits;
        return { credits, exact: true, text: l10n.t('{0} ({1} returned × {2})', fmtCredits(credits), ctx.returned, rule.credits) };
      }
      // A page may hold fewer creators than its size, and reading stops at a short page: "up to".
      const pages = Math.max(1, ctx.pages ?? 1);
      const atMost = pages * size * rule.credits;
      return {
        credits: atMost,
        exact: false,
        atMost,
        text:
          pages === 1
            ? l10n.t('up to {0} ({1} per creator returned, {2} per page)', fmtCredits(atMost), rule.credits, size)
            : l10n.t('up to {0} ({1} pages × {2} creators × {3}, {4} per creator returned; stops early at the last page)', fmtCredits(atMost), pages, size, rule.credits, rule.credits),
      };
    }
    case 'perPage': {
      const pages = Math.max(1, ctx.pages ?? 1);
      const credits = pages * rule.credits;
      // One page is one page; more stop early at the last page, so their count is a ceiling.
      if (pages === 1) return { credits, exact: true, text: l10n.t('{0} (1 page × {1})', fmtCredits(credits), rule.credits) };
      return {
        credits,
        exact: false,
        atMost: credits,
        text: l10n.t('up to {0} ({1} pages × {2}; stops early at the last page)', fmtCredits(credits), pages, rule.credits),
      };
    }
  }
}

/** The Wallet Database charge for a match count: per match, a flat minimum when nothing matches (§4.2). */
export function matchCharge(matches: number, perMatch = 100, minimum = 100): number {
  return Math.max(minimum, matches * perMatch);
}

/** Whether the endpoint ever costs credits. */
export function isPaid(ep: Endpoint): boolean {
  return ep.price.kind !== 'free';
}

/** A short description of the price rule, for tables and QuickPick details. */
export function describeRule(ep: Endpoint): string {
  const r = ep.price;
  switch (r.kind) {
    case 'free':
      return 'free';
    case 'flat':
      return fmtCredits(r.credits);
    case 'perItem':
      return l10n.t('{0} per {1}', r.credits, r.unit);
    case 'perMatch':
      return l10n.t('{0} per matching wallet ({1} when none)', r.credits, r.minimum);
    case 'perReturned':
      return l10n.t('{0} per creator returned', r.credits);
    case 'perPage':
      return l10n.t('{0} per page', r.credits);
  }
}
