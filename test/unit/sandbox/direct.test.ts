/** The sandbox's direct family: the Wallet Database (checked against brute force), creators, activity, second-chain pnl. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { metricColumns } from '../../../src/core/spec/metrics';
import { isAnd, type Condition, type QueryBody, type QueryNode } from '../../../src/core/spec/queryModel';
import { sampleAddress } from '../../../src/core/spec/samples';
import { ActivityPage, ColumnList, CreatorRecord, CreatorsPage, ErrorBody, WalletDatabaseResult, WalletMetrics } from '../../../src/core/spec/wire';
import { startSandbox, type Sandbox } from '../../../src/sandbox/index';

const N = 3_000;
type Row = Record<string, unknown>;

async function post(sb: Sandbox, path: string, body: unknown): Promise<{ status: number; body: unknown }> {
  const r = await fetch(`${sb.baseUrl}${path}`, { method: 'POST', headers: { api_key: sb.demoKey, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: r.status, body: await r.json() };
}
async function get(sb: Sandbox, path: string): Promise<{ status: number; body: unknown }> {
  const r = await fetch(`${sb.baseUrl}${path}`, { headers: { api_key: sb.demoKey } });
  return { status: r.status, body: await r.json() };
}
const message = (body: unknown): string => {
  const e = ErrorBody.parse(body).error;
  return typeof e === 'object' ? (e.message ?? '') : '';
};
const charged = (sb: Sandbox, since: number) => sb.ledger().slice(since).reduce((s, e) => s + e.credits, 0);

/** The reference evaluation: null matches nothing, between is inclusive. */
function holds(node: QueryNode, row: Row): boolean {
  if ('field' in node) return conditionHolds(node, row);
  return isAnd(node) ? node.and.every((n) => holds(n, row)) : node.or.some((n) => holds(n, row));
}
function conditionHolds(c: Condition, row: Row): boolean {
  const v = row[c.field];
  if (v === null || v === undefined) return false;
  const x = c.value;
  switch (c.op) {
    case '=':
      return v === x;
    case '!=':
      return v !== x;
    case '>':
      return (v as number) > (x as number);
    case '>=':
      return (v as number) >= (x as number);
    case '<':
      return (v as number) < (x as number);
    case '<=':
      return (v as number) <= (x as number);
    case 'between':
      return (v as number) >= (x as number[])[0]! && (v as number) <= (x as number[])[1]!;
    case 'in':
      return (x as unknown[]).includes(v);
  }
}

