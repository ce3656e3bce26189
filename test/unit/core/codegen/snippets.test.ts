/**
 * Copy as Code (src/core/codegen/snippets.ts) as text: every endpoint in every language, the key only as an
 * environment variable, the price comment, the runner's command line with the price as --max-credits,
 * a paid call's other languages running that line (no request of their own: the house rule is
 * test/unit/house/oneLanguage.test.ts), a free read's other languages describing the one request only
 * (no loop, no poll, no download), and quoting that holds against hostile values: each quoted value
 * handed to the real interpreter, the argument list each language hands the runner recorded by a
 * stand-in runner, and a local server that records the exact bytes a free read's request sends.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createServer, type IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { transformSync } from 'esbuild';
import { ENDPOINTS, encodeRequest, endpoint, validateInput } from '../../../../src/core/spec/catalog';
import { callBody, callHeaders, callUrl } from '../../../../src/core/transport/http';
import { isPaid, quote } from '../../../../src/core/money/pricing';
import { sampleInput } from '../../../../src/core/spec/samples';
import { TOOLS, pythonWith, runSnippet } from '../../fixtures/runSnippet';
import { SNIPPET_LANGUAGES, bashQuote, describeCall, jsonQuote, languageLabel, languageUsed, psQuote, snippet, snippetLanguages, type CallDescription, type SnippetLanguage } from '../../../../src/core/codegen/snippets';

const BASE = 'https://api.example.com';
const LANGS = SNIPPET_LANGUAGES.map((l) => l.id);
const RUNNER = { file: '/opt/wallet analytics/dist/cli.js' };
const text = (lang: SnippetLanguage, d: CallDescription): string => snippet(lang, d, RUNNER);

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
      const v = validateInput(ep, input);
      assert.ok(v.ok);
      if (v.ok) assert.deepEqual(d.input, v.input, 'the runner is given the inputs as the catalog checked them');
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
          const t = text(lang, d);
          assert.ok(!t.includes(secret), `${ep.id} ${lang} holds the key`);
          assert.ok(!t.includes('\u0000'), `${ep.id} ${lang} holds the key marker`);
          // A paid call's snippet runs the runner, which reads the variable itself; a free read's request reads it in its language.
          const ref = isPaid(ep) ? 'the environment variable WA_API_KEY' : { runner: 'environment variable WA_API_KEY', curl: '$WA_API_KEY', python: 'os.environ["WA_API_KEY"]', typescript: 'process.env.WA_API_KEY', powershell: '$env:WA_API_KEY' }[lang];
          assert.ok(t.includes(ref), `${ep.id} ${lang} reads ${ref}`);
        }
      }
    } finally {
      if (before === undefined) delete process.env.WA_API_KEY;
      else process.env.WA_API_KEY = before;
    }
  });

  it('starts with the price the extension shows: exact, "up to", or free; the runner holds it as --max-credits', () => {
    const cases: [string, Record<string, unknown> | undefined, RegExp, number][] = [
      ['toptraders', undefined, /Price: 200 credits \(2 tokens × 100\)\. Running this spends credits/u, 200],
      ['trending', undefined, /Price: 50 credits\. Running this spends credits/u, 50],
      ['token_creators', undefined, /Price: up to 5,000 credits \(100 per creator returned, 50 per page\)\. Running this spends credits/u, 5000],
      ['credits', undefined, /Price: free\. Running this spends no credits\./u, 0],
    ];
    for (const [id, input, re, max] of cases) {
      const d = described(id, input);
      for (const lang of LANGS) {
        const t = text(lang, d);
        const first = t.split('\n').slice(0, 2).join('\n');
        assert.match(first, re, `${id} ${lang}: ${first}`);
        assert.match(t.split('\n')[0] ?? '', lang === 'typescript' ? /^\/\/ / : /^# /u);
      }
      assert.match(text('runner', d), new RegExp(` --max-credits ${max} `, 'u'), id);
    }
    // The price step's context (a known match count) is the price written.
    const db = endpoint('wallet_database');
    const q = sampleInput(db);
    const d = describeCall(db, q, BASE, { knownMatches: 12 });
    assert.ok(d.ok);
    if (d.ok) assert.equal(d.call.price.text, quote(db, q, { knownMatches: 12 }).text);
    for (const ep of ENDPOINTS) if (isPaid(ep)) assert.match(text('curl', described(ep.id)), /spends credits/u, ep.id);
  });

  it('the first choice is the runner’s command line: node <the extension’s dist/cli.js> call <id> --input <json> --max-credits <price> --base-url <base>', () => {
    assert.equal(LANGS[0], 'runner');
    const d = described('toptraders');
    const t = text('runner', d);
    const line = t.split('\n').filter((l) => l !== '' && !l.startsWith('#'));
    assert.deepEqual(line, [`node '/opt/wallet analytics/dist/cli.js' call toptraders --input ${bashQuote(JSON.stringify(d.input))} --max-credits 200 --base-url 'https://api.example.com'`]);
    // The quoted --input is the checked input, byte for byte, through bash.
    const back = execFileSync('bash', ['-c', `printf '%s' ${bashQuote(JSON.stringify(d.input))}`], { encoding: 'utf8' });
    assert.deepEqual(JSON.parse(back), d.input);
    assert.match(t, /Export Pipeline writes the same\n# file beside a pipeline as wallet-analytics\.cjs/u);
    assert.match(t, /Exit codes: 0 done, 1 failed, 2 bad input \(nothing sent\), 3 refused \(nothing sent\), 4 may have been charged\./u);
  });

  it('a paid call’s other languages run the runner’s line (no request, no loop, no branch of their own); curl is that line itself', () => {
    const program = /\bwhile\b|\buntil\b|\bfor\b.*\bin\b.*:|for \(|\bdef \w|\bfunction \w|sleep|Sleep|setTimeout|-OutFile|-o "|open\(|writeFile|iter_content|\bif\b|\belse\b|\bthrow\b|\btry\b|\bexcept\b|\bcatch\b|\bset -e|:\?|requests\.|fetch\(|Invoke-RestMethod|curl |\/request\//u;
    for (const ep of ENDPOINTS.filter(isPaid)) {
      const d = described(ep.id);
      assert.equal(text('curl', d), text('runner', d), `${ep.id}: a paid call's curl is the runner's line`);
      for (const lang of ['python', 'typescript', 'powershell'] as const) {
        const code = text(lang, d).split('\n').filter((l) => !/^\s*(#|\/\/)/u.test(l)).join('\n');
        // PowerShell hands on the runner's exit code (exit $LASTEXITCODE): no branch, the runner's answer.
        assert.doesNotMatch(code.replace(/^exit \$LASTEXITCODE$/mu, ''), program, `${ep.id} ${lang}:\n${code}`);
        assert.match(code, { python: /^subprocess\.run\(\[.*\], check=True\)$/mu, typescript: /^process\.exitCode = r\.status \?\? 1;$/mu, powershell: /^exit \$LASTEXITCODE$/mu }[lang], `${ep.id} ${lang}`);
      }
    }
  });

  it('the picker says what each choice does: a paid call’s languages run the priced call through the runner (no curl); a free read’s are the one request', () => {
    const paid = snippetLanguages(endpoint('trending'));
    assert.deepEqual(paid.map((l) => l.id), ['runner', 'python', 'typescript', 'powershell']);
    assert.equal(paid[0]?.label, 'Command line (wallet-analytics runner)');
    for (const l of paid.slice(1)) assert.match(l.label, /^(Python|TypeScript|PowerShell): runs the priced call through the runner$/u, l.label);
    for (const l of paid) assert.doesNotMatch(`${l.label} ${l.detail}`, /one request|requests\)|fetch|Invoke-RestMethod/u, l.label);
    const free = snippetLanguages(endpoint('credits'));
    assert.deepEqual(free.map((l) => l.id), ['runner', 'curl', 'python', 'typescript', 'powershell']);
    for (const l of free.slice(1)) assert.match(l.detail, /^The one request .*free: nothing is charged/u, l.label);
    // A paid call asked for as curl (the last choice, or a caller's) is the runner's line, named so.
    assert.equal(languageUsed('curl', endpoint('trending')), 'runner');
    assert.equal(languageLabel('curl', endpoint('trending')), 'Command line (wallet-analytics runner)');
    assert.equal(languageUsed('curl', endpoint('credits')), 'curl');
  });

  it('a free read’s other languages describe the one request only: no loop, no function, no branch, no error handling, no poll, no download', () => {
    const program = /\bwhile\b|\buntil\b|\bfor\b.*\bin\b.*:|for \(|\bdef \w|\bfunction \w|sleep|Sleep|setTimeout|-OutFile|-o "|open\(|writeFile|iter_content|\bif\b|\belse\b|\bthrow\b|\bexit\b|\btry\b|\bexcept\b|\bcatch\b|\bset -e|:\?|subprocess|spawnSync|cli\.js/u;
    const free = ENDPOINTS.filter((ep) => !isPaid(ep));
    assert.ok(free.length >= 4, free.map((ep) => ep.id).join());
    for (const ep of free) {
      const d = described(ep.id);
      for (const lang of LANGS.filter((l) => l !== 'runner')) {
        const code = text(lang, d).split('\n').filter((l) => !/^\s*(#|\/\/)/u.test(l)).join('\n');
        assert.doesNotMatch(code, program, `${ep.id} ${lang}:\n${code}`);
        // Only the account call that reads one request's record (free) names GET /request/{requestId}: no snippet polls.
        if (ep.id !== 'request') assert.doesNotMatch(code, /\/request\//u, `${ep.id} ${lang}`);
        assert.match(code, { curl: /curl -sS --fail-with-body/u, python: /^print\(r\.text\)$/mu, typescript: /console\.log\("HTTP " \+ res\.status\);\nconsole\.log\(await res\.text\(\)\);/u, powershell: /^Invoke-RestMethod .* \| ConvertTo-Json -Depth 100$/mu }[lang], `${ep.id} ${lang}`);
      }
    }
  });

  it('no request carrying the key follows a redirect', () => {
    const d = described('credits');
    const curl = text('curl', d);
    for (const line of curl.split('\n').filter((l) => l.includes('$WA_API_KEY') && l.includes('curl'))) assert.doesNotMatch(line, / -L /u, line);
    assert.doesNotMatch(curl, / -L\b|--location/u);
    assert.match(text('python', d), /allow_redirects=False/u);
    assert.match(text('typescript', d), /redirect: "error"/u);
    assert.equal((text('powershell', d).match(/-MaximumRedirection 0/gu) ?? []).length, 1);
  });

  it('refuses input the extension would refuse, with the catalog’s message', () => {
    const r = describeCall(endpoint('toptraders'), { tokens: ['not an address'] }, BASE);
    assert.equal(r.ok, false);
    if (!r.ok) assert.ok(r.errors.length > 0);
  });
});

describe('Copy as Code: quoting hostile values', () => {
  it('bash: each value comes back byte for byte from bash', () => {
    for (const s of HOSTILE) assert.equal(execFileSync('bash', ['-c', `printf '%s' ${bashQuote(s)}`], { encoding: 'utf8' }), s);
  });
  it('Python: each value comes back byte for byte from python3', () => {
    const found = pythonWith();
    assert.ok(found, 'python3 is installed (scripts/system-deps.js: python3)');
    const python: string = found;
    for (const s of HOSTILE) {
      const back: string = execFileSync(python, ['-c', `import sys; sys.stdout.buffer.write(${jsonQuote(s)}.encode("utf-8"))`], { encoding: 'utf8' });
      assert.equal(back, s);
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
});

describe('Copy as Code: a paid call’s arguments reach the runner byte for byte in every language', () => {
  // A stand-in runner at a hostile path records the arguments it was given and exits with a chosen code;
  // the real runner runs against the sandbox (snippetsSandbox.test.ts). PowerShell has no Debian package (fixtures/runSnippet.ts).
  const root = mkdtempSync(join(tmpdir(), 'wa-snippet-argv-'));
  const place = join(root, `it's $HOME \`id\` "q" é`);
  mkdirSync(place);
  const stand = { file: join(place, 'cli.js') };
  writeFileSync(stand.file, 'require("node:fs").writeFileSync(process.env.WA_ARGV_OUT, JSON.stringify(process.argv.slice(2))); process.exitCode = Number(process.env.WA_EXIT ?? 0);\n');
  /** Inputs holding every character that ends or expands a string somewhere: quotes, backslashes, $, backticks, new lines, non-ASCII. */
  const inputs = (): { id: string; input: Record<string, unknown>; base: string }[] => [
    ...HOSTILE.map((value, i) => ({ id: 'wallet_database', input: { query: { where: { or: [{ field: `f${i}`, op: '=', value }] }, limit: 5 } }, base: BASE })),
    { id: 'wallet_database', input: { query: { where: { or: HOSTILE.map((value, i) => ({ field: `f${i}`, op: '=', value })) }, limit: 5 } }, base: "http://127.0.0.1:9/p'a$th`x" },
    { id: 'pnl', input: sampleInput(endpoint('pnl')), base: 'http://127.0.0.1:9' },
  ];
  for (const lang of ['runner', 'curl', 'python', 'typescript'] as const) {
    it(lang, async () => {
      assert.ok(TOOLS[lang].have, `${TOOLS[lang].needs} is installed (scripts/system-deps.js)`);
      for (const [n, c] of inputs().entries()) {
        const r = describeCall(endpoint(c.id), c.input, c.base, { knownMatches: 3 });
        assert.ok(r.ok, r.ok ? '' : r.errors.join(' '));
        const d = r.call;
        const code = snippet(lang, d, stand);
        const dir = mkdtempSync(join(root, `${lang}-`));
        const out = join(dir, 'argv.json');
        const exit = n % 2 === 0 ? '0' : '3';
        const res = await runSnippet(lang, code, dir, { PATH: process.env.PATH ?? '', WA_ARGV_OUT: out, WA_EXIT: exit });
        const max = String(d.price.exact ? d.price.credits : (d.price.atMost ?? d.price.credits));
        assert.deepEqual(JSON.parse(readFileSync(out, 'utf8')), ['call', c.id, '--input', JSON.stringify(d.input), '--max-credits', max, '--base-url', d.base], `${lang} #${n}:\n${code}`);
        // The runner's exit code is the script's (Python: check=True stops it, naming the code).
        if (lang === 'python' && exit !== '0') {
          assert.equal(res.status, 1, res.stderr);
          assert.match(res.stderr, /CalledProcessError: Command .* returned non-zero exit status 3\./u);
        } else {
          assert.equal(String(res.status), exit, `${lang} #${n}: ${res.stdout}${res.stderr}`);
        }
      }
    });
  }
});

