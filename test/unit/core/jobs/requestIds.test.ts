/**
 * A charged job can always be followed: the server's requestId is taken as opaque, by one rule
 * for the submit acknowledgement and for polling, URL-encoded where it is sent and sanitised
 * only where it names a file. The case that broke: an id like `Zm9v+YmFy/cQ==` was accepted at
 * submit (and charged) and then refused by the poll's own pattern, so the job was never followed.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { WalletAnalyticsApi } from '../../../../src/core/transport/api';
import { downloadFrom } from '../../../../src/core/results/download';
import { encodeRequest, endpoint, routeRequest, validateInput } from '../../../../src/core/spec/catalog';
import type { JobRecord } from '../../../../src/core/jobs/job';
import { Poller } from '../../../../src/core/jobs/poller';
import { fileSafeRequestId, resultFileName } from '../../../../src/core/results/names';
import { JobStore, MemoryPersistence } from '../../../../src/core/jobs/store';
import { SubmitAck } from '../../../../src/core/spec/wire';
import { startSandbox, type Sandbox } from '../../../../src/sandbox/index';

const ODD = 'Zm9v+YmFy/cQ==';
const TAKEN = [ODD, 'Zm9v/YmFy+cQ==', 'a b', 'ü-ß-日本', '%2F..%2F', '?x=1#y', '...', '-', 'x'.repeat(512), 'req_0123abcd'];
const REFUSED = ['', '.', '..', 'a\u0000b', 'a\nb', 'a\u007fb', 'x'.repeat(513)];

describe('requestId: one rule for the acknowledgement and the poll', () => {
  it('takes every id the submit acknowledgement takes when polling, and refuses the same ids at both', () => {
    const request = endpoint('request');
    for (const id of TAKEN) {
      assert.ok(SubmitAck.safeParse({ requestId: id }).success, `ack takes ${JSON.stringify(id)}`);
      const v = validateInput(request, { requestId: id });
      assert.ok(v.ok, `poll takes ${JSON.stringify(id)}: ${v.ok ? '' : v.errors.join()}`);
      assert.equal(v.input.requestId, id, 'the id is kept as it is (not trimmed, not rewritten)');
    }
    for (const id of REFUSED) {
      assert.equal(SubmitAck.safeParse({ requestId: id }).success, false, `ack refuses ${JSON.stringify(id)}`);
      const v = validateInput(request, { requestId: id });
      assert.equal(v.ok, false, `poll refuses ${JSON.stringify(id)}`);
      assert.match(v.ok ? '' : v.errors.join(), /^Request id must be 1 to 512 characters, with no control characters, and not “\.” or “\.\.”\.$/u);
    }
  });

  it('is URL-encoded into GET /request/{requestId}, and routes back to the same id', () => {
    const request = endpoint('request');
    assert.equal(encodeRequest(request, { requestId: ODD }).path, '/request/Zm9v%2BYmFy%2FcQ%3D%3D');
    for (const id of TAKEN) {
      const wire = encodeRequest(request, { requestId: id });
      assert.equal(wire.path.split('/').length, 3, `${JSON.stringify(id)} stays one path segment`);
      const url = new URL(wire.path, 'http://127.0.0.1:1');
      assert.equal(routeRequest('GET', url.pathname)?.params.requestId, id);
    }
  });

  it('names result files with a sanitised id that stays in the folder, distinct for ids that read alike', () => {
    const names = TAKEN.map((requestId) => resultFileName({ endpointId: 'trending', submittedAt: '2026-11-21T14:05:00.000Z', requestId }, 'txt'));
    for (const name of names) {
      assert.match(name, /^trending-20261121-140500-[A-Za-z0-9_-]+\.txt$/u);
      assert.equal(basename(name), name);
      assert.equal(dirname(join('/results', name)), '/results');
    }
    assert.equal(new Set(names).size, names.length, 'no two ids share a file name');
    assert.notEqual(fileSafeRequestId(ODD), fileSafeRequestId('Zm9v/YmFy+cQ=='));
    assert.equal(fileSafeRequestId('req_0123abcd'), 'req_0123abcd', 'a plain id is used as it is');
  });
});

describe('requestId: a job with the id Zm9v+YmFy/cQ== is followed to its file', () => {
  let sb: Sandbox;
  let api: WalletAnalyticsApi;
  // The sandbox hands these out in order: ODD for the first test, then two that sanitise alike.
  const ids = ['Zm9v/YmFy+cQ==', 'Zm9v+YmFy+cQ=='];
  const queue = [ODD, ...ids];

  before(async () => {
    sb = await startSandbox({ wallets: 2_000, altWallets: 200, delayScale: 0.001, requestIds: () => queue.shift() ?? `spare-${Math.random()}` });
    api = new WalletAnalyticsApi({ baseUrl: sb.baseUrl, apiKey: () => Promise.resolve(sb.demoKey) });
  });
  after(() => sb.close());

  it('is charged at submit, polled with api.request(id), and downloaded by the Poller into the results folder', async () => {
    const since = sb.ledger().length;
    const ack = await api.submit('trending', { hours: 1 });
    assert.equal(ack.requestId, ODD);
    assert.equal(sb.ledger().slice(since).reduce((s, e) => s + e.credits, 0), 50, 'charged at acceptance');
    const rec = await api.request(ODD);
    assert.equal(rec.requestId, ODD);
    assert.ok(sb.received().some((r) => r.path === '/request/Zm9v%2BYmFy%2FcQ%3D%3D' && r.status === 200), 'sent URL-encoded, answered 200');

    const dir = mkdtempSync(join(tmpdir(), 'wa-reqid-'));
    const store = new JobStore(new MemoryPersistence());
    const job: JobRecord = { requestId: ODD, endpointId: 'trending', inputs: { hours: 1 }, cost: 50, baseUrl: sb.baseUrl, profileId: 'default', submittedAt: new Date().toISOString(), state: 'pending' };
    await store.put(job);
    const poller = new Poller(store, {
      apiFor: () => api,
      intervalMs: 10,
      download: async (j, signal) => {
        const got = await downloadFrom(api, j.url ?? '', dir, { fileName: resultFileName(j, 'txt'), signal });
        return { resultPath: got.path };
      },
    });
    try {
      poller.start();
      const done = await poller.whenSettled(ODD);
      assert.equal(done.state, 'done', done.error);
      assert.equal(done.requestId, ODD, 'the record keeps the real id');
      assert.equal(dirname(done.resultPath ?? ''), dir, 'the file is inside the results folder');
      assert.deepEqual(readdirSync(dir), [basename(done.resultPath ?? '')]);
      assert.ok(existsSync(done.resultPath ?? '') && readFileSync(done.resultPath ?? '', 'utf8').length > 0);
    } finally {
      poller.dispose();
    }
  });

  it('follows two such jobs at once through GET /requests, each to its own file', async () => {
    const a = await api.submit('trending', { hours: 2 });
    const b = await api.submit('trending', { hours: 3 });
    assert.deepEqual([a.requestId, b.requestId], ids);
    assert.equal(resultFileName({ endpointId: 'trending', submittedAt: '2026-11-21T14:05:00.000Z', requestId: ids[0] ?? '' }, 'txt').replace(/-[0-9a-f]{8}\.txt$/u, ''), resultFileName({ endpointId: 'trending', submittedAt: '2026-11-21T14:05:00.000Z', requestId: ids[1] ?? '' }, 'txt').replace(/-[0-9a-f]{8}\.txt$/u, ''), 'the two ids read alike once sanitised');
    const dir = mkdtempSync(join(tmpdir(), 'wa-reqid-'));
    const store = new JobStore(new MemoryPersistence());
    const at = new Date().toISOString();
    for (const id of ids) await store.put({ requestId: id, endpointId: 'trending', inputs: {}, cost: 50, baseUrl: sb.baseUrl, profileId: 'default', submittedAt: at, state: 'pending' });
    const poller = new Poller(store, {
      apiFor: () => api,
      intervalMs: 10,
      download: async (j, signal) => ({ resultPath: (await downloadFrom(api, j.url ?? '', dir, { fileName: resultFileName(j, 'txt'), signal })).path }),
    });
    try {
      poller.start();
      const settled = await Promise.all(ids.map((id) => poller.whenSettled(id)));
      assert.deepEqual(settled.map((j) => j.state), ['done', 'done']);
      assert.equal(new Set(settled.map((j) => j.resultPath)).size, 2, 'two files, not one overwritten');
      assert.equal(readdirSync(dir).length, 2);
    } finally {
      poller.dispose();
    }
  });
});
