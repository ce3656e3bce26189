// The table by keyboard alone (issue 26 item 7): no mouse click from the first key to the last.
// A person opens a CSV with Quick Open and "Open in Table" from the palette, moves between cells
// with the arrows (each data cell's column header is the one with its aria-colindex, pinned columns
// included), sorts a column and filters it from their menus (Enter), hears the counts in the live
// region, widens the column (Alt+Right on its header), opens the analysis panel's histogram and
// Tabs to the chart, closes it with Escape and finds the focus where it was; Shift+Tab reaches the
// chips and the toolbar, whose More menu saves the view and applies saved views (the workbench's
// input box and quick pick answered from the keyboard too), each announced. Ctrl+1 puts the focus
// on the grid, a skip link is the page's first stop, and Tab stays inside the filter dialog.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { after, before, describe } from 'node:test';
import type { Frame } from 'playwright-core';
import { seededRandom } from '../../bench/tableData';
import { sampleAddress } from '../../src/core/spec/samples';
import { Workbench, packagedVsix, stepWithShot } from './workbench';
import { activeCell, shown, tableFrame, until } from './tableWebview';

const COLUMNS = ['address', 'label', 'realized_pnl_usd_7d', 'winrate_7d', 'trade_count_7d', 'main_dex'];
const ROWS = 30;

function walletsCsv(): string {
  const rand = seededRandom(9);
  const lines = [COLUMNS.join(',')];
  for (let i = 0; i < ROWS; i++) {
    lines.push([sampleAddress('main', i), ['', 'sniper', 'whale'][i % 3], ((rand() - 0.5) * 2000).toFixed(2), rand().toFixed(4), String(Math.floor(rand() * 900)), ['Raydium', 'Orca'][i % 2]].join(','));
  }
  return `${lines.join('\n')}\n`;
}

// The functions passed to evaluate() run in the webview; the test build has no DOM library.
interface Node {
  readonly textContent: string | null;
  getAttribute?(name: string): string | null;
}
interface El {
  readonly tagName: string;
  readonly childNodes: ArrayLike<Node> & Iterable<Node>;
  readonly textContent: string | null;
  getAttribute(name: string): string | null;
  closest(selector: string): El | null;
  querySelector(selector: string): El | null;
}
declare const document: { readonly activeElement: El | null; hasFocus(): boolean; querySelector(selector: string): El | null; getElementById(id: string): El | null };

/** What has the focus in the webview: its role (or tag), its text or label, and whether it is the grid. */
function focused(frame: Frame): Promise<{ role: string; text: string; grid: boolean; inPanel: boolean; inMenu: boolean; hasFocus: boolean }> {
  return frame.evaluate(() => {
    const a = document.activeElement;
    return {
      role: a?.getAttribute('role') ?? a?.tagName.toLowerCase() ?? '',
      text: (a?.getAttribute('aria-label') ?? a?.textContent ?? '').trim().slice(0, 80),
      grid: a?.getAttribute('role') === 'grid',
      inPanel: a?.closest('aside.analysis') != null,
      inMenu: a?.closest('.menu') != null,
      hasFocus: document.hasFocus(),
    };
  });
}

/** The name of the column header the active cell belongs to (the header with its aria-colindex). */
function activeHeader(frame: Frame): Promise<string> {
  return frame.evaluate(() => {
    const id = document.querySelector('[role=grid]')?.getAttribute('aria-activedescendant');
    const cell = id ? document.getElementById(id) : null;
    const col = cell?.getAttribute('aria-colindex');
    const header = col ? document.querySelector(`.hrow [role=columnheader][aria-colindex="${col}"]`) : null;
    return header?.querySelector('.hname')?.textContent ?? header?.textContent ?? '';
  });
}

