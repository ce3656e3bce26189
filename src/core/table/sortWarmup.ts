/**
 * A table worker's first sort ran its loops cold: each of the radix sort's passes over 1,000,000
 * rows is one long loop that V8 runs interpreted until on-stack replacement swaps in optimised
 * code, and the first sort of a fresh worker paid that for every pass (1,000,000 decimals: 160–440 ms
 * cold, 40–90 ms once warm, at load 8–12 on the bench machine). The worker runs these steps
 * while it waits for its first table, one step a turn of its event loop so a message is never held
 * for more than one small sort: the same functions on small columns of each kind a file gives
 * (32- and 40-bit narrow decimals, wide doubles), both directions, through the builder and filter
 * the product uses, so the first real sort finds optimised code with the same type feedback.
 */
import { filterRows } from './filterRows';
import { sortRows } from './sortRows';
import { TypedColumnBuilder } from './typedColumn';
import type { TypedColumn } from './types';

/** Rows of each warm-up column: enough loop iterations for V8 to optimise, little enough to cost a few ms. */
const ROWS = 4096;
/** Sorts of each kind (alternating direction). */
const ROUNDS = 4;

/** A column of `rows` pseudo-random numbers of one kind: 0 narrow 32-bit, 1 narrow 40-bit, 2 wide doubles. */
function warmColumn(rows: number, kind: number, seed: number): TypedColumn {
  const b = new TypedColumnBuilder(0, rows, false);
  let s = seed | 0;
  for (let r = 0; r < rows; r++) {
    s = (Math.imul(s, 1103515245) + 12345) | 0;
    if (r % 97 === 0) b.empty(r); // empty cells take the sort's other branch too
    else if (kind === 0) b.decimal(r, s % 100000, 2);
    else if (kind === 1) b.decimal(r, s * 37, 6);
    else b.number(r, s / 3);
  }
  return b.finish();
}

/**
 * The warm-up as steps of one sort each; each returns the sorted row ids (so a test can check
 * them, and so the work cannot be dropped as unused).
 */
export function sortWarmupSteps(): (() => Uint32Array)[] {
  const rows = new Uint32Array(ROWS);
  const spare = new Uint32Array(ROWS);
  const steps: (() => Uint32Array)[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    for (let kind = 0; kind < 3; kind++) {
      steps.push(() => {
        const column = warmColumn(ROWS, kind, round * 3 + kind + 1);
        const ids = filterRows(ROWS, [], [], undefined, rows);
        return sortRows(ids, [{ column: 0, descending: round % 2 === 0 }], [column], spare);
      });
    }
  }
  return steps;
}
