// A newcomer opens the Getting Started walkthrough from the palette, starts the sandbox from its
// first step's button and sees the step ticked, then opens a query file and runs it with
// Ctrl+Enter: the price is asked first, and the result table and query steps tick off too.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import type { Locator, Page } from 'playwright-core';
import { Workbench, packagedVsix } from './workbench';
import { until } from './tableWebview';

const FILE = 'winners.waquery.json';
// The walkthrough's own query (media/walkthrough/query-file.md), as a newcomer copies it.
const QUERY = `{
  "where": {
    "and": [
      { "field": "winrate_30d", "op": ">=", "value": 0.7 },
      { "field": "trade_count_30d", "op": "between", "value": [20, 500] },
      { "field": "total_pnl_usd_30d", "op": ">", "value": 50000 }
    ]
  },
  "limit": 20
}
`;

/** Resolves once a frame (a step's markdown is drawn in a webview of its own) shows `text`. */
const markdownShows = (page: Page, text: string): Promise<unknown> =>
  until(`the markdown showing "${text}"`, async () => {
    for (const f of page.frames()) {
      const body = await f.evaluate(() => (globalThis as unknown as { document: { body: { innerText: string } | null } }).document.body?.innerText ?? '').catch(() => '');
      if (body.includes(text)) return true;
    }
    return undefined;
  }, 30_000);

/** Resolves once a table webview has drawn a cell. */
const tableDrawn = (page: Page): Promise<unknown> =>
  until('a table drawn', async () => {
    for (const f of page.frames()) if ((await f.locator('[role=gridcell]').count().catch(() => 0)) > 0) return true;
    return undefined;
  }, 30_000);

/** Resolves once the element is on screen (an IntersectionObserver says so). */
type Observed = new (cb: (e: { isIntersecting: boolean }[], o: { disconnect(): void }) => void) => { observe(el: unknown): void };
const onScreen = (l: Locator): Promise<unknown> =>
  l.evaluate(
    (el) =>
      new Promise<void>((resolve) => {
        const IO = (globalThis as unknown as { IntersectionObserver: Observed }).IntersectionObserver;
        new IO((entries, o) => {
          if (entries.some((e) => e.isIntersecting)) {
            o.disconnect();
            resolve();
          }
        }).observe(el);
      }),
  );

