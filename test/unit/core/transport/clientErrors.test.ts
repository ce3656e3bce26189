/**
 * Every typed error of the client, provoked against a loopback fixture server, with the
 * message a person reads checked, and `charged` checked.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { WalletAnalyticsApi, type ApiOptions } from '../../../../src/core/transport/api';
import { endpoint } from '../../../../src/core/spec/catalog';
import {
  AckTimeoutError,
  BadInputError,
  CancelledError,
  InsecureUrlError,
  InsufficientCreditsError,
  IpMismatchError,
  KeyRefusedError,
  MalformedResponseError,
  MissingKeyError,
  NetworkError,
  NoAnswerError,
  NotFoundError,
  RateLimitedError,
  ServerError,
  unreachableWords,
  type WalletApiError,
} from '../../../../src/core/errors';
import { sampleInput } from '../../../../src/core/spec/samples';
import { walletAddresses } from '../../../../src/sandbox/wallets';
import { closedPort, drop, errorBody, json, fixtureServer, type Fixture } from '../../fixtures/httpFixture';

const KEY = 'wa_test_KEY_0123456789abcdef';
const trending = sampleInput(endpoint('trending'));
const serve = fixtureServer();

function client(f: Fixture | string, extra: Partial<ApiOptions> = {}): WalletAnalyticsApi {
  return new WalletAnalyticsApi({
    baseUrl: typeof f === 'string' ? f : f.url,
    apiKey: () => Promise.resolve(KEY),
    retry: { attempts: 1 },
    ...extra,
  });
}

/** Awaits a rejection and returns the error, asserting its class and that the key is nowhere in it. */
async function failure<E extends WalletApiError>(p: Promise<unknown>, cls: abstract new (...a: never[]) => E): Promise<E> {
  try {
    await p;
  } catch (e) {
    assert.ok(e instanceof cls, `expected ${cls.name}, got ${String(e)}`);
    assert.ok(!e.message.includes(KEY), `key leaked into the message: ${e.message}`);
    assert.ok(!(e.stack ?? '').includes(KEY), 'key leaked into the stack');
    return e;
  }
  assert.fail(`expected ${cls.name}, but the call succeeded`);
}

