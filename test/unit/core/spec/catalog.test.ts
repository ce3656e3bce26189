import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { badEntriesText, duplicatesText, parseAddressList } from '../../../../src/core/addressLists/listText';
import { WalletAnalyticsApi } from '../../../../src/core/transport/api';
import {
  ALT_DEXES,
  ENDPOINTS,
  decimalText,
  decodeRequest,
  encodeRequest,
  endpoint,
  inputSchema,
  resultKindFor,
  routeRequest,
  shortTitle,
  validateInput,
  type Endpoint,
} from '../../../../src/core/spec/catalog';
import { BadInputError } from '../../../../src/core/errors';
import {
  addressField,
  addressListField,
  enumField,
  integerField,
  numberField,
  textField,
  timestampField,
  type FieldSpec,
} from '../../../../src/core/spec/fields';
import { sampleAddress, sampleInput } from '../../../../src/core/spec/samples';
import { SubmitAck } from '../../../../src/core/spec/wire';

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

  it('builds an endpoint\'s input schema once: zod compiles its parser on the first parse, not at every check (issue 34 item 4)', () => {
    for (const ep of ENDPOINTS) assert.equal(inputSchema(ep), inputSchema(ep), ep.id);
    assert.ok(validateInput(pnl, { wallets: [good] }).ok);
    assert.ok(!validateInput(pnl, { wallets: ['nope'] }).ok, 'the one schema still refuses');
  });

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
    assert.match(v.ok ? '' : v.errors.join(), /Wallets must be a list of 1 to 100,000 second-chain \(0x\) addresses. This list has 100,001 distinct addresses./u);
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

  it('names every bad entry with its line (the first five, then a count) and says how many duplicates were removed (issue 23 item 10)', () => {
    const a = sampleAddress('main', 1);
    const bad = ['x1', 'x2', 'x3', 'x4', 'x5', 'x6', 'x7'];
    const r = parseAddressList([a, ...bad, a, a].join('\n'), 'main');
    const text = badEntriesText(r) ?? '';
    assert.match(text, /^7 entries are not addresses: line 2 “x1” \(.+\); line 3 “x2”/u);
    assert.match(text, /line 6 “x5” \([^)]+\); and 2 more\.$/u);
    assert.doesNotMatch(text, /x6/u);
    assert.equal(duplicatesText(r), '2 duplicates removed.');
    const one = parseAddressList(`${a}\nnope`, 'main');
    assert.match(badEntriesText(one) ?? '', /^1 entry is not an address: line 2 “nope” \(.+\)\.$/u);
    assert.equal(duplicatesText(one), undefined);
    assert.equal(badEntriesText(parseAddressList(a, 'main')), undefined);
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

describe('every field kind says its own rule; "required" only when the field is missing', () => {
  const errorsOf = (ep: Endpoint, input: unknown): string[] => {
    const v = validateInput(ep, input);
    return v.ok ? [] : v.errors;
  };
  /** An endpoint holding just this field, required. */
  const only = (field: FieldSpec): Endpoint => ({
    id: 'probe', title: 'Probe…', summary: '', family: 'queued', chain: 'main', method: 'POST', path: '/probe', results: ['txt'], fields: [field], rules: [], price: { kind: 'flat', credits: 1 }, answer: SubmitAck,
  });
  const main = sampleAddress('main', 1);
  const kinds: { field: FieldSpec; good: unknown; wrongType: unknown[]; outOfRange: unknown[]; rule: string }[] = [
    {
      field: integerField({ key: 'hours', label: 'Hours', description: '', min: 1, max: 24 }),
      good: 24, wrongType: ['abc', '5', true, null, {}, [5]], outOfRange: [0, 25, 1.5, -3],
      rule: 'Hours must be a whole number from 1 to 24.',
    },
    {
      field: numberField({ key: 'usd', label: 'Market cap (USD)', description: '', min: 1 }),
      good: 10.5, wrongType: ['10', false, null, [1]], outOfRange: [0, -1, 0.5],
      rule: 'Market cap (USD) must be a number of at least 1.',
    },
    {
      field: timestampField({ key: 'from', label: 'From', description: '' }),
      good: 1_700_000_000, wrongType: ['1700000000', '2026-11-21', true, null], outOfRange: [-5, 0, 2026, 1_700_000_000.5, 1_700_000_000_000],
      rule: 'From must be a Unix time in seconds between 2010 and 2100',
    },
    {
      field: enumField({ key: 'side', label: 'Side', description: '', options: ['buy', 'sell', 'any'] }),
      good: 'sell', wrongType: [1, true, null, ['buy']], outOfRange: ['BUY', 'both', ''],
      rule: 'Side must be one of: buy, sell, any.',
    },
    {
      field: addressField({ key: 'token', label: 'Token', description: '', chain: 'main' }),
      good: main, wrongType: [42, true, null, [main]], outOfRange: ['abc', `${main.slice(0, -1)}0`, 'x'.repeat(45)],
      rule: 'Token must be a base58 address of 32 to 44 characters (no 0, O, I or l).',
    },
    {
      field: addressField({ key: 'wallet', label: 'Wallet', description: '', chain: 'alt' }),
      good: sampleAddress('alt', 1), wrongType: [1, false, null], outOfRange: ['0x12', main, `0x${'g'.repeat(40)}`],
      rule: 'Wallet must be a second-chain address: 0x and 40 hex digits.',
    },
    {
      field: addressListField({ key: 'wallets', label: 'Wallets', description: '', chain: 'main', max: 2, what: 'wallets' }),
      good: [main], wrongType: [main, 5, null, { 0: main }], outOfRange: [[], [main, sampleAddress('main', 2), sampleAddress('main', 3)]],
      rule: 'Wallets must be a list of 1 to 2 base58 addresses.',
    },
    {
      field: textField({ key: 'cursor', label: 'Cursor', description: '', min: 1, max: 512 }),
      good: 'c/1', wrongType: [5, true, null, ['c']], outOfRange: ['', '   ', 'x'.repeat(513)],
      rule: 'Cursor must be 1 to 512 characters.',
    },
  ];

  for (const k of kinds) {
    it(`${k.field.kind} (${k.field.label}): missing → required; wrong type or out of range → “${k.rule}…”`, () => {
      const ep = only(k.field);
      const key = k.field.key;
      assert.deepEqual(errorsOf(ep, { [key]: k.good }), [], 'a good value passes');
      assert.deepEqual(errorsOf(ep, {}), [`${k.field.label} is required.`], 'absent');
      assert.deepEqual(errorsOf(ep, { [key]: undefined }), [`${k.field.label} is required.`], 'undefined');
      for (const bad of [...k.wrongType, ...k.outOfRange]) {
        const errors = errorsOf(ep, { [key]: bad });
        assert.equal(errors.length, 1, `${JSON.stringify(bad)}: ${errors.join(' | ')}`);
        assert.ok(errors[0]?.startsWith(k.rule), `${JSON.stringify(bad)} → “${errors[0] ?? ''}” states the rule`);
        assert.doesNotMatch(errors[0] ?? '', /required/u, `${JSON.stringify(bad)} is given, so not “required”`);
      }
    });
  }

  it('says the rule for wrong-type values on real endpoints: Hours of /trending and /altchain_dexwallets', () => {
    for (const hours of ['abc', true, 1.5, 0, 25, null]) {
      assert.deepEqual(errorsOf(endpoint('trending'), { hours }), ['Hours must be a whole number from 1 to 24.'], JSON.stringify(hours));
    }
    assert.deepEqual(errorsOf(endpoint('altchain_dexwallets'), { dex: 'curve', hours: '3' }), ['Hours must be a whole number from 1 to 12.']);
    assert.deepEqual(errorsOf(endpoint('mcap'), { token: main, min_mcap_usd: 'lots', max_mcap_usd: 10 }), ['Minimum market cap (USD) must be a number of at least 0.']);
    assert.deepEqual(errorsOf(endpoint('pnl'), {}), ['Wallets is required.']);
  });

  it('a millisecond time gets the rule and the hint', () => {
    assert.deepEqual(errorsOf(endpoint('timestamp'), { token: main, from: 1_700_000_000_000, to: 1_700_000_100 }), [
      'From must be a Unix time in seconds between 2010 and 2100; 1700000000000 looks like milliseconds.',
    ]);
  });
});

describe('findaddress: a fragment needs at least 3 base58 characters', () => {
  const fragment = endpoint('findaddress');
  const RULE = 'Fragment must hold at least 3 base58 characters (no 0, O, I or l): a prefix, a suffix, or prefix...suffix.';

  it('refuses a fragment of dots, or of fewer than 3 base58 characters, with the rule', () => {
    for (const f of ['...', 'a...', '1...', '...z', 'a...b', '....', 'ab', 'a.b', 'abc.', '0OIl']) {
      const v = validateInput(fragment, { fragment: f });
      assert.equal(v.ok, false, JSON.stringify(f));
      assert.deepEqual(v.ok ? [] : v.errors, [RULE], JSON.stringify(f));
    }
  });

  it('takes a prefix, a suffix, or prefix...suffix with 3 base58 characters in all', () => {
    for (const f of ['abc', 'a...bc', 'ab...c', '...abc', 'abc...', 'So11...1112']) assert.ok(validateInput(fragment, { fragment: f }).ok, f);
  });

  it('is refused by the client before anything is sent, so nothing is charged', async () => {
    let keyRead = 0;
    const api = new WalletAnalyticsApi({ baseUrl: 'http://127.0.0.1:9', apiKey: () => ((keyRead++), Promise.resolve('k')) });
    await assert.rejects(api.submit('findaddress', { fragment: '...' }), (e: unknown) => e instanceof BadInputError && e.source === 'client' && e.message.includes(RULE));
    assert.equal(keyRead, 0, 'refused before the key was even read: nothing went out');
  });
});

describe('tokensoverlap: each window is checked like every other timestamp', () => {
  const overlap = endpoint('tokensoverlap');
  const a = sampleAddress('main', 1);
  const b = sampleAddress('main', 2);
  const ok = { token: a, from: 1_700_000_000, to: 1_700_003_600 };
  const errorsOf = (second: Record<string, unknown>): string[] => {
    const v = validateInput(overlap, { tokens: [ok, { token: b, ...second }] });
    return v.ok ? [] : v.errors;
  };

  it('refuses a negative, zero, fractional or millisecond window end, naming the token', () => {
    const start = /^Tokens and windows: Token 2: the window start \(from\) must be a Unix time in seconds between 2010 and 2100/u;
    const end = /^Tokens and windows: Token 2: the window end \(to\) must be a Unix time in seconds between 2010 and 2100/u;
    for (const from of [-3600, 0, 1.5, 1_700_000_000_000, '1700000000', null]) {
      const errors = errorsOf({ from, to: 1_700_003_600 });
      assert.equal(errors.length, 1, `${JSON.stringify(from)}: ${errors.join(' | ')}`);
      assert.match(errors[0] ?? '', start, JSON.stringify(from));
    }
    const ms = errorsOf({ from: 1_700_000_000_000, to: 1_700_000_360_000 });
    assert.match(ms.join('\n'), /Token 2: the window start \(from\).*looks like milliseconds/u);
    assert.match(ms.join('\n'), /Token 2: the window end \(to\).*looks like milliseconds/u);
    assert.match(errorsOf({ from: 1_700_000_000, to: -1 }).join(), end);
    assert.match(errorsOf({ from: 1_700_000_000 }).join(), end, 'a missing end');
  });

  it('uses the timestamp fields’ very rule (the same schema), and still checks order and the token', () => {
    const field = validateInput(endpoint('timestamp'), { token: a, from: -1, to: 1_700_000_000 });
    const window = errorsOf({ from: -1, to: 1_700_000_000 });
    const tail = (m: string) => m.slice(m.indexOf(' must be '));
    assert.equal(tail(window[0] ?? ''), tail(field.ok ? '' : (field.errors[0] ?? '')));
    assert.match(errorsOf({ from: 1_700_003_600, to: 1_700_000_000 }).join(), /Token 2: the window ends before it starts/u);
    assert.match(errorsOf({ token: a, from: 1, to: 2 }).join(), /Token 2 is listed twice|Token 2: the window start/u);
    assert.match(validateInput(overlap, { tokens: [ok, { token: 'nope', from: 1_700_000_000, to: 1_700_000_001 }] }).ok ? '' : 'refused', /refused/u);
    assert.ok(validateInput(overlap, { tokens: [ok, { token: b, from: 1_700_000_000, to: 1_700_000_001 }] }).ok);
  });
});

describe('query strings carry plain decimal numbers', () => {
  it('never writes an exponent (String(1e21) is "1e+21", which a strict server refuses)', () => {
    assert.equal(decimalText(1e21), '1000000000000000000000');
    assert.equal(decimalText(5e-7), '0.0000005');
    assert.equal(decimalText(1234.5), '1234.5');
    const wire = encodeRequest(endpoint('mcaptokens'), { mcap_usd: 2e21, days: 3 });
    assert.equal(wire.query.mcap_usd, '2000000000000000000000');
  });
});

describe('the catalog answers what other modules used to special-case', () => {
  it('names the answer schema of every endpoint: a SubmitAck for queued ones, its own for the rest', () => {
    for (const ep of ENDPOINTS) {
      if (ep.family === 'queued') assert.equal(ep.answer, SubmitAck, ep.id);
      else assert.notEqual(ep.answer, SubmitAck, ep.id);
    }
    assert.equal(endpoint('credits').answer.safeParse('1200').success, true);
  });

  it('flags the two account calls whose answer is not a result: the balance and the IP reset', () => {
    assert.deepEqual(
      ENDPOINTS.filter((ep) => ep.accountCall !== undefined).map((ep) => [ep.id, ep.accountCall]),
      [['credits', 'balance'], ['reset_ip', 'resetIp']],
    );
  });

  it('says which kind of file a call answers with, from its output choice or its first kind', () => {
    assert.equal(resultKindFor(endpoint('toptraders'), {}), 'zip');
    assert.equal(resultKindFor(endpoint('toptraders'), { output: 'txt' }), 'txt');
    assert.equal(resultKindFor(endpoint('toptraders'), { output: 'csv' }), 'zip');
    assert.equal(resultKindFor(endpoint('earlybuyers'), { output: 'txt' }), 'zip');
    assert.equal(resultKindFor(endpoint('pnl'), {}), 'csv');
    assert.equal(resultKindFor(endpoint('wallet_database'), {}), 'json');
  });

  it('gives a short title without the trailing ellipsis', () => {
    assert.equal(shortTitle({ ...endpoint('pnl'), title: 'PnL…' }), 'PnL');
    assert.equal(shortTitle(endpoint('credits')), 'Show Credits');
  });
});
