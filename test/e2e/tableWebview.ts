// Helpers for the table e2e tests: find a table webview's frame in the workbench, count its grid
// cells on every animation frame, read what it shows, and measure its memory.
import type { Frame, Page } from 'playwright-core';

// The functions passed to frame.evaluate() run in the webview. The test build has no DOM library,
// so the little they touch is declared here, in this module only.
interface DomRect {
  readonly top: number;
  readonly bottom: number;
  readonly left: number;
  readonly right: number;
}
interface DomEl {
  readonly textContent: string | null;
  readonly hidden?: boolean;
  getAttribute(name: string): string | null;
  querySelector(selector: string): DomEl | null;
  querySelectorAll(selector: string): ArrayLike<DomEl> & Iterable<DomEl>;
  closest(selector: string): DomEl | null;
  getBoundingClientRect(): DomRect;
  contains(other: DomEl | null): boolean;
}
interface DomDoc extends DomEl {
  readonly title: string;
  getElementById(id: string): DomEl | null;
  elementFromPoint(x: number, y: number): DomEl | null;
}
declare const document: DomDoc;
declare const window: { readonly innerHeight: number };
declare function requestAnimationFrame(callback: (now: number) => void): number;

/**
 * The frame of the table webview whose page title is `title` (the file name). The wait follows the
 * workbench's progress (its frames coming and loading, the editor tabs): it fails only when none of
 * that changed for idleMs, so a loaded machine takes longer instead of failing (issue 31.7).
 */
export async function tableFrame(page: Page, title: string, idleMs = 30_000): Promise<Frame> {
  let found: Frame | undefined;
  await until(
    `a table webview titled ${title}`,
    async () => {
      for (const f of page.frames()) {
        const t = await f.evaluate(() => (document.getElementById('app') ? document.title : undefined)).catch(() => undefined);
        if (t === title) return (found = f);
      }
      return undefined;
    },
    idleMs,
    () => workbenchProgress(page),
  ).catch((e: unknown) => {
    throw new Error(`${e instanceof Error ? e.message : String(e)}; frames: ${page.frames().map((f) => f.url()).join(', ')}`);
  });
  if (!found) throw new Error(`No table webview titled ${title}`);
  return found;
}

/** What the workbench shows on the way to a webview: its frames and their URLs, and the editor tabs. */
async function workbenchProgress(page: Page): Promise<string> {
  const tabs = await page
    .evaluate(() => [...document.querySelectorAll('.tabs-container .tab')].map((t) => t.textContent ?? '').join('|'))
    .catch(() => '');
  return `${page.frames().map((f) => f.url()).join(' ')} ${tabs}`;
}

/**
 * What a table webview shows on its way to its first rows: its marks (wa:…), the row count, the
 * status and progress lines, the rows in the DOM. Any change is progress.
 */
export function tableProgress(frame: Frame): Promise<string> {
  return frame
    .evaluate(() => {
      const marks = (globalThis as unknown as { performance: { getEntriesByType(t: string): { name: string }[] } }).performance
        .getEntriesByType('mark')
        .map((m) => m.name)
        .join(',');
      const text = (sel: string): string => document.querySelector(sel)?.textContent ?? '';
      return `${marks} ${text('.count')} ${text('.status')} ${text('.progress')} ${document.querySelectorAll('.row').length}`;
    })
    .catch((e: unknown) => `unreadable: ${String(e)}`);
}

/** Text of the first data row's cells once painted (undefined before). */
export function firstRowText(frame: Frame): Promise<string[] | undefined> {
  return frame
    .evaluate(() => {
      const row = document.querySelector('.row[aria-rowindex="2"]');
      const cells = row ? [...row.querySelectorAll('[role=gridcell]')].map((c) => c.textContent ?? '') : [];
      return cells.length > 0 && cells[0] !== '' ? cells : undefined;
    })
    .catch(() => undefined);
}

