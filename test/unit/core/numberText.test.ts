/**
 * The one owner of numbers written for people (src/core/numberText.ts): what each function
 * writes, at the edges where hand-made formatting used to differ (one, fractions, tiny shares,
 * the size units).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { counted, fileSize, fmtCredits, mebibytes, milliseconds, percent, thousands } from '../../../src/core/numberText';

describe('numberText', () => {
  it('writes counts with thousands separators, as toLocaleString(en-US) did, fractions and huge numbers included', () => {
    for (const n of [0, 7, 999, 1000, -1234567, 1_000_000_000, 0.5, 1234.5678, 2 ** 60]) assert.equal(thousands(n), n.toLocaleString('en-US'), String(n));
  });

  it('writes a count with its noun, singular only for one', () => {
    assert.equal(counted(1, 'hour'), '1 hour');
    assert.equal(counted(0, 'row'), '0 rows');
    assert.equal(counted(12_345, 'entry', 'entries'), '12,345 entries');
  });

  it('writes credits exactly: "1 credit", "1,234 credits"', () => {
    assert.equal(fmtCredits(1), '1 credit');
    assert.equal(fmtCredits(0), '0 credits');
    assert.equal(fmtCredits(1234), '1,234 credits');
    assert.equal(fmtCredits(0.5), '0.5 credits');
  });

  it('writes a share in percent with at most two decimals, and a tiny one as "< 0.01%"', () => {
    assert.equal(percent(0), '0%');
    assert.equal(percent(0.004), '< 0.01%');
    assert.equal(percent(0.5), '0.50%');
    assert.equal(percent(12.34), '12.3%');
    assert.equal(percent(100), '100.0%');
  });

  it('writes sizes and durations', () => {
    assert.equal(fileSize(512), '512 B');
    assert.equal(fileSize(1536), '1.5 KB');
    assert.equal(fileSize(12 * 1024), '12 KB');
    assert.equal(fileSize(3.4 * 1024 * 1024), '3.4 MB');
    assert.equal(mebibytes(200 * 1024 ** 2), '200.0 MiB');
    assert.equal(milliseconds(412.34), '412.3 ms');
  });
});
