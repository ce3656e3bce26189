/**
 * `wallet-analytics call` and `fetch` (the command line Copy as Code hands a person instead of a
 * client written again in another language), spawned as dist/cli.js against the sandbox in this
 * process, whose request log and ledger are the proof:
 * - the exact price is printed before anything is sent, a price above --max-credits sends nothing
 *   (exit 3), a bad input is refused with its field's rule before any request (exit 2);
 * - a queued call is submitted once, charged once at its price, waited for and its file downloaded;
 *   a direct answer is saved; a query with no bound is refused;
 * - a lost answer whose record cannot be found: "may have been charged" (exit 4), and the same call
 *   again sends nothing (exit 3) unless --charge-again;
 * - fetch waits for a job submitted elsewhere and downloads it, free.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { SAMPLE_QUERY } from '../../../src/core/spec/samples';
import { WalletAnalyticsApi } from '../../../src/core/transport/api';
import { startSandbox, type Sandbox } from '../../../src/sandbox/index';
import { runCli } from './cliSupport';

describe('wallet-analytics call and fetch against the sandbox', () => {
  const sandboxes: Sandbox[] = [];
  let dir: string;
  const fresh = async (): Promise<Sandbox> => {
    const sb = await startSandbox({ seed: 7, wallets: 1_000, altWallets: 100, delayScale: 0.001, ackTimeoutMs: 300 });
    sandboxes.push(sb);
    return sb;
  };
  // Jobs are read every 50 ms, not the default 5 s: the sandbox's jobs take milliseconds (delayScale).
  // An answer is waited for 5 s (a lost one, the faults', costs that much): at 0.5 s a loaded
  // machine's ordinary answer came too late and a run that was charged read as "no clear answer".
  const env = (sb: Sandbox): Record<string, string> => ({ WA_API_KEY: sb.demoKey, WA_ACK_TIMEOUT_S: '5', WA_POLL_INTERVAL_S: '0.05' });
  const out = (): string => mkdtempSync(join(dir, 'out-'));
  /** The result files in a folder (not the runner's state or a sidecar). */
  const results = (d: string, prefix: string): string[] => readdirSync(d).filter((f) => f.startsWith(prefix) && !f.endsWith('.meta.json'));

  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'wa-call-'));
  });
  after(async () => {
    await Promise.all(sandboxes.map((s) => s.close()));
    rmSync(dir, { recursive: true, force: true });
  });

  it('a queued call: the price first, submitted once, charged once, waited for, its file downloaded; exit 0', async () => {
    const sb = await fresh();
    const o = out();
    const r = await runCli(['call', 'trending', '--input', '{"hours":1}', '--max-credits', '50', '--out', o, '--base-url', sb.baseUrl], env(sb));
    assert.equal(r.code, 0, r.stdout + r.stderr);
    const lines = r.stdout.split('\n');
    const price = lines.findIndex((l) => l === 'Price: 50 credits');
    const firstRequest = lines.findIndex((l) => l.includes('→ '));
    assert.ok(price >= 0 && price < firstRequest, `the price comes before any request:\n${r.stdout}`);
    assert.deepEqual(sb.ledger().map((e) => [e.endpoint, e.credits]), [['trending', 50]]);
    assert.equal(sb.received().filter((q) => q.path === '/trending').length, 1, 'submitted once');
    assert.equal(r.last, 'Done. Charged: 50 credits.');
    const files = results(o, 'trending-');
    assert.equal(files.length, 1, readdirSync(o).join(', '));
    assert.ok(statSync(join(o, files[0] ?? '')).size > 0);
    assert.match(r.stdout, new RegExp(`Saved ${join(o, files[0] ?? '').replace(/[.*+?^${}()|[\]\\]/gu, '\\$&')}`, 'u'));
  });

  it('a price above --max-credits: refused with exit 3, and not one request is sent', async () => {
    const sb = await fresh();
    const tokens = sb.addresses('token', 2);
    const r = await runCli(['call', 'toptraders', '--input', JSON.stringify({ tokens, output: 'txt' }), '--max-credits', '199', '--out', out(), '--base-url', sb.baseUrl], env(sb));
    assert.equal(r.code, 3, r.stdout + r.stderr);
    assert.match(r.stdout, /^Price: 200 credits \(2 tokens × 100\)$/mu);
    assert.equal(r.last, 'Refused: the price (200 credits) is above --max-credits 199. Nothing was sent. Charged: 0 credits.');
    assert.equal(sb.received().length, 0);
  });

  it('bad input, an unknown endpoint, JSON that is not an object: exit 2 with the reason, before any request', async () => {
    const sb = await fresh();
    const cases: [readonly string[], RegExp][] = [
      [['call', 'toptraders', '--input', '{"tokens":["not an address"]}', '--max-credits', '100'], /toptraders: .*Tokens.*Nothing was sent\./u],
      [['call', 'trending', '--input', '{"hours":"soon"}', '--max-credits', '100'], /trending: .*Nothing was sent\./u],
      [['call', 'nope', '--max-credits', '100'], /Unknown endpoint “nope”/u],
      [['call', 'trending', '--input', '{hours:1}', '--max-credits', '100'], /--input is not JSON/u],
      [['call', 'trending', '--input', '[1]', '--max-credits', '100'], /one JSON object/u],
      [['call', 'trending', '--input', '{"hours":1}'], /needs --max-credits/u],
      [['fetch'], /fetch takes one request id/u],
      [['fetch', 'r1', '--endpoint', 'credits'], /not a queued endpoint/u],
    ];
    for (const [args, message] of cases) {
      const r = await runCli([...args, '--out', out(), '--base-url', sb.baseUrl], env(sb));
      assert.equal(r.code, 2, `${args.join(' ')}: ${r.stdout}${r.stderr}`);
      assert.match(r.stderr, message, args.join(' '));
    }
    for (const args of [['call', '--help'], ['fetch', '--help']]) {
      const r = await runCli(args);
      assert.equal(r.code, 0);
      assert.match(r.stdout, /^wallet-analytics (call|fetch) </u);
    }
    assert.equal(sb.received().length, 0, 'nothing reached the sandbox');
  });

  it('a direct call is saved as JSON; a free one needs --max-credits 0; a query with no bound is refused, nothing sent', async () => {
    const sb = await fresh();
    const o = out();
    const free = await runCli(['call', 'credits', '--max-credits', '0', '--out', o, '--base-url', sb.baseUrl], env(sb));
    assert.equal(free.code, 0, free.stdout + free.stderr);
    assert.match(free.stderr, /^Price: free$/mu);
    assert.equal(free.stderr.trimEnd().split('\n').at(-1), 'Done. Charged: 0 credits.');
    assert.equal(results(o, 'credits-').length, 1, readdirSync(o).join(', '));
    const before = sb.received().length;
    const query = await runCli(['call', 'wallet_database', '--input', JSON.stringify({ query: SAMPLE_QUERY }), '--max-credits', '100000', '--out', o, '--base-url', sb.baseUrl], env(sb));
    assert.equal(query.code, 3, query.stdout + query.stderr);
    assert.match(query.stdout, /^Price: no bound: a Wallet Database query is billed/mu);
    assert.match(query.last, /^Refused: the price has no bound before it runs\. Nothing was sent\. Charged: 0 credits\.$/u);
    // Only the free field list a query's checks read may have been asked, never the query.
    assert.deepEqual(sb.received().slice(before).filter((q) => q.path === '/wallet_database'), []);
    assert.equal(sb.ledger().length, 0);
  });

  it('a free read prints its answer alone on stdout, as JSON a script parses; its own lines (the price, nothing charged) on stderr; exit 0', async () => {
    const sb = await fresh();
    const o = out();
    const ledger = sb.ledger().length;
    const api = new WalletAnalyticsApi({ baseUrl: sb.baseUrl, apiKey: () => Promise.resolve(sb.demoKey) });
    for (const [id, want] of [['credits', await api.credits()], ['wallet_database_columns', await api.columns('main')]] as const) {
      const r = await runCli(['call', id, '--max-credits', '0', '--out', o, '--base-url', sb.baseUrl], env(sb));
      assert.equal(r.code, 0, r.stdout + r.stderr);
      // stdout is the answer and nothing else: `wallet-analytics call credits … | jq`, or a script's json.loads, reads it.
      assert.deepEqual(JSON.parse(r.stdout), JSON.parse(JSON.stringify(want)), `${id}: ${r.stdout.slice(0, 200)}`);
      assert.match(r.stderr, /^Price: free$/mu, r.stderr);
      assert.equal(r.stderr.trimEnd().split('\n').at(-1), 'Done. Charged: 0 credits.', r.stderr);
    }
    assert.equal(sb.ledger().length, ledger, 'nothing charged');
  });

  it('a free read run with no --out keeps no file: a scheduled `call credits` leaves nothing behind (with --out it is kept)', async () => {
    const sb = await fresh();
    const cwd = out();
    const r = await runCli(['call', 'credits', '--max-credits', '0', '--base-url', sb.baseUrl], env(sb), cwd);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.equal(JSON.parse(r.stdout), await new WalletAnalyticsApi({ baseUrl: sb.baseUrl, apiKey: () => Promise.resolve(sb.demoKey) }).credits());
    assert.deepEqual(readdirSync(cwd), [], 'nothing written where it ran');
    assert.doesNotMatch(r.stderr, /^Saved /mu, r.stderr);
    const kept = await runCli(['call', 'credits', '--max-credits', '0', '--out', 'answers', '--base-url', sb.baseUrl], env(sb), cwd);
    assert.equal(kept.code, 0, kept.stdout + kept.stderr);
    assert.equal(results(join(cwd, 'answers'), 'credits-').length, 1);
    assert.match(kept.stderr, /^Saved /mu, kept.stderr);
  });

  it('a lost answer the history cannot place: "may have been charged" (exit 4); the same call again sends nothing (exit 3)', async () => {
    const sb = await fresh();
    const o = out();
    const args = ['call', 'trending', '--input', '{"hours":1}', '--max-credits', '50', '--out', o, '--base-url', sb.baseUrl];
    sb.setFaults({ dropAfterChargeRate: 1, minimalHistory: true });
    const first = await runCli(args, env(sb));
    await sb.settled();
    assert.equal(first.code, 4, first.stdout + first.stderr);
    assert.match(first.last, /may have been charged: check the request history/u);
    assert.equal(sb.ledger().length, 1);
    sb.setFaults({ dropAfterChargeRate: 0, minimalHistory: false });
    const sent = sb.received().filter((q) => q.path === '/trending').length;
    const again = await runCli(args, env(sb));
    assert.equal(again.code, 3, again.stdout + again.stderr);
    assert.match(again.stdout, /may already have been charged/u);
    assert.equal(sb.received().filter((q) => q.path === '/trending').length, sent, 'not sent again');
    assert.equal(sb.ledger().length, 1, 'never a second charge');
  });

  it('fetch: a job submitted elsewhere is waited for and downloaded, free; with or without --endpoint', async () => {
    const sb = await fresh();
    const api = new WalletAnalyticsApi({ baseUrl: sb.baseUrl, apiKey: () => Promise.resolve(sb.demoKey) });
    for (const withEndpoint of [true, false]) {
      const { requestId } = await api.submit('trending', { hours: 1 });
      const charges = sb.ledger().length;
      const o = out();
      const r = await runCli(['fetch', requestId, ...(withEndpoint ? ['--endpoint', 'trending'] : []), '--out', o, '--base-url', sb.baseUrl], env(sb));
      assert.equal(r.code, 0, r.stdout + r.stderr);
      assert.equal(r.last, 'Done. Charged: 0 credits (fetch only reads).');
      assert.equal(sb.ledger().length, charges, 'fetch charges nothing');
      assert.equal(results(o, 'trending-').length, 1, readdirSync(o).join(', '));
    }
    const unknown = await runCli(['fetch', 'no-such-request', '--endpoint', 'trending', '--out', out(), '--base-url', sb.baseUrl], env(sb));
    assert.equal(unknown.code, 1, unknown.stdout + unknown.stderr);
    assert.match(unknown.stdout, /ended failed: Unknown to the service/u);
  });
});
