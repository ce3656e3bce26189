/**
 * Retries: free GETs recover from 5xx, 429 and drops; a paid call or a POST is retried only
 * when the failure proves the server did not accept it, so nothing is charged twice.
 * The fixture server counts what it saw: that count is the proof.
 */
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { describe, it } from 'node:test';
import { WalletAnalyticsApi, type ApiOptions, type CallLog } from '../../../../src/core/transport/api';
import { endpoint } from '../../../../src/core/spec/catalog';
import { CancelledError, NetworkError, ServerError, type WalletApiError } from '../../../../src/core/errors';
import { parseRetryAfter } from '../../../../src/core/transport/httpFailures';
import { sampleInput } from '../../../../src/core/spec/samples';
import { closedPort, drop, errorBody, json, fixtureServer } from '../../fixtures/httpFixture';

const KEY = 'wa_test_KEY_retry_987654321';
const fast = { attempts: 4, baseDelayMs: 5, maxDelayMs: 20 };
const serve = fixtureServer();

function client(baseUrl: string, extra: Partial<ApiOptions> = {}): WalletAnalyticsApi {
  return new WalletAnalyticsApi({ baseUrl, apiKey: () => Promise.resolve(KEY), retry: fast, ...extra });
}

async function rejects(p: Promise<unknown>): Promise<WalletApiError> {
  try {
    await p;
  } catch (e) {
    return e as WalletApiError;
  }
  assert.fail('expected the call to fail');
}

const pnl = sampleInput(endpoint('pnl'));
const trending = sampleInput(endpoint('trending'));

