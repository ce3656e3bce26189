/**
 * The sandbox's own tables (src/sandbox/routes.ts, inputs.ts, prices.ts) against the spec and
 * against the client's design choices. Prices are checked against the spec's worked costs
 * (§8.4) and §4.3 rule 5, never against the client (the live comparison is contractPrices).
 * Paths, parameter names, required/optional, defaults and bounds are our design and must be
 * the same on both sides, so they are compared with the client's catalog here.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CREATOR_COLUMNS, ENDPOINTS, validateInput } from '../../../src/core/spec/catalog';
import type { FieldSpec } from '../../../src/core/spec/fields';
import { MAX_QUERY_LIMIT } from '../../../src/core/spec/queryModel';
import { sampleInput } from '../../../src/core/spec/samples';
import { INPUTS, checkInput, exampleInput, inputKey, paramsOf, type Param } from '../../../src/sandbox/inputs';
import { BOUNDS } from '../../../src/sandbox/bounds';
import { queryBody } from '../../../src/sandbox/queryBody';
import { PRICES, chargeFor } from '../../../src/sandbox/prices';
import { ROUTES, endpointById, routeOf } from '../../../src/sandbox/routes';

const ids = (list: readonly { id: string }[]) => list.map((e) => e.id).sort();
const many = (n: number, p = 'w') => Array.from({ length: n }, (_, i) => `${p}${i}`);

describe('sandbox tables: prices from the spec', () => {
  it('every endpoint has a route, input rules and a price, and nothing else does', () => {
    assert.deepEqual(Object.keys(PRICES).sort(), ids(ROUTES));
    assert.deepEqual(Object.keys(INPUTS).sort(), ids(ROUTES));
  });

  it('gives the spec’s worked costs (§8.4)', () => {
    assert.equal(chargeFor('pnl', { wallets: many(10_000) }), 50_000);
    assert.equal(chargeFor('pnl', { wallets: many(100_000) }), 500_000);
    assert.equal(chargeFor('toptraders', { tokens: many(20, 't') }), 2_000);
    assert.equal(30 * chargeFor('trending', { hours: 1 }), 1_500);
    assert.equal(chargeFor('trending', { hours: 1 }) + chargeFor('toptraders', { tokens: many(10, 't') }) + chargeFor('pnl', { wallets: many(5_000) }), 26_050);
    assert.equal(chargeFor('wallet_database', {}, { matches: 1_000 }), 100_000);
    assert.equal(chargeFor('wallet_database', {}, { matches: 100_000 }), 10_000_000);
    assert.equal(chargeFor('token_creators', { page_size: 50 }, { returned: 50 }), 5_000);
    assert.equal(chargeFor('token_creator', {}), 100);
    assert.equal(20 * chargeFor('wallet_activity', {}, { pages: 1 }), 20);
  });

  it('bills the Wallet Database per match whatever the limit, 100 flat when nothing matches (§4.2)', () => {
    assert.equal(chargeFor('wallet_database', { query: { limit: 1 } }, { matches: 0 }), 100);
    assert.equal(chargeFor('wallet_database', { query: { limit: 1 } }, { matches: 1 }), 100);
    assert.equal(chargeFor('wallet_database', { query: { limit: 1 } }, { matches: 7 }), 700);
    assert.equal(chargeFor('token_creators', { page_size: 50 }, { returned: 0 }), 0);
    assert.throws(() => chargeFor('wallet_database', {}), /match count/u);
    assert.throws(() => chargeFor('token_creators', { page_size: 50 }), /count returned/u);
  });

  it('prices the second chain as the first (§4.3 rule 5)', () => {
    const wallets = many(7);
    assert.equal(chargeFor('altchain_pnlplus', { wallets }), chargeFor('pnl', { wallets }));
    assert.equal(chargeFor('altchain_dexwallets', { hours: 1 }), chargeFor('dexwallets', { hours: 1 }));
    for (const matches of [0, 3, 20_000]) assert.equal(chargeFor('altchain_wallet_database', {}, { matches }), chargeFor('wallet_database', {}, { matches }));
    assert.equal(chargeFor('altchain_wallet_activity', {}, { pages: 1 }), chargeFor('wallet_activity', {}, { pages: 1 }));
    assert.equal(chargeFor('altchain_pnl', { wallet: '0x' }), chargeFor('pnl', { wallets: many(1) }));
  });

  it('charges nothing for the account endpoints and the column lists', () => {
    for (const id of ['request', 'requests', 'credits', 'reset_ip', 'wallet_database_columns', 'altchain_wallet_database_columns']) assert.equal(chargeFor(id, {}), 0, id);
  });
});

/** What a client field kind corresponds to among the sandbox's parameter kinds. */
const KIND: Record<FieldSpec['kind'], readonly Param['kind'][]> = {
  integer: ['integer'],
  number: ['number'],
  timestamp: ['unixSeconds'],
  enum: ['choice'],
  address: ['address'],
  addressList: ['addresses'],
  tokenWindows: ['tokenWindows'],
  text: ['fragment', 'cursor', 'requestId'],
  textList: ['creatorColumns'],
  query: ['query'],
};

