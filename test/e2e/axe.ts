// axe-core in a webview (issue 26 item 7). A webview's page has a strict CSP (scripts only by the
// page's nonce), so axe is not added as a <script>: it is evaluated in the webview's frame through
// the DevTools protocol (Playwright's frame.evaluate), which the page's CSP does not govern, and
// nothing about the page a person gets is loosened for the test. The results of every run (all
// impacts) are kept and written as JSON and as a markdown summary under test-results/e2e/.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Frame } from 'playwright-core';
import { repoRoot, screenshotsDir } from './workbench';

export type Impact = 'minor' | 'moderate' | 'serious' | 'critical';

export interface AxeNode {
  readonly target: readonly unknown[];
  readonly html: string;
  readonly failureSummary?: string;
}
export interface AxeRule {
  readonly id: string;
  readonly impact: Impact | null;
  readonly help: string;
  readonly helpUrl: string;
  readonly nodes: readonly AxeNode[];
}
export interface AxeRun {
  readonly view: string;
  readonly theme: string;
  readonly violations: readonly AxeRule[];
  readonly incomplete: readonly AxeRule[];
  readonly passes: number;
}

const AXE_SOURCE = readFileSync(join(repoRoot, 'node_modules', 'axe-core', 'axe.min.js'), 'utf8');

/**
 * Runs axe over the whole document of `frame` (the webview's inner frame), or only over the
 * elements `include` selects (a notebook renderer's outputs, in a frame whose page is VS Code's);
 * injects axe first when needed.
 */
export async function runAxe(frame: Frame, view: string, theme: string, include?: string): Promise<AxeRun> {
  const present = await frame.evaluate(() => typeof (globalThis as { axe?: unknown }).axe === 'object');
  if (!present) await frame.evaluate(AXE_SOURCE);
  const r = await frame.evaluate(async (selector) => {
    interface Axe {
      run(context: unknown, options: unknown): Promise<{ violations: AxeRule[]; incomplete: AxeRule[]; passes: unknown[] }>;
    }
    const axe = (globalThis as unknown as { axe: Axe }).axe;
    const res = await axe.run(selector ?? (globalThis as unknown as { document: unknown }).document, { resultTypes: ['violations', 'incomplete'] });
    const slim = (rules: AxeRule[]): AxeRule[] =>
      rules.map((v) => ({ id: v.id, impact: v.impact, help: v.help, helpUrl: v.helpUrl, nodes: v.nodes.map((n) => ({ target: n.target, html: n.html.slice(0, 300), failureSummary: n.failureSummary })) }));
    return { violations: slim(res.violations), incomplete: slim(res.incomplete), passes: res.passes.length };
  }, include);
  return { view, theme, ...r };
}

/**
 * Runs `fn` (an axe run) with a notebook's outputs frame made measurable, then puts it back. That
 * frame is VS Code's: transparent over the workbench, which paints the notebook's background
 * behind it, and a body of no height that clips (overflow: hidden) the outputs it positions
 * absolutely. axe, inside the frame, would find every output clipped (its contrast rule then
 * applies to nothing) and no background (it would take white, under a dark theme's light text).
 * So the frame's root is given `background`, the colour the workbench shows behind the outputs
 * (the caller reads it there), and its body stops clipping; nothing else changes.
 */
export async function withBackdrop<T>(frame: Frame, background: string, fn: () => Promise<T>): Promise<T> {
  const set = (paint: string | undefined): Promise<void> =>
    frame.evaluate((bg) => {
      interface Style {
        setProperty(name: string, value: string, priority?: string): void;
        removeProperty(name: string): void;
      }
      const d = (globalThis as unknown as { document: { documentElement: { style: Style }; body: { style: Style } } }).document;
      if (bg === undefined) {
        d.documentElement.style.removeProperty('background');
        d.body.style.removeProperty('overflow');
      } else {
        d.documentElement.style.setProperty('background', bg, 'important');
        d.body.style.setProperty('overflow', 'visible', 'important');
      }
    }, paint);
  await set(background);
  try {
    return await fn();
  } finally {
    await set(undefined);
  }
}

/** The serious and critical violations of a run, one line each (for an assertion's message). */
export function blocking(run: AxeRun): string[] {
  return run.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help} — ${v.nodes.length} node(s), e.g. ${JSON.stringify(v.nodes[0]?.target)} ${v.nodes[0]?.failureSummary?.replace(/\s+/gu, ' ').slice(0, 200) ?? ''}`);
}

/** Writes every run as test-results/e2e/axe-results-<theme>.json and a summary table as axe-results-<theme>.md. */
export function writeAxeReport(runs: readonly AxeRun[], theme: string): string {
  mkdirSync(screenshotsDir, { recursive: true });
  writeFileSync(join(screenshotsDir, `axe-results-${theme}.json`), `${JSON.stringify(runs, null, 2)}\n`);
  const count = (r: AxeRun, i: Impact): number => r.violations.filter((v) => v.impact === i).length;
  const lines = [
    `# axe-core ${axeVersion()} in the webviews (${theme})`,
    '',
    '| view | theme | critical | serious | moderate | minor | needs review | rules passed | violations |',
    '|---|---|---|---|---|---|---|---|---|',
    ...runs.map(
      (r) =>
        `| ${r.view} | ${r.theme} | ${count(r, 'critical')} | ${count(r, 'serious')} | ${count(r, 'moderate')} | ${count(r, 'minor')} | ${r.incomplete.length} | ${r.passes} | ${r.violations.map((v) => `${v.id} (${v.impact ?? '?'})`).join(', ')} |`,
    ),
    '',
  ];
  const file = join(screenshotsDir, `axe-results-${theme}.md`);
  writeFileSync(file, lines.join('\n'));
  return file;
}

function axeVersion(): string {
  return /axe v([\d.]+)/u.exec(AXE_SOURCE.slice(0, 200))?.[1] ?? '?';
}
