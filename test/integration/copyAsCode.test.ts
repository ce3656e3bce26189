// Copy as Code in the window: from a Requests item, from a query file (its CodeLens), from the price
// step, and as the runner's command line (the first choice, the extension's own dist/cli.js), the
// clipboard holds exactly the snippet of that call under the active base URL, never the stored key,
// and nothing is sent or charged. Every call's snippet, paid or free, runs the runner in every
// language (curl is not offered: asked for, it is the runner's line); the picker's items say so.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { endpoint } from '../../src/core/spec/catalog';
import { hasShortenedList } from '../../src/core/history/format';
import { parseQueryFile } from '../../src/core/query/file';
import { SAMPLE_QUERY } from '../../src/core/spec/samples';
import { describeCall, snippet, type SnippetLanguage } from '../../src/core/codegen/snippets';
import type { ExtensionApi } from '../../src/extension';
import { startSandbox, type Sandbox } from '../../src/sandbox';
import type { RunOutcome } from '../../src/vscode/calls/callService';
import type { CopyOutcome } from '../../src/vscode/commands/copyAsCode';
import { CommandIds } from '../../src/vscode/base/ids';
import { EXTENSION_ID, answerPrices, api as getApi, note, waitFor, setApiKey, clearApiKey } from './support';

const cfg = () => vscode.workspace.getConfiguration('walletAnalytics');
const set = (k: string, v: unknown) => cfg().update(k, v, vscode.ConfigurationTarget.Global);

