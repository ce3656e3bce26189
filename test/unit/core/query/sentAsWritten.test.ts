/**
 * A Wallet Database query is sent as written, or not at all (issue 22): a number the client
 * cannot send exactly, `between` upside down and an empty group are errors on every path that
 * sends a query (the editor's diagnostics, a query file read by parseQueryFile for the runner and
 * the palette, and api.preflight/api.call); `$` keys stay in the file and are never sent.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { WalletAnalyticsApi } from '../../../../src/core/transport/api';
import { BadInputError } from '../../../../src/core/errors';
import { analyzeQuery, inexactNumberProblem } from '../../../../src/core/query/analyze';
import { parseQueryFile } from '../../../../src/core/query/file';
import { queryJsonSchema } from '../../../../src/core/query/schema';
import { startSandbox, type Sandbox } from '../../../../src/sandbox';
import { SANDBOX_COLUMNS } from '../../querySupport';

const file = (where: string, extra = ''): string => `{${extra}\n  "where": ${where},\n  "limit": 5\n}\n`;
const cond = (op: string, value: string, field = 'winrate_30d'): string => `{ "and": [ { "field": "${field}", "op": "${op}", "value": ${value} } ] }`;

describe('query: numbers the client cannot send exactly', () => {
  it('is an error at the value, naming the field and the 15-digit rule, with or without the field list', () => {
    const text = file(cond('>', '12345678901234567891', 'realized_pnl_usd_30d'));
    for (const columns of [SANDBOX_COLUMNS, undefined]) {
      const d = analyzeQuery(text, columns).find((x) => x.code === 'inexact-number');
      assert.ok(d, JSON.stringify(analyzeQuery(text, columns)));
      assert.equal(d.severity, 'error');
      assert.equal(text.slice(d.offset, d.offset + d.length), '12345678901234567891');
      assert.match(d.message, /"realized_pnl_usd_30d"/u);
      assert.match(d.message, /20 significant digits/u);
      assert.match(d.message, /at most 15/u);
      assert.match(d.message, /12345678901234567000/u, 'says what would have been sent');
    }
  });

  it('counts significant digits, not characters: zeros that only place the point are not digits', () => {
    const inexact = (v: string) => analyzeQuery(file(cond('>', v)), SANDBOX_COLUMNS).some((d) => d.code === 'inexact-number');
    for (const v of ['123456789012345', '-0.000000000000000123456789012345', '100000000000000000000', '1.5e300', '0.1', '12345678901234500000']) {
      assert.equal(inexact(v), false, v);
    }
    for (const v of ['1234567890123456', '10000000000000000001', '0.12345678901234567', '-1.0000000000000001', '1e400']) {
      assert.equal(inexact(v), true, v);
    }
    assert.equal(analyzeQuery(file(`{ "and": [ { "field": "winrate_30d", "op": "between", "value": [0, 1.00000000000000001] } ] }`)).some((d) => d.code === 'inexact-number'), true, 'inside a list too');
  });
});

describe('query: upside-down between and empty groups are errors', () => {
  it('marks both as errors in the editor', () => {
    const between = analyzeQuery(file(cond('between', '[500, 20]')), SANDBOX_COLUMNS).find((d) => d.code === 'between-order');
    assert.equal(between?.severity, 'error');
    for (const g of ['{ "and": [] }', '{ "or": [] }', '{ "and": [ { "or": [] }, { "field": "winrate_30d", "op": ">", "value": 0.5 } ] }']) {
      const empty = analyzeQuery(file(g), SANDBOX_COLUMNS).find((d) => d.code === 'empty-group');
      assert.equal(empty?.severity, 'error', g);
    }
  });
});

describe('query file: read by parseQueryFile (the runner, the palette)', () => {
  it('refuses a file that cannot be sent as written, naming the line', () => {
    for (const [text, pattern] of [
      [file(cond('>', '12345678901234567891')), /Line 2: .*15 significant digits/u],
      [file(cond('between', '[500, 20]')), /Line 2: .*"between" takes \[min, max\]/u],
      [file('{ "and": [] }'), /Line 2: .*Empty "and" group/u],
    ] as const) {
      const parsed = parseQueryFile(text);
      assert.equal(parsed.ok, false, text);
      if (!parsed.ok) assert.match(parsed.errors.join('\n'), pattern);
    }
  });

  it('keeps "$" keys in the file, at any depth, and never puts them in the body', () => {
    const text = `{
  "$schema": "./waquery.schema.json",
  "$comment": "whales that win",
  "$chain": "alt",
  "where": { "$comment": "both must hold", "and": [ { "$note": "30 days", "field": "winrate_30d", "op": ">", "value": 0.6 } ] },
  "limit": 5
}`;
    const parsed = parseQueryFile(text);
    assert.ok(parsed.ok, JSON.stringify(parsed));
    assert.equal(parsed.chain, 'alt');
    assert.deepEqual(parsed.body, { where: { and: [{ field: 'winrate_30d', op: '>', value: 0.6 }] }, limit: 5 });
    assert.deepEqual(analyzeQuery(text, SANDBOX_COLUMNS), []);
  });

  it('still refuses a key that does not start with "$"', () => {
    const parsed = parseQueryFile(file(cond('>', '0.5'), ' "comment": "x",'));
    assert.equal(parsed.ok, false);
  });

  it('has a JSON Schema that lets "$" keys stay, at the root and in groups and conditions', () => {
    const schema = queryJsonSchema() as { patternProperties?: Record<string, unknown>; definitions?: Record<string, { patternProperties?: Record<string, unknown> }> };
    assert.ok(schema.patternProperties?.['^\\$'], 'root');
    for (const name of ['Condition', 'AndGroup', 'OrGroup']) assert.ok(schema.definitions?.[name]?.patternProperties?.['^\\$'], name);
  });
});

describe('api.preflight and api.call: the same checks before anything is sent', () => {
  let sb: Sandbox;
  let api: WalletAnalyticsApi;
  before(async () => {
    sb = await startSandbox({ seed: 5, wallets: 200, altWallets: 100, delayScale: 0.001 });
    api = new WalletAnalyticsApi({ baseUrl: sb.baseUrl, apiKey: () => Promise.resolve(sb.demoKey) });
  });
  after(() => sb.close());

  const q = (where: unknown) => ({ query: { where, limit: 5 } });
  const posts = () => sb.received().filter((r) => r.method === 'POST' && r.path === '/wallet_database').length;

  it('refuses an inexact number, an upside-down between and an empty group', async () => {
    const bad: [unknown, RegExp][] = [
      [{ and: [{ field: 'realized_pnl_usd_30d', op: '>', value: Number('12345678901234567891') }] }, /15 significant digits/u],
      [{ and: [{ field: 'winrate_30d', op: 'between', value: [500, 20] }] }, /"between" takes \[min, max\]/u],
      [{ and: [] }, /Empty "and" group/u],
    ];
    for (const [where, pattern] of bad) {
      await assert.rejects(api.preflight('wallet_database', q(where)), (e: unknown) => {
        assert.ok(e instanceof BadInputError, String(e));
        assert.match(e.message, pattern);
        return true;
      });
      await assert.rejects(api.call('wallet_database', q(where)), BadInputError);
    }
    assert.equal(posts(), 0, 'nothing was sent');
  });
});

describe('query: the one rule for typed numbers (the palette\'s one-condition builder)', () => {
  it('says why digits typed in a prompt would not be sent as written, and nothing for those that would', () => {
    assert.match(inexactNumberProblem('10000000000000000001', 'winrate_30d') ?? '', /"winrate_30d": 10000000000000000001 has 20 significant digits and would be sent as 10000000000000000000/u);
    assert.equal(inexactNumberProblem('123456789012345'), undefined);
    assert.equal(inexactNumberProblem('0.6'), undefined);
  });
});
