/**
 * An address list's schema checks its items in one loop, not as a zod schema each (issue 34 item 4:
 * the per-item refine and transform held the extension host 0.8–1.6 s for 100,000 addresses at the
 * price step of "use as input"). What it accepts, what it sends and what it says must be what the
 * per-item schema said: compared here with that schema, written as it was, on every kind of item.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { z } from 'zod';
import { addressListSchema, addressSchema, checkedAddresses, firstAddresses, type Chain } from '../../../../src/core/spec/addresses';

/** The schema as it was: each item an addressSchema. */
function perItem(chain: Chain, max: number, rule: string): z.ZodType<string[], unknown> {
  return z
    .array(addressSchema(chain), { error: rule })
    .min(1, { error: `${rule} This list is empty.` })
    .transform((list) => [...new Set(list)])
    .refine((list) => list.length <= max, { error: (iss) => `${rule} This list has ${Array.isArray(iss.input) ? iss.input.length : 'more'} distinct addresses.` });
}

const A = 'So11111111111111111111111111111111111111112';
const B = 'W1111111111111111111111111111111111111111111';
const E = '0x52908400098527886E0F7030069857D2E4169EE7';
const CASES: unknown[] = [[], [A], [A, A, ` ${B} `], ['bad', A, 12, ' x0OIl '], 'nope', [null], [A, B, 'bad'], [A, A, A, A], [E, E.toLowerCase(), ` ${E} `], [A, B, A, B, B], [{ a: 1 }, A]];

describe("an address list's schema (issue 34 item 4)", () => {
  it('accepts, normalises, de-duplicates and refuses exactly as a schema per item did', () => {
    for (const chain of ['main', 'alt'] as const) {
      for (const max of [2, 100]) {
        for (const c of CASES) {
          const said = (s: z.ZodType<unknown, unknown>): string => {
            const r = z.object({ w: s }).safeParse({ w: c });
            return JSON.stringify(r.success ? r.data : r.error.issues.map((i) => [i.code, i.path, i.message]));
          };
          assert.equal(said(addressListSchema(chain, max, 'RULE')), said(perItem(chain, max, 'RULE')), `${chain}, at most ${max}: ${JSON.stringify(c)}`);
        }
      }
    }
  });

  it('tells the agents the same as the per-item schema did: a non-empty array of strings (z.toJSONSchema, io input)', () => {
    const json = (s: z.ZodType<unknown, unknown>): string => JSON.stringify(z.toJSONSchema(z.strictObject({ w: s }), { io: 'input', unrepresentable: 'any' }));
    for (const chain of ['main', 'alt'] as const) assert.equal(json(addressListSchema(chain, 100, 'RULE')), json(perItem(chain, 100, 'RULE')));
  });

  it('takes a list of 100,000 addresses whole, each once', () => {
    const list = Array.from({ length: 100_000 }, (_, i) => `W${i.toString().replace(/0/gu, 'z').padStart(43, 'x')}`);
    const r = addressListSchema('main', 100_000, 'RULE').safeParse([...list, list[0]]);
    assert.ok(r.success);
    assert.deepEqual(r.data, list);
  });

  it('an unmarked list of 100,000 (typed, pasted, a file\'s, an agent\'s) fills no one Set past a sixteenth of it (a Set growing past 65,536 rehashes them all in one turn)', () => {
    const list = Array.from({ length: 100_000 }, (_, i) => `W${i.toString().replace(/0/gu, 'z').padStart(43, 'x')}`);
    const add = Set.prototype.add;
    let largest = 0;
    Set.prototype.add = function <T>(this: Set<T>, v: T): Set<T> {
      largest = Math.max(largest, this.size + 1);
      return add.call(this, v) as Set<T>;
    };
    let r;
    try {
      r = addressListSchema('main', 100_000, 'RULE').safeParse(list);
    } finally {
      Set.prototype.add = add;
    }
    assert.ok(r.success);
    assert.deepEqual(r.data, list);
    assert.ok(largest <= 100_000 / 16, `a Set of ${largest} entries was filled`);
  });

  it("a list marked checked by a reader is frozen, taken as it is (a copy), and keeps its mark when cut; an unmarked copy is checked", () => {
    const list = checkedAddresses([A, B], 'main');
    assert.ok(Object.isFrozen(list));
    assert.throws(() => (list as string[]).push('bad'), TypeError);
    const r = addressListSchema('main', 100, 'RULE').safeParse(list);
    assert.ok(r.success);
    assert.deepEqual(r.data, [A, B]);
    assert.equal(r.data, list, 'taken as it is: frozen, it is shared, not copied');
    assert.equal(firstAddresses(list, 5), list, 'taken whole: shared, it cannot change');
    assert.ok(Object.isFrozen(firstAddresses(list, 1)), 'cut: still marked');
    // A mark is for its chain only, and only the marked array carries it.
    assert.equal(addressListSchema('alt', 100, 'RULE').safeParse(list).success, false);
    assert.equal(addressListSchema('main', 100, 'RULE').safeParse([...list, 'bad']).success, false);
    assert.equal(firstAddresses([A, 'bad'], 1).length, 1);
    assert.equal(Object.isFrozen(firstAddresses([A, 'bad'], 1)), false, 'an unmarked list stays unmarked');
    // Emptiness and the most are still checked on a marked list.
    assert.equal(addressListSchema('main', 1, 'RULE').safeParse(list).success, false);
    assert.equal(addressListSchema('main', 1, 'RULE').safeParse(checkedAddresses([], 'main')).success, false);
  });
});
