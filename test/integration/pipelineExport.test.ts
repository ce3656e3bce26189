// Export Pipeline as Script in a real extension host (issue 24 item 3, issue 32): §8.4's example
// opened from disk, the command run from the palette with "Every day at 06:00 UTC" picked; the
// command-line runner (the extension's own dist/cli.js) is written beside the pipeline, never the
// key, and the workflow beside it (the folder is not in the workspace) with the cron fields, Node
// 20, the secret and the connection's base URL. Nothing is sent: the sandbox receives no request.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { examplePipeline, serializePipeline } from '../../src/core/pipeline/format';
import { startSandbox, type Sandbox } from '../../src/sandbox';
import { CommandIds } from '../../src/vscode/base/ids';
import type { PersonQuestion } from '../../src/vscode/base/personQuestions';
import { answering, note, setApiKey, clearApiKey } from './support';

const set = (k: string, v: unknown): Thenable<void> => vscode.workspace.getConfiguration('walletAnalytics').update(k, v, vscode.ConfigurationTarget.Global);

describe('pipeline notebook: Export Pipeline as Script', function () {
  this.timeout(60_000);
  let sb: Sandbox;
  let dir: string;

  before(async () => {
    sb = await startSandbox({ port: 0, wallets: 200, altWallets: 20 });
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wa-pipe-export-'));
    await set('baseUrl', sb.baseUrl);
    assert.equal(await setApiKey(sb.demoKey), true);
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await set('baseUrl', undefined);
    await clearApiKey();
    await sb.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('writes the script beside the pipeline and a daily workflow; the key is in neither; nothing is sent', async () => {
    const file = path.join(dir, 'example.wapipe.json');
    fs.writeFileSync(file, serializePipeline(examplePipeline()));
    const nb = await vscode.workspace.openNotebookDocument(vscode.Uri.file(file));
    await vscode.window.showNotebookDocument(nb);
    const received = sb.received().length;
    const asked: PersonQuestion[] = [];
    const script = await answering<string>((q) => {
      asked.push(q);
      return q.kind === 'choose' && q.id === 'exportSchedule' ? 'Every day at 06:00 UTC' : undefined;
    }, CommandIds.exportPipelineScript);
    assert.equal(script, path.join(dir, 'wallet-analytics.cjs'));
    const text = fs.readFileSync(path.join(dir, 'wallet-analytics.cjs'), 'utf8');
    assert.ok(text.startsWith('#!/usr/bin/env node'), 'the runner, runnable by Node');
    assert.ok(!text.includes(sb.demoKey), 'no key in the runner');
    const wf = fs.readFileSync(path.join(dir, 'wallet-analytics-example.yml'), 'utf8');
    assert.match(wf, /- cron: "0 6 \* \* \*"/u);
    assert.match(wf, /uses: actions\/setup-node@v4/u);
    assert.match(wf, /WA_API_KEY: \$\{\{ secrets\.WA_API_KEY \}\}/u);
    assert.ok(wf.includes(`node wallet-analytics.cjs run example.wapipe.json --max-credits 26050 --base-url ${sb.baseUrl}`), wf);
    assert.ok(!wf.includes(sb.demoKey));
    assert.deepEqual(asked.map((q) => q.kind), ['choose']);
    assert.equal(sb.received().length, received, 'nothing was sent');
    note(`export: ${path.basename(script ?? '')} (${text.length.toLocaleString('en-US')} characters) and wallet-analytics-example.yml (cron 0 6 * * *)`);

    // Again: the runner exists, so the person is asked before it is replaced; "no" keeps it.
    fs.writeFileSync(path.join(dir, 'wallet-analytics.cjs'), 'kept');
    const again = await answering<string>((q) => (q.kind === 'confirm' ? undefined : 'No schedule'), CommandIds.exportPipelineScript);
    assert.equal(again, undefined);
    assert.equal(fs.readFileSync(path.join(dir, 'wallet-analytics.cjs'), 'utf8'), 'kept');
  });
});
