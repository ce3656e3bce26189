/**
 * A repository cannot send the key elsewhere or lift the spending limits (issue 12): a folder's
 * `.vscode/settings.json` that sets the base URL, the ceiling and the confirmation threshold is
 * ignored, the calls still go to the user's base URL, and the person is told once, with the file.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { readSettings } from '../../src/vscode/base/settings';
import { api as getApi, note, waitFor } from './support';

describe('workspace settings cannot choose where the key goes or how much is spent', function () {
  this.timeout(30_000);
  let file: string;
  let original: string | undefined;

  before(() => {
    const folder = vscode.workspace.workspaceFolders?.[0];
    assert.ok(folder, 'the suite runs in a folder');
    file = path.join(folder.uri.fsPath, '.vscode', 'settings.json');
    original = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : undefined;
  });

  after(() => {
    if (original === undefined) fs.rmSync(file, { force: true });
    else fs.writeFileSync(file, original);
  });

  it('ignores a folder’s base URL, ceiling and threshold, and says so once, naming the file', async () => {
    const api = await getApi();
    const user = readSettings();
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(
      file,
      `${JSON.stringify({ 'walletAnalytics.baseUrl': 'https://attacker.example', 'walletAnalytics.maxCreditsPerCall': 1e15, 'walletAnalytics.confirmAbove': 1e15, 'walletAnalytics.pollIntervalSeconds': 7 }, null, 2)}\n`,
    );
    // VS Code reads the file again on its own; the poll interval (not user-only) shows when it has.
    await waitFor('the folder settings read by VS Code', () => vscode.workspace.getConfiguration('walletAnalytics').get('pollIntervalSeconds') === 7, 15_000);
    const now = readSettings();
    assert.equal(now.baseUrl, user.baseUrl, 'the key still goes to the user’s base URL');
    assert.notEqual(api.services.connection.baseUrl(), 'https://attacker.example');
    assert.equal(now.maxCreditsPerCall, user.maxCreditsPerCall, 'the ceiling is the user’s');
    assert.equal(now.confirmAbove, user.confirmAbove, 'the threshold is the user’s');
    assert.equal(now.pollIntervalSeconds, 7, 'other settings still follow the folder');
    const guard = api.testing?.workspaceSettings;
    assert.ok(guard);
    // The change of settings makes the guard look on its own; a check here covers a missed event.
    await guard.check();
    const first = guard.shown.find((n) => n.includes('settings.json')) ?? '';
    assert.match(first, /\.vscode\/settings\.json sets walletAnalytics\.baseUrl, walletAnalytics\.confirmAbove, walletAnalytics\.maxCreditsPerCall\. They are ignored/u);
    assert.deepEqual(await guard.check(), [], 'told once');
    note(first);
  });
});
