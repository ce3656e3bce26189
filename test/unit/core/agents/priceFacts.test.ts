/**
 * What an agent is told of a price (issue 33), from the same gate as the price step: covered only
 * when the allowance leaves the worst known case and nothing refuses it; a refusal (ceiling,
 * budget) is said; a Wallet Database query of unknown count is never covered; the allowance is the
 * UTC day's spend and holds in the agent ledger.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { agentPriceFacts, askedWords } from '../../../../src/core/agents/priceFacts';
import { allowanceState, allowanceWords } from '../../../../src/core/money/agentAllowance';
import { budgetStates, DAY_MS, HOLD_TTL_MS } from '../../../../src/core/money/budget';
import { endpoint } from '../../../../src/core/spec/catalog';
import { SAMPLE_QUERY, sampleAddress } from '../../../../src/core/spec/samples';

const tokens = (n: number) => Array.from({ length: n }, (_, i) => sampleAddress('main', i + 1));

const settings = { confirmAbove: 1_000, maxCreditsPerCall: 1_000_000 };
const NOW = Date.UTC(2026, 10, 27, 12);

describe('agents: the price an agent is told', () => {
  it('the allowance is today’s (UTC) spend and fresh holds of the agent ledger, per scope', () => {
    const entries = [
      { credits: 100, at: NOW - 3_600_000, scope: 's' },
      { credits: 999, at: NOW - DAY_MS, scope: 's' }, // yesterday
      { credits: 50, at: NOW - 60_000, scope: 's', hold: true },
      { credits: 70, at: NOW - HOLD_TTL_MS - 1, scope: 's', hold: true }, // a stale hold
      { credits: 500, at: NOW, scope: 'other' },
    ];
    const s = allowanceState(500, entries, 's', NOW);
    assert.equal(s?.spent, 150);
    assert.equal(s?.left, 350);
    assert.equal(s?.resetsAt.toISOString(), '2026-11-28T00:00:00.000Z');
    assert.equal(allowanceState(0, entries, 's', NOW), undefined, '0: none');
    assert.match(allowanceWords(undefined), /is 0\): the person is asked for every paid call/u);
    assert.match(allowanceWords(s), /350 credits of the agent allowance left today \(of 500 credits; resets 2026-11-28 00:00 UTC\)/u);
  });

  it('covered within what the allowance leaves; past it, asked; its lines say price, balance after, ceiling, budgets, allowance', () => {
    const ep = endpoint('toptraders');
    const allowance = allowanceState(250, [], 's', NOW);
    const budgets = budgetStates({ perDay: 10_000, perPeriod: 0 }, [], 's', NOW, undefined);
    const f = agentPriceFacts(ep, { tokens: tokens(2) }, { balance: 1_000, settings, budgets, ...(allowance ? { allowance } : {}) });
    assert.ok(!('problems' in f));
    assert.equal(f.covered, true);
    assert.deepEqual(f.lines.slice(0, 4), ['Top Traders of Tokens: 200 credits (2 tokens × 100).', 'Balance after: 800.', 'The per-call ceiling: 1,000,000 credits.', 'Daily budget: 10,000 left of 10,000 (resets at 2026-11-28 00:00 UTC).']);
    assert.match(askedWords(f), /chat’s confirmation is the only question/u);
    const three = agentPriceFacts(ep, { tokens: tokens(3) }, { balance: 1_000, settings, budgets, ...(allowance ? { allowance } : {}) });
    assert.ok(!('problems' in three) && !three.covered);
    assert.match(askedWords(three), /price step asks the person \(Cancel is the default\)/u);
  });

  it('a refusal is never covered and is said; bad inputs are problems; a query of unknown count is never covered', () => {
    const allowance = allowanceState(1e9, [], 's', NOW);
    const a = allowance ? { allowance } : {};
    const over = agentPriceFacts(endpoint('toptraders'), { tokens: tokens(2) }, { balance: 1_000, settings: { ...settings, maxCreditsPerCall: 100 }, budgets: [], ...a });
    assert.ok(!('problems' in over) && !over.covered && /above your limit of 100 credits/u.test(over.refusal ?? ''));
    assert.match(askedWords(over), /refused before sending/u);
    assert.ok('problems' in agentPriceFacts(endpoint('toptraders'), { tokens: [] , nope: 1 }, { settings, budgets: [], ...a }));
    const wd = agentPriceFacts(endpoint('wallet_database'), { query: SAMPLE_QUERY }, { balance: 1e9, settings, budgets: [], ...a });
    assert.ok(!('problems' in wd) && !wd.covered && wd.worst === undefined);
    assert.match(askedWords(wd), /always asked/u);
  });
});
