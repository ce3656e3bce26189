import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { JobRecord } from '../../src/core/jobs/job';
import { summariseInputs } from '../../src/core/jobs/job';
import { Poller, type PollApi } from '../../src/core/jobs/poller';
import { resultFileName } from '../../src/core/jobs/results';
import { JobStore, MemoryPersistence } from '../../src/core/jobs/store';
import type { RequestRecord } from '../../src/core/wire';

const BASE = 'http://127.0.0.1:1';

function job(id: string, at = '2026-11-21T10:00:00.000Z'): JobRecord {
  return { requestId: id, endpointId: 'trending', inputs: { hours: 1 }, cost: 50, baseUrl: BASE, submittedAt: at, state: 'pending' };
}

/** A fake server: records become done when `finish` is called; every call is counted. */
class FakeApi implements PollApi {
  calls: string[] = [];
  inFlight = 0;
  maxInFlight = 0;
  done = new Set<string>();
  failNext = 0;
  retryAfterMs: number | undefined;
  constructor(private readonly ids: () => string[]) {}
  private rec(id: string): RequestRecord {
    return { requestId: id, url: this.done.has(id) ? `${BASE}/files/${id}.txt` : '', status: this.done.has(id) ? 'done' : 'queued' };
  }
  private async enter<T>(name: string, f: () => T): Promise<T> {
    this.calls.push(name);
    this.inFlight++;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    await new Promise((r) => setTimeout(r, 5));
    this.inFlight--;
    if (this.failNext > 0) {
      this.failNext--;
      const e = new Error('503 from server') as Error & { retryAfterMs?: number };
      if (this.retryAfterMs !== undefined) e.retryAfterMs = this.retryAfterMs;
      throw e;
    }
    return f();
  }
  request(id: string): Promise<RequestRecord> {
    return this.enter(`request ${id}`, () => this.rec(id));
  }
  requests(): Promise<RequestRecord[]> {
    return this.enter('requests', () => this.ids().map((id) => this.rec(id)));
  }
}

const until = async (cond: () => boolean, ms = 3000) => {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 5));
  }
};

