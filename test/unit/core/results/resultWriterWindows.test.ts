/**
 * Many windows, one truth: two windows (two stores, two pollers, two downloaders) on ONE saved job
 * list and ONE results folder, against the sandbox. Each job's file is fetched exactly once, no job
 * is lost from the saved state, and nothing is overwritten, deleted or duplicated.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { WalletAnalyticsApi } from '../../../../src/core/transport/api';
import { endpoint } from '../../../../src/core/spec/catalog';
import { tryLock } from '../../../../src/core/files/fileLock';
import type { JobRecord } from '../../../../src/core/jobs/job';
import { Poller, type Downloader } from '../../../../src/core/jobs/poller';
import { readableResultName, resultFileName } from '../../../../src/core/results/names';
import { makeResultWriter } from '../../../../src/core/results/resultWriter';
import { JobStore, MemoryPersistence } from '../../../../src/core/jobs/store';
import { sampleInput } from '../../../../src/core/spec/samples';
import { startSandbox, type Sandbox } from '../../../../src/sandbox/index';

let sb: Sandbox;
let api: WalletAnalyticsApi;
const dirs: string[] = [];

before(async () => {
  // Some latency on every answer, so the two windows' downloads overlap.
  sb = await startSandbox({ seed: 12, wallets: 2_000, altWallets: 500, delayScale: 0.001, faults: { latencyMs: 40 } });
  api = new WalletAnalyticsApi({ baseUrl: sb.baseUrl, apiKey: () => Promise.resolve(sb.demoKey) });
});

after(async () => {
  await sb.close();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function folder(): string {
  const d = mkdtempSync(join(tmpdir(), 'wa-windows-'));
  dirs.push(d);
  return d;
}

async function submitJob(endpointId: string, at: string): Promise<JobRecord> {
  const ep = endpoint(endpointId);
  const input = sampleInput(ep);
  const ack = await api.submit(endpointId, input);
  return { requestId: ack.requestId, endpointId, inputs: input, cost: 0, baseUrl: sb.baseUrl, profileId: 'default', submittedAt: at, state: 'pending' };
}

function writer(dir: string) {
  return makeResultWriter({ apiFor: () => api, folder: () => dir, maxBytes: () => 64 * 1024 ** 2, waitPollMs: 10, retryDelayMs: 10 });
}

/** GETs the sandbox received for a file URL. */
function fetchesOf(url: string | undefined): number {
  const path = new URL(url ?? 'http://x/none').pathname;
  return sb.received().filter((r) => r.method === 'GET' && r.path === path).length;
}

/** What a finished result leaves in the folder: the file (or folder, its .zip) and its sidecar, nothing else. */
function expectedEntries(j: JobRecord): string[] {
  const p = basename(j.resultPath ?? '');
  return /\.(txt|csv)$/u.test(p) ? [p, `${p}.meta.json`] : [p, `${p}.zip`, `${p}.zip.meta.json`];
}

const until = async (what: string, cond: () => boolean, ms = 20_000): Promise<void> => {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
};

