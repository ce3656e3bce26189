/**
 * A field's zod schema is built on its first use, not with the catalog (issue 34 item 1): the
 * catalog's hundred-odd schemas were built when the features loaded, tens of milliseconds before
 * any input was checked. What is held: a field's builder does not run until `schema` is read, runs
 * once however often it is read, and every field of the catalog has its schema that way; checking
 * an input still gives the same answers.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { z } from 'zod';
import { ENDPOINTS, endpoint, validateInput } from '../../../../src/core/spec/catalog';
import { customField, integerField } from '../../../../src/core/spec/fields';

describe('field schemas: built on first use', () => {
  it('a field does not build its schema until it is read, and builds it once', () => {
    let builds = 0;
    const f = customField({ key: 'k', label: 'K', description: 'd', kind: 'text', rule: 'K must be text.', schema: () => (builds++, z.string()) });
    assert.equal(builds, 0, 'built when the field was made');
    const first = f.schema;
    assert.equal(f.schema, first, 'a second read built another schema');
    assert.equal(builds, 1);
    assert.equal(first.safeParse('x').success, true);
  });

  it('every field of the catalog holds its schema unbuilt until read', () => {
    const eager = ENDPOINTS.flatMap((ep) => ep.fields.filter((f) => Object.getOwnPropertyDescriptor(f, 'schema')?.get === undefined).map((f) => `${ep.id}.${f.key}`));
    assert.deepEqual(eager, [], 'fields whose schema was built with the catalog');
  });

  it('checks inputs as before', () => {
    const hours = integerField({ key: 'hours', label: 'Hours', description: 'h', min: 1, max: 24 });
    assert.equal(hours.schema.safeParse(25).success, false);
    assert.deepEqual(validateInput(endpoint('trending'), { hours: 2 }), { ok: true, input: { hours: 2 } });
    const bad = validateInput(endpoint('trending'), { hours: 0 });
    assert.equal(bad.ok, false);
  });
});
