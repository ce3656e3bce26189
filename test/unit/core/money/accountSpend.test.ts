/**
 * Issue 35 item 4: the budgets and "Spent this period" count what the free request history shows
 * (every paid request of the account: the exported runner's, a bot's), not only this editor's
 * ledger, and never one charge twice.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { accountSpend, MATCH_WINDOW_MS } from '../../../../src/core/money/accountSpend';
import { budgetStates, type Budgets } from '../../../../src/core/money/budget';
import { SpendLedger, type SpendEntry } from '../../../../src/core/money/spendLedger';
import type { RequestRecord } from '../../../../src/core/spec/wire';

const SCOPE = 'http://127.0.0.1:1';
const now = Date.parse('2026-12-10T15:30:00Z');
const reset = new Date('2026-12-25T00:00:00Z');
const iso = (ms: number) => new Date(ms).toISOString();
const rec = (requestId: string, endpoint: string, cost: number, at: number, extra: Partial<RequestRecord> = {}): RequestRecord => ({ requestId, url: '', endpoint, status: 'done', createdAt: iso(at), cost, ...extra });
const entry = (id: string, endpointId: string, credits: number, at: number, extra: Partial<SpendEntry> = {}): SpendEntry => ({ endpointId, credits, at, scope: SCOPE, id, ...extra });
const total = (xs: readonly SpendEntry[], scope = SCOPE) => xs.filter((e) => e.scope === scope && !e.hold).reduce((s, e) => s + e.credits, 0);

describe('the account’s spend: the ledger merged with the request history', () => {
  it('adds what other clients of the key spent (the runner, a bot), and counts this editor’s own charges once', () => {
    const ledger = [
      entry('l1', 'trending', 50, now - 60_000, { requestId: 'req_mine' }),
      entry('l2', 'wallet_database', 15_300, now - 30_000), // a direct call: not in the history
    ];
    const history = [
      rec('req_mine', 'trending', 50, now - 59_000),
      rec('req_runner', 'pnl', 4_755, now - 3_600_000),
      rec('req_bot', 'toptraders', 500, now - 7_200_000, { status: 'failed', error: 'timed out' }), // accepted, so charged
    ];
    const spend = accountSpend(ledger, history, SCOPE);
    assert.equal(total(spend), 50 + 15_300 + 4_755 + 500);
    const runner = spend.find((e) => e.requestId === 'req_runner');
    assert.deepEqual([runner?.endpointId, runner?.credits, runner?.elsewhere], ['pnl', 4_755, true]);
    assert.equal(spend.filter((e) => e.requestId === 'req_mine').length, 1, 'matched by requestId: once');
  });

  it('matches an older ledger entry without a requestId by endpoint, credits and time, one to one', () => {
    const ledger = [entry('old', 'trending', 50, now - 5 * 60_000)];
    const history = [rec('req_a', 'trending', 50, now - 5 * 60_000 + 2_000), rec('req_b', 'trending', 50, now - 4 * 60_000)];
    const spend = accountSpend(ledger, history, SCOPE);
    assert.equal(total(spend), 100, 'one of the two matches the ledger entry; the other is a second charge');
    const far = accountSpend([entry('old', 'trending', 50, now - MATCH_WINDOW_MS - 60_000)], [rec('req_a', 'trending', 50, now)], SCOPE);
    assert.equal(total(far), 100, 'too far apart in time: two charges');
    const other = accountSpend([entry('old', 'trending', 50, now)], [rec('req_a', 'mcap', 50, now)], SCOPE);
    assert.equal(total(other), 100, 'another endpoint: two charges');
  });

  it('leaves other scopes, holds, free and unreadable records alone; no history is the ledger alone', () => {
    const ledger = [entry('h', 'pnl', 900, now - 1_000, { hold: true }), entry('x', 'trending', 50, now, { scope: 'other' })];
    const history = [rec('req_free', 'requests', 0, now), rec('req_notime', 'pnl', 100, now, { createdAt: 'yesterday' }), rec('req_nocost', 'pnl', 100, now, { cost: undefined })];
    assert.deepEqual(accountSpend(ledger, history, SCOPE), ledger);
    assert.deepEqual(accountSpend(ledger, undefined, SCOPE), ledger);
    assert.equal(total(accountSpend(ledger, [rec('req_r', 'pnl', 100, now)], 'other'), 'other'), 150, 'the history is the scope’s');
  });

  it('a budget counts the runner’s spend: a call this editor could afford alone is refused past the daily budget', async () => {
    const B: Budgets = { perDay: 5_000, perPeriod: 0 };
    let saved: SpendEntry[] = [];
    let history: RequestRecord[] | undefined = undefined;
    const ledger = new SpendLedger({ read: () => saved, write: (items) => ((saved = items), Promise.resolve()) }, () => now, () => history);
    await ledger.record('trending', 50, SCOPE, 'req_mine');
    assert.equal(ledger.budgets(B, SCOPE, reset)[0]?.left, 4_950, 'before the history is read: the ledger alone');
    history = [rec('req_mine', 'trending', 50, now), rec('req_runner', 'pnl', 4_755, now - 60_000)];
    assert.equal(ledger.budgets(B, SCOPE, reset)[0]?.spent, 4_805, 'the runner’s 4,755 and this editor’s 50, once');
    const h = await ledger.hold('mcap', 500, SCOPE, B, reset);
    assert.ok('refused' in h, 'past the day’s budget, counting the runner');
    assert.match(h.refused, /needs 500 credits.*195 credits left/u);
    assert.equal(total(ledger.spend(SCOPE)), 4_805, '“Spent this period” reads the same merge');
    assert.equal(budgetStates(B, ledger.spend(SCOPE), SCOPE, now, reset)[0]?.spent, 4_805);
  });
});