/**
 * Starts counting the grid's cells (data cells, headers, row numbers) on every animation frame in
 * the webview; maxCells() reads the highest count seen since.
 */
export async function trackCells(frame: Frame): Promise<void> {
  await frame.evaluate(() => {
    const w = globalThis as unknown as { __cells?: { max: number; frames: number; gaps: number[] } };
    if (w.__cells) return;
    const state = { max: 0, frames: 0, gaps: [] as number[] };
    w.__cells = state;
    let last = 0;
    const tick = (now: number): void => {
      const n = document.querySelectorAll('[role=gridcell],[role=columnheader],[role=rowheader]').length;
      state.max = Math.max(state.max, n);
      state.frames++;
      if (last > 0) state.gaps.push(now - last);
      if (state.gaps.length > 4096) state.gaps.shift();
      last = now;
      requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  });
}

export function cellStats(frame: Frame): Promise<{ max: number; frames: number; now: number }> {
  return frame.evaluate(() => {
    const w = globalThis as unknown as { __cells?: { max: number; frames: number } };
    const now = document.querySelectorAll('[role=gridcell],[role=columnheader],[role=rowheader]').length;
    return { max: Math.max(w.__cells?.max ?? 0, now), frames: w.__cells?.frames ?? 0, now };
  });
}

/**
 * What the grid shows now: the row count label, the status line, the headers in the DOM (aligned
 * with the rows' cells, row number first), the headers a person can see whole, and the rows.
 */
export function shown(frame: Frame): Promise<{ count: string; status: string; headers: string[]; visibleHeaders: string[]; rows: string[][]; progress: string | undefined }> {
  return frame.evaluate(() => {
    const rows = [...document.querySelectorAll('.row')]
      .map((r) => ({ i: Number(r.getAttribute('aria-rowindex')), cells: [...r.querySelectorAll('[role=rowheader],[role=gridcell]')].map((c) => c.textContent ?? '') }))
      .sort((a, b) => a.i - b.i);
    const scroller = document.querySelector('.scroller');
    const top = scroller ? scroller.getBoundingClientRect().top : 0;
    // Only rows at least partly below the sticky header: the ones a person sees.
    const visible = rows.filter((r) => {
      const el = document.querySelector(`.row[aria-rowindex="${r.i}"]`);
      const b = el?.getBoundingClientRect();
      return b !== undefined && b.bottom > top + 30 && b.top < window.innerHeight - 30;
    });
    const progress = document.querySelector('.progress');
    return {
      count: document.querySelector('.count')?.textContent ?? '',
      status: document.querySelector('.status')?.textContent ?? '',
      headers: [...document.querySelectorAll('.hrow [role=columnheader]')].map((h) => h.querySelector('.hname')?.textContent ?? h.textContent ?? ''),
      // Seen whole: both its ends are on screen and not under the pinned columns.
      visibleHeaders: [...document.querySelectorAll('.hrow [role=columnheader]')]
        .filter((h) => {
          const b = h.getBoundingClientRect();
          const y = (b.top + b.bottom) / 2;
          return h.contains(document.elementFromPoint(b.left + 2, y)) && h.contains(document.elementFromPoint(b.right - 8, y));
        })
        .map((h) => h.querySelector('.hname')?.textContent ?? h.textContent ?? ''),
      rows: visible.map((r) => r.cells),
      progress: progress && !progress.hidden ? (progress.textContent ?? '') : undefined,
    };
  });
}

/** The active cell of the grid (its aria-activedescendant): row and column index, and text. */
/**
 * Whether each notice's icon is a glyph the webview's font has: a missing glyph is drawn as an
 * empty box as wide as a private-use character's (the icons were 'ⓘ' and '⛔', missing from the
 * headless Chromium's fonts).
 */
export function noticeIconsDrawn(frame: Frame): Promise<{ text: string; drawn: boolean }[]> {
  interface Canvas2d { font: string; measureText(t: string): { width: number } }
  interface Page2d {
    document: { createElement(tag: 'canvas'): { getContext(kind: '2d'): Canvas2d | null } };
    getComputedStyle(e: unknown): { font: string };
  }
  return frame.locator('.notice .notice-icon').evaluateAll((icons) =>
    icons.map((e) => {
      // Runs in the webview (serialized): its globals, typed here.
      const page = globalThis as unknown as Page2d;
      const ctx = page.document.createElement('canvas').getContext('2d');
      const text = e.textContent ?? '';
      if (!ctx) return { text, drawn: false };
      ctx.font = page.getComputedStyle(e).font;
      return { text, drawn: text.length > 0 && ctx.measureText(text).width !== ctx.measureText('\uE000').width };
    }),
  );
}

export function activeCell(frame: Frame): Promise<{ row: string | null; col: string | null; text: string }> {
  return frame.evaluate(() => {
    const id = document.querySelector('.scroller')?.getAttribute('aria-activedescendant');
    const c = id ? document.getElementById(id) : null;
    return { row: c?.closest('.row')?.getAttribute('aria-rowindex') ?? null, col: c?.getAttribute('aria-colindex') ?? null, text: c?.textContent ?? '' };
  });
}

/**
 * Waits until check() holds in the frame (polling every 50 ms), or fails with what it last saw.
 * With `progress` the wait follows it: it fails only when progress() has not changed for timeoutMs
 * (a slow machine that is getting there takes longer, issue 31.7); without, timeoutMs bounds it.
 */
export async function until<T>(what: string, check: () => Promise<T | undefined | false>, timeoutMs = 15_000, progress?: () => Promise<string>): Promise<T> {
  let deadline = Date.now() + timeoutMs;
  let last: unknown;
  let seen = progress ? await progress() : '';
  for (;;) {
    const v = await check().catch((e: unknown) => ((last = e), undefined));
    if (v !== undefined && v !== false) return v;
    if (progress) {
      const now = await progress();
      if (now !== seen) {
        seen = now;
        deadline = Date.now() + timeoutMs;
      }
    }
    if (Date.now() > deadline) {
      const how = progress ? `nothing changed for ${timeoutMs} ms (last: ${seen.slice(0, 300)})` : `timed out after ${timeoutMs} ms`;
      throw new Error(`Waiting for ${what}: ${how}${last ? ` (${String(last)})` : ''}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}

/**
 * The JS heap of the renderer that runs `target` (the page, or a webview frame when it runs out of
 * process), after a garbage collection, in MB: CDP Performance.getMetrics JSHeapUsedSize.
 * `own` says whether the frame had a renderer of its own (else the figure is the shared renderer's).
 */
export async function rendererHeapMB(page: Page, frame?: Frame): Promise<{ mb: number; own: boolean }> {
  let session;
  let own = false;
  if (frame) {
    try {
      session = await page.context().newCDPSession(frame);
      own = true;
    } catch {
      // The frame shares the page's renderer: no session of its own.
    }
  }
  session ??= await page.context().newCDPSession(page);
  await session.send('HeapProfiler.enable');
  await session.send('HeapProfiler.collectGarbage');
  await session.send('Performance.enable');
  const { metrics } = await session.send('Performance.getMetrics');
  await session.detach();
  const used = metrics.find((m) => m.name === 'JSHeapUsedSize')?.value ?? NaN;
  return { mb: used / 1024 / 1024, own };
}

/** How long the grid's renders took in the webview since `from` (an index into its ring), in ms. */
export async function renderTimes(frame: Frame): Promise<number[]> {
  return frame.evaluate(() => [...((globalThis as unknown as { __waRenderTimes?: number[] }).__waRenderTimes ?? [])]);
}

export function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
}

/** Times between animation frames in the webview (ms), as trackCells() records them. */
export function frameGaps(frame: Frame): Promise<number[]> {
  return frame.evaluate(() => [...((globalThis as unknown as { __cells?: { gaps: number[] } }).__cells?.gaps ?? [])]);
}
