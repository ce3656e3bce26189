// A person with no key opens the Wallet Analytics sidebar: the Requests view welcomes them with
// "Set API Key" and "Try the Sandbox (no key, no credits)"; the second button starts the sandbox
// and the view moves on to its empty history.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import type { Locator } from 'playwright-core';
import { Workbench, packagedVsix } from './workbench';

describe('the sidebar without a key: the welcome view', { timeout: 240_000 }, () => {
  let wb: Workbench;
  const pane = (title: string): Locator => wb.page.locator('.pane', { has: wb.page.locator('.pane-header', { hasText: new RegExp(`^\\s*${title}`, 'u') }) });

  before(async () => {
    assert.ok(existsSync(packagedVsix), `${packagedVsix} is missing: run \`npm run package\` first`);
    wb = await Workbench.open({ name: 'sidebar-welcome' });
  });

  after(async () => {
    await wb?.close();
  });

  it('offers Set API Key and Try the Sandbox when no key is set', async () => {
    const icon = wb.page.locator('.part.activitybar .action-item .action-label[aria-label^="Wallet Analytics"]');
    await icon.waitFor({ timeout: 60_000 });
    await icon.click();
    const welcome = pane('Requests').locator('.welcome-view-content');
    await welcome.locator('.monaco-button', { hasText: 'Set API Key' }).waitFor({ timeout: 60_000 });
    const buttons = (await welcome.locator('.monaco-button').allInnerTexts()).map((t) => t.trim());
    assert.deepEqual(buttons, ['Set API Key', 'Try the Sandbox (no key, no credits)']);
    assert.match(await welcome.innerText(), /No API key is set/u);
    // The Account view fills its rows a moment after the welcome view shows: read it once they are there.
    await pane('Account').locator('.monaco-list-row', { hasText: 'API key' }).waitFor({ timeout: 30_000 });
    const account = await pane('Account').innerText();
    assert.match(account, /API key\s*not set/u);
    assert.doesNotMatch(account, /Connection/u, 'no key: nothing to check, no connection row');
    assert.equal(await wb.page.locator('.part.statusbar .statusbar-item', { hasText: /\d+(\.\d+)?M$/u }).count(), 0, 'no balance in the status bar without a key');
    await wb.screenshot('no-key');
  });

  it('starts the sandbox from the welcome view, which then shows the empty history', async () => {
    await pane('Requests').locator('.welcome-view-content .monaco-button', { hasText: 'Try the Sandbox' }).click();
    await pane('Requests').locator('.welcome-view-content', { hasText: 'No requests yet' }).waitFor({ timeout: 60_000 });
    await pane('Account').locator('.monaco-list-row', { hasText: /1000M credits/u }).waitFor({ timeout: 30_000 });
    assert.match(await pane('Account').innerText(), /API key\s*sandbox/u);
    await wb.waitForNotification(/Sandbox running/u);
    await wb.screenshot('sandbox-started');
  });
});
