// The pipeline notebook in a real extension host (issue 24): §8.4's example opened from disk, run
// against a sandbox, its plan approved once ("up to 26,050"; no other price question is asked),
// the outputs written, and the sandbox charged exactly 50 + 1,000 + 5 × the wallets the top-traders
// step returned. A second run reuses every result on disk: no question, no charge; nor after the
// notebook is closed and its file opened again. A bad cell is underlined with the field's own rule
// (a Wallet Database cell's query as in a .waquery.json), gets the catalog's completions, and Run
// All refuses it with the same message, before any price is asked.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { examplePipeline, serializePipeline } from '../../src/core/pipeline/format';
import { readRecord, resultsDirOf } from '../../src/core/pipeline/run';
import { startSandbox, type Sandbox } from '../../src/sandbox';
import type { PriceQuestion } from '../../src/vscode/calls/priceStep';
import { answerPrices, api, EXTENSION_ID, note, setApiKey, waitFor, clearApiKey, pollEvery } from './support';
import { escapeMarkdown } from '../../src/core/markdown';
import { CommandIds } from '../../src/vscode/base/ids';

const set = (k: string, v: unknown): Thenable<void> => vscode.workspace.getConfiguration('walletAnalytics').update(k, v, vscode.ConfigurationTarget.Global);

