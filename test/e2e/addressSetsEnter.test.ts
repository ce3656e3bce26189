// Address Sets (issue 23, item 10): Enter pressed while the results' addresses are still being
// read ("reading…" beside each) goes on to the operation step (reported as swallowed; on main it
// already goes on, so this guards it). Two results of 300,000 lines each, so the reading takes a
// while, picked in the Explorer.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { sampleAddress } from '../../src/core/spec/samples';
import { Workbench, packagedVsix } from './workbench';

const ROWS = 300_000;
const list = (from: number): string => `${['address', ...Array.from({ length: ROWS }, (_, k) => sampleAddress('main', from + k))].join('\n')}\n`;

describe('Address Sets: Enter while the addresses are read', { timeout: 300_000 }, () => {
  let wb: Workbench;

  before(async () => {
    assert.ok(existsSync(packagedVsix), `${packagedVsix} is missing: run \`npm run package\` first`);
    wb = await Workbench.open({ name: 'address-sets-enter', settings: { 'walletAnalytics.sandbox.autoStart': true }, files: { 'first.csv': list(0), 'second.csv': list(100_000) } });
  });

  after(async () => {
    await wb?.close();
  });

  it('goes on to the operation step when Enter is pressed during the reading', async () => {
    // The extension is active (its menu items show) once the sandbox it starts is in the status bar.
    await wb.runCommand('Wallet Analytics: Show Log');
    await wb.page.locator('.part.statusbar', { hasText: 'WA Sandbox' }).waitFor({ state: 'visible', timeout: 30_000 });
    await wb.runCommand('View: Hide Panel');
    await wb.addressSetsFromExplorer('first.csv', 'second.csv');
    // Enter as soon as the pick shows, while both are still being read.
    await wb.quickInput.locator('.quick-input-list .monaco-list-row', { hasText: 'second.csv' }).first().waitFor({ timeout: 30_000 });
    const reading = (await wb.quickInput.locator('.quick-input-list .monaco-list-row').allInnerTexts()).some((t) => /reading/u.test(t));
    await wb.screenshot('reading');
    await wb.page.keyboard.press('Enter');
    const intersect = wb.quickInput.locator('.quick-input-list .monaco-list-row', { hasText: 'Intersect' }).first();
    const reached = await intersect.waitFor({ timeout: 60_000 }).then(() => true, () => false);
    await wb.screenshot(reached ? 'operation' : 'enter-swallowed');
    assert.ok(reached, `Enter during the reading (reading shown: ${reading}) went on to the operation step; placeholder: ${await wb.quickInputField.getAttribute('placeholder').catch(() => '')}`);
    assert.match(await intersect.innerText(), /[\d,]+ addresses in all 2/u);
    await wb.page.keyboard.press('Escape');
  });
});
