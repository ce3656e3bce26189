import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { ENDPOINTS, commandIdOf } from '../../src/core/spec/catalog';
import { sampleAddress } from '../../src/core/spec/samples';
import { startSandbox, type Sandbox } from '../../src/sandbox';
import type { ExtensionApi } from '../../src/extension';
import type { RunOutcome } from '../../src/vscode/calls/callService';
import { CommandIds } from '../../src/vscode/base/ids';
import { api as getApi, extension, note, waitFor, answerPrices, setApiKey, clearApiKey, pollEvery } from './support';

const cfg = () => vscode.workspace.getConfiguration('walletAnalytics');
const set = (k: string, v: unknown) => cfg().update(k, v, vscode.ConfigurationTarget.Global);
const run = (id: string, args: object) => vscode.commands.executeCommand<RunOutcome>(`walletAnalytics.endpoint.${id}`, args);
const submits = (sb: Sandbox, p: string) => sb.received().filter((r) => r.path.startsWith(p)).length;

describe('endpoints: every command, the price first, jobs polled and downloaded (against a sandbox)', function () {
  this.timeout(60_000);
  let api: ExtensionApi;
  let sb: Sandbox;
  let results: string;

  before(async () => {
    // Its sandbox's jobs are done in well under a second: read them at that pace, not the setting's (test runner only).
    await pollEvery(200);
    // The suite stands in for the person's click on each price question (no caller argument can).
    await answerPrices(true);
    api = await getApi();
    sb = await startSandbox({ port: 0, jobDelayMs: [300, 600], wallets: 2_000, altWallets: 500 });
    results = fs.mkdtempSync(path.join(os.tmpdir(), 'wa-results-'));
    await set('baseUrl', sb.baseUrl);
    await set('resultsFolder', results);
    await set('pollIntervalSeconds', 1);
    await set('confirmAbove', 1_000);
    await set('maxCreditsPerCall', 1_000_000);
    // The key comes from SecretStorage, set as a person would (here through the command's argument).
    assert.equal(await setApiKey(sb.demoKey), true);
  });

  after(async () => {
    await pollEvery(undefined);
    await answerPrices(undefined);
    for (const k of ['baseUrl', 'resultsFolder', 'pollIntervalSeconds', 'confirmAbove', 'maxCreditsPerCall']) await set(k, undefined);
    await clearApiKey();
    await sb.close();
  });

  it('makes every catalog endpoint a palette command, registered and declared', async () => {
    const registered = new Set(await vscode.commands.getCommands(true));
    const manifest = extension().packageJSON as { contributes: { commands: { command: string }[]; menus: { commandPalette: { command: string; when: string }[] } } };
    const declared = new Set(manifest.contributes.commands.map((c) => c.command));
    const hidden = new Set(manifest.contributes.menus.commandPalette.filter((m) => m.when === 'false').map((m) => m.command));
    const byFamily: Record<string, number> = {};
    for (const ep of ENDPOINTS) {
      const id = commandIdOf(ep);
      assert.ok(registered.has(id), `${id} registered`);
      assert.ok(declared.has(id), `${id} declared`);
      assert.ok(!hidden.has(id), `${id} visible in the palette`);
      const fam = `${ep.family}${ep.chain === 'alt' ? ' (2nd chain)' : ''}`;
      byFamily[fam] = (byFamily[fam] ?? 0) + 1;
    }
    note(`${ENDPOINTS.length} endpoint commands in the palette: ${Object.entries(byFamily).map(([k, v]) => `${k} ${v}`).join(', ')}`);
    assert.equal(ENDPOINTS.length, 35);
  });

  it('trending end to end: key from SecretStorage, price shown, file downloaded, opened, matching its sidecar', async () => {
    const before = sb.balance();
    const out = await run('trending', { inputs: { hours: 3 }, notify: false });
    assert.equal(out.status, 'queued', JSON.stringify(out));
    assert.ok(out.status === 'queued');
    assert.match(out.shown, /50 credits/u, 'the price was shown before sending');
    assert.equal(out.job?.state, 'done', JSON.stringify(out.job));
    const file = out.job?.resultPath ?? '';
    assert.equal(path.dirname(file), results);
    // Named for a person (the endpoint, when it was sent in local time, -2… when taken); the request id is in the sidecar.
    assert.match(path.basename(file), /^trending-\d{4}-\d{2}-\d{2}-\d{4}(-\d+)?\.txt$/u);
    const lines = fs.readFileSync(file, 'utf8').trim().split('\n');
    assert.ok(lines.length > 0 && lines.every((l) => /^[1-9A-HJ-NP-Za-km-z]{32,44}$/u.test(l)), 'a .txt of addresses');
    const meta = JSON.parse(fs.readFileSync(`${file}.meta.json`, 'utf8')) as Record<string, unknown>;
    assert.equal(meta.endpoint, 'trending');
    assert.equal(meta.requestId, out.requestId);
    assert.equal(meta.cost, 50);
    assert.deepEqual(meta.inputs, { hours: 3 });
    assert.equal(meta.file, path.basename(file));
    assert.equal(sb.balance(), before - 50, 'charged exactly the price shown');
    const submit = sb.received().find((r) => r.path.startsWith('/trending'));
    assert.ok(submit?.apiKeyHeader, 'the key was sent to the base URL');
    await vscode.commands.executeCommand(CommandIds.openResult, out.requestId);
    await waitFor('the result open in the Wallet Analytics Table', () => {
      const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
      return input instanceof vscode.TabInputCustom && input.viewType === 'walletAnalytics.table' && input.uri.fsPath === file;
    });
  });

  it('pnl on a pasted list with one bad address and one duplicate: a clear message, nothing sent, nothing charged', async () => {
    const before = sb.balance();
    const good = sampleAddress('main', 1);
    const out = await run('pnl', { inputs: { wallets: [good, good, 'not-a-wallet-0OIl'] } });
    assert.equal(out.status, 'invalid');
    assert.match(out.status === 'invalid' ? out.errors.join(' ') : '', /not-a-wallet-0OIl.*not a valid address/u);
    assert.equal(submits(sb, '/pnl'), 0, 'no request was made');
    assert.equal(sb.balance(), before);
  });

  it('refuses a call above maxCreditsPerCall before any request', async () => {
    await set('maxCreditsPerCall', 150);
    try {
      const before = sb.balance();
      const out = await run('toptraders', { inputs: { tokens: [sampleAddress('main', 1), sampleAddress('main', 2)] } });
      assert.equal(out.status, 'refused', JSON.stringify(out));
      assert.match(out.status === 'refused' ? out.message : '', /above your limit of 150 credits.*maxCreditsPerCall/su);
      assert.equal(submits(sb, '/toptraders'), 0);
      assert.equal(sb.balance(), before);
    } finally {
      await set('maxCreditsPerCall', 1_000_000);
    }
  });

  it('resumes a pending job after a reload, and downloads it once', async () => {
    const out = await run('toptraders', { inputs: { tokens: [sampleAddress('main', 3)], output: 'zip' }, notify: false, wait: false });
    assert.equal(out.status, 'queued');
    const id = out.status === 'queued' ? out.requestId : '';
    api.services.jobs.reloadForTest();
    const job = await waitFor('the job done after the reload', () => {
      const j = api.services.jobs.store.get(id);
      return j?.state === 'done' ? j : undefined;
    }, 20_000);
    assert.ok(fs.statSync(job.resultPath ?? '').isDirectory(), 'the .zip was extracted into a folder of its own');
    assert.ok(fs.readdirSync(job.resultPath ?? '').some((n) => n.endsWith('.csv')));
    api.services.jobs.reloadForTest();
    await new Promise((r) => setTimeout(r, 1500));
    const downloads = sb.received().filter((r) => r.path.includes(id) && !r.path.startsWith('/request'));
    assert.equal(downloads.length, 1, `one download of the file: ${downloads.map((d) => d.path).join(', ')}`);
  });

  it('completes a job despite 5xx answers while polling', async () => {
    const out = await run('programstats', { inputs: { hours: 2 }, notify: false, wait: false });
    assert.equal(out.status, 'queued');
    const from = sb.received().length;
    sb.setFaults({ errorRate: 1 });
    // Until a poll has met the 5xx (an event, not 1.5 s of sleep, issue 31.6).
    await waitFor('a poll answered 5xx', () => sb.received().slice(from).some((r) => r.status >= 500), 60_000);
    const failedPolls = sb.received().filter((r) => r.status >= 500).length;
    sb.setFaults({ errorRate: 0 });
    assert.ok(failedPolls >= 1, 'polling met the 5xx');
    const id = out.status === 'queued' ? out.requestId : '';
    const job = await waitFor('the job done', () => {
      const j = api.services.jobs.store.get(id);
      return j?.state === 'done' ? j : undefined;
    }, 30_000);
    assert.ok(fs.existsSync(job.resultPath ?? ''));
    assert.equal(sb.ledger().filter((l) => l.requestId === id).length, 1, 'charged once');
  });

  it('runs a direct call (Wallet Database) and charges 100 per match', async () => {
    const before = sb.balance();
    const query = { where: { and: [{ field: 'winrate_30d', op: '>=', value: 0.5 }] }, limit: 5 };
    const out = await run('wallet_database', { inputs: { query }, open: false });
    assert.equal(out.status, 'done', JSON.stringify(out));
    const total = out.status === 'done' ? (out.value as { total: number }).total : -1;
    assert.equal(sb.balance(), before - Math.max(100, total * 100));
    assert.ok(out.status === 'done' && fs.existsSync(out.resultPath ?? ''));
  });
});

describe('the built-in sandbox from the palette', function () {
  this.timeout(60_000);
  it('starts (in its own thread) with its own demo key, leaves the real key alone, and stops', async () => {
    const api = await getApi();
    await setApiKey('my-real-key-123');
    const url = await vscode.commands.executeCommand<string>(CommandIds.startSandbox);
    assert.match(url, /^http:\/\/127\.0\.0\.1:\d+$/u);
    assert.equal(api.services.connection.mode, 'sandbox');
    assert.equal(api.services.contextKeys.get('walletAnalytics.sandbox'), true);
    const out = await vscode.commands.executeCommand<RunOutcome>('walletAnalytics.endpoint.credits', {});
    assert.equal(out.status, 'done');
    assert.equal(out.status === 'done' ? out.value : 0, 1_000_000_000);
    assert.equal(await api.services.keys.get(), 'my-real-key-123', 'the real key is untouched');
    await vscode.commands.executeCommand(CommandIds.stopSandbox);
    assert.equal(api.services.connection.mode, 'configured');
    await clearApiKey();
  });
});
