/** Server strings in hovers and tooltips are literal text: no links, tags, emphasis or icons of the server's making. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { creditsTooltipMarkdown, requestTooltipMarkdown } from '../../../src/core/history/format';
import type { HistoryItem } from '../../../src/core/history/merge';
import { escapeMarkdown, markdownCode, markdownCodeBlock } from '../../../src/core/markdown';
import { fieldHoverMarkdown } from '../../../src/core/query/fields';
import type { ColumnInfo } from '../../../src/core/spec/wire';

const HOSTILE = '[click](command:walletAnalytics.clearApiKey) <img src=x onerror=alert(1)> **bold**';
/** HOSTILE as literal Markdown, written out by hand (not by the function under test). */
const HOSTILE_ESCAPED = String.raw`\[click\]\(command\:walletAnalytics\.clearApiKey\) \<img src\=x onerror\=alert\(1\)\> \*\*bold\*\*`;

/** The live pieces of HOSTILE: none may appear unescaped in the Markdown. */
function assertInert(md: string): void {
  for (const live of ['[click]', '](command:', 'command:walletAnalytics', '<img', '**bold**']) {
    const unescaped = new RegExp(`(?<!\\\\)${live.replace(/[[\]()*]/gu, '\\$&')}`, 'u');
    assert.ok(!unescaped.test(md), `"${live}" is live in:\n${md}`);
  }
}

/** The code span starting at `md[at]`: its content, after checking its fence closes only where the span ends. */
function codeSpanAt(md: string, at: number): string {
  const fence = /^`+/u.exec(md.slice(at))?.[0] ?? '';
  assert.ok(fence.length > 0, `a code span at ${at}`);
  const rest = md.slice(at + fence.length);
  // The span closes at the first run of exactly the fence's length.
  const close = [...rest.matchAll(/`+/gu)].find((m) => m[0].length === fence.length);
  assert.ok(close?.index !== undefined, 'the span closes');
  return rest.slice(0, close.index);
}

describe('markdown: escapeMarkdown', () => {
  it('escapes every ASCII punctuation character, so links, tags, emphasis, entities and icons are text', () => {
    assert.equal(escapeMarkdown(HOSTILE), HOSTILE_ESCAPED);
    assert.equal(escapeMarkdown('$(zap) &lt; ~x~ _y_ `z` # h | t'), String.raw`\$\(zap\) \&lt\; \~x\~ \_y\_ \`z\` \# h \| t`);
    assert.equal(escapeMarkdown('https://evil.example'), String.raw`https\:\/\/evil\.example`);
    assert.equal(escapeMarkdown('plain words 123'), 'plain words 123');
  });

  it('writes line breaks and control characters as one space, so a string cannot start a heading or a list', () => {
    assert.equal(escapeMarkdown('a\n\n# b\r\n- c\t1. d'), String.raw`a \# b \- c 1\. d`);
  });

  it('writes code spans and blocks whose fence outlasts any backticks inside', () => {
    assert.equal(markdownCode('req_1'), '`req_1`');
    const span = markdownCode('a`b``c');
    assert.equal(span, '```a`b``c```');
    assert.equal(codeSpanAt(span, 0), 'a`b``c');
    assert.equal(markdownCode('`x`'), '`` `x` ``');
    assert.equal(markdownCode('a\nb'), '`a b`');
    const block = markdownCodeBlock('x\n```\n[y](command:z)', 'json');
    assert.equal(block, '````json\nx\n```\n[y](command:z)\n````\n');
  });
});