describe('sandbox Wallet Database', () => {
  let t = Date.UTC(2025, 5, 1, 10, 5);
  let sb: Sandbox;
  let all: Row[];
  const FIELDS = ['winrate_30d', 'realized_pnl_usd_30d', 'trade_count_7d', 'copy_score_all', 'main_dex', 'main_bot', 'profit_factor_7d', 'roi_1d'];

  before(async () => {
    sb = await startSandbox({ wallets: N, altWallets: 500, now: () => t });
    // Every wallet with the fields the queries use: an empty AND holds for all.
    const r = await post(sb, '/wallet_database', { where: { and: [] }, limit: N, columns: FIELDS });
    assert.equal(r.status, 200);
    all = WalletDatabaseResult.parse(r.body).wallets;
    assert.equal(all.length, N);
  });
  after(() => sb.close());

  const queries: QueryBody['where'][] = [
    { and: [{ field: 'winrate_30d', op: '>=', value: 0.6 }, { field: 'trade_count_7d', op: '>', value: 20 }] },
    { or: [{ field: 'realized_pnl_usd_30d', op: '<', value: -1000 }, { field: 'copy_score_all', op: 'between', value: [70, 90] }] },
    {
      and: [
        { field: 'winrate_30d', op: '>', value: 0.5 },
        { or: [{ field: 'main_dex', op: 'in', value: ['raydium_amm', 'pumpswap'] }, { and: [{ field: 'main_bot', op: '=', value: 'photon' }, { field: 'trade_count_7d', op: '<=', value: 100 }] }] },
        { field: 'profit_factor_7d', op: '!=', value: 1 },
      ],
    },
    { and: [{ field: 'roi_1d', op: '>=', value: 0 }, { field: 'main_bot', op: '!=', value: '' }] },
    { or: [] },
  ];

  it('evaluates nested AND/OR exactly as a brute-force evaluation does', async () => {
    for (const where of queries) {
      const r = await post(sb, '/wallet_database', { where, limit: N, columns: ['main_dex'] });
      assert.equal(r.status, 200, JSON.stringify(r.body));
      const res = WalletDatabaseResult.parse(r.body);
      const expected = all.filter((row) => holds(where, row)).map((row) => row.address);
      assert.equal(res.total, expected.length, JSON.stringify(where));
      assert.deepEqual(res.wallets.map((w) => w.address).sort(), [...expected].sort() as string[]);
    }
    // The queries are not trivial: some match much, some little.
    const totals = await Promise.all(queries.slice(0, 4).map(async (where) => WalletDatabaseResult.parse((await post(sb, '/wallet_database', { where, limit: 1 })).body).total));
    assert.ok(totals.every((n) => n > 10 && n < N), String(totals));
  });

  it('honours limit, bills every match (100 each) whatever the limit, and 100 flat when nothing matches', async () => {
    const where = queries[0]!;
    const since = sb.ledger().length;
    const r = WalletDatabaseResult.parse((await post(sb, '/wallet_database', { where, limit: 5 })).body);
    assert.equal(r.wallets.length, 5);
    assert.ok(r.total > 5);
    assert.equal(charged(sb, since), 100 * r.total);
    const none = WalletDatabaseResult.parse((await post(sb, '/wallet_database', { where: { and: [{ field: 'winrate_30d', op: '>', value: 2 }] }, limit: 10 })).body);
    assert.equal(none.total, 0);
    assert.equal(charged(sb, since), 100 * r.total + 100);
  });

  it('sorts and projects', async () => {
    const r = WalletDatabaseResult.parse(
      (await post(sb, '/wallet_database', { where: queries[0], limit: 50, sort: [{ field: 'realized_pnl_usd_30d', dir: 'desc' }], columns: ['realized_pnl_usd_30d', 'main_dex'] })).body,
    );
    const pnl = r.wallets.map((w) => w.realized_pnl_usd_30d as number);
    assert.deepEqual(pnl, [...pnl].sort((a, b) => b - a));
    assert.deepEqual(Object.keys(r.wallets[0] ?? {}), ['address', 'realized_pnl_usd_30d', 'main_dex']);
    // Without columns, the fields the query names.
    const plain = WalletDatabaseResult.parse((await post(sb, '/wallet_database', { where: queries[0], limit: 1 })).body);
    assert.deepEqual(Object.keys(plain.wallets[0] ?? {}), ['address', 'winrate_30d', 'trade_count_7d']);
  });

  it('returns the same wallets for the same query within the hour, fresh ones the next hour', async () => {
    const body = { where: queries[2], limit: 20, sort: [{ field: 'winrate_30d', dir: 'asc' as const }], columns: ['winrate_30d'] };
    const reordered = { columns: ['winrate_30d'], sort: [{ dir: 'asc' as const, field: 'winrate_30d' }], limit: 20, where: queries[2] };
    const a = (await post(sb, '/wallet_database', body)).body;
    t += 40 * 60_000; // still the same hour
    const b = (await post(sb, '/wallet_database', reordered)).body;
    assert.deepEqual(b, a);
    t += 60 * 60_000;
    const c = WalletDatabaseResult.parse((await post(sb, '/wallet_database', body)).body);
    assert.notDeepEqual(c.wallets, WalletDatabaseResult.parse(a).wallets);
    assert.notEqual((c as { refreshedAt?: string }).refreshedAt, (a as { refreshedAt?: string }).refreshedAt);
  });

  it('refuses unknown fields with a suggestion, and names the chain a chain-only field lives on; nothing charged', async () => {
    const since = sb.ledger().length;
    const typo = await post(sb, '/wallet_database', { where: { and: [{ field: 'winrat_30d', op: '>', value: 0.5 }] }, limit: 1 });
    assert.equal(typo.status, 400);
    assert.match(message(typo.body), /Did you mean “winrate_30d”/u);
    const noTf = await post(sb, '/wallet_database', { where: { and: [{ field: 'winrate', op: '>', value: 0.5 }] }, limit: 1 });
    assert.match(message(noTf.body), /needs a timeframe/u);
    const alt = await post(sb, '/altchain_wallet_database', { where: { or: [{ field: 'launchpad_token_share_30d', op: '>', value: 0.5 }] }, limit: 1 });
    assert.equal(alt.status, 400);
    assert.match(message(alt.body), /only on the main chain/u);
    const sortTypo = await post(sb, '/wallet_database', { where: { and: [] }, limit: 1, sort: [{ field: 'pnl_30d', dir: 'desc' }] });
    assert.equal(sortTypo.status, 400);
    const badValue = await post(sb, '/wallet_database', { where: { and: [{ field: 'main_dex', op: '=', value: 'raydium' }] }, limit: 1 });
    assert.match(message(badValue.body), /Did you mean “raydium_/u);
    const schema = await post(sb, '/wallet_database', { where: { and: [] } });
    assert.equal(schema.status, 400);
    assert.equal(sb.ledger().length, since);
  });

  it('runs the second chain’s database over its own wallets and columns', async () => {
    const cols = ColumnList.parse((await get(sb, '/altchain_wallet_database/columns')).body);
    assert.ok(cols.some((c) => c.name === 'token_approval_count_7d'));
    const r = await post(sb, '/altchain_wallet_database', { where: { and: [{ field: 'token_approval_count_all', op: '>=', value: 0 }] }, limit: 3 });
    assert.equal(r.status, 200);
    const res = WalletDatabaseResult.parse(r.body);
    assert.ok(res.total > 0 && res.total <= 500);
    for (const w of res.wallets) assert.match(String(w.address), /^0x[0-9a-f]{40}$/u);
  });
});

