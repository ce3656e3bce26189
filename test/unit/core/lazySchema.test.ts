/**
 * A schema built on first use (src/core/lazySchema.ts, issue 34 item 1) must behave as the schema
 * itself wherever one stood: not built until a member is read, built once, its methods acting on
 * the real schema (zod's members read `this`), instanceof and composition in other schemas as
 * before; and the modules that now hold their schemas this way still check as they did.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { z } from 'zod';
import { lazySchema } from '../../../src/core/lazySchema';
import { QueryBody, QueryFile } from '../../../src/core/spec/queryModel';
import { Credits, RequestRecord } from '../../../src/core/spec/wire';
import { PipelineFile } from '../../../src/core/pipeline/format';
import { queryJsonSchema } from '../../../src/core/query/schema';

describe('lazySchema: a zod schema built on first use', () => {
  it('builds nothing until a member is read, then once', () => {
    let builds = 0;
    const s = lazySchema(() => (builds++, z.strictObject({ n: z.number().int() })));
    assert.equal(builds, 0, 'built when declared');
    assert.equal(s.safeParse({ n: 1 }).success, true);
    assert.equal(s.safeParse({ n: 1.5 }).success, false);
    assert.deepEqual(s.parse({ n: 2 }), { n: 2 });
    assert.equal(builds, 1, 'built again on a later read');
  });

  it('acts as the schema: instanceof, methods that read this, composition, describe', () => {
    const inner = lazySchema(() => z.strictObject({ a: z.string() }));
    assert.ok(inner instanceof z.ZodObject);
    const wider = inner.extend({ b: z.number() });
    assert.deepEqual(wider.parse({ a: 'x', b: 1 }), { a: 'x', b: 1 });
    const list = z.array(inner).min(1);
    assert.equal(list.safeParse([{ a: 'x' }]).success, true);
    assert.equal(list.safeParse([{ a: 1 }]).success, false);
    assert.equal(inner.describe('d').description, 'd');
    assert.deepEqual(Object.keys(inner.shape), ['a']);
  });

  it('the modules that hold their schemas so check as before', () => {
    assert.equal(QueryBody.safeParse({ where: { and: [{ field: 'winrate_30d', op: '>', value: 0.5 }] }, limit: 10 }).success, true);
    const between = QueryBody.safeParse({ where: { or: [{ field: 'x', op: 'between', value: [1] }] }, limit: 10 });
    assert.equal(between.success, false);
    assert.equal(QueryFile.safeParse({ $chain: 'alt', where: { and: [] }, limit: 1 }).success, true);
    assert.equal(Credits.safeParse({ credits: '12' }).success, true);
    assert.equal(RequestRecord.safeParse({ requestId: 'r1', status: 'done' }).success, true);
    assert.equal(PipelineFile.safeParse({ version: 1, cells: ['# note'] }).success, true);
    assert.equal(PipelineFile.safeParse({ version: 2, cells: [] }).success, false);
    // The query file's JSON Schema keeps its named definitions and descriptions (the registry is keyed by the built schemas).
    const json = JSON.stringify(queryJsonSchema());
    for (const id of ['Condition', 'AndGroup', 'OrGroup', 'QueryNode']) assert.ok(json.includes(`"${id}"`), `${id} is not a definition`);
    assert.ok(json.includes('How many addresses to return at most.'));
  });
});
