// Compare and address sets in Chromium, as a person uses them. Two 722 MB results (the table
// test's 100,000 × 640 file and a second one sharing 90% of its addresses) are compared from the
// palette and shown as one table with its counts, then sorted on a Δ column. Two small results
// selected in the Explorer are intersected into a list that is handed to another endpoint: its
// price shows before anything is sent, and the test never approves it.
// First, in the same window (it was a file and a window of its own, addressSetsEnter.test.ts: a
// workbench drawn, an extension host and a sandbox started for one test): Address Sets (issue 23,
// item 10), Enter pressed while the results' addresses are still being read ("reading…" beside
// each) goes on to the operation step. Two results of 300,000 lines each, so the reading takes a
// while, picked in the Explorer. It runs first, on the window as it opened, as it did alone.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { after, before, describe } from 'node:test';
import type { Frame } from 'playwright-core';
import { sampleAddress } from '../../src/core/spec/samples';
import { BIG_FILE, BIG_ROWS, OTHER_FILE as OTHER, ensureOtherTable } from './bigTable';
import { Workbench, packagedVsix, stepWithShot } from './workbench';
import { shown, tableFrame, until } from './tableWebview';

const COMPARE_TITLE = `compare wallets-${BIG_ROWS}-seed1 vs wallets-${BIG_ROWS}-seed2-shared90.compare.json`;
const ROWS = 300_000;
const list = (from: number): string => `${['address', ...Array.from({ length: ROWS }, (_, k) => sampleAddress('main', from + k))].join('\n')}\n`;
const small = (from: number, to: number): string =>
  `${['address,realized_pnl_usd_7d', ...Array.from({ length: to - from }, (_, k) => `${sampleAddress('main', from + k)},${(from + k) * 3}`)].join('\n')}\n`;

