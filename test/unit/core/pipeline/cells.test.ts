/**
 * The checks a pipeline notebook's cells get in the editor (issue 24 item 1): each at the part of
 * the cell it is about, with the field's own rule; a Wallet Database cell's query checked exactly
 * as the same query in a `.waquery.json` (same messages, same characters, the endpoint's chain);
 * and the plan's refusal carries the same message (firstCellError).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { endpoint } from '../../../../src/core/spec/catalog';
import { cellCompletionAt, inputFieldAt } from '../../../../src/core/pipeline/cellCompletion';
import { checkCells, firstCellError, queryView } from '../../../../src/core/pipeline/cellChecks';
import { analyzeQuery } from '../../../../src/core/query/analyze';
import { SANDBOX_COLUMNS } from '../../querySupport';

const at = (text: string, part: string): number => {
  const i = text.indexOf(part);
  assert.ok(i >= 0, `${part} in ${text}`);
  return i;
};

describe('pipeline cell checks', () => {
  it("says a call's wrong input at that input, with the field's own rule", () => {
    const cell = '{\n  "name": "t",\n  "call": "trending",\n  "inputs": { "hours": 99 }\n}';
    const [d, ...rest] = checkCells([cell]);
    assert.equal(rest.length, 0);
    assert.ok(d);
    assert.equal(d.message, `“t”: ${endpoint('trending').fields.find((f) => f.key === 'hours')?.rule ?? ''}`);
    assert.deepEqual([d.offset, d.length], [at(cell, '99'), 2]);
    assert.equal(firstCellError([cell])?.message, d.message, 'the plan refuses with the same message');
  });

  it('says a reference to a later cell at its "from", and a cell that is not JSON where it breaks', () => {
    const cells = ['{"name": "a", "take": {"from": "b", "top": 3}}', '{"name": "b", "call": "trending", "inputs": {}}', '{"name": "c", "take": '];
    const ds = checkCells(cells);
    const later = ds.find((d) => d.index === 0);
    assert.match(later?.message ?? '', /uses “b”, which comes later/u);
    assert.deepEqual([later?.offset, later?.length], [at(cells[0] ?? '', '"b"'), 3]);
    const broken = ds.find((d) => d.index === 2);
    assert.match(broken?.message ?? '', /^The cell is not JSON: /u);
    assert.equal(broken?.offset, (cells[2] ?? '').length);
  });

  it('checks a Wallet Database cell’s query as the same query in a .waquery.json: same messages, at the same characters', () => {
    const query = '{ "where": { "and": [ { "field": "winrate_30", "op": ">=", "value": 0.6 }, { "field": "realized_pnl_usd_30d", "op": "between", "value": [9, 1] } ] }, "limit": 100 }';
    const cell = `{ "name": "w", "call": "wallet_database", "inputs": { "query": ${query} } }`;
    const ds = checkCells([cell], SANDBOX_COLUMNS);
    const file = analyzeQuery(query, SANDBOX_COLUMNS);
    assert.ok(file.length >= 2);
    const shift = at(cell, query);
    assert.deepEqual(
      ds.map((d) => [d.offset - shift, d.length, d.message]),
      file.map((d) => [d.offset, d.length, d.message]),
    );
    // Without the field list, only what needs none (as in a file).
    assert.deepEqual(checkCells([cell]).map((d) => d.message), analyzeQuery(query).map((d) => d.message));
  });

  it('checks a second-chain query against the second chain’s list', () => {
    const onlyMain = SANDBOX_COLUMNS.main?.find((c) => !SANDBOX_COLUMNS.alt?.some((a) => a.name === c.name))?.name;
    assert.ok(onlyMain);
    const cell = `{"name": "w", "call": "altchain_wallet_database", "inputs": {"query": {"where": {"and": [{"field": "${onlyMain}", "op": ">=", "value": 1}]}, "limit": 10}}}`;
    assert.equal(queryView(cell)?.chain, 'alt');
    const [d] = checkCells([cell], SANDBOX_COLUMNS);
    assert.match(d?.message ?? '', /exists only on the main chain/u);
    assert.equal(d?.offset, at(cell, `"${onlyMain}"`));
  });

  it('places a query’s structure problems where they are (a missing limit, an unknown operator)', () => {
    const cell = '{"name": "w", "call": "wallet_database", "inputs": {"query": {"where": {"and": [{"field": "winrate_30d", "op": "~", "value": 1}]}}}}';
    const ms = checkCells([cell]).map((d) => [d.message, cell.slice(d.offset, d.offset + d.length)]);
    assert.ok(ms.some(([m, s]) => m?.startsWith('Query: where.and.0.op: ') && s === '"~"'), JSON.stringify(ms));
    // A missing limit is said once, in the query language's words (as in a .waquery.json).
    assert.deepEqual(ms.filter(([m]) => m?.includes('limit')).map(([m]) => m?.slice(0, 10)), ['No "limit"']);
  });

  it('refuses a filter bound a double cannot carry, and says to write it as a string', () => {
    const cell = '{"name": "f", "filter": {"from": "x", "where": [{"column": "amount", "op": ">=", "value": 12345678901234567891}]}}';
    const ds = checkCells(['{"name": "x", "call": "trending", "inputs": {}}', cell]);
    const [d] = ds;
    assert.equal(ds.length, 1);
    assert.match(d?.message ?? '', /has 20 significant digits .* In a filter, write it as a string \("12345678901234567891"\)/u);
    assert.ok(checkCells(['{"name": "x", "call": "trending", "inputs": {}}', cell.replace('12345678901234567891', '"12345678901234567891"')]).length === 0);
  });
});

describe('pipeline cell completions', () => {
  it('knows where the cursor is: an endpoint, an input of the endpoint, an earlier cell, a query', () => {
    const text = '{"name": "p", "call": "pnl", "inputs": {"wallets": {"from": ""}, "": 1}}';
    assert.deepEqual(cellCompletionAt(text, at(text, '"pnl"') + 1), { kind: 'endpoint', replace: { offset: at(text, '"pnl"'), length: 5 } });
    assert.deepEqual(cellCompletionAt(text, at(text, '"from": ""') + 9), { kind: 'cell', replace: { offset: at(text, '"from": ""') + 8, length: 2 } });
    const key = cellCompletionAt(text, at(text, '"": 1') + 1);
    assert.equal(key?.kind, 'inputKey');
    assert.equal(key?.kind === 'inputKey' ? key.endpoint.id : '', 'pnl');
    const q = '{"name": "w", "call": "wallet_database", "inputs": {"query": {"where": {"and": [{"field": ""}]}, "limit": 1}}}';
    assert.equal(cellCompletionAt(q, at(q, '"field": ""') + 10)?.kind, 'query');
    const e = '{"name": "t", "call": "toptraders", "inputs": {"output": ""}}';
    const v = cellCompletionAt(e, at(e, '"output": ""') + 11);
    assert.equal(v?.kind, 'inputValue');
    assert.deepEqual(v?.kind === 'inputValue' ? v.field.options : [], endpoint('toptraders').fields.find((f) => f.key === 'output')?.options);
    // On a key already written (as the notebook shows a cell: two-space JSON): that key is offered again, replacing it whole.
    const pretty = JSON.stringify({ name: 't', call: 'trending', inputs: { hours: 99 } }, null, 2);
    const on = cellCompletionAt(pretty, at(pretty, '"hours"') + 1);
    assert.deepEqual(on?.kind === 'inputKey' ? [on.present, on.replace] : on, [[], { offset: at(pretty, '"hours"'), length: 7 }]);
    const h = '{"name": "t", "call": "trending", "inputs": {"hours": 1}}';
    assert.equal(inputFieldAt(h, at(h, '"hours"') + 2)?.key, 'hours');
    assert.equal(inputFieldAt(h, at(h, '"name"') + 2), undefined);
  });
});