describe('the table by keyboard alone', { timeout: 280_000 }, () => {
  let wb: Workbench;
  let frame: Frame;

  before(async () => {
    assert.ok(existsSync(packagedVsix), `${packagedVsix} is missing: run \`npm run package\` first`);
    wb = await Workbench.open({ name: 'keyboard', settings: { 'workbench.colorTheme': 'Default Dark Modern' }, files: { 'wallets.csv': walletsCsv() } });
  });

  after(async () => {
    await wb?.close();
  });

  const step = (title: string, fn: () => Promise<void>): void => stepWithShot(() => wb, title, fn);
  const press = (key: string): Promise<void> => wb.page.keyboard.press(key);

  /** Presses `key` until the focused element in the webview satisfies `ok` (at most `max` times). */
  const pressUntil = async (key: string, what: string, ok: (f: Awaited<ReturnType<typeof focused>>) => boolean, max = 25): Promise<void> => {
    for (let i = 0; i < max; i++) {
      await press(key);
      const f = await focused(frame);
      if (ok(f)) return;
    }
    throw new Error(`${what}: not reached with ${max} × ${key}; the focus is on ${JSON.stringify(await focused(frame))}`);
  };

  /** In an open menu, ArrowDown to the item labelled `label`, then Enter. */
  const pick = async (label: RegExp): Promise<void> => {
    await frame.locator('.menu').waitFor();
    const current = (): Promise<string> => frame.evaluate(() => document.activeElement?.querySelector('.menu-label')?.textContent ?? '');
    for (let i = 0; i < 40 && !label.test(await current()); i++) await press('ArrowDown');
    assert.match(await current(), label, 'the menu item has the focus');
    await press('Enter');
    await frame.locator('.menu').waitFor({ state: 'detached' });
  };

  /** What the status line's live region says: its text without the parts hidden from screen readers (a timing). */
  const liveText = (): Promise<string> =>
    frame.evaluate(() => {
      const m = document.querySelector('.status-msg[role=status]');
      return [...(m?.childNodes ?? [])].filter((n) => n.getAttribute?.('aria-hidden') !== 'true').map((n) => n.textContent ?? '').join('');
    });

  step('opens the CSV with Quick Open and "Open in Table" from the palette; the grid has the focus', async () => {
    await press('ControlOrMeta+P');
    await wb.quickInputField.waitFor({ state: 'visible' });
    await wb.page.keyboard.insertText('wallets.csv');
    // Quick Open lists the file once the workspace's file search answers; on a loaded machine it
    // has not within 30 s (seen on the shared build machine and in CI). "File: Open File…" is no
    // way around it: in the browser it opens the system's file picker, which a headless browser
    // never shows. The Explorer is, still from the keyboard: Ctrl+Shift+E, Home, Enter.
    const listed = await wb.quickInput
      .locator('.quick-input-list .monaco-list-row', { hasText: 'wallets.csv' })
      .first()
      .waitFor({ timeout: process.env.WA_E2E_QUICK_OPEN_MS ? Number(process.env.WA_E2E_QUICK_OPEN_MS) : 30_000 })
      .then(() => true, () => false);
    if (listed) {
      await press('Enter');
    } else {
      console.log('# Quick Open listed no file within its wait: opened from the Explorer by keyboard');
      await press('Escape');
      await wb.quickInput.waitFor({ state: 'hidden' });
      await press('ControlOrMeta+Shift+E');
      const row = wb.page.locator('.explorer-folders-view .monaco-list-row.focused', { hasText: 'wallets.csv' });
      await until('the file focused in the Explorer', async () => {
        if ((await row.count()) > 0) return true;
        await press('Home');
        return undefined;
      });
      await press('Enter');
    }
    await wb.page.locator('.tabs-container .tab', { hasText: 'wallets.csv' }).first().waitFor();
    await wb.openPalette('Wallet Analytics: Open in Table', (l) => l.includes('Wallet Analytics: Open in Table'));
    await wb.paletteRow('Wallet Analytics: Open in Table').first().waitFor();
    // The typed filter leaves the best match selected: Enter runs it.
    await until('the command selected', async () => /Open in Table/u.test(await wb.quickInput.locator('.monaco-list-row.focused').first().innerText()));
    await press('Enter');
    frame = await tableFrame(wb.page, 'wallets.csv');
    await until('rows', async () => (await shown(frame)).rows.length > 5);
    const f = await until('the grid focused', async () => {
      const v = await focused(frame);
      return v.grid && v.hasFocus ? v : undefined;
    });
    assert.match(f.text, /^wallets\.csv: 30 rows$/u, 'the grid is named by its file and count');
    assert.equal(await frame.locator('[role=grid]').getAttribute('aria-rowcount'), String(ROWS + 1));
    assert.equal(await frame.locator('[role=grid]').getAttribute('aria-colcount'), String(COLUMNS.length + 1));
    await wb.screenshot('opened');
  });

  step('Ctrl+1 from the Explorer puts the focus on the grid, where the arrows move', async () => {
    await press('ControlOrMeta+Shift+E');
    await until('the Explorer focused', async () => !(await focused(frame)).hasFocus);
    await press('ControlOrMeta+1');
    const f = await until('the grid focused', async () => {
      const v = await focused(frame);
      return v.hasFocus ? v : undefined;
    }).catch(async () => focused(frame));
    assert.ok(f.grid && f.hasFocus, `the grid has the focus after Ctrl+1 (issue 35 item 9): ${JSON.stringify(f)}`);
    const before = (await activeCell(frame)).row;
    await press('ArrowDown');
    await until('the arrow moved the active cell', async () => (await activeCell(frame)).row !== before);
    await press('ArrowUp');
    await wb.screenshot('focused-by-ctrl-1');
  });

  step('from the page’s start, the first Tab is “Skip to the table”: Enter puts the focus on the grid', async () => {
    // The start of the page: the body focused, as when the focus enters the webview from the workbench.
    await frame.evaluate(() => {
      const body = document.querySelector('body') as unknown as { tabIndex: number; focus(): void; removeAttribute(n: string): void };
      body.tabIndex = -1;
      body.focus();
      body.removeAttribute('tabindex');
    });
    await press('Tab');
    const f = await focused(frame);
    await wb.screenshot('skip-link');
    assert.match(f.text, /^Skip to the table/u, `the first stop skips the toolbar (issue 35 item 9 saw 11 Tabs): ${JSON.stringify(f)}`);
    await press('Enter');
    await until('the grid focused', async () => (await focused(frame)).grid);
  });

  step('moves between cells with the arrows; each cell’s header is the one with its column index', async () => {
    await press('ArrowDown');
    await press('ArrowDown');
    await press('ArrowRight');
    await press('ArrowRight');
    const c = await activeCell(frame);
    assert.equal(c.row, '4', 'the third data row (the header row is 1)');
    assert.equal(await activeHeader(frame), 'realized_pnl_usd_7d');
    assert.equal(await frame.locator('[role=gridcell][aria-selected=true]').count(), 1, 'the active cell is the one selected');
    assert.equal(await frame.locator('#grid-active-cell').getAttribute('aria-selected'), 'true');
    await press('Home');
    assert.equal(await activeHeader(frame), 'address', 'a pinned column’s header has its cells’ column index');
    await press('End');
    assert.equal(await activeHeader(frame), 'main_dex');
    await wb.screenshot('moved');
  });

  step('sorts a column from its header’s menu (Enter); the count is announced', async () => {
    await press('Home');
    await press('ArrowRight');
    await press('ArrowRight');
    await press('ControlOrMeta+ArrowUp');
    await press('ArrowUp');
    assert.equal((await activeCell(frame)).row, null, 'on the header row');
    await press('Enter');
    await pick(/^Sort Descending$/u);
    const header = frame.locator('.hrow [role=columnheader]', { has: frame.locator('.hname', { hasText: /^realized_pnl_usd_7d$/u }) });
    await until('sorted', async () => (await header.getAttribute('aria-sort')) === 'descending');
    assert.equal(await frame.locator('.hrow [aria-sort]').count(), 1, 'only the sorted header has aria-sort');
    await until('the sort announced', async () => (await liveText()) === 'Sorted by realized_pnl_usd_7d, descending: 30 rows');
    assert.ok((await focused(frame)).grid, 'the focus is back on the grid');
    await wb.screenshot('sorted');
  });

  step('filters a column from a cell’s menu and its dialog; "N of 30 rows" is announced', async () => {
    await press('ArrowDown');
    assert.equal(await activeHeader(frame), 'realized_pnl_usd_7d');
    await press('Enter');
    await pick(/^Filter…$/u);
    const dialog = frame.locator('.filter-editor[role=dialog]');
    await dialog.waitFor();
    const f = await focused(frame);
    assert.match(f.text, /^Minimum/u, 'the focus is in the minimum field');
    await wb.page.keyboard.type('0');
    await press('Enter');
    await dialog.waitFor({ state: 'detached' });
    const count = await until('filtered', async () => {
      const v = await shown(frame);
      return /^\d+ of 30 rows$/u.test(v.count) ? v.count : undefined;
    });
    await until('the filter announced', async () => (await liveText()) === `Filtered: ${count}`);
    assert.ok((await focused(frame)).grid, 'the focus is back on the grid');
    await pressUntil('Shift+Tab', 'the filter chip’s remove button', (v) => /^Remove realized_pnl_usd_7d/u.test(v.text));
    await wb.screenshot('filtered');
    await pressUntil('Tab', 'the grid again', (v) => v.grid);
  });

  step('Tab past Cancel in the filter dialog stays in the dialog; Escape closes it, the focus back on the grid', async () => {
    await press('Enter');
    await pick(/^(Edit )?Filter…$/u); // the column has a filter from the step before: its menu says Edit Filter…
    const dialog = frame.locator('.filter-editor[role=dialog]');
    await dialog.waitFor();
    await pressUntil('Tab', 'Cancel', (v) => v.text === 'Cancel', 12);
    await press('Tab');
    const inDialog = await frame.evaluate(() => document.activeElement?.closest('.filter-editor') != null);
    const f = await focused(frame);
    await wb.screenshot('filter-tab-past-cancel');
    assert.ok(inDialog && f.hasFocus, `Tab past Cancel stays in the dialog (issue 35 item 9): ${JSON.stringify(f)}`);
    await press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await until('the grid focused', async () => (await focused(frame)).grid);
  });

  step('resizes the column on its header with Alt+Right and Alt+Left', async () => {
    await press('ControlOrMeta+ArrowUp');
    await press('ArrowUp');
    const header = frame.locator('.hrow [role=columnheader]', { has: frame.locator('.hname', { hasText: /^realized_pnl_usd_7d$/u }) });
    const width = async (): Promise<number> => (await header.boundingBox())?.width ?? NaN;
    const w0 = await width();
    await press('Alt+ArrowRight');
    await press('Alt+ArrowRight');
    await until('wider', async () => Math.round((await width()) - w0) === 32);
    await press('Alt+ArrowLeft');
    await until('narrower again', async () => Math.round((await width()) - w0) === 16);
    assert.equal(await activeHeader(frame), 'realized_pnl_usd_7d', 'the header keeps the focus');
    await press('ArrowDown');
  });

  step('opens the histogram from the header’s menu, Tabs to the chart, closes with Escape: the focus is back', async () => {
    await press('ControlOrMeta+ArrowUp');
    await press('ArrowUp');
    await press('Enter');
    await pick(/^Histogram$/u);
    const panel = frame.locator('aside.analysis');
    await panel.waitFor();
    assert.ok((await focused(frame)).inPanel, 'the focus moved into the panel');
    await until('the histogram drawn', async () => /Drawn in/u.test(await panel.locator('.analysis-caption').innerText()), 30_000);
    await pressUntil('Tab', 'the chart', (v) => v.role === 'img' && /Histogram/u.test(v.text));
    await wb.screenshot('chart-focused');
    await pressUntil('Tab', 'Show as Table', (v) => /^Show as Table$/u.test(v.text));
    await press('Enter');
    await panel.locator('#analysis-table table').waitFor();
    await press('Escape');
    await panel.waitFor({ state: 'hidden' });
    const back = await focused(frame);
    assert.ok(back.grid, `the focus is back on the grid: ${JSON.stringify(back)}`);
  });

  step('reaches the toolbar’s Analyse button with Shift+Tab; Enter opens the profile, Escape closes it', async () => {
    await pressUntil('Shift+Tab', 'Analyse', (v) => v.text === 'Analyse');
    await press('Enter');
    const panel = frame.locator('aside.analysis');
    await panel.waitFor();
    await until('the profile', async () => (await panel.locator('.profile-stats').count()) > 0, 30_000);
    await press('Escape');
    await panel.waitFor({ state: 'hidden' });
    assert.equal((await focused(frame)).text, 'Analyse', 'the focus is back on the button');
    await wb.screenshot('back-on-analyse');
  });

  step('saves the view and applies views from the More menu; a query applied from the palette is announced too', async () => {
    /** From the toolbar, More ▾ (Tab, then Enter), then the item `label`. */
    const more = async (label: RegExp): Promise<void> => {
      await pressUntil('Tab', 'More', (v) => /^More/u.test(v.text));
      await press('Enter');
      await pick(label);
    };
    /** Types into the workbench's quick input that opened, and Enter once `row` (if given) is the one selected. */
    const answer = async (text: string, row?: string): Promise<void> => {
      await wb.quickInputField.waitFor({ state: 'visible', timeout: 15_000 });
      await wb.page.keyboard.insertText(text);
      if (row) await until(`"${row}" selected`, async () => (await wb.quickInput.locator('.monaco-list-row.focused').first().innerText()).includes(row));
      await press('Enter');
      await wb.quickInput.waitFor({ state: 'hidden' });
    };
    await more(/^Save View As…$/u);
    await answer('winners');
    await wb.waitForNotification(/Saved the view "winners"/u);
    await pressUntil('Shift+Tab', 'Analyse', (v) => v.text === 'Analyse', 10);
    await more(/^Apply Saved View…$/u);
    await answer('No saved view', 'No saved view');
    await until('every row, said', async () => (await liveText()) === 'Sort removed; Filter removed: 30 rows');
    await pressUntil('Shift+Tab', 'Analyse', (v) => v.text === 'Analyse', 10);
    await more(/^Apply Saved View…$/u);
    await answer('winners', 'winners');
    const count = await until('the view applied', async () => {
      const v = await shown(frame);
      return /^\d+ of 30 rows$/u.test(v.count) ? v.count : undefined;
    });
    await until('the view said', async () => (await liveText()) === `Sorted by realized_pnl_usd_7d, descending; Filtered: ${count}`);
    await wb.screenshot('view-applied');
  });

  step('a table built again while the palette is open leaves the focus in the palette: typing goes on there', async () => {
    // The table builds its page when it loads, and again when a setting it shows changes; a build
    // once put the focus on the grid whatever the person was doing, which closed the palette or a
    // price question under their fingers (a result loading late on a loaded machine: topTraders.test).
    const builds = (): Promise<number> => frame.evaluate(() => (globalThis as unknown as { performance: { getEntriesByName(n: string): unknown[] } }).performance.getEntriesByName('wa:built').length);
    const before = await builds();
    await press('F1');
    await wb.quickInputField.waitFor({ state: 'visible' });
    await wb.page.keyboard.insertText('Wallet Analytics');
    await until('the focus in the palette, not the webview', async () => !(await focused(frame)).hasFocus);
    // The folder's settings, written as an editor would save them: no palette or editor takes the focus.
    const folderSettings = join(wb.workspace, '.vscode', 'settings.json');
    mkdirSync(dirname(folderSettings), { recursive: true });
    writeFileSync(folderSettings, `${JSON.stringify({ 'walletAnalytics.table.colorGainsAndLosses': false })}\n`);
    await until('the table built again with the new setting', async () => (await builds()) > before, 60_000);
    // The person goes on typing: the keys land in the palette, which is still open.
    await wb.page.keyboard.insertText(': Show Credits');
    assert.equal(await wb.quickInputField.inputValue(), '>Wallet Analytics: Show Credits', 'the palette kept the focus and every key');
    assert.equal((await focused(frame)).hasFocus, false, 'the webview did not take the focus');
    await wb.screenshot('palette-kept-focus');
    await wb.closeQuickInput();
    rmSync(folderSettings);
  });
});
