/**
 * A repository cannot send the key elsewhere, lift the spending limits (issue 12) or set the pace
 * of requests (issue 21): a folder's `.vscode/settings.json` that sets the base URL, the ceiling,
 * the confirmation threshold, the poll interval or the stalled-after hours is ignored, the calls
 * still go to the user's base URL, and the person is told once, with the file. The user's own
 * numbers are read within package.json's bounds.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { pollIntervalMs, readSettings, readSidebarSettings } from '../../src/vscode/base/settings';
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
      `${JSON.stringify({
        'walletAnalytics.baseUrl': 'https://attacker.example',
        'walletAnalytics.maxCreditsPerCall': 1e15,
        'walletAnalytics.confirmAbove': 1e15,
        'walletAnalytics.pollIntervalSeconds': 0,
        'walletAnalytics.jobs.stalledAfterHours': 0.0001,
        'walletAnalytics.credits.warnBelow': 7,
      }, null, 2)}\n`,
    );
    // VS Code reads the file again on its own; the warning threshold (not user-only) shows when it has.
    await waitFor('the folder settings read by VS Code', () => vscode.workspace.getConfiguration('walletAnalytics').get('credits.warnBelow') === 7, 15_000);
    const now = readSettings();
    assert.equal(now.baseUrl, user.baseUrl, 'the key still goes to the user’s base URL');
    assert.notEqual(api.services.connection.baseUrl(), 'https://attacker.example');
    assert.equal(now.maxCreditsPerCall, user.maxCreditsPerCall, 'the ceiling is the user’s');
    assert.equal(now.confirmAbove, user.confirmAbove, 'the threshold is the user’s');
    assert.equal(now.pollIntervalSeconds, user.pollIntervalSeconds, 'the poll interval is the user’s (a folder’s 0 sent hundreds of requests a second)');
    assert.equal(now.jobsStalledAfterHours, user.jobsStalledAfterHours, 'the stalled-after hours are the user’s');
    assert.equal(readSidebarSettings().warnBelow, 7, 'other settings still follow the folder');
    const guard = api.testing?.workspaceSettings;
    assert.ok(guard);
    // The change of settings makes the guard look on its own; a check here covers a missed event.
    await guard.check();
    const first = guard.shown.find((n) => n.includes('settings.json')) ?? '';
    assert.match(first, /\.vscode\/settings\.json sets walletAnalytics\.baseUrl, walletAnalytics\.confirmAbove, walletAnalytics\.maxCreditsPerCall, walletAnalytics\.pollIntervalSeconds, walletAnalytics\.jobs\.stalledAfterHours\. They are ignored/u);
    assert.deepEqual(await guard.check(), [], 'told once');
    note(first);
  });

  it('two checks at once show a finding once, and the second returns after it is listed', async () => {
    const api = await getApi();
    const guard = api.testing?.workspaceSettings;
    assert.ok(guard);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    // A set of keys not yet said in this window (the first test said the five): a new finding.
    fs.writeFileSync(file, `${JSON.stringify({ 'walletAnalytics.baseUrl': 'https://elsewhere.example', 'walletAnalytics.maxCreditsPerCall': 1e12 }, null, 2)}\n`);
    const before = guard.shown.length;
    // The guard reads the file itself: both checks start before VS Code's change event can start one.
    const [a, b] = await Promise.all([guard.check(), guard.check()]);
    const listed = guard.shown.slice(before).filter((n) => /^\S*\.vscode\/settings\.json sets walletAnalytics\.baseUrl, walletAnalytics\.maxCreditsPerCall\. They are ignored/u.test(n));
    assert.equal(a.length + b.length, 1, `shown ${a.length + b.length} times: ${[...a, ...b].join(' | ')}`);
    assert.equal(listed.length, 1, 'listed once, by the time both checks returned');
    assert.deepEqual(await guard.check(), [], 'told once');
  });

  it('reads the user’s own numbers within package.json’s bounds: 0, -5, huge and a string', async () => {
    const cfg = () => vscode.workspace.getConfiguration('walletAnalytics');
    const set = (k: string, v: unknown) => cfg().update(k, v, vscode.ConfigurationTarget.Global);
    const seen: string[] = [];
    try {
      for (const [v, want] of [[0, 1], [-5, 1], [1e9, 300], ['fast', 5]] as const) {
        await set('pollIntervalSeconds', v);
        await waitFor(`pollIntervalSeconds ${String(v)} written`, () => cfg().inspect('pollIntervalSeconds')?.globalValue === v);
        assert.equal(readSettings().pollIntervalSeconds, want, `pollIntervalSeconds ${String(v)}`);
        assert.equal(pollIntervalMs(), want * 1000);
        seen.push(`${JSON.stringify(v)} → ${want} s`);
      }
      await set('jobs.stalledAfterHours', 0.0001);
      await waitFor('stalledAfterHours written', () => cfg().inspect('jobs.stalledAfterHours')?.globalValue === 0.0001);
      assert.equal(readSettings().jobsStalledAfterHours, 1, 'a job is polled for an hour at least before it stalls');
      await set('history.idleRefreshSeconds', -5);
      await waitFor('idleRefreshSeconds written', () => cfg().inspect('history.idleRefreshSeconds')?.globalValue === -5);
      assert.ok(readSidebarSettings().idleRefreshMs >= 1000, 'the idle history refresh waits a second at least');
    } finally {
      for (const k of ['pollIntervalSeconds', 'jobs.stalledAfterHours', 'history.idleRefreshSeconds']) await set(k, undefined);
    }
    note(`user poll interval read as ${seen.join(', ')}`);
  });
});
