/**
 * Proxies, against a real forward proxy on loopback (the `proxy` package, the one undici's own
 * tests use), which records what it saw: the CONNECT lines, plain request lines, their headers,
 * and the bytes that crossed each tunnel. The point of every case is what the proxy could learn:
 * host and port only, never the key, a path or a body.
 *
 * The targets are on loopback, which the extension always reaches directly; these tests set
 * `proxyLoopback` so that the proxy is really used, except where the loopback rule itself is tested.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer as createHttpServer, type IncomingHttpHeaders, type IncomingMessage, type Server } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createProxy, type ProxyServer } from 'proxy';
import { WalletAnalyticsApi } from '../../../../src/core/transport/api';
import { downloadFrom } from '../../../../src/core/results/download';
import { endpoint } from '../../../../src/core/spec/catalog';
import { DownloadError, NetworkError, WalletApiError } from '../../../../src/core/errors';
import { proxyDispatcherFor, showProxyUrl, type ProxyChoice, type ProxyOptions } from '../../../../src/core/transport/proxy';
import { sampleInput } from '../../../../src/core/spec/samples';
import { startSandbox, type Sandbox } from '../../../../src/sandbox/index';

function repoRoot(): string {
  for (let d = __dirname; dirname(d) !== d; d = dirname(d)) {
    if (statSync(join(d, 'package.json'), { throwIfNoEntry: false })?.isFile()) return d;
  }
  throw new Error(`no package.json above ${__dirname}`);
}
const TLS_DIR = join(repoRoot(), 'test', 'fixtures', 'tls');
/** Self-signed for localhost, 127.0.0.1 and ::1 (generated once with openssl, valid 30 years). */
const CERT = readFileSync(join(TLS_DIR, 'localhost.cert.pem'));
const KEY = readFileSync(join(TLS_DIR, 'localhost.key.pem'));

const API_KEY = 'sk-proxy-test-5b1f0e9c7a';

/** What the printed proxy log collects across the cases, for the closing note. */
const printed: string[] = [];

// ---- a real forward proxy that records what it saw ----

interface Seen {
  /** 'CONNECT 127.0.0.1:4431' or 'GET http://…/path'. */
  readonly line: string;
  readonly headers: IncomingHttpHeaders;
}

interface RecordingProxy {
  readonly url: string;
  readonly port: number;
  readonly seen: Seen[];
  /** Every byte that crossed the tunnels, client to target. */
  tunnelled(): Buffer;
  reset(): void;
  close(): Promise<void>;
}

