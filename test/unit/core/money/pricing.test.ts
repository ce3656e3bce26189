import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ENDPOINTS, endpoint, type Endpoint } from '../../../../src/core/spec/catalog';
import { chargedFor } from '../../../../src/core/transport/api';
import { matchCharge, quote } from '../../../../src/core/money/pricing';
import { sampleAddress, sampleInput } from '../../../../src/core/spec/samples';

const wallets = (n: number, chain: 'main' | 'alt' = 'main') => Array.from({ length: n }, (_, i) => sampleAddress(chain, i));
const tokens = (n: number) => wallets(n).map((_, i) => sampleAddress('main', 1000 + i));
const price = (id: string, input: Record<string, unknown>, ctx = {}) => quote(endpoint(id), input, ctx).credits;

describe('pricing: every worked cost of §8.4', () => {
  it('pnl on 10,000 wallets = 50,000', () => assert.equal(price('pnl', { wallets: wallets(10_000) }), 50_000));
  it('pnl on 100,000 wallets = 500,000', () => assert.equal(price('pnl', { wallets: wallets(100_000) }), 500_000));
  it('toptraders on 20 tokens = 2,000', () => assert.equal(price('toptraders', { tokens: tokens(20) }), 2_000));
  it('trending once a day for a month = 1,500', () => {
    let total = 0;
    for (let day = 0; day < 30; day++) total += price('trending', { hours: 24 });
    assert.equal(total, 1_500);
  });
  it('trending + toptraders on 10 tokens + pnl on 5,000 wallets = 26,050', () => {
    assert.equal(price('trending', { hours: 1 }) + price('toptraders', { tokens: tokens(10) }) + price('pnl', { wallets: wallets(5_000) }), 26_050);
  });
  it('Wallet Database query matching 1,000 wallets = 100,000', () =>
    assert.equal(price('wallet_database', {}, { knownMatches: 1_000 }), 100_000));
  it('Wallet Database query matching 100,000 wallets = 10,000,000', () =>
    assert.equal(price('wallet_database', {}, { knownMatches: 100_000 }), 10_000_000));
  it('one page of 50 creators = 5,000', () => assert.equal(price('token_creators', { page_size: 50 }), 5_000));
  it('one creator’s full record = 100', () => assert.equal(price('token_creator', { address: sampleAddress('main', 1) }), 100));
  it('a wallet with 2,000 swaps read in full (20 pages) = 20', () => assert.equal(price('wallet_activity', {}, { pages: 20 }), 20));
});

describe('pricing rules', () => {
  it('prices every queued endpoint as §8.2 says', () => {
    const table: Record<string, number> = {
      trending: 50, migratedtokens: 100, mcaptokens: 500, mcap: 500, timestamp: 500, buysellfilter: 1000,
      tokensoverlap: 100, firstbuysanalyze: 1000, botwallets: 500, dexwallets: 500, programstats: 50,
      programswaps: 500, lookuptablestats: 50, lookuptableswaps: 500, findaddress: 500,
    };
    for (const [id, credits] of Object.entries(table)) assert.equal(price(id, sampleInput(endpoint(id))), credits, id);
    const perToken: Record<string, number> = { toptraders: 100, earlybuyers: 50, alltraders: 150, athmcap: 100 };
    for (const [id, credits] of Object.entries(perToken)) assert.equal(price(id, { tokens: tokens(3) }), 3 * credits, id);
    assert.equal(price('pnl', { wallets: wallets(7) }), 35);
  });

  it('makes the account endpoints and the column lists free', () => {
    const free = ENDPOINTS.filter((e: Endpoint) => e.price.kind === 'free').map((e) => e.id).sort();
    assert.deepEqual(free, ['altchain_wallet_database_columns', 'credits', 'request', 'requests', 'reset_ip', 'wallet_database_columns']);
  });

  it('prices the second chain as the first (§4.3 rule 5)', () => {
    assert.equal(price('altchain_pnlplus', { wallets: wallets(10, 'alt') }), price('pnl', { wallets: wallets(10) }));
    assert.equal(price('altchain_dexwallets', { dex: 'curve', hours: 1 }), price('dexwallets', { dex: 'raydium_amm', hours: 1 }));
    assert.equal(price('altchain_wallet_database', {}, { knownMatches: 3 }), price('wallet_database', {}, { knownMatches: 3 }));
    assert.equal(price('altchain_wallet_activity', {}, { pages: 4 }), 4);
  });

  it('bills the Wallet Database by matches, 100 flat on none, and estimates without a known count', () => {
    assert.equal(matchCharge(0), 100);
    assert.equal(matchCharge(1), 100);
    assert.equal(matchCharge(2), 200);
    const est = quote(endpoint('wallet_database'), { query: { where: { and: [] }, limit: 100_000 } });
    assert.equal(est.exact, false);
    assert.equal(est.credits, 100);
    assert.match(est.text, /matches, not the limit/u);
    const known = quote(endpoint('wallet_database'), {}, { knownMatches: 12 });
    assert.equal(known.exact, true);
    assert.equal(known.credits, 1_200);
  });

  it('quotes reading up to N activity pages as "up to N credits": reading stops early at the last page', () => {
    for (const id of ['wallet_activity', 'altchain_wallet_activity']) {
      const up = quote(endpoint(id), {}, { pages: 20 });
      assert.deepEqual([up.credits, up.exact, up.atMost], [20, false, 20], id);
      assert.match(up.text, /^up to 20 credits \(20 pages × 1; stops early at the last page\)$/u);
    }
    // A known count stays exact: one page is one credit (the charge of each page read).
    const one = quote(endpoint('wallet_activity'), {}, { pages: 1 });
    assert.deepEqual([one.credits, one.exact, one.atMost, one.text], [1, true, undefined, '1 credit (1 page × 1)']);
    assert.deepEqual(quote(endpoint('wallet_activity'), {}), one);
  });

  it('charges a full read of 2,000 swaps (20 pages) 20 credits: one exact credit per page read (§8.4)', () => {
    const ep = endpoint('wallet_activity');
    let charged = 0;
    for (let page = 0; page < 20; page++) charged += chargedFor(ep, { address: sampleAddress('main', 1) }, { swaps: [], nextCursor: page < 19 ? `c${page}` : null });
    assert.equal(charged, 20);
  });

  it('quotes several pages of token creators as "up to pages × page_size × 100"; a returned count is exact', () => {
    const five = quote(endpoint('token_creators'), { page_size: 50 }, { pages: 5 });
    assert.deepEqual([five.credits, five.exact, five.atMost], [25_000, false, 25_000]);
    assert.match(five.text, /^up to 25,000 credits \(5 pages × 50 creators × 100/u);
    const one = quote(endpoint('token_creators'), { page_size: 50 });
    assert.deepEqual([one.credits, one.exact, one.atMost], [5_000, false, 5_000]);
    const got = quote(endpoint('token_creators'), { page_size: 50 }, { pages: 5, returned: 73 });
    assert.deepEqual([got.credits, got.exact], [7_300, true]);
  });

  it('shows a per-item price with its arithmetic', () => {
    assert.equal(quote(endpoint('toptraders'), { tokens: tokens(2) }).text, '200 credits (2 tokens × 100)');
  });
});
