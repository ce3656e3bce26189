/**
 * Issue 30.13: a pipeline cell's "Not run" and "Stopped" outputs were Markdown built from the cell's
 * text and the server's message as they came (an image, a `command:` link, raw HTML rendered). They
 * are built by core/pipeline/output.ts now, with the one Markdown escaping (core/markdown.ts).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { notRunMarkdown, stoppedMarkdown } from '../../../../src/core/pipeline/output';

const HOSTILE = '![x](https://evil.example/t.png) [run](command:walletAnalytics.clearApiKey) <img src=x onerror=alert(1)> **bold**\n# heading';

/** Whether Markdown text holds no markup that came from `HOSTILE`: every `<`, `[`, `!`, `*`, `#` and `(` is escaped. */
function inert(md: string, prefix: string): void {
  assert.ok(md.startsWith(prefix), md);
  const rest = md.slice(prefix.length);
  for (const c of ['<', '[', '!', '*', '#', '(', ']']) {
    for (let i = rest.indexOf(c); i >= 0; i = rest.indexOf(c, i + 1)) assert.equal(rest[i - 1], '\\', `${c} at ${i} in ${rest}`);
  }
  assert.ok(!rest.includes('\n'), 'one paragraph: a line break could start a heading');
}

describe('Not run and Stopped outputs escape what they quote (30.13)', () => {
  it('the cell\'s text and the server\'s message are literal text', () => {
    inert(notRunMarkdown(HOSTILE), '**Not run:** ');
    inert(stoppedMarkdown(HOSTILE), '**Stopped:** ');
    assert.equal(notRunMarkdown('the plan was not approved. Nothing was sent.'), '**Not run:** the plan was not approved\\. Nothing was sent\\.');
  });
});
