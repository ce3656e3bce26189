// In one window, one after the other (they were two files and two windows, sidebar.test.ts and this
// one: the same sandbox and poll interval, the default theme and size):
// - the sidebar: a person opens the Wallet Analytics sidebar with the built-in sandbox running, sees
//   the Account view (key state, base URL, balance) and an empty Requests view, runs Trending Tokens
//   from the palette, watches the job appear under Running with a spinner, then turn done under
//   Today, and hovers it for the full inputs and the requestId. First, on the window as it opened
//   (its history empty).
// - Top Traders: a person runs "Top Traders of Tokens…" from the palette against the built-in sandbox, types two
//   token addresses, sees the price (200 credits) before anything is sent, confirms, sees the
//   completion notification and opens the result. In the same window, "Check a Request…" with an id
//   the sandbox does not know shows a helpful error, whole, on screen.
// - Cancel on a queued job's progress stops waiting only: the note says so whole and shows the
//   Requests view, where the job is listed.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import type { Locator } from 'playwright-core';
import { sampleAddress } from '../../src/core/spec/samples';
import { Workbench, packagedVsix } from './workbench';
import { shown, tableFrame, until } from './tableWebview';

const TITLE = 'Wallet Analytics: Top Traders of Tokens…';
const TRENDING = 'Wallet Analytics: Trending Tokens…';

// One window for all three parts: the later ones need only the sandbox the first already runs, and
// a window of its own cost a workbench, an extension host and a sandbox start (about 50 s of a loaded
// 2-core machine).
let wb: Workbench;

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

/** Runs Trending Tokens from the palette: hours (default 1), then the price, Enter on each, as a person accepting the defaults. */
async function runTrending(): Promise<void> {
  await wb.runCommand(TRENDING);
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
}

