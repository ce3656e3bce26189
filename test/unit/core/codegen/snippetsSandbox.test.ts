/**
 * Copy as Code snippets run for real against the sandbox (in this process), with the key given only
 * as WA_API_KEY: each must reach the sandbox as the extension's call would (its request log and its
 * ledger). A paid call, in every language, runs the runner's command line (the extension's own
 * dist/cli.js): priced, sent once, waited for, the file left in wallet-analytics-results/, and the
 * runner's exit code the script's. A free read is the one request, with no branch of its own: an
 * HTTP error is shown by the tool (curl's exit 22 and the answer, requests' HTTPError, the status
 * TypeScript prints), checked here with a refused key and with no key at all. PowerShell has no
 * Debian package: its snippet is checked as text (snippets.test.ts).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { encodeRequest, endpoint } from '../../../../src/core/spec/catalog';
import { isPaid, quote } from '../../../../src/core/money/pricing';
import { SAMPLE_QUERY, sampleInput } from '../../../../src/core/spec/samples';
import { describeCall, snippet } from '../../../../src/core/codegen/snippets';
import { startSandbox, type Sandbox } from '../../../../src/sandbox/index';
import { RUN_LANGUAGES, TOOLS, runSnippet } from '../../fixtures/runSnippet';
import { CLI } from '../../runner/cliSupport';

/** The runner as built (the file the extension ships and Copy as Code's first choice runs). */
const RUNNER = { file: CLI };

/** A Wallet Database query holding every character that ends or expands a string somewhere. */
const HOSTILE_QUERY = { where: { or: [`it's "q" \\ $HOME $(id) \`id\` \n é 😀 \u2028`, "'; rm -rf / #", '%s {0} $env:WA_API_KEY'].map((value) => ({ field: 'wallet', op: '=', value })) }, limit: 5 };

/** What a script says of the runner's exit code: Python's check=True stops it naming the code; the others exit with it. */
function runnerExit(lang: string, res: { status: number | null; stderr: string }): number | null {
  if (lang !== 'python' || res.status === 0) return res.status;
  const m = /returned non-zero exit status (\d+)\./u.exec(res.stderr);
  return m ? Number(m[1]) : res.status;
}

