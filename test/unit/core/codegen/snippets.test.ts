/**
 * Copy as Code (src/core/codegen/snippets.ts) as text: every endpoint in every language, the key only as an
 * environment variable, the price comment, the poll loop of a queued call, and quoting that holds
 * against hostile values, checked by handing each quoted value to the real interpreter when it is
 * installed, and by a local server that records the exact bytes a snippet sends.
 */
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { createServer, type IncomingMessage } from 'node:http';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { transformSync } from 'esbuild';
import { ENDPOINTS, encodeRequest, endpoint } from '../../../../src/core/spec/catalog';
import { callBody, callHeaders, callUrl } from '../../../../src/core/transport/http';
import { isPaid, quote } from '../../../../src/core/money/pricing';
import { sampleInput } from '../../../../src/core/spec/samples';
import { TOOLS, runSnippet } from '../../fixtures/runSnippet';
import { SNIPPET_LANGUAGES, bashQuote, describeCall, jsonQuote, psQuote, snippet, type CallDescription, type SnippetLanguage } from '../../../../src/core/codegen/snippets';

const BASE = 'https://api.example.com';
const LANGS = SNIPPET_LANGUAGES.map((l) => l.id);

function has(cmd: string, args: string[]): boolean {
  return spawnSync(cmd, args, { stdio: 'ignore' }).status === 0;
}
const HAVE = { bash: has('bash', ['-c', 'true']), pwsh: TOOLS.powershell.have };

function described(id: string, input: Record<string, unknown> = sampleInput(endpoint(id)), base = BASE): CallDescription {
  const d = describeCall(endpoint(id), input, base);
  if (!d.ok) throw new Error(`${id}: ${d.errors.join(' ')}`);
  return d.call;
}

/** Hostile text: every character that ends or expands a string in one of the four languages. */
const HOSTILE = [
  `it's`,
  `say "hi"`,
  '$HOME $(id) ${PATH} `id`',
  'line one\nline two\r\n\ttab',
  'back\\slash \\n not a newline \\',
  '‘curly’ ‚low‛ “double” „low”',
  '\u2028\u2029 separators, 😀 and é',
  `'; rm -rf / #`,
  '%s %d {0} {} #{x} @{y} $env:WA_API_KEY',
];