describe('the sidebar: a running job turns done, live', { timeout: 300_000 }, () => {
  const pane = (title: string): Locator => wb.page.locator('.pane', { has: wb.page.locator('.pane-header', { hasText: new RegExp(`^\\s*${title}`, 'u') }) });
  const row = (text: string): Locator => pane('Requests').locator('.monaco-list-row', { hasText: text });

  it('opens from its own icon in the activity bar, with the account and an empty history', async () => {
    wb.shotsAs('sidebar');
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
    await runTrending();
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

describe('Top Traders of Tokens from the palette, price first', { timeout: 240_000 }, () => {
  // Two of the tokens the sandbox's market plants (src/sandbox/market.ts): they have traders, so the
  // result a trader pays for shows rows (21 and 22 are no tokens there: their files held headers only).
  const tokens = [sampleAddress('main', 1), sampleAddress('main', 2)];
  // The paste step shown, its prompt under the box: at load 19 the addresses were typed into the
  // sources pick still on screen (its filter, matching no row), and Enter there did nothing.
  const pasteStep = (): Promise<void> => wb.quickInput.getByText(/paste addresses separated by/u).first().waitFor({ timeout: 30_000 });

  it('finds the command in the palette', async () => {
    // Its pictures under its own name, with the Explorer in the side bar as a fresh window shows it.
    wb.shotsAs('toptraders');
    if (!(await wb.page.locator('.explorer-folders-view').isVisible())) await wb.page.locator('.part.activitybar .action-item .action-label[aria-label^="Explorer"]').click();
    const labels = await wb.openPalette('Top Traders', (l) => l.includes(TITLE));
    assert.ok(labels.includes(TITLE), JSON.stringify(labels));
    await wb.screenshot('palette');
    await wb.closeQuickInput();
  });

  it('asks for the tokens, then shows the price before sending', async () => {
    await wb.runCommand(TITLE);
    // Step 1: where the tokens come from.
    await wb.quickInput.locator('.quick-input-list .monaco-list-row', { hasText: 'Type or paste' }).waitFor({ timeout: 30_000 });
    await wb.screenshot('sources');
    await wb.quickInput.locator('.quick-input-list .monaco-list-row', { hasText: 'Type or paste' }).click();
    await pasteStep();
    await wb.typeIntoQuickInput(`${tokens[0]}, ${tokens[1]}`);
    await wb.screenshot('tokens-typed');
    await wb.page.keyboard.press('Enter');
    // Step 2: the output kind (zip by default).
    await wb.quickInput.locator('.quick-input-list .monaco-list-row', { hasText: 'zip' }).first().waitFor({ timeout: 15_000 });
    await wb.page.keyboard.press('Enter');
    // Step 3: the price.
    const run = wb.quickInput.locator('.quick-input-list .monaco-list-row', { hasText: 'Run' }).first();
    await run.waitFor({ timeout: 30_000 });
    const text = await wb.quickInput.innerText();
    await wb.screenshot('price');
    assert.match(text, /200 credits \(2 tokens × 100\)/u, text);
    // The sandbox's 1,000,000,000 less the sidebar's Trending call (50, its balance asserted above) and this call's 200.
    assert.match(text, /balance after 999,999,750/u, 'the balance after the call, so nothing was charged yet');
    assert.match(text, /resets ~?\d{4}-\d{2}-\d{2}/u);
    // Every line of the step shows whole (the detail was once cut to "ceiling 1,000,000 credits per c…").
    const cut = await wb.quickInput.locator('.quick-input-list .monaco-list-row *').evaluateAll((els) =>
      els.filter((e) => e.ownerDocument.defaultView?.getComputedStyle(e).textOverflow === 'ellipsis' && e.scrollWidth > e.clientWidth + 1).map((e) => e.textContent ?? ''),
    );
    assert.deepEqual(cut, [], 'no line of the price step is cut off');
    // The placeholder (who pays, what Enter does) shows whole too: it was cut at the host's port.
    const box = wb.quickInputField;
    assert.match((await box.getAttribute('placeholder')) ?? '', /^Charged to Sandbox \(127\.0\.0\.1:\d+\)\. Enter runs it\.$/u);
    const [full, shown] = await box.evaluate((e) => {
      const doc = e.ownerDocument;
      const ctx = doc.createElement('canvas').getContext('2d');
      if (ctx) ctx.font = doc.defaultView?.getComputedStyle(e).font ?? '';
      return [ctx?.measureText(e.getAttribute('placeholder') ?? '').width ?? 0, e.clientWidth];
    });
    assert.ok(full < shown, `the placeholder fits: ${full.toFixed(0)} px in ${shown} px`);
    assert.match(text, /3\/3|3 \/ 3/u, 'the step number is shown');
  });

  it('runs on Enter, then announces the finished job and opens its result', async () => {
    await wb.page.keyboard.press('Enter');
    const msg = await wb.waitForNotification(/Top Traders of Tokens is ready/u, 60_000);
    await wb.screenshot('done');
    // Short enough to read whole: when it was sent and what it cost, not the file's long name (the tab has it).
    assert.match(msg, /^Top Traders of Tokens is ready \(sent \d{1,2}:\d{2}( [AP]M)?, 200 credits\)\.$/u);
    const toast = wb.page.locator('.notifications-toasts .notification-toast', { hasText: 'Top Traders of Tokens is ready' }).first();
    const cut = await toast.locator('.notification-list-item-message').evaluate((e) => e.scrollWidth > e.clientWidth + 1);
    assert.equal(cut, false, 'the message is not cut off');
    await wb.page.locator('.notification-toast .monaco-button', { hasText: 'Open' }).first().click();
    const tab = wb.page.locator('.tabs-container .tab', { hasText: /\.csv/u }).first();
    await tab.waitFor({ timeout: 20_000 });
    // The table drawn, not a blank page, in the picture.
    const frame = await tableFrame(wb.page, ((await tab.innerText()).trim().split('\n')[0] ?? '').trim());
    const v = await until('the result table drawn', async () => {
      const t = await shown(frame);
      return t.headers.length > 0 && t.progress === undefined ? t : undefined;
    }, 30_000);
    assert.ok(v.rows.length > 0, 'the paid result shows its traders');
    // A .zip result's toolbar holds its file switcher too: at 1280 px the search box keeps room
    // for its placeholder (it was squeezed to "Search a"), the buttons wrap to a line of their own
    // rather than overflow, and nothing sticks out of the toolbar.
    await frame.locator('.toolbar select.file-switch').waitFor({ timeout: 10_000 });
    const bar = await frame.locator('.toolbar').evaluate((t) => {
      const search = t.querySelector('input.search');
      const box = search?.getBoundingClientRect();
      const inside = [...t.querySelectorAll('button, select, input')].every((e) => {
        const r = e.getBoundingClientRect();
        return r.left >= 0 && r.right <= (t.ownerDocument.defaultView?.innerWidth ?? 0) + 1;
      });
      const ctx = t.ownerDocument.createElement('canvas').getContext('2d');
      if (ctx && search) ctx.font = t.ownerDocument.defaultView?.getComputedStyle(search).font ?? '';
      return { searchWidth: search?.clientWidth ?? 0, placeholder: ctx?.measureText(search?.getAttribute('placeholder') ?? '').width ?? 0, overflow: t.scrollWidth - t.clientWidth, inside, top: box?.top ?? -1 };
    });
    assert.ok(bar.searchWidth >= bar.placeholder + 8, `the search box (${bar.searchWidth} px) holds its placeholder (${bar.placeholder.toFixed(0)} px)`);
    assert.ok(bar.overflow <= 1 && bar.inside, `nothing of the toolbar sticks out (${bar.overflow} px)`);
    // The result is named for a person: the endpoint and when it was sent (local time), whole in the
    // breadcrumbs and the Explorer; the request id is in its sidecar, not in the name.
    const crumbs = await wb.page.locator('.breadcrumbs-control').first().innerText();
    assert.match(crumbs, /toptraders-\d{4}-\d{2}-\d{2}-\d{4}(-\d+)?/u, crumbs);
    assert.doesNotMatch(crumbs, /req_/u, crumbs);
    await wb.screenshot('result-open');
    assert.match(await tab.innerText(), /\.csv/u);
  });

  it('above the confirmation threshold, Enter by habit sends nothing: Cancel is the selected choice, Run must be chosen', async () => {
    // The result opened by the test before may still be loading its table while the palette and the
    // price question below are open: its table must leave the focus where the person is (it once took
    // it, closing the palette and turning Enter on the confirmation into Enter on the grid).
    const balance = async (): Promise<string> => {
      await wb.clearNotifications();
      await wb.runCommand('Wallet Analytics: Show Credits');
      const msg = await wb.waitForNotification(/Credits: [\d,]+ left/u, 30_000);
      return /Credits: ([\d,]+) left/u.exec(msg)?.[1] ?? '';
    };
    await wb.page.locator('.tabs-container .tab.active', { hasText: /\.csv/u }).waitFor({ timeout: 20_000 });
    const before = await balance();
    await wb.clearNotifications();
    await wb.runCommand(TITLE);
    const source = wb.quickInput.locator('.quick-input-list .monaco-list-row', { hasText: 'Type or paste' });
    await source.waitFor({ timeout: 30_000 });
    // Where the focus goes between the questions, from the first to the confirmation: VS Code hands
    // it back to the editor (this table) when a question hides, and the table's webview took it
    // back after the next question showed. Each step now stays on screen until the next one shows.
    await wb.page.locator('body').evaluate((body) => {
      const doc = body.ownerDocument;
      const trail: string[] = [];
      doc.body.dataset.waFocusTrail = '';
      const look = (): void => {
        setTimeout(() => {
          const a = doc.activeElement;
          trail.push(a ? `${a.tagName}${a.closest('.quick-input-widget') ? ' in the question' : ''}` : 'nothing');
          doc.body.dataset.waFocusTrail = trail.join(', ');
        }, 0);
      };
      doc.addEventListener('focusin', look, true);
      doc.addEventListener('focusout', look, true);
    });
    await source.click({ timeout: 30_000 });
    await pasteStep();
    // 11 tokens × 100 = 1,100 credits, above the default threshold of 1,000.
    await wb.typeIntoQuickInput(Array.from({ length: 11 }, (_, i) => sampleAddress('main', 40 + i)).join(', '), { submit: true });
    await wb.quickInput.locator('.quick-input-list .monaco-list-row', { hasText: 'zip' }).first().waitFor({ timeout: 15_000 });
    await wb.page.keyboard.press('Enter');
    const cancel = wb.quickInput.locator('.quick-input-list .monaco-list-row.focused', { hasText: 'Cancel' });
    await cancel.waitFor({ timeout: 30_000 });
    const trail = ((await wb.page.locator('body').getAttribute('data-wa-focus-trail')) ?? '').split(', ').filter((t) => t !== '');
    assert.ok(trail.length > 0, 'the focus was followed');
    assert.deepEqual(trail.filter((t) => t === 'IFRAME'), [], `the table's webview never took the focus between the questions: ${trail.join(', ')}`);
    const text = await wb.quickInput.innerText();
    await wb.screenshot('confirm-cancel-first');
    assert.match(text, /Run this call for 1,100 credits\?/u, text);
    assert.match(text, /Run — 1,100 credits/u, text);
    // Enter by habit, with the focus where the dialog put it.
    await wb.page.keyboard.press('Enter');
    // The list closes on Enter; at load 19 in a full run it took over 5 s to go.
    await wb.quickInput.waitFor({ state: 'hidden', timeout: 30_000 });
    assert.equal(await balance(), before, 'Enter on the confirmation sent nothing');
  });
});

describe('a helpful error, on screen', { timeout: 180_000 }, () => {
  it('says what is wrong when a request id is unknown, and the screenshot check sees it', async () => {
    await wb.runCommand('Wallet Analytics: Check a Request…');
    await wb.quickInputField.waitFor({ timeout: 30_000 });
    await wb.typeIntoQuickInput('req_does_not_exist', { submit: true });
    const msg = await wb.waitForNotification(/Check a Request/u, 30_000);
    assert.match(msg, /req_does_not_exist|not found|no request/iu, msg);
    assert.deepEqual((await wb.errorNotifications()).length, 1, 'shown as an error');
    // Whole, not cut to one line (a toast without a button shows collapsed: issue 23).
    const toast = wb.page.locator('.notifications-toasts .notification-toast', { hasText: 'Check a Request' }).first();
    const cut = await toast.locator('.notification-list-item-message').evaluate((e) => e.scrollWidth > e.clientWidth + 1);
    assert.equal(cut, false, 'the error is not cut off');
    await assert.rejects(wb.screenshot('unknown-request'), /Error notification on screen/u);
    await wb.screenshot('unknown-request-allowed', { allowErrors: /Check a Request/u });
  });
});

describe('Cancel on a queued job stops waiting only', { timeout: 240_000 }, () => {
  it('says whole that the job still runs and where its file goes, with the Requests view a click away', async () => {
    wb.shotsAs('cancel-wait');
    // The sandbox may answer before the click lands (a job takes 1 to 8 s here): then run it again.
    let stopped = false;
    for (let attempt = 0; attempt < 3 && !stopped; attempt++) {
      await wb.clearNotifications();
      await runTrending();
      const waiting = wb.page.locator('.notifications-toasts .notification-toast', { hasText: /Trending Tokens: queued/u }).first();
      await waiting.waitFor({ timeout: 30_000 });
      // The price question left when Run was chosen: it once stayed 1.5 s, busy, still reading "Run — … credits", beside this note.
      assert.equal(await wb.quickInput.isVisible(), false, 'the price question is gone once the call is sent');
      await waiting.locator('.monaco-button', { hasText: 'Cancel' }).click({ timeout: 5000 }).catch(() => undefined);
      stopped = await Promise.race([
        wb.waitForNotification(/Stopped waiting/u, 30_000).then(() => true),
        wb.waitForNotification(/Trending Tokens is ready/u, 30_000).then(() => false),
      ]);
    }
    assert.ok(stopped, 'Cancel landed while the job was waiting, in one of three runs');
    await wb.screenshot('stopped-waiting');
    // It once showed one line ("Stopped waiting. The job req_… still runs on the s…"), cut before
    // where the file goes: a toast without a button shows collapsed (issue 23).
    assert.deepEqual(await wb.cutInToast(/Stopped waiting/u), [], 'no text in the toast is cut off');
    const toast = wb.page.locator('.notifications-toasts .notification-toast', { hasText: /Stopped waiting/u }).first();
    await toast.locator('.monaco-button', { hasText: 'Show Requests' }).click();
    // The job it stopped waiting for is listed there, beside the sidebar's first Trending run.
    const requests = wb.page.locator('.pane', { has: wb.page.locator('.pane-header', { hasText: /^\s*Requests/u }) });
    await until('the stopped job listed under Requests', async () => (await requests.locator('.monaco-list-row', { hasText: 'Trending Tokens' }).count()) >= 2, 30_000);
    await wb.screenshot('requests-shown');
  });
});