describe('many windows, one truth', () => {
  it('two windows on one saved state and one folder: one fetch per file, no job lost, no file overwritten or copied', { timeout: 30_000 }, async () => {
    const dir = folder();
    const shared = new MemoryPersistence();
    // Both windows open before any job exists: each one's memory knows only its own jobs.
    const w1 = new JobStore(shared);
    const w2 = new JobStore(shared);
    const kinds = ['trending', 'earlybuyers', 'mcaptokens', 'trending', 'earlybuyers', 'alltraders'];
    const jobs: JobRecord[] = [];
    for (const [i, id] of kinds.entries()) jobs.push(await submitJob(id, new Date(Date.parse('2026-11-21T10:00:00.000Z') + i * 1000).toISOString()));
    await Promise.all([...jobs.slice(0, 3).map((j) => w1.put(j)), ...jobs.slice(3).map((j) => w2.put(j))]);
    assert.equal(shared.saved.length, jobs.length, 'both windows saved: no job lost');

    // Each window's downloads in flight: a window can see a job done (the other's write) while its
    // own attempt still holds the job's claim, about to adopt the result and let the claim go. The
    // folder is read once every attempt has ended (a clean-clone run read it before, and saw the
    // claim's lock file).
    const attempts = new Set<Promise<unknown>>();
    const tracked = (): Downloader => {
      const write = writer(dir);
      return (job, signal) => {
        const p = write(job, signal);
        attempts.add(p);
        void p.then(() => attempts.delete(p), () => attempts.delete(p));
        return p;
      };
    };
    const pollers = [w1, w2].map((store) => new Poller(store, { apiFor: () => api, download: tracked(), intervalMs: 15 }));
    for (const p of pollers) p.start();
    await until('every job done in both windows', () => [w1, w2].every((s) => jobs.every((j) => s.get(j.requestId)?.state === 'done')));
    for (const p of pollers) p.dispose();
    await Promise.allSettled([...attempts]);

    assert.deepEqual(shared.saved.map((j) => `${j.requestId}:${j.state}`).sort(), jobs.map((j) => `${j.requestId}:done`).sort(), 'the saved state has every job, done');
    const done = jobs.map((j) => w1.get(j.requestId) as JobRecord);
    for (const j of done) {
      assert.equal(fetchesOf(j.url), 1, `${j.endpointId} ${j.requestId}: its file was fetched exactly once`);
      assert.equal(w2.get(j.requestId)?.resultPath, j.resultPath, 'both windows point at the same result');
    }
    const expected = done.flatMap(expectedEntries).sort();
    assert.deepEqual(readdirSync(dir).sort(), expected, 'no copies (-1), no leftovers (locks, claim folders)');
  });

  it('two downloaders racing on one job: one fetch, both get the same result; an extracted folder is never deleted', { timeout: 30_000 }, async () => {
    const dir = folder();
    const store = new JobStore(new MemoryPersistence());
    const j = await submitJob('earlybuyers', '2026-11-21T11:00:00.000Z');
    await store.put(j);
    // Only to learn its url: a poller whose downloader writes nothing.
    const p = new Poller(store, { apiFor: () => api, download: async () => ({ resultPath: '' }), intervalMs: 1e9 });
    for (let i = 0; i < 200 && !store.get(j.requestId)?.url; i++) {
      await p.pollNow();
      await new Promise((r) => setTimeout(r, 10));
    }
    p.dispose();
    const withUrl = store.get(j.requestId) as JobRecord;
    assert.ok(withUrl.url);
    const signal = new AbortController().signal;
    const [a, b] = await Promise.all([writer(dir)(withUrl, signal), writer(dir)(withUrl, signal)]);
    assert.equal(a.resultPath, b.resultPath);
    assert.equal(fetchesOf(withUrl.url), 1);
    const files = readdirSync(a.resultPath);
    assert.ok(files.length > 0);
    // A third window after a crash between the folder's move and the .zip's (the sidecar, which names the
    // job, goes first): the folder is adopted as it is, not deleted or fetched again.
    rmSync(`${a.resultPath}.zip`);
    writeFileSync(join(a.resultPath, 'note-from-window-1.txt'), 'mine');
    const c = await writer(dir)(withUrl, signal);
    assert.equal(c.resultPath, a.resultPath);
    assert.equal(readFileSync(join(a.resultPath, 'note-from-window-1.txt'), 'utf8'), 'mine');
    assert.equal(fetchesOf(withUrl.url), 1);
    assert.deepEqual(readdirSync(dir).sort(), expectedEntries({ ...withUrl, resultPath: a.resultPath }).filter((n) => !n.endsWith('.zip')).sort());
  });

  it('a finished file without its sidecar is adopted, not copied to -1', { timeout: 30_000 }, async () => {
    const dir = folder();
    const j = await submitJob('trending', '2026-11-21T12:00:00.000Z');
    let rec = await api.request(j.requestId);
    for (let i = 0; i < 200 && !rec.url; i++) {
      await new Promise((r) => setTimeout(r, 10));
      rec = await api.request(j.requestId);
    }
    const job: JobRecord = { ...j, state: 'downloading', url: rec.url };
    const name = resultFileName(job, 'txt');
    writeFileSync(join(dir, name), 'the finished file');
    const got = await writer(dir)(job, new AbortController().signal);
    assert.equal(got.resultPath, join(dir, name));
    assert.equal(readFileSync(got.resultPath, 'utf8'), 'the finished file');
    assert.equal(fetchesOf(rec.url), 0);
    assert.deepEqual(readdirSync(dir).sort(), [name, `${name}.meta.json`]);
  });

  it('names results for people (endpoint, local date and time, -2 when taken), the request id in the sidecar; each job claimed once', { timeout: 30_000 }, async () => {
    const dir = folder();
    const ready = async (j: JobRecord): Promise<JobRecord> => {
      let rec = await api.request(j.requestId);
      for (let i = 0; i < 200 && !rec.url; i++) {
        await new Promise((r) => setTimeout(r, 10));
        rec = await api.request(j.requestId);
      }
      return { ...j, state: 'downloading', url: rec.url };
    };
    // Two jobs of one endpoint sent in the same minute.
    const j1 = await ready(await submitJob('trending', '2026-11-21T12:00:05.000Z'));
    const j2 = await ready(await submitJob('trending', '2026-11-21T12:00:40.000Z'));
    const signal = new AbortController().signal;
    const a = await writer(dir)(j1, signal);
    const b = await writer(dir)(j2, signal);
    const d = new Date(j1.submittedAt);
    const p2 = (n: number) => String(n).padStart(2, '0');
    const readable = `trending-${d.getFullYear()}-${p2(d.getMonth() + 1)}-${p2(d.getDate())}-${p2(d.getHours())}${p2(d.getMinutes())}`;
    assert.equal(basename(a.resultPath), `${readable}.txt`, 'the endpoint and when it was sent, in local time: no request id');
    assert.equal(basename(b.resultPath), `${readable}-2.txt`, 'the second of the minute: -2');
    assert.equal(readableResultName(j2, 'txt', 2), basename(b.resultPath));
    const whose = (p: string) => (JSON.parse(readFileSync(`${p}.meta.json`, 'utf8')) as { requestId: string; file: string }).requestId;
    assert.equal(whose(a.resultPath), j1.requestId, 'the sidecar keeps the request id');
    assert.equal(whose(b.resultPath), j2.requestId);
    // Asked again (another window, a re-run), each job finds its own result: not fetched twice, not a -3.
    assert.equal((await writer(dir)(j2, signal)).resultPath, b.resultPath);
    assert.equal((await writer(dir)(j1, signal)).resultPath, a.resultPath);
    assert.equal(fetchesOf(j1.url), 1);
    assert.equal(fetchesOf(j2.url), 1);
    // A crash after the sidecar (it goes first and reserves the name), before the file was moved in:
    // the file lands under that name, not a new one.
    rmSync(b.resultPath);
    assert.equal((await writer(dir)(j2, signal)).resultPath, b.resultPath);
    assert.equal(readdirSync(dir).sort().join(' '), [a, b].flatMap((r) => [basename(r.resultPath), `${basename(r.resultPath)}.meta.json`]).sort().join(' '), 'nothing else: no copy, no lock, no claim folder');
    // A result under the older name (an earlier version: the request id in it) is still adopted, not fetched.
    const j3 = await ready(await submitJob('trending', '2026-11-21T12:00:50.000Z'));
    const olderName = resultFileName(j3, 'txt');
    writeFileSync(join(dir, olderName), 'from before');
    writeFileSync(join(dir, `${olderName}.meta.json`), JSON.stringify({ endpoint: 'trending', requestId: j3.requestId, baseUrl: j3.baseUrl }));
    assert.equal((await writer(dir)(j3, signal)).resultPath, join(dir, olderName));
    assert.equal(fetchesOf(j3.url), 0);
  });

  it('a claim held by a live window is respected; an abandoned one (old, or its process gone) is taken over', async () => {
    const dir = folder();
    const lockPath = join(dir, '.x.lock');
    const mine = await tryLock(lockPath, { staleMs: 60_000 });
    assert.ok(mine);
    assert.equal(await tryLock(lockPath, { staleMs: 60_000 }), undefined, 'held: not taken');
    await mine.release();
    // Untouched for longer than staleMs.
    writeFileSync(lockPath, JSON.stringify({ pid: process.pid + 1_000_000, host: 'another-machine', token: 't' }));
    const old = new Date(Date.now() - 120_000);
    utimesSync(lockPath, old, old);
    const taken = await tryLock(lockPath, { staleMs: 60_000 });
    assert.ok(taken, 'an old claim is taken over');
    await taken.release();
    // Fresh, but its owner process on this machine has ended.
    const deadPid = Number(execFileSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']).toString());
    writeFileSync(lockPath, JSON.stringify({ pid: deadPid, host: hostname(), token: 't2' }));
    const again = await tryLock(lockPath, { staleMs: 60_000 });
    assert.ok(again, 'a claim whose process is gone is taken over');
    await again.release();
    assert.deepEqual(readdirSync(dir), []);
  });
});
