import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseAddressList } from '../../src/core/addresses';
import {
  ALT_DEXES,
  ENDPOINTS,
  decodeRequest,
  encodeRequest,
  endpoint,
  routeRequest,
  validateInput,
} from '../../src/core/catalog';
import { sampleAddress, sampleInput } from '../../src/core/samples';

const count = (pred: (e: (typeof ENDPOINTS)[number]) => boolean) => ENDPOINTS.filter(pred).length;

describe('catalog', () => {
  it('holds every endpoint of the spec: 20 queued + 2 second-chain queued, 4 account, 5 direct + 4 second-chain direct', () => {
    assert.equal(count((e) => e.family === 'queued' && e.chain === 'main'), 20);
    assert.equal(count((e) => e.family === 'account'), 4);
    assert.equal(count((e) => e.family === 'direct' && e.chain === 'main'), 5);
    assert.equal(count((e) => e.chain === 'alt'), 6);
    assert.equal(ENDPOINTS.length, 35);
  });

  it('has unique ids, unique method+path, and a field for every path placeholder', () => {
    assert.equal(new Set(ENDPOINTS.map((e) => e.id)).size, ENDPOINTS.length);
    assert.equal(new Set(ENDPOINTS.map((e) => `${e.method} ${e.path}`)).size, ENDPOINTS.length);
    for (const ep of ENDPOINTS) {
      for (const m of ep.path.matchAll(/\{([^}]+)\}/gu)) {
        assert.ok(ep.fields.some((f) => f.wire === m[1]), `${ep.id}: no field for {${m[1]}}`);
      }
    }
  });

  it('names the bot command where there is one, and none for /firstbuysanalyze (§1.8)', () => {
    assert.equal(endpoint('firstbuysanalyze').bot, undefined);
    assert.equal(endpoint('pnl').bot, '/pnlplus');
    assert.equal(endpoint('mcap').bot, '/mcapanalyze');
    assert.ok(ENDPOINTS.filter((e) => e.family === 'queued' && e.id !== 'firstbuysanalyze').every((e) => e.bot));
  });

  it('prices per-item endpoints on a list field that exists', () => {
    for (const ep of ENDPOINTS) {
      if (ep.price.kind === 'perItem' || ep.price.kind === 'perReturned') {
        const field = ep.price.field;
        assert.ok(ep.fields.some((f) => f.key === field), `${ep.id}: price field ${field}`);
      }
    }
  });

  it('accepts its own sample input for every endpoint, and round-trips it through the wire', () => {
    for (const ep of ENDPOINTS) {
      const v = validateInput(ep, sampleInput(ep));
      assert.ok(v.ok, `${ep.id}: ${v.ok ? '' : v.errors.join('; ')}`);
      const wire = encodeRequest(ep, v.input);
      assert.equal(wire.method, ep.method);
      if (ep.method === 'GET') assert.equal(wire.body, undefined, `${ep.id}: GET has no body`);
      else assert.deepEqual(Object.keys(wire.query), [], `${ep.id}: POST sends no query`);
      const routed = routeRequest(wire.method, wire.path);
      assert.equal(routed?.ep.id, ep.id, `${ep.id}: ${wire.path} routes back`);
      const body = wire.body === undefined ? undefined : JSON.parse(JSON.stringify(wire.body));
      const raw = decodeRequest(ep, { params: routed.params, query: new URLSearchParams(wire.query), body });
      const again = validateInput(ep, raw);
      assert.ok(again.ok, `${ep.id}: decoded input validates`);
      assert.deepEqual(again.input, v.input, `${ep.id}: decode(encode(x)) = x`);
    }
  });

  it('sends GET inputs as query parameters and POST inputs as a JSON body', () => {
    const t = encodeRequest(endpoint('trending'), { hours: 6 });
    assert.deepEqual(t, { method: 'GET', path: '/trending', query: { hours: '6' } });
    const tokens = [sampleAddress('main', 1), sampleAddress('main', 2)];
    const p = encodeRequest(endpoint('toptraders'), { tokens, output: 'zip' });
    assert.deepEqual(p.body, { tokens, output: 'zip' });
    const a = encodeRequest(endpoint('wallet_activity'), { address: tokens[0], cursor: 'c/1' });
    assert.equal(a.path, `/wallets/${tokens[0]}/activity`);
    assert.deepEqual(a.query, { cursor: 'c/1' });
  });
});

