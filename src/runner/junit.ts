/**
 * The runner's JUnit XML report (`--junit FILE`), the format CI systems read (Jenkins, GitLab,
 * GitHub's test reporters): one testsuite for the pipeline, one testcase a step, a failed step as
 * <failure>, a step not run as <skipped>. The charge is a property of the suite, and the last line
 * its system-out, so a CI page shows what the run cost.
 */

import type { StepOutcome } from '../core/agents/pipelineRun';

/** A step as the run tells it (the shape an agent is told, core/agents/pipelineRun.ts), with its time. */
export interface StepReport extends StepOutcome {
  readonly ms: number;
}

/** XML 1.0 text: the five escapes, and characters XML cannot hold dropped. */
function xml(s: string): string {
  // Characters XML 1.0 cannot hold (controls other than tab and newlines, lone surrogates) are dropped.
  const kept = [...s].filter((ch) => {
    const c = ch.codePointAt(0) ?? 0;
    return c === 0x9 || c === 0xa || c === 0xd || (c >= 0x20 && c <= 0xd7ff) || (c >= 0xe000 && c <= 0xfffd) || c >= 0x10000;
  });
  return kept
    .join('')
    .replace(/&/gu, '&amp;')
    .replace(/</gu, '&lt;')
    .replace(/>/gu, '&gt;')
    .replace(/"/gu, '&quot;')
    .replace(/'/gu, '&apos;');
}

/** The report of one run: `suite` is the pipeline's file name, `charged` the credits it charged. */
export function junitXml(suite: string, steps: readonly StepReport[], charged: number, lastLine: string, at: Date = new Date()): string {
  const failures = steps.filter((s) => s.outcome === 'failed').length;
  const skipped = steps.filter((s) => s.outcome === 'skipped').length;
  const seconds = (ms: number): string => (ms / 1000).toFixed(3);
  const total = steps.reduce((s, x) => s + x.ms, 0);
  const cases = steps.map((s) => {
    const open = `    <testcase name="${xml(s.name)}" classname="${xml(suite)}" time="${seconds(s.ms)}"`;
    if (s.outcome === 'passed') return `${open}>\n      <system-out>${xml(s.text)}</system-out>\n    </testcase>`;
    if (s.outcome === 'skipped') return `${open}>\n      <skipped message="${xml(s.text)}"/>\n    </testcase>`;
    return `${open}>\n      <failure message="${xml(s.text)}" type="stopped">${xml(s.text)}</failure>\n    </testcase>`;
  });
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="wallet-analytics" tests="${steps.length}" failures="${failures}" errors="0" skipped="${skipped}" time="${seconds(total)}">`,
    `  <testsuite name="${xml(suite)}" tests="${steps.length}" failures="${failures}" errors="0" skipped="${skipped}" time="${seconds(total)}" timestamp="${at.toISOString().slice(0, 19)}">`,
    '    <properties>',
    `      <property name="charged" value="${charged}"/>`,
    '    </properties>',
    ...cases,
    `    <system-out>${xml(lastLine)}</system-out>`,
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}