describe('sandbox token creators', () => {
  let sb: Sandbox;
  before(async () => {
    sb = await startSandbox({ wallets: 500, altWallets: 100 });
  });
  after(() => sb.close());

  it('sorts, projects and pages; bills 100 per creator returned', async () => {
    const ask = (page: number, extra: Record<string, unknown> = {}) =>
      post(sb, '/token_creators', { sort: 'tokens_created', order: 'desc', page, page_size: 20, ...extra });
    const since = sb.ledger().length;
    const p1 = CreatorsPage.parse((await ask(1)).body);
    const p2 = CreatorsPage.parse((await ask(2)).body);
    assert.equal(p1.creators.length, 20);
    const counts = [...p1.creators, ...p2.creators].map((c) => c.tokens_created as number);
    assert.deepEqual(counts, [...counts].sort((a, b) => b - a));
    assert.equal(new Set([...p1.creators, ...p2.creators].map((c) => c.address)).size, 40);
    assert.equal(charged(sb, since), 4_000);
    const cols = CreatorsPage.parse((await ask(1, { columns: ['rug_count', 'migration_rate'], order: 'asc', sort: 'migration_rate' })).body);
    assert.deepEqual(Object.keys(cols.creators[0] ?? {}), ['address', 'rug_count', 'migration_rate']);
    const rates = cols.creators.map((c) => c.migration_rate as number);
    assert.deepEqual(rates, [...rates].sort((a, b) => a - b));
    // Past the last page: nothing returned, nothing charged.
    const before2 = sb.ledger().length;
    const past = CreatorsPage.parse((await ask(10_000)).body);
    assert.equal(past.creators.length, 0);
    assert.equal(sb.ledger().length, before2);
  });

  it('answers one creator’s record with every token created (100); an unknown one is 404, not charged', async () => {
    const [address] = sb.addresses('creator', 1);
    const since = sb.ledger().length;
    const r = await get(sb, `/token_creators/${address ?? ''}`);
    assert.equal(r.status, 200);
    const rec = CreatorRecord.parse(r.body);
    assert.equal(rec.tokens.length, (rec as Record<string, unknown>).tokens_created);
    assert.equal(charged(sb, since), 100);
    const unknown = await get(sb, `/token_creators/${sampleAddress('main', 4242)}`);
    assert.equal(unknown.status, 404);
    assert.equal(sb.ledger().length, since + 1);
  });
});