describe('retries of paid calls and POSTs: never a second charge', () => {
  it('an accepted submit is sent exactly once', async () => {
    const f = await serve((_h, res) => json(res, 200, { requestId: 'r1' }));
    const ack = await client(f.url).submit('pnl', pnl);
    assert.equal(ack.requestId, 'r1');
    assert.equal(f.hits.length, 1);
  });

  it('a paid POST that gets a 5xx is not retried (the server saw exactly one request)', async () => {
    const f = await serve((_h, res) => json(res, 502, errorBody('server_error', 'upstream')));
    const e = await rejects(client(f.url).submit('pnl', pnl));
    assert.ok(e instanceof ServerError);
    assert.equal(e.charged, 'unknown');
    assert.equal(f.hits.length, 1);
  });

  it('a paid POST whose connection drops after sending is not retried; charged unknown', async () => {
    const f = await serve((_h, res) => drop(res));
    const e = await rejects(client(f.url).submit('pnl', pnl));
    assert.ok(e instanceof NetworkError);
    assert.equal(e.sent, true);
    assert.equal(e.charged, 'unknown');
    assert.match(e.message, /may have been charged/u);
    assert.equal(f.hits.length, 1);
  });

  it('a paid call whose own timer fires is not retried: the server may have accepted it', async () => {
    // 1.5 s, not less: on a loaded machine a shorter timer fired before the request reached the server (seen in a full run).
    const f = await serve((_h, res, _r, n) => (n === 1 ? undefined : json(res, 200, { requestId: 'second' })));
    const logs: CallLog[] = [];
    const e = await rejects(client(f.url, { ackTimeoutMs: 1500, onLog: (l) => logs.push(l) }).submit('pnl', pnl));
    assert.equal(e.charged, 'unknown');
    assert.equal(f.hits.length, 1, 'sent once');
    assert.deepEqual(
      logs.map((l) => [l.attempt, l.charged, l.willRetry]),
      [[1, undefined, false]],
    );
  });

  it('a paid GET submit that drops or gets a 5xx is not retried either', async () => {
    const f = await serve((_h, res, _r, n) => (n === 1 ? drop(res) : json(res, 500, errorBody('server_error', 'x'))));
    const api = client(f.url);
    assert.ok((await rejects(api.submit('trending', trending))) instanceof NetworkError);
    assert.ok((await rejects(api.submit('trending', trending))) instanceof ServerError);
    assert.equal(f.hits.length, 2, 'one request per call');
  });

  it('paid direct GETs (activity page, creator) are not retried on 5xx', async () => {
    const f = await serve((_h, res) => json(res, 503, errorBody('server_error', 'x')));
    const api = client(f.url);
    const act = sampleInput(endpoint('wallet_activity'));
    assert.ok((await rejects(api.activityPage('main', act.address as string))) instanceof ServerError);
    assert.ok((await rejects(api.creator(act.address as string))) instanceof ServerError);
    assert.equal(f.hits.length, 2);
  });

  it('the free POST /reset_ip is not retried on 5xx', async () => {
    const f = await serve((_h, res) => json(res, 500, errorBody('server_error', 'x')));
    assert.ok((await rejects(client(f.url).resetIp())) instanceof ServerError);
    assert.equal(f.hits.length, 1);
  });

  it('a 429 refusal proves non-acceptance: the paid submit is retried and charged once', async () => {
    const f = await serve((_h, res, _r, n) =>
      n === 1 ? json(res, 429, errorBody('rate_limited', 'wait'), { 'retry-after': '0' }) : json(res, 200, { requestId: 'r2' }),
    );
    assert.equal((await client(f.url).submit('pnl', pnl)).requestId, 'r2');
    assert.equal(f.hits.length, 2);
  });

  it('a refused connection is reported as not sent after bounded retries', async () => {
    const port = await closedPort();
    const logs: CallLog[] = [];
    const e = await rejects(client(`http://127.0.0.1:${port}`, { onLog: (l) => logs.push(l) }).submit('pnl', pnl));
    assert.ok(e instanceof NetworkError);
    assert.equal(e.sent, false);
    assert.equal(e.charged, 'no');
    assert.deepEqual(
      logs.map((l) => [l.attempt, l.error, l.willRetry]),
      [
        [1, 'network', true],
        [2, 'network', true],
        [3, 'network', true],
        [4, 'network', false],
      ],
    );
  });

  it('a refused connection is retried: the submit lands once the server is up', async () => {
    const port = await closedPort();
    let seen = 0;
    const server = createServer((_req, res) => {
      seen++;
      json(res, 200, { requestId: 'late' });
    });
    const api = client(`http://127.0.0.1:${port}`, { retry: { attempts: 6, baseDelayMs: 100, maxDelayMs: 200 } });
    const pending = api.submit('pnl', pnl);
    setTimeout(() => server.listen(port, '127.0.0.1'), 60);
    try {
      assert.equal((await pending).requestId, 'late');
      assert.equal(seen, 1);
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });
});

describe('retries of free GETs: they recover', () => {
  it('recovers from injected 5xx', async () => {
    const f = await serve((_h, res, _r, n) => (n < 3 ? json(res, 503, errorBody('server_error', 'x')) : json(res, 200, '42')));
    assert.equal(await client(f.url).credits(), 42);
    assert.equal(f.hits.length, 3);
  });

  it('recovers from 429 and from a dropped connection', async () => {
    const f = await serve((_h, res, _r, n) => {
      if (n === 1) json(res, 429, errorBody('rate_limited', 'x'), { 'retry-after': '0' });
      else if (n === 2) drop(res);
      else json(res, 200, [{ requestId: 'a', url: '' }]);
    });
    assert.deepEqual(
      (await client(f.url).requests()).map((r) => r.requestId),
      ['a'],
    );
    assert.equal(f.hits.length, 3);
  });

  it('recovers from a truncated JSON body', async () => {
    const f = await serve((_h, res, _r, n) => {
      if (n === 1) {
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
        res.write('{"requestId":');
        setTimeout(() => res.socket?.destroy(), 5);
      } else json(res, 200, { requestId: 'r', url: '' });
    });
    assert.equal((await client(f.url).request('r')).requestId, 'r');
    assert.equal(f.hits.length, 2);
  });

  it('gives up after the bounded number of attempts', async () => {
    const f = await serve((_h, res) => json(res, 500, errorBody('server_error', 'x')));
    assert.ok((await rejects(client(f.url, { retry: { ...fast, attempts: 3 } }).credits())) instanceof ServerError);
    assert.equal(f.hits.length, 3);
  });

  it('a wait between retries is cancelled by the AbortSignal', async () => {
    const ac = new AbortController();
    // The signal ends the call 100 ms after its first try is answered, not 100 ms after it began:
    // at a load of 20 the clock from the start ended it before the try was sent (0 tries seen).
    const f = await serve((_h, res) => {
      json(res, 503, errorBody('server_error', 'x'));
      setTimeout(() => ac.abort(), 100);
    });
    // The wait between tries is an hour: only the signal can end it, so the rejection is the proof
    // (no clock read: a loaded machine is no reason to fail, issue 31.6).
    const hour = 3_600_000;
    const e = await rejects(client(f.url, { retry: { attempts: 5, baseDelayMs: hour, maxDelayMs: hour } }).credits(ac.signal));
    assert.ok(e instanceof CancelledError);
    assert.equal(e.charged, 'no');
    assert.equal(f.hits.length, 1, 'one try, then the wait the signal ended');
  });

  it('a free GET that gets no answer in timeoutMs is retried', async () => {
    const f = await serve((_h, res, _r, n) => (n === 1 ? undefined : json(res, 200, '7')));
    assert.equal(await client(f.url, { timeoutMs: 300 }).credits(), 7);
    assert.equal(f.hits.length, 2);
  });
});

describe('Retry-After', () => {
  it('reads delta-seconds and HTTP dates', () => {
    const now = Date.parse('2025-01-01T00:00:00Z');
    assert.equal(parseRetryAfter('3', now), 3000);
    assert.equal(parseRetryAfter('Wed, 01 Jan 2025 00:00:10 GMT', now), 10_000);
    assert.equal(parseRetryAfter('Tue, 31 Dec 2024 23:00:00 GMT', now), 0);
    assert.equal(parseRetryAfter('soon', now), undefined);
    assert.equal(parseRetryAfter(undefined, now), undefined);
  });

  it('an HTTP-date Retry-After is honoured on a GET', async () => {
    const f = await serve((_h, res, _r, n) =>
      n === 1 ? json(res, 429, errorBody('rate_limited', 'x'), { 'retry-after': new Date(Date.now() + 1500).toUTCString() }) : json(res, 200, '1'),
    );
    const t0 = Date.now();
    assert.equal(await client(f.url).credits(), 1);
    // toUTCString drops milliseconds, so the wait is between 0.5 and 1.5 s.
    assert.ok(Date.now() - t0 >= 450, `waited ${Date.now() - t0} ms`);
  });
});
