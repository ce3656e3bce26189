/**
 * The key's boundaries: sent only to the base URL's origin (asserted on the server side),
 * never in a URL, never in an error message or a log line, even when a server echoes it.
 * And the log hook: what it reports per call.
 */
import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { WalletAnalyticsApi, type CallLog } from '../../../../src/core/transport/api';
import { downloadFrom } from '../../../../src/core/results/download';
import { endpoint } from '../../../../src/core/spec/catalog';
import { InsecureUrlError, WalletApiError } from '../../../../src/core/errors';
import { SAMPLE_QUERY, sampleInput } from '../../../../src/core/spec/samples';
import { closedPort, errorBody, json, startFixture, type Fixture } from '../../fixtures/httpFixture';

const KEY = 'wa_test_KEY_secure_5f5f5f5f';
let home: Fixture;
let elsewhere: Fixture;
let dir: string;

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'wa-sec-'));
  // A second origin: another port on loopback (scheme + host + port make the origin).
  elsewhere = await startFixture((h, res) => {
    res.writeHead(200, { 'content-type': 'text/csv' });
    res.end(`a,b\n1,${h.headers.api_key === undefined ? 'nokey' : 'KEY'}\n`);
  });
  home = await startFixture((h, res) => {
    const echo = `${h.headers.api_key ?? ''}`;
    switch (h.path.split('?')[0]) {
      case '/files/r1.csv':
        res.writeHead(200, { 'content-type': 'text/csv' });
        return res.end('a,b\n1,2\n');
      case '/files/redirect.csv':
        res.writeHead(302, { location: `${elsewhere.url}/r2.csv` });
        return res.end();
      case '/wallet_database':
        return json(res, 200, { total: 3, wallets: [{ address: 'a' }], extra: true });
      case '/token_creators':
        return json(res, 200, { creators: [{ address: 'x' }, { address: 'y' }] });
      case '/credits':
        return json(res, 200, '1000');
      case '/e400':
        return json(res, 400, errorBody('bad_input', `bad key ${echo}`));
      default:
        break;
    }
    // Every other path answers an error that echoes the key back, in every shape we accept.
    const shape = { '/x': 0, '/findaddress': 0, '/wxyz': 0, '/xy': 1, '/xyz': 2, '/abcde': 3 }[h.path.split('?')[0] ?? ''] ?? 2;
    if (shape === 0) json(res, 401, errorBody('key_refused', `key ${echo} unknown`));
    else if (shape === 1) json(res, 403, { error: { code: 'ip_mismatch', message: `ip mismatch for ${echo}` } });
    else if (shape === 2) json(res, 500, { message: `crash with ${echo}` });
    else {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end(`no such thing for ${echo}`);
    }
  });
});

after(async () => {
  await Promise.all([home.close(), elsewhere.close()]);
  await rm(dir, { recursive: true, force: true });
});

function client(onLog?: (l: CallLog) => void, baseUrl = home.url): WalletAnalyticsApi {
  return new WalletAnalyticsApi({ baseUrl, apiKey: () => Promise.resolve(KEY), retry: { attempts: 2, baseDelayMs: 1 }, onLog });
}

describe('the key never leaves the base origin', () => {
  it('a result file on the base origin is downloaded with the key', async () => {
    const r = await downloadFrom(client(), `${home.url}/files/r1.csv`, dir);
    assert.equal(home.hits.at(-1)?.headers.api_key, KEY);
    assert.equal(await readFile(r.path, 'utf8'), 'a,b\n1,2\n');
  });

  it('a result file on another origin is downloaded without the key', async () => {
    const before = elsewhere.hits.length;
    const r = await downloadFrom(client(), `${elsewhere.url}/r1.csv`, dir);
    const hit = elsewhere.hits[before];
    assert.ok(hit);
    assert.equal(hit.headers.api_key, undefined);
    assert.ok(!JSON.stringify(hit.headers).includes(KEY));
    assert.match(await readFile(r.path, 'utf8'), /nokey/u);
  });

  it('a redirect from the base origin to another drops the key at the hop', async () => {
    const before = elsewhere.hits.length;
    const r = await downloadFrom(client(), `${home.url}/files/redirect.csv`, dir);
    assert.equal(home.hits.at(-1)?.headers.api_key, KEY);
    assert.equal(elsewhere.hits[before]?.headers.api_key, undefined);
    assert.match(await readFile(r.path, 'utf8'), /nokey/u);
  });

  it('a plain http:// file URL on a non-loopback host is refused', async () => {
    await assert.rejects(downloadFrom(client(), 'http://files.example.com/r1.csv', dir), InsecureUrlError);
  });

  it('the key is never in a URL the server sees', () => {
    for (const h of [...home.hits, ...elsewhere.hits]) assert.ok(!h.path.includes(KEY), h.path);
  });
});