describe('sandbox wallet activity', () => {
  let sb: Sandbox;
  before(async () => {
    sb = await startSandbox({ wallets: 300, altWallets: 300 });
  });
  after(() => sb.close());

  async function firstPage(path: string) {
    const r = await get(sb, path);
    assert.equal(r.status, 200, JSON.stringify(r.body));
    return ActivityPage.parse(r.body) as ActivityPage & { total: number };
  }

  it('pages by cursor, 100 swaps a page, 1 credit a page; nextCursor null on the last page', async () => {
    // Find a wallet with a few pages of swaps and one with none.
    let busy: string | undefined;
    let idle: string | undefined;
    for (const a of sb.addresses('wallet', 300)) {
      const p = await firstPage(`/wallets/${a}/activity`);
      if (!busy && p.total > 250 && p.total < 1_500) busy = a;
      if (!idle && p.total === 0) idle = a;
      if (busy && idle) break;
    }
    assert.ok(busy && idle);
    const since = sb.ledger().length;
    let cursor: string | null | undefined;
    let pages = 0;
    const swaps: Record<string, unknown>[] = [];
    let total: number;
    do {
      const p = await firstPage(`/wallets/${busy}/activity${cursor ? `?cursor=${encodeURIComponent(cursor)}` : ''}`);
      total = p.total;
      pages++;
      assert.ok(p.swaps.length <= 100);
      if (p.nextCursor) assert.equal(p.swaps.length, 100);
      swaps.push(...p.swaps);
      cursor = p.nextCursor;
    } while (cursor);
    assert.equal(swaps.length, total);
    assert.equal(pages, Math.ceil(total / 100));
    assert.equal(charged(sb, since), pages);
    assert.equal(new Set(swaps.map((s) => s.signature)).size, total);
    const times = swaps.map((s) => String(s.time));
    assert.deepEqual(times, [...times].sort().reverse());
    const empty = await firstPage(`/wallets/${idle}/activity`);
    assert.deepEqual([empty.swaps.length, empty.nextCursor], [0, null]);
    assert.equal(charged(sb, since), pages + 1, 'an empty page still costs its credit');
  });

  it('refuses a cursor it did not issue for that wallet, without charging', async () => {
    const [a, b] = sb.addresses('wallet', 40).filter((_, i) => i % 2 === 0);
    const since = sb.ledger().length;
    const bad = await get(sb, `/wallets/${a ?? ''}/activity?cursor=bogus`);
    assert.equal(bad.status, 400);
    // A real cursor of another wallet is refused too.
    let other: string | null | undefined;
    for (const w of sb.addresses('wallet', 100)) {
      other = (await firstPage(`/wallets/${w}/activity`)).nextCursor;
      if (other && w !== a) break;
    }
    const spent = sb.ledger().length;
    assert.equal((await get(sb, `/wallets/${a ?? ''}/activity?cursor=${encodeURIComponent(other ?? '')}`)).status, 400);
    assert.equal(sb.ledger().length, spent);
    assert.ok(since <= spent && b !== undefined);
  });

  it('serves the second chain’s activity, with 0x transaction hashes', async () => {
    const a = sb.addresses('altWallet', 30).find(() => true) ?? '';
    const p = await firstPage(`/altchain_wallets/${a.toUpperCase().replace('0X', '0x')}/activity`);
    for (const s of p.swaps) assert.match(String(s.signature), /^0x[0-9a-f]{64}$/u);
    assert.equal((p as Record<string, unknown>).address, a);
  });
});