describe('pipeline notebook: §8.4 example run against a sandbox', function () {
  this.timeout(120_000);
  let sb: Sandbox;
  let dir: string;
  let file: string;
  const asked: PriceQuestion[] = [];

  before(async () => {
    // Its sandbox's jobs are done in well under a second: read them at that pace, not the setting's (test runner only).
    await pollEvery(200);
    // Only the plan is approved; any other price question would be answered "Cancel".
    await answerPrices((q) => {
      asked.push(q);
      return q.kind === 'modal' && q.endpointId === 'pipeline';
    });
    sb = await startSandbox({ port: 0, jobDelayMs: [200, 400], wallets: 2_000, altWallets: 200 });
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wa-pipe-'));
    file = path.join(dir, 'example.wapipe.json');
    fs.writeFileSync(file, serializePipeline(examplePipeline()));
    await set('baseUrl', sb.baseUrl);
    await set('resultsFolder', path.join(dir, 'results'));
    await set('pollIntervalSeconds', 1);
    await set('confirmAbove', 1_000_000);
    await set('maxCreditsPerCall', 1_000_000);
    assert.equal(await setApiKey(sb.demoKey), true);
  });

  after(async () => {
    await pollEvery(undefined);
    await answerPrices(undefined);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    for (const k of ['baseUrl', 'resultsFolder', 'pollIntervalSeconds', 'confirmAbove', 'maxCreditsPerCall']) await set(k, undefined);
    await clearApiKey();
    await sb.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  async function runAll(nb: vscode.NotebookDocument): Promise<void> {
    await vscode.window.showNotebookDocument(nb);
    await vscode.commands.executeCommand('notebook.selectKernel', { id: 'wallet-analytics-pipeline-runner', extension: EXTENSION_ID });
    await vscode.commands.executeCommand('notebook.execute');
  }

  const outputText = (c: vscode.NotebookCell): string => c.outputs.flatMap((o) => o.items.map((i) => new TextDecoder().decode(i.data))).join('\n');

  it('plans up to 26,050, is approved once, and the sandbox charges 50 + 1,000 + 5 × wallets', async () => {
    const nb = await vscode.workspace.openNotebookDocument(vscode.Uri.file(file));
    assert.equal(nb.notebookType, 'wallet-analytics-pipeline');
    assert.equal(nb.cellCount, 3);
    const start = sb.balance();
    await runAll(nb);
    const results = resultsDirOf(file);
    await waitFor('every cell has its output', () => nb.getCells().every((c) => /credits charged|Stopped|Not run/u.test(outputText(c))), 90_000);
    for (const c of nb.getCells()) assert.match(outputText(c), /\*\*done\*\* · [\d,]+ credits charged · [\d,]+ rows/u, outputText(c));
    const plans = asked.filter((q) => q.kind === 'modal' && q.endpointId === 'pipeline');
    assert.equal(asked.length, 1, JSON.stringify(asked));
    assert.match(plans[0]?.kind === 'modal' ? plans[0].message : '', /up to 26,050 credits/u);
    // A call cell's file is in the window's results folder: a record is read only from there or its own folder.
    const traders = await readRecord(results, 'traders', [(await api()).services.jobs.folder()]);
    assert.ok(traders);
    const wallets = Math.min(traders.size, 5_000);
    const charged = start - sb.balance();
    note(`pipeline: plan up to 26,050; charged ${charged} = 50 + 1,000 + 5 × ${wallets}`);
    assert.equal(charged, 50 + 1_000 + 5 * wallets);
    assert.equal(fs.readFileSync(file, 'utf8'), serializePipeline(examplePipeline()), 'the file holds no result');

    // Again: every result on disk is reused, nothing is asked or charged.
    asked.length = 0;
    const before = sb.balance();
    await runAll(nb);
    await waitFor('the outputs say reused', () => nb.getCells().every((c) => outputText(c).includes('reused from disk')), 30_000);
    assert.equal(asked.length, 0);
    assert.equal(sb.balance(), before);
  });

  it('keeps the notebook and its results on disk across a close and reopen: reused, nothing charged again', async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    const before = sb.balance();
    asked.length = 0;
    const nb = await vscode.workspace.openNotebookDocument(vscode.Uri.file(file));
    assert.equal(nb.cellCount, 3);
    assert.deepEqual(nb.getCells().map((c) => JSON.parse(c.document.getText()) as unknown), examplePipeline().cells);
    await runAll(nb);
    await waitFor('the reopened outputs say reused', () => nb.getCells().every((c) => outputText(c).includes('reused from disk')), 30_000);
    assert.equal(asked.length, 0, JSON.stringify(asked));
    assert.equal(sb.balance(), before);
    note(`pipeline reopened: ${nb.cellCount} cells, every result reused from ${path.basename(resultsDirOf(file))}, 0 credits`);
  });

  it('New Pipeline… writes pipeline.wapipe.json in the workspace folder, not an untitled notebook (issue 35 item 3)', async () => {
    const nb = await vscode.commands.executeCommand<vscode.NotebookDocument>(CommandIds.newPipeline);
    try {
      assert.equal(nb.uri.scheme, 'file', `a file from the start: ${nb.uri.toString()}`);
      assert.equal(nb.isUntitled, false);
      assert.match(path.basename(nb.uri.fsPath), /^pipeline(-\d+)?\.wapipe\.json$/u);
      assert.equal(path.dirname(nb.uri.fsPath), vscode.workspace.workspaceFolders?.[0]?.uri.fsPath, 'in the workspace folder');
      assert.equal(nb.notebookType, 'wallet-analytics-pipeline');
      assert.equal(fs.readFileSync(nb.uri.fsPath, 'utf8'), serializePipeline(examplePipeline()));
      note(`New Pipeline…: ${path.basename(nb.uri.fsPath)}, results to ${path.basename(resultsDirOf(nb.uri.fsPath))}`);
    } finally {
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      fs.rmSync(nb.uri.fsPath, { force: true });
    }
  });

  it('a pipeline saved under a new name takes its results along: the next Run All asks nothing and charges nothing (issue 35 item 3)', async () => {
    const old = await vscode.workspace.openNotebookDocument(vscode.Uri.file(file));
    await vscode.window.showNotebookDocument(old);
    // What Save As does: the same cells written under the new name, which then opens in place of the old one.
    const copy = path.join(dir, 'renamed.wapipe.json');
    fs.writeFileSync(copy, serializePipeline(examplePipeline()));
    const nb = await vscode.workspace.openNotebookDocument(vscode.Uri.file(copy));
    const roots = [(await api()).services.jobs.folder()];
    await waitFor('the results carried beside the new name', async () => (await readRecord(resultsDirOf(copy), 'traders', roots)) !== undefined, 20_000);
    const before = sb.balance();
    asked.length = 0;
    await runAll(nb);
    await waitFor('the outputs say reused', () => nb.getCells().every((c) => outputText(c).includes('reused from disk')), 30_000);
    assert.equal(asked.length, 0, JSON.stringify(asked));
    assert.equal(sb.balance(), before, 'nothing charged again');
    note(`saved as ${path.basename(copy)}: ${nb.cellCount} cells reused from ${path.basename(resultsDirOf(copy))}, 0 credits`);
  });

  it('underlines a bad cell with the field’s own rule, completes inputs from the catalog, and Run All refuses it with the same message', async () => {
    const bad = path.join(dir, 'bad.wapipe.json');
    const query = { where: { and: [{ field: 'winrate_30', op: '>=', value: 0.6 }] }, limit: 10 };
    fs.writeFileSync(bad, serializePipeline({ version: 1, cells: [{ name: 'w', call: 'wallet_database', inputs: { query } }, { name: 't', call: 'trending', inputs: { hours: 99 } }] }));
    const nb = await vscode.workspace.openNotebookDocument(vscode.Uri.file(bad));
    await vscode.window.showNotebookDocument(nb);
    const [w, t] = nb.getCells();
    assert.ok(w && t);
    const diags = (c: vscode.NotebookCell): vscode.Diagnostic[] => vscode.languages.getDiagnostics(c.document.uri).filter((d) => d.source === 'Wallet Analytics');
    // The field list comes from the sandbox (free); the unknown field is then said as in a .waquery.json.
    const unknown = await waitFor('the query cell’s unknown field is underlined', () => diags(w).find((d) => d.message.startsWith('Unknown field "winrate_30"')), 20_000);
    assert.equal(w.document.getText(unknown.range), '"winrate_30"');
    const hours = await waitFor('the trending cell’s hours are underlined', () => diags(t).find((d) => d.message.includes('Hours')), 10_000);
    assert.equal(t.document.getText(hours.range), '99');
    // Completions: the endpoint's own inputs at a key of "inputs".
    const text = t.document.getText();
    const keyAt = t.document.positionAt(text.indexOf('"hours"') + 1);
    const list = await vscode.commands.executeCommand<vscode.CompletionList>('vscode.executeCompletionItemProvider', t.document.uri, keyAt);
    const labels = list.items.map((i) => (typeof i.label === 'string' ? i.label : i.label.label));
    assert.ok(labels.includes('hours'), labels.join(', '));
    // Run All: nothing asked, nothing sent; the first bad cell says the diagnostic's own message.
    asked.length = 0;
    const before = sb.balance();
    await vscode.commands.executeCommand('notebook.selectKernel', { id: 'wallet-analytics-pipeline-runner', extension: EXTENSION_ID });
    await vscode.commands.executeCommand('notebook.execute');
    const out = await waitFor('the bad cell says why it did not run', () => nb.getCells().map(outputText).find((o) => o.includes('Not run')), 20_000);
    // The output is Markdown with the message escaped (issue 30.13): the same words, never markup.
    assert.ok(out.includes(escapeMarkdown(unknown.message)), `${out}\n≠ ${unknown.message}`);
    assert.equal(asked.length, 0);
    assert.equal(sb.balance(), before);
    note(`pipeline cell checks: “${unknown.message.slice(0, 60)}…” underlined and refused by Run All`);
  });
});
