import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { completionContextAt } from '../../../../src/core/query/completion';
import { FieldCache } from '../../../../src/core/query/fieldCache';
import { escapeMarkdown } from '../../../../src/core/markdown';
import { FieldIndex, fieldDetail, fieldHoverMarkdown } from '../../../../src/core/query/fields';
import { fieldAt, outlineQuery } from '../../../../src/core/query/outline';
import { QueryRunCache, runKey } from '../../../../src/core/query/runCache';
import { SANDBOX_COLUMNS } from '../../querySupport';

/** The text with a | where the cursor is, and the offset of that cursor. */
function cursor(marked: string): [string, number] {
  const i = marked.indexOf('|');
  return [marked.slice(0, i) + marked.slice(i + 1), i];
}

/** The span of the string literal around the cursor, quotes included. */
function literal(marked: string): { offset: number; length: number } {
  const [text, at] = cursor(marked);
  const offset = text.lastIndexOf('"', at - 1);
  const close = text.indexOf('"', at);
  return { offset, length: (close < 0 ? text.length : close + 1) - offset };
}

describe('query completions: where a field name or a value goes', () => {
  const ctx = (marked: string) => completionContextAt(...cursor(marked));

  it('a condition field, empty or half typed, at any depth', () => {
    assert.deepEqual(ctx('{ "where": { "and": [ { "field": | } ] } }'), { kind: 'field', role: 'condition', replace: undefined });
    const half = '{ "where": { "and": [ { "field": "win|" } ] } }';
    assert.deepEqual(ctx(half), { kind: 'field', role: 'condition', replace: literal(half) });
    assert.deepEqual(literal(half), { offset: 33, length: 5 });
    assert.equal(ctx('{ "where": { "or": [ { "and": [ { "field": "|" } ] } ] } }')?.kind, 'field');
    const unterminated = '{ "where": { "and": [ { "field": "win|';
    assert.deepEqual(ctx(unterminated), { kind: 'field', role: 'condition', replace: literal(unterminated) });
  });

  it('sort fields and columns', () => {
    const sort = '{ "sort": [ { "field": "|" } ] }';
    assert.deepEqual(ctx(sort), { kind: 'field', role: 'sort', replace: literal(sort) });
    assert.equal(ctx('{ "columns": [ "a", "|" ] }')?.kind, 'field');
  });

  it('a categorical value names its field', () => {
    const v = '{ "where": { "and": [ { "field": "main_dex", "op": "=", "value": "|" } ] } }';
    assert.deepEqual(ctx(v), { kind: 'value', field: 'main_dex', replace: literal(v) });
    assert.equal(ctx('{ "where": { "and": [ { "field": "main_dex", "op": "in", "value": ["|"] } ] } }')?.kind, 'value');
  });

  it('nothing at keys, operators or elsewhere', () => {
    assert.equal(ctx('{ "where": { "and": [ { "|" } ] } }'), undefined);
    assert.equal(ctx('{ "where": { "and": [ { "field": "x", "op": "|" } ] } }'), undefined);
    assert.equal(ctx('{ "limit": | }'), undefined);
    assert.equal(ctx('{ "field": "|" }'), undefined, 'a "field" outside where/sort is not a field name');
  });
});

describe('query hovers and completion details', () => {
  const main = FieldIndex.of(SANDBOX_COLUMNS, 'main');
  it('finds the field under the cursor', () => {
    const text = '{ "where": { "and": [ { "field": "winrate_30d", "op": ">", "value": 1 } ] }, "columns": ["roi_7d"] }';
    const o = outlineQuery(text);
    assert.equal(fieldAt(o, text.indexOf('winrate') + 3)?.name, 'winrate_30d');
    assert.equal(fieldAt(o, text.indexOf('roi_7d'))?.role, 'column');
    assert.equal(fieldAt(o, text.indexOf('"op"')), undefined);
  });
  it('shows the description, timeframe and value type', () => {
    const col = main?.get('winrate_30d');
    assert.ok(col);
    assert.equal(fieldDetail(col), '30d · number (ratio)');
    const md = fieldHoverMarkdown(col, 'main');
    assert.ok(md.startsWith(String.raw`**winrate\_30d**`), md);
    assert.match(md, /Timeframe: last 30 days \(`30d`\)/u);
    assert.match(md, /Value type: number \(ratio\)/u);
    assert.ok(col.description && md.includes(escapeMarkdown(col.description)), 'the description, as literal text');
    const dex = main?.get('main_dex');
    assert.ok(dex);
    assert.match(fieldHoverMarkdown(dex, 'main'), /Values: `"raydium_amm"`/u);
  });
});

describe('query caches on disk', () => {
  const body = { where: { and: [{ field: 'winrate_30d', op: '>' as const, value: 0.5 }] }, limit: 5 };

  it('keeps a run until the top of the hour, keyed by query, chain and base URL, then forgets it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wa-qrun-'));
    let now = Date.UTC(2026, 10, 21, 14, 5);
    const cache = new QueryRunCache(dir, () => now);
    await cache.record({ scope: 'http://127.0.0.1:1', chain: 'main', at: now, total: 42, charged: 4200, resultPath: '/nowhere.json', body, answer: { total: 42, wallets: [] } });
    const reordered = { limit: 5, where: { and: [{ value: 0.5, op: '>' as const, field: 'winrate_30d' }] } };
    const hit = await cache.lookup('http://127.0.0.1:1', 'main', reordered);
    assert.equal(hit?.total, 42, 'the same query in another key order');
    assert.equal(hit?.charged, 4200);
    assert.equal(await cache.lookup('http://127.0.0.1:1', 'alt', body), undefined, 'another chain');
    assert.equal(await cache.lookup('http://127.0.0.1:2', 'main', body), undefined, 'another base URL');
    assert.equal(await cache.lookup('http://127.0.0.1:1', 'main', { ...body, limit: 6 }), undefined, 'another query');
    now = Date.UTC(2026, 10, 21, 14, 59, 59, 999);
    assert.ok(await cache.lookup('http://127.0.0.1:1', 'main', body), 'still the same UTC hour');
    now += 1;
    assert.equal(await cache.lookup('http://127.0.0.1:1', 'main', body), undefined, 'the hourly refresh fell at 15:00');
    await cache.prune();
    assert.deepEqual(readdirSync(dir), ['last-counts.json'], 'the run and its answer removed; only its count is kept, as an estimate (LAST_COUNTS)');
  });

  it('differs by base URL and chain in its key', () => {
    assert.notEqual(runKey('a', 'main', body), runKey('b', 'main', body));
    assert.notEqual(runKey('a', 'main', body), runKey('a', 'alt', body));
  });

  it('keeps field lists per base URL and ignores a corrupt file', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'wa-qfields-'));
    const cache = new FieldCache(dir);
    await cache.write({ scope: 'http://127.0.0.1:1', fetchedAt: 5, main: SANDBOX_COLUMNS.main ? [...SANDBOX_COLUMNS.main] : [] });
    const back = await cache.read('http://127.0.0.1:1');
    assert.equal(back?.main?.length, SANDBOX_COLUMNS.main?.length);
    assert.equal(await cache.read('http://127.0.0.1:2'), undefined);
    for (const f of readdirSync(dir)) writeFileSync(join(dir, f), '{ not json');
    assert.equal(await cache.read('http://127.0.0.1:1'), undefined);
  });
});
