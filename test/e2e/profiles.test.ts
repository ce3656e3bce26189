// A person keeps two connections: the Default one (walletAnalytics.baseUrl) and a "Work account"
// with its own base URL and key. They add the profile from the palette (name, base URL, key in a
// password box), see its name in the status bar and the Account view, switch back to Default from
// the status bar, and to the Work account again from the Account view's Profile row.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import type { Locator } from 'playwright-core';
import { startSandbox, type Sandbox } from '../../src/sandbox';
import { Workbench, packagedVsix } from './workbench';

const ADD = 'Wallet Analytics: Add Profile…';
const WORK = 'Work account';
const WORK_KEY = 'work-account-key-0042';

describe('profiles: add one, switch from the status bar and the Account view', { timeout: 300_000 }, () => {
  let wb: Workbench;
  let work: Sandbox;
  let dflt: Sandbox;
  const pane = (title: string): Locator => wb.page.locator('.pane', { has: wb.page.locator('.pane-header', { hasText: new RegExp(`^\\s*${title}`, 'u') }) });
  const statusItem = (text: string): Locator => wb.page.locator('.part.statusbar .statusbar-item', { hasText: text });
  const pickRow = (text: string): Locator => wb.quickInput.locator('.quick-input-list .monaco-list-row', { hasText: text });

  before(async () => {
    assert.ok(existsSync(packagedVsix), `${packagedVsix} is missing: run \`npm run package\` first`);
    // Two services on this machine, each knowing only its own key: the Default one and the work one.
    dflt = await startSandbox({ port: 0, demoKey: 'default-key-0001' });
    work = await startSandbox({ port: 0, demoKey: WORK_KEY, startBalance: 123_000_000 });
    wb = await Workbench.open({ name: 'profiles', settings: { 'walletAnalytics.baseUrl': dflt.baseUrl } });
  });

  after(async () => {
    await wb?.close();
    await work?.close();
    await dflt?.close();
  });

  it('shows the profile in use (Default) in the status bar', async () => {
    // The extension starts when its sidebar opens (it has no start-up activation).
    const icon = wb.page.locator('.part.activitybar .action-item .action-label[aria-label^="Wallet Analytics"]');
    await icon.waitFor({ timeout: 60_000 });
    await icon.click();
    await statusItem('Default').first().waitFor({ timeout: 60_000 });
    await pane('Account').locator('.monaco-list-row', { hasText: /Profile\s*Default/u }).waitFor({ timeout: 30_000 });
    // The Default profile's key, as before profiles: Set API Key.
    await wb.runCommand('Wallet Analytics: Set API Key');
    await wb.typeIntoQuickInput('default-key-0001', { submit: true });
    await wb.waitForNotification('API key saved');
    await pane('Account').locator('.monaco-list-row', { hasText: /1000M credits/u }).waitFor({ timeout: 30_000 });
    await wb.screenshot('default');
  });

  it('adds a profile: name, an https (or loopback) base URL, then its key in a password box', async () => {
    await wb.runCommand(ADD);
    await wb.typeIntoQuickInput(WORK, { submit: true });
    // The base URL step, not the name box still closing: typed too early, the URL went nowhere.
    await wb.quickInput.locator('.quick-input-box input[placeholder="https://api.example.com"]').waitFor({ timeout: 15_000 });
    await wb.typeIntoQuickInput('http://api.example.com');
    await wb.quickInput.locator('.quick-input-message', { hasText: 'loopback' }).waitFor({ timeout: 20_000 });
    await wb.screenshot('refused-url');
    await wb.typeIntoQuickInput(work.baseUrl, { submit: true });
    await wb.quickInputField.waitFor({ state: 'visible' });
    for (const deadline = Date.now() + 10_000; (await wb.quickInputField.getAttribute('type')) !== 'password'; await wb.page.waitForTimeout(100)) {
      assert.ok(Date.now() < deadline, 'the key step is a password box');
    }
    assert.match(await wb.quickInputMessage(), new RegExp(`sent only to ${work.baseUrl.replace(/[.*+?^${}()|[\]\\]/gu, '\\$&')}`, 'u'));
    await wb.typeIntoQuickInput(WORK_KEY);
    await wb.screenshot('key-step');
    await wb.page.keyboard.press('Enter');
    const msg = await wb.waitForNotification('added and in use');
    assert.match(msg, new RegExp(`Profile “${WORK}” added and in use`, 'u'));
    await statusItem(WORK).first().waitFor({ timeout: 15_000 });
    const account = pane('Account');
    await account.locator('.monaco-list-row', { hasText: new RegExp(`Profile\\s*${WORK}`, 'u') }).waitFor({ timeout: 15_000 });
    // The work account's own balance (its key works at its URL).
    await account.locator('.monaco-list-row', { hasText: /123M credits/u }).waitFor({ timeout: 30_000 });
    // The forecast counts what the account used (877M, other tools' calls too), not only this editor's 0.
    await account.locator('.monaco-list-row', { hasText: /Forecast\s*877M of 1000M by \d{2}-\d{2}/u }).waitFor({ timeout: 15_000 });
    assert.ok(!(await wb.page.locator('body').innerText()).includes(WORK_KEY), 'the key is visible on the page');
    await wb.screenshot('work-added');
  });

  it('switches to Default from the status bar', async () => {
    await wb.clearNotifications();
    await statusItem(WORK).first().click();
    await pickRow('Default').first().waitFor({ timeout: 15_000 });
    const list = await wb.quickInput.innerText();
    assert.match(list, /Default/u);
    assert.match(list, new RegExp(WORK, 'u'));
    assert.match(list, /Sandbox/u);
    assert.match(list, /In use in this window/u);
    await wb.screenshot('switch-from-status-bar');
    await pickRow('Default').first().click();
    await statusItem('Default').first().waitFor({ timeout: 15_000 });
    await pane('Account').locator('.monaco-list-row', { hasText: /Profile\s*Default/u }).waitFor({ timeout: 15_000 });
    await pane('Account').locator('.monaco-list-row', { hasText: /1000M credits/u }).waitFor({ timeout: 30_000 });
    await wb.screenshot('default-again');
  });

  it('switches to the work account from the Account view', async () => {
    await pane('Account').locator('.monaco-list-row', { hasText: /Profile\s*Default/u }).click();
    await pickRow(WORK).first().waitFor({ timeout: 15_000 });
    await wb.screenshot('switch-from-account-view');
    await pickRow(WORK).first().click();
    await statusItem(WORK).first().waitFor({ timeout: 15_000 });
    await pane('Account').locator('.monaco-list-row', { hasText: /123M credits/u }).waitFor({ timeout: 30_000 });
    await wb.page.locator('.part.activitybar').hover();
    await wb.screenshot('work-again');
  });
});
