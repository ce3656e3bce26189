/** The sandbox over HTTP: keys, IP binding, charging at acceptance, refusals that cost nothing, the monthly reset, faults. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Agent, request } from 'undici';
import { ENDPOINTS, encodeRequest, endpoint, type Endpoint } from '../../../src/core/spec/catalog';
import { isPaid, quote } from '../../../src/core/money/pricing';
import { sampleAddress, sampleInput } from '../../../src/core/spec/samples';
import { Credits, ErrorBody, RequestList, SubmitAck } from '../../../src/core/spec/wire';
import { startSandbox, type Sandbox } from '../../../src/sandbox/index';

const SMALL = { wallets: 2_000, altWallets: 500 };

interface Answer {
  status: number;
  body: unknown;
  headers: Headers;
}

async function call(sb: Sandbox, method: string, path: string, body?: unknown, key: string | null = sb.demoKey): Promise<Answer> {
  const headers: Record<string, string> = {};
  if (key !== null) headers.api_key = key;
  if (body !== undefined) headers['content-type'] = 'application/json';
  const r = await fetch(`${sb.baseUrl}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await r.text();
  return { status: r.status, body: text ? (JSON.parse(text) as unknown) : undefined, headers: r.headers };
}

/** Calls an endpoint with validated input, through the catalog's own wire encoding. */
function callEp(sb: Sandbox, ep: Endpoint, input: Record<string, unknown>, key?: string): Promise<Answer> {
  const w = encodeRequest(ep, input);
  const qs = new URLSearchParams(w.query).toString();
  return call(sb, w.method, `${w.path}${qs ? `?${qs}` : ''}`, w.body, key);
}

function errorCode(a: Answer): string | undefined {
  const e = ErrorBody.parse(a.body).error;
  return typeof e === 'object' ? e.code : undefined;
}

const charged = (sb: Sandbox, since: number) => sb.ledger().slice(since).reduce((s, e) => s + e.credits, 0);

describe('sandbox API: keys and IP binding', () => {
  let sb: Sandbox;
  before(async () => {
    sb = await startSandbox({ ...SMALL, extraKeys: ['second-key'] });
  });
  after(() => sb.close());

  it('refuses a missing or unknown key with 401 key_refused', async () => {
    const none = await call(sb, 'GET', '/credits', undefined, null);
    assert.equal(none.status, 401);
    assert.equal(errorCode(none), 'key_refused');
    const bad = await call(sb, 'GET', '/credits', undefined, 'nope');
    assert.equal(bad.status, 401);
    assert.equal(errorCode(bad), 'key_refused');
  });

  it('answers /credits as a number carried in a string', async () => {
    const r = await call(sb, 'GET', '/credits');
    assert.equal(r.status, 200);
    assert.equal(r.body, '1000000000');
    assert.equal(Credits.parse(r.body), 1_000_000_000);
  });

  it('binds a key to its first IP; another IP gets 403 ip_mismatch until POST /reset_ip', async () => {
    // "Another IP": loopback 127.0.0.2. undici 7 takes localAddress on the Agent (a connect.localAddress is overridden).
    const other = new Agent({ localAddress: '127.0.0.2' });
    const fromOther = async (method: 'GET' | 'POST', path: string, key = 'second-key') => {
      const r = await request(`${sb.baseUrl}${path}`, { method, headers: { api_key: key }, dispatcher: other });
      const text = await r.body.text();
      return { status: r.statusCode, body: text ? (JSON.parse(text) as unknown) : undefined, headers: new Headers() };
    };
    try {
      assert.equal((await call(sb, 'GET', '/credits', undefined, 'second-key')).status, 200); // binds to 127.0.0.1
      const refused = await fromOther('GET', '/credits');
      assert.equal(refused.status, 403);
      assert.equal(errorCode(refused), 'ip_mismatch');
      // Free, and allowed from the new address: that is its point.
      assert.equal((await fromOther('POST', '/reset_ip')).status, 200);
      assert.equal((await fromOther('GET', '/credits')).status, 200); // now bound to 127.0.0.2
      assert.equal((await call(sb, 'GET', '/credits', undefined, 'second-key')).status, 403);
      assert.ok(sb.received().some((r) => r.remote === '127.0.0.2' && r.status === 403));
      assert.equal(sb.ledger().filter((e) => e.key === 'second-key').length, 0);
    } finally {
      await other.close();
    }
  });

  it('listens on loopback only', async () => {
    await assert.rejects(startSandbox({ ...SMALL, host: '0.0.0.0' }), /loopback only/u);
  });

  it('answers 404 for an unknown path and for an unknown requestId', async () => {
    const path = await call(sb, 'GET', '/no_such_thing');
    assert.equal(path.status, 404);
    assert.equal(errorCode(path), 'not_found');
    const wrongMethod = await call(sb, 'GET', '/pnl');
    assert.equal(wrongMethod.status, 404);
    assert.equal((await call(sb, 'GET', '/request/%E0%A4%A')).status, 400);
    const id = await call(sb, 'GET', '/request/req_unknown');
    assert.equal(id.status, 404);
    assert.equal(errorCode(id), 'not_found');
  });
});

