/**
 * Issue 35 item 17: the Getting Started walkthrough's sample query was clipped in its narrow media
 * pane, it had no step for pipelines or watches, and the Watches view's welcome pushed Watch This…
 * below the fold under a paragraph. Read from package.json, its nls strings and the media files.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, it } from 'node:test';

function repoRoot(): string {
  for (let d = __dirname; dirname(d) !== d; d = dirname(d)) if (existsSync(join(d, 'package.json'))) return d;
  throw new Error(`no package.json above ${__dirname}`);
}
const root = repoRoot();
interface Step { id: string; title: string; description: string; media: { markdown?: string }; completionEvents?: string[] }
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { contributes: { walkthroughs: { steps: Step[] }[]; viewsWelcome: { view: string; contents: string }[] } };
const nls = JSON.parse(readFileSync(join(root, 'package.nls.json'), 'utf8')) as Record<string, string>;
const text = (s: string): string => (/^%(.+)%$/u.test(s) ? (nls[s.slice(1, -1)] ?? s) : s);
const steps = pkg.contributes.walkthroughs[0]?.steps ?? [];

/** The widest a code line may be and still show whole in the walkthrough's media pane at 1400 px. */
const MEDIA_CODE_WIDTH = 44;

describe('the Getting Started walkthrough and the Watches welcome', () => {
  it('has a step for pipelines and one for watches, each with its command and ticked by it', () => {
    const pipeline = steps.find((s) => text(s.description).includes('command:walletAnalytics.newPipeline'));
    const watch = steps.find((s) => text(s.description).includes('command:walletAnalytics.watchThis'));
    assert.ok(pipeline, `a pipeline step: ${steps.map((s) => s.id).join(', ')}`);
    assert.ok(watch, 'a watch step');
    assert.ok(pipeline.completionEvents?.includes('onCommand:walletAnalytics.newPipeline'));
    assert.ok(watch.completionEvents?.includes('onCommand:walletAnalytics.watchThis'));
    for (const s of [pipeline, watch]) assert.ok(s.media.markdown && existsSync(join(root, s.media.markdown)), `${s.id}: its media exists`);
  });

  it('shows every sample in the media whole: no code line wider than the pane', () => {
    for (const s of steps) {
      const md = s.media.markdown ? readFileSync(join(root, s.media.markdown), 'utf8') : '';
      const code = [...md.matchAll(/```[a-z]*\n([\s\S]*?)```/gu)].flatMap((m) => (m[1] ?? '').split('\n'));
      for (const line of code) assert.ok(line.length <= MEDIA_CODE_WIDTH, `${s.media.markdown}: ${line.length} characters: “${line}”`);
    }
  });

  it('puts Watch This… first in the Watches welcome, above the explanation', () => {
    const welcome = pkg.contributes.viewsWelcome.find((v) => v.view === 'walletAnalyticsWatches');
    const lines = text(welcome?.contents ?? '').split('\n');
    assert.ok(lines.length >= 2);
    assert.match(lines[1] ?? '', /^\[Watch This…\]\(command:walletAnalytics\.watchThis\)$/u, lines.join(' ⏎ '));
    assert.ok((lines[0] ?? '').length <= 40, `the line above the button is short: “${lines[0]}”`);
  });
});
