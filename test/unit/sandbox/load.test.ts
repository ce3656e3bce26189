/**
 * The sandbox under many polls (issue 14, part 4): a job's record is serialised once per state,
 * not once per `GET /request/{id}`, and what the polls read still follows the job as it moves.
 * bench/sandbox.ts measures the budget itself (a Wallet Database query ≤ 200 ms with 1,000
 * polls in flight); these tests pin the behaviour that budget rests on.
 */
import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { RequestList, RequestRecord } from '../../../src/core/spec/wire';
import { startSandbox, type Sandbox } from '../../../src/sandbox/index';
import { POLL_BATCH, PollQueue } from '../../../src/sandbox/server';

/** Counts the JSON texts of at least minChars made while fn runs (in this process: client and server). */
async function bigStringifies(minChars: number, fn: () => Promise<void>): Promise<number> {
  const original = JSON.stringify;
  let count = 0;
  JSON.stringify = ((...args: Parameters<typeof JSON.stringify>) => {
    const text = original(...args);
    if (typeof text === 'string' && text.length >= minChars) count++;
    return text;
  }) as typeof JSON.stringify;
  try {
    await fn();
  } finally {
    JSON.stringify = original;
  }
  return count;
}

describe('sandbox: polls of a big record', () => {
  let sb: Sandbox;
  let jobId = '';
  before(async () => {
    // Jobs are done after 4 s: the polls below run while the job is still queued (on a very busy
    // machine it may move meanwhile; the test then allows one serialisation per state it saw).
    sb = await startSandbox({ wallets: 2_000, altWallets: 200, jobDelayMs: [4_000, 4_000], extraKeys: ['another-key'] });
    const r = await fetch(`${sb.baseUrl}/pnl`, {
      method: 'POST',
      headers: { api_key: sb.demoKey, 'content-type': 'application/json' },
      body: JSON.stringify({ wallets: sb.addresses('wallet', 1_000) }),
    });
    assert.equal(r.status, 200);
    jobId = ((await r.json()) as { requestId: string }).requestId;
  });
  after(() => sb.close());

  const poll = async (): Promise<{ text: string; length: string | null }> => {
    const r = await fetch(`${sb.baseUrl}/request/${jobId}`, { headers: { api_key: sb.demoKey } });
    assert.equal(r.status, 200);
    return { text: await r.text(), length: r.headers.get('content-length') };
  };

  it('serialises a queued job’s record once, however often it is polled', async () => {
    const texts: string[] = [];
    const made = await bigStringifies(40_000, async () => {
      for (let i = 0; i < 20; i++) texts.push((await poll()).text);
    });
    // Before: every poll serialised the 46 KB record again (20 times here). Now once per state.
    const states = [...new Set(texts)];
    assert.ok(made <= states.length, `the record was serialised ${made} times for 20 polls of ${states.length} state(s)`);
    assert.ok(states.length <= 2, 'queued, then at most done');
    const rec = RequestRecord.parse(JSON.parse(texts[0]!));
    assert.equal(rec.status, 'queued');
    assert.equal((rec.inputs as { wallets: string[] }).wallets.length, 1_000, 'a list of 1,000 is shown in full');
    // The same state answers the same bytes: each text, once it changes, never comes back.
    assert.ok(texts.every((t, i) => i === 0 || t === texts[i - 1] || !texts.slice(0, i).includes(t)));
  });

  it('answers the job’s new state once it moves, with a Content-Length that matches', async () => {
    let last = await poll();
    for (let i = 0; i < 500 && RequestRecord.parse(JSON.parse(last.text)).url === ''; i++) {
      await new Promise((r) => setTimeout(r, 20));
      last = await poll();
    }
    const rec = RequestRecord.parse(JSON.parse(last.text));
    assert.equal(rec.status, 'done');
    assert.ok(rec.url.startsWith(`${sb.fileBaseUrl}/files/`));
    assert.ok(rec.completedAt);
    assert.equal(last.length, String(Buffer.byteLength(last.text)));
    // GET /requests reads the same record, byte for byte.
    const r = await fetch(`${sb.baseUrl}/requests`, { headers: { api_key: sb.demoKey } });
    const text = await r.text();
    assert.equal(r.headers.get('content-length'), String(Buffer.byteLength(text)));
    const list = RequestList.parse(JSON.parse(text));
    assert.equal(list.length, 1);
    assert.deepEqual(list[0], rec);
    assert.equal(text, `[${last.text}]`);
    const none = await fetch(`${sb.baseUrl}/requests`, { headers: { api_key: 'another-key' } });
    assert.equal(await none.text(), '[]');
  });
});

describe('sandbox: the request log under many requests', () => {
  it('keeps the latest receivedLimit requests at least and never twice as many, oldest first', async () => {
    const sb = await startSandbox({ wallets: 500, altWallets: 100, receivedLimit: 10 });
    try {
      const log = sb.received();
      for (let i = 0; i < 45; i++) {
        const r = await fetch(`${sb.baseUrl}/request/req_${i}`, { headers: { api_key: sb.demoKey } });
        assert.equal(r.status, 404);
        await r.arrayBuffer();
        // Before: the log grew by every request (45 here), as it would by 10,000 a second under 1,000 polls.
        assert.ok(sb.received().length <= 20, `${sb.received().length} requests kept`);
      }
      const kept = sb.received();
      assert.equal(kept, log, 'the same array, still the live log');
      assert.ok(kept.length >= 10);
      assert.deepEqual(
        kept.map((e) => e.path),
        Array.from({ length: kept.length }, (_, k) => `/request/req_${45 - kept.length + k}`),
      );
      assert.ok(kept.every((e) => e.status === 404));
    } finally {
      await sb.close();
    }
  });
});