describe('Copy as Code: every endpoint, every language', () => {
  for (const ep of ENDPOINTS) {
    it(`${ep.id}: the request is the one the transport sends`, () => {
      const input = sampleInput(ep);
      const d = described(ep.id, input);
      const wire = encodeRequest(ep, input);
      assert.equal(d.method, wire.method);
      assert.equal(d.base + d.target, callUrl(new URL(BASE), wire.path, wire.query).href);
      assert.equal(d.body, wire.body === undefined ? undefined : callBody(wire.body));
      const expected = callHeaders('KEY', wire.body !== undefined);
      assert.deepEqual(
        Object.fromEntries(d.headers.map(([k, v]) => [k, typeof v === 'string' ? v : 'KEY'])),
        expected,
      );
      assert.equal(d.poll !== undefined, ep.family === 'queued');
    });
  }

  it('never writes the key, even with one stored in the environment; the key is always the environment variable', () => {
    const secret = 'sk_live_9f8e7d6c5b4a-THE-REAL-KEY';
    const before = process.env.WA_API_KEY;
    process.env.WA_API_KEY = secret;
    try {
      for (const ep of ENDPOINTS) {
        const d = described(ep.id);
        for (const lang of LANGS) {
          const text = snippet(lang, d);
          assert.ok(!text.includes(secret), `${ep.id} ${lang} holds the key`);
          assert.ok(!text.includes('\u0000'), `${ep.id} ${lang} holds the key marker`);
          const ref = { curl: '$WA_API_KEY', python: 'os.environ["WA_API_KEY"]', typescript: 'process.env.WA_API_KEY', powershell: '$env:WA_API_KEY' }[lang];
          assert.ok(text.includes(ref), `${ep.id} ${lang} reads ${ref}`);
        }
      }
    } finally {
      if (before === undefined) delete process.env.WA_API_KEY;
      else process.env.WA_API_KEY = before;
    }
  });

  it('starts with the price the extension shows: exact, "up to", or free', () => {
    const cases: [string, Record<string, unknown> | undefined, RegExp][] = [
      ['toptraders', undefined, /Price: 200 credits \(2 tokens × 100\)\. Running this spends credits/u],
      ['trending', undefined, /Price: 50 credits\. Running this spends credits/u],
      ['token_creators', undefined, /Price: up to 5,000 credits \(100 per creator returned, 50 per page\)\. Running this spends credits/u],
      ['credits', undefined, /Price: free\. Running this spends no credits\./u],
    ];
    for (const [id, input, re] of cases) {
      const d = described(id, input);
      for (const lang of LANGS) {
        const text = snippet(lang, d);
        const first = text.split('\n').slice(0, 2).join('\n');
        assert.match(first, re, `${id} ${lang}: ${first}`);
        assert.match(text.split('\n')[0] ?? '', lang === 'typescript' ? /^\/\/ / : /^# /u);
      }
    }
    // The price step's context (a known match count) is the price written.
    const db = endpoint('wallet_database');
    const q = sampleInput(db);
    const d = describeCall(db, q, BASE, { knownMatches: 12 });
    assert.ok(d.ok);
    if (d.ok) assert.equal(d.call.price.text, quote(db, q, { knownMatches: 12 }).text);
    for (const ep of ENDPOINTS) if (isPaid(ep)) assert.match(snippet('curl', described(ep.id)), /spends credits/u, ep.id);
  });

  it('a queued call polls GET /request/{requestId} about every 5 s until url is set, stops on failed, downloads the file', () => {
    const d = described('toptraders');
    const checks: Record<SnippetLanguage, RegExp[]> = {
      curl: [/while :; do/u, /'\/request\/'"\$\(printf '%s' "\$request_id" \| jq -sRr @uri\)"/u, /\.url \/\/ ""/u, /= failed \]/u, /sleep 5/u, /-o "\$out" "\$url"/u],
      python: [/while True:/u, /"\/request\/" \+ urllib\.parse\.quote\(request_id, safe=""\)/u, /record\.get\("url"\)/u, /== "failed"/u, /time\.sleep\(5\)/u, /open\(out, "wb"\)/u],
      typescript: [/for \(;;\)/u, /"\/request\/" \+ encodeURIComponent\(ack\.requestId\)/u, /record\.url/u, /=== "failed"/u, /setTimeout\(resolve, 5_000\)/u, /writeFile\(out/u],
      powershell: [/while \(\$true\)/u, /'\/request\/' \+ \[uri\]::EscapeDataString\(\$requestId\)/u, /\$record\.url/u, /-eq 'failed'/u, /Start-Sleep -Seconds 5/u, /-OutFile \$out/u],
    };
    for (const lang of LANGS) {
      const text = snippet(lang, d);
      for (const re of checks[lang]) assert.match(text, re, `${lang}: ${re}`);
    }
    // A direct call has no loop.
    for (const lang of LANGS) assert.doesNotMatch(snippet(lang, described('wallet_database')), /\/request\//u, lang);
  });

  it('no request carrying the key follows a redirect; the download carries it only on the base origin', () => {
    const d = described('trending');
    const curl = snippet('curl', d);
    for (const line of curl.split('\n').filter((l) => l.includes('$WA_API_KEY') && l.includes('curl'))) assert.doesNotMatch(line, / -L /u, line);
    assert.match(curl, /"\$origin"\/\*\) curl -sS --fail -o "\$out" "\$url" -H "api_key: \$WA_API_KEY"/u);
    assert.match(curl, /\*\) curl -sS --fail -L -o "\$out" "\$url" --proto '=https,http' --proto-redir '=https' --globoff ;;/u);
    assert.match(snippet('python', d), /allow_redirects=follow/u);
    assert.match(snippet('typescript', d), /redirect: init\.follow \? "follow" : "error"/u);
    assert.equal((snippet('powershell', d).match(/-MaximumRedirection 0/gu) ?? []).length, 3);
  });

  it('refuses input the extension would refuse, with the catalog’s message', () => {
    const r = describeCall(endpoint('toptraders'), { tokens: ['not an address'] }, BASE);
    assert.equal(r.ok, false);
    if (!r.ok) assert.ok(r.errors.length > 0);
  });
});