describe('Copy as Code snippets against the sandbox', () => {
  let sb: Sandbox;
  before(async () => {
    sb = await startSandbox({ port: 0, wallets: 2_000, altWallets: 500, delayScale: 0.001 });
  });
  after(async () => {
    await sb.close();
  });

  const cases: { id: string; input?: () => Record<string, unknown>; what?: string }[] = [
    { id: 'trending' },
    { id: 'pnl', input: () => ({ wallets: sb.addresses('wallet', 3) }) },
    { id: 'wallet_database', input: () => ({ query: SAMPLE_QUERY }) },
    { id: 'wallet_database', input: () => ({ query: HOSTILE_QUERY }), what: ' (quotes, backslashes, $, backticks, new lines, non-ASCII)' },
    { id: 'credits' },
  ];

  for (const lang of RUN_LANGUAGES) {
    const tool = TOOLS[lang];
    for (const c of cases) {
      it(`${lang}: ${c.id}${c.what ?? ''}`, async () => {
        assert.ok(tool.have, `${tool.needs} is installed (scripts/system-deps.js)`);
        const ep = endpoint(c.id);
        const input = c.input?.() ?? sampleInput(ep);
        const d = describeCall(ep, input, sb.baseUrl);
        assert.ok(d.ok, d.ok ? '' : d.errors.join(' '));
        const text = snippet(lang, d.call, RUNNER);
        assert.ok(!text.includes(sb.demoKey), 'the snippet holds no key');
        const dir = mkdtempSync(join(tmpdir(), `wa-snippet-${lang}-`));
        const received = sb.received().length;
        const charges = sb.ledger().length;
        const env = { PATH: process.env.PATH ?? '', WA_API_KEY: sb.demoKey, WA_POLL_INTERVAL_S: '0.05' };
        const res = await runSnippet(lang, text, dir, env);
        const calls = sb.received().slice(received);
        const wire = encodeRequest(ep, input);
        const sent = calls.filter((r) => r.method === wire.method && r.path === wire.path);

        // A paid call runs the runner in every language; a free read is the one request.
        const viaRunner = lang === 'runner' || isPaid(ep);
        if (viaRunner && ep.price.kind === 'perMatch') {
          // A query billed per match has no bound before it runs: the runner refuses it and sends nothing (the snippet says so).
          // Exit 3, not 2: the runner read the query the snippet handed it as valid JSON of the catalog's shape.
          assert.equal(runnerExit(lang, res), 3, `${res.stdout}${res.stderr}`);
          assert.match(res.stdout, /^Price: /mu);
          assert.match(text, /the runner refuses it \(exit 3\)/u);
          assert.deepEqual(sent, []);
          assert.equal(sb.ledger().length, charges);
          return;
        }
        assert.equal(res.status, 0, `${lang} ${c.id} failed:\n${res.stdout}${res.stderr}\n--- snippet ---\n${text}`);

        // The sandbox received the very call the extension would send, once, with the key header.
        const qs = new URLSearchParams(wire.query).toString();
        assert.equal(sent.length, 1, `sent once: ${calls.map((r) => `${r.method} ${r.path}`).join(', ')}`);
        const call = sent[0];
        assert.ok(call);
        assert.equal(call.query, qs ? `?${qs}` : '');
        assert.equal(call.apiKeyHeader, true);
        assert.equal(call.status, 200);

        // Paid: charged once, at the price the comment states (exact here).
        const newCharges = sb.ledger().slice(charges);
        if (quote(ep, input).credits > 0 && ep.price.kind !== 'perMatch') {
          assert.deepEqual(newCharges.map((e) => [e.endpoint, e.credits]), [[ep.id, quote(ep, input).credits]]);
        } else if (ep.price.kind === 'perMatch') {
          assert.equal(newCharges.length, 1);
          assert.equal(newCharges[0]?.endpoint, ep.id);
        } else {
          assert.equal(newCharges.length, 0);
        }

        if (viaRunner) {
          // The runner waited and downloaded (a queued call), or saved the answer (a direct one), in wallet-analytics-results/.
          const out = join(dir, 'wallet-analytics-results');
          const files = readdirSync(out).filter((f) => f.startsWith(`${ep.id}-`) && !f.endsWith('.meta.json'));
          assert.equal(files.length, 1, readdirSync(out).join(', '));
          assert.ok(statSync(join(out, files[0] ?? '')).size > 0, 'the file is not empty');
          assert.match(res.stdout, /^Done\. Charged: /mu);
          return;
        }
        assert.ok(!calls.some((r) => r.path.startsWith('/request/')), 'the snippet does not poll');
        assert.deepEqual(readdirSync(dir).filter((f) => !f.startsWith('call.')), [], 'the snippet writes no file');
        if (lang === 'typescript') assert.equal(res.stdout.split('\n')[0], 'HTTP 200', 'TypeScript prints the status first');
        assert.ok(res.stdout.trim().length > 0, 'the answer is printed');
      });
    }
  }

  // A free read's HTTP error, with no branch written in the snippet: what the person sees is the tool's own.
  for (const lang of RUN_LANGUAGES.filter((l) => l !== 'runner')) {
    for (const [why, key] of [
      ['a refused key', 'wa_not_a_key_of_this_service'],
      ['no key at all', undefined],
    ] as const) {
      it(`${lang}: an HTTP error (${why}) is visible to the person, and nothing is charged`, async () => {
        assert.ok(TOOLS[lang].have, `${TOOLS[lang].needs} is installed (scripts/system-deps.js)`);
        const ep = endpoint('wallet_database_columns');
        const d = describeCall(ep, {}, sb.baseUrl);
        assert.ok(d.ok, d.ok ? '' : d.errors.join(' '));
        const text = snippet(lang, d.call, RUNNER);
        const dir = mkdtempSync(join(tmpdir(), `wa-snippet-${lang}-error-`));
        const received = sb.received().length;
        const charges = sb.ledger().length;
        const env = { PATH: process.env.PATH ?? '', ...(key === undefined ? {} : { WA_API_KEY: key }) };
        const res = await runSnippet(lang, text, dir, env);
        const out = `${res.stdout}${res.stderr}`;
        const sent = sb.received().slice(received);
        assert.equal(sb.ledger().length, charges, 'nothing charged');
        if (lang === 'python' && key === undefined) {
          // os.environ["WA_API_KEY"]: Python stops before sending, naming the variable.
          assert.notEqual(res.status, 0, out);
          assert.match(res.stderr, /KeyError: 'WA_API_KEY'/u);
          assert.deepEqual(sent, []);
          return;
        }
        assert.deepEqual(sent.map((r) => r.status), [401], 'sent once, refused');
        if (lang === 'curl') {
          assert.equal(res.status, 22, out);
          assert.match(res.stdout, /api_key/u, 'the service’s answer says why');
        } else if (lang === 'python') {
          assert.notEqual(res.status, 0, out);
          assert.match(res.stderr, /HTTPError: 401 Client Error/u);
          assert.equal(res.stdout, '', 'no answer printed');
        } else {
          assert.equal(res.stdout.split('\n')[0], 'HTTP 401', out);
          assert.match(res.stdout, /api_key/u, 'the service’s answer says why');
        }
      });
    }
  }

  // A paid call refused by the service: the runner says so, and its exit code is the script's in every language.
  for (const lang of RUN_LANGUAGES) {
    it(`${lang}: a paid call with a refused key: the runner's exit code is the script's, nothing charged`, async () => {
      assert.ok(TOOLS[lang].have, `${TOOLS[lang].needs} is installed (scripts/system-deps.js)`);
      const d = describeCall(endpoint('pnl'), { wallets: sb.addresses('wallet', 2) }, sb.baseUrl);
      assert.ok(d.ok, d.ok ? '' : d.errors.join(' '));
      const dir = mkdtempSync(join(tmpdir(), `wa-snippet-${lang}-refused-`));
      const charges = sb.ledger().length;
      const received = sb.received().length;
      const res = await runSnippet(lang, snippet(lang, d.call, RUNNER), dir, { PATH: process.env.PATH ?? '', WA_API_KEY: 'wa_not_a_key_of_this_service', WA_POLL_INTERVAL_S: '0.05' });
      assert.equal(runnerExit(lang, res), 1, `${res.stdout}${res.stderr}`);
      assert.match(res.stdout, /^Failed\. Charged: 0/mu, res.stdout);
      assert.equal(sb.ledger().length, charges, 'nothing charged');
      assert.equal(sb.received().slice(received).filter((r) => r.path === '/pnl').length, 1, 'sent once, not again');
    });
  }
});
