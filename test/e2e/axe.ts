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

/** Runs axe over the whole document of `frame` (the webview's inner frame); injects it first when needed. */
export async function runAxe(frame: Frame, view: string, theme: string): Promise<AxeRun> {
  const present = await frame.evaluate(() => typeof (globalThis as { axe?: unknown }).axe === 'object');
  if (!present) await frame.evaluate(AXE_SOURCE);
  const r = await frame.evaluate(async () => {
    interface Axe {
      run(context: unknown, options: unknown): Promise<{ violations: AxeRule[]; incomplete: AxeRule[]; passes: unknown[] }>;
    }
    const axe = (globalThis as unknown as { axe: Axe }).axe;
    const res = await axe.run((globalThis as unknown as { document: unknown }).document, { resultTypes: ['violations', 'incomplete'] });
    const slim = (rules: AxeRule[]): AxeRule[] =>
      rules.map((v) => ({ id: v.id, impact: v.impact, help: v.help, helpUrl: v.helpUrl, nodes: v.nodes.map((n) => ({ target: n.target, html: n.html.slice(0, 300), failureSummary: n.failureSummary })) }));
    return { violations: slim(res.violations), incomplete: slim(res.incomplete), passes: res.passes.length };
  });
  return { view, theme, ...r };
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
