/**
 * Issue 21: a result is downloaded only from an https URL, or an http one on this machine, as the
 * extension does. A server answering `url: "gopher://127.0.0.1:P/_SET…"` once made a snippet's curl
 * write `SET pwned 1` into a local TCP service; `file:///…` had it copy a local file. The snippets no
 * longer download nor send at all: every call's snippet (a queued job's, a free read's), in every
 * language, runs the runner, whose wait and download are the core's poller and result writer, as
 * `wallet-analytics fetch`'s are for a
 * job already submitted. So this runs `fetch` for real against a fake service in this process whose
 * job is done at once with such a url, beside a TCP listener that records any byte it gets.
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
import { SNIPPET_LANGUAGES, describeCall, snippet } from '../../../../src/core/codegen/snippets';
import { CLI, runCli } from '../../runner/cliSupport';

function listen(server: Server | TcpServer): Promise<number> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as { port: number }).port)));
}

describe('Copy as Code: the download a snippet hands over refuses any URL but https (or http on this machine) (issue 21)', () => {
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
      const one = { requestId: 'r1', url: fileUrl, status: 'done', endpoint: 'trending' };
      res.end(JSON.stringify((req.url ?? '').startsWith('/requests') ? [one] : one));
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

  it('no snippet downloads: a queued call’s snippet and a job record’s free read run the runner in every language', () => {
    for (const ep of [endpoint('trending'), endpoint('request')]) {
      const d = describeCall(ep, sampleInput(ep), base);
      assert.ok(d.ok);
      for (const { id } of SNIPPET_LANGUAGES) {
        const text = snippet(id, d.call, { file: CLI });
        const code = text.split('\n').filter((l) => !/^\s*(#|\/\/)/u.test(l)).join('\n');
        assert.doesNotMatch(code, /\/request\/|\.url\b|\$url|-OutFile|-o "|writeFile|open\(|curl |requests\.|fetch\(|Invoke-RestMethod/u, `${ep.id} ${id}`);
        assert.ok(code.includes(CLI) && new RegExp(`\\bcall\\b.*\\b${ep.id}\\b`, 'su').test(code), `${ep.id} ${id} runs the runner:\n${code}`);
      }
    }
  });

  it('wallet-analytics fetch refuses gopher://, dict://, file:// and plain http to another host; nothing reaches the local service, no file is written', async () => {
    for (const [what, url] of hostile()) {
      fileUrl = url;
      got.length = 0;
      const dir = mkdtempSync(join(tmpdir(), 'wa-fetch-url-'));
      const res = await runCli(['fetch', 'r1', '--endpoint', 'trending', '--out', dir, '--base-url', base], { WA_API_KEY: 'k-test-0000' });
      assert.equal(res.code, 1, `${what}: ${res.stdout}${res.stderr}`);
      assert.match(res.stdout, /✗ The job r1 ended downloadFailed: /u, `${what}: ${res.stdout}`);
      assert.equal(Buffer.concat(got).length, 0, `${what}: the local service received ${JSON.stringify(Buffer.concat(got).toString())}`);
      assert.deepEqual(readdirSync(dir).filter((f) => f.startsWith('trending')), [], `${what}: a file was written`);
    }
  });
});