describe('markdown: server strings in hovers and tooltips', () => {
  it('a field hover and completion writes the server’s name, description, type, group, timeframe and values as text', () => {
    const col = {
      name: 'pnl_[x](command:walletAnalytics.clearApiKey)',
      type: 'number',
      description: HOSTILE,
      kind: '<b>ratio</b>',
      group: '**g**',
      timeframe: '7d`) [t](command:x) `',
      values: ['ok', 'a`[v](command:walletAnalytics.clearApiKey)'],
    } as ColumnInfo;
    const md = fieldHoverMarkdown(col, 'main');
    assert.equal(md.split('\n')[2], HOSTILE_ESCAPED, 'the description is one line of literal text');
    assert.ok(md.startsWith(String.raw`**pnl\_\[x\]\(command\:walletAnalytics\.clearApiKey\)** — main chain`), md);
    assert.ok(md.includes(String.raw`- Value type: number (\<b\>ratio\<\/b\>)`), md);
    assert.ok(md.includes(String.raw`- Group: \*\*g\*\*`), md);
    // An unknown timeframe: its label and its code span are both literal.
    const tf = md.indexOf('- Timeframe: ');
    assert.ok(md.slice(tf).startsWith(String.raw`- Timeframe: 7d\`\) \[t\]\(command\:x\) \` (`), md);
    assert.equal(codeSpanAt(md, md.indexOf('(``', tf) + 1), ' 7d`) [t](command:x) ` ');
    const values = md.slice(md.indexOf('- Values: ') + '- Values: '.length);
    const second = values.indexOf(', ') + 2;
    assert.equal(codeSpanAt(values, second), '"a`[v](command:walletAnalytics.clearApiKey)"');
  });

  it('a Requests row tooltip writes the requestId, error, result path, endpoint and inputs as text or code', () => {
    const it0: HistoryItem = {
      requestId: 'req_1` [x](command:walletAnalytics.clearApiKey) `',
      endpointId: '<img src=x onerror=alert(1)>',
      status: 'failed',
      createdAt: Date.UTC(2026, 0, 1),
      completedAt: Date.UTC(2026, 0, 1, 0, 1),
      cost: 50,
      inputs: { tokens: ['```', '[y](command:walletAnalytics.clearApiKey)'] },
      resultPath: '/r/`x`.csv',
      error: HOSTILE,
    };
    const md = requestTooltipMarkdown(it0, 'failed on the server');
    assert.ok(md.startsWith(String.raw`**\<img src\=x onerror\=alert\(1\)\>** — failed on the server`), md);
    assert.ok(md.includes(`error: ${HOSTILE_ESCAPED}  \n`), md);
    assert.equal(codeSpanAt(md, md.indexOf('requestId: ') + 'requestId: '.length), ' req_1` [x](command:walletAnalytics.clearApiKey) ` ');
    assert.equal(codeSpanAt(md, md.indexOf('result: ') + 'result: '.length), '/r/`x`.csv');
    // The inputs: one fenced block, longer than the ``` inside, that closes at the end.
    const block = md.slice(md.indexOf('inputs:\n\n') + 'inputs:\n\n'.length);
    assert.ok(block.startsWith('````json\n') && block.endsWith('\n````\n'), block);
    assert.equal(block.match(/^````/gmu)?.length, 2, block);
    assert.deepEqual(JSON.parse(block.slice('````json\n'.length, -'\n````\n'.length)), it0.inputs);
  });

  it('the credits status bar tooltip writes the error message and the base URL as text', () => {
    const facts = { keyState: 'set', baseUrl: 'https://evil.example/[x](command:walletAnalytics.clearApiKey)', quota: 1_000_000_000, spendTotal: 0 };
    const md = creditsTooltipMarkdown(facts, HOSTILE, 100, 10);
    assert.ok(md.includes(`Balance: unknown — ${HOSTILE_ESCAPED}`), md);
    assert.ok(md.includes(String.raw`Service: https\:\/\/evil\.example\/\[x\]\(command\:walletAnalytics\.clearApiKey\)`), md);
    assertInert(md);
    assert.ok(!md.includes('https://'), 'no autolink');
    // The figures are ours and stay Markdown.
    const paid = creditsTooltipMarkdown({ ...facts, balance: { value: 1234, at: 0 } }, undefined, 100, 10);
    assert.match(paid, /Balance: \*\*1,234 credits\*\*/u);
  });
});
