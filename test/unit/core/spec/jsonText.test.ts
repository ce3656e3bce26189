/**
 * A call's JSON written a slice at a time (src/core/spec/jsonText.ts): the same text as JSON.stringify,
 * to the byte, whatever the record holds, with the loop given back inside a long list.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { JSON_SLICE, jsonTextSliced } from '../../../../src/core/spec/jsonText';
import { countingTurns } from '../../loopTurns';

describe('jsonTextSliced', () => {
  it("writes JSON.stringify's text for records and arrays of every kind of member", async () => {
    const long = Array.from({ length: JSON_SLICE * 2 + 5 }, (_, i) => (i % 11 === 0 ? { at: i, when: new Date(i * 1000) } : i % 7 === 0 ? `é"\\${i}\n\ud800` : i % 5 === 0 ? null : i % 3 === 0 ? undefined : `w${i}`));
    const cases: (Record<string, unknown> | unknown[])[] = [
      {},
      [],
      { a: 1, b: 'two', c: null, d: undefined, e: () => 1, f: Symbol('s'), g: [1, undefined, () => 2], h: { nested: [long.slice(0, 40)] }, i: new Date(0), j: Number.NaN, k: -0 },
      { wallets: long, then: { more: long, empty: [] }, 2: 'index-like key', z: true },
      long,
      Object.assign(Object.create(null) as Record<string, unknown>, { x: [1, 2], y: 'no prototype' }),
      { own: { toJSON: () => ({ replaced: true }) }, list: [{ toJSON: () => 'item' }] },
    ];
    for (const c of cases) assert.equal(await jsonTextSliced(c), JSON.stringify(c));
  });

  it('gives the loop back inside a list of 100,000', async () => {
    const wallets = Array.from({ length: 100_000 }, (_, i) => `W${String(i).padStart(6, '0')}${'x'.repeat(36)}`);
    const { value, turns } = await countingTurns(() => jsonTextSliced({ wallets }));
    assert.equal(value, JSON.stringify({ wallets }));
    assert.ok(turns >= 5, `the loop turned ${turns} times while 100,000 addresses were written`);
  });
});
