/**
 * `/credits` is read strictly (issue 12): a balance steers spending, so only decimal digits (or a
 * plain JSON number) are a balance; what `Number()` would have guessed at is refused as malformed.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Credits } from '../../../../src/core/spec/wire';

describe('Credits: decimal digits only', () => {
  for (const bad of ['0x10', '0b11', '0o7', '-5', ' 5', '5 ', '1e3', '', '1.5', '1,234', '1_000', 'Infinity', 'NaN', '+5', '１２']) {
    it(`refuses ${JSON.stringify(bad)} as malformed`, () => {
      const r = Credits.safeParse(bad);
      assert.equal(r.success, false, `${JSON.stringify(bad)} was read as ${r.success ? String(r.data) : ''}`);
      assert.match(r.error?.issues[0]?.message ?? '', /decimal digits/u);
      assert.equal(Credits.safeParse({ credits: bad }).success, false);
    });
  }

  it('refuses a JSON number that is no balance: negative, fractional, unsafe', () => {
    for (const bad of [-5, 1.5, Number.NaN, 2 ** 60]) assert.equal(Credits.safeParse(bad).success, false, String(bad));
  });

  it('accepts digits in a string, a JSON number, and either under `credits`', () => {
    assert.equal(Credits.parse('12345'), 12345);
    assert.equal(Credits.parse('0'), 0);
    assert.equal(Credits.parse('1000000000'), 1_000_000_000);
    assert.equal(Credits.parse(12345), 12345);
    assert.equal(Credits.parse({ credits: '42' }), 42);
    assert.equal(Credits.parse({ credits: 42 }), 42);
  });
});