describe('jobs: store and shared poller', () => {
  it('batches several pending jobs through one GET /requests per interval, never two calls in flight', async () => {
    const store = new JobStore(new MemoryPersistence());
    for (const id of ['a', 'b', 'c']) await store.put(job(id));
    const api = new FakeApi(() => ['a', 'b', 'c']);
    const downloads: string[] = [];
    const poller = new Poller(store, {
      apiFor: () => api,
      download: async (j) => {
        downloads.push(j.requestId);
        return { resultPath: `/tmp/${j.requestId}` };
      },
      intervalMs: 20,
    });
    poller.start();
    await until(() => api.calls.length >= 3);
    assert.ok(api.calls.every((c) => c === 'requests'), `only /requests: ${api.calls.join()}`);
    assert.equal(api.maxInFlight, 1);
    api.done = new Set(['a', 'b', 'c']);
    const settled = await Promise.all(['a', 'b', 'c'].map((id) => poller.whenSettled(id)));
    assert.deepEqual(settled.map((j) => j.state), ['done', 'done', 'done']);
    assert.deepEqual(downloads.sort(), ['a', 'b', 'c']);
    const callsAtEnd = api.calls.length;
    await new Promise((r) => setTimeout(r, 80));
    assert.equal(api.calls.length, callsAtEnd, 'polling stops when nothing is pending');
    poller.dispose();
  });

  it('uses GET /request/{id} for a lone job', async () => {
    const store = new JobStore(new MemoryPersistence());
    await store.put(job('solo'));
    const api = new FakeApi(() => ['solo']);
    api.done.add('solo');
    const poller = new Poller(store, { apiFor: () => api, download: async () => ({ resultPath: '/tmp/x' }), intervalMs: 10 });
    poller.start();
    const j = await poller.whenSettled('solo');
    assert.equal(j.state, 'done');
    assert.deepEqual(api.calls, ['request solo']);
    poller.dispose();
  });

  it('survives a reload: a pending job resumes, and a job already done downloads once, not twice', async () => {
    const persistence = new MemoryPersistence();
    const first = new JobStore(persistence);
    await first.put(job('r1'));
    // Window 1 closes before the job is done. Window 2 loads the same persisted jobs.
    const second = new JobStore(persistence);
    assert.equal(second.get('r1')?.state, 'pending');
    const api = new FakeApi(() => ['r1']);
    api.done.add('r1');
    let downloads = 0;
    const opts = { apiFor: () => api, download: async () => ({ resultPath: `/tmp/r1-${++downloads}` }), intervalMs: 10 };
    const poller = new Poller(second, opts);
    poller.start();
    assert.equal((await poller.whenSettled('r1')).state, 'done');
    poller.dispose();
    // Window 3: the job is done on disk; a new poller must not fetch it again.
    const third = new JobStore(persistence);
    const p3 = new Poller(third, opts);
    p3.start();
    await new Promise((r) => setTimeout(r, 60));
    assert.equal(downloads, 1);
    assert.equal(third.get('r1')?.resultPath, '/tmp/r1-1');
    p3.dispose();
  });

  it('backs off on errors, honouring Retry-After, and still completes', async () => {
    const store = new JobStore(new MemoryPersistence());
    await store.put(job('e1'));
    const api = new FakeApi(() => ['e1']);
    api.failNext = 2;
    api.retryAfterMs = 150;
    const times: number[] = [];
    const orig = api.request.bind(api);
    api.request = (id: string) => {
      times.push(Date.now());
      return orig(id);
    };
    api.done.add('e1');
    const poller = new Poller(store, { apiFor: () => api, download: async () => ({ resultPath: '/tmp/e1' }), intervalMs: 10, random: () => 0 });
    poller.start();
    assert.equal((await poller.whenSettled('e1')).state, 'done');
    assert.equal(times.length, 3);
    const gaps = times.slice(1).map((t, i) => t - (times[i] ?? 0));
    assert.ok(gaps.every((g) => g >= 140), `waited Retry-After between tries: ${gaps.join(', ')} ms`);
    poller.dispose();
  });

  it('keeps a job whose download failed, and retries it on request', async () => {
    const store = new JobStore(new MemoryPersistence());
    await store.put(job('d1'));
    const api = new FakeApi(() => ['d1']);
    api.done.add('d1');
    let attempt = 0;
    const poller = new Poller(store, {
      apiFor: () => api,
      download: async () => {
        if (++attempt === 1) throw new Error('connection reset while downloading');
        return { resultPath: '/tmp/d1' };
      },
      intervalMs: 10,
    });
    poller.start();
    const failed = await poller.whenSettled('d1');
    assert.equal(failed.state, 'downloadFailed');
    assert.match(failed.error ?? '', /connection reset/u);
    assert.ok(failed.url, 'the file address is kept for the retry');
    await poller.retryDownload('d1');
    assert.equal(store.get('d1')?.state, 'done');
    assert.equal(attempt, 2);
    poller.dispose();
  });

  it('marks a job the server reports failed', async () => {
    const store = new JobStore(new MemoryPersistence());
    await store.put(job('f1'));
    const api: PollApi = {
      request: async (id) => ({ requestId: id, url: '', status: 'failed', error: 'token not found' }),
      requests: async () => [],
    };
    const poller = new Poller(store, { apiFor: () => api, download: async () => ({ resultPath: '' }), intervalMs: 10 });
    poller.start();
    const j = await poller.whenSettled('f1');
    assert.equal(j.state, 'failed');
    assert.equal(j.error, 'token not found');
    poller.dispose();
  });
});

describe('jobs: names and summaries', () => {
  it('names a result <endpoint>-<yyyymmdd-hhmmss>-<requestId>.<ext>', () => {
    assert.equal(resultFileName({ endpointId: 'toptraders', submittedAt: '2026-11-21T09:08:07.000Z', requestId: 'req_0a1B' }, 'zip'), 'toptraders-20261121-090807-req_0a1B.zip');
    // An id with characters a file name cannot hold is sanitised and tagged with a hash of the real id.
    assert.match(resultFileName({ endpointId: 'toptraders', submittedAt: '2026-11-21T09:08:07.000Z', requestId: 'abc/../x' }, 'zip'), /^toptraders-20261121-090807-abc____x-[0-9a-f]{8}\.zip$/u);
  });
  it('summarises inputs in a few words', () => {
    assert.equal(summariseInputs({ tokens: ['a', 'b', 'c'] }), '3 tokens');
    assert.equal(summariseInputs({ wallets: Array.from({ length: 5000 }, () => 'w') }), '5,000 wallets');
    assert.equal(summariseInputs({ dex: 'curve', hours: 3 }), 'dex curve, hours 3');
  });
});
