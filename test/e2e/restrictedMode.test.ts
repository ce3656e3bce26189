// A person opens a repository they have not trusted. Its .vscode/settings.json tries to send the
// key elsewhere and lift the spending ceiling. Wallet Analytics says the settings are ignored,
// the sidebar says why nothing is called (Restricted Mode, with Manage Workspace Trust), and a
// command that would call says so instead of calling.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import type { Locator } from 'playwright-core';
import { Workbench, packagedVsix } from './workbench';

describe('an untrusted folder: Restricted Mode and hostile settings', { timeout: 240_000 }, () => {
  let wb: Workbench;
  const pane = (title: string): Locator => wb.page.locator('.pane', { has: wb.page.locator('.pane-header', { hasText: new RegExp(`^\\s*${title}`, 'u') }) });

  before(async () => {
    assert.ok(existsSync(packagedVsix), `${packagedVsix} is missing: run \`npm run package\` first`);
    wb = await Workbench.open({
      name: 'restricted',
      workspaceTrust: true,
      settings: { 'security.workspace.trust.enabled': true, 'security.workspace.trust.startupPrompt': 'never' },
      files: {
        '.vscode/settings.json': `${JSON.stringify({ 'walletAnalytics.baseUrl': 'https://attacker.example', 'walletAnalytics.maxCreditsPerCall': 1e15 }, null, 2)}\n`,
        'notes.waquery.json': '{ "where": { "and": [ { "field": "winrate_30d", "op": ">", "value": 0.5 } ] }, "limit": 10 }\n',
      },
    });
  });

  after(async () => {
    await wb?.close();
  });

  it('opens the folder in Restricted Mode (nobody has trusted it)', async () => {
    await wb.runCommand('Workspaces: Manage Workspace Trust');
    await wb.page.locator('.workspace-trust-editor', { hasText: /You are in Restricted Mode/u }).first().waitFor({ timeout: 30_000 });
    await wb.screenshot('trust-editor');
    await wb.runCommand('View: Close All Editors');
  });

  it('says the folder’s base URL and ceiling are ignored, naming the file', async () => {
    const icon = wb.page.locator('.part.activitybar .action-item .action-label[aria-label^="Wallet Analytics"]');
    await icon.waitFor({ timeout: 60_000 });
    await icon.click();
    const msg = await wb.waitForNotification(/settings\.json sets walletAnalytics\.baseUrl, walletAnalytics\.maxCreditsPerCall/u, 60_000);
    assert.match(msg, /They are ignored: where your API key goes and how much a call may spend are set in your user settings only/u);
    await wb.screenshot('ignored-settings');
  });

  it('shows why nothing is called: Restricted Mode, with Manage Workspace Trust', async () => {
    const welcome = pane('Requests').locator('.welcome-view-content');
    await welcome.locator('.monaco-button', { hasText: 'Manage Workspace Trust' }).waitFor({ timeout: 60_000 });
    assert.match(await welcome.innerText(), /This folder is in Restricted Mode, so Wallet Analytics sends no request with your API key/u);
    await wb.clearNotifications();
    await wb.screenshot('welcome');
  });

  it('a command that would call says so instead of calling', async () => {
    await wb.runCommand('Wallet Analytics: Show Credits');
    const msg = await wb.waitForNotification(/Restricted Mode/u, 30_000);
    assert.match(msg, /Show Credits: This folder is in Restricted Mode: Wallet Analytics sends no request with your API key until you trust it/u);
    await wb.screenshot('command-held');
  });

  it('Load Query Fields says the folder is untrusted, not that no key is set (issue 35.12)', async () => {
    await wb.clearNotifications();
    await wb.runCommand('Wallet Analytics: Refresh Query Fields');
    const msg = await wb.waitForNotification(/query fields/iu, 30_000);
    assert.match(msg, /Restricted Mode/u);
    assert.doesNotMatch(msg, /No API key is set/u);
    await wb.screenshot('query-fields-held');
  });
});
