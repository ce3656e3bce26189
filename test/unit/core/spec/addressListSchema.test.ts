/**
 * An address list's schema checks its items in one loop, not as a zod schema each (issue 34 item 4:
 * the per-item refine and transform held the extension host 0.8–1.6 s for 100,000 addresses at the
 * price step of "use as input"). What it accepts, what it sends and what it says must be what the
 * per-item schema said: compared here with that schema, written as it was, on every kind of item.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { z } from 'zod';
import { addressListSchema, addressSchema, type Chain } from '../../../../src/core/spec/addresses';

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
          const said = (s: z.ZodType<string[], unknown>): string => {
            const r = z.object({ w: s }).safeParse({ w: c });
            return JSON.stringify(r.success ? r.data : r.error.issues.map((i) => [i.code, i.path, i.message]));
          };
          assert.equal(said(addressListSchema(chain, max, 'RULE')), said(perItem(chain, max, 'RULE')), `${chain}, at most ${max}: ${JSON.stringify(c)}`);
        }
      }
    }
  });

  it('takes a list of 100,000 addresses whole, each once', () => {
    const list = Array.from({ length: 100_000 }, (_, i) => `W${i.toString().replace(/0/gu, 'z').padStart(43, 'x')}`);
    const r = addressListSchema('main', 100_000, 'RULE').safeParse([...list, list[0]]);
    assert.ok(r.success);
    assert.deepEqual(r.data, list);
  });
});
