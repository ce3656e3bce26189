// Accessibility of every webview (issue 26 item 7) in four themes, one after another in one window
// (a11y.test.ts): the theme is changed as a person would, in the folder's settings, and every view
// is checked again in it. One window, not one a theme: the three windows more cost a Chromium, a
// workbench, an extension host and the sandbox each, about 40 s of a 2-core machine apiece. The extension has one kind of webview, the Wallet Analytics Table (a custom editor;
// the sidebar's Account and Requests are tree views); what a person sees in it is: the grid with
// its toolbar and notices, the cell menu, the filter dialog, the column chooser, the analysis
// panel (profile, histogram, scatter, a chart as a table), a one-wallet result as its card, and a
// comparison of two results. Each is checked with axe-core in the theme of the file: a step fails
// on any serious or critical violation (after closing what it opened, so the next step starts
// clean), and every result (all impacts) goes to test-results/e2e/axe-results-<theme>.{json,md}.
// The sandbox runs beside it (autoStart), as for a person trying the extension. The notebook
// renderer's outputs (pipeline cells) are checked in pipeline.test.ts, where the notebook already
// runs, in four themes (axe-results-notebook-renderer.{json,md}).
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe } from 'node:test';
import type { Frame } from 'playwright-core';
import { seededRandom } from '../../bench/tableData';
import { IDENTITY_COLUMNS, metricColumns } from '../../src/core/spec/metrics';
import { sampleAddress } from '../../src/core/spec/samples';
import { blocking, runAxe, writeAxeReport, type AxeRun } from './axe';
import { Workbench, packagedVsix, stepWithShot } from './workbench';
import { noticeIconsDrawn, shown, tableFrame, until } from './tableWebview';

const COLUMNS = ['address', 'label', 'realized_pnl_usd_7d', 'winrate_7d', 'roi_7d', 'trade_count_7d', 'main_dex', 'first_seen'];

/** A small wallet table with one ragged row (so a notice shows). */
function walletsCsv(rows: number): string {
  const rand = seededRandom(3);
  const lines = [COLUMNS.join(',')];
  for (let i = 0; i < rows; i++) {
    const cells = [
      sampleAddress('main', i),
      ['', 'sniper', 'whale'][i % 3] ?? '',
      ((rand() - 0.4) * 10 ** Math.floor(rand() * 5)).toFixed(4),
      rand().toFixed(4),
      ((rand() - 0.3) * 4).toFixed(4),
      String(Math.floor(rand() * 5000)),
      ['Raydium', 'Orca', 'Meteora'][i % 3] ?? '',
      new Date(1_650_000_000_000 + i * 3_600_000).toISOString(),
    ];
    lines.push((i === 7 ? cells.slice(0, 5) : cells).join(','));
  }
  return `${lines.join('\n')}\n`;
}

/** One row of every wallet metric: opens as the wallet card. */
function walletCsv(): string {
  const rand = seededRandom(11);
  const columns = [...IDENTITY_COLUMNS, ...metricColumns('main')];
  const identity: Record<string, string> = { address: sampleAddress('main', 4), label: 'whale', chain: 'main', first_seen: '2023-11-02T09:15:00Z' };
  const cells = columns.map((c) => identity[c] ?? ((rand() - 0.45) * 10 ** Math.floor(rand() * 5)).toFixed(4));
  return `${columns.join(',')}\n${cells.join(',')}\n`;
}

const small = (from: number, to: number): string =>
  `${['address,realized_pnl_usd_7d', ...Array.from({ length: to - from }, (_, k) => `${sampleAddress('main', from + k)},${(from + k) * 3 - 40}`)].join('\n')}\n`;

const COMPARE = 'early-vs-late.compare.json';

/** A theme: its name in VS Code, the short name of its screenshots and report, the class VS Code gives the webview's body in it. */
export interface AxeTheme {
  readonly theme: string;
  readonly short: string;
  readonly bodyClass: string;
}

