/**
 * Issue 30 items 7–12, as an attacker would try them: symbolic links planted where the extension
 * writes (a pipeline's results folder, the export's workflow path, a result's readable name), a
 * record that points anywhere, a planted naming lock, an untitled pipeline's shared temp folder.
 * Each test fails on the code before the one owner of writing (src/core/files/writeInside.ts).
 */
import assert from 'node:assert/strict';
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, afterEach, beforeEach, describe, it } from 'node:test';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { folderInside, isFileInside, replaceInside, UnsafePathError, writeNewInside, writeNewNamed } from '../../../../src/core/files/writeInside';
import { nthName } from '../../../../src/core/files/naming';
import { holdNamingLock, saveNewResult } from '../../../../src/core/results/newResult';
import { CancelledError } from '../../../../src/core/errors';
import { readRecord, runPipeline, untitledResultsDir } from '../../../../src/core/pipeline/run';
import type { PipelineFile } from '../../../../src/core/pipeline/format';
import { planPipeline } from '../../../../src/core/pipeline/plan';
import { makeResultWriter } from '../../../../src/core/results/resultWriter';
import type { JobRecord } from '../../../../src/core/jobs/job';
import { readableResultName } from '../../../../src/core/results/names';

let dir: string;
let outside: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'wa-inside-'));
  outside = mkdtempSync(join(tmpdir(), 'wa-outside-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
  rmSync(outside, { recursive: true, force: true });
});

const isUnsafe = (e: unknown): boolean => e instanceof UnsafePathError;

describe('the one owner writes a file inside its folder, through no link (30.7, 30.8)', () => {
  it('a new file is written, and a second one under the same name is refused (false), never over the first', async () => {
    assert.equal(await writeNewInside(dir, 'a/b.txt', 'one'), true);
    assert.equal(await writeNewInside(dir, 'a/b.txt', 'two'), false);
    assert.equal(readFileSync(join(dir, 'a', 'b.txt'), 'utf8'), 'one');
    assert.deepEqual(readdirSync(join(dir, 'a')), ['b.txt'], 'no temp file left');
  });

  it('a planted link at the file, dangling or not, is never written through', async () => {
    writeFileSync(join(outside, 'bashrc'), 'mine');
    symlinkSync(join(outside, 'bashrc'), join(dir, 'live.yml'));
    symlinkSync(join(outside, 'created-by-attacker'), join(dir, 'dangling.yml'));
    assert.equal(await writeNewInside(dir, 'live.yml', 'evil'), false);
    assert.equal(await writeNewInside(dir, 'dangling.yml', 'evil'), false, 'a dangling link is taken, not absent');
    await assert.rejects(replaceInside(dir, 'live.yml', 'evil'), isUnsafe);
    await assert.rejects(replaceInside(dir, 'dangling.yml', 'evil', { mode: 0o755 }), isUnsafe);
    assert.equal(readFileSync(join(outside, 'bashrc'), 'utf8'), 'mine');
    assert.equal(existsSync(join(outside, 'created-by-attacker')), false);
  });

  it('a planted link at a folder on the way is refused, and nothing is written outside', async () => {
    mkdirSync(join(dir, '.github'));
    symlinkSync(outside, join(dir, '.github', 'workflows'));
    await assert.rejects(writeNewInside(dir, '.github/workflows/x.yml', 'evil'), isUnsafe);
    await assert.rejects(replaceInside(dir, '.github/workflows/x.yml', 'evil'), isUnsafe);
    await assert.rejects(writeNewNamed(dir, '.github/workflows', 'x.yml', 'evil'), isUnsafe);
    assert.deepEqual(readdirSync(outside), []);
  });

  it('a name that leaves the folder is refused', async () => {
    await assert.rejects(writeNewInside(dir, '../x.txt', 'evil'), isUnsafe);
    await assert.rejects(writeNewInside(dir, join(outside, 'x.txt'), 'evil'), isUnsafe);
    await assert.rejects(writeNewNamed(dir, '', () => '../x.txt', 'evil'), isUnsafe);
    assert.deepEqual(readdirSync(outside), []);
  });

  it('replaceInside replaces a regular file it wrote before, atomically', async () => {
    await replaceInside(dir, 'r/x.json', 'one');
    await replaceInside(dir, 'r/x.json', 'two', { mode: 0o755 });
    assert.equal(readFileSync(join(dir, 'r', 'x.json'), 'utf8'), 'two');
    assert.deepEqual(readdirSync(join(dir, 'r')), ['x.json']);
  });

  it('writeNewNamed takes the first free name by the one rule (x.csv, x-2.csv…)', async () => {
    writeFileSync(join(dir, 'x.csv'), 'a');
    symlinkSync(join(outside, 'nothing'), join(dir, 'x-2.csv'));
    const file = await writeNewNamed(dir, '', 'x.csv', 'b');
    assert.equal(file, join(dir, 'x-3.csv'));
    assert.equal(nthName('wallets.waquery.json', 2, '.waquery.json'), 'wallets-2.waquery.json');
    assert.equal(nthName('list.txt', 3), 'list-3.txt');
  });

  it('writeNewNamed places what a writer of ours streamed to its temp name, never over a file; a failed writer leaves nothing', async () => {
    writeFileSync(join(dir, 'v.csv'), 'mine');
    const temps: string[] = [];
    const file = await writeNewNamed(dir, '', 'v.csv', {
      writtenBy: async (temp) => {
        temps.push(temp);
        writeFileSync(temp, 'streamed', { flag: 'wx' });
        return Promise.resolve();
      },
    });
    assert.equal(file, join(dir, 'v-2.csv'));
    assert.equal(readFileSync(file, 'utf8'), 'streamed');
    assert.equal(readFileSync(join(dir, 'v.csv'), 'utf8'), 'mine');
    assert.ok(temps[0]?.startsWith(join(dir, '.wa-write-')), temps[0]);
    await assert.rejects(
      writeNewNamed(dir, '', 'v.csv', {
        writtenBy: (temp) => {
          writeFileSync(temp, 'half');
          return Promise.reject(new CancelledError());
        },
      }),
      CancelledError,
    );
    assert.deepEqual(readdirSync(dir).sort(), ['v-2.csv', 'v.csv'], 'no temp file, no third file');
  });

  it('folderInside refuses a folder that is a link', async () => {
    symlinkSync(outside, join(dir, 'x.results'));
    await assert.rejects(folderInside(dir, 'x.results'), isUnsafe);
  });
});

