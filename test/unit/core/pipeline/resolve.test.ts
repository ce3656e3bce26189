/**
 * A pipeline's take step (a reference resolved to a result's addresses) leaves the checking to the
 * table worker (issue 34 item 4): the host re-checked every address the worker had already counted
 * and filled a Set of them, one pass over 100,000 entries in one turn of its loop. Counted here, not
 * timed: the per-address calls this thread makes while a column of 5,000 addresses is taken. A
 * take step writes its list file, and a step's size is counted, from the list as it crossed from
 * the worker: counted here, the strings this thread cuts (one per address before: 100,000 strings
 * kept alive were the host's longest garbage collection on the 722 MB result).
 */
import assert from 'node:assert/strict';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { resolveReference, resolveReferenceList } from '../../../../src/core/pipeline/resolve';
import { runPipeline, readRecord, type CallCellFn } from '../../../../src/core/pipeline/run';
import { planPipeline } from '../../../../src/core/pipeline/plan';
import type { PipelineFile } from '../../../../src/core/pipeline/format';
import { listText } from '../../../../src/core/addressLists/addressSets';
import { approvalsOf } from '../../pipelineSupport';
import { tempDir } from '../../tableFixtures';

const workerFile = resolve(__dirname, '../../../../../dist/tableWorker.js');
const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
/** A distinct 44-character base58 address for each i. */
function address(i: number): string {
  let s = '';
  for (let n = i; n > 0 || s === ''; n = Math.floor(n / 58)) s = (BASE58[n % 58] ?? '') + s;
  return `W${s.padStart(43, '1')}`;
}

const N = 5_000;
let dir = '';
let cleanup: () => Promise<void> = () => Promise.resolve();
before(async () => {
  const t = await tempDir();
  dir = t.dir;
  cleanup = t.cleanup;
  // 5,000 distinct wallets, each twice, a bad cell every 100 rows, padded with spaces.
  const rows = ['wallet,pnl'];
  for (let i = 0; i < 2 * N; i++) rows.push(`${i % 100 === 99 ? 'not-an-address' : ` ${address(i % N)} `},${i}`);
  await writeFile(join(dir, 'one.csv'), `${rows.join('\n')}\n`);
  await mkdir(join(dir, 'zip'));
  await writeFile(join(dir, 'zip', 'a.csv'), `wallet\n${Array.from({ length: 30 }, (_, i) => address(i)).join('\n')}\n`);
  await writeFile(join(dir, 'zip', 'b.csv'), `wallet\n${Array.from({ length: 30 }, (_, i) => address(i + 20)).join('\n')}\n`);
});
after(() => cleanup());

/** Runs `f` counting this thread's String.prototype.trim and Set.prototype.add calls. */
async function counting<T>(f: () => Promise<T>): Promise<{ result: T; trims: number; adds: number }> {
  const trim = String.prototype.trim;
  const add = Set.prototype.add;
  let trims = 0;
  let adds = 0;
  String.prototype.trim = function (this: string): string {
    trims++;
    return trim.call(this);
  };
  Set.prototype.add = function <V>(this: Set<V>, v: V): Set<V> {
    adds++;
    return add.call(this, v) as Set<V>;
  };
  try {
    const result = await f();
    return { result, trims, adds };
  } finally {
    String.prototype.trim = trim;
    Set.prototype.add = add;
  }
}

describe("a pipeline's take step (issue 34 item 4)", () => {
  it('takes the addresses the worker counted without checking or collecting them again on the host', async () => {
    const got = await counting(() => resolveReference({ from: 'traders' }, join(dir, 'one.csv'), { workerFile }));
    assert.equal(got.result.values.length, N - N / 100, 'distinct wallets, the bad cells left out');
    assert.deepEqual(got.result.values.slice(0, 3), [address(0), address(1), address(2)]);
    assert.equal(got.result.chain, 'main');
    // The classifier's 50 sample rows and the worker's start may trim or add a few; never one per address.
    assert.ok(got.trims < N / 10, `${got.trims} trims on the host for ${N} addresses`);
    assert.ok(got.adds < N / 10, `${got.adds} Set entries on the host for ${N} addresses`);
    const top = await resolveReference({ from: 'traders', top: 10 }, join(dir, 'one.csv'), { workerFile });
    assert.deepEqual(top.values, Array.from({ length: 10 }, (_, i) => address(i)));
  });

  it("merges a folder's files in order, each address once, up to top", async () => {
    const all = await resolveReference({ from: 'zip' }, join(dir, 'zip'), { workerFile });
    assert.deepEqual(all.values, Array.from({ length: 50 }, (_, i) => address(i)));
    // b.csv's first 10 are a.csv's last 10: a second file gives its first `top`, not `top` less what came before.
    const top = await resolveReference({ from: 'zip', top: 40 }, join(dir, 'zip'), { workerFile });
    assert.deepEqual(top.values, Array.from({ length: 40 }, (_, i) => address(i)));
  });

  it('writes a take step\'s list and counts a result\'s size without cutting a string per address on this thread', async () => {
    // A call cell whose result is one.csv (the call itself stands in: what is tested is the steps after it), then a take step.
    const file: PipelineFile = { version: 1, cells: [{ name: 'traders', call: 'trending', inputs: { hours: 1 } }, { name: 'top', take: { from: 'traders' } }] };
    const call: CallCellFn = () => Promise.resolve({ status: 'done', credits: 50, resultPath: join(dir, 'one.csv') });
    const plan = planPipeline(file);
    const runDir = join(dir, 'run');
    await mkdir(runDir, { recursive: true });
    const slice = String.prototype.slice;
    let slices = 0;
    String.prototype.slice = function (this: string, ...a: [number?, number?]): string {
      slices++;
      return slice.apply(this, a);
    };
    let summary;
    try {
      summary = await runPipeline(file, { dir: runDir, roots: [dir], plan, approvals: approvalsOf(plan, file), call, read: { workerFile } });
    } finally {
      String.prototype.slice = slice;
    }
    assert.equal(summary.stopped, undefined, summary.stopped?.message);
    const traders = await readRecord(runDir, 'traders', [dir]);
    const top = await readRecord(runDir, 'top', [dir]);
    assert.equal(traders?.size, N - N / 100);
    assert.equal(top?.size, N - N / 100);
    // The same file as before: the distinct wallets in order, one a line.
    const want = (await resolveReference({ from: 'traders' }, join(dir, 'one.csv'), { workerFile })).values;
    assert.equal(await readFile(top?.resultPath ?? '', 'utf8'), listText(want));
    // The classifier's sample and the run's own names cut a few; one per address was 2 × 4,950 (the size, then the take).
    assert.ok(slices < N / 10, `${slices} strings cut on the host for ${N} addresses`);
  });

  it('gives a list file byte for byte as listText, packed or not', async () => {
    const one = await resolveReferenceList({ from: 'traders', top: 7 }, join(dir, 'one.csv'), { workerFile });
    assert.equal(one.count, 7);
    assert.equal(new TextDecoder().decode(await one.file()), listText(Array.from({ length: 7 }, (_, i) => address(i))));
    // A folder's files are merged on the host (strings): the same text.
    const zip = await resolveReferenceList({ from: 'zip' }, join(dir, 'zip'), { workerFile });
    assert.equal(zip.count, 50);
    assert.equal(new TextDecoder().decode(await zip.file()), listText(Array.from({ length: 50 }, (_, i) => address(i))));
  });
});
