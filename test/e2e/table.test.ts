// The Wallet Analytics Table in Chromium, as a person uses it, on the 100,000 × 640 generated file
// (722 MB, the bench generator, written once to a temp folder): open it from the palette and time
// the first rows painted, scroll to the middle, choose the 7-day columns, sort by a metric, filter,
// move and select with the keyboard, copy, hand the addresses to another endpoint (its price shows
// first), measure the webview's memory, and count the grid's cells on every frame. Then a CSV cell
// holding markup shows as text (the XSS proof).
import assert from 'node:assert/strict';
import { closeSync, createReadStream, existsSync, openSync, readFileSync, readSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Frame } from 'playwright-core';
import { BIG_FILE as BIG, BIG_ROWS as ROWS, BIG_TITLE, ensureBigTable, fileRows } from './bigTable';
import { Workbench, packagedVsix, stepWithShot } from './workbench';
import { activeCell, cellStats, firstRowText, frameGaps, percentile, renderTimes, rendererHeapMB, shown, tableFrame, tableProgress, trackCells, until } from './tableWebview';
import { timingFigure } from '../timing';

const XSS = '<img src=x onerror=alert(1)>';
/** A 10,000-character cell: the grid receives its first WINDOW_CELL_CHARS (400) characters, marked cut (issue 34). */
const LONG = 'long text '.repeat(1000);
const MAX_CELLS = 5_000;
const OPEN = 'Wallet Analytics: Open in Table';
const SAMPLE = 'wallets-300-sample.csv';

/** Lines of a file, counted as it streams. */
async function countLines(file: string): Promise<number> {
  let n = 0;
  for await (const chunk of createReadStream(file)) for (const byte of chunk as Buffer) if (byte === 10) n++;
  return n;
}

async function firstLine(file: string): Promise<string> {
  for await (const chunk of createReadStream(file, { end: 64 * 1024 })) return (chunk as Buffer).toString('utf8').split(/\r?\n/u)[0] ?? '';
  return '';
}

