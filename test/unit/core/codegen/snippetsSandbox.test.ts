/**
 * Copy as Code snippets run for real against the sandbox (in this process), with the key given only
 * as WA_API_KEY: each must reach the sandbox as the extension's call would (its request log and its
 * ledger), and a queued one must poll to the end and leave the downloaded file. A language whose
 * tool is missing on this machine is skipped with the tool's name.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { encodeRequest, endpoint } from '../../../../src/core/spec/catalog';
import { quote } from '../../../../src/core/money/pricing';
import { SAMPLE_QUERY, sampleInput } from '../../../../src/core/spec/samples';
import { SNIPPET_LANGUAGES, describeCall, snippet } from '../../../../src/core/codegen/snippets';
import { startSandbox, type Sandbox } from '../../../../src/sandbox/index';
import { TOOLS, runSnippet } from '../../fixtures/runSnippet';

describe('Copy as Code snippets against the sandbox', () => {
  let sb: Sandbox;
  before(async () => {
    sb = await startSandbox({ port: 0, wallets: 2_000, altWallets: 500, delayScale: 0.001 });
  });
  after(async () => {
    await sb.close();
  });

  const cases: { id: string; input?: () => Record<string, unknown> }[] = [
    { id: 'trending' },
    { id: 'pnl', input: () => ({ wallets: sb.addresses('wallet', 3) }) },
    { id: 'wallet_database', input: () => ({ query: SAMPLE_QUERY }) },
    { id: 'credits' },
  ];

  for (const { id: lang } of SNIPPET_LANGUAGES) {
    const tool = TOOLS[lang];
    for (const c of cases) {
      it(`${lang}: ${c.id}`, { skip: tool.have ? false : `${tool.needs} is not installed: this snippet is checked as text only (test/unit/core/codegen/snippets.test.ts)` }, async () => {
        const ep = endpoint(c.id);
        const input = c.input?.() ?? sampleInput(ep);
        const d = describeCall(ep, input, sb.baseUrl);
        assert.ok(d.ok, d.ok ? '' : d.errors.join(' '));
        const text = snippet(lang, d.call);
        assert.ok(!text.includes(sb.demoKey), 'the snippet holds no key');
        const dir = mkdtempSync(join(tmpdir(), `wa-snippet-${lang}-`));
        const received = sb.received().length;
        const charges = sb.ledger().length;
        const res = await runSnippet(lang, text, dir, { ...process.env, WA_API_KEY: sb.demoKey });
        assert.equal(res.status, 0, `${lang} ${c.id} failed:\n${res.stderr}\n--- snippet ---\n${text}`);

        // The sandbox received the very call the extension would send, with the key header.
        const wire = encodeRequest(ep, input);
        const qs = new URLSearchParams(wire.query).toString();
        const calls = sb.received().slice(received);
        const call = calls.find((r) => r.method === wire.method && r.path === wire.path);
        assert.ok(call, `no ${wire.method} ${wire.path} among ${calls.map((r) => `${r.method} ${r.path}`).join(', ')}`);
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

        if (ep.family === 'queued') {
          assert.equal(calls.filter((r) => r.method === wire.method && r.path === wire.path).length, 1, 'submitted once');
          assert.ok(calls.some((r) => r.path.startsWith('/request/')), 'polled GET /request/{requestId}');
          const files = readdirSync(dir).filter((f) => f.startsWith(`${ep.id}-`));
          assert.equal(files.length, 1, `downloaded one file: ${readdirSync(dir).join(', ')}`);
          assert.ok(statSync(join(dir, files[0] ?? '')).size > 0, 'the file is not empty');
        } else {
          assert.ok(res.stdout.trim().length > 0, 'the answer is printed');
        }
      });
    }
  }
});