describe('sandbox tables: the same design choices as the client (paths, names, defaults, bounds)', () => {
  it('lists the same endpoints, with the same method, path, family, chain and file kinds', () => {
    assert.deepEqual(ids(ROUTES), ids(ENDPOINTS));
    for (const c of ENDPOINTS) {
      const s = endpointById(c.id);
      assert.deepEqual([s.method, s.path, s.family, s.chain, [...s.results].sort()], [c.method, c.path, c.family, c.chain, [...c.results].sort()], c.id);
    }
  });

  it('takes the same parameter names, required and optional alike, with the same defaults, options and bounds', () => {
    for (const c of ENDPOINTS) {
      const params = paramsOf(endpointById(c.id));
      assert.deepEqual(params.map((p) => p.name).sort(), c.fields.map((f) => f.wire).sort(), `${c.id}: parameter names`);
      for (const f of c.fields) {
        const p = params.find((x) => x.name === f.wire);
        assert.ok(p, `${c.id}.${f.wire}`);
        const where = `${c.id}.${f.wire}`;
        assert.ok(KIND[f.kind].includes(p.kind), `${where}: ${f.kind} vs ${p.kind}`);
        assert.equal(p.optional ?? false, f.optional, `${where}: optional`);
        assert.equal('default' in p ? p.default : undefined, f.default, `${where}: default`);
        if (p.kind === 'choice') assert.deepEqual([...p.options], [...(f.options ?? [])], `${where}: options`);
        if (p.kind === 'creatorColumns') assert.deepEqual([...CREATOR_COLUMNS], [...(f.options ?? [])], `${where}: options`);
        if (p.kind === 'integer') assert.deepEqual([p.min, p.max], [f.min, f.max], `${where}: bounds`);
        if (p.kind === 'number') assert.deepEqual([p.min, undefined], [f.min, f.max], `${where}: bounds`);
        if (p.kind === 'addresses') assert.deepEqual([p.chain, p.max], [f.chain, f.max], `${where}: chain and most addresses`);
        if (p.kind === 'address' || p.kind === 'query') assert.equal(p.chain, f.chain ?? 'main', `${where}: chain`);
        if (p.kind === 'tokenWindows') assert.deepEqual([BOUNDS.overlapTokens.min, BOUNDS.overlapTokens.max], [f.min, f.max], where);
        if (p.kind === 'cursor') assert.equal(BOUNDS.cursorChars, f.max, where);
      }
    }
    assert.equal(BOUNDS.queryLimit, MAX_QUERY_LIMIT);
  });

  it('accepts every input the client builds from its samples, and its own examples', () => {
    for (const c of ENDPOINTS) {
      const v = validateInput(c, sampleInput(c));
      assert.ok(v.ok, c.id);
      const s = checkInput(endpointById(c.id), v.input);
      assert.ok(s.ok, `${c.id}: ${s.ok ? '' : s.errors.join(' ')}`);
      const own = checkInput(endpointById(c.id), exampleInput(endpointById(c.id)));
      assert.ok(own.ok, `${c.id} example: ${own.ok ? '' : own.errors.join(' ')}`);
    }
  });
});

