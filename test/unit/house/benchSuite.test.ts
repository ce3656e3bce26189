/**
 * `npm run bench:table` runs three benchmarks and repeats every verdict in one block at the end
 * (bench/tableSuite.ts, bench/verdicts.ts): the lines it picks out of each bench's output, in both of their shapes.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { verdictLines } from '../../../bench/verdicts';

describe('bench:table summary', () => {
  it('picks PASS and FAIL lines, and table rows of tableBench under their shape', () => {
    const output = [
      'File: 100,000 rows × 640 columns',
      'PASS  Profile of a numeric column: 120 ms (budget ≤ 1 s)',
      'FAIL  Scatter payload: 612 ms (budget ≤ 500 ms)',
      '### wide: 100,000 rows × 640 columns',
      '| Budget | Target | Measured | |',
      '| --- | --- | --- | --- |',
      '| First rows ready | ≤ 100 ms | 21 ms | PASS |',
      '| Window p95 | ≤ 16 ms | 30 ms | **FAIL** |',
      '| Read floor | 93 ms |',
      '      also: PASS is not a verdict here',
    ].join('\n');
    assert.deepEqual(verdictLines(output), [
      'PASS  Profile of a numeric column: 120 ms (budget ≤ 1 s)',
      'FAIL  Scatter payload: 612 ms (budget ≤ 500 ms)',
      'PASS  wide: First rows ready: 21 ms (budget ≤ 100 ms)',
      'FAIL  wide: Window p95: 30 ms (budget ≤ 16 ms)',
    ]);
  });
});
