// A person opens the Wallet Analytics sidebar with the built-in sandbox running, sees the Account
// view (key state, base URL, balance) and an empty Requests view, runs Trending Tokens from the
// palette, watches the job appear under Running with a spinner, then turn done under Today, and
// hovers it for the full inputs and the requestId.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import type { Locator } from 'playwright-core';
import { Workbench, packagedVsix } from './workbench';

const TRENDING = 'Wallet Analytics: Trending Tokens…';

describe('the sidebar: a running job turns done, live', { timeout: 300_000 }, () => {
  let wb: Workbench;
  const pane = (title: string): Locator => wb.page.locator('.pane', { has: wb.page.locator('.pane-header', { hasText: new RegExp(`^\\s*${title}`, 'u') }) });
  const row = (text: string): Locator => pane('Requests').locator('.monaco-list-row', { hasText: text });

  before(async () => {
    assert.ok(existsSync(packagedVsix), `${packagedVsix} is missing: run \`npm run package\` first`);
    wb = await Workbench.open({
      name: 'sidebar',
      settings: { 'walletAnalytics.sandbox.autoStart': true, 'walletAnalytics.pollIntervalSeconds': 1 },
    });
  });

  after(async () => {
    await wb?.close();
  });

  it('opens from its own icon in the activity bar, with the account and an empty history', async () => {
    const icon = wb.page.locator('.part.activitybar .action-item .action-label[aria-label^="Wallet Analytics"]');
    await icon.waitFor({ timeout: 60_000 });
    await icon.click();
    const account = pane('Account');
    await account.locator('.monaco-list-row', { hasText: 'Balance' }).waitFor({ timeout: 60_000 });
    await account.locator('.monaco-list-row', { hasText: /1000M credits/u }).waitFor({ timeout: 30_000 });
    await pane('Requests').locator('.welcome-view-content', { hasText: 'No requests yet' }).waitFor({ timeout: 30_000 });
    const text = await account.innerText();
    assert.match(text, /API key\s*sandbox/u);
    assert.match(text, /Base URL\s*127\.0\.0\.1:\d+/u);
    // Every row reads whole at the sidebar's default width (the Base URL and Forecast rows were cut).
    const cut = await account.locator('.monaco-list-row .monaco-icon-label-container, .monaco-list-row .label-description, .monaco-list-row .label-name').evaluateAll((els) =>
      els.filter((e) => e.scrollWidth > e.clientWidth + 1).map((e) => e.textContent ?? ''),
    );
    assert.deepEqual(cut, [], 'no Account row is cut off');
    assert.match(text, /Quota\s*1000M every 30 days/u);
    const status = wb.page.locator('.part.statusbar .statusbar-item', { hasText: '1000M' });
    await status.waitFor({ timeout: 10_000 });
    await wb.screenshot('empty');
  });

  it('shows a job under Running with a spinner while the sandbox works on it', async () => {
    await wb.runCommand(TRENDING);
    // Hours (default 1), then the price: Enter on each, as a person accepting the defaults.
    for (let step = 0; step < 4; step++) {
      await wb.quickInputField.waitFor({ state: 'visible', timeout: 15_000 });
      const run = wb.quickInput.locator('.quick-input-list .monaco-list-row', { hasText: 'Run' });
      if (await run.first().isVisible()) {
        assert.match(await wb.quickInput.innerText(), /50 credits/u, 'the price is shown before sending');
        await wb.page.keyboard.press('Enter');
        break;
      }
      const title = (await wb.quickInput.locator('.quick-input-title').innerText()).trim();
      await wb.page.keyboard.press('Enter');
      // The next step is on screen once the quick input's title is another step's.
      if (title !== '') await wb.quickInput.locator('.quick-input-title').filter({ hasNotText: title }).waitFor({ timeout: 15_000 });
    }
    const running = row('Trending Tokens').filter({ has: wb.page.locator('.codicon-loading') });
    await running.waitFor({ timeout: 15_000 });
    assert.match(await pane('Requests').innerText(), /Running/u);
    assert.match(await running.innerText(), /hours 1 · 50 credits · \d{2}:\d{2}/u);
    await wb.screenshot('running');
  });

  it('turns it done under Today (the result downloaded), and the balance follows', async () => {
    const done = row('Trending Tokens').filter({ has: wb.page.locator('.codicon-pass') });
    await done.waitFor({ timeout: 60_000 });
    const text = await pane('Requests').innerText();
    assert.match(text, /Today/u);
    assert.doesNotMatch(text, /Running/u, 'the Running group went away');
    await wb.page.locator('.part.statusbar .statusbar-item', { hasText: '999.99M' }).waitFor({ timeout: 15_000 });
    // The spend rows, the last of the Account view, read whole at the sidebar's default width too
    // ("Trending Tokens 50 credits · 1 call…" was cut): the amount on the row, the rest in its tooltip.
    // At the default height too: the Account view's share of the sidebar holds every row down to
    // the first spend line (it stopped at "Budget today", the Forecast and the spend below the fold).
    const account = pane('Account');
    const line = account.locator('.monaco-list-row', { hasText: 'Trending Tokens' });
    await line.waitFor({ timeout: 15_000 });
    const [lineBox, bodyBox] = await Promise.all([line.boundingBox(), account.locator('.pane-body').boundingBox()]);
    assert.ok(lineBox && bodyBox && lineBox.y + lineBox.height <= bodyBox.y + bodyBox.height + 1, `the spend line is in view: ${JSON.stringify({ lineBox, bodyBox })}`);
    assert.match(await line.innerText(), /^Trending Tokens\s*50$/u);
    assert.ok(await account.locator('.monaco-list-row', { hasText: 'Forecast' }).isVisible(), 'the Forecast row is in view');
    assert.match(await account.locator('.monaco-list-row', { hasText: 'Spent this period' }).innerText(), /Spent this period\s*50 credits$/u);
    const cut = await account.locator('.monaco-list-row .monaco-icon-label-container, .monaco-list-row .label-description, .monaco-list-row .label-name').evaluateAll((els) =>
      els.filter((e) => e.scrollWidth > e.clientWidth + 1).map((e) => e.textContent ?? ''),
    );
    assert.deepEqual(cut, [], 'no Account row is cut off, the spend rows included');
    await wb.page.locator('.part.activitybar').hover();
    await wb.screenshot('done');
  });

  it('hovers the row for the full inputs and the requestId', async () => {
    const done = row('Trending Tokens').first();
    await done.hover();
    const hover = wb.page.locator('.monaco-hover, .workbench-hover', { hasText: 'requestId' }).first();
    await hover.waitFor({ timeout: 15_000 });
    const tip = await hover.innerText();
    assert.match(tip, /requestId: req_[0-9a-f]+/u);
    assert.match(tip, /"hours": 1/u);
    assert.match(tip, /cost: 50 credits/u);
    await wb.screenshot('tooltip');
  });

  it('details the credits in the status bar item’s tooltip, and opens the Account view on click', async () => {
    await wb.page.locator('.part.activitybar').hover();
    const item = wb.page.locator('.part.statusbar .statusbar-item', { hasText: '999.99M' }).first();
    await item.hover();
    const hover = wb.page.locator('.monaco-hover, .workbench-hover', { hasText: 'Wallet Analytics credits' }).first();
    await hover.waitFor({ timeout: 15_000 });
    const tip = await hover.innerText();
    assert.match(tip, /Balance: 999,999,950 credits/u);
    assert.match(tip, /Used this period: 50 credits of 1,000,000,000/u);
    assert.match(tip, /Next reset: \d{4}-\d{2}-\d{2}/u);
    await wb.screenshot('credits-tooltip');
    // Elsewhere first (the Explorer), then the item brings the Account view back.
    await wb.page.locator('.part.activitybar .action-item .action-label[aria-label^="Explorer"]').click();
    await item.click();
    await pane('Account').locator('.monaco-list-row', { hasText: 'Balance' }).waitFor({ timeout: 15_000 });
  });
});
