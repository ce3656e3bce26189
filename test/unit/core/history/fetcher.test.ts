import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { HistoryFetcher } from '../../../../src/core/history/fetcher';
import type { JobRecord } from '../../../../src/core/jobs/job';
import { Poller, type PollApi } from '../../../../src/core/jobs/poller';
import { JobStore, MemoryPersistence } from '../../../../src/core/jobs/store';
import type { RequestRecord } from '../../../../src/core/spec/wire';

const BASE = 'http://127.0.0.1:1';

/** A fake GET /requests: counts calls, can be slow or fail. */
function fakeServer(records: () => RequestRecord[], o: { delayMs?: number } = {}) {
  const s = {
    calls: 0,
    inFlight: 0,
    maxInFlight: 0,
    fail: undefined as Error | undefined,
    fetch: async (): Promise<RequestRecord[]> => {
      s.calls++;
      s.inFlight++;
      s.maxInFlight = Math.max(s.maxInFlight, s.inFlight);
      await new Promise((r) => setTimeout(r, o.delayMs ?? 5));
      s.inFlight--;
      if (s.fail) throw s.fail;
      return records();
    },
  };
  return s;
}

describe('history fetcher: one GET /requests per interval, shared by everyone', () => {
  it('shares one fetch between concurrent callers (single flight)', async () => {
    const srv = fakeServer(() => [{ requestId: 'a', url: '' }], { delayMs: 30 });
    const f = new HistoryFetcher({ fetch: srv.fetch, minIntervalMs: () => 5_000 });
    const got = await Promise.all([f.get(BASE), f.get(BASE), f.get(BASE)]);
    assert.equal(srv.calls, 1);
    assert.equal(srv.maxInFlight, 1);
    assert.ok(got.every((g) => g === got[0]), 'every caller gets the same answer');
  });

  it('answers from the last fetch inside the interval, and asks again after it', async () => {
    let now = 1_000_000;
    const srv = fakeServer(() => []);
    const f = new HistoryFetcher({ fetch: srv.fetch, minIntervalMs: () => 5_000, now: () => now });
    await f.get(BASE);
    now += 4_999;
    await f.get(BASE);
    assert.equal(srv.calls, 1, 'inside the interval: the last answer');
    assert.equal(f.due(BASE), false);
    now += 1;
    assert.equal(f.due(BASE), true);
    await f.get(BASE);
    assert.equal(srv.calls, 2);
    // A forced refresh (the Refresh button) may cut the interval, but not below a second.
    now += 500;
    await f.get(BASE, { force: true });
    assert.equal(srv.calls, 2);
    now += 500;
    await f.get(BASE, { force: true });
    assert.equal(srv.calls, 3);
    assert.equal(f.sent.get(BASE), 3);
  });

  it('a clock set back an hour does not freeze the history: the next interval reads again', async () => {
    let now = 10_000_000;
    const srv = fakeServer(() => []);
    const f = new HistoryFetcher({ fetch: srv.fetch, minIntervalMs: () => 5_000, now: () => now });
    await f.get(BASE);
    now -= 3_600_000; // the system clock is set back an hour
    now += 5_000;
    assert.equal(f.due(BASE), true, 'a negative age is stale, not fresh');
    await f.get(BASE);
    assert.equal(srv.calls, 2, 'read again at the next interval, not an hour later');
    // And the interval still holds after the jump.
    now += 1_000;
    await f.get(BASE);
    assert.equal(srv.calls, 2);
  });

  it('measures ages on a monotonic clock by default (a wall-clock jump cannot reach it)', async () => {
    const srv = fakeServer(() => []);
    const f = new HistoryFetcher({ fetch: srv.fetch, minIntervalMs: () => 20 });
    const realNow = Date.now;
    await f.get(BASE);
    try {
      Date.now = () => realNow() - 3_600_000;
      await new Promise((r) => setTimeout(r, 30));
      await f.get(BASE);
    } finally {
      Date.now = realNow;
    }
    assert.equal(srv.calls, 2);
  });

  it('hands an error to every caller inside the interval, and tells listeners once', async () => {
    let now = 0;
    const srv = fakeServer(() => []);
    srv.fail = new Error('503');
    const f = new HistoryFetcher({ fetch: srv.fetch, minIntervalMs: () => 5_000, now: () => now });
    const heard: string[] = [];
    f.onDidFetch((e) => heard.push(e.error ? 'error' : 'ok'));
    await assert.rejects(f.get(BASE), /503/u);
    await assert.rejects(f.get(BASE), /503/u);
    assert.equal(srv.calls, 1);
    srv.fail = undefined;
    now += 5_000;
    await f.get(BASE);
    assert.deepEqual(heard, ['error', 'ok']);
    assert.deepEqual(f.peek(BASE)?.records, []);
  });

  it('lets one caller give up without cancelling the fetch for the others', async () => {
    const srv = fakeServer(() => [{ requestId: 'a', url: '' }], { delayMs: 30 });
    const f = new HistoryFetcher({ fetch: srv.fetch, minIntervalMs: () => 5_000 });
    const ac = new AbortController();
    const gaveUp = f.get(BASE, { signal: ac.signal });
    const stays = f.get(BASE);
    ac.abort();
    await assert.rejects(gaveUp);
    assert.equal((await stays).length, 1);
    assert.equal(srv.calls, 1);
  });

  it('forgets a base URL when the key changes: the old answer is neither shown nor announced', async () => {
    const srv = fakeServer(() => [{ requestId: 'old-key', url: '' }], { delayMs: 20 });
    const f = new HistoryFetcher({ fetch: srv.fetch, minIntervalMs: () => 60_000 });
    const heard: string[] = [];
    f.onDidFetch((e) => heard.push(e.snapshot?.records[0]?.requestId ?? 'error'));
    const inFlight = f.get(BASE);
    f.forget(BASE);
    await inFlight;
    assert.equal(f.peek(BASE), undefined);
    assert.deepEqual(heard, [], 'the answer for the old key is not announced');
    await f.get(BASE);
    assert.equal(srv.calls, 2, 'the next call asks again, inside the interval');
    assert.deepEqual(heard, ['old-key']);
  });

  it('serves the poller and a view with one GET /requests per interval, and the poller still completes its jobs', async () => {
    const store = new JobStore(new MemoryPersistence());
    const done = new Set<string>();
    const rec = (id: string): RequestRecord => ({ requestId: id, url: done.has(id) ? `${BASE}/f/${id}.txt` : '', status: done.has(id) ? 'done' : 'queued' });
    const srv = fakeServer(() => store.all().map((j) => rec(j.requestId)));
    const fetcher = new HistoryFetcher({ fetch: srv.fetch, minIntervalMs: () => 40 });
    let singles = 0;
    const api: PollApi = {
      request: async (id) => {
        singles++;
        return rec(id);
      },
      requests: async (signal) => [...(await fetcher.get(BASE, { signal }))],
    };
    const poller = new Poller(store, { apiFor: () => api, download: async (j) => ({ resultPath: `/r/${j.requestId}` }), intervalMs: 40 });
    const job = (id: string): JobRecord => ({ requestId: id, endpointId: 'trending', inputs: { hours: 1 }, cost: 50, baseUrl: BASE, profileId: 'default', submittedAt: new Date().toISOString(), state: 'pending' });
    await store.put(job('a'));
    await store.put(job('b'));
    poller.start();
    // A view asks as fast as it can meanwhile.
    const started = Date.now();
    const view = setInterval(() => void fetcher.get(BASE).catch(() => undefined), 3);
    // Let the view and the poller ask a few times while both jobs are pending (a count, not a clock).
    while (srv.calls < 4) await new Promise((r) => setTimeout(r, 10));
    done.add('a');
    done.add('b');
    await Promise.all([poller.whenSettled('a'), poller.whenSettled('b')]);
    clearInterval(view);
    const elapsed = Date.now() - started;
    poller.dispose();
    assert.equal(store.get('a')?.state, 'done');
    assert.equal(store.get('b')?.state, 'done');
    assert.ok(srv.calls <= Math.ceil(elapsed / 40) + 1, `${srv.calls} GET /requests in ${elapsed} ms: at most one per 40 ms interval`);
    assert.equal(srv.maxInFlight, 1, 'never two in flight');
    assert.equal(singles, 0, 'both jobs were listed, so no GET /request/{id}');
  });
});