describe('sandbox API: charging', () => {
  let sb: Sandbox;
  before(async () => {
    sb = await startSandbox({ ...SMALL, delayScale: 0.001 });
  });
  after(() => sb.close());

  it('charges every paid endpoint at acceptance exactly what quote() says, for its sample input', async () => {
    const paid = ENDPOINTS.filter(isPaid);
    assert.equal(paid.length, 29);
    for (const ep of paid) {
      const input = sampleInput(ep);
      const since = sb.ledger().length;
      const balance = sb.balance();
      const r = await callEp(sb, ep, input);
      assert.equal(r.status, 200, `${ep.id}: ${JSON.stringify(r.body)}`);
      const body = r.body as Record<string, unknown>;
      const ctx =
        ep.price.kind === 'perMatch' ? { knownMatches: body.total as number }
        : ep.price.kind === 'perReturned' ? { returned: (body.creators as unknown[]).length }
        : {};
      const expected = quote(ep, input, ctx).credits;
      assert.ok(expected > 0, ep.id);
      assert.equal(charged(sb, since), expected, ep.id);
      assert.equal(sb.balance(), balance - expected, ep.id);
      const entries = sb.ledger().slice(since);
      assert.deepEqual(entries.map((e) => e.endpoint), [ep.id]);
      if (ep.family === 'queued') {
        const ack = SubmitAck.parse(r.body);
        assert.equal(entries[0]?.requestId, ack.requestId, ep.id);
        assert.equal(body.cost, expected);
      }
    }
  });

  it('keeps account endpoints and the column lists free', async () => {
    const since = sb.ledger().length;
    for (const path of ['/credits', '/requests', '/wallet_database/columns', '/altchain_wallet_database/columns']) assert.equal((await call(sb, 'GET', path)).status, 200);
    assert.equal((await call(sb, 'POST', '/reset_ip')).status, 200);
    const list = RequestList.parse((await call(sb, 'GET', '/requests')).body);
    assert.equal((await call(sb, 'GET', `/request/${list[0]?.requestId ?? ''}`)).status, 200);
    assert.equal(sb.ledger().length, since);
  });

  it('charges nothing for bad input (400, with the sandbox’s own message)', async () => {
    const since = sb.ledger().length;
    const r = await call(sb, 'GET', '/trending?hours=99');
    assert.equal(r.status, 400);
    assert.equal(errorCode(r), 'bad_input');
    const e = ErrorBody.parse(r.body).error;
    assert.match(typeof e === 'object' ? (e.message ?? '') : '', /Hours \(“hours”\) must be a whole number from 1 to 24/u);
    assert.equal((await call(sb, 'POST', '/pnl', { wallets: ['not-an-address'] })).status, 400);
    assert.equal((await call(sb, 'POST', '/pnl', { wallets: [sampleAddress('main', 1)], extra: 1 })).status, 400);
    assert.equal(sb.ledger().length, since);
  });
});