async function startProxy(name: string, authenticate?: (req: IncomingMessage) => boolean): Promise<RecordingProxy> {
  const server = createHttpServer();
  const seen: Seen[] = [];
  let bytes: Buffer[] = [];
  // Tunnels leave the server's connection list once hijacked: they are ended here on close.
  const tunnels = new Set<Socket>();
  // Our listeners go first, so every line is recorded before the proxy acts on it.
  server.on('connect', (req: IncomingMessage, socket: Socket) => {
    seen.push({ line: `${req.method ?? ''} ${req.url ?? ''}`, headers: req.headers });
    socket.on('data', (b: Buffer) => bytes.push(b));
    tunnels.add(socket);
    socket.on('close', () => tunnels.delete(socket));
  });
  server.on('request', (req: IncomingMessage) => {
    seen.push({ line: `${req.method ?? ''} ${req.url ?? ''}`, headers: req.headers });
  });
  const proxy: ProxyServer = createProxy(server);
  if (authenticate) proxy.authenticate = authenticate;
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    seen,
    tunnelled: () => Buffer.concat(bytes),
    reset: () => {
      seen.length = 0;
      bytes = [];
    },
    close: () =>
      new Promise<void>((r) => {
        for (const t of tunnels) t.destroy();
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

/** Records what one case's proxy saw, for the printed log. */
function record(title: string, p: RecordingProxy, key = API_KEY): void {
  printed.push(`[${title}]`);
  if (p.seen.length === 0) printed.push('  proxy saw nothing');
  for (const s of p.seen) {
    const hdrs = Object.entries(s.headers)
      .map(([k, v]) => `${k}: ${k === 'proxy-authorization' ? '<present>' : String(v)}`)
      .join('; ');
    printed.push(`  proxy saw: ${s.line}   (${hdrs})`);
  }
  const t = p.tunnelled();
  if (t.length > 0) printed.push(`  tunnelled ${t.length} bytes; the key readable in them: ${t.includes(key)}`);
}

// ---- a loopback https "API" that records what reached it ----

interface FakeApi {
  readonly baseUrl: string;
  readonly port: number;
  readonly requests: { method: string; url: string; key: string | undefined }[];
  close(): Promise<void>;
}

async function startHttpsApi(): Promise<FakeApi> {
  const requests: FakeApi['requests'] = [];
  const server: Server = createHttpsServer({ key: KEY, cert: CERT }, (req, res) => {
    const key = req.headers.api_key;
    requests.push({ method: req.method ?? '', url: req.url ?? '', key: typeof key === 'string' ? key : undefined });
    req.resume();
    req.on('end', () => {
      if (req.url === '/credits') {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('"4200"');
      } else {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ requestId: 'r-1', status: 'pending' }));
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return {
    baseUrl: `https://127.0.0.1:${port}`,
    port,
    requests,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

const NO_ENV = {};
/** Every dispatcher a case made, closed at the end so no kept-alive tunnel holds a proxy open. */
const made: ProxyChoice['dispatcher'][] = [];

function choose(o: Partial<ProxyOptions>): ProxyChoice {
  const c = proxyDispatcherFor({ strictSSL: true, noProxy: [], env: NO_ENV, ca: CERT, proxyLoopback: true, ...o });
  made.push(c.dispatcher);
  return c;
}

function apiVia(baseUrl: string, o: Partial<ProxyOptions>, key = API_KEY): WalletAnalyticsApi {
  const { dispatcher } = choose(o);
  return new WalletAnalyticsApi({ baseUrl, apiKey: () => Promise.resolve(key), dispatcher, retry: { attempts: 3, baseDelayMs: 1, maxDelayMs: 2 } });
}

async function rejection(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (e) {
    return e;
  }
  throw new Error('expected the call to fail');
}

describe('proxies: a real forward proxy on loopback', () => {
  let proxy: RecordingProxy;
  let other: RecordingProxy;
  let api: FakeApi;

  before(async () => {
    proxy = await startProxy('proxy');
    other = await startProxy('other');
    api = await startHttpsApi();
  });
  after(async () => {
    await Promise.all(made.map((d) => d.destroy()));
    await Promise.all([proxy.close(), other.close(), api.close()]);
    console.log(['', '---- proxy test log (what the proxies saw) ----', ...printed, '---- end of proxy test log ----', ''].join('\n'));
  });

  const fresh = (): void => {
    proxy.reset();
    other.reset();
    api.requests.length = 0;
  };

  it('(a) an https call goes through a CONNECT tunnel: the proxy sees host:port only, never the key or the path', async () => {
    fresh();
    const client = apiVia(api.baseUrl, { proxy: proxy.url });
    assert.equal(await client.credits(), 4200);
    const ack = await client.call('pnl', sampleInput(endpoint('pnl')));
    assert.ok(ack.value);
    record('(a) https target via http.proxy', proxy);
    assert.ok(proxy.seen.length > 0);
    for (const s of proxy.seen) assert.equal(s.line, `CONNECT 127.0.0.1:${api.port}`, 'tunnels only; no plain request line');
    const seenText = JSON.stringify(proxy.seen);
    assert.ok(!seenText.includes(API_KEY) && !seenText.includes('api_key'), 'the key header never reached the proxy');
    assert.ok(!seenText.includes('/credits') && !seenText.includes('/pnl'), 'nor a path');
    const tunnel = proxy.tunnelled();
    assert.ok(tunnel.length > 0, 'bytes did cross the tunnel');
    assert.ok(!tunnel.includes(API_KEY) && !tunnel.includes('/credits'), 'the tunnel carried only TLS: key and path encrypted');
    assert.deepEqual(
      api.requests.map((r) => [r.method, r.url, r.key]),
      [
        ['GET', '/credits', API_KEY],
        ['POST', '/pnl', API_KEY],
      ],
    );
  });

  describe('(b) the sandbox over http through the proxy', () => {
    let sb: Sandbox;
    let dest: string;
    before(async () => {
      sb = await startSandbox({ wallets: 2_000, altWallets: 500, delayScale: 0 });
      dest = mkdtempSync(join(tmpdir(), 'wa-proxy-'));
    });
    after(async () => {
      await sb.close();
      rmSync(dest, { recursive: true, force: true });
    });

    it('tunnels plain http too, so the proxy handles no request line and no header of ours; a whole job and its download pass', async () => {
      fresh();
      const client = apiVia(sb.baseUrl, { proxy: proxy.url }, sb.demoKey);
      const before = await client.credits();
      const ack = await client.submit('trending', { hours: 1 });
      let url = '';
      for (let i = 0; i < 200 && !url; i++) {
        url = (await client.request(ack.requestId)).url;
        if (!url) await new Promise((r) => setTimeout(r, 20));
      }
      assert.ok(url, 'the job finished');
      const file = await downloadFrom(client, url, dest);
      assert.ok(file.bytes > 0);
      assert.ok((await client.credits()) < before, 'the sandbox charged the job: the calls really reached it');
      record('(b) sandbox over http via http.proxy (the bytes in the tunnel are plain http)', proxy, sb.demoKey);
      const port = new URL(sb.baseUrl).port;
      assert.ok(proxy.seen.length > 0 && proxy.seen.every((s) => s.line === `CONNECT 127.0.0.1:${port}`), JSON.stringify(proxy.seen.map((s) => s.line)));
      const seenText = JSON.stringify(proxy.seen);
      assert.ok(!seenText.includes(sb.demoKey) && !seenText.includes('api_key') && !seenText.includes('/trending'));
    });
  });

  describe('(c) hosts that bypass the proxy', () => {
    it('NO_PROXY from the environment sends the host directly', async () => {
      fresh();
      const client = apiVia(`https://localhost:${api.port}`, { env: { HTTPS_PROXY: proxy.url, NO_PROXY: 'example.org,localhost' } });
      assert.equal(await client.credits(), 4200);
      record('(c) NO_PROXY=example.org,localhost', proxy);
      assert.deepEqual(proxy.seen, []);
      assert.equal(api.requests.length, 1);
    });

    it('http.noProxy sends the host directly, and a host not on it still goes through the proxy', async () => {
      fresh();
      assert.equal(await apiVia(`https://localhost:${api.port}`, { proxy: proxy.url, noProxy: ['localhost'] }).credits(), 4200);
      assert.equal(proxy.seen.length, 0, 'the no-proxy host went directly');
      assert.equal(await apiVia(api.baseUrl, { proxy: proxy.url, noProxy: ['localhost'] }).credits(), 4200);
      record('(c) http.noProxy=[localhost], then a call to 127.0.0.1', proxy);
      assert.deepEqual(
        proxy.seen.map((s) => s.line),
        [`CONNECT 127.0.0.1:${api.port}`],
      );
    });

    it('loopback targets never go through a proxy, even with no NO_PROXY (the extension default)', async () => {
      fresh();
      const client = apiVia(api.baseUrl, { proxy: proxy.url, env: { HTTPS_PROXY: other.url }, proxyLoopback: false });
      assert.equal(await client.credits(), 4200);
      record('(c) loopback target, proxy configured, default rule', proxy);
      assert.deepEqual([...proxy.seen, ...other.seen], []);
      assert.equal(api.requests.length, 1);
    });
  });

  describe('(d) settings before the environment', () => {
    it('http.proxy wins over HTTPS_PROXY', async () => {
      fresh();
      assert.equal(await apiVia(api.baseUrl, { proxy: proxy.url, env: { HTTPS_PROXY: other.url } }).credits(), 4200);
      assert.equal(proxy.seen.length, 1);
      assert.equal(other.seen.length, 0);
    });

    it('without http.proxy, HTTPS_PROXY is used (lower case first, as undici does), and HTTP_PROXY serves https when alone', async () => {
      fresh();
      assert.equal(await apiVia(api.baseUrl, { proxy: '', env: { https_proxy: other.url, HTTPS_PROXY: proxy.url } }).credits(), 4200);
      assert.equal(other.seen.length, 1);
      assert.equal(proxy.seen.length, 0);
      fresh();
      assert.equal(await apiVia(api.baseUrl, { env: { HTTP_PROXY: proxy.url } }).credits(), 4200);
      record('(d) HTTP_PROXY alone, https target', proxy);
      assert.equal(proxy.seen.length, 1);
    });

    it('a non-empty http.noProxy replaces NO_PROXY rather than adding to it', async () => {
      fresh();
      assert.equal(await apiVia(`https://localhost:${api.port}`, { proxy: proxy.url, noProxy: ['example.org'], env: { NO_PROXY: 'localhost' } }).credits(), 4200);
      assert.deepEqual(
        proxy.seen.map((s) => s.line),
        [`CONNECT localhost:${api.port}`],
      );
    });

    it('the choice says where it came from, and goes direct when nothing is set', () => {
      assert.equal(choose({ strictSSL: true, noProxy: [], env: { HTTPS_PROXY: proxy.url }, proxy: other.url }).source, 'settings');
      assert.equal(choose({ strictSSL: true, noProxy: [], env: { HTTPS_PROXY: 'proxy.corp:3128' } }).source, 'env');
      const none = choose({ strictSSL: true, noProxy: [], env: {} });
      assert.equal(none.source, 'none');
      assert.match(none.summary, /No proxy/u);
    });

    it('refuses a proxy URL it cannot use, instead of quietly going direct', () => {
      assert.throws(() => choose({ strictSSL: true, noProxy: [], env: {}, proxy: 'ftp://proxy:21' }), (e: unknown) => {
        assert.ok(e instanceof WalletApiError);
        assert.match(e.message, /http\.proxy.*must start with http:\/\/ or https:\/\//u);
        assert.equal(e.charged, 'no');
        return true;
      });
    });
  });

  describe('(e) proxy credentials', () => {
    const expected = `Basic ${Buffer.from('alice:p@ss word').toString('base64')}`;
    let authProxy: RecordingProxy;
    before(async () => {
      authProxy = await startProxy('auth', (req) => req.headers['proxy-authorization'] === expected);
    });
    after(() => authProxy.close());

    it('a user and password in the proxy URL authenticate the tunnel, and are never shown', async () => {
      authProxy.reset();
      api.requests.length = 0;
      const withCreds = `http://alice:p%40ss%20word@127.0.0.1:${authProxy.port}`;
      assert.equal(await apiVia(api.baseUrl, { proxy: withCreds }).credits(), 4200);
      record('(e) proxy URL with user:password', authProxy);
      assert.equal(authProxy.seen.length, 1);
      assert.equal(authProxy.seen[0]?.headers['proxy-authorization'], expected);
      const choice = choose({ strictSSL: true, noProxy: [], env: {}, proxy: withCreds });
      assert.ok(!choice.summary.includes('p%40ss') && !choice.summary.includes('p@ss'), choice.summary);
      assert.match(choice.summary, /alice:\*\*\*@127\.0\.0\.1/u);
      assert.equal(choice.dispatcher.shownProxy, `http://alice:***@127.0.0.1:${authProxy.port}`);
      assert.equal(showProxyUrl('proxy.corp:3128'), 'http://proxy.corp:3128');
    });

    it('http.proxyAuthorization is sent on CONNECT', async () => {
      authProxy.reset();
      assert.equal(await apiVia(api.baseUrl, { proxy: authProxy.url, proxyAuthorization: expected }).credits(), 4200);
      assert.equal(authProxy.seen[0]?.headers['proxy-authorization'], expected);
    });

    it('(g) a proxy that refuses CONNECT with 407: the error says it was the proxy, nothing reached the API, nothing was charged, no retry', async () => {
      authProxy.reset();
      api.requests.length = 0;
      const client = apiVia(api.baseUrl, { proxy: authProxy.url });
      const e = await rejection(client.call('pnl', sampleInput(endpoint('pnl'))));
      record('(g) CONNECT refused with 407 (no credentials)', authProxy);
      assert.ok(e instanceof NetworkError, String(e));
      assert.equal(e.sent, false);
      assert.equal(e.charged, 'no');
      assert.match(e.message, /the proxy http:\/\/127\.0\.0\.1:\d+ refused to open a tunnel to 127\.0\.0\.1:\d+ \(HTTP 407 Proxy Authentication Required\)/u);
      assert.match(e.message, /user name and password/u);
      assert.match(e.message, /Nothing was sent\. Nothing was charged\./u);
      assert.equal(api.requests.length, 0, 'the API never saw the request');
      assert.equal(authProxy.seen.length, 1, 'a 407 is not retried');
      assert.ok(!JSON.stringify(authProxy.seen).includes(API_KEY));
    });

    it('(g) a download through a refusing proxy names the proxy too', async () => {
      const client = apiVia(api.baseUrl, { proxy: authProxy.url });
      const dest = mkdtempSync(join(tmpdir(), 'wa-proxy-'));
      try {
        const e = await rejection(downloadFrom(client, `${api.baseUrl}/files/x.csv`, dest));
        assert.ok(e instanceof DownloadError, String(e));
        assert.match(e.message, /the proxy http:\/\/127\.0\.0\.1:\d+ refused to open a tunnel .*407/u);
      } finally {
        rmSync(dest, { recursive: true, force: true });
      }
    });
  });

  it('(g) a proxy that is not there: the error names the proxy, nothing was sent or charged', async () => {
    const gone = await startProxy('gone');
    const url = gone.url;
    await gone.close();
    const e = await rejection(apiVia(api.baseUrl, { proxy: url }).call('pnl', sampleInput(endpoint('pnl'))));
    assert.ok(e instanceof NetworkError, String(e));
    assert.equal(e.charged, 'no');
    assert.match(e.message, /could not reach the proxy http:\/\/127\.0\.0\.1:\d+ \(ECONNREFUSED\)/u);
    assert.match(e.message, /Nothing was sent\. Nothing was charged\./u);
  });

  describe('(f) http.proxyStrictSSL', () => {
    it('true (the default) refuses the self-signed certificate with a clear message, before the request is sent', async () => {
      fresh();
      const e = await rejection(apiVia(api.baseUrl, { proxy: proxy.url, ca: undefined }).call('pnl', sampleInput(endpoint('pnl'))));
      record('(f) strictSSL=true, self-signed target', proxy);
      assert.ok(e instanceof NetworkError, String(e));
      assert.equal(e.sent, false);
      assert.equal(e.charged, 'no');
      assert.match(e.message, /self-signed certificate/u);
      assert.match(e.message, /if it inspects TLS with its own certificate.*http\.proxyStrictSSL/u);
      assert.equal(api.requests.length, 0);
    });

    it('false accepts it through the proxy', async () => {
      fresh();
      assert.equal(await apiVia(api.baseUrl, { proxy: proxy.url, ca: undefined, strictSSL: false }).credits(), 4200);
      assert.equal(proxy.seen.length, 1);
      const summary = choose({ strictSSL: false, noProxy: [], env: {}, proxy: proxy.url }).summary;
      assert.match(summary, /http\.proxyStrictSSL is off/u);
    });
  });
});
