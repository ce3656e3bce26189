/**
 * Copy as Code snippets run for real against the sandbox (in this process), with the key given only
 * as WA_API_KEY: each must reach the sandbox as the extension's call would (its request log and its
 * ledger). Every call, in every language, runs the runner's command line (the extension's own
 * dist/cli.js), and the runner's exit code is the script's. A paid call is priced, sent once, waited
 * for, its file left in wallet-analytics-results/. A free read (the balance, the history, the
 * columns) is sent once, charges nothing, leaves no file, and the script prints its answer alone on stdout, as JSON
 * (the runner's lines on stderr); with a refused key or none at all it says why and prints no answer.
 * PowerShell has no Debian package: its snippet is checked as text (snippets.test.ts).
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
import { WalletAnalyticsApi } from '../../../../src/core/transport/api';
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
    { id: 'requests' },
    { id: 'wallet_database_columns' },
  ];
  /** A free read's answer as the core reads it (what the runner prints): asked here with the same client. */
  const freeAnswer = (id: string): Promise<unknown> => {
    const api = new WalletAnalyticsApi({ baseUrl: sb.baseUrl, apiKey: () => Promise.resolve(sb.demoKey) });
    return id === 'credits' ? api.credits() : id === 'wallet_database_columns' ? api.columns('main') : api.requests();
  };

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
        const env = { PATH: process.env.PATH ?? '', WA_API_KEY: sb.demoKey, WA_POLL_INTERVAL_S: '0.05' };
        // Read before the snippet runs: a free read changes nothing it reads.
        const want = isPaid(ep) ? undefined : JSON.parse(JSON.stringify(await freeAnswer(ep.id))) as unknown;
        const received = sb.received().length;
        const charges = sb.ledger().length;
        const res = await runSnippet(lang, text, dir, env);
        const calls = sb.received().slice(received);
        const wire = encodeRequest(ep, input);
        const sent = calls.filter((r) => r.method === wire.method && r.path === wire.path);

        // Every call runs the runner, in every language.
        if (ep.price.kind === 'perMatch') {
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

        // Paid: charged once, at the price the comment states (exact here); free: nothing.
        const newCharges = sb.ledger().slice(charges);
        // (A query billed per match was refused above: the runner sends it only with an exact price.)
        if (quote(ep, input).credits > 0) {
          assert.deepEqual(newCharges.map((e) => [e.endpoint, e.credits]), [[ep.id, quote(ep, input).credits]]);
        } else {
          assert.equal(newCharges.length, 0);
        }

        // A paid call: the runner waited and downloaded (a queued call), or saved the answer (a direct one), in wallet-analytics-results/.
        const out = join(dir, 'wallet-analytics-results');
        if (isPaid(ep)) {
          const files = readdirSync(out).filter((f) => f.startsWith(`${ep.id}-`) && !f.endsWith('.meta.json'));
          assert.equal(files.length, 1, readdirSync(out).join(', '));
          assert.ok(statSync(join(out, files[0] ?? '')).size > 0, 'the file is not empty');
          assert.match(res.stdout, /^Done\. Charged: /mu);
          return;
        }
        // A free read: the script's stdout is the answer alone, JSON a script parses; the runner's lines, nothing charged, on stderr.
        // It keeps no file where it ran (no --out): a scheduled balance check leaves nothing behind.
        assert.deepEqual(readdirSync(dir).filter((f) => !/^call\.(sh|py|mjs)$/u.test(f)), [], 'a free read leaves no file beside its script');
        assert.ok(!calls.some((r) => r.path.startsWith('/request/')), 'a free read does not poll');
        assert.deepEqual(JSON.parse(res.stdout), want, `${lang} ${c.id}: ${res.stdout.slice(0, 300)}`);
        assert.match(res.stderr, /^Done\. Charged: 0 credits\.$/mu, res.stderr);
      });
    }
  }

  // A free read with a refused key, or none: the runner says why (on stderr) and its exit code is the script's; no answer is printed.
  for (const lang of RUN_LANGUAGES) {
    for (const [why, key] of [
      ['a refused key', 'wa_not_a_key_of_this_service'],
      ['no key at all', undefined],
    ] as const) {
      it(`${lang}: a free read with ${why}: the runner says why, its exit code is the script's, no answer printed, nothing charged`, async () => {
        assert.ok(TOOLS[lang].have, `${TOOLS[lang].needs} is installed (scripts/system-deps.js)`);
        const d = describeCall(endpoint('wallet_database_columns'), {}, sb.baseUrl);
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
        assert.equal(res.stdout, '', `no answer printed: ${out}`);
        if (key === undefined) {
          // Bad input, before anything is sent: the runner names the variable.
          assert.equal(runnerExit(lang, res), 2, out);
          assert.match(res.stderr, /WA_API_KEY is not set/u);
          assert.deepEqual(sent, []);
          return;
        }
        assert.equal(runnerExit(lang, res), 1, out);
        assert.deepEqual(sent.map((r) => r.status), [401], 'sent once, refused');
        assert.match(res.stderr, /The API key was refused/u, 'the service’s refusal is said');
        assert.match(res.stderr, /^Failed\. Charged: 0 credits\.$/mu);
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
