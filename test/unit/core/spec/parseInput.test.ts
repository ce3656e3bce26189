import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseNumber, parseTimestamp } from '../../../../src/core/spec/parseInput';
import { parseQueryFile } from '../../../../src/core/query/file';

describe('parseNumber / parseTimestamp', () => {
  it('reads numbers as people type them', () => {
    assert.equal(parseNumber('1,000'), 1000);
    assert.equal(parseNumber(' 2.5k '), 2500);
    assert.equal(parseNumber('3M'), 3_000_000);
    assert.equal(parseNumber('-4'), -4);
    assert.equal(parseNumber('ten'), undefined);
    assert.equal(parseNumber(''), undefined);
  });
  it('reads Unix seconds, milliseconds and ISO dates', () => {
    assert.equal(parseTimestamp('1700000000'), 1_700_000_000);
    assert.equal(parseTimestamp('1700000000123'), 1_700_000_000);
    assert.equal(parseTimestamp('2026-11-21'), Date.UTC(2026, 10, 21) / 1000);
    assert.equal(parseTimestamp('2026-11-21T14:30Z'), Date.UTC(2026, 10, 21, 14, 30) / 1000);
    assert.equal(parseTimestamp('yesterday'), undefined);
  });
});

describe('parseQueryFile', () => {
  it('accepts comments, strips $ keys, and reads $chain', () => {
    const r = parseQueryFile(`{
      // find good traders
      "$schema": "./x.json", "$chain": "alt",
      "where": { "and": [ { "field": "winrate_30d", "op": ">", "value": 0.6 } ] },
      "limit": 10,
    }`);
    assert.ok(r.ok);
    assert.equal(r.chain, 'alt');
    assert.deepEqual(Object.keys(r.body).sort(), ['limit', 'where']);
  });
  it('names the line of a syntax error and the path of a model error', () => {
    const syntax = parseQueryFile('{\n "limit": 10,\n "where": {\n}}}');
    assert.ok(!syntax.ok && /^Line \d+:/u.test(syntax.errors[0] ?? ''));
    const model = parseQueryFile('{ "where": { "and": [ { "field": "x", "op": "between", "value": [1] } ] }, "limit": 5 }');
    assert.ok(!model.ok);
    assert.match(model.errors.join(), /where\.and\.0\.value: "between" takes \[min, max\]/u);
  });
});
