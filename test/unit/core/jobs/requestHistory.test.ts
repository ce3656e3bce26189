/**
 * Issue 21, defect 4: one odd record in `GET /requests` made the whole history unreadable, so a
 * finished job stayed pending and reconciliation answered "unknown". The spec gives only requestId
 * and url, so every record is read on its own (src/core/spec/wire.ts readRequestRecord): what can be
 * read is kept or coerced, a record without a usable requestId is skipped, and what was not
 * readable is told for the log.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { after, before, describe, it } from 'node:test';
import { WalletAnalyticsApi } from '../../../../src/core/transport/api';
import type { JobRecord } from '../../../../src/core/jobs/job';
import { Poller } from '../../../../src/core/jobs/poller';
import { reconcileSubmit } from '../../../../src/core/jobs/reconcile';
import { JobStore, MemoryPersistence } from '../../../../src/core/jobs/store';
import { readRequestList, unreadableOf } from '../../../../src/core/spec/wire';

const SENT_AT = Date.parse('2026-11-21T10:00:00.000Z');

/** A history with one of each odd shape among good records. */
function oddHistory(base: string): unknown[] {
  return [
    { requestId: 'good-1', url: '', endpoint: 'trending', status: 'queued', createdAt: '2026-11-21T09:00:00.000Z', cost: 50 },
    { requestId: 'cost-text', url: `${base}/files/cost-text.txt`, status: 'done', cost: '500' },
    { requestId: 'epoch-s', url: '', createdAt: SENT_AT / 1000 + 2, endpoint: 'trending', inputs: { hours: 1 } },
    { requestId: 'epoch-ms', url: '', createdAt: SENT_AT + 2000 },
    { requestId: 'error-object', url: null, status: 'failed', error: { code: 'E', message: 'it broke' } },
    { requestId: 'error-json', status: 'failed', error: { code: 'E' } },
    { requestId: 'bad-cost', url: '', cost: 'lots', createdAt: true, inputs: 'x', endpoint: 7 },
    { url: `${base}/files/x.txt` },
    { requestId: '', url: '' },
    { requestId: 'ctl\u0007', url: '' },
    'not an object',
    null,
    { requestId: 42, url: '' },
  ];
}

describe('request history: each record read on its own (issue 21)', () => {
  it('keeps the readable records, coerces what is safe, skips those without a usable requestId, and says what it left out', () => {
    const list = readRequestList(oddHistory('http://h'));
    assert.deepEqual(
      list.map((r) => r.requestId),
      ['good-1', 'cost-text', 'epoch-s', 'epoch-ms', 'error-object', 'error-json', 'bad-cost', '42'],
    );
    const by = new Map(list.map((r) => [r.requestId, r]));
    assert.equal(by.get('cost-text')?.cost, 500);
    assert.equal(by.get('epoch-s')?.createdAt, '2026-11-21T10:00:02.000Z');
    assert.equal(by.get('epoch-ms')?.createdAt, '2026-11-21T10:00:02.000Z');
    assert.equal(by.get('error-object')?.url, '');
    assert.equal(by.get('error-object')?.error, 'it broke');
    assert.equal(by.get('error-json')?.error, '{"code":"E"}');
    assert.equal(by.get('error-json')?.url, '');
    const bad = by.get('bad-cost');
    assert.ok(bad);
    assert.deepEqual([bad.cost, bad.createdAt, bad.inputs, bad.endpoint], [undefined, undefined, undefined, undefined]);
    const notes = unreadableOf(list);
    assert.equal(notes.filter((n) => / skipped: /u.test(n)).length, 5, notes.join('\n'));
    assert.ok(notes.some((n) => n.startsWith('record bad-cost: unreadable') && n.includes('cost "lots"') && n.includes('createdAt true')), notes.join('\n'));
    assert.deepEqual(unreadableOf(readRequestList([{ requestId: 'a', url: '' }])), []);
  });

  describe('through the API, the poller and reconciliation', () => {
    let server: Server;
    let base = '';
    before(async () => {
      server = createServer((req, res) => {
        res.setHeader('content-type', 'application/json');
        if (req.url?.startsWith('/requests')) res.end(JSON.stringify({ requests: oddHistory(base) }));
        else if (req.url?.startsWith('/request/')) res.end(JSON.stringify({ requestId: decodeURIComponent(req.url.slice('/request/'.length)), url: null, cost: '500', createdAt: 1_763_719_200 }));
        else res.writeHead(404).end('{}');
      });
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    });
    after(() => new Promise<void>((r) => server.close(() => r())));

    const api = (): WalletAnalyticsApi => new WalletAnalyticsApi({ baseUrl: base, apiKey: () => Promise.resolve('k-test-0000'), retry: { attempts: 1 } });

    it('GET /requests and GET /request/{id} answer with odd fields are read', async () => {
      const list = await api().requests();
      assert.equal(list.length, 8);
      const one = await api().request('abc');
      assert.deepEqual([one.requestId, one.url, one.cost, one.createdAt], ['abc', '', 500, '2025-11-21T10:00:00.000Z']);
    });

    it('a finished job completes although another record of the history is odd', async () => {
      const store = new JobStore(new MemoryPersistence());
      const job = (id: string): JobRecord => ({ requestId: id, endpointId: 'trending', inputs: { hours: 1 }, cost: 50, baseUrl: base, profileId: 'default', submittedAt: '2026-11-21T10:00:00.000Z', state: 'pending' });
      await store.put(job('cost-text'));
      await store.put(job('good-1'));
      const logs: string[] = [];
      const client = api();
      const poller = new Poller(store, { apiFor: () => client, download: async (j) => ({ resultPath: `/tmp/${j.requestId}` }), intervalMs: 10, log: (l) => logs.push(l) });
      poller.start();
      try {
        const done = await Promise.race([
          poller.whenSettled('cost-text'),
          new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`the finished job stayed pending: ${logs.join('\n')}`)), 5_000).unref()),
        ]);
        assert.equal(done.state, 'done');
        assert.equal(store.get('good-1')?.state, 'pending');
        const noted = logs.filter((l) => l.startsWith('GET /requests on'));
        assert.equal(noted.length, 1, `told once: ${logs.join('\n')}`);
        assert.match(noted[0] ?? '', /record 8 skipped: no usable requestId/u);
      } finally {
        poller.dispose();
      }
    });

    it('reconciliation finds the submitted job by its numeric createdAt', async () => {
      const r = await reconcileSubmit(api(), { endpointId: 'trending', inputs: { hours: 1 }, sentAt: SENT_AT, known: () => false }, { now: () => SENT_AT + 5_000, maxWaitMs: 0, ackWindowMs: 0 });
      assert.equal(r.kind, 'found');
      assert.equal(r.kind === 'found' ? r.record.requestId : '', 'epoch-s');
    });
  });
});
