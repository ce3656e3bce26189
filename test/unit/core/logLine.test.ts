/**
 * Issue 21, 9c: one log call is one log line. A value with a line break (an error text from a
 * server, a file name, a webview's message) could otherwise write a line of its own that reads as
 * one of ours. src/vscode/base/log.ts passes every line through logLine (checked below as text,
 * since a unit test cannot load vscode).
 */
import assert from 'node:assert/strict';
import { readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, it } from 'node:test';
import { logLine } from '../../../src/core/logLine';

function repoRoot(): string {
  for (let d = __dirname; dirname(d) !== d; d = dirname(d)) {
    if (statSync(join(d, 'package.json'), { throwIfNoEntry: false })?.isFile()) return d;
  }
  throw new Error(`no package.json above ${__dirname}`);
}

/** Every line end JavaScript, Python or an editor knows. */
const BREAKS = ['\n', '\r', '\r\n', '\v', '\f', '\u0085', '\u2028', '\u2029', '\x1c', '\x1d', '\x1e'];

describe('log lines (issue 21)', () => {
  it('a forged line stays inside the one it came in', () => {
    for (const b of BREAKS) {
      const forged = `Job 7 failed: boom${b}2026-11-25 10:00:00.000 [info] Job 8 done: charged 0`;
      const line = logLine(forged);
      for (const c of BREAKS) assert.ok(!line.includes(c), `${JSON.stringify(c)} left in ${JSON.stringify(line)}`);
      assert.match(line, /boom\\(n|r|u[0-9a-f]{4})/u);
    }
  });

  it('escapes other controls too, keeps tabs and ordinary text as they are', () => {
    assert.equal(logLine('a\tb é ✓ 100%'), 'a\tb é ✓ 100%');
    assert.equal(logLine('bell\x07 esc\x1b[31m del\x7f c1\x9b'), 'bell\\u0007 esc\\u001b[31m del\\u007f c1\\u009b');
    assert.equal(logLine('one\r\ntwo\nthree'), 'one\\r\\ntwo\\nthree');
    assert.equal(logLine(''), '');
  });

  it('holds no raw icon syntax: a picker label logged as the price shown reads as words (issue 35.18)', () => {
    assert.equal(logLine('trending: price shown before sending (Sandbox): $(play) Run — 50 credits · balance 1,000'), 'trending: price shown before sending (Sandbox): Run — 50 credits · balance 1,000');
    assert.equal(logLine('$(sync~spin) Loading $(warning) twice'), 'Loading twice');
    // Only an icon's name in its syntax: a shell substitution in a logged snippet stays.
    assert.equal(logLine('echo $(cat "a b.txt")'), 'echo $(cat "a b.txt")');
  });

  it('the log channel cleans every line with it', () => {
    const text = readFileSync(join(repoRoot(), 'src', 'vscode', 'base', 'log.ts'), 'utf8');
    assert.match(text, /return logLine\(redact\(msg, this\.secrets\(\)\)\);/u);
    for (const level of ['info', 'warn', 'error', 'debug']) assert.match(text, new RegExp(`this\\.channel\\.${level}\\(this\\.clean\\(msg\\)\\)`, 'u'), level);
  });
});
