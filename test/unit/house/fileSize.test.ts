/**
 * Files small enough to read in one sitting (docs/architecture.md): no .ts file of src/ is longer
 * than MAX_LINES. A file that grows past it holds more than one concern; split it by concern, as
 * the table session's handlers are split by message type (issue 26, item 2).
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, it } from 'node:test';

const MAX_LINES = 450;

/**
 * Files that are data, not code, and may be longer: keep this list to generated or tabular data.
 * - src/core/spec/catalog.ts: every endpoint of the API as one table of entries (id, path, inputs, price
 *   rule); commands, prompts, prices, the sandbox's routes and package.json are derived from it
 *   (docs/architecture.md, "The one idea"). Splitting it would scatter the one list.
 */
const DATA_FILES = new Set(['src/core/spec/catalog.ts']);

function repoRoot(): string {
  for (let d = __dirname; dirname(d) !== d; d = dirname(d)) {
    if (statSync(join(d, 'package.json'), { throwIfNoEntry: false })?.isFile()) return d;
  }
  throw new Error(`no package.json above ${__dirname}`);
}

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? tsFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

/** Files under dir longer than max lines, as "path: lines", relative to base; `allowed` are skipped. */
export function longFiles(base: string, dir: string, max: number, allowed: ReadonlySet<string>): string[] {
  return tsFiles(join(base, dir))
    .map((f) => ({ name: relative(base, f), lines: readFileSync(f, 'utf8').split('\n').length - 1 }))
    .filter((f) => f.lines > max && !allowed.has(f.name))
    .map((f) => `${f.name}: ${f.lines}`);
}

describe('file size', () => {
  const root = repoRoot();

  it(`no file of src/ is over ${MAX_LINES} lines (data files named in DATA_FILES aside)`, () => {
    assert.deepEqual(longFiles(root, 'src', MAX_LINES, DATA_FILES), [], 'split the file by concern');
  });

  it('the data files named are still in the tree (a stale entry would hide a file)', () => {
    for (const f of DATA_FILES) assert.ok(statSync(join(root, f), { throwIfNoEntry: false })?.isFile(), f);
  });
});
