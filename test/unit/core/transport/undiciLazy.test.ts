/**
 * undici is required on the first request, not when the transport's modules load (issue 34 item 1):
 * a plain require('undici') took 0.2–1.4 s on a loaded machine, and the features bundle loaded it
 * on the first use of any command. The modules that send (http.ts, proxy.ts, download.ts,
 * webhook.ts) are loaded here with Node's loader watched; undici must not be asked for until a
 * dispatcher is built or a request is sent, and the request must then work.
 */
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import Module from 'node:module';
import { describe, it } from 'node:test';

/** Every package the loader was asked for since the watch began. */
const asked = new Set<string>();
const moduleWithLoad = Module as unknown as { _load: (request: string, ...rest: unknown[]) => unknown };
const realLoad = moduleWithLoad._load;
moduleWithLoad._load = function (request: string, ...rest: unknown[]): unknown {
  asked.add(request);
  return realLoad.call(this, request, ...rest);
};

describe('undici: required on the first request, not with the transport', async () => {
  // Loaded after the watch is in place (static imports would be required before it).
  const { HttpTransport } = await import('../../../../src/core/transport/http');
  const { proxyDispatcherFor, proxyFailure } = await import('../../../../src/core/transport/proxy');
  await import('../../../../src/core/results/download');
  await import('../../../../src/core/transport/webhook');

  it('is not required by loading the modules that send', () => {
    assert.equal(asked.has('undici'), false, 'undici was required when the transport loaded');
    // Before a dispatcher exists no failure can be the proxy's, and telling so loads nothing.
    assert.equal(proxyFailure(new Error('x'), undefined, new URL('https://api.example')), undefined);
    assert.equal(asked.has('undici'), false, 'undici was required by asking whether a failure was the proxy\'s');
  });

  it('is required by the first request, which then gets its answer', async () => {
    const server = createServer((_req, res) => {
      res.setHeader('content-type', 'application/json');
      res.end('{"ok":true}');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const { port } = server.address() as AddressInfo;
      const http = new HttpTransport({ baseUrl: `http://127.0.0.1:${port}`, apiKey: () => Promise.resolve('k') });
      const answer = await http.send({ method: 'GET', path: '/v1/credits', paid: false });
      assert.equal(answer.status, 200);
      assert.deepEqual(answer.json, { ok: true });
      assert.equal(asked.has('undici'), true, 'the request was sent without undici?');
    } finally {
      server.close();
    }
  });

  it('builds the proxy dispatcher from undici, and recognises it afterwards', async () => {
    const choice = proxyDispatcherFor({ proxy: 'http://127.0.0.1:9', strictSSL: true, noProxy: [], env: {} });
    try {
      const failure = proxyFailure(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED', address: '127.0.0.1', port: 9 }), choice.dispatcher, new URL('https://api.example'));
      assert.equal(failure?.code, 'ECONNREFUSED', 'a failure at the proxy is still named as the proxy\'s');
      assert.equal(failure?.sent, false);
    } finally {
      await choice.dispatcher.close();
    }
  });
});
