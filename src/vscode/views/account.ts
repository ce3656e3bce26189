/** What the Account view and the credits status bar item both show, computed once. */
import { endpointTitle } from '../../core/history/format';
import { accountForecast, type BudgetState, type Forecast } from '../../core/money/budget';
import { PERIOD_MS, QUOTA } from '../../core/money/quotaPeriod';
import { readSettings } from '../base/settings';
import type { Connection } from '../base/connection';
import type { CreditsService, SpendEntry } from '../base/credits';
import type { ApiKeyStore } from '../base/secrets';
import type { AgentAllowance } from '../base/agentAllowance';
import type { AllowanceState } from '../../core/money/agentAllowance';

type KeyState = 'set' | 'notSet' | 'sandbox';

export interface SpendLine {
  readonly endpointId: string;
  readonly title: string;
  readonly credits: number;
  readonly calls: number;
}

export interface AccountFacts {
  readonly keyState: KeyState;
  readonly baseUrl: string;
  /** The active profile's name, and what its records are keyed by (Connection.scope). */
  readonly profileId: string;
  readonly profileName: string;
  readonly scope: string;
  readonly balance?: { readonly value: number; readonly at: number };
  /** Quota minus balance: what the account used this period, by anyone. */
  readonly used?: number;
  readonly quota: number;
  readonly reset?: { readonly date: Date; readonly estimated: boolean };
  /** When this period started, when known. */
  readonly periodStart?: number;
  /** What the key spent this period against this base URL (the ledger merged with the request history), by endpoint, most first. */
  readonly spend: readonly SpendLine[];
  readonly spendTotal: number;
  /** Each budget set (walletAnalytics.budget.*), with this scope's spend and holds in every window. */
  readonly budgets: readonly BudgetState[];
  /** The agent allowance today (walletAnalytics.agentAllowancePerDay), undefined when none is set. */
  readonly allowance?: AllowanceState;
  /** The period's spend at its current pace, to the reset, against the period budget (or the quota). */
  readonly forecast?: Forecast;
}

/**
 * Sums a ledger by endpoint, for the entries of a scope (a profile and its base URL) since `since`
 * (all when undefined).
 */
export function spendByEndpoint(ledger: readonly SpendEntry[], scope: string, since: number | undefined): SpendLine[] {
  const by = new Map<string, { credits: number; calls: number }>();
  for (const e of ledger) {
    if (e.scope !== scope || (since !== undefined && e.at < since)) continue;
    const s = by.get(e.endpointId) ?? { credits: 0, calls: 0 };
    s.credits += e.credits;
    s.calls += 1;
    by.set(e.endpointId, s);
  }
  return [...by]
    .map(([endpointId, s]) => ({ endpointId, title: endpointTitle(endpointId), ...s }))
    .sort((a, b) => b.credits - a.credits || a.title.localeCompare(b.title));
}

export function accountFacts(connection: Connection, keys: ApiKeyStore, credits: CreditsService, allowance?: AgentAllowance): AccountFacts {
  const baseUrl = connection.baseUrl();
  const scope = connection.scope();
  const keyState: KeyState = connection.mode === 'sandbox' ? 'sandbox' : keys.peek() ? 'set' : 'notSet';
  const balance = credits.peek();
  const reset = credits.nextReset();
  const periodStart = reset ? reset.date.getTime() - PERIOD_MS : undefined;
  const spend = spendByEndpoint(credits.ledger(), scope, periodStart);
  const spendTotal = spend.reduce((s, l) => s + l.credits, 0);
  const b = readSettings().budgets;
  const budgets = credits.budgets(b, scope);
  const used = balance ? Math.max(0, QUOTA - balance.value) : undefined;
  return {
    keyState,
    baseUrl,
    profileId: connection.activeProfile().id,
    profileName: connection.activeProfile().name,
    scope,
    balance,
    used,
    quota: QUOTA,
    reset,
    periodStart,
    spend,
    spendTotal,
    budgets,
    allowance: allowance?.state(scope),
    forecast: reset && periodStart !== undefined ? accountForecast({ spend: spendTotal, used, since: periodStart, estimated: reset.estimated, now: Date.now(), by: reset.date, perPeriod: b.perPeriod, quota: QUOTA }) : undefined,
  };
}

/** "2026-12-21" (UTC, as the price step and Show Credits write it). */
export function isoDay(d: Date): string {
  return d.toISOString().slice(0, 10);
}
