/**
 * Issue 21: a Copy as Code snippet downloads the result only from an https URL, or an http one on
 * this machine, as the extension does. A server answering `url: "gopher://127.0.0.1:P/_SET…"` made
 * curl write `SET pwned 1` into a local TCP service; `file:///…` had it copy a local file. Each
 * snippet runs for real (its tool present) against a fake service in this process whose job is done
 * at once with such a url, beside a TCP listener that records any byte it gets.
 */
import assert from 'node:assert/strict';
import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer as createTcpServer, type Server as TcpServer } from 'node:net';
import { mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import { endpoint } from '../../../../src/core/spec/catalog';
import { sampleInput } from '../../../../src/core/spec/samples';
import { FILE_URL_PATTERN, SNIPPET_LANGUAGES, describeCall, snippet } from '../../../../src/core/codegen/snippets';
import { TOOLS, runSnippet } from '../../fixtures/runSnippet';

function listen(server: Server | TcpServer): Promise<number> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as { port: number }).port)));
}

describe('Copy as Code: the download refuses any URL but https (or http on this machine) (issue 21)', () => {
  let api: Server;
  let victim: TcpServer;
  let victimPort = 0;
  let base = '';
  /** What the next poll answers as the file's url. */
  let fileUrl = '';
  const got: Buffer[] = [];
  const secretDir = mkdtempSync(join(tmpdir(), 'wa-snippet-secret-'));
  const secret = join(secretDir, 'secret.txt');
  writeFileSync(secret, 'the secret\n');

  before(async () => {
    victim = createTcpServer((s) => {
      s.on('data', (b: Buffer) => got.push(b));
      s.on('error', () => undefined);
      s.end();
    });
    victimPort = await listen(victim);
    api = createHttpServer((req, res) => {
      req.resume();
      res.setHeader('content-type', 'application/json');
      const done = (req.url ?? '').startsWith('/request/');
      res.end(JSON.stringify(done ? { requestId: 'r1', url: fileUrl, status: 'done' } : { requestId: 'r1' }));
    });
    base = `http://127.0.0.1:${await listen(api)}`;
  });
  after(async () => {
    await new Promise((r) => api.close(r));
    await new Promise((r) => victim.close(r));
  });

  const hostile = (): [string, string][] => [
    ['gopher', `gopher://127.0.0.1:${victimPort}/_SET%20pwned%201%0D%0A`],
    ['dict', `dict://127.0.0.1:${victimPort}/info`],
    ['file', pathToFileURL(secret).href],
    ['http to another host', `http://127.0.0.1.example.invalid:${victimPort}/x.csv`],
    ['a loopback name as user name', `http://localhost@127.0.0.2:${victimPort}/x.csv`],
  ];

  it('the pattern takes https anywhere and http on loopback only', () => {
    const re = new RegExp(FILE_URL_PATTERN);
    for (const ok of ['https://files.example.com/a.csv', 'http://127.0.0.1:8080/a.csv', 'http://localhost/a', 'http://[::1]:9/a?x#y', 'http://127.0.0.1']) assert.ok(re.test(ok), ok);
    for (const bad of ['file:///etc/hostname', 'gopher://127.0.0.1:70/_x', 'dict://127.0.0.1/info', 'ftp://h/a', 'http://example.com/a', 'http://127.0.0.1.evil.com/a', 'http://localhost@evil.com/', 'http://localhost.evil/', ' https://x/', 'HTTP://EXAMPLE.COM/']) {
      assert.ok(!re.test(bad), bad);
    }
  });

  for (const { id: lang } of SNIPPET_LANGUAGES) {
    const tool = TOOLS[lang];
    it(`${lang}: refuses gopher://, dict://, file:// and plain http to another host; nothing reaches the local service`, { skip: tool.have ? false : `${tool.needs} is not installed` }, async () => {
      const ep = endpoint('trending');
      const d = describeCall(ep, sampleInput(ep), base);
      assert.ok(d.ok);
      const text = snippet(lang, d.call);
      for (const [what, url] of hostile()) {
        fileUrl = url;
        got.length = 0;
        const dir = mkdtempSync(join(tmpdir(), `wa-snippet-url-${lang}-`));
        const res = await runSnippet(lang, text, dir, { ...process.env, WA_API_KEY: 'k-test-0000', http_proxy: '', https_proxy: '', HTTP_PROXY: '', HTTPS_PROXY: '' }, 30_000);
        assert.notEqual(res.status, 0, `${lang} downloaded a ${what} URL:\n${res.stderr}`);
        assert.match(res.stderr, /Not downloaded: the file URL is not https/u, `${lang}, ${what}: ${res.stderr}`);
        assert.equal(Buffer.concat(got).length, 0, `${lang}, ${what}: the local service received ${JSON.stringify(Buffer.concat(got).toString())}`);
        assert.deepEqual(readdirSync(dir).filter((f) => f.startsWith(`${ep.id}-`)), [], `${lang}, ${what}: a file was written`);
      }
    });
  }
});
