/**
 * The table launcher (issue 34 item 4): once it runs, a table opened on the host gets its worker
 * from the launcher's thread, so the host never calls `new Worker` (14–40 ms blocked) on a
 * person's action. Proved by counting the Worker constructions this thread makes while tables are
 * opened, read and closed. Needs `node esbuild.mjs` (the worker bundle) as well as the test build.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createRequire } from 'node:module';
import { threadId, type Worker } from 'node:worker_threads';
import { openCsvFile, prestartTableWorker, RemoteTable, startTableLauncher, TableView } from '../../../../src/core/table';
import { tempDir, writeTemp } from '../../tableFixtures';

function repoRoot(): string {
  for (let d = __dirname; dirname(d) !== d; d = dirname(d)) {
    if (statSync(join(d, 'package.json'), { throwIfNoEntry: false })?.isFile()) return d;
  }
  throw new Error(`no package.json above ${__dirname}`);
}
const workerFile = join(repoRoot(), 'dist', 'tableWorker.js');

/** Set in a child this file starts: it only starts the launcher, and must then end by itself. */
const LAUNCHER_ONLY = process.env.WA_TEST_LAUNCHER_ONLY === '1';
if (LAUNCHER_ONLY) startTableLauncher(workerFile);

let cleanup: () => Promise<void> = () => Promise.resolve();
let file = '';

if (!LAUNCHER_ONLY) before(async () => {
  assert.ok(existsSync(workerFile), `${workerFile} is not built (node esbuild.mjs)`);
  const t = await tempDir();
  cleanup = t.cleanup;
  const lines = ['wallet,pnl'];
  for (let i = 0; i < 500; i++) lines.push(`w${i},${(i * 37) % 101}`);
  file = await writeTemp(t.dir, lines.join('\n') + '\n');
});
if (!LAUNCHER_ONLY) after(() => cleanup());

/** Counts `new Worker` on this thread while `run` runs (the module's export replaced, as a bundle reads it at each call). */
async function workersStartedHere<T>(run: () => Promise<T>): Promise<{ value: T; started: number }> {
  // The module object itself (an import's namespace is read-only): what the bundle reads at each `new Worker`.
  const mod = createRequire(__filename)('node:worker_threads') as { Worker: typeof Worker };
  const Original = mod.Worker;
  let started = 0;
  mod.Worker = class extends Original {
    constructor(...args: ConstructorParameters<typeof Worker>) {
      super(...args);
      started++;
    }
  };
  try {
    return { value: await run(), started };
  } finally {
    mod.Worker = Original;
  }
}

if (!LAUNCHER_ONLY) describe('table launcher: the host never starts a worker on a person’s action (issue 34)', () => {
  it('without the launcher, opening a table starts a worker on this thread (what the launcher removes)', async () => {
    const { started } = await workersStartedHere(async () => {
      const t = await RemoteTable.open(file, { workerFile });
      await t.close();
    });
    assert.equal(started, 1);
  });

  it('with it running, tables open, answer and close with no Worker constructed here, each on a thread of its own', async () => {
    startTableLauncher(workerFile);
    const source = await openCsvFile(file);
    await source.indexed;
    const here = (await new TableView(source).window(0, 5, [0, 1])).cells;
    await source.close();
    const { value: seen, started } = await workersStartedHere(async () => {
      const ids: number[] = [];
      for (let i = 0; i < 3; i++) {
        const t = await RemoteTable.open(file, { workerFile });
        try {
          await t.indexed;
          ids.push(t.threadId);
          assert.equal(t.rowCount, 500);
          assert.deepEqual((await t.window(0, 5, [0, 1])).cells, here);
          await prestartTableWorker(workerFile); // the launcher keeps the spare: nothing starts here
        } finally {
          await t.close();
        }
      }
      return ids;
    });
    assert.equal(started, 0, `${started} Worker(s) constructed on the host's thread after the launcher started`);
    assert.ok(seen.every((id) => id !== threadId), `tables on threads ${seen.join()}, never this one (${threadId})`);
    assert.equal(new Set(seen).size, 3, 'one worker a table');
  });

  it('a table closed while it is read ends its worker: waiting requests reject and the process can exit', async () => {
    startTableLauncher(workerFile);
    const t = await RemoteTable.open(file, { workerFile });
    const pending = assert.rejects(t.apply({ sort: [{ column: 1 }] }));
    await t.close();
    await pending;
    await assert.rejects(t.window(0, 1, [0]), /closed/u);
  });

  it('a process that only started the launcher ends by itself (an idle launcher holds nothing open)', () => {
    const r = spawnSync(process.execPath, [__filename], { env: { ...process.env, WA_TEST_LAUNCHER_ONLY: '1' }, timeout: 30_000, encoding: 'utf8' });
    assert.equal(r.signal, null, `the process was still running after 30 s (${String(r.error ?? '')})`);
    assert.equal(r.status, 0, r.stderr);
  });
});
