/**
 * The hourly refresh (§8.5) as one rule: it falls at the top of every UTC hour, for the client's
 * run cache and exact quotes and for the sandbox's data alike. The case that broke: a query run
 * at 14:50 and again at 15:10 was priced "exact" from the first run's count and its cached answer
 * opened as current, while the sandbox had refreshed at 15:00.
 */
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { WalletAnalyticsApi } from '../../../../src/core/transport/api';
import { endpoint } from '../../../../src/core/spec/catalog';
import { quote } from '../../../../src/core/money/pricing';
import type { QueryBody } from '../../../../src/core/spec/queryModel';
import { QueryRunCache } from '../../../../src/core/query/runCache';
import { fmtRefreshTime, nextRefresh, refreshPeriodStart, sameRefreshPeriod } from '../../../../src/core/spec/refresh';
import { startSandbox, type Sandbox } from '../../../../src/sandbox/index';

const at = (h: number, m: number, s = 0, ms = 0) => Date.UTC(2026, 10, 21, h, m, s, ms);
const BASE = 'http://127.0.0.1:1';
const body: QueryBody = { where: { and: [{ field: 'winrate_30d', op: '>', value: 0.5 }] }, limit: 5 };

describe('the hourly refresh rule', () => {
  it('falls at the top of every UTC hour', () => {
    assert.equal(refreshPeriodStart(at(14, 50)), at(14, 0));
    assert.equal(refreshPeriodStart(at(15, 0)), at(15, 0));
    assert.equal(nextRefresh(at(14, 50)), at(15, 0));
    assert.equal(nextRefresh(at(14, 59, 59, 999)), at(15, 0));
    assert.equal(nextRefresh(at(15, 0)), at(16, 0));
    assert.equal(fmtRefreshTime(nextRefresh(at(14, 5))), '15:00 UTC');
  });

  it('puts 14:05 and 14:55 in one period, and 14:50 and 15:10 (twenty minutes apart) in two', () => {
    assert.ok(sameRefreshPeriod(at(14, 5), at(14, 55)));
    assert.ok(sameRefreshPeriod(at(14, 0), at(14, 59, 59, 999)));
    assert.ok(!sameRefreshPeriod(at(14, 50), at(15, 10)));
    assert.ok(!sameRefreshPeriod(at(14, 59, 59, 999), at(15, 0)));
  });
});

describe('the run cache follows the clock hour', () => {
  const record = (cache: QueryRunCache, t: number) =>
    cache.record({ scope: BASE, chain: 'main', at: t, total: 323, charged: 32_300, body, answer: { total: 323, wallets: [] } });

  it('a run at 14:50 is stale at 15:10: not opened free, and its count gives no exact quote', async () => {
    let now = at(14, 50);
    const cache = new QueryRunCache(mkdtempSync(join(tmpdir(), 'wa-refresh-')), () => now);
    await record(cache, now);
    assert.ok(await cache.lookup(BASE, 'main', body), 'current at 14:50');
    now = at(15, 10);
    assert.equal(await cache.lookup(BASE, 'main', body), undefined, 'stale at 15:10: the refresh fell at 15:00');
    const q = quote(endpoint('wallet_database'), {}, { knownMatches: 323, matchesAt: at(14, 50), now });
    assert.equal(q.exact, false);
    assert.equal(q.credits, 100, 'the unknown-count price (the minimum), not 32,300');
    assert.match(q.text, /per matching wallet.*before the refresh at 15:00 UTC/u);
  });

  it('a run at 14:05 is current at 14:55, and its count prices the re-run exactly, saying until when', async () => {
    let now = at(14, 5);
    const cache = new QueryRunCache(mkdtempSync(join(tmpdir(), 'wa-refresh-')), () => now);
    await record(cache, now);
    now = at(14, 55);
    const run = await cache.lookup(BASE, 'main', body);
    assert.equal(run?.total, 323);
    const q = quote(endpoint('wallet_database'), {}, { knownMatches: run.total, matchesAt: run.at, now });
    assert.equal(q.exact, true);
    assert.equal(q.credits, 32_300);
    assert.match(q.text, /exact until the refresh at 15:00 UTC/u);
    now = at(15, 0);
    assert.equal(await cache.lookup(BASE, 'main', body), undefined, 'stale from 15:00 on');
  });
});

describe('the sandbox refreshes on the same rule', () => {
  let t = at(14, 5);
  let sb: Sandbox;
  let api: WalletAnalyticsApi;
  const query: QueryBody = { where: { and: [{ field: 'winrate_30d', op: '>', value: 0.5 }] }, limit: 20, sort: [{ field: 'winrate_30d', dir: 'asc' }], columns: ['winrate_30d'] };
  const charged = (since: number) => sb.ledger().slice(since).reduce((s, e) => s + e.credits, 0);

  before(async () => {
    sb = await startSandbox({ wallets: 2_000, altWallets: 200, now: () => t });
    api = new WalletAnalyticsApi({ baseUrl: sb.baseUrl, apiKey: () => Promise.resolve(sb.demoKey) });
  });
  after(() => sb.close());

  it('answers alike inside one clock hour, where the client quotes exactly, and the exact quote is the charge', async () => {
    const cache = new QueryRunCache(mkdtempSync(join(tmpdir(), 'wa-refresh-')), () => t);
    t = at(14, 5);
    const first = await api.walletDatabase('main', query);
    await cache.record({ scope: sb.baseUrl, chain: 'main', at: t, total: first.total, charged: 0, body: query, answer: first });
    t = at(14, 55);
    const run = await cache.lookup(sb.baseUrl, 'main', query);
    assert.ok(run, 'the client calls the 14:05 run current at 14:55');
    const q = quote(endpoint('wallet_database'), {}, { knownMatches: run.total, matchesAt: run.at, now: t });
    assert.equal(q.exact, true);
    const since = sb.ledger().length;
    const again = await api.walletDatabase('main', query);
    assert.deepEqual(again, first, 'the sandbox answers the same at 14:55');
    assert.equal(charged(since), q.credits, 'the exact quote is what was charged');
  });

  it('may answer differently across the top of the hour, where the client calls the run stale', async () => {
    const cache = new QueryRunCache(mkdtempSync(join(tmpdir(), 'wa-refresh-')), () => t);
    t = at(16, 50);
    const before1500 = await api.walletDatabase('main', query);
    await cache.record({ scope: sb.baseUrl, chain: 'main', at: t, total: before1500.total, charged: 0, body: query, answer: before1500 });
    t = at(17, 10);
    assert.equal(await cache.lookup(sb.baseUrl, 'main', query), undefined, 'the client calls the 16:50 run stale at 17:10');
    const after1500 = await api.walletDatabase('main', query);
    assert.notDeepEqual(after1500.wallets, before1500.wallets, 'the sandbox refreshed at 17:00, twenty minutes after the run');
    // And right at the boundary: the last millisecond of an hour and the first of the next differ too.
    t = at(17, 59, 59, 999);
    const last = await api.walletDatabase('main', query);
    t = at(18, 0);
    const next = await api.walletDatabase('main', query);
    assert.notDeepEqual(next.wallets, last.wallets);
  });
});
