/**
 * Copy as Code (src/core/codegen/snippets.ts) as text: every endpoint in every language, the key only as an
 * environment variable, the price comment, the runner's command line with the price as --max-credits,
 * every other language running that line, for a paid call and a free read alike (no request of their
 * own: the house rule is test/unit/house/oneLanguage.test.ts), and quoting that holds against hostile
 * values: each quoted value handed to the real interpreter, the argument list each language hands the
 * runner recorded by a stand-in runner, and a local server that records the exact request the real
 * runner sends for a free read under a hostile base path, and the answer the script prints.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { transformSync } from 'esbuild';
import { ENDPOINTS, encodeRequest, endpoint, validateInput } from '../../../../src/core/spec/catalog';
import { callUrl } from '../../../../src/core/transport/http';
import { isPaid, quote } from '../../../../src/core/money/pricing';
import { sampleInput } from '../../../../src/core/spec/samples';
import { TOOLS, pythonWith, runSnippet } from '../../fixtures/runSnippet';
import { CLI } from '../../runner/cliSupport';
import { SNIPPET_LANGUAGES, bashQuote, describeCall, isSnippetLanguage, jsonQuote, languageLabel, psQuote, snippet, snippetLanguages, type CallDescription, type SnippetLanguage } from '../../../../src/core/codegen/snippets';

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
    it(`${ep.id}: the runner is given the checked inputs, and a base URL that reaches the call the transport sends`, () => {
      const input = sampleInput(ep);
      const d = described(ep.id, input, `${BASE}/v1/`);
      const wire = encodeRequest(ep, input);
      // The runner joins the call's path to --base-url as the transport does: the same URL.
      assert.equal(callUrl(new URL(d.base), wire.path, wire.query).href, callUrl(new URL(`${BASE}/v1/`), wire.path, wire.query).href);
      assert.equal(d.base, `${BASE}/v1`);
      assert.equal(d.origin, BASE);
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
          // Every snippet runs the runner, which reads the variable itself: the comment says so, and no language reads it.
          assert.ok(t.includes(`reads the key from the environment variable WA_API_KEY and sends it only to ${BASE}.`), `${ep.id} ${lang}`);
          assert.doesNotMatch(t, /os\.environ|process\.env\.WA_API_KEY|\$env:WA_API_KEY|"\$WA_API_KEY"/u, `${ep.id} ${lang}`);
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

  it('every call’s other languages, paid or free, run the runner’s line (no request, no loop, no branch of their own); curl is not a language', () => {
    const program = /\bwhile\b|\buntil\b|\bfor\b.*\bin\b.*:|for \(|\bdef \w|\bfunction \w|sleep|Sleep|setTimeout|-OutFile|-o "|open\(|writeFile|iter_content|\bif\b|\belse\b|\bthrow\b|\btry\b|\bexcept\b|\bcatch\b|\bset -e|:\?|requests\.|import requests|fetch\(|Invoke-RestMethod|curl |\/request\//u;
    assert.deepEqual(LANGS, ['runner', 'python', 'typescript', 'powershell']);
    assert.equal(isSnippetLanguage('curl'), false);
    for (const ep of ENDPOINTS) {
      const d = described(ep.id);
      for (const lang of ['python', 'typescript', 'powershell'] as const) {
        const code = text(lang, d).split('\n').filter((l) => !/^\s*(#|\/\/)/u.test(l)).join('\n');
        // PowerShell hands on the runner's exit code (exit $LASTEXITCODE): no branch, the runner's answer.
        // The id of the call that reads one request's record (free) is `request`: its runner line names it, no path.
        assert.doesNotMatch(code.replace(/^exit \$LASTEXITCODE$/mu, ''), program, `${ep.id} ${lang}:\n${code}`);
        assert.match(code, { python: /^subprocess\.run\(\[.*\], check=True\)$/mu, typescript: /^process\.exitCode = r\.status \?\? 1;$/mu, powershell: /^exit \$LASTEXITCODE$/mu }[lang], `${ep.id} ${lang}`);
      }
    }
  });

  it('a free read’s snippet says the runner prints its answer as JSON on stdout and charges nothing; a paid one says it prices, sends once and downloads', () => {
    const free = ENDPOINTS.filter((ep) => !isPaid(ep));
    assert.ok(free.length >= 4, free.map((ep) => ep.id).join());
    for (const ep of free) {
      for (const lang of LANGS) {
        const t = text(lang, described(ep.id));
        assert.match(t, /prints the answer alone on stdout, as\n(#|\/\/) JSON a script can parse/u, `${ep.id} ${lang}`);
        assert.match(t, /nothing is charged either way/u, `${ep.id} ${lang}`);
        assert.match(t, /--max-credits['"]?,? ['"]?0['"]?[ ,]/u, `${ep.id} ${lang}: --max-credits 0`);
        assert.doesNotMatch(t, /spends credits|downloads its file/u, `${ep.id} ${lang}`);
      }
    }
    for (const ep of ENDPOINTS.filter(isPaid)) assert.match(text('python', described(ep.id)), /sends the call once, looks a lost answer up/u, ep.id);
  });

  it('the picker says what each choice does: each runs the runner; a paid call’s is priced, a free read’s answer is printed; no curl, no request of its own', () => {
    const paid = snippetLanguages(endpoint('trending'));
    assert.deepEqual(paid.map((l) => l.id), ['runner', 'python', 'typescript', 'powershell']);
    assert.equal(paid[0]?.label, 'Command line (wallet-analytics runner)');
    for (const l of paid.slice(1)) assert.match(l.label, /^(Python|TypeScript|PowerShell): runs the priced call through the runner$/u, l.label);
    const free = snippetLanguages(endpoint('credits'));
    assert.deepEqual(free.map((l) => l.id), ['runner', 'python', 'typescript', 'powershell']);
    assert.equal(free[0]?.label, 'Command line (wallet-analytics runner)');
    for (const l of free.slice(1)) assert.match(l.label, /^(Python|TypeScript|PowerShell): runs the free read through the runner$/u, l.label);
    for (const l of free) assert.match(l.detail, /the answer printed as JSON \(free: nothing is charged\)\.$/u, l.label);
    for (const l of [...paid, ...free]) assert.doesNotMatch(`${l.label} ${l.detail}`, /one request|requests\)|fetch|Invoke-RestMethod|curl/u, l.label);
    assert.equal(languageLabel('python', endpoint('credits')), 'Python: runs the free read through the runner');
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

describe('Copy as Code: a call’s arguments reach the runner byte for byte in every language', () => {
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
    // Free reads: the runner is run with --max-credits 0, as a paid call is run with its price.
    { id: 'credits', input: {}, base: "http://127.0.0.1:9/p'a$th`x" },
    { id: 'request', input: { requestId: `r-1 it's "q" $HOME` }, base: BASE },
  ];
  for (const lang of ['runner', 'python', 'typescript'] as const) {
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

describe('Copy as Code: a free read run by the real runner, under a hostile base path: the request the server gets, the answer the script prints', () => {
  // The sandbox runs every language's free read too (snippetsSandbox.test.ts); PowerShell has no Debian package (fixtures/runSnippet.ts).
  for (const lang of ['runner', 'python', 'typescript'] as const) {
    const r = { lang, ...TOOLS[lang] };
    it(`${r.lang}`, async () => {
      assert.ok(r.have, `${r.needs} is installed (scripts/system-deps.js)`);
      const seen: { method: string; url: string; key: string }[] = [];
      const server = createServer((req, res) => {
        req.resume();
        req.on('end', () => {
          const h = req.headers.api_key;
          seen.push({ method: req.method ?? '', url: req.url ?? '', key: Array.isArray(h) ? h.join() : (h ?? '') });
          res.writeHead(200, { 'content-type': 'application/json' });
          // The balance, a number carried in a string (the API's §4.1).
          res.end('"12345"');
        });
      });
      await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
      try {
        const addr = server.address();
        assert.ok(addr && typeof addr === 'object');
        const base = `http://127.0.0.1:${addr.port}/p'a$th\`x "q" é`;
        const d = described('credits', {}, base);
        const dir = mkdtempSync(join(tmpdir(), 'wa-snippet-'));
        const code = snippet(r.lang, d, { file: CLI });
        const env = { PATH: process.env.PATH ?? '', WA_API_KEY: 'k"e y$`\'' };
        const res = await runSnippet(r.lang, code, dir, env);
        assert.equal(res.status, 0, `${r.lang} failed:\n${res.stdout}${res.stderr}\n${code}`);
        assert.equal(seen.length, 1, JSON.stringify(seen));
        const got = seen[0];
        assert.ok(got);
        assert.equal(got.method, 'GET');
        assert.equal(`http://127.0.0.1:${addr.port}${got.url}`, callUrl(new URL(base), '/credits').href);
        assert.equal(got.key, env.WA_API_KEY, 'the key came from the environment variable');
        // The script's stdout is the answer alone, as JSON; the runner's lines went to stderr.
        assert.equal(JSON.parse(res.stdout), 12345, res.stdout);
        assert.match(res.stderr, /^Done\. Charged: 0 credits\.$/mu, res.stderr);
      } finally {
        await new Promise<void>((ok) => server.close(() => ok()));
      }
    });
  }
});
