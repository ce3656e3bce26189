import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { applyEdits } from 'jsonc-parser';
import { analyzeQuery, type QueryDiagnostic } from '../../../../src/core/query/analyze';
import { firstContradiction, type Constraint } from '../../../../src/core/query/contradiction';
import { EXAMPLE_QUERY } from '../../../../src/core/query/example';
import { parseQueryFile } from '../../../../src/core/query/file';
import { closestName } from '../../../../src/core/spec/suggest';
import { SANDBOX_COLUMNS, fixture, markedRanges } from '../../querySupport';

const got = (text: string, diags: QueryDiagnostic[]) =>
  diags.map((d) => ({ code: d.code, offset: d.offset, length: d.length, text: text.slice(d.offset, d.offset + d.length) }));

function checkFixture(name: string): QueryDiagnostic[] {
  const text = fixture(name);
  const diags = analyzeQuery(text, SANDBOX_COLUMNS);
  assert.deepEqual(got(text, diags), markedRanges(text), `${name}: every diagnostic at its marked range, and no other`);
  return diags;
}

describe('query diagnostics: each at the right range', () => {
  it('problems.waquery.json: every kind of problem, at the characters it is about', () => {
    const diags = checkFixture('problems.waquery.json');
    const codes = new Set(diags.map((d) => d.code));
    for (const c of ['unknown-field', 'other-chain-field', 'wrong-type', 'unknown-value', 'op-value', 'empty-group', 'between-order', 'contradiction', 'no-limit']) {
      assert.ok(codes.has(c as QueryDiagnostic['code']), `the fixture covers ${c}`);
    }
  });

  it('problems-alt.waquery.json: "$chain": "alt" checks against the second chain', () => {
    checkFixture('problems-alt.waquery.json');
  });

  it('says what is wrong and what to do, in words a person reads', () => {
    const text = fixture('problems.waquery.json');
    const by = (needle: string) => analyzeQuery(text, SANDBOX_COLUMNS).find((d) => text.slice(d.offset, d.offset + d.length).includes(needle));
    assert.match(by('"winrate_30"')?.message ?? '', /Unknown field "winrate_30"\. Did you mean "winrate_30d"\?/u);
    assert.match(by('"winrate"')?.message ?? '', /needs a timeframe: "winrate_1d", "winrate_7d", "winrate_30d", "winrate_all"/u);
    assert.match(by('"private_tx_share_30d"')?.message ?? '', /exists only on the second chain; this query runs on the main chain\. Set "\$chain": "alt"/u);
    assert.match(by('"high"')?.message ?? '', /"winrate_30d" holds numbers \(ratio\): "high" is a string/u);
    assert.match(by('"raydium_amn"')?.message ?? '', /Did you mean "raydium_amm"\?/u);
    assert.match(by('[500, 20]')?.message ?? '', /500 is above 20, so no wallet can match/u);
    assert.match(by('[1, 2, 3]')?.message ?? '', /"between" takes \[min, max\], two numbers/u);
    const contra = analyzeQuery(text, SANDBOX_COLUMNS).filter((d) => d.code === 'contradiction');
    assert.match(contra[0]?.message ?? '', /no wallet can have roi_30d > 10 and roi_30d < 5/u);
    assert.equal(contra[0]?.severity, 'warning');
    assert.equal(contra[0]?.related?.length, 1, 'points at the condition it contradicts');
    assert.match(contra[1]?.message ?? '', /main_bot = "photon" and main_bot != "photon"/u, 'an AND nested in an AND counts as the same group');
  });

  it('no diagnostics on valid files, with the field lists and without them', () => {
    for (const name of ['valid-nested.waquery.json', 'valid-alt.waquery.json', 'valid-minimal.waquery.json']) {
      const text = fixture(name);
      assert.ok(parseQueryFile(text).ok, `${name} parses with the model`);
      assert.deepEqual(got(text, analyzeQuery(text, SANDBOX_COLUMNS)), [], name);
      assert.deepEqual(got(text, analyzeQuery(text)), [], `${name} without field lists`);
    }
  });

  it('the "New Wallet Database Query" example is a valid query with no diagnostics', () => {
    const parsed = parseQueryFile(EXAMPLE_QUERY);
    assert.ok(parsed.ok, JSON.stringify(parsed));
    assert.deepEqual(got(EXAMPLE_QUERY, analyzeQuery(EXAMPLE_QUERY, SANDBOX_COLUMNS)), []);
  });

  it('without field lists, only what needs none: structure rules, empty groups, between order, contradictions, limit', () => {
    const text = fixture('problems.waquery.json');
    const codes = new Set(analyzeQuery(text).map((d) => d.code));
    assert.deepEqual([...codes].sort(), ['between-order', 'contradiction', 'empty-group', 'no-limit', 'op-value']);
  });

  it('checks a main-chain file as the second chain when asked (the "Run on Second Chain" lens)', () => {
    const text = fixture('valid-nested.waquery.json');
    const alt = analyzeQuery(text, SANDBOX_COLUMNS, { chain: 'alt' });
    assert.ok(alt.some((d) => d.code === 'other-chain-field' && text.slice(d.offset, d.offset + d.length) === '"launchpad_token_share_30d"'));
    assert.ok(alt.some((d) => d.code === 'unknown-value' && text.slice(d.offset, d.offset + d.length) === '"raydium_amm"'));
  });

  it('tolerates a half-typed file and an empty one', () => {
    assert.deepEqual(analyzeQuery(''), []);
    const half = '{ "where": { "and": [ { "field": "winrate_3';
    const d = analyzeQuery(half, SANDBOX_COLUMNS);
    assert.ok(d.some((x) => x.code === 'unknown-field'));
    assert.ok(d.some((x) => x.code === 'no-limit'));
  });
});

