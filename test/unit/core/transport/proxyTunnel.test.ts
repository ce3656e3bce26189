/**
 * Issue 21, defect 5: a proxy that takes the connection and never answers CONNECT, or closes it,
 * hung a call (paid submits included) past its own timeout and cancel: undici waits five minutes
 * for the first and reconnects without end to the second (nodejs/undici#3897, still so in the
 * undici we ship). Each case must now fail within its time with a message naming the proxy, and,
 * since nothing is written before the tunnel is open, as provably not sent: not charged.
 * Also (9a): a proxy URL is never shown with its password, even one a URL parser cannot read.
 */
import assert from 'node:assert/strict';
import { createServer, type Server, type Socket } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { WalletAnalyticsApi } from '../../../../src/core/transport/api';
import { endpoint } from '../../../../src/core/spec/catalog';
import { CancelledError, NetworkError } from '../../../../src/core/errors';
import { proxyDispatcherFor, showProxyUrl, type ProxyChoice } from '../../../../src/core/transport/proxy';
import { WalletApiError } from '../../../../src/core/errors';
import { sampleInput } from '../../../../src/core/spec/samples';

/** A "proxy" that reads CONNECT and then either says nothing or closes the connection; counts connections. */
class BadProxy {
  connections = 0;
  private readonly sockets = new Set<Socket>();
  private readonly server: Server;
  constructor(private readonly how: 'silent' | 'close') {
    this.server = createServer((s) => {
      this.connections++;
      this.sockets.add(s);
      s.on('error', () => undefined);
      s.on('close', () => this.sockets.delete(s));
      s.on('data', () => {
        if (this.how === 'close') s.destroy();
      });
    });
  }
  async start(): Promise<string> {
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r));
    return `http://127.0.0.1:${(this.server.address() as { port: number }).port}`;
  }
  close(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    return new Promise((r) => this.server.close(() => r()));
  }
}

/** Not reached: every byte would go through the proxy's tunnel. */
const BASE = 'https://127.0.0.1:9';
const made: ProxyChoice['dispatcher'][] = [];

function api(proxy: string, o: { timeoutMs?: number; ackTimeoutMs?: number; tunnelTimeoutMs?: number } = {}): WalletAnalyticsApi {
  const { dispatcher } = proxyDispatcherFor({ proxy, strictSSL: true, noProxy: [], env: {}, proxyLoopback: true, ...(o.tunnelTimeoutMs ? { tunnelTimeoutMs: o.tunnelTimeoutMs } : {}) });
  made.push(dispatcher);
  return new WalletAnalyticsApi({ baseUrl: BASE, apiKey: () => Promise.resolve('sk-tunnel-test-0000'), dispatcher, retry: { attempts: 3, baseDelayMs: 1, maxDelayMs: 2 }, timeoutMs: o.timeoutMs ?? 10_000, ackTimeoutMs: o.ackTimeoutMs ?? 10_000 });
}

/** The call's error and how long it took; fails the test (rather than hanging it) after limitMs. */
async function failure(p: Promise<unknown>, limitMs: number): Promise<{ error: unknown; ms: number }> {
  const t0 = Date.now();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const hung = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`still waiting after ${limitMs} ms: the call hangs`)), limitMs);
  });
  try {
    await Promise.race([p, hung]);
  } catch (error) {
    if (error instanceof Error && error.message.startsWith('still waiting')) throw error;
    return { error, ms: Date.now() - t0 };
  } finally {
    clearTimeout(timer);
  }
  throw new Error('expected the call to fail');
}