describe('the Getting Started walkthrough, from the palette to a query run with Ctrl+Enter', { timeout: 300_000 }, () => {
  let wb: Workbench;

  /** The walkthrough's step whose title is `title`. */
  const step = (title: string): Locator => wb.page.locator('.getting-started-step', { has: wb.page.locator('.step-title', { hasText: title }) }).first();
  /** Whether VS Code shows the step as done (its checkbox ticked). */
  const ticked = async (title: string): Promise<boolean> =>
    (await step(title).locator('.codicon-getting-started-step-checked, .codicon-pass-filled').count()) > 0 ||
    (await step(title).evaluate((el) => el.classList.contains('complete')));
  const waitTicked = async (title: string, timeoutMs = 20_000): Promise<void> => {
    for (const deadline = Date.now() + timeoutMs; !(await ticked(title)); await wb.page.waitForTimeout(200)) {
      if (Date.now() > deadline) throw new Error(`The step "${title}" is not ticked after ${timeoutMs} ms.`);
    }
  };

  before(async () => {
    assert.ok(existsSync(packagedVsix), `${packagedVsix} is missing: run \`npm run package\` first`);
    wb = await Workbench.open({
      name: 'walkthrough',
      files: { [FILE]: QUERY },
      settings: { 'editor.minimap.enabled': false, 'workbench.colorTheme': 'Default Dark Modern' },
      viewport: { width: 1400, height: 860 },
    });
  });

  after(async () => {
    await wb?.close();
  });

  it('opens from the palette ("Wallet Analytics: Get Started") with its six steps (pipelines and watches among them), none done yet', async () => {
    await wb.runCommand('Wallet Analytics: Get Started');
    const page = wb.page.locator('.gettingStartedContainer');
    await page.locator('h2, .category-title', { hasText: 'Get Started with Wallet Analytics' }).first().waitFor({ state: 'visible', timeout: 30_000 });
    const titles = (await page.locator('.getting-started-step .step-title').allInnerTexts()).map((t) => t.trim());
    assert.deepEqual(titles, [
      'Your key, or the sandbox',
      'Make a first call, price first',
      'Open the result table',
      'Write a .waquery.json query',
      'Chain calls in a pipeline',
      'Watch for changes',
    ]);
    for (const t of titles) assert.equal(await ticked(t), false, `"${t}" is not done before anything happened`);
    // The first step is open: its text says what the sandbox costs, and its two buttons show.
    const first = step('Your key, or the sandbox');
    const text = await first.innerText();
    assert.match(text, /It costs nothing and never uses your key\./u);
    await first.locator('.monaco-button', { hasText: 'Set API Key' }).waitFor({ state: 'visible' });
    await first.locator('.monaco-button', { hasText: 'Start the Sandbox' }).waitFor({ state: 'visible' });
    // The markdown beside it has rendered (it is in a webview of its own).
    await markdownShows(wb.page, 'Without a key.');
    await wb.screenshot('opened');
  });

  it('starts the sandbox from the first step’s button, and the step is ticked', async () => {
    await step('Your key, or the sandbox').locator('.monaco-button', { hasText: 'Start the Sandbox' }).click();
    await wb.waitForNotification(/Sandbox running at http:\/\/127\.0\.0\.1:\d+/u, 30_000);
    await waitTicked('Your key, or the sandbox');
    await wb.page.locator('.part.statusbar', { hasText: 'WA Sandbox' }).waitFor({ state: 'visible', timeout: 15_000 });
    // One item says so (the profile item became "WA Sandbox"), not "Sandbox" and "WA Sandbox" side by side.
    const sandboxItems = await wb.page.locator('.part.statusbar .statusbar-item', { hasText: /Sandbox/u }).allInnerTexts();
    assert.deepEqual(sandboxItems.map((t) => t.trim()), ['WA Sandbox'], 'the status bar names the sandbox once');
    await wb.screenshot('sandbox-ticked');
    await wb.clearNotifications();
  });

  it('runs the query file with Ctrl+Enter: the price is asked first, nothing typed into the file', async () => {
    await wb.page.keyboard.press('Control+p');
    await wb.quickInputField.waitFor({ state: 'visible' });
    await wb.page.keyboard.type(FILE, { delay: 10 });
    await wb.quickInput.locator('.monaco-list-row', { hasText: FILE }).first().waitFor();
    await wb.page.keyboard.press('Enter');
    const editor = wb.page.locator('.editor-instance .monaco-editor').first();
    await editor.locator('.view-lines').click();
    // The language service has the file (its Run lens shows) before the key is pressed.
    await wb.page.locator('.monaco-editor .codelens-decoration a', { hasText: /^▶ Run — / }).first().waitFor({ state: 'visible', timeout: 60_000 });
    const lines = await editor.locator('.view-line').count();
    await wb.page.keyboard.press('Control+Enter');
    const dialog = wb.page.locator('.monaco-dialog-box');
    await dialog.waitFor({ state: 'visible', timeout: 30_000 });
    const ask = await dialog.innerText();
    await wb.screenshot('ctrl-enter-price');
    assert.match(ask, /The bill is 100 credits × the wallets that match/u);
    // Ctrl+Enter ran the query instead of inserting a line below (VS Code's default in an editor).
    assert.equal(await editor.locator('.view-line').count(), lines, 'no line was inserted');
    await dialog.locator('.monaco-button', { hasText: /^Run or Cancel…$/u }).click();
    await wb.quickInput.locator('.quick-input-list .monaco-list-row', { hasText: 'Run — 100 credits × the matches' }).click({ timeout: 15_000 });
    const msg = await wb.waitForNotification(/Query the Wallet Database: done/u, 60_000);
    assert.match(msg, /done: [\d,]+ matched · charged [\d,]+ credits/u);
    // Every button and the toast's source show whole (four buttons once squeezed the source to "S…").
    const toast = wb.page.locator('.notifications-toasts .notification-toast', { hasText: 'Query the Wallet Database: done' }).first();
    await wb.screenshot('query-done');
    assert.deepEqual(await toast.locator('.monaco-button').allInnerTexts(), ['Open', 'Reveal in Explorer']);
    const cut = await toast.locator('.notification-list-item-source, .monaco-button').evaluateAll((els) =>
      els.filter((e) => e.scrollWidth > e.clientWidth + 1).map((e) => e.textContent ?? ''),
    );
    assert.deepEqual(cut, [], 'no text in the toast is cut off');
    await wb.page.locator('.tabs-container .tab', { hasText: /wallet_database-\d{4}-\d{2}-\d{2}-\d{4}(-\d+)?\.json/u }).first().waitFor({ timeout: 30_000 });
    await tableDrawn(wb.page);
    await wb.screenshot('result-table');
  });

  it('shows every step ticked: the query run was the first call, price first', async () => {
    // No "Clear All Notifications" here: from the palette over the result table's webview, its row
    // was sometimes never clickable (a CI run failed so). The query's "done" toast may show.
    await wb.page.locator('.tabs-container .tab', { hasText: 'Walkthrough: Wallet Analytics' }).first().click();
    await waitTicked('Open the result table');
    await waitTicked('Write a .waquery.json query');
    assert.equal(await ticked('Your key, or the sandbox'), true);
    // A query run is a first call too, with its price asked first.
    await waitTicked('Make a first call, price first');
    // The last step is below the fold at this size: bring the list into view for the picture.
    await step('Write a .waquery.json query').scrollIntoViewIfNeeded();
    await onScreen(step('Write a .waquery.json query'));
    await wb.screenshot('all-four-ticked');
  });

  it('shows the query step’s sample whole in its media pane, and steps for pipelines and watches (issue 35 item 17)', async () => {
    await step('Write a .waquery.json query').locator('.step-title').click();
    // The media is a webview: wait until a frame shows the sample's field.
    const media = await until('the query sample in the media pane', async () => {
      for (const f of wb.page.frames()) if ((await f.locator('code', { hasText: 'winrate_30d' }).count().catch(() => 0)) > 0) return f;
      return undefined;
    }, 30_000);
    const clipped = await media.locator('pre').evaluateAll((els) => els.filter((e) => e.scrollWidth > e.clientWidth + 1).length);
    await wb.screenshot('query-step-sample');
    assert.equal(clipped, 0, 'no sample is cut at the pane’s edge');
    await step('Chain calls in a pipeline').scrollIntoViewIfNeeded();
    await step('Chain calls in a pipeline').locator('.step-title').click();
    assert.match(await step('Chain calls in a pipeline').innerText(), /New Pipeline…/u);
    await wb.screenshot('pipeline-step');
  });
});

