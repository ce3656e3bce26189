// A person opens the shipped example pipeline (spec §8.4: trending → top traders of its first 10
// tokens → PnL of their wallets) against the built-in sandbox and runs it all (issue 24): the plan
// comes first as a pick whose default (Enter) approves nothing, and Enter on it sends nothing; run
// again and approved, a cell is seen running, each output shows its status, credits, rows and a
// small table (our notebook renderer) whose next page comes from the table engine, and "Open as
// Table" opens the result in the table editor. Screenshots of each step are for looking at. The
// renderer's outputs are checked with axe-core (issue 26 item 7) in the dark theme the walk runs
// in, in Light Modern and in both high-contrast themes, here rather than in the a11y suite, so the
// notebook is run once.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { after, before, describe } from 'node:test';
import type { Frame, Locator } from 'playwright-core';
import { examplePipeline, serializePipeline } from '../../src/core/pipeline/format';
import { blocking, runAxe, withBackdrop, writeAxeReport, type AxeRun } from './axe';
import { firstRowText, until } from './tableWebview';
import { stepWithShot, Workbench, packagedVsix } from './workbench';

const FILE = 'example.wapipe.json';

describe('the example pipeline in a notebook: planned, approved once, its results in the renderer and the table', { timeout: 420_000 }, () => {
  let wb: Workbench;
  const step = (title: string, fn: () => Promise<void>): void => stepWithShot(() => wb, title, fn);

  before(async () => {
    assert.ok(existsSync(packagedVsix), `${packagedVsix} is missing: run \`npm run package\` first`);
    wb = await Workbench.open({
      name: 'pipeline',
      files: { [FILE]: serializePipeline(examplePipeline()) },
      settings: {
        'walletAnalytics.sandbox.autoStart': true,
        'walletAnalytics.pollIntervalSeconds': 1,
        'workbench.colorTheme': 'Default Dark Modern',
        'editor.minimap.enabled': false,
        'notebook.globalToolbar': true,
      },
      viewport: { width: 1400, height: 1000 },
    });
  });

  after(async () => {
    await wb?.close();
  });

  /** The notebook's outputs frame holding our renderer's views, once it shows `count` of them. */
  const rendererFrame = async (count: number, timeoutMs = 60_000): Promise<Frame> =>
    until(
      `${count} rendered cell results`,
      async () => {
        for (const f of wb.page.frames()) {
          const n = await f
            .locator('.wa-cr')
            .count()
            .catch(() => 0);
          if (n >= count) return f;
        }
        // Not drawn yet: out of view. Scroll the notebook down a little, as a person would.
        await scrollNotebook(300);
        return undefined;
      },
      timeoutMs,
    );

  /** Scrolls the notebook by `dy` pixels with the wheel over its left margin (over an output, the wheel goes to the outputs' frame). */
  const scrollNotebook = async (dy: number): Promise<void> => {
    await wb.page.mouse.move(70, 600);
    await wb.page.mouse.wheel(0, dy);
    await wb.page.waitForTimeout(150);
  };

  /** Scrolls the notebook until `target` (in the outputs' frame) is wholly in view under the toolbar. */
  const reveal = async (target: Locator): Promise<void> => {
    const height = wb.page.viewportSize()?.height ?? 1000;
    for (let i = 0; i < 40; i++) {
      const box = await target.boundingBox();
      if (!box) throw new Error('the output is not drawn');
      const below = box.y + box.height - (height - 40);
      const above = 120 - box.y;
      if (below <= 0 && above <= 0) return;
      await scrollNotebook(below > 0 ? Math.min(below + 20, 400) : -Math.min(above + 20, 400));
    }
    throw new Error('the output could not be scrolled into view');
  };

  /** The plan pick (Run All's first question): waits for it and returns its text. */
  const planPick = async (): Promise<string> => {
    await wb.quickInput.locator('.quick-input-list .monaco-list-row', { hasText: 'Approve Plan and Run' }).first().waitFor({ timeout: 60_000 });
    return wb.quickInput.innerText();
  };

  const runAll = async (): Promise<void> => {
    await wb.runCommand('Notebook: Run All');
    // With no kernel chosen yet, VS Code asks for one: ours is the only one.
    const kernel = wb.quickInput.locator('.quick-input-list .monaco-list-row', { hasText: 'Wallet Analytics Pipeline' }).first();
    const plan = wb.quickInput.locator('.quick-input-list .monaco-list-row', { hasText: 'Approve Plan and Run' }).first();
    for (const end = Date.now() + 30_000; Date.now() < end; await wb.page.waitForTimeout(100)) {
      if (await plan.isVisible()) return;
      if (await kernel.isVisible()) {
        await kernel.click();
        return;
      }
    }
  };

  /** How many elements of the notebook's outputs (every frame but the workbench's; Markdown renders in a shadow root, which locators pierce) show `text`. */
  const outputsShowing = async (text: RegExp): Promise<number> => {
    let n = 0;
    for (const f of wb.page.frames()) {
      if (f !== wb.page.mainFrame()) n += await f.getByText(text).count().catch(() => 0);
    }
    return n;
  };

  const cellRows = (): Locator => wb.page.locator('.notebook-editor .code-cell-row');

  /** The run is over: the notebook's toolbar offers Run All again, not Stop Execution (cells out of view are not in the page to ask). */
  const runOver = async (): Promise<boolean> => {
    const toolbar = wb.page.locator('.notebook-editor .notebook-toolbar-container').first();
    const text = await toolbar.innerText().catch(() => '');
    return text.includes('Run All') && !text.includes('Stop Execution');
  };

  step('opens the example as a notebook of three steps', async () => {
    await wb.page.keyboard.press('Control+p');
    await wb.quickInputField.waitFor({ state: 'visible' });
    await wb.page.keyboard.type(FILE, { delay: 10 });
    await wb.quickInput.locator('.monaco-list-row', { hasText: FILE }).first().waitFor();
    await wb.page.keyboard.press('Enter');
    await wb.page.locator('.notebook-editor .code-cell-row').nth(2).waitFor({ timeout: 30_000 });
    assert.equal(await wb.page.locator('.notebook-editor .code-cell-row').count(), 3);
    // Room for the outputs: the side bar closed.
    await wb.runCommand('View: Close Primary Side Bar');
    await wb.screenshot('notebook');
  });

  step('Run All shows the plan first; its default (Enter) approves nothing and nothing is sent', async () => {
    await runAll();
    const text = await planPick();
    const focused = wb.quickInput.locator('.quick-input-list .monaco-list-row.focused');
    await wb.screenshot('plan');
    assert.match(text, /up to 26,050 credits/u, text);
    assert.match(await focused.innerText(), /Cancel/u, 'the selected choice is Cancel');
    assert.doesNotMatch(await focused.innerText(), /Approve/u);
    await wb.page.keyboard.press('Enter');
    await wb.quickInput.waitFor({ state: 'hidden', timeout: 5_000 });
    await until('the run is over', async () => (await runOver()) || undefined, 30_000);
    await until('every cell says it was not run', async () => (await outputsShowing(/the plan was not approved/u)) >= 3 || undefined, 30_000);
    assert.equal(await outputsShowing(/credits charged/u), 0, 'nothing was charged');
    // Declining is the person's choice, not a failure: no cell wears the red failed mark (it did: three red crosses).
    assert.equal(await wb.page.locator('.notebook-editor .codicon-notebook-state-error').count(), 0, 'no cell is marked failed');
    await wb.screenshot('plan-declined');
  });

  step('approved, the cells run in order; one is seen running', async () => {
    await runAll();
    const text = await planPick();
    assert.match(text, /up to 26,050 credits/u, text);
    await wb.quickInput.locator('.quick-input-list .monaco-list-row', { hasText: 'Approve Plan and Run' }).first().click();
    // The second cell running, the first one's result above it.
    await cellRows().nth(1).locator('.codicon-notebook-state-executing').waitFor({ state: 'visible', timeout: 60_000 });
    await wb.screenshot('running');
  });

  let frame: Frame;
  step('every cell’s output shows status, credits, rows and a small table of its result', async () => {
    // A cell above the confirmation threshold (PnL: 5 credits a wallet) asks once more, Cancel first, as every call does.
    const confirms: string[] = [];
    await until(
      'every cell done',
      async () => {
        const run = wb.quickInput.locator('.quick-input-list .monaco-list-row', { hasText: /^Run|Run —/u }).first();
        if ((await wb.quickInput.isVisible()) && (await run.isVisible())) {
          confirms.push(await wb.quickInput.innerText());
          assert.match(await wb.quickInput.locator('.quick-input-list .monaco-list-row.focused').innerText(), /Cancel/u);
          await wb.screenshot('cell-confirm');
          await run.click();
        }
        return (await runOver()) || undefined;
      },
      180_000,
    );
    frame = await rendererFrame(3);
    const views = frame.locator('.wa-cr');
    const status = await views.locator('.wa-cr-status').allInnerTexts();
    assert.equal(status.length, 3, JSON.stringify(status));
    assert.deepEqual(await views.locator('table').evaluateAll((ts) => ts.map((t) => t.getAttribute('aria-label'))), ['Result of trending', 'Result of traders', 'Result of pnl']);
    for (const s of status) assert.match(s, /^done · [\d,]+ credits? charged · [\d,]+ rows?$/u, s);
    assert.match(status[0] ?? '', / 50 credits charged/u, 'trending: 50 credits');
    assert.match(status[1] ?? '', / 1,000 credits charged/u, 'top traders of 10 tokens: 1,000 credits');
    const wallets = Number(/([\d,]+) rows?$/u.exec(status[1] ?? '')?.[1]?.replace(/,/gu, ''));
    assert.ok(wallets > 0);
    assert.ok(confirms.length <= 1, JSON.stringify(confirms));
    // §8.4's charge: 50 + 1,000 + 5 × the wallets the top-traders step returned (one a row of its list).
    const credits = status.map((s) => Number(/ ([\d,]+) credits? charged/u.exec(s)?.[1]?.replace(/,/gu, '')));
    assert.equal(credits[2], 5 * wallets, `pnl: 5 × ${wallets} wallets`);
    console.log(`# pipeline: plan up to 26,050; charged ${credits.reduce((a, b) => a + b, 0)} = 50 + 1,000 + 5 × ${wallets}`);
    // The renderer's colours are the theme's: the status line is in the workbench's foreground colour.
    const [fg, themeFg] = await views
      .first()
      .evaluate((e) => {
        const view = e.ownerDocument.defaultView;
        return [view?.getComputedStyle(e).color ?? '', view?.getComputedStyle(e.ownerDocument.documentElement).getPropertyValue('--vscode-foreground').trim() ?? ''];
      });
    assert.ok(themeFg !== '', 'VS Code set its theme variables in the outputs frame');
    assert.notEqual(fg, 'rgb(0, 0, 0)', 'not the browser default');
    // Each result is a table with a header and at most a page of rows; a CSV cell is text.
    const pnl = views.nth(2);
    assert.ok((await pnl.locator('thead th').count()) > 2);
    const rows = await pnl.locator('tbody tr').count();
    assert.ok(rows > 0 && rows <= 10, `${rows} rows shown`);
    assert.match(await pnl.locator('.wa-cr-label').innerText(), /^Rows 1–\d+ of [\d,]+$/u);
    // Nothing of the status line or the bar is cut off.
    const cut = await pnl.locator('.wa-cr-status, .wa-cr-bar > *').evaluateAll((els) => els.filter((e) => e.scrollWidth > e.clientWidth + 1).map((e) => e.textContent ?? ''));
    assert.deepEqual(cut, []);
    // reveal returns once the output's box is inside the view: the screenshot shows it.
    await reveal(pnl);
    await wb.screenshot('outputs');
  });

  /** Picks a colour theme as a person does (Preferences: Color Theme) and waits for the outputs' frame to take it. */
  const pickTheme = async (label: string, bodyClass: string): Promise<void> => {
    await wb.runCommand('Preferences: Color Theme');
    await wb.typeIntoQuickInput(label);
    await wb.quickInput.locator('.quick-input-list .monaco-list-row.focused', { hasText: label }).waitFor({ timeout: 15_000 });
    await wb.page.keyboard.press('Enter');
    await wb.quickInput.waitFor({ state: 'hidden', timeout: 15_000 });
    await until(
      `the outputs in ${label}`,
      () =>
        frame.evaluate((k) => {
          // The theme's kind as VS Code marks the body (a light high-contrast theme carries both high-contrast classes).
          const list = (globalThis as unknown as { document: { body: { classList: { contains(c: string): boolean } } } }).document.body.classList;
          const kinds = ['vscode-light', 'vscode-dark', 'vscode-high-contrast', 'vscode-high-contrast-light'].filter((c) => list.contains(c));
          return kinds.includes(k) && kinds.every((c) => c === k || (k === 'vscode-high-contrast-light' && c === 'vscode-high-contrast'));
        }, bodyClass),
      30_000,
    );
  };

  step('the outputs pass axe-core in Dark Modern, Light Modern and both high-contrast themes', async () => {
    const runs: AxeRun[] = [];
    const problems: string[] = [];
    const pnl = frame.locator('.wa-cr').nth(2);
    const check = async (theme: string): Promise<void> => {
      // axe judges the contrast of what shows: the coloured gains and losses are columns to the
      // right of the identity columns, so the rows' region scrolls one into view first.
      const toned = pnl.locator('td.gain, td.loss');
      assert.ok((await toned.count()) > 0, 'the pnl page shows a gain or a loss');
      await toned.first().evaluate((e) => e.scrollIntoView({ block: 'nearest', inline: 'center' }));
      await reveal(pnl);
      // What shows behind the outputs' (transparent) frame: the first background the workbench
      // paints under the notebook's rows (the list's own in most themes, the editor's in high contrast).
      const backdrop = await wb.page
        .locator('.notebook-editor .monaco-list-rows')
        .first()
        .evaluate((e) => {
          for (let n: typeof e | null = e; n; n = n.parentElement) {
            const bg = e.ownerDocument.defaultView?.getComputedStyle(n).backgroundColor ?? '';
            if (bg !== '' && bg !== 'transparent' && bg !== 'rgba(0, 0, 0, 0)') return bg;
          }
          return '';
        });
      assert.match(backdrop, /^rgb\(/u, `the notebook's background is a solid colour: ${backdrop}`);
      // Only our renderer's outputs: the frame's page (its containers, its markdown) is VS Code's.
      const run = await withBackdrop(frame, backdrop, () => runAxe(frame, 'notebook-renderer', theme, '.wa-cr'));
      runs.push(run);
      problems.push(...blocking(run).map((b) => `${theme}: ${b}`));
      await wb.screenshot(`outputs-axe-${theme}`);
    };
    try {
      await check('dark');
      await pickTheme('Light Modern', 'vscode-light');
      await check('light');
      await pickTheme('Light High Contrast', 'vscode-high-contrast-light');
      await check('hc-light');
      await pickTheme('Dark High Contrast', 'vscode-high-contrast');
      await check('hc');
    } finally {
      if (runs.length > 0) console.log(`# axe results: ${writeAxeReport(runs, 'notebook-renderer')}`);
      for (const r of runs) console.log(`# axe ${r.view} (${r.theme}): ${r.violations.map((v) => `${v.id} (${v.impact ?? '?'}, ${v.nodes.length})`).join(', ') || 'no violations'}; ${r.passes} rules passed`);
      // The rest of the walk in the theme it started in.
      if (runs.length > 1) await pickTheme('Dark Modern', 'vscode-dark');
      await pnl.locator('.wa-cr-wrap').evaluate((e) => e.scrollTo({ left: 0 }));
    }
    assert.deepEqual(problems, [], problems.join('\n'));
  });

  step('Next shows the next page, read by the table engine; the buttons are reached by Tab', async () => {
    const pnl = frame.locator('.wa-cr').nth(2);
    const total = Number(/of ([\d,]+)$/u.exec(await pnl.locator('.wa-cr-label').innerText())?.[1]?.replace(/,/gu, ''));
    if (total <= 10) return;
    const next = pnl.getByRole('button', { name: 'Next rows' });
    // The rows (a scrolling region) take focus; Tab goes on to Next (Previous is off on the first page); Enter presses it.
    await pnl.locator('.wa-cr-wrap').focus();
    await wb.page.keyboard.press('Tab');
    assert.equal(await next.evaluate((e) => e.ownerDocument.activeElement === e), true, 'Tab moved to Next');
    await wb.page.keyboard.press('Enter');
    await until('the second page', async () => /^Rows 11–/u.test(await pnl.locator('.wa-cr-label').innerText()) || undefined, 20_000);
    assert.equal(await pnl.locator('tbody tr td.rownum').first().innerText(), '11');
    assert.equal(await next.evaluate((e) => e.ownerDocument.activeElement === e), true, 'the focus stays on Next');
    await reveal(pnl);
    await wb.screenshot('outputs-page-2');
  });

  let tableTitle: string;
  step('Open as Table opens the result in the table editor', async () => {
    const pnl = frame.locator('.wa-cr').nth(2);
    tableTitle = (await pnl.locator('.wa-cr-note').first().innerText()).replace(/^Result: /u, '');
    await reveal(pnl);
    await pnl.getByRole('button', { name: 'Open as Table' }).click();
    await wb.page.locator('.tabs-container .tab.active', { hasText: /\.csv|pnl/u }).first().waitFor({ timeout: 30_000 });
    const table = await until(
      'the table shows rows',
      async () => {
        for (const f of wb.page.frames()) if (await firstRowText(f)) return f;
        return undefined;
      },
      30_000,
    );
    // The rows are painted: their first row's text was read from the page.
    assert.ok(await firstRowText(table));
    await wb.screenshot('open-as-table');
    assert.ok(tableTitle.length > 0);
  });
});