describe('the key is redacted from every error and log line', () => {
  it('errors whose bodies echo the key, and their log lines, never show it', async () => {
    const lines: string[] = [];
    const api = client((l) => lines.push(JSON.stringify(l)));
    const errors: WalletApiError[] = [];
    const attempts: Promise<unknown>[] = [
      api.credits(), // a success, for the log
      api.http.send({ method: 'GET', path: '/e400', paid: false }),
      api.http.send({ method: 'GET', path: '/x', paid: false }),
      api.http.send({ method: 'GET', path: '/xy', paid: false }),
      api.http.send({ method: 'GET', path: '/xyz', paid: true }),
      api.http.send({ method: 'POST', path: '/wxyz', paid: true, body: { k: 1 } }),
      api.http.send({ method: 'GET', path: '/abcde', paid: false }),
    ];
    // Settled together: a rejection that comes before an earlier promise resolves is not left unhandled.
    for (const r of await Promise.allSettled(attempts)) {
      if (r.status === 'fulfilled') continue;
      assert.ok(r.reason instanceof WalletApiError, String(r.reason));
      errors.push(r.reason);
    }
    assert.equal(errors.length, 6);
    assert.deepEqual(new Set(errors.map((e) => e.kind)), new Set(['badInput', 'keyRefused', 'ipMismatch', 'server', 'notFound']));
    for (const e of errors) {
      for (const text of [e.message, e.stack ?? '', e.serverMessage ?? '', JSON.stringify(e)]) {
        assert.ok(!text.includes(KEY), `key in ${e.kind}: ${text}`);
      }
      assert.match(e.message, /‹redacted›/u, `${e.kind} shows where the echoed key was: ${e.message}`);
    }
    assert.ok(lines.length >= 7);
    for (const l of lines) {
      assert.ok(!l.includes(KEY), l);
      assert.ok(!/api_key|headers/iu.test(l), `no headers in a log line: ${l}`);
    }
  });

  it('a network error message holds no key', async () => {
    const port = await closedPort();
    await assert.rejects(client(undefined, `http://127.0.0.1:${port}`).credits(), (e: unknown) => e instanceof Error && !e.message.includes(KEY));
  });
});

describe('the log hook', () => {
  it('reports method, path and query, status, duration, credits quoted and charged', async () => {
    const logs: CallLog[] = [];
    const api = client((l) => logs.push(l));
    const db = await api.walletDatabase('main', SAMPLE_QUERY);
    assert.equal(db.total, 3);
    assert.equal((db as Record<string, unknown>).extra, true, 'extra fields are kept');
    const page = await api.creators(sampleInput(endpoint('token_creators')));
    assert.equal(page.creators.length, 2);
    await api.credits();
    await assert.rejects(api.call('findaddress', { fragment: 'abcd' }));
    // The field list a query is checked against (free) is read first; this test is about the calls themselves.
    const [w, c, cr, fa] = logs.filter((l) => !l.path.endsWith('/columns'));
    assert.deepEqual([w?.method, w?.path, w?.status, w?.quoted, w?.charged], ['POST', '/wallet_database', 200, 100, 300]);
    assert.deepEqual([c?.path, c?.quoted, c?.charged], ['/token_creators', 5000, 200]);
    assert.deepEqual([cr?.path, cr?.quoted, cr?.charged], ['/credits', 0, 0]);
    assert.deepEqual([fa?.path, fa?.status, fa?.charged, fa?.error], ['/findaddress?fragment=abcd', 401, 0, 'keyRefused']);
    for (const l of logs) assert.ok(typeof l.durationMs === 'number' && l.durationMs >= 0);
  });

  it('the generic call returns the credits charged', async () => {
    const r = await client().call('wallet_database', { query: SAMPLE_QUERY });
    assert.equal(r.charged, 300);
    assert.equal(r.endpoint.id, 'wallet_database');
  });

  it('leaves no temporary files from downloads in the folder', async () => {
    const names = await readdir(dir);
    assert.ok(names.every((n) => !n.startsWith('.')), names.join(', '));
  });
});
