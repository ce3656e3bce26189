/**
 * Timing budgets are figures, not verdicts of the test tiers (issue 26): on a slow or loaded
 * machine a correct build takes longer, and a test that fails on that says nothing about the code.
 * The tiers print what they measured; the benchmark run of the same test (`WA_TIMING=1`, e.g.
 * `npm run bench:ui`) fails when a figure passes its ceiling. What a tier asserts is the order of
 * events (the rows painted, the chart drawn), never how long it took.
 */
import * as assert from 'node:assert/strict';

/** True when the run is a benchmark: the ceilings hold. */
export const timingAsserted = (): boolean => process.env.WA_TIMING === '1';

/** Prints `what` against its budget; under WA_TIMING=1 also fails past the ceiling. */
export function timingFigure(what: string, ms: number, budgetMs: number, ceilingMs: number, log: (line: string) => void = (l) => console.log(`# ${l}`)): void {
  log(`${what}: ${ms.toFixed(ms < 100 ? 2 : 0)} ms, ${ms <= budgetMs ? 'within' : 'OVER'} the ${budgetMs.toLocaleString('en-US')} ms budget`);
  if (timingAsserted()) assert.ok(ms <= ceilingMs, `${what}: ${ms.toFixed(0)} ms, past the ${ceilingMs.toLocaleString('en-US')} ms ceiling`);
}