describe('input validation', () => {
  const pnl = endpoint('pnl');
  const good = sampleAddress('main', 1);

  it('rejects a malformed main-chain address with the reason', () => {
    const v = validateInput(pnl, { wallets: [good, 'not-an-address0OIl'] });
    assert.equal(v.ok, false);
    assert.match(v.ok ? '' : v.errors.join('\n'), /not a valid address.*base58/u);
    const short = validateInput(pnl, { wallets: ['abc'] });
    assert.match(short.ok ? '' : short.errors.join('\n'), /32 to 44 characters/u);
  });

  it('rejects an empty list and removes duplicates', () => {
    const empty = validateInput(pnl, { wallets: [] });
    assert.match(empty.ok ? '' : empty.errors.join('\n'), /empty/u);
    const dup = validateInput(pnl, { wallets: [good, good, sampleAddress('main', 2)] });
    assert.ok(dup.ok);
    assert.equal((dup.input.wallets as string[]).length, 2);
  });

  it('enforces the second-chain rules: 15 DEXes, a 1–12 hour interval, at most 100,000 addresses', () => {
    assert.equal(ALT_DEXES.length, 15);
    const dex = endpoint('altchain_dexwallets');
    assert.ok(validateInput(dex, { dex: 'uniswap_v3', hours: 12 }).ok);
    for (const hours of [0, 13, 1.5]) {
      const v = validateInput(dex, { dex: 'uniswap_v3', hours });
      assert.equal(v.ok, false, `hours ${hours}`);
      assert.match(v.ok ? '' : v.errors.join(), /Hours/u);
    }
    assert.equal(validateInput(dex, { dex: 'not_a_dex', hours: 1 }).ok, false);
    const pnlplus = endpoint('altchain_pnlplus');
    const many = Array.from({ length: 100_001 }, (_, i) => sampleAddress('alt', i));
    const v = validateInput(pnlplus, { wallets: many });
    assert.match(v.ok ? '' : v.errors.join(), /at most 100,000/u);
    assert.ok(validateInput(pnlplus, { wallets: many.slice(0, 100_000) }).ok);
  });

  it('takes second-chain addresses as 0x + 40 hex, normalised to lower case', () => {
    const v = validateInput(endpoint('altchain_pnl'), { wallet: '0xABCDEF0000000000000000000000000000000001' });
    assert.ok(v.ok);
    assert.equal(v.input.wallet, '0xabcdef0000000000000000000000000000000001');
    assert.equal(validateInput(endpoint('altchain_pnl'), { wallet: good }).ok, false);
  });

  it('requires ranges in order and timestamps in order', () => {
    const token = sampleAddress('main', 3);
    const m = validateInput(endpoint('mcap'), { token, min_mcap_usd: 5000, max_mcap_usd: 100 });
    assert.match(m.ok ? '' : m.errors.join(), /minimum .* above the maximum/u);
    assert.ok(validateInput(endpoint('mcap'), { token, min_mcap_usd: 100, max_mcap_usd: 100 }).ok);
    const t = validateInput(endpoint('timestamp'), { token, from: 1_700_000_100, to: 1_700_000_000 });
    assert.match(t.ok ? '' : t.errors.join(), /ends before it starts/u);
    const ms = validateInput(endpoint('timestamp'), { token, from: 1_700_000_000_000, to: 1_700_000_000_001 });
    assert.match(ms.ok ? '' : ms.errors.join(), /milliseconds/u);
  });

  it('reports a missing required field and an unknown one by name', () => {
    const v = validateInput(endpoint('mcaptokens'), { days: 3, colour: 'red' });
    assert.equal(v.ok, false);
    const text = v.ok ? '' : v.errors.join('\n');
    assert.match(text, /Market cap \(USD\) is required/u);
    assert.match(text, /no input named “colour”/u);
  });
});

describe('parseAddressList', () => {
  it('splits on spaces, commas and new lines, reports bad entries with line numbers, and counts duplicates', () => {
    const a = sampleAddress('main', 1);
    const b = sampleAddress('main', 2);
    const r = parseAddressList(`${a}, ${b}\n\n"${a}"\nbad0address\n${b}`, 'main');
    assert.deepEqual(r.valid, [a, b]);
    assert.equal(r.duplicates, 2);
    assert.deepEqual(r.invalid.map((i) => [i.line, i.value]), [[4, 'bad0address']]);
  });
});

describe('defaults', () => {
  it('fills a left-out field that has a default, so the request sent is the one priced', () => {
    const v = validateInput(endpoint('toptraders'), { tokens: [sampleAddress('main', 1)] });
    assert.ok(v.ok);
    assert.equal(v.input.output, 'zip');
    const t = validateInput(endpoint('trending'), {});
    assert.ok(t.ok && t.input.hours === 1);
  });
});