describe('sandbox API: refusals cost nothing (§7.1, §7.2)', () => {
  it('402 insufficient_credits is checked before acceptance', async () => {
    const sb = await startSandbox({ ...SMALL, startBalance: 120, delayScale: 0.001 });
    try {
      assert.equal((await callEp(sb, endpoint('pnl'), { wallets: [sampleAddress('main', 1), sampleAddress('main', 2)] })).status, 200); // 10
      const r = await callEp(sb, endpoint('mcaptokens'), { mcap_usd: 50_000, days: 3 }); // 500
      assert.equal(r.status, 402);
      assert.equal(errorCode(r), 'insufficient_credits');
      // The Wallet Database knows its price only after matching: still refused before charging.
      const db = await call(sb, 'POST', '/wallet_database', { where: { and: [] }, limit: 1 });
      assert.equal(db.status, 402);
      assert.equal(sb.balance(), 110);
      assert.equal(sb.ledger().length, 1);
      assert.equal(RequestList.parse((await call(sb, 'GET', '/requests')).body).length, 1);
    } finally {
      await sb.close();
    }
  });

  it('a slow acknowledgement beyond the timeout is 504 ack_timeout, nothing queued or charged; within it, accepted', async () => {
    // The acknowledgement would take 3 s; the server's timeout is 60 ms. The 504 must come at the
    // timeout, long before the slow acknowledgement (a wide margin: a busy machine answers late).
    const sb = await startSandbox({ ...SMALL, ackTimeoutMs: 60, faults: { slowAckMs: 3_000 }, delayScale: 0.001 });
    try {
      const t0 = performance.now();
      const r = await callEp(sb, endpoint('trending'), { hours: 1 });
      const took = performance.now() - t0;
      assert.equal(r.status, 504);
      assert.equal(errorCode(r), 'ack_timeout');
      // The 504 itself says the server's timer ran out before the 3 s acknowledgement (that would be a
      // 200); the clock only checks that the server did wait for its timer.
      assert.ok(took >= 55, `answered after ${took} ms`);
      assert.equal(sb.ledger().length, 0);
      assert.equal(RequestList.parse((await call(sb, 'GET', '/requests')).body).length, 0);
      sb.setFaults({ slowAckMs: 30 });
      const t1 = performance.now();
      const ok = await callEp(sb, endpoint('trending'), { hours: 1 });
      assert.equal(ok.status, 200);
      assert.ok(performance.now() - t1 >= 28);
      assert.equal(charged(sb, 0), 50);
    } finally {
      await sb.close();
    }
  });

  it('close() does not wait out a slow acknowledgement in progress', async () => {
    const sb = await startSandbox({ ...SMALL, faults: { slowAckMs: 60_000 } });
    const pending = callEp(sb, endpoint('trending'), { hours: 1 });
    await new Promise((r) => setTimeout(r, 50));
    const t0 = performance.now();
    await sb.close();
    // Sooner than the acknowledgement it would otherwise wait out (60 s), on any machine.
    assert.ok(performance.now() - t0 < 30_000);
    await assert.rejects(pending);
    assert.equal(sb.ledger().length, 0);
  });

  it('errorRate 1: every request is a 500 server_error, nothing queued or charged', async () => {
    const sb = await startSandbox({ ...SMALL, faults: { errorRate: 1 } });
    try {
      const r = await callEp(sb, endpoint('trending'), { hours: 1 });
      assert.equal(r.status, 500);
      assert.equal(errorCode(r), 'server_error');
      sb.setFaults({ errorRate: 0 });
      assert.equal(sb.ledger().length, 0);
      assert.equal(RequestList.parse((await call(sb, 'GET', '/requests')).body).length, 0);
    } finally {
      await sb.close();
    }
  });

  it('dropRate 1: the connection is destroyed with no answer, nothing queued or charged', async () => {
    const sb = await startSandbox({ ...SMALL, faults: { dropRate: 1 } });
    try {
      await assert.rejects(callEp(sb, endpoint('trending'), { hours: 1 }));
      sb.setFaults({ dropRate: 0 });
      assert.equal(sb.ledger().length, 0);
      assert.equal(RequestList.parse((await call(sb, 'GET', '/requests')).body).length, 0);
      assert.ok(sb.received().some((r) => r.path === '/trending' && r.status === 0));
    } finally {
      await sb.close();
    }
  });

  it('rateLimit: over N per second per key is 429 with Retry-After, not charged', async () => {
    const sb = await startSandbox({ ...SMALL, faults: { rateLimit: 3 } });
    try {
      const answers = [];
      for (let i = 0; i < 5; i++) answers.push(await callEp(sb, endpoint('altchain_pnl'), { wallet: sampleAddress('alt', 1) }));
      assert.deepEqual(answers.map((a) => a.status), [200, 200, 200, 429, 429]);
      assert.equal(errorCode(answers[3]!), 'rate_limited');
      assert.ok(Number(answers[3]!.headers.get('retry-after')) >= 1);
      assert.equal(charged(sb, 0), 15);
    } finally {
      await sb.close();
    }
  });

  it('latencyMs is added to every answer', async () => {
    const sb = await startSandbox({ ...SMALL, faults: { latencyMs: 80 } });
    try {
      const t0 = performance.now();
      assert.equal((await call(sb, 'GET', '/credits')).status, 200);
      assert.ok(performance.now() - t0 >= 75);
    } finally {
      await sb.close();
    }
  });
});

describe('sandbox API: the monthly quota (§8.1)', () => {
  it('resets to the full amount when the 30-day period ends, with no roll-over', async () => {
    let t = Date.UTC(2025, 0, 1);
    const day = 86_400_000;
    const sb = await startSandbox({ ...SMALL, now: () => t, delayScale: 0.001 });
    try {
      assert.equal((await callEp(sb, endpoint('mcaptokens'), { mcap_usd: 50_000, days: 3 })).status, 200);
      assert.equal(Credits.parse((await call(sb, 'GET', '/credits')).body), 999_999_500);
      t += 30 * day - 1;
      assert.equal(sb.balance(), 999_999_500);
      t += 1;
      assert.equal(Credits.parse((await call(sb, 'GET', '/credits')).body), 1_000_000_000);
      // Spend in the second period; two periods later it is full again, not more.
      assert.equal((await callEp(sb, endpoint('trending'), { hours: 1 })).status, 200);
      assert.equal(sb.balance(), 999_999_950);
      t += 65 * day;
      assert.equal(sb.balance(), 1_000_000_000);
      assert.deepEqual(sb.ledger().map((e) => e.at), [Date.UTC(2025, 0, 1), Date.UTC(2025, 0, 31)]);
    } finally {
      await sb.close();
    }
  });
});