describe('a pipeline run writes nothing through links in <name>.results/ (30.8)', () => {
  const workerFile = resolve(__dirname, '../../../../../dist/tableWorker.js');

  it('a record or list path that is a planted link is refused and the target is untouched', async () => {
    const results = join(dir, 'p.results');
    mkdirSync(results);
    writeFileSync(join(outside, 'victim'), 'keep');
    // A source record the take reads from, inside the folder.
    writeFileSync(join(results, 'src.csv'), 'wallet_address,n\n0x1111111111111111111111111111111111111111,1\n');
    writeFileSync(join(results, 'src.json'), JSON.stringify({ cell: 'src', resultPath: join(results, 'src.csv'), credits: 0, size: 1, at: new Date().toISOString() }));
    symlinkSync(join(outside, 'victim'), join(results, 'list.txt'));
    symlinkSync(join(outside, 'victim'), join(results, 'list.json'));
    const file = { version: 1, cells: [{ name: 'src', call: 'trending', inputs: {} }, { name: 'list', take: { from: 'src', column: 'wallet_address' } }] } as unknown as PipelineFile;
    const summary = await runPipeline(file, { dir: results, plan: planPipeline(file), approvals: new Map(), only: new Set([1]), read: { workerFile }, call: () => Promise.reject(new Error('no call')) });
    assert.equal(readFileSync(join(outside, 'victim'), 'utf8'), 'keep');
    assert.ok(lstatSync(join(results, 'list.txt')).isSymbolicLink(), 'the planted link is left as it is, not replaced');
    assert.match(summary.stopped?.message ?? '', /symbolic link/u);
  });
});

describe('a record is read only from inside its results folders (30.9)', () => {
  it('a record pointing outside, or through a link, reads as no result', async () => {
    const results = join(dir, 'p.results');
    mkdirSync(results);
    writeFileSync(join(outside, 'secret.csv'), 'a\n1\n');
    writeFileSync(join(results, 'a.json'), JSON.stringify({ cell: 'a', resultPath: join(outside, 'secret.csv'), credits: 0, size: 1, at: 'x' }));
    symlinkSync(join(outside, 'secret.csv'), join(results, 'b.csv'));
    writeFileSync(join(results, 'b.json'), JSON.stringify({ cell: 'b', resultPath: join(results, 'b.csv'), credits: 0, size: 1, at: 'x' }));
    writeFileSync(join(results, 'c.csv'), 'a\n1\n');
    writeFileSync(join(results, 'c.json'), JSON.stringify({ cell: 'c', resultPath: join(results, 'c.csv'), credits: 0, size: 1, at: 'x' }));
    assert.equal(await readRecord(results, 'a'), undefined);
    assert.equal(await readRecord(results, 'b'), undefined);
    assert.equal((await readRecord(results, 'c'))?.resultPath, join(results, 'c.csv'));
    // The results folder of the window (a call cell's result) is read when it is given.
    writeFileSync(join(results, 'd.json'), JSON.stringify({ cell: 'd', resultPath: join(outside, 'secret.csv'), credits: 0, size: 1, at: 'x' }));
    assert.equal((await readRecord(results, 'd', [outside]))?.resultPath, join(outside, 'secret.csv'));
    assert.equal(await isFileInside([results], join(outside, 'secret.csv')), false);
  });
});