describe('proxies that never open the tunnel (issue 21)', () => {
  const silent = new BadProxy('silent');
  const closing = new BadProxy('close');
  let silentUrl = '';
  let closingUrl = '';
  before(async () => {
    silentUrl = await silent.start();
    closingUrl = await closing.start();
  });
  after(async () => {
    await Promise.all(made.map((d) => d.destroy()));
    await Promise.all([silent.close(), closing.close()]);
  });

  it('a silent proxy: a free call fails at its own timeout, naming the proxy, not sent', async () => {
    const { error, ms } = await failure(api(silentUrl, { timeoutMs: 800 }).credits(), 6_000);
    assert.ok(error instanceof NetworkError, String(error));
    assert.equal(error.sent, false);
    assert.equal(error.charged, 'no');
    assert.match(error.message, /the proxy http:\/\/127\.0\.0\.1:\d+ had not answered CONNECT/u);
    assert.ok(ms < 15_000, `${ms} ms: sooner than the 30 s tunnel deadline`);
  });

  it('a silent proxy: a paid submit fails at its acknowledgement timeout as not sent, not charged, and is not retried', async () => {
    const before = silent.connections;
    const { error, ms } = await failure(api(silentUrl, { ackTimeoutMs: 800 }).submit('trending', sampleInput(endpoint('trending'))), 6_000);
    assert.ok(error instanceof NetworkError, String(error));
    assert.equal(error.charged, 'no');
    assert.match(error.message, /Nothing was charged/u);
    assert.ok(ms < 15_000, `${ms} ms: sooner than the 30 s tunnel deadline`);
    assert.equal(silent.connections - before, 1, 'one CONNECT, no retry');
  });

  it('a silent proxy: the tunnel deadline ends the wait even when the call allows longer', async () => {
    const { error, ms } = await failure(api(silentUrl, { tunnelTimeoutMs: 500 }).credits(), 6_000);
    assert.ok(error instanceof NetworkError, String(error));
    assert.equal(error.code, 'PROXY_TUNNEL_TIMEOUT');
    assert.match(error.message, /did not answer CONNECT within 0\.5 s/u);
    assert.ok(ms < 15_000, `${ms} ms: sooner than the 30 s tunnel deadline`);
  });

  it('a silent proxy: cancelling a paid submit says it was not charged', async () => {
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 300);
    const { error, ms } = await failure(api(silentUrl).submit('trending', sampleInput(endpoint('trending')), ac.signal), 6_000);
    assert.ok(error instanceof CancelledError, String(error));
    assert.equal(error.charged, 'no');
    assert.ok(ms < 15_000, `${ms} ms: sooner than the 30 s tunnel deadline`);
  });

  it('a proxy that closes the connection: a paid submit fails at once as not charged, and the proxy is not hammered', async () => {
    const before = closing.connections;
    const { error, ms } = await failure(api(closingUrl).submit('trending', sampleInput(endpoint('trending'))), 6_000);
    assert.ok(error instanceof NetworkError, String(error));
    assert.equal(error.charged, 'no');
    assert.match(error.message, /the proxy http:\/\/127\.0\.0\.1:\d+ closed the connection instead of answering CONNECT/u);
    assert.ok(ms < 15_000, `${ms} ms: sooner than the 30 s tunnel deadline`);
    // The call has settled, so its attempts are over: every connection it made is counted already.
    assert.ok(closing.connections - before <= 3, `${closing.connections - before} connections: at most one per attempt`);
  });
});

describe('proxy URLs as shown: never a password, even unencoded (issue 21)', () => {
  it('hides everything a password may be, in any form', () => {
    const cases: [string, string][] = [
      ['http://u:pa/ss@host:3128', 'http://u:***@host:3128'],
      ['http://u:pa/ss@host:3128/', 'http://u:***@host:3128'],
      ['u:pa/ss@host:3128', 'http://u:***@host:3128'],
      ['http://u:123/x@host:3128', 'http://u:***@host:3128'],
      ['http://user:p@ss@proxy:3128', 'http://user:***@proxy:3128'],
      ['http://alice:p%40ss%20word@127.0.0.1:8080', 'http://alice:***@127.0.0.1:8080'],
      ['http://:secret@h:1', 'http://***@h:1'],
      ['http://pa/ss@host:1', 'http://***@host:1'],
      ['http://tok@host:1', 'http://tok@host:1'],
      ['proxy.corp:3128', 'http://proxy.corp:3128'],
      ['HTTP://Proxy.Corp:80', 'http://proxy.corp'],
    ];
    for (const [raw, shown] of cases) assert.equal(showProxyUrl(raw), shown, raw);
  });

  it('the refusal of a malformed proxy URL does not show its password', () => {
    for (const raw of ['http://u:pa/ss@host:port', 'ftp://u:pa/ss@proxy:21', 'http://u:s3cr3t/x@[bad']) {
      assert.throws(
        () => proxyDispatcherFor({ proxy: raw, strictSSL: true, noProxy: [], env: {} }),
        (e: unknown) => e instanceof WalletApiError && !e.message.includes('pa/ss') && !e.message.includes('s3cr3t') && !e.message.includes('ss@'),
        raw,
      );
    }
    const env = proxyDispatcherFor({ strictSSL: true, noProxy: [], env: { HTTPS_PROXY: 'http://u:pa%2Fss@proxy.corp:3128' } });
    made.push(env.dispatcher);
    assert.ok(!env.summary.includes('pa%2Fss') && !env.summary.includes('pa/ss'), env.summary);
  });
});
