/**
 * Reconciliation of an ambiguous submit against the request history, with a fake history and
 * a fake clock: what counts as the same job, how long it looks, and what it says when it
 * cannot tell. The suite against the real sandbox is ambiguous.test.ts.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CancelledError } from '../../../../src/core/errors';
import {
  RECONCILE_CLOCK_SKEW_MS,
  RECONCILE_MESSAGES,
  findSubmitted,
  reconcileMessage,
  reconcileSubmit,
  sameInputs,
  type AmbiguousSubmit,
  type HistoryApi,
} from '../../../../src/core/jobs/reconcile';
import type { RequestRecord } from '../../../../src/core/spec/wire';

const T0 = Date.parse('2025-03-01T12:00:00Z');
const iso = (ms: number) => new Date(ms).toISOString();

function rec(requestId: string, over: Partial<RequestRecord> = {}): RequestRecord {
  return { requestId, url: '', endpoint: 'trending', status: 'queued', createdAt: iso(T0 + 1_000), cost: 50, inputs: { hours: 6 }, ...over };
}

const submit = (over: Partial<AmbiguousSubmit> = {}): AmbiguousSubmit => ({
  endpointId: 'trending',
  inputs: { hours: 6 },
  sentAt: T0,
  known: () => false,
  ...over,
});

/** A fake clock whose sleep moves time on, and a history that answers from a script. */
function harness(answers: (read: number) => readonly RequestRecord[] | Error) {
  let t = T0 + 2_000;
  let reads = 0;
  const api: HistoryApi = {
    requests: () => {
      const a = answers(++reads);
      return a instanceof Error ? Promise.reject(a) : Promise.resolve(a);
    },
  };
  return {
    api,
    reads: () => reads,
    opts: {
      now: () => t,
      sleep: (ms: number) => {
        t += ms;
        return Promise.resolve();
      },
      maxWaitMs: 30_000,
      intervalMs: 3_000,
      ackWindowMs: 0,
    },
    elapsed: () => t - (T0 + 2_000),
  };
}

describe('reconcile: which record is the ambiguous submit', () => {
  it('the same endpoint and inputs inside the window, not tracked yet', () => {
    const r = findSubmitted([rec('other', { endpoint: 'mcap' }), rec('mine')], submit(), T0 + 2_000);
    assert.equal(r.record?.requestId, 'mine');
  });

  it('a tracked id, other inputs, or a time outside the window is never it', () => {
    const records = [
      rec('tracked'),
      rec('otherInputs', { inputs: { hours: 7 } }),
      rec('tooOld', { createdAt: iso(T0 - RECONCILE_CLOCK_SKEW_MS - 1) }),
      rec('tooNew', { createdAt: iso(T0 + 2_000 + RECONCILE_CLOCK_SKEW_MS + 1) }),
    ];
    const r = findSubmitted(records, submit({ known: (id) => id === 'tracked' }), T0 + 2_000);
    assert.equal(r.record, undefined);
    assert.equal(r.uncertain, undefined);
  });

  it('a clock skew inside the allowance still matches; of several, the closest to the send wins', () => {
    const records = [rec('far', { createdAt: iso(T0 + 90_000) }), rec('skewed', { createdAt: iso(T0 - 60_000) }), rec('near', { createdAt: iso(T0 + 500) })];
    assert.equal(findSubmitted(records, submit(), T0 + 2_000).record?.requestId, 'near');
    assert.equal(findSubmitted(records.slice(0, 2), submit(), T0 + 2_000).record?.requestId, 'skewed');
  });

  it('the endpoint may be named by its path', () => {
    assert.equal(findSubmitted([rec('p', { endpoint: '/trending' })], submit(), T0 + 2_000).record?.requestId, 'p');
  });

  it('a record without endpoint, inputs or a readable time cannot be told apart: uncertain, not a match', () => {
    for (const over of [{ endpoint: undefined }, { inputs: undefined }, { createdAt: undefined }, { createdAt: 'yesterday-ish' }]) {
      const r = findSubmitted([rec('vague', over)], submit(), T0 + 2_000);
      assert.equal(r.record, undefined, JSON.stringify(over));
      assert.equal(r.uncertain?.requestId, 'vague', JSON.stringify(over));
    }
  });
});