// Issue 23: with the sandbox in use before the walkthrough service registers the walkthrough (here
// started by walletAnalytics.sandbox.autoStart as the window opens), the first step stayed unticked:
// VS Code records an onContext event that already holds at registration as seen, never as done.
describe('the walkthrough with the sandbox already running when the window opened', { timeout: 300_000 }, () => {
  let wb: Workbench;
  const step = (title: string): Locator => wb.page.locator('.getting-started-step', { has: wb.page.locator('.step-title', { hasText: title }) }).first();
  const ticked = async (title: string): Promise<boolean> =>
    (await step(title).locator('.codicon-getting-started-step-checked, .codicon-pass-filled').count()) > 0 ||
    (await step(title).evaluate((el) => el.classList.contains('complete')));

  before(async () => {
    assert.ok(existsSync(packagedVsix), `${packagedVsix} is missing: run \`npm run package\` first`);
    wb = await Workbench.open({
      name: 'walkthrough-sandbox-first',
      files: { [FILE]: QUERY },
      settings: { 'editor.minimap.enabled': false, 'workbench.colorTheme': 'Default Light Modern', 'walletAnalytics.sandbox.autoStart': true },
      viewport: { width: 1280, height: 800 },
    });
  });

  after(async () => {
    await wb?.close();
  });

  it('ticks "Your key, or the sandbox" once the walkthrough opens, its title and text whole at 1280 × 800', async () => {
    // The sandbox is running first (the status bar says so), then the walkthrough opens.
    await wb.runCommand('Wallet Analytics: Show Log');
    await wb.page.locator('.part.statusbar', { hasText: 'WA Sandbox' }).waitFor({ state: 'visible', timeout: 30_000 });
    await wb.runCommand('View: Hide Panel');
    await wb.runCommand('Wallet Analytics: Get Started');
    const first = 'Your key, or the sandbox';
    await step(first).waitFor({ state: 'visible', timeout: 30_000 });
    for (const deadline = Date.now() + 15_000; !(await ticked(first)); await wb.page.waitForTimeout(200)) {
      if (Date.now() > deadline) {
        await wb.screenshot('first-step-not-ticked');
        throw new Error(`"${first}" is not ticked with the sandbox running`);
      }
    }
    // The step's title reads on one line, whole.
    const title = step(first).locator('.step-title');
    const cut = await title.evaluate((el) => el.scrollWidth > el.clientWidth + 1 || el.getBoundingClientRect().height > 30);
    assert.equal(cut, false, 'the first step’s title is on one line, not cut');
    await markdownShows(wb.page, 'Without a key.'); // the markdown beside it renders in a webview of its own
    await wb.screenshot('sandbox-first-ticked');
  });
});
