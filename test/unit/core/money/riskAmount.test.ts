import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { matchedSummary, parseRiskAmount, riskAmountEcho, riskAmountProblem } from '../../../../src/core/money/riskAmount';

describe('the credits a person types to lift the ceiling for one unbounded bill', () => {
  it('takes only a whole number between the smallest bill and the balance', () => {
    assert.equal(parseRiskAmount('152,900', 100, 1_000_000), 152_900);
    assert.equal(parseRiskAmount(' 5 000 ', 100, undefined), 5_000);
    for (const bad of ['', '   ', 'yes', '1e6', '-500', '12.5', '0x100', '99']) {
      assert.equal(parseRiskAmount(bad, 100, 1_000_000), undefined, `“${bad}” is refused`);
      assert.ok(riskAmountProblem(bad, 100, 1_000_000), `“${bad}” has a reason`);
    }
    assert.equal(parseRiskAmount('1,000,001', 100, 1_000_000), undefined, 'above the balance');
    assert.match(riskAmountProblem('1,000,001', 100, 1_000_000) ?? '', /At most your balance, 1,000,000 credits/u);
    assert.equal(parseRiskAmount('99999999999999999999', 100, undefined), undefined, 'not a safe integer');
  });
  it('says back what Enter will do, in credits and matches, and that more matches are billed', () => {
    const echo = riskAmountEcho(152_900, 100);
    assert.match(echo, /accepting a bill of 152,900 credits \(1,529 matching wallets\)/u);
    assert.match(echo, /every match is billed/u);
  });
  it('sums a Wallet Database answer in one line: matched, charged, and the rows the limit kept', () => {
    assert.equal(matchedSummary(1_529, 152_900, 100), '1,529 matched · charged 152,900 credits · showing 100 (limit)');
    assert.equal(matchedSummary(3, 300, 3), '3 matched · charged 300 credits');
    assert.equal(matchedSummary(0, 100, 0), '0 matched · charged 100 credits');
    assert.equal(matchedSummary(4_754, 475_400, 20, 250_000), '4,754 matched · charged 475,400 credits (above the 250,000 you accepted) · showing 20 (limit)');
    assert.equal(matchedSummary(3, 300, 3, 250_000), '3 matched · charged 300 credits', 'under the amount typed: nothing to say');
  });
});