describe('query quick fixes', () => {
  const text = fixture('problems.waquery.json');
  const diags = analyzeQuery(text, SANDBOX_COLUMNS);
  const fixed = (pick: (d: QueryDiagnostic) => boolean) => {
    const d = diags.find(pick);
    const fix = d?.fixes?.[0];
    assert.ok(fix, 'a fix');
    return applyEdits(text, [...fix.edits]);
  };

  it('"did you mean" replaces the name', () => {
    const t = fixed((d) => d.code === 'unknown-field' && text.slice(d.offset, d.offset + d.length) === '"winrate_30"');
    assert.ok(t.includes('{ "field": /*<unknown-field*/"winrate_30d"/*>*/, "op": ">", "value": 0.5 }'));
  });

  it('between upside down is swapped', () => {
    assert.ok(fixed((d) => d.code === 'between-order').includes('[20, 500]'));
  });

  it('a missing limit is added, and the file then has a limit', () => {
    const t = fixed((d) => d.code === 'no-limit');
    assert.ok(!analyzeQuery(t, SANDBOX_COLUMNS).some((d) => d.code === 'no-limit'));
    assert.match(t, /"limit": 100/u);
  });

  it('a field of the other chain offers to target that chain', () => {
    const d = diags.find((x) => x.code === 'other-chain-field');
    assert.match(d?.fixes?.[0]?.title ?? '', /second chain \("\$chain": "alt"\)/u);
    const t = applyEdits(text, [...(d?.fixes?.[0]?.edits ?? [])]);
    assert.ok(!analyzeQuery(t, SANDBOX_COLUMNS).some((x) => x.code === 'other-chain-field' && t.slice(x.offset, x.offset + x.length) === '"private_tx_share_30d"'));
  });
});

describe('contradictions on one field in an AND group', () => {
  const at = (...cs: Constraint[]) => firstContradiction(cs);
  it('finds empty intersections', () => {
    assert.equal(at({ op: '>', value: 10 }, { op: '<', value: 5 }), 1);
    assert.equal(at({ op: '>=', value: 5 }, { op: '<', value: 5 }), 1);
    assert.equal(at({ op: '>', value: 5 }, { op: '<=', value: 5 }), 1);
    assert.equal(at({ op: 'between', value: [1, 3] }, { op: '>', value: 3 }), 1);
    assert.equal(at({ op: '=', value: 1 }, { op: '=', value: 2 }), 1);
    assert.equal(at({ op: '=', value: 'a' }, { op: '!=', value: 'a' }), 1);
    assert.equal(at({ op: 'in', value: ['a', 'b'] }, { op: 'in', value: ['c'] }), 1);
    assert.equal(at({ op: 'in', value: [1, 2] }, { op: '>', value: 2 }), 1);
    assert.equal(at({ op: '>=', value: 5 }, { op: '<=', value: 5 }, { op: '!=', value: 5 }), 2);
    assert.equal(at({ op: '<', value: 0 }, { op: '>', value: 1 }, { op: '>', value: 2 }), 1, 'the first condition after which nothing fits');
  });
  it('leaves satisfiable ones alone', () => {
    assert.equal(at({ op: '>=', value: 5 }, { op: '<=', value: 5 }), undefined);
    assert.equal(at({ op: '>', value: 1 }, { op: '<', value: 2 }, { op: '!=', value: 1.5 }), undefined);
    assert.equal(at({ op: 'in', value: ['a', 'b'] }, { op: '!=', value: 'a' }), undefined);
    assert.equal(at({ op: 'between', value: [1, 3] }, { op: 'between', value: [3, 5] }), undefined);
    assert.equal(at({ op: '!=', value: 1 }, { op: '!=', value: 2 }), undefined);
  });
});

describe('did you mean', () => {
  it('finds near names and names missing their tail', () => {
    assert.equal(closestName('winrate_30', ['winrate_30d', 'winrate_7d']), 'winrate_30d');
    assert.equal(closestName('WINRATE_30D', ['winrate_30d']), 'winrate_30d');
    assert.equal(closestName('sharpe', ['sharpe_ratio_30d', 'roi_30d']), 'sharpe_ratio_30d');
    assert.equal(closestName('zzz', ['winrate_30d']), undefined);
  });
});