/** The axe steps for every view of the table webview, in each theme in turn, in one window. */
export function axeSuite(themes: readonly AxeTheme[]): void {
  const first = themes[0];
  if (!first) throw new Error('axeSuite needs a theme');
  describe(`the webviews pass axe-core in ${themes.map((t) => t.theme).join(', ')}`, { timeout: 280_000 * themes.length }, () => {
    let wb: Workbench;
    let runs: AxeRun[] = [];
    /** The theme the runs are in (its report is written when the next theme starts, or at the end). */
    let current = first.short;
    /** Serious and critical violations found in the step running now. */
    let problems: string[] = [];
    const report = (): void => {
      if (runs.length > 0) console.log(`# axe results: ${writeAxeReport(runs, current)}`);
      runs = [];
    };

    before(async () => {
      assert.ok(existsSync(packagedVsix), `${packagedVsix} is missing: run \`npm run package\` first`);
      wb = await Workbench.open({
        name: 'a11y',
        settings: { 'workbench.colorTheme': first.theme, 'walletAnalytics.sandbox.autoStart': true },
        files: {
          'wallets.csv': walletsCsv(300),
          'wallet.csv': walletCsv(),
          'early.csv': small(0, 30),
          'late.csv': small(10, 50),
          [COMPARE]: `${JSON.stringify({ walletAnalyticsCompare: 1, a: 'early.csv', b: 'late.csv' })}\n`,
        },
      });
    });

    after(async () => {
      report();
      await wb?.close();
    });

    for (const [i, { theme, short, bodyClass }] of themes.entries()) {
      themeSteps(i, theme, short, bodyClass);
    }

    function themeSteps(index: number, theme: string, short: string, bodyClass: string): void {
      /** A step that fails, after its own clean-up, on the violations check() found. */
      const step = (title: string, fn: () => Promise<void>): void =>
        stepWithShot(() => wb, `${title} (${theme})`, async () => {
          problems = [];
          await fn();
          assert.deepEqual(problems, [], `${title} in ${theme}:\n${problems.join('\n')}`);
        });

      if (index > 0) {
        stepWithShot(() => wb, `switches to ${theme} in the folder's settings`, async () => {
          const settings = join(wb.workspace, '.vscode', 'settings.json');
          mkdirSync(join(wb.workspace, '.vscode'), { recursive: true });
          writeFileSync(settings, `${JSON.stringify({ 'workbench.colorTheme': theme }, null, 2)}\n`);
          report();
          current = short;
          // The webview's body takes the theme's class: the next step waits for it.
        });
      }

      /** Checks what the frame shows now with axe; its serious and critical violations fail the step. */
      const check = async (frame: Frame, view: string): Promise<void> => {
        const run = await runAxe(frame, view, short);
        runs.push(run);
        await wb.screenshot(`${short}-${view}`);
        problems.push(...blocking(run).map((b) => `${view}: ${b}`));
      };

      const open = async (file: string): Promise<Frame> => {
        await wb.openInTableFromExplorer(file);
        return tableFrame(wb.page, file);
      };

      step('the table: grid, toolbar, a notice', async () => {
        const frame = await open('wallets.csv');
        // The theme comes from a settings file the workbench watches: that wait is the file watcher's, not the page's.
        await until(`the webview in ${theme}`, () => frame.evaluate((k) => (globalThis as unknown as { document: { body: { classList: { contains(c: string): boolean } } } }).document.body.classList.contains(k), bodyClass), 60_000);
        await until('rows and the notice', async () => (await shown(frame)).rows.length > 5 && (await frame.locator('.notice').count()) > 0);
        const icons = await noticeIconsDrawn(frame);
        assert.ok(icons.length > 0 && icons.every((i) => i.drawn), `each notice's icon drawn, not an empty box: ${JSON.stringify(icons)}`);
        await check(frame, 'table');
      });

      step('the cell menu and the filter dialog', async () => {
        const frame = await tableFrame(wb.page, 'wallets.csv');
        await frame.locator('.row[aria-rowindex="3"] [role=gridcell]').nth(2).click();
        await wb.page.keyboard.press('Enter');
        await frame.locator('.menu').waitFor();
        await check(frame, 'cell-menu');
        await frame.locator('.menu-item', { hasText: /^Filter…/u }).click();
        await frame.locator('.filter-editor').waitFor();
        await check(frame, 'filter-dialog');
        await wb.page.keyboard.press('Escape');
        await frame.locator('.filter-editor').waitFor({ state: 'detached' });
      });

      step('the column chooser', async () => {
        const frame = await tableFrame(wb.page, 'wallets.csv');
        await frame.locator('.toolbar button', { hasText: /^Columns/u }).click();
        await frame.locator('.chooser').waitFor();
        await check(frame, 'column-chooser');
        await wb.page.keyboard.press('Escape');
        await frame.locator('.chooser').waitFor({ state: 'detached' });
      });

      step('the analysis panel: profile, histogram, scatter, a chart as a table', async () => {
        const frame = await tableFrame(wb.page, 'wallets.csv');
        await frame.locator('.toolbar button', { hasText: /^Analyse$/u }).click();
        const panel = frame.locator('aside.analysis');
        await panel.waitFor();
        const drawn = async (what: string): Promise<void> => {
          await until(what, async () => /Drawn in/u.test(await panel.locator('.analysis-caption').innerText()), 30_000);
        };
        await panel.getByLabel('Column', { exact: true }).selectOption({ label: 'realized_pnl_usd_7d' });
        await until('the profile', async () => (await panel.locator('.profile-stats').count()) > 0, 30_000);
        await check(frame, 'analysis-profile');
        await panel.locator('button', { hasText: /^Histogram$/u }).click();
        await drawn('the histogram');
        await check(frame, 'analysis-histogram');
        await panel.locator('button', { hasText: /^Scatter$/u }).click();
        await panel.locator('.y-select').selectOption({ label: 'winrate_7d' });
        await drawn('the scatter');
        await check(frame, 'analysis-scatter');
        await panel.locator('button', { hasText: /^Show as Table$/u }).click();
        await panel.locator('#analysis-table table').waitFor();
        await check(frame, 'analysis-scatter-table');
        await wb.page.keyboard.press('Escape');
        await panel.waitFor({ state: 'hidden' });
      });

      step('the wallet card', async () => {
        const frame = await open('wallet.csv');
        await frame.locator('section.card .card-table').first().waitFor({ timeout: 20_000 });
        await check(frame, 'wallet-card');
      });

      step('a comparison of two results', async () => {
        const frame = await open(COMPARE);
        await until('the compared rows', async () => (await shown(frame)).rows.length > 5 && (await frame.locator('.notice').count()) > 0, 60_000);
        // The comparison's counts are an information notice (the table's step above has a warning).
        const icons = await noticeIconsDrawn(frame);
        assert.ok(icons.length > 0 && icons.every((i) => i.drawn), `each notice's icon drawn, not an empty box: ${JSON.stringify(icons)}`);
        await check(frame, 'compare');
      });
    }
  });
}