describe('compare two results and combine their addresses, in Chromium', { timeout: 900_000 }, () => {
  let wb: Workbench;
  let frame: Frame;
  const figures: string[] = [];

  const step = (title: string, fn: () => Promise<void>): void => stepWithShot(() => wb, title, fn);

  before(async () => {
    assert.ok(existsSync(packagedVsix), `${packagedVsix} is missing: run \`npm run package\` first`);
    // npm test has written both while the other tiers ran (bigTable.ts); run alone, this file writes them.
    const gen = await ensureOtherTable();
    console.log(`# ${OTHER}: ${gen.reused ? 'reused' : `generated in ${gen.seconds.toFixed(1)} s`}`);
    wb = await Workbench.open({
      name: 'compare',
      settings: { 'walletAnalytics.sandbox.autoStart': true },
      // Wallets 0–29 and 10–49: 20 in both. first.csv and second.csv: the Enter-while-reading step.
      files: { 'early.csv': small(0, 30), 'late.csv': small(10, 50), 'first.csv': list(0), 'second.csv': list(100_000) },
    });
  });

  after(async () => {
    for (const f of figures) console.log(`# ${f}`);
    await wb?.close();
  });

  /** Picks "Choose files…" in the open quick pick and types `file` into the file dialog. */
  const chooseFile = async (file: string): Promise<void> => {
    const choose = wb.quickInput.locator('.quick-input-list .monaco-list-row', { hasText: 'Choose files…' }).first();
    await choose.waitFor({ timeout: 15_000 });
    await choose.click();
    await wb.acceptFileDialog(file);
  };

  step('Address Sets: goes on to the operation step when Enter is pressed during the reading', async () => {
    wb.shotsAs('address-sets-enter');
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
    await wb.quickInput.waitFor({ state: 'hidden', timeout: 5000 });
  });

  step('compares two 722 MB results from the palette: one table, its counts above it', async () => {
    wb.shotsAs('compare');
    await wb.runCommand('Wallet Analytics: Compare Results…');
    await chooseFile(BIG_FILE);
    await chooseFile(OTHER);
    const started = Date.now();
    frame = await tableFrame(wb.page, COMPARE_TITLE, 60_000);
    const s = await until('the compared rows and their counts', async () => {
      const v = await shown(frame);
      const notice = await frame.locator('.notice').allInnerTexts();
      return v.rows.length > 5 && notice.some((n) => /in both/u.test(n)) ? { v, notice: notice.join(' ') } : undefined;
    }, 60_000);
    figures.push(`compare of two 722 MB files shown ${Date.now() - started} ms after the second file was chosen (both indexed in that time)`);
    assert.match(s.notice, /90,000 in both, 10,000 only in A, 10,000 only in B/u, s.notice);
    assert.equal(s.v.count, '110,000 rows');
    for (const h of ['address', 'status', 'Δ realized_pnl_usd_1d']) assert.ok(s.v.headers.includes(h), `${h} in ${JSON.stringify(s.v.headers.slice(0, 8))}`);
    await wb.screenshot('compare-table');
  });

  step('sorts the comparison on a Δ column, largest change first', async () => {
    const header = frame.locator('.hrow [role=columnheader]', { has: frame.locator('.hname', { hasText: /^Δ realized_pnl_usd_1d$/u }) });
    const t0 = Date.now();
    await header.click();
    await until('sorted ascending', async () => (await header.getAttribute('aria-sort')) === 'ascending' && (await shown(frame)).progress === undefined, 60_000);
    await header.click();
    await until('sorted descending', async () => (await header.getAttribute('aria-sort')) === 'descending' && (await shown(frame)).progress === undefined, 30_000);
    figures.push(`sort on Δ realized_pnl_usd_1d, both directions, ${Date.now() - t0} ms as seen in the webview`);
    const s = await until('the sorted rows painted', async () => {
      const v = await shown(frame);
      const status = v.headers.indexOf('status');
      return v.rows.length > 3 && v.rows.every((r) => r[status] === 'in both') ? v : undefined;
    }, 15_000);
    const col = s.headers.indexOf('Δ realized_pnl_usd_1d');
    const values = s.rows.map((r) => Number((r[col] ?? '').replace(/[^\d.eE+-]/gu, '')));
    assert.ok(values.every((v, i) => i === 0 || v <= (values[i - 1] ?? Infinity)), `descending: ${JSON.stringify(values)}`);
    await wb.screenshot('compare-sorted');
  });

  step('intersects two Explorer-selected results, counts shown as they are picked, then hands the list on: price first', async () => {
    // The Explorer is open already (the comparison was revealed in it); a click on its icon would close it.
    if (!(await wb.page.locator('.explorer-folders-view').isVisible())) await wb.page.locator('.part.activitybar .action-item .action-label[aria-label^="Explorer"]').click();
    await wb.addressSetsFromExplorer('early.csv', 'late.csv');
    const placeholder = async (): Promise<string> => (await wb.quickInputField.getAttribute('placeholder')) ?? '';
    await until('both results picked and counted', async () => /20 in all · 50 in any · 10 only in the first/u.test(await placeholder()), 30_000);
    const described = await wb.quickInput.locator('.quick-input-list .monaco-list-row').allInnerTexts();
    assert.ok(described.some((d) => /30 addresses in “address”/u.test(d)) && described.some((d) => /40 addresses in “address”/u.test(d)), JSON.stringify(described));
    await wb.screenshot('address-sets-picked');
    await wb.page.keyboard.press('Enter');
    const intersect = wb.quickInput.locator('.quick-input-list .monaco-list-row', { hasText: 'Intersect' }).first();
    await intersect.waitFor({ timeout: 15_000 });
    assert.match(await intersect.innerText(), /20 addresses in all 2/u);
    await wb.screenshot('address-sets-operation');
    await intersect.click();
    await wb.waitForNotification(/Wrote 20 addresses/u);
    await wb.screenshot('address-sets-written');
    // The toast reads whole: its source and both buttons (a long button once cut the source to "Wallet A…").
    const toast = wb.page.locator('.notifications-toasts .notification-toast', { hasText: 'Wrote 20 addresses' }).first();
    const cut = await toast.locator('.notification-list-item-source, .notification-list-item-message, .monaco-button').evaluateAll((els) =>
      els.filter((e) => e.scrollWidth > e.clientWidth + 1).map((e) => e.textContent ?? ''),
    );
    assert.deepEqual(cut, [], 'no text in the toast is cut off');
    await toast.locator('.monaco-button', { hasText: 'Use as Input…' }).first().click();
    const pnl = wb.quickInput.locator('.quick-input-list .monaco-list-row', { hasText: 'PnL of Wallets…' }).first();
    await pnl.waitFor({ timeout: 30_000 });
    await wb.screenshot('address-sets-use-as-input');
    // Every endpoint's price reads whole on its line: the heading of the endpoints that take the
    // other kind once sat on the first of them and cut its price to "1…".
    assert.deepEqual(await wb.cutQuickPickRows(), [], 'no endpoint or price in the picker is cut off');
    await pnl.click();
    // The endpoint's own flow: the price before anything is sent (a step, or a modal above confirmAbove).
    const text = await wb.priceShown();
    await wb.screenshot('address-sets-price-first');
    assert.match(text, /credits \(20 wallets × 5\)/u, text);
    await wb.page.keyboard.press('Escape');
    figures.push(`address set sent onwards, price shown first: ${text.replace(/\s+/gu, ' ').slice(0, 160)}`);
  });
});