describe('Copy as Code: a free read’s request, under a hostile base path, reaches the server byte for byte', () => {
  // The runner's line runs against the sandbox (snippetsSandbox.test.ts); PowerShell has no Debian package (fixtures/runSnippet.ts).
  for (const lang of ['curl', 'python', 'typescript'] as const) {
    const r = { lang, ...TOOLS[lang] };
    it(`${r.lang}`, async () => {
      assert.ok(r.have, `${r.needs} is installed (scripts/system-deps.js)`);
      const seen: { method: string; url: string; key: string; headers: IncomingMessage['headers'] }[] = [];
      const server = createServer((req, res) => {
        req.resume();
        req.on('end', () => {
          const h = req.headers.api_key;
          seen.push({ method: req.method ?? '', url: req.url ?? '', key: Array.isArray(h) ? h.join() : (h ?? ''), headers: req.headers });
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end('{"credits":5}');
        });
      });
      await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
      try {
        const addr = server.address();
        assert.ok(addr && typeof addr === 'object');
        const base = `http://127.0.0.1:${addr.port}/p'a$th\`x "q" é`;
        const d = described('wallet_database_columns', sampleInput(endpoint('wallet_database_columns')), base);
        const dir = mkdtempSync(join(tmpdir(), 'wa-snippet-'));
        const code = text(r.lang, d);
        const env = { ...process.env, WA_API_KEY: 'k"e y$`\'' };
        const res = await runSnippet(r.lang, code, dir, env);
        assert.equal(res.status, 0, `${r.lang} failed:\n${res.stderr}\n${code}`);
        assert.equal(seen.length, 1);
        const got = seen[0];
        assert.ok(got);
        assert.equal(got.method, 'GET');
        assert.equal(`http://127.0.0.1:${addr.port}${got.url}`, d.base + d.target);
        assert.equal(got.key, env.WA_API_KEY, 'the key came from the environment variable');
        assert.match(res.stdout, /"credits": ?5/u);
      } finally {
        await new Promise<void>((ok) => server.close(() => ok()));
      }
    });
  }
});