describe('Copy as Code: quoting hostile values', () => {
  it('bash: each value comes back byte for byte from bash', { skip: HAVE.bash ? false : 'bash is not installed' }, () => {
    for (const s of HOSTILE) assert.equal(execFileSync('bash', ['-c', `printf '%s' ${bashQuote(s)}`], { encoding: 'utf8' }), s);
  });
  it('Python: each value comes back byte for byte from python3', { skip: has('python3', ['-c', '0']) ? false : 'python3 is not installed' }, () => {
    for (const s of HOSTILE) {
      const out = execFileSync('python3', ['-c', `import sys; sys.stdout.buffer.write(${jsonQuote(s)}.encode("utf-8"))`], { encoding: 'utf8' });
      assert.equal(out, s);
    }
  });
  it('TypeScript: each value comes back byte for byte from node', () => {
    for (const s of HOSTILE) {
      const js = transformSync(`const v: string = ${jsonQuote(s)}; process.stdout.write(v);`, { loader: 'ts' }).code;
      assert.equal(execFileSync(process.execPath, ['-e', js], { encoding: 'utf8' }), s);
    }
  });
  it('PowerShell: quotes are doubled, curly ones too (PowerShell reads them as quotes)', () => {
    assert.equal(psQuote(`it's`), `'it''s'`);
    assert.equal(psQuote('‘a’'), `'‘‘a’’'`);
    assert.equal(psQuote('$env:X `n "y"'), `'$env:X \`n "y"'`);
    for (const s of HOSTILE) {
      const q = psQuote(s);
      // Inside, every quote character is doubled, so none ends the literal.
      const inner = q.slice(1, -1);
      assert.doesNotMatch(inner.replace(/(['\u2018\u2019\u201A\u201B])\1/gu, ''), /['\u2018\u2019\u201A\u201B]/u);
    }
  });
  it('PowerShell: each value comes back from pwsh', { skip: HAVE.pwsh ? false : 'pwsh (PowerShell) is not installed: its quoting is checked as text above' }, () => {
    for (const s of HOSTILE) {
      const out = execFileSync('pwsh', ['-NoProfile', '-Command', `[Console]::Out.Write(${psQuote(s)})`], { encoding: 'utf8' });
      assert.equal(out, s);
    }
  });
});

describe('Copy as Code: a hostile body and base path reach the server byte for byte', () => {
  for (const lang of LANGS) {
    const r = { lang, ...TOOLS[lang] };
    it(`${r.lang}`, { skip: r.have ? false : `${r.needs} is not installed` }, async () => {
      const seen: { method: string; url: string; key: string; body: string; headers: IncomingMessage['headers'] }[] = [];
      const server = createServer((req, res) => {
        const chunks: Buffer[] = [];
        req.on('data', (c: Buffer) => chunks.push(c));
        req.on('end', () => {
          const h = req.headers.api_key;
          seen.push({ method: req.method ?? '', url: req.url ?? '', key: Array.isArray(h) ? h.join() : (h ?? ''), body: Buffer.concat(chunks).toString('utf8'), headers: req.headers });
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end('{"total":0,"wallets":[]}');
        });
      });
      await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
      try {
        const addr = server.address();
        assert.ok(addr && typeof addr === 'object');
        const base = `http://127.0.0.1:${addr.port}/p'a$th\`x`;
        const input = {
          query: {
            where: { or: HOSTILE.map((value, i) => ({ field: `f${i}`, op: '=', value })) },
            limit: 5,
          },
        };
        const d = described('wallet_database', input, base);
        const dir = mkdtempSync(join(tmpdir(), 'wa-snippet-'));
        const text = snippet(r.lang, d);
        const env = { ...process.env, WA_API_KEY: 'k"e y$`\'' };
        const res = await runSnippet(r.lang, text, dir, env);
        assert.equal(res.status, 0, `${r.lang} failed:\n${res.stderr}\n${text}`);
        assert.equal(seen.length, 1);
        const got = seen[0];
        assert.ok(got);
        assert.equal(got.method, 'POST');
        assert.equal(`http://127.0.0.1:${addr.port}${got.url}`, d.base + d.target);
        assert.equal(got.body, d.body, 'the body is the exact JSON text the extension sends');
        assert.deepEqual(JSON.parse(got.body), input.query);
        assert.equal(got.key, env.WA_API_KEY, 'the key came from the environment variable');
        assert.equal(got.headers['content-type'], 'application/json');
      } finally {
        await new Promise<void>((ok) => server.close(() => ok()));
      }
    });
  }
});
