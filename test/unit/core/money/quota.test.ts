import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { endpoint } from '../../../../src/core/spec/catalog';
import { quote } from '../../../../src/core/money/pricing';
import { nextReset, priceGate } from '../../../../src/core/money/quota';
import { PERIOD_MS } from '../../../../src/core/money/quotaPeriod';
import { sampleAddress } from '../../../../src/core/spec/samples';

const S = { confirmAbove: 1_000, maxCreditsPerCall: 1_000_000 };
const tokens = (n: number) => Array.from({ length: n }, (_, i) => sampleAddress('main', i));
const reset = new Date('2026-12-01T00:00:00Z');

describe('price gate', () => {
  it('lets free calls through without a step', () => {
    assert.deepEqual(priceGate(quote(endpoint('credits'), {}), S, 10, reset), { kind: 'free' });
  });
  it('shows the exact price, the balance after and the next reset as the last step below the threshold', () => {
    const g = priceGate(quote(endpoint('toptraders'), { tokens: tokens(2) }), S, 1_000_000, reset);
    assert.equal(g.kind, 'step');
    assert.ok(g.kind === 'step');
    assert.match(g.label, /200 credits \(2 tokens × 100\)/u);
    // Short enough for the quick pick's detail line (it cuts at about 85 characters).
    assert.equal(g.detail, 'balance after 999,800 · resets 2026-12-01 · ceiling 1,000,000 per call');
    const far = priceGate(quote(endpoint('toptraders'), { tokens: tokens(2) }), S, 999_999_999, reset, true);
    assert.ok(far.kind === 'step');
    assert.equal(far.detail, 'balance after 999,999,799 · resets ~2026-12-01 · ceiling 1,000,000 per call');
    assert.ok(far.detail.length <= 80, `${far.detail.length} characters`);
  });
  it('asks for confirmation above walletAnalytics.confirmAbove', () => {
    const g = priceGate(quote(endpoint('toptraders'), { tokens: tokens(11) }), S, 1_000_000, reset);
    assert.equal(g.kind, 'modal');
    // A dialog has room for the long form, and says in words when the reset date is estimated.
    const est = priceGate(quote(endpoint('toptraders'), { tokens: tokens(11) }), S, 1_000_000, reset, true);
    assert.ok(est.kind === 'modal');
    assert.match(est.detail, /\)\. Balance after: 998,900 · next reset: 2026-12-01 · ceiling 1,000,000 credits per call \(reset date estimated\)$/u);
  });
  it('refuses above walletAnalytics.maxCreditsPerCall and says how to raise it, and that nothing was charged', () => {
    const g = priceGate(quote(endpoint('pnl'), { wallets: tokens(300_000) }), S, 1e9, reset);
    assert.equal(g.kind, 'refuse');
    assert.match(g.kind === 'refuse' ? g.message : '', /above your limit of 1,000,000 credits.*nothing was charged.*maxCreditsPerCall/su);
  });
  it('refuses a call above the balance', () => {
    const g = priceGate(quote(endpoint('mcap'), {}), S, 499, reset);
    assert.equal(g.kind, 'refuse');
  });
  it('refuses a Wallet Database query whose match count is unknown under the ceiling, unless the person lifts it for this call', () => {
    const g = priceGate(quote(endpoint('wallet_database'), {}), S, 1e9, reset);
    assert.equal(g.kind, 'unbounded', 'an unknown bill is not waved through with a confirmation');
    assert.ok(g.kind === 'unbounded');
    assert.equal(g.ceiling, 1_000_000);
    assert.match(g.message, /match count is not known.*ceiling of 1,000,000 credits per call/u);
    assert.match(g.detail, /^balance now: 1,000,000,000 · next reset/u);
    assert.doesNotMatch(`${g.message} ${g.detail} ${g.refusal}`, /type|accept|risk/iu, 'no amount to type: one reads as a cap (issue 35 item 1)');
    assert.match(g.refusal, /^Not sent, nothing charged/u);
    const known = priceGate(quote(endpoint('wallet_database'), {}, { knownMatches: 3 }), S, 1e9, reset);
    assert.equal(known.kind, 'step');
  });
  it('refuses a query whose exactly known match count passes the ceiling (20,000 matches = 2,000,000 credits)', () => {
    const g = priceGate(quote(endpoint('wallet_database'), {}, { knownMatches: 20_000 }), S, 1e9, reset);
    assert.equal(g.kind, 'refuse');
    assert.match(g.kind === 'refuse' ? g.message : '', /2,000,000 credits, above your limit of 1,000,000/u);
  });
  it('shows the ceiling in force with the price', () => {
    const g = priceGate(quote(endpoint('trending'), {}), S, 1e9, reset);
    assert.ok(g.kind === 'step');
    assert.match(g.detail, /ceiling 1,000,000 per call$/u);
  });
});

describe('next reset', () => {
  it('counts 30-day periods from the anchor', () => {
    const anchor = Date.UTC(2026, 10, 1);
    assert.equal(nextReset(anchor, anchor + 1).getTime(), anchor + PERIOD_MS);
    assert.equal(nextReset(anchor, anchor + PERIOD_MS + 5).getTime(), anchor + 2 * PERIOD_MS);
  });
});