describe('reconcile: inputs compared canonically', () => {
  const wallets = Array.from({ length: 1_500 }, (_, i) => `W${i}`);

  it('key order does not matter; a number equals the text it travels as', () => {
    assert.ok(sameInputs({ hours: 6, format: 'csv' }, { format: 'csv', hours: '6' }));
    assert.ok(sameInputs({ tokens: ['a', 'b'], output: 'zip' }, { output: 'zip', tokens: ['a', 'b'] }));
    assert.ok(sameInputs({ windows: [{ token: 't', from: 1, to: 2 }] }, { windows: [{ to: 2, from: '1', token: 't' }] }));
  });

  it('empty values are the same as absent', () => {
    assert.ok(sameInputs({ hours: 6, cursor: undefined }, { hours: 6 }));
    assert.ok(sameInputs({ hours: 6 }, { hours: 6, note: null }));
  });

  it('a different value, list, order of a list, or an extra key is another job', () => {
    assert.ok(!sameInputs({ hours: 6 }, { hours: 7 }));
    assert.ok(!sameInputs({ tokens: ['a', 'b'] }, { tokens: ['b', 'a'] }));
    assert.ok(!sameInputs({ tokens: ['a', 'b'] }, { tokens: ['a'] }));
    assert.ok(!sameInputs({ hours: 6 }, { hours: 6, format: 'txt' }));
    assert.ok(!sameInputs({ tokens: ['a'] }, { tokens: 'a' }));
  });

  it('a list the server summarised as { count, first } matches by its count and first items', () => {
    assert.ok(sameInputs({ wallets }, { wallets: { count: 1_500, first: wallets.slice(0, 100) } }));
    assert.ok(!sameInputs({ wallets }, { wallets: { count: 1_499, first: wallets.slice(0, 100) } }), 'another count');
    assert.ok(!sameInputs({ wallets }, { wallets: { count: 1_500, first: ['X', ...wallets.slice(1, 100)] } }), 'another first item');
    assert.ok(!sameInputs({ wallets }, { wallets: { count: 1_500, first: [] } }), 'an empty summary of a long list proves nothing');
  });
});

describe('reconcile: the bounded search', () => {
  it('found on the first read: "accepted after all"', async () => {
    const h = harness(() => [rec('mine')]);
    const r = await reconcileSubmit(h.api, submit(), h.opts);
    assert.equal(r.kind, 'found');
    assert.equal(r.kind === 'found' && r.record.requestId, 'mine');
    assert.equal(h.reads(), 1);
    assert.equal(reconcileMessage(r), 'It was accepted after all; following it.');
  });

  it('a record that appears late is found on a later read', async () => {
    const h = harness((n) => (n < 4 ? [rec('older', { createdAt: iso(T0 - 3_600_000) })] : [rec('mine'), rec('older')]));
    const r = await reconcileSubmit(h.api, submit(), h.opts);
    assert.equal(r.kind === 'found' && r.record.requestId, 'mine');
    assert.equal(h.reads(), 4);
    assert.equal(h.elapsed(), 9_000);
  });

  it('not there for maxWaitMs: notFound, with how long it looked; reads every intervalMs, no more', async () => {
    const h = harness(() => [rec('tracked')]);
    const r = await reconcileSubmit(h.api, submit({ known: (id) => id === 'tracked' }), h.opts);
    assert.deepEqual(r, { kind: 'notFound', waitedMs: 30_000 });
    assert.equal(h.reads(), 11, 'one read at once, then one every 3 s for 30 s');
    assert.equal(reconcileMessage(r), 'Not in your request history after 30 s: most likely not charged.');
    assert.equal(RECONCILE_MESSAGES.notFound(4_400), 'Not in your request history after 4 s: most likely not charged.');
  });

  it('"not found" waits for the server’s acknowledgement window to close, counted from the send', async () => {
    const h = harness(() => []);
    const r = await reconcileSubmit(h.api, submit(), { ...h.opts, ackWindowMs: 100_000, maxWaitMs: 1_000 });
    assert.equal(r.kind, 'notFound');
    assert.equal(h.elapsed(), 98_000, 'the send was 2 s before the search began');
  });

  it('a history that cannot be read is "unknown", never "not found"', async () => {
    const boom = new Error('offline');
    const h = harness(() => boom);
    const r = await reconcileSubmit(h.api, submit(), h.opts);
    assert.deepEqual(r, { kind: 'unknown', error: boom });
    assert.match(reconcileMessage(r), /whether it was charged is unknown/u);
  });

  it('a read that fails once and then succeeds goes on searching', async () => {
    const h = harness((n) => (n === 1 ? new Error('blip') : n === 2 ? [] : [rec('mine')]));
    const r = await reconcileSubmit(h.api, submit(), h.opts);
    assert.equal(r.kind, 'found');
  });

  it('the last read failing makes it "unknown" even after earlier empty reads', async () => {
    const h = harness((n) => (n < 11 ? [] : new Error('down at the end')));
    assert.equal((await reconcileSubmit(h.api, submit(), h.opts)).kind, 'unknown');
  });

  it('a record that could be it but cannot be compared makes it "unknown"', async () => {
    const h = harness(() => [rec('vague', { createdAt: undefined })]);
    const r = await reconcileSubmit(h.api, submit(), h.opts);
    assert.equal(r.kind, 'unknown');
    assert.match(String(r.kind === 'unknown' && (r.error as Error).message), /vague/u);
  });

  it('an abort stops the search at once: "unknown" with a CancelledError', async () => {
    const ac = new AbortController();
    let reads = 0;
    const api: HistoryApi = {
      requests: () => {
        if (++reads === 2) ac.abort();
        return Promise.resolve([]);
      },
    };
    const r = await reconcileSubmit(api, submit({ sentAt: Date.now() }), { intervalMs: 10, maxWaitMs: 60_000, ackWindowMs: 0, signal: ac.signal });
    assert.ok(r.kind === 'unknown' && r.error instanceof CancelledError);
    // The order of events, not the clock: no read after the abort (a search that went on would read
    // every 10 ms for a minute).
    assert.equal(reads, 2);
  });
});