describe('the naming lock: a planted lock is abandoned; waits end (30.10)', () => {
  it('a dangling link at .wa-naming.lock is taken as abandoned, its target never created', async () => {
    symlinkSync(join(outside, 'lock-target'), join(dir, '.wa-naming.lock'));
    const held = await holdNamingLock(dir, { waitPollMs: 1, deadlineMs: 60_000 });
    await held.release();
    assert.equal(existsSync(join(outside, 'lock-target')), false);
  });

  it('a lock dated in the future whose owner is on another host is abandoned', async () => {
    const lock = join(dir, '.wa-naming.lock');
    writeFileSync(lock, JSON.stringify({ pid: 1, host: 'another-host', token: 'x' }));
    const future = new Date(Date.now() + 365 * 24 * 3600 * 1000);
    utimesSync(lock, future, future);
    const held = await holdNamingLock(dir, { waitPollMs: 1, deadlineMs: 60_000 });
    await held.release();
  });

  it('a folder at the lock name is abandoned too', async () => {
    mkdirSync(join(dir, '.wa-naming.lock'));
    const held = await holdNamingLock(dir, { waitPollMs: 1, deadlineMs: 60_000 });
    await held.release();
  });

  it('a wait on a live lock ends at its deadline, and at cancellation', async () => {
    const mine = await holdNamingLock(dir);
    try {
      await assert.rejects(holdNamingLock(dir, { waitPollMs: 1, deadlineMs: 5 }), /naming lock/u);
      const ac = new AbortController();
      const waiting = holdNamingLock(dir, { waitPollMs: 1, signal: ac.signal });
      ac.abort();
      await assert.rejects(waiting, (e) => e instanceof CancelledError);
    } finally {
      await mine.release();
    }
  });
});

describe('a dangling link at a result name never loses the result (30.11)', () => {
  it('saveNewResult skips a name held by a dangling link and the result is readable', async () => {
    symlinkSync(join(outside, 'attacker'), join(dir, 'r.json'));
    const file = await saveNewResult(dir, (i) => nthName('r.json', i), 'paid');
    assert.equal(file, join(dir, 'r-2.json'));
    assert.equal(readFileSync(file, 'utf8'), 'paid');
    assert.equal(existsSync(join(outside, 'attacker')), false);
  });
});

describe('a dangling link at a queued result\'s readable name never loses the result (30.11)', () => {
  it('the writer takes the next name; the paid file is kept and later reads open it, not the link', async () => {
    const job = { requestId: 'r-1', endpointId: 'mcaptokens', inputs: {}, cost: 1, baseUrl: 'http://x', profileId: 'p', submittedAt: '2026-11-21T10:15:00.000Z', state: 'done', url: 'http://x/file.csv' } as JobRecord;
    symlinkSync(join(outside, 'attacker.csv'), join(dir, readableResultName(job, 'csv')));
    // The service's file, served on loopback: the writer calls the download itself.
    const server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/csv' });
      res.end('token,mcap\nA,1\n');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    after(() => server.close());
    const { port } = server.address() as AddressInfo;
    const api = {
      fileAccess: async () => ({ href: `http://127.0.0.1:${port}/file.csv`, dispatcher: undefined, headersFor: () => ({}), redacted: (e: unknown) => e }),
    };
    const write = makeResultWriter({ apiFor: () => api, folder: () => dir, maxBytes: () => 1e6, waitPollMs: 1, retryDelayMs: 1 });
    const { resultPath } = await write(job, new AbortController().signal);
    assert.equal(resultPath, join(dir, readableResultName(job, 'csv', 2)));
    assert.ok(lstatSync(resultPath).isFile());
    assert.equal(readFileSync(resultPath, 'utf8'), 'token,mcap\nA,1\n');
    assert.equal(existsSync(join(outside, 'attacker.csv')), false);
    // A second window adopts the same placed file, never the link.
    assert.equal((await write(job, new AbortController().signal)).resultPath, resultPath);
  });
});

describe('untitled pipelines keep results in a private folder (30.12)', () => {
  it('is under the given private storage, made with mode 0700, never the shared temp folder', async () => {
    const storage = join(dir, 'storage');
    const got = await untitledResultsDir(storage);
    assert.ok(got.startsWith(storage), got);
    assert.ok(!got.startsWith(join(tmpdir(), 'untitled')), got);
    if (process.platform !== 'win32') assert.equal(lstatSync(join(storage, 'untitled-pipelines')).mode & 0o777, 0o700);
  });

  it('refuses a link planted at the private folder', async () => {
    const storage = join(dir, 'storage');
    mkdirSync(storage);
    symlinkSync(outside, join(storage, 'untitled-pipelines'));
    await assert.rejects(untitledResultsDir(storage), isUnsafe);
  });
});