describe('sandbox second-chain pnl', () => {
  it('answers WalletMetrics with the second chain’s metrics (5 credits)', async () => {
    const sb = await startSandbox({ wallets: 200, altWallets: 200 });
    try {
      const [a] = sb.addresses('altWallet', 1);
      const r = await get(sb, `/altchain_pnl?wallet=${a ?? ''}`);
      assert.equal(r.status, 200);
      const m = WalletMetrics.parse(r.body);
      assert.equal(m.address, a);
      const names = Object.keys(m.metrics);
      assert.equal(names.length, 632);
      assert.ok(names.includes('private_tx_share_30d') && !names.includes('launchpad_token_share_30d'));
      assert.deepEqual(names, metricColumns('alt'));
      assert.deepEqual(sb.ledger().map((e) => [e.endpoint, e.credits]), [['altchain_pnl', 5]]);
      // The database and the direct call agree on a wallet's numbers.
      const db = WalletDatabaseResult.parse((await post(sb, '/altchain_wallet_database', { where: { and: [] }, limit: 1, columns: ['winrate_30d', 'volume_usd_7d'] })).body);
      const first = db.wallets[0]!;
      const again = WalletMetrics.parse((await get(sb, `/altchain_pnl?wallet=${String(first.address)}`)).body);
      assert.equal(again.metrics.winrate_30d, first.winrate_30d);
      assert.equal(again.metrics.volume_usd_7d, first.volume_usd_7d);
    } finally {
      await sb.close();
    }
  });
});

describe('sandbox metrics per chain (§2.4, §4.3: every wallet has 158 metrics)', () => {
  it('serves 158 metrics × 4 timeframes on each chain’s column list, its pnl answer and its pnl file', async () => {
    const sb = await startSandbox({ wallets: 200, altWallets: 200, delayScale: 0.001 });
    try {
      const perChain: Record<string, Set<string>> = {};
      for (const [chain, path] of [['main', '/wallet_database/columns'], ['alt', '/altchain_wallet_database/columns']] as const) {
        const r = await get(sb, path);
        assert.equal(r.status, 200);
        const metricCols = ColumnList.parse(r.body).filter((c) => c.metric !== undefined);
        const metrics = new Set(metricCols.map((c) => c.metric ?? ''));
        assert.equal(metrics.size, 158, `${chain}: ${metrics.size} metrics`);
        assert.equal(metricCols.length, 158 * 4, `${chain}: ${metricCols.length} metric columns`);
        for (const m of metrics) {
          assert.deepEqual(metricCols.filter((c) => c.metric === m).map((c) => c.timeframe).sort(), ['1d', '30d', '7d', 'all'], m);
        }
        perChain[chain] = metrics;
      }
      const [a] = sb.addresses('altWallet', 1);
      const pnl = WalletMetrics.parse((await get(sb, `/altchain_pnl?wallet=${a ?? ''}`)).body);
      assert.equal(Object.keys(pnl.metrics).length, 158 * 4);
      // The chain-only metrics (named in the README's table of silent choices) differ in both directions.
      const only = (x: string, y: string) => [...(perChain[x] ?? [])].filter((m) => !perChain[y]?.has(m)).sort();
      assert.deepEqual(only('main', 'alt'), ['launchpad_token_share', 'migrated_token_share', 'post_migration_buy_share', 'pre_migration_buy_share']);
      assert.deepEqual(only('alt', 'main'), ['avg_gas_price_gwei', 'private_tx_share', 'token_approval_count', 'unlimited_approval_share']);
    } finally {
      await sb.close();
    }
  });
});