describe('the results table on a 100,000 × 640 file in Chromium', { timeout: 600_000 }, () => {
  let wb: Workbench;
  let frame: Frame;
  const figures: string[] = [];
  let heapBefore = NaN;
  const dialogs: string[] = [];

  const step = async (name: string): Promise<void> => {
    const s = await cellStats(frame);
    assert.ok(s.max < MAX_CELLS, `${name}: at most ${MAX_CELLS} grid cells in the DOM, saw ${s.max}`);
    figures.push(`${name}: ${s.now} grid cells now, at most ${s.max} over ${s.frames} frames so far`);
    await wb.screenshot(name);
  };

  before(async () => {
    assert.ok(existsSync(packagedVsix), `${packagedVsix} is missing: run \`npm run package\` first`);
    // npm test has written it while the other tiers ran (bigTable.ts); run alone, this file writes it.
    const gen = await ensureBigTable();
    console.log(`# ${BIG}: ${(gen.bytes / 1e6).toFixed(0)} MB, ${gen.reused ? 'reused' : `generated in ${gen.seconds.toFixed(1)} s`}`);
    // The first 300 rows of the big file: another result with its columns (the saved-view step).
    const buf = Buffer.alloc(16 * 1024 * 1024);
    const fd = openSync(BIG, 'r');
    const n = readSync(fd, buf, 0, buf.length, 0);
    closeSync(fd);
    let end = 0;
    for (let lines = 0; lines < 301 && end < n; end++) if (buf[end] === 10) lines++;
    const sample = buf.subarray(0, end).toString('utf8');
    const xss = ['address,label,realized_pnl_usd_7d', `So11111111111111111111111111111111111111112,${XSS},12.5`, `Es9vMFrzaCERmJfrF4H2FYD4KCoNkY11McCe8BenwNYB,"=HYPERLINK(""x"")",-3`, `7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU,${LONG},1`].join('\n');
    wb = await Workbench.open({
      name: 'table',
      settings: { 'walletAnalytics.sandbox.autoStart': true },
      files: { 'markup.csv': `${xss}\n`, [SAMPLE]: sample },
    });
    await wb.page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    wb.page.on('dialog', (d) => {
      dialogs.push(d.message());
      void d.dismiss();
    });
  });

  after(async () => {
    for (const f of figures) console.log(`# ${f}`);
    await wb?.close();
  });

  it('opens the 722 MB file from the palette and paints the first rows within 1 s', async () => {
    heapBefore = (await rendererHeapMB(wb.page)).mb;
    await wb.runCommand(OPEN);
    // No file is active: the command asks for one (code-server's file dialog is a quick input).
    // The figure below counts from the Enter that opened the file.
    const started = await wb.acceptFileDialog(BIG);
    // Both waits follow progress (the workbench's frames, then the table's marks, status and
    // progress lines): on a loaded machine the first paint came after 15 s while the table was
    // getting there (issue 31.7). The 1 s budget is the figure below, not this wait.
    frame = await tableFrame(wb.page, BIG_TITLE).catch(async (e: unknown) => {
      await wb.screenshot('failed-open');
      throw e;
    });
    const first = await until('the first rows painted', () => firstRowText(frame), 30_000, () => tableProgress(frame));
    const polled = Date.now() - started;
    // The page marks the second frame after drawing the rows; wait for the mark (it trails the DOM by a frame or two).
    await until('the paint mark', () => frame.evaluate(() => (globalThis as unknown as { document: { body: { dataset: Record<string, string | undefined> } } }).document.body.dataset.firstPaintMs !== undefined), 5000);
    const page = await frame.evaluate(() => {
      const g = globalThis as unknown as {
        document: { body: { dataset: Record<string, string | undefined> } };
        performance: { timeOrigin: number; getEntriesByType(t: string): { name: string; startTime: number; responseEnd: number }[] };
      };
      const script = g.performance.getEntriesByType('resource').find((e) => e.name.includes('webview.js'));
      const marks = g.performance
        .getEntriesByType('mark')
        .filter((m) => m.name.startsWith('wa:'))
        .map((m) => `${m.name.slice(3)} +${Math.round(m.startTime)}`)
        .join(', ');
      return { origin: g.performance.timeOrigin, paint: Number(g.document.body.dataset.firstPaintMs), scriptEnd: script?.responseEnd ?? NaN, marks };
    });
    // Two clocks: the test saw the rows' text at `polled` (within its 50 ms polling), and the page
    // marked the second frame after drawing them at `byPage`. The later of the two is the figure.
    const byPage = Math.round(page.origin + page.paint - started);
    const ms = Math.max(polled, Number.isFinite(byPage) ? byPage : polled);
    figures.push(
      `first rows painted ${ms} ms after the open command (Enter in the file dialog); the webview page started ${Math.round(page.origin - started)} ms after Enter, ` +
        `its script arrived at +${Math.round(page.scriptEnd)} ms, marks ${page.marks}; seen by polling at ${polled} ms, second frame after at ${byPage} ms; budget 1,000 ms`,
    );
    console.log(`# ${figures[figures.length - 1]}`);
    await trackCells(frame);
    const expected = fileRows(BIG, [0]).get(0) ?? [];
    assert.equal(first[0], expected[0], 'row 1 shows the file’s first address, pinned');
    await step('opened');
    // The 1 s budget is a measured figure, reported above and in the README; `npm run bench:ui` fails
    // past its ceiling (reading or parsing the whole 722 MB file first takes many seconds).
    timingFigure('first paint', ms, 1_000, 3_000);
    const s = await shown(frame);
    assert.ok(s.headers.includes('address') && s.headers.includes('label'), JSON.stringify(s.headers));
  });

  it('indexes in the background with progress, then counts 100,000 rows', async () => {
    const s = await until('the index complete', async () => {
      const v = await shown(frame);
      return v.count === '100,000 rows' ? v : undefined;
    }, 60_000, () => tableProgress(frame));
    assert.equal(s.progress, undefined, 'the progress line is gone');
    await step('indexed');
  });

  it('scrolls to the middle by the scrollbar, by the wheel and by keys, rendering only what shows', async () => {
    const grid = frame.locator('.scroller');
    await grid.evaluate((el) => {
      el.scrollTop = (el.scrollHeight - el.clientHeight) / 2;
    });
    const mid = await until('the middle rows painted', async () => {
      const v = await shown(frame);
      const row = v.rows.find((r) => r[1] !== '' && Number((r[0] ?? '').replace(/,/gu, '')) > 40_000);
      return row ? v : undefined;
    });
    const rowNumber = Number((mid.rows[0]?.[0] ?? '').replace(/,/gu, ''));
    assert.ok(rowNumber > 45_000 && rowNumber < 55_000, `row ${rowNumber} at the top`);
    const expected = fileRows(BIG, [rowNumber - 1]).get(rowNumber - 1) ?? [];
    assert.equal(mid.rows[0]?.[1], expected[0], `row ${rowNumber} shows its own address`);
    figures.push(`middle: row ${rowNumber.toLocaleString('en-US')} at the top shows ${expected[0]}`);
    await step('middle');
    // The wheel and the keys move from there, smoothly: a few frames each, no full redraw.
    const box = await grid.boundingBox();
    await wb.page.mouse.move((box?.x ?? 0) + 400, (box?.y ?? 0) + 300);
    const before = (await renderTimes(frame)).length;
    const gapsBefore = (await frameGaps(frame)).length;
    for (let i = 0; i < 40; i++) await wb.page.mouse.wheel(0, 240);
    await wb.page.mouse.wheel(600, 0);
    // The wheel scrolled down once a later row is painted at the top.
    await until('the wheel scrolled down', async () => {
      const v = await shown(frame);
      return Number((v.rows[0]?.[0] ?? '').replace(/,/gu, '')) > rowNumber && v.rows[0]?.[1] !== '' ? v : undefined;
    });
    // What a scroll costs the page: one render per frame, moving rows and rewriting changed cells.
    const times = (await renderTimes(frame)).slice(before);
    const gaps = (await frameGaps(frame)).slice(gapsBefore);
    assert.ok(times.length > 10, `${times.length} renders while scrolling`);
    figures.push(
      `scrolling by wheel (40 × 240 px, then sideways): ${times.length} grid renders (JS and DOM updates), median ${percentile(times, 50).toFixed(2)} ms, ` +
        `p95 ${percentile(times, 95).toFixed(2)} ms, max ${Math.max(...times).toFixed(2)} ms; frames every ${percentile(gaps, 50).toFixed(1)} ms (median), p95 ${percentile(gaps, 95).toFixed(1)} ms`,
    );
    // The frame budget (16 ms) is a reported figure, like the first paint; the benchmark run fails a
    // real regression (a render that rebuilds the grid's DOM takes 100+ ms).
    timingFigure('scroll render p95', percentile(times, 95), 16, 50);
    await step('wheel');
  });

  it('moves and selects with the keyboard, and copies the selection', async () => {
    await frame.locator('.row [role=gridcell]').first().click();
    await wb.page.keyboard.press('Control+Home');
    const active = (): ReturnType<typeof activeCell> => activeCell(frame);
    assert.deepEqual(await active(), { row: '2', col: '2', text: fileRows(BIG, [0]).get(0)?.[0] ?? '' });
    await wb.page.keyboard.press('ArrowDown');
    await wb.page.keyboard.press('ArrowDown');
    await wb.page.keyboard.press('ArrowRight');
    assert.deepEqual([(await active()).row, (await active()).col], ['4', '3']);
    await wb.page.keyboard.press('PageDown');
    const paged = Number((await active()).row);
    assert.ok(paged > 15, `Page Down moved a page (row index ${paged})`);
    await wb.page.keyboard.press('Shift+ArrowDown');
    await wb.page.keyboard.press('Shift+ArrowRight');
    const selected = await frame.locator('[role=gridcell][aria-selected=true]').count();
    assert.equal(selected, 4, 'Shift+arrows select a 2 × 2 rectangle');
    await wb.page.keyboard.press('Control+c');
    await until('the copy confirmed', async () => /Copied 2 rows × 2 columns with headers/u.test((await shown(frame)).status));
    await wb.page.keyboard.press('Control+End');
    assert.equal((await active()).row, String(ROWS + 1), 'Ctrl+End goes to the last row');
    await step('keyboard-end');
    await wb.page.keyboard.press('Control+Home');
  });

  it('chooses the 7-day columns with a preset, among 640 names', async () => {
    await frame.locator('.toolbar button', { hasText: /^Columns/u }).click();
    const dialog = frame.locator('.chooser');
    await dialog.waitFor();
    await dialog.locator('input[type=search]').fill('unrealized_pnl');
    assert.equal(await dialog.locator('.chooser-row').count(), 8, 'search narrows 640 names to the 8 unrealized_pnl columns (usd, native × 4 timeframes)');
    await dialog.locator('input[type=search]').fill('');
    await dialog.locator('.preset-row button', { hasText: /^7d$/u }).click();
    assert.match(await dialog.locator('.dialog-head').innerText(), /166 of 640 shown/u);
    await wb.screenshot('chooser-7d');
    await dialog.locator('button', { hasText: 'Done' }).click();
    // Scroll sideways with the wheel until the metric's header shows.
    const box = await frame.locator('.scroller').boundingBox();
    await wb.page.mouse.move((box?.x ?? 0) + 600, (box?.y ?? 0) + 200);
    const s = await until('realized_pnl_usd_7d in view', async () => {
      const v = await shown(frame);
      if (v.visibleHeaders.includes('realized_pnl_usd_7d')) return v;
      await wb.page.mouse.wheel(200, 0);
      return undefined;
    });
    assert.ok(!s.headers.some((h) => /_(1d|30d|all)$/u.test(h)), `only 7-day metrics: ${JSON.stringify(s.headers)}`);
    await step('columns-7d');
  });

  it('sorts by a metric (descending on the second click), numbers first, empties last', async () => {
    const header = frame.locator('.hrow [role=columnheader]', { has: frame.locator('.hname', { hasText: /^realized_pnl_usd_7d$/u }) });
    const t0 = Date.now();
    await header.click();
    await until('sorted ascending', async () => (await header.getAttribute('aria-sort')) === 'ascending' && (await shown(frame)).progress === undefined, 30_000, () => tableProgress(frame));
    figures.push(`first sort of realized_pnl_usd_7d (100,000 rows, typed column built) in ${Date.now() - t0} ms, as seen in the webview`);
    const t1 = Date.now();
    await header.click();
    await until('sorted descending', async () => (await header.getAttribute('aria-sort')) === 'descending' && (await shown(frame)).progress === undefined, 30_000, () => tableProgress(frame));
    figures.push(`repeat sort (descending) in ${Date.now() - t1} ms, as seen in the webview`);
    const s = await until('the sorted rows painted', async () => {
      const v = await shown(frame);
      const c = v.headers.indexOf('realized_pnl_usd_7d');
      return v.rows.length > 5 && v.rows.every((r) => r[1] !== '' && (r[c] ?? '') !== '') ? v : undefined;
    });
    const col = s.headers.indexOf('realized_pnl_usd_7d');
    const values = s.rows.map((r) => Number((r[col] ?? '').replace(/,/gu, '')));
    for (let i = 1; i < values.length; i++) assert.ok((values[i - 1] ?? 0) >= (values[i] ?? 0), `descending at ${i}: ${values.join(', ')}`);
    assert.match(await frame.locator('.chips').innerText(), /Sorted by[\s\S]*realized_pnl_usd_7d ▼/u);
    await step('sorted');
  });

  it('filters the metric to a range; the count says "N of 100,000 rows"', async () => {
    // The address column's menu offers no number formats (it has no numbers); a metric's does.
    const address = frame.locator('[role=columnheader]', { has: frame.locator('.hname', { hasText: /^address$/u }) }).first();
    await address.click({ button: 'right' });
    const addressMenu = await frame.locator('.menu [role=menuitem], .menu [role=menuitemradio]').allInnerTexts();
    assert.ok(addressMenu.length > 0 && !addressMenu.some((l) => l.includes('Format:')), `no number formats for addresses: ${JSON.stringify(addressMenu)}`);
    await wb.page.keyboard.press('Escape');
    const header = frame.locator('.hrow [role=columnheader]', { has: frame.locator('.hname', { hasText: /^realized_pnl_usd_7d$/u }) });
    await header.click({ button: 'right' });
    assert.ok((await frame.locator('.menu [role=menuitem], .menu [role=menuitemradio]').allInnerTexts()).some((l) => l.includes('Format:')), 'a metric keeps its number formats');
    await frame.locator('.menu [role=menuitem]', { hasText: /^Filter…$/u }).click();
    const editor = frame.locator('.filter-editor');
    await editor.locator('input[aria-label=Minimum]').fill('0');
    await editor.locator('input[aria-label=Maximum]').fill('1,000');
    await wb.screenshot('filter-editor');
    const t0 = Date.now();
    await editor.locator('button', { hasText: 'Apply' }).click();
    const s = await until('the filtered rows painted', async () => {
      const v = await shown(frame);
      const col = v.headers.indexOf('realized_pnl_usd_7d');
      return / of 100,000 rows$/u.test(v.count) && v.progress === undefined && v.rows.length > 5 && v.rows.every((r) => (r[col] ?? '') !== '') ? v : undefined;
    }, 30_000, () => tableProgress(frame));
    figures.push(`range filter 0 ≤ realized_pnl_usd_7d ≤ 1,000 applied in ${Date.now() - t0} ms: ${s.count}`);
    const col = s.headers.indexOf('realized_pnl_usd_7d');
    const values = s.rows.map((r) => Number((r[col] ?? '').replace(/,/gu, '')));
    assert.ok(values.length > 0 && values.every((v) => v >= 0 && v <= 1000), values.join(', '));
    assert.ok(values[0] !== undefined && values[0] > 900, `still sorted descending: ${values[0]}`);
    await step('filtered');
  });

  it('exports the filtered, sorted view with the shown columns to CSV, streamed', async () => {
    const target = join(tmpdir(), 'wa-table-e2e', 'wallets-100000-seed1-view.csv');
    rmSync(target, { force: true });
    const s = await shown(frame);
    await frame.locator('.toolbar button', { hasText: /^Export…$/u }).click();
    // code-server's save dialog is a quick input holding the suggested path beside the file.
    await wb.quickInputField.waitFor({ state: 'visible', timeout: 15_000 });
    await until('the suggested path beside the file', async () => (await wb.quickInputField.inputValue()) === target, 10_000);
    const t0 = Date.now();
    await wb.page.keyboard.press('Enter');
    await until('the export written', async () => /Exported [\d,]+ rows × 166 columns/u.test((await shown(frame)).status), 120_000, () => tableProgress(frame));
    const seconds = (Date.now() - t0) / 1000;
    const lines = await countLines(target);
    const header = await firstLine(target);
    figures.push(`export of ${s.count} × 166 columns: ${(statSync(target).size / 1e6).toFixed(0)} MB in ${seconds.toFixed(1)} s`);
    assert.equal(lines, Number(s.count.split(' ')[0]?.replace(/,/gu, '')) + 1, 'the header and every row of the view');
    assert.ok(header.startsWith('address,label,first_seen,') && header.includes(',realized_pnl_usd_7d,') && !header.includes('_30d'), header.slice(0, 200));
    rmSync(target, { force: true });
    await step('exported');
    // The line under the grid stays one line beside the long message: the position once wrapped to
    // two ("Row 1 of 40,784 ·" above "realized_pnl_usd_7d") and the message was cut mid-path.
    const posLines = await frame.locator('.status-pos').evaluate((e) => {
      const range = e.ownerDocument.createRange();
      range.selectNodeContents(e);
      return new Set(Array.from(range.getClientRects() as ArrayLike<{ top: number }>, (r) => Math.round(r.top))).size;
    });
    assert.equal(posLines, 1, 'the position under the grid reads on one line');
    assert.match((await frame.locator('.status-msg').getAttribute('title')) ?? '', /^Exported [\d,]+ rows × 166 columns to /u, 'the whole message in its tooltip');
  });

  it('offers a cell’s actions and hands the column’s addresses to another endpoint, price first', async () => {
    const cell = frame.locator('.row[aria-rowindex="2"] [role=gridcell]').first();
    await cell.click({ button: 'right' });
    const menu = frame.locator('.menu');
    await menu.waitFor();
    const labels = await menu.locator('[role=menuitem], [role=menuitemradio]').allInnerTexts();
    for (const want of ['Copy Cell', 'Copy Row with Headers', 'Copy Address', 'Open Wallet Activity…', 'Add to an Address List…']) {
      assert.ok(labels.some((l) => l.includes(want)), `${want} in ${JSON.stringify(labels)}`);
    }
    const use = labels.find((l) => /Use These [\d,]+ Addresses as Input to…/u.test(l));
    assert.ok(use, JSON.stringify(labels));
    await wb.screenshot('cell-menu');
    await menu.locator('[role=menuitem]', { hasText: /Use These/u }).click();
    const pnl = wb.quickInput.locator('.quick-input-list .monaco-list-row', { hasText: 'PnL of Wallets…' }).first();
    await pnl.waitFor({ timeout: 30_000 });
    await wb.screenshot('use-as-input');
    await pnl.click();
    // The endpoint's own flow: the price before anything is sent (a step, or a modal above confirmAbove).
    const text = await wb.priceShown();
    await wb.screenshot('price-first');
    assert.match(text, /credits \([\d,]+ wallets × 5\)/u, text);
    await wb.page.keyboard.press('Escape');
    await wb.page.locator('.monaco-dialog-box').waitFor({ state: 'hidden', timeout: 5000 });
    figures.push(`use as input, price shown first: ${text.replace(/\s+/gu, ' ').slice(0, 200)}`);
  });

  it('keeps the webview’s memory under 150 MB on the 100,000-row file', async () => {
    const heap = await rendererHeapMB(wb.page, frame);
    const what = heap.own
      ? `${heap.mb.toFixed(1)} MB: the JS heap of the webview's own renderer`
      : `${heap.mb.toFixed(1)} MB: the JS heap of the renderer the webview shares with the workbench (an upper bound); it grew by ${(heap.mb - heapBefore).toFixed(1)} MB from before the table opened`;
    figures.push(`webview memory after open, scroll, sort, filter: ${what}; budget 150 MB`);
    console.log(`# webview memory ${what}`);
    assert.ok(heap.mb < 150, what);
    const s = await cellStats(frame);
    figures.push(`grid cells: at most ${s.max} in the DOM over ${s.frames} frames of this file (limit ${MAX_CELLS})`);
    assert.ok(s.max < MAX_CELLS);
  });

  it('profiles a column and draws a scatter of 100,000 points in the side panel; a brush filters the table (issue 15)', async () => {
    // Every row again: the panel works over the view, and the scatter holds every row with both numbers.
    await frame.locator('.chips button', { hasText: /^Clear All$/u }).click();
    await until('every row', async () => ((await shown(frame)).count === '100,000 rows' ? true : undefined), 30_000, () => tableProgress(frame));
    const marks = (): Promise<{ request: number; drawn: number }> =>
      frame.evaluate(() => {
        const perf = (globalThis as unknown as { performance: { getEntriesByName(n: string): { startTime: number }[] } }).performance;
        const last = (n: string): number => perf.getEntriesByName(n).at(-1)?.startTime ?? -1;
        return { request: last('wa:chart-request'), drawn: last('wa:chart-drawn') };
      });
    const header = frame.locator('.hrow [role=columnheader]', { has: frame.locator('.hname', { hasText: /^realized_pnl_usd_7d$/u }) });
    await wb.clearNotifications();
    await header.click({ button: 'right' });
    await frame.locator('.menu [role=menuitem]', { hasText: /^Profile Column$/u }).click();
    const panel = frame.locator('aside.analysis');
    await panel.locator('.profile-stats').waitFor({ timeout: 30_000 });
    const stats = await panel.locator('.profile-stats').innerText();
    assert.match(stats, /Count\s+100,000/u, stats);
    for (const k of ['Type', 'Empty', 'Distinct', 'Min', 'Max', 'Mean', 'Median', 'p5', 'p95']) assert.ok(stats.includes(k), `${k} in ${stats}`);
    assert.equal(await panel.locator('table.analysis-grid tbody tr').count(), 10, 'the top 10 values');
    await until('the histogram drawn', async () => {
      const m = await marks();
      return m.drawn > m.request ? m : undefined;
    }, 10_000);
    figures.push(`profile of realized_pnl_usd_7d: ${(await panel.locator('.analysis-info').innerText()).replace(/\s+/gu, ' ')}`);
    await wb.screenshot('analysis-profile');

    await panel.locator('button', { hasText: /^Scatter$/u }).click();
    await panel.locator('.y-select').selectOption({ label: 'winrate_7d' });
    const drawn = async (what: string): Promise<number> => {
      const r = await until(what, async () => {
        const x = await marks();
        return x.drawn > x.request && (await panel.locator('.analysis-caption').innerText()).includes('Drawn in') ? x : undefined;
      }, 30_000, () => tableProgress(frame));
      return Math.round(r.drawn - r.request);
    };
    // The first scatter of a column waits for the worker to read it as numbers; the budget is for the chart itself, asked again.
    const cold = await drawn('the scatter drawn');
    await wb.screenshot('analysis-scatter');
    await panel.locator('button', { hasText: /^Scatter$/u }).click();
    const warm = await drawn('the scatter drawn again');
    const caption = await panel.locator('.analysis-caption').innerText();
    figures.push(`scatter realized_pnl_usd_7d × winrate_7d: ${warm} ms from the request to the drawn chart (budget 500 ms; ${cold} ms the first time, the worker reading winrate_7d as numbers); ${caption}`);
    assert.match(caption, /^[\d,]+ points/u, caption);
    // As for the first paint: the 500 ms budget is a reported figure (bench:analysis times the
    // payload alone); the benchmark run fails a real regression (a chart drawn point by point takes seconds).
    timingFigure('scatter drawn again', warm, 500, 2_000);

    // A brush across the middle of the plot: two range filters, the chips show them, then the offer.
    const box = await panel.locator('canvas.chart').boundingBox();
    assert.ok(box);
    await wb.page.mouse.move(box.x + box.width * 0.3, box.y + box.height * 0.25);
    await wb.page.mouse.down();
    await wb.page.mouse.move(box.x + box.width * 0.97, box.y + box.height * 0.7, { steps: 6 });
    await wb.page.mouse.up();
    const brushed = await until('the brush applied', async () => {
      const v = await shown(frame);
      const chips = await frame.locator('.chips').innerText();
      const address = v.headers.indexOf('address');
      const painted = address >= 0 && v.rows.length > 5 && v.rows.every((r) => (r[address] ?? '') !== '');
      return / of 100,000 rows$/u.test(v.count) && chips.includes('realized_pnl_usd_7d') && chips.includes('winrate_7d') && painted ? { count: v.count, chips } : undefined;
    }, 30_000, () => tableProgress(frame));
    const use = panel.locator('button', { hasText: /^Use these [\d,]+ addresses as input to…$/u });
    await use.waitFor({ timeout: 10_000 });
    figures.push(`brush: ${brushed.chips.replace(/\s+/gu, ' ')} → ${brushed.count}`);
    await wb.screenshot('analysis-brush');

    await panel.locator('button', { hasText: /^Show as Table$/u }).click();
    assert.equal(await panel.locator('#analysis-table tbody tr').count(), 10, 'the scatter as 10 ranges of x');
    await panel.locator('.analysis-body').evaluate((e) => {
      (e as unknown as { scrollTop: number; scrollHeight: number }).scrollTop = (e as unknown as { scrollHeight: number }).scrollHeight;
    });
    const tableBox = await panel.locator('#analysis-table table').boundingBox();
    assert.ok(tableBox && tableBox.height > 100, `the table shows whole: ${JSON.stringify(tableBox)}`);
    await wb.screenshot('analysis-table');
    assert.deepEqual(await panel.locator('#analysis-table thead th').allInnerTexts(), ['x from', 'x to', 'Points', 'y min', 'y median', 'y max']);

    // The panel follows the table: a search typed in the toolbar (not the panel's own brush) computes it again by itself.
    const searchBox = frame.locator('.toolbar input.search');
    const follows = async (what: string, searched: boolean): Promise<string> => {
      const info = await until(what, async () => {
        const v = await shown(frame);
        const text = await panel.locator('.analysis-info').innerText();
        const chips = await frame.locator('.chips').innerText();
        const rows = searched ? v.count !== brushed.count : v.count === brushed.count;
        return rows && /sniper/u.test(chips) === searched && text.startsWith(`Over ${v.count},`) && !text.includes('Refresh') ? text : undefined;
      }, 30_000, () => tableProgress(frame));
      await drawn(`${what}: the scatter drawn`);
      return info;
    };
    await searchBox.fill('sniper');
    await searchBox.press('Enter');
    figures.push(`panel after a search typed in the toolbar: ${await follows('the panel computed over the searched rows', true)}`);
    await wb.screenshot('analysis-follows-search');
    await searchBox.fill('');
    await searchBox.press('Enter');
    await follows('the panel computed again without the search', false);

    // A keyboard user reaches a range's rows: Tab from Hide Table to the first range's count, Enter filters the table to its points.
    await panel.locator('button', { hasText: /^Hide Table$/u }).focus();
    await wb.page.keyboard.press('Tab');
    const focused = await frame.evaluate(() => {
      type Node = { className: string; closest(s: string): { querySelectorAll(s: string): ArrayLike<{ textContent: string | null }> } | null };
      const a = (globalThis as unknown as { document: { activeElement: Node | null } }).document.activeElement;
      return { className: a?.className, cells: Array.from(a?.closest('tr')?.querySelectorAll('td') ?? [], (td) => td.textContent ?? '') };
    });
    assert.ok(focused.className?.includes('show-rows'), `Tab reaches the first range's count: ${JSON.stringify(focused)}`);
    const [binFrom, binTo, pointsText] = focused.cells;
    const points = Number((pointsText ?? '').replace(/,/gu, ''));
    assert.ok(points > 0, JSON.stringify(focused));
    await wb.page.keyboard.press('Enter');
    const binCount = await until('the range’s rows shown', async () => {
      const v = await shown(frame);
      const n = Number(v.count.split(' ')[0]?.replace(/,/gu, ''));
      return v.count !== brushed.count && / of 100,000 rows$/u.test(v.count) && (await panel.locator('.analysis-info').innerText()).includes('Refresh') ? n : undefined;
    }, 30_000, () => tableProgress(frame));
    // Its points, and at most a few rows more that lie on the edge it shares with the next range.
    assert.ok(binCount >= points && binCount <= points * 1.02 + 10, `${binCount} rows for a range of ${points} points`);
    figures.push(`scatter table: the count of x ${binFrom} to ${binTo} (${points} points) → ${binCount} rows; the chart stays as drawn, Refresh offered`);
    await wb.screenshot('analysis-table-show-rows');

    await panel.locator('button', { hasText: /^Hide Table$/u }).focus();
    await wb.page.keyboard.press('Escape');
    await panel.waitFor({ state: 'hidden', timeout: 5000 });
    assert.ok(await frame.evaluate(() => (globalThis as unknown as { document: { activeElement: { className: string } | null } }).document.activeElement?.className.includes('scroller')), 'the focus is back on the grid');
  });

  stepWithShot(() => wb, 'Apply Saved View… with none saved says how to make one, whole, and its button does it', async () => {
    const more = frame.locator('.toolbar button.more');
    await more.focus();
    await wb.page.keyboard.press('Enter');
    await frame.locator('.menu[role=menu]').waitFor({ timeout: 5000 });
    await frame.locator('.menu[role=menu] [role=menuitem]', { hasText: 'Apply Saved View…' }).click();
    await wb.waitForNotification(/No saved views for/u);
    await wb.screenshot('table-no-saved-views');
    // It once showed one line, cut before it said how to make a view (a toast without a button).
    assert.deepEqual(await wb.cutInToast(/No saved views for/u), [], 'no text in the toast is cut off');
    const toast = wb.page.locator('.notifications-toasts .notification-toast', { hasText: /No saved views for/u }).first();
    await toast.locator('.monaco-button', { hasText: 'Save View As…' }).click();
    await wb.quickInput.locator('.quick-input-title', { hasText: /^Save View As/u }).waitFor({ timeout: 15_000 });
    await wb.closeQuickInput();
    await wb.clearNotifications();
  });

  stepWithShot(() => wb, 'saves the view from the table’s own More menu, by keyboard (issue 15)', async () => {
    const more = frame.locator('.toolbar button.more');
    await more.focus();
    await wb.page.keyboard.press('Enter');
    const menu = frame.locator('.menu[role=menu]');
    await menu.waitFor({ timeout: 5000 });
    assert.deepEqual(await menu.locator('[role=menuitem] .menu-label').allInnerTexts(), ['Open in Notebook', 'Raw File', 'Save View As…', 'Apply Saved View…', 'Compare with…']);
    // Nothing cut off: the menu lies inside the webview, under its button.
    const fits = await menu.evaluate((m) => {
      const r = m.getBoundingClientRect();
      const w = m.ownerDocument.defaultView;
      return { r: [r.left, r.top, r.right, r.bottom].map(Math.round), inside: r.left >= 0 && r.top >= 0 && r.right <= (w?.innerWidth ?? 0) && r.bottom <= (w?.innerHeight ?? 0) };
    });
    assert.ok(fits.inside, `the menu lies inside the webview: ${JSON.stringify(fits.r)}`);
    // The search box keeps room for its placeholder beside the toolbar's buttons.
    const searchWidth = await frame.locator('.toolbar input.search').evaluate((i) => i.clientWidth);
    assert.ok(searchWidth >= 100, `the search box is ${searchWidth} px wide`);
    await wb.screenshot('table-more-menu');
    await wb.page.keyboard.press('ArrowDown');
    await wb.page.keyboard.press('ArrowDown');
    assert.equal(await frame.evaluate(() => (globalThis as unknown as { document: { activeElement: { textContent: string | null } | null } }).document.activeElement?.textContent), 'Save View As…');
    await wb.page.keyboard.press('Enter');
    // The same command as the palette's: VS Code asks for the name, then says where new results open.
    await wb.typeIntoQuickInput('brushed wallets', { submit: true });
    const said = await wb.waitForNotification(/Saved the view "brushed wallets"/u);
    figures.push(`More menu → Save View As…: ${said}`);
    // The toast reads whole: its message was once cut off at the toast's width.
    const toast = wb.page.locator('.notifications-toasts .notification-toast', { hasText: 'Saved the view' }).first();
    const cut = await toast.locator('.notification-list-item-source, .notification-list-item-message, .monaco-button').evaluateAll((els) =>
      els.filter((e) => e.scrollWidth > e.clientWidth + 1).map((e) => e.textContent ?? ''),
    );
    assert.deepEqual(cut, [], 'no text in the toast is cut off');
    // The table now shows that view, and says so above its rows (issue 23 item 3).
    await until('the view named', async () => ((await frame.locator('.chips .saved-view').innerText()) === 'View: brushed wallets' ? true : undefined), 10_000);
    await wb.screenshot('table-view-saved');
    await wb.clearNotifications();
  });

  stepWithShot(() => wb, 'opens the next result of the same kind in the saved view, named above its rows, and Show all shows every row (issue 23 item 3)', async () => {
    // SAMPLE (the first 300 rows of the big file, in the workspace) has the same columns, so the view chosen last applies to it.
    await wb.page.locator('.explorer-folders-view .monaco-list-row', { hasText: SAMPLE }).click();
    await wb.page.locator('.tabs-container .tab', { hasText: SAMPLE }).first().waitFor();
    await wb.runCommand(OPEN);
    const f = await tableFrame(wb.page, SAMPLE);
    const opened = await until('opened in the saved view, named', async () => {
      const v = await shown(f);
      const name = await f.locator('.chips .saved-view').innerText().catch(() => '');
      const showAll = f.locator('.chips button.show-all');
      return name === 'View: brushed wallets' && /^[\d,]+ of 300 rows$/u.test(v.count) && (await showAll.isVisible()) ? v.count : undefined;
    }, 30_000, () => tableProgress(f));
    figures.push(`a new result of the same columns: "View: brushed wallets · Show all", ${opened}`);
    await wb.screenshot('table-saved-view-named');
    await f.locator('.chips button.show-all').click();
    await until('every row shown, the view no longer named', async () => {
      const v = await shown(f);
      return v.count === '300 rows' && (await f.locator('.chips .saved-view').count()) === 0 && (await f.locator('.chips button.show-all').count()) === 0 ? true : undefined;
    }, 15_000);
    await wb.screenshot('table-saved-view-show-all');
  });

  it('shows a cell holding <img src=x onerror=alert(1)> as text, never as an element', async () => {
    await wb.page.locator('.explorer-folders-view .monaco-list-row', { hasText: 'markup.csv' }).click();
    await wb.page.locator('.tabs-container .tab', { hasText: 'markup.csv' }).first().waitFor();
    await wb.runCommand(OPEN);
    const f = await tableFrame(wb.page, 'markup.csv');
    const cell = f.locator('[role=gridcell]', { hasText: XSS });
    await cell.waitFor({ timeout: 15_000 });
    assert.equal(await cell.innerText(), XSS, 'the markup is the cell’s text');
    assert.equal(await f.locator('img').count(), 0, 'no img element in the webview');
    assert.equal(await wb.page.locator('img[src=x]').count(), 0);
    assert.ok(await f.locator('[role=gridcell]', { hasText: '=HYPERLINK("x")' }).isVisible());
    // A long cell arrives cut to what the grid can draw and says so with an ellipsis.
    assert.equal(await f.locator('[role=gridcell]', { hasText: 'long text long text' }).innerText(), `${LONG.slice(0, 400)}…`);
    // No img element exists in the page or the webview (above), so no onerror can ever run: nothing to wait for.
    assert.deepEqual(dialogs, [], 'no alert ran');
    await wb.screenshot('markup-as-text');
  });

  stepWithShot(() => wb, 'opens the big table’s view as a notebook: the table exports the view, the notebook loads it (pandas and DuckDB; issue 15)', async () => {
    const notebook = BIG.replace(/\.csv$/u, '.ipynb');
    const viewFile = BIG.replace(/\.csv$/u, '-view.csv');
    rmSync(notebook, { force: true });
    rmSync(viewFile, { force: true });
    await wb.page.locator('.tabs-container .tab', { hasText: BIG_TITLE }).first().click();
    await tableFrame(wb.page, BIG_TITLE);
    // The table's title bar button (the palette's row, over a table's webview, is sometimes never clickable).
    await wb.page.locator('.editor-actions .action-label[aria-label^="Open in Notebook"]').first().click();
    // VS Code's own notebook editor shows the cells: the markdown, then the pandas and DuckDB code.
    await wb.page.locator('.tabs-container .tab', { hasText: 'wallets-100000-seed1.ipynb' }).first().waitFor({ timeout: 30_000 });
    // VS Code's notebook editor holds its three cells (a markdown cell saying what the view is,
    // drawn in the notebook's own webview, then the pandas and DuckDB code below the fold).
    await wb.page.locator('.part.statusbar', { hasText: /Cell \d of 3/u }).waitFor({ timeout: 30_000 });
    // The screenshot once a code cell's editor has drawn its lines.
    await wb.page.locator('.notebook-editor .code-cell-row .view-line').first().waitFor({ timeout: 30_000 });
    await wb.screenshot('notebook-opened');
    const nb = JSON.parse(readFileSync(notebook, 'utf8')) as { nbformat: number; cells: { cell_type: string; source: string | string[] }[] };
    const text = (i: number): string => {
      const source = nb.cells[i]?.source ?? '';
      return Array.isArray(source) ? source.join('') : source;
    };
    assert.equal(nb.nbformat, 4);
    // The range filters the analysis panel left on realized_pnl_usd_7d, said in the first cell…
    assert.match(text(0), /- Filters \(all hold\): .*realized\\_pnl\\_usd\\_7d/u);
    // …and done by the table: its worker exported the view's rows, which the code cells only load.
    const code = `${text(1)}\n${text(2)}`;
    assert.match(code, /import pandas/u);
    assert.match(code, /duckdb\.read_csv/u);
    assert.match(code, /PATH = "wallets-100000-seed1-view\.csv"/u);
    // No sort or filter of its own (a column may be named sortino_ratio_7d: the code's own constructs are looked for).
    assert.doesNotMatch(code, /sort_values|order by|\bwhere\b|\.str\.contains|between\(|\.loc\[|\.query\(/iu);
    const rows = readFileSync(viewFile, 'utf8').trimEnd().split('\n').length - 1;
    figures.push(`Open in Notebook: the view exported (${rows.toLocaleString('en-US')} rows), loaded by the notebook`);
    // The file holds the rows the table's view had when the notebook was written (its first cell says how many).
    assert.ok(text(0).includes(`- Rows: ${rows.toLocaleString('en-US')}.`), `${rows} rows exported; ${text(0)}`);
    rmSync(notebook, { force: true });
    rmSync(viewFile, { force: true });
  });
});