describe('client errors: each refusal and failure is typed, actionable, and says what it cost', () => {
  it('key refused (401) → run “Set API Key”, nothing charged', async () => {
    const f = await serve((_h, res) => json(res, 401, errorBody('key_refused', `Unknown key ${KEY}`)));
    const e = await failure(client(f).submit('trending', trending), KeyRefusedError);
    assert.equal(e.kind, 'keyRefused');
    assert.equal(e.charged, 'no');
    assert.match(e.message, /Wallet Analytics: Set API Key/u);
    assert.match(e.message, /Nothing was charged\./u);
    assert.match(e.message, /‹redacted›/u, 'the echoed key is replaced, not just cut');
  });

  it('request from another IP (403 ip_mismatch) → suggests the free “Reset Saved IP Address”', async () => {
    const f = await serve((_h, res) => json(res, 403, errorBody('ip_mismatch', 'Key is bound to 10.0.0.1')));
    const e = await failure(client(f).submit('trending', trending), IpMismatchError);
    assert.equal(e.kind, 'ipMismatch');
    assert.equal(e.charged, 'no');
    assert.match(e.message, /Wallet Analytics: Reset Saved IP Address/u);
    assert.match(e.message, /free/u);
    assert.match(e.message, /Nothing was charged\./u);
  });

  it('request from another IP (403 ip_mismatch) → says the call came from a machine whose address differs, and why a remote window does that', async () => {
    const f = await serve((_h, res) => json(res, 403, errorBody('ip_mismatch', 'Key is bound to 10.0.0.1')));
    const e = await failure(client(f).submit('trending', trending), IpMismatchError);
    // §5.3: the key is bound to one IP address; the person must learn which machine sent the call.
    assert.match(e.message, /bound to one IP address/u);
    assert.match(e.message, /came from a machine whose address differs/u);
    // In a Remote (SSH, WSL, Codespaces) window calls leave from the remote machine, not the desk.
    assert.match(e.message, /remote window \(SSH, WSL, Codespaces\)/u);
    assert.match(e.message, /calls leave from the remote machine/u);
    assert.match(e.message, /“Wallet Analytics: Reset Saved IP Address” \(free\) binds the key to the machine that makes the next call/u);
    assert.match(e.message, /The server said: “Key is bound to 10\.0\.0\.1”\./u);
  });

  it('not enough credits (402) → the price, the balance and “Nothing was charged.”', async () => {
    const f = await serve((_h, res) => json(res, 402, { error: { code: 'insufficient_credits', message: 'Balance too low', balance: 40 } }));
    const e = await failure(client(f).submit('trending', trending), InsufficientCreditsError);
    assert.equal(e.balance, 40);
    assert.equal(e.needed, 50);
    assert.match(e.message, /costs 50/u);
    assert.match(e.message, /balance is 40/u);
    assert.match(e.message, /Nothing was charged\./u);
  });

  it('not enough credits without a balance in the body uses the last balance seen', async () => {
    const f = await serve((h, res) => (h.path === '/credits' ? json(res, 200, '12') : json(res, 402, errorBody('insufficient_credits', 'no'))));
    const api = client(f);
    assert.equal(await api.credits(), 12);
    const e = await failure(api.submit('trending', trending), InsufficientCreditsError);
    assert.match(e.message, /balance is 12/u);
  });

  it('bad input refused by the server (400) → shows the server’s message', async () => {
    const f = await serve((_h, res) => json(res, 400, errorBody('bad_input', 'hours must be between 1 and 24')));
    const e = await failure(client(f).submit('trending', trending), BadInputError);
    assert.equal(e.source, 'server');
    assert.equal(e.charged, 'no');
    assert.match(e.message, /hours must be between 1 and 24/u);
    assert.match(e.message, /Nothing was charged\./u);
  });

  it('bad input caught by validateInput → reported before any network call', async () => {
    const f = await serve((_h, res) => json(res, 200, { requestId: 'r1' }));
    const e = await failure(client(f).submit('trending', { hours: 99 }), BadInputError);
    assert.equal(e.source, 'client');
    assert.match(e.message, /Hours must be a whole number from 1 to 24\./u);
    assert.match(e.message, /Nothing was sent\. Nothing was charged\./u);
    assert.equal(f.hits.length, 0);
  });

  it('rate limited (429) on a paid call → the wait from Retry-After, nothing charged', async () => {
    const f = await serve((_h, res) => json(res, 429, errorBody('rate_limited', 'slow down'), { 'retry-after': '120' }));
    const e = await failure(client(f, { retry: { attempts: 3 } }).submit('trending', trending), RateLimitedError);
    assert.equal(e.retryAfterMs, 120_000);
    assert.match(e.message, /wait 120 s/u);
    assert.match(e.message, /Nothing was charged\./u);
    assert.equal(f.hits.length, 1, 'a Retry-After beyond the cap is reported, not waited for');
  });

  it('rate limited (429) with Retry-After: the GET waits that long, then succeeds', async () => {
    const f = await serve((_h, res, _r, n) => (n === 1 ? json(res, 429, errorBody('rate_limited', 'wait'), { 'retry-after': '1' }) : json(res, 200, '5000')));
    const t0 = Date.now();
    assert.equal(await client(f, { retry: { attempts: 3, baseDelayMs: 1 } }).credits(), 5000);
    assert.ok(Date.now() - t0 >= 950, `waited ${Date.now() - t0} ms, Retry-After said 1 s`);
    assert.equal(f.hits.length, 2);
  });

  it('server error (5xx) on a paid call → charged unknown, check history', async () => {
    const f = await serve((_h, res) => json(res, 500, errorBody('server_error', 'boom')));
    const e = await failure(client(f).submit('trending', trending), ServerError);
    assert.equal(e.status, 500);
    assert.equal(e.charged, 'unknown');
    assert.match(e.message, /HTTP 500/u);
    assert.match(e.message, /may have been charged/u);
    assert.match(e.message, /Request History/u);
  });

  it('server error (5xx) on a free call → charged no', async () => {
    const f = await serve((_h, res) => json(res, 503, { message: 'maintenance' }));
    const e = await failure(client(f).credits(), ServerError);
    assert.equal(e.charged, 'no');
    assert.match(e.message, /maintenance/u);
  });

  it('malformed JSON → says the answer is not JSON', async () => {
    const f = await serve((_h, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<html>proxy error</html>');
    });
    const e = await failure(client(f).submit('trending', trending), MalformedResponseError);
    assert.match(e.message, /not JSON/u);
    assert.match(e.message, /<html>proxy error/u);
    assert.equal(e.charged, 'unknown', 'a 2xx to a paid call may have been accepted');
  });

  it('wrong shape → names the field that was wrong', async () => {
    const f = await serve((_h, res) => json(res, 200, { id: 'r1' }));
    const e = await failure(client(f).submit('trending', trending), MalformedResponseError);
    assert.match(e.problem, /requestId/u);
    assert.match(e.message, /GET \/trending/u);
  });

  it('a credits answer that is not a number → malformed, with the value', async () => {
    const f = await serve((_h, res) => json(res, 200, 'lots'));
    const e = await failure(client(f).credits(), MalformedResponseError);
    assert.match(e.message, /"lots"/u);
    assert.equal(e.charged, 'no');
  });

  it('network error: connection refused → not sent, nothing charged', async () => {
    const port = await closedPort();
    const e = await failure(client(`http://127.0.0.1:${port}`).submit('trending', trending), NetworkError);
    assert.equal(e.sent, false);
    assert.equal(e.code, 'ECONNREFUSED');
    assert.equal(e.charged, 'no');
    assert.match(e.message, /Nothing was sent\. Nothing was charged\./u);
    assert.match(e.message, new RegExp(`^127\\.0\\.0\\.1:${port} refused the connection: nothing listens at that address and port`, 'u'));
    assert.match(e.message, /change walletAnalytics\.baseUrl in your user settings/u, 'the setting to change is named');
  });

  it('a request that never left says why in words, and which setting to change (issue 23 item 7)', () => {
    const origin = 'https://api.wallet-analytics.invalid';
    const dns = new NetworkError({ sent: false, code: 'ENOTFOUND', detail: 'getaddrinfo ENOTFOUND api.wallet-analytics.invalid', origin });
    assert.match(dns.message, /^No server named api\.wallet-analytics\.invalid exists: the name is unknown to DNS, so the address is probably wrong \(getaddrinfo/u);
    assert.match(dns.message, /Nothing was sent\. Nothing was charged\. If the address is wrong, change walletAnalytics\.baseUrl in your user settings/u);
    assert.equal(dns.viaProxy, false);
    assert.match(unreachableWords('EAI_AGAIN', origin), /could not be looked up \(DNS did not answer\)/u);
    assert.match(unreachableWords('UND_ERR_CONNECT_TIMEOUT', origin), /did not accept a connection in time/u);
    assert.match(unreachableWords('EHOSTUNREACH', origin), /^The network cannot reach api\.wallet-analytics\.invalid$/u);
    assert.match(unreachableWords('ERR_TLS_CERT_ALTNAME_INVALID', origin), /certificate was not accepted/u);
    assert.equal(unreachableWords(undefined, origin), `Could not reach ${origin}`);
    // A proxy that failed is what to change then, not the API's address.
    const proxy = new NetworkError({ sent: false, code: 'ECONNREFUSED', detail: 'could not reach the proxy http://127.0.0.1:3128 (ECONNREFUSED); check http.proxy or HTTPS_PROXY', origin, proxy: true });
    assert.equal(proxy.viaProxy, true);
    assert.doesNotMatch(proxy.message, /refused the connection|walletAnalytics\.baseUrl/u);
  });

  it('no answer within the client’s own ackTimeoutMs on a paid submit → charged unknown, never “not charged”', async () => {
    // The server may have accepted (and charged) it inside its own 100 s window: only its 504 proves otherwise.
    const f = await serve(() => undefined); // never answers
    const e = await failure(client(f, { ackTimeoutMs: 200 }).submit('pnl', sampleInput(endpoint('pnl'))), NoAnswerError);
    assert.equal(e.kind, 'noAnswer');
    assert.equal(e.charged, 'unknown');
    assert.match(e.message, /may have been charged/u);
    assert.match(e.message, /Request History/u);
    assert.doesNotMatch(e.message, /not charged|Nothing was charged/u);
    assert.equal(f.hits.length, 1);
  });

  it('no answer within the client’s own timer on a paid direct call → “may have been charged”, running it again may charge again', async () => {
    const f = await serve(() => undefined);
    const creator = sampleInput(endpoint('token_creator')).address as string;
    const e = await failure(client(f, { ackTimeoutMs: 200 }).creator(creator), NoAnswerError);
    assert.equal(e.charged, 'unknown');
    assert.match(e.message, /may have been charged/u);
    assert.match(e.message, /may charge again/u);
    assert.doesNotMatch(e.message, /not charged|Nothing was charged/u);
  });

  it('a connection lost after a paid direct call was sent → “may have been charged”', async () => {
    const f = await serve((_h, res) => drop(res));
    const e = await failure(client(f).altPnl(sampleInput(endpoint('altchain_pnl')).wallet as string), NetworkError);
    assert.equal(e.sent, true);
    assert.equal(e.charged, 'unknown');
    assert.match(e.message, /may have been charged/u);
    assert.match(e.message, /may charge again/u);
  });

  it('ack timeout refused by the server (504 ack_timeout) → AckTimeoutError: not queued, not charged', async () => {
    const f = await serve((_h, res) => json(res, 504, errorBody('ack_timeout', 'not acknowledged within 100 s')));
    const e = await failure(client(f).submit('trending', trending), AckTimeoutError);
    assert.equal(e.charged, 'no');
    assert.match(e.message, /within 100 s.*not queued, not charged/u);
    assert.match(e.message, /Nothing was charged\./u);
  });

  it('not found (404) → NotFoundError naming the request', async () => {
    const f = await serve((_h, res) => json(res, 404, errorBody('not_found', 'No request req_gone')));
    const e = await failure(client(f).request('req_gone'), NotFoundError);
    assert.equal(e.charged, 'no');
    assert.match(e.message, /GET \/request\/req_gone/u);
    assert.match(e.message, /No request req_gone/u);
    // What to do next, in words any host can act on (the toast of "Check a Request…" once ended at
    // the server's words): check the id, and the key it was sent with.
    assert.match(e.message, /Check the id, and that this key is the one it was sent with/u);
  });

  it('not found (404) on another path says no word about request ids', async () => {
    const f = await serve((_h, res) => json(res, 404, errorBody('not_found', 'No such creator')));
    const e = await failure(client(f).call('trending', trending), NotFoundError);
    assert.doesNotMatch(e.message, /Check the id/u);
  });

  it('no key set → run “Set API Key”, nothing sent', async () => {
    const f = await serve((_h, res) => json(res, 200, '1'));
    const api = new WalletAnalyticsApi({ baseUrl: f.url, apiKey: () => Promise.resolve(undefined) });
    const e = await failure(api.credits(), MissingKeyError);
    assert.match(e.message, /Wallet Analytics: Set API Key/u);
    assert.equal(f.hits.length, 0);
  });

  it('an unexpected redirect is not followed (the key stays home)', async () => {
    const f = await serve((_h, res) => {
      res.writeHead(302, { location: 'http://127.0.0.2:9/credits' });
      res.end();
    });
    const e = await failure(client(f).credits(), MalformedResponseError);
    assert.match(e.message, /redirect/u);
    assert.equal(f.hits.length, 1);
  });

  it('plain http:// base URL is refused for a non-loopback host, accepted for loopback', () => {
    const make = (baseUrl: string) => () => new WalletAnalyticsApi({ baseUrl, apiKey: () => Promise.resolve(KEY) });
    for (const bad of ['http://example.com', 'http://10.0.0.1:8080', 'http://128.0.0.1', 'ftp://127.0.0.1']) {
      assert.throws(make(bad), (e: unknown) => e instanceof InsecureUrlError && /https:\/\//u.test(e.message), bad);
    }
    assert.throws(make('https://user:pw@example.com'), InsecureUrlError);
    assert.throws(make('not a url'), BadInputError);
    for (const ok of ['https://api.example.com', 'http://127.0.0.1:3000', 'http://127.0.0.2', 'http://localhost:8080', 'http://[::1]:8080']) {
      assert.doesNotThrow(make(ok), ok);
    }
  });
});

describe('client answers: tolerant of extra fields and the documented quirks', () => {
  it('/credits: a number in a string, a bare number, an object, or plain text', async () => {
    const bodies = ['"1000000000"', '999', '{"credits":"1234"}', '777\n'];
    const f = await serve((_h, res, _r, n) => {
      res.writeHead(200, { 'content-type': n === 4 ? 'text/plain' : 'application/json' });
      res.end(bodies[n - 1]);
    });
    const api = client(f);
    assert.equal(await api.credits(), 1_000_000_000);
    assert.equal(await api.credits(), 999);
    assert.equal(await api.credits(), 1234);
    assert.equal(await api.credits(), 777);
  });

  it('a queued record has url "" until done; extra fields are kept', async () => {
    const f = await serve((_h, res, _r, n) =>
      json(res, 200, n === 1 ? { requestId: 'r1', status: 'queued', eta: 3 } : { requestId: 'r1', url: 'https://files.example/r1.csv', status: 'done' }),
    );
    const api = client(f);
    const queued = await api.request('r1');
    assert.equal(queued.url, '');
    assert.equal((queued as Record<string, unknown>).eta, 3);
    assert.equal((await api.request('r1')).url, 'https://files.example/r1.csv');
  });

  it('GET inputs go as query parameters, POST inputs as a JSON body; the key only in the api_key header', async () => {
    const f = await serve((h, res) => json(res, 200, { requestId: h.method === 'GET' ? 'g' : 'p' }));
    const api = client(f);
    await api.submit('trending', { hours: 6 });
    const wallets = sampleInput(endpoint('pnl')).wallets as string[];
    await api.submit('pnl', { wallets });
    const [get, post] = f.hits;
    assert.equal(get?.path, '/trending?hours=6');
    assert.equal(get?.headers.api_key, KEY);
    assert.equal(post?.method, 'POST');
    assert.deepEqual(JSON.parse(post?.body ?? ''), { wallets });
    assert.equal(post?.headers['content-type'], 'application/json');
    assert.ok(!get?.path.includes(KEY) && !post?.path.includes(KEY));
  });

  it("a list of 100,000 is sent as JSON.stringify's text to the byte, written a slice at a time (it was one stretch of 18–60 ms of the host's loop)", async () => {
    const f = await serve((_h, res) => json(res, 200, { requestId: 'p' }));
    const api = client(f);
    const wallets = walletAddresses('main', 34, 100_000);
    // The longest text JSON.stringify made while the call was sent: the whole 4.7 MB body in one call before.
    const stringify = JSON.stringify;
    let longest = 0;
    JSON.stringify = function measured(...a: Parameters<typeof JSON.stringify>): string {
      const text = stringify.apply(JSON, a);
      longest = Math.max(longest, text?.length ?? 0);
      return text;
    } as typeof JSON.stringify;
    try {
      await api.submit('pnl', { wallets });
    } finally {
      JSON.stringify = stringify;
    }
    const post = f.hits[0];
    assert.equal(post?.body, JSON.stringify({ wallets }));
    assert.ok(longest < (post?.body.length ?? 0) / 5, `JSON.stringify wrote ${longest} characters in one call for a body of ${post?.body.length ?? 0}`);
  });

  it('a paid call cancelled while its long body is written is not sent: Cancelled, not charged (the body is written over several turns)', async () => {
    const f = await serve((_h, res) => json(res, 200, { requestId: 'p' }));
    const api = client(f);
    const wallets = walletAddresses('main', 34, 100_000);
    const ac = new AbortController();
    // The person cancels while the first slice of the list is written: the next slices come in later turns.
    const stringify = JSON.stringify;
    JSON.stringify = function cancelling(...a: Parameters<typeof JSON.stringify>): string {
      if (Array.isArray(a[0]) && a[0].length > 1_000 && !ac.signal.aborted) ac.abort();
      return stringify.apply(JSON, a);
    } as typeof JSON.stringify;
    let error: unknown;
    try {
      await api.submit('pnl', { wallets }, ac.signal);
    } catch (e) {
      error = e;
    } finally {
      JSON.stringify = stringify;
    }
    assert.ok(ac.signal.aborted, 'the cancel came while the body was written');
    assert.ok(error instanceof CancelledError, String(error));
    assert.equal(error.charged, 'no');
    assert.equal(f.hits.length, 0, 'nothing reached the server');
  });

  it('a base URL with a path prefix keeps it', async () => {
    const f = await serve((_h, res) => json(res, 200, '1'));
    await client(`${f.url}/api/v1/`).credits();
    assert.equal(f.hits[0]?.path, '/api/v1/credits');
  });
});