describe('sandbox: polls wait behind other requests', () => {
  it('PollQueue lets polls go in order, at most a batch per turn', async () => {
    const turns: (() => void)[] = [];
    const q = new PollQueue(3, (run) => turns.push(run));
    const done: number[] = [];
    for (let i = 0; i < 7; i++) void q.turn().then(() => done.push(i));
    const flush = () => new Promise<void>((r) => setImmediate(r));
    assert.equal(turns.length, 1, 'one turn scheduled, whatever the number of polls');
    await flush();
    assert.equal(done.length, 0, 'no poll goes before its turn');
    for (const expected of [[0, 1, 2], [0, 1, 2, 3, 4, 5], [0, 1, 2, 3, 4, 5, 6]]) {
      turns.shift()?.();
      await flush();
      assert.deepEqual(done, expected);
    }
    assert.equal(turns.length, 0, 'nothing left scheduled');
    void q.turn().then(() => done.push(7));
    assert.equal(turns.length, 1, 'a later poll schedules a turn again');
  });

  it('PollQueue holds a batch while other requests are answered, until one ends or maxWaitMs passes', async () => {
    let busy = true;
    // A long maxWaitMs for the part that must hold: a loaded machine took over 50 ms for the two
    // turns of the loop below, and the batch went on its timer (a clean-clone run beside four
    // helpers). The timer's own part is below, with a queue of its own.
    const q = new PollQueue(2, (run) => setImmediate(run), () => busy, 60_000);
    const done: number[] = [];
    for (let i = 0; i < 3; i++) void q.turn().then(() => done.push(i));
    const flush = () => new Promise<void>((r) => setImmediate(r));
    await flush();
    await flush();
    assert.deepEqual(done, [], 'no poll goes while another request is answered');
    busy = false;
    q.kick();
    await flush();
    await flush();
    assert.deepEqual(done, [0, 1, 2], 'the other request ended: the batches go, in order');
    const timed = new PollQueue(2, (run) => setImmediate(run), () => true, 50);
    const t0 = Date.now();
    await timed.turn();
    assert.ok(Date.now() - t0 >= 45, 'a request that never ends holds a poll no longer than maxWaitMs');
  });

  it('answers a Wallet Database query sent in the same turn as 300 polls, and every poll, whole', async () => {
    const sb = await startSandbox({ wallets: 2_000, altWallets: 200, jobDelayMs: [3_600_000, 3_600_000] });
    const sockets: Socket[] = [];
    try {
      const headers = { api_key: sb.demoKey, 'content-type': 'application/json' };
      const sub = await fetch(`${sb.baseUrl}/trending?hours=1`, { headers });
      const { requestId } = (await sub.json()) as { requestId: string };
      const { hostname, port } = new URL(sb.baseUrl);
      const open = () =>
        new Promise<Socket>((resolve, reject) => {
          const s = connect(Number(port), hostname, () => resolve(s));
          s.once('error', reject);
          sockets.push(s);
        });
      const polls = await Promise.all(Array.from({ length: 300 }, open));
      const query = await open();
      // Let the server accept every connection before anything is sent.
      await new Promise((r) => setTimeout(r, 200));
      const order: string[] = [];
      const answered = (s: Socket, name: string) =>
        new Promise<string>((resolve) => {
          let text = '';
          s.on('data', (d: Buffer) => {
            if (text === '') order.push(name);
            text += d.toString('utf8');
            if (/\r\n\r\n/u.test(text) && text.endsWith('}')) resolve(text);
          });
        });
      const waits = polls.map((s, i) => answered(s, `poll${i}`));
      const queryWait = answered(query, 'query');
      // All in one synchronous run: the server reads them in one turn, the query last.
      for (const s of polls) s.write(`GET /request/${requestId} HTTP/1.1\r\nHost: x\r\napi_key: ${sb.demoKey}\r\n\r\n`);
      const body = JSON.stringify({ where: { and: [{ field: 'winrate_30d', op: '>=', value: 0.5 }] }, limit: 10 });
      query.write(`POST /wallet_database HTTP/1.1\r\nHost: x\r\napi_key: ${sb.demoKey}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
      const [answers, queryAnswer] = await Promise.all([Promise.all(waits), queryWait]);
      assert.ok(answers.every((a) => a.startsWith('HTTP/1.1 200')));
      assert.ok(queryAnswer.startsWith('HTTP/1.1 200'), queryAnswer.slice(-300));
      // Where the query's answer falls among the polls depends on how the machine splits the 301
      // requests into reads (a clean-clone CI run saw all 300 polls read, and answered, before the
      // query's bytes arrived), so it is a printed figure, not a verdict. The order itself is held by
      // the PollQueue tests above, which drive the queue's events directly.
      const before = order.indexOf('query');
      console.log(`# ${before} of ${polls.length} polls were answered before the query (a batch is ${POLL_BATCH})`);
      assert.ok(before >= 0, 'the query was answered');
    } finally {
      for (const s of sockets) s.destroy();
      await sb.close();
    }
  });
});