describe('sandbox tables: routing and the query body', () => {
  it('routes by method and path, decodes path parameters, and tells a wrong method from an unknown path', () => {
    const found = routeOf('GET', '/request/Zm9v%2BYmFy%2FcQ%3D%3D');
    assert.equal(found.kind, 'found');
    assert.deepEqual(found.kind === 'found' ? [found.ep.id, found.params] : [], ['request', { requestId: 'Zm9v+YmFy/cQ==' }]);
    assert.equal(routeOf('GET', '/wallet_database/columns').kind, 'found');
    assert.deepEqual(routeOf('GET', '/pnl'), { kind: 'wrongMethod', ep: endpointById('pnl') });
    assert.deepEqual(routeOf('GET', '/nothing'), { kind: 'none' });
    assert.throws(() => routeOf('GET', '/request/%E0%A4%A'), URIError);
  });

  it('checks the Wallet Database body on its own: structure, operators, limit; fills sort directions', () => {
    const ok = queryBody({ where: { or: [{ field: 'winrate_30d', op: 'between', value: [0.1, 0.5] }, { and: [] }] }, limit: 3, sort: [{ field: 'winrate_30d' }] });
    assert.deepEqual(ok, { where: { or: [{ field: 'winrate_30d', op: 'between', value: [0.1, 0.5] }, { and: [] }] }, limit: 3, sort: [{ field: 'winrate_30d', dir: 'desc' }] });
    const problems: [unknown, RegExp][] = [
      [{ where: { and: [] } }, /"limit"/u],
      [{ where: { and: [] }, limit: 0 }, /"limit" must be a whole number from 1 to 100,000/u],
      [{ where: { and: [] }, limit: 100_001 }, /"limit"/u],
      [{ where: { and: [] }, limit: 1.5 }, /"limit"/u],
      [{ where: { and: [] }, limit: '5' }, /"limit"/u],
      [{ limit: 5 }, /"where" is required/u],
      [{ where: { field: 'x', op: '=', value: 1 }, limit: 5 }, /must be a group/u],
      [{ where: { and: [], or: [] }, limit: 5 }, /nothing else/u],
      [{ where: { and: [{ field: 'x', op: '~', value: 1 }] }, limit: 5 }, /"op" must be one of/u],
      [{ where: { and: [{ field: 'x', op: '>', value: '1' }] }, limit: 5 }, /compares numbers/u],
      [{ where: { and: [{ field: 'x', op: 'between', value: [1] }] }, limit: 5 }, /two numbers/u],
      [{ where: { and: [{ field: 'x', op: 'in', value: [] }] }, limit: 5 }, /non-empty list/u],
      [{ where: { and: [{ field: 'x', op: '=', value: [1] }] }, limit: 5 }, /one number, string or boolean/u],
      [{ where: { and: [{ field: 'x', op: '=', value: 1, extra: 1 }] }, limit: 5 }, /not "extra"/u],
      [{ where: { and: [] }, limit: 5, sort: [{ field: 'x', dir: 'up' }] }, /sort\[0\]/u],
      [{ where: { and: [] }, limit: 5, columns: ['x', ''] }, /"columns"/u],
      [{ where: { and: [] }, limit: 5, $chain: 'alt' }, /not "\$chain"/u],
      [[], /JSON object/u],
    ];
    for (const [body, re] of problems) {
      const r = queryBody(body);
      assert.equal(typeof r, 'string', JSON.stringify(body));
      assert.match(r as string, re, JSON.stringify(body));
    }
  });

  it('counts distinct addresses in a list (second-chain ones in lower case), and keys the whole body as query', () => {
    const a = '0x00000000000000000000000000000000000000aa';
    const r = checkInput(endpointById('altchain_pnlplus'), { wallets: [a, a.toUpperCase().replace('0X', '0x'), a] });
    assert.ok(r.ok);
    assert.deepEqual(r.ok ? r.input.wallets : undefined, [a]);
    const db = paramsOf(endpointById('wallet_database'))[0];
    assert.ok(db);
    assert.equal(inputKey(db), 'query');
  });
});