describe('Copy as Code: the clipboard holds the call, never the key; nothing is sent', function () {
  this.timeout(120_000);
  let api: ExtensionApi;
  let sb: Sandbox;
  let dir: string;

  /** The runner the installed extension ships: its dist/cli.js. */
  const runner = (): { file: string } => {
    const ext = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(ext);
    return { file: path.join(ext.extensionPath, 'dist', 'cli.js') };
  };
  const expected = (id: string, input: Record<string, unknown>, lang: SnippetLanguage): string => {
    const d = describeCall(endpoint(id), input, sb.baseUrl);
    assert.ok(d.ok, d.ok ? '' : d.errors.join(' '));
    return snippet(lang, d.call, runner());
  };
  /** The calls the sandbox got other than the free history and balance reads the views make on their own. */
  const paidOrSubmitted = () => sb.received().filter((r) => !['/requests', '/credits'].includes(r.path) && !r.path.startsWith('/request/') && !r.path.endsWith('/columns'));

  before(async () => {
    await answerPrices(true);
    api = await getApi();
    sb = await startSandbox({ port: 0, wallets: 2_000, altWallets: 500 });
    sb.seedHistory(12);
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wa-copy-'));
    await set('baseUrl', sb.baseUrl);
    await set('resultsFolder', path.join(dir, 'results'));
    assert.equal(await setApiKey(sb.demoKey), true);
    await vscode.commands.executeCommand(CommandIds.refreshRequests);
    await waitFor('the seeded history in the Requests view', () => api.sidebar.requests.provider.model.size >= 12, 15_000);
  });

  after(async () => {
    await answerPrices(undefined);
    if (api.testing) api.testing.copier.languageForTests = undefined;
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    for (const k of ['baseUrl', 'resultsFolder']) await set(k, undefined);
    await clearApiKey();
    await sb.close();
  });

  it('from a Requests item: its endpoint and inputs; a paid call asked for as curl is the runner’s line, named so', async () => {
    const model = api.sidebar.requests.provider.model;
    const item = model.all().find((i) => endpoint(i.endpointId).family === 'queued' && Object.keys(i.inputs).length > 0 && !hasShortenedList(i.inputs));
    assert.ok(item, 'a queued request with its inputs in the history');
    const sent = paidOrSubmitted().length;
    const ledger = sb.ledger().length;
    const out = await vscode.commands.executeCommand<CopyOutcome>(CommandIds.copyAsCode, api.sidebar.requests.provider.node(item.requestId), { language: 'curl' });
    assert.equal(out.status, 'copied', JSON.stringify(out));
    assert.equal(out.status === 'copied' ? out.language : undefined, 'runner');
    const clip = await vscode.env.clipboard.readText();
    assert.equal(clip, expected(item.endpointId, item.inputs, 'runner'));
    assert.ok(clip.includes(sb.baseUrl), 'the active base URL');
    assert.ok(clip.includes(`node '${runner().file}' call ${item.endpointId} --input `) && !clip.includes('curl '), clip);
    assert.ok(clip.includes('environment variable WA_API_KEY'));
    assert.ok(!clip.includes(sb.demoKey), 'the stored key is not in the snippet');
    assert.ok(out.status === 'copied' && out.message.includes('WA_API_KEY') && out.message.includes('Command line (wallet-analytics runner)'), out.status === 'copied' ? out.message : '');
    assert.equal(paidOrSubmitted().length, sent, 'nothing was sent');
    assert.equal(sb.ledger().length, ledger, 'nothing was charged');
    note(`copied ${item.endpointId} ${JSON.stringify(item.inputs).slice(0, 50)}… asked as curl, copied as the runner’s line (${clip.split('\n').length} lines)`);
  });

  it('from a query file: its CodeLens, and the body as Python, which runs the runner (a paid query)', async () => {
    const text = JSON.stringify(SAMPLE_QUERY, null, 2);
    const file = path.join(dir, 'copy.waquery.json');
    fs.writeFileSync(file, text);
    const doc = await vscode.workspace.openTextDocument(file);
    await vscode.window.showTextDocument(doc);
    const lens = await waitFor('the Copy as Code lens', async () => {
      const lenses = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', doc.uri);
      return lenses.find((l) => l.command?.command === CommandIds.copyAsCode);
    }, 15_000);
    assert.equal(lens.command?.title, '$(code) Copy as Code');
    const parsed = parseQueryFile(text);
    assert.ok(parsed.ok);
    const ledger = sb.ledger().length;
    const sent = paidOrSubmitted().length;
    const args = (lens.command?.arguments ?? []) as [vscode.Uri, { chain: string }];
    const out = await vscode.commands.executeCommand<CopyOutcome>(CommandIds.copyAsCode, args[0], { ...args[1], language: 'python' });
    assert.equal(out.status, 'copied', JSON.stringify(out));
    const clip = await vscode.env.clipboard.readText();
    assert.equal(clip, expected('wallet_database', { query: parsed.body }, 'python'));
    assert.ok(clip.includes('subprocess.run(["node", ') && clip.includes('"--max-credits", ') && !clip.includes('requests.') && !clip.includes(sb.demoKey), clip);
    assert.equal(paidOrSubmitted().length, sent, 'nothing was sent');
    assert.equal(sb.ledger().length, ledger, 'nothing was charged');
  });

  it('the first choice, the runner’s command line: the extension’s own dist/cli.js, with the price as --max-credits', async () => {
    const ledger = sb.ledger().length;
    const sent = paidOrSubmitted().length;
    const out = await vscode.commands.executeCommand<CopyOutcome>(CommandIds.copyAsCode, { endpointId: 'trending', inputs: { hours: 1 }, language: 'runner' });
    assert.equal(out.status, 'copied', JSON.stringify(out));
    const clip = await vscode.env.clipboard.readText();
    assert.equal(clip, expected('trending', { hours: 1 }, 'runner'));
    const line = clip.split('\n').filter((l) => l && !l.startsWith('#'));
    assert.equal(line.length, 1, clip);
    assert.ok(line[0]?.startsWith(`node '${runner().file}' call trending --input '{"hours":1}' --max-credits 50 --base-url '${sb.baseUrl}'`), line[0]);
    assert.ok(fs.existsSync(runner().file), 'the runner the line names is installed with the extension');
    assert.ok(!clip.includes(sb.demoKey));
    assert.equal(paidOrSubmitted().length, sent, 'nothing was sent');
    assert.equal(sb.ledger().length, ledger, 'nothing was charged');
  });

  it('from the price step: copied, the flow ends cancelled, nothing sent or approved', async () => {
    const t = api.testing;
    assert.ok(t);
    t.copier.languageForTests = 'typescript';
    const asked = await answerPrices(() => 'copyAsCode');
    const n = asked.length;
    const sent = paidOrSubmitted().length;
    const ledger = sb.ledger().length;
    const input = { tokens: sb.addresses('token', 2) };
    const out = await vscode.commands.executeCommand<RunOutcome>('walletAnalytics.endpoint.toptraders', { inputs: input, notify: false, wait: false });
    assert.deepEqual(out, { status: 'cancelled' });
    const q = asked.slice(n);
    assert.equal(q.length, 1);
    assert.equal(q[0]?.kind === 'step' || q[0]?.kind === 'modal' ? q[0].copy : undefined, true, 'the price question offered Copy as Code');
    const clip = await vscode.env.clipboard.readText();
    const want = describeCall(endpoint('toptraders'), input, sb.baseUrl);
    assert.ok(want.ok);
    assert.equal(clip, snippet('typescript', want.call, runner()));
    assert.ok(clip.includes('spawnSync(process.execPath, [') && clip.includes('"--max-credits", "200"') && !clip.includes('fetch(') && !clip.includes(sb.demoKey), clip);
    assert.equal(paidOrSubmitted().length, sent, 'nothing was sent');
    assert.equal(sb.ledger().length, ledger, 'nothing was charged');
    await answerPrices(true);
    t.copier.languageForTests = undefined;
  });

  it('the picker’s items: every call’s languages run the runner, curl is not offered; a free read’s Python runs the runner with --max-credits 0', async () => {
    const t = api.testing;
    assert.ok(t);
    const paid = t.copier.languageItems(endpoint('toptraders'));
    assert.deepEqual(paid.map((i) => i.id).sort(), ['powershell', 'python', 'runner', 'typescript']);
    for (const i of paid.filter((x) => x.id !== 'runner')) assert.match(i.label, /: runs the priced call through the runner$/u, i.label);
    const free = t.copier.languageItems(endpoint('credits'));
    assert.deepEqual(free.map((i) => i.id).sort(), ['powershell', 'python', 'runner', 'typescript']);
    for (const i of free.filter((x) => x.id !== 'runner')) assert.match(i.label, /: runs the free read through the runner$/u, i.label);
    // Copied for real: the free read's Python runs the runner, no request of its own.
    const sent = paidOrSubmitted().length;
    const out = await vscode.commands.executeCommand<CopyOutcome>(CommandIds.copyAsCode, { endpointId: 'credits', inputs: {}, language: 'python' });
    assert.equal(out.status, 'copied', JSON.stringify(out));
    const clip = await vscode.env.clipboard.readText();
    assert.equal(clip, expected('credits', {}, 'python'));
    assert.ok(clip.includes(`subprocess.run(["node", ${JSON.stringify(runner().file)}, "call", "credits", "--input", "{}", "--max-credits", "0", `), clip);
    assert.ok(!/import requests|requests\.|curl |WA_API_KEY"\]/u.test(clip) && !clip.includes(sb.demoKey), clip);
    assert.ok(out.status === 'copied' && out.message.includes('Python: runs the free read through the runner'), out.status === 'copied' ? out.message : '');
    assert.equal(paidOrSubmitted().length, sent, 'nothing was sent');
  });
});
