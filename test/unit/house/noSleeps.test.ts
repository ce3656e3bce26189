// Tests wait on events and state, never on the clock (CONTRIBUTING, House rules; issue 31.6): a
// fixed sleep is too short on a slow machine and wasted on a fast one. This fails when a fixed
// sleep of 300 ms or more appears in test/: a promise around setTimeout, sleep(), delay() or
// page.waitForTimeout() with a literal of 300 or more. Shorter ones are polling steps of a wait.
// ALLOWED names the few where the time window itself is the behaviour under test, each with why.
// The e2e tier is held like the others: its last seven page.waitForTimeout calls (the workbench's
// menu and palette retries) now wait on what the page shows.
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, it } from 'node:test';

const root = resolve(__dirname, '../../../..');
const MIN_MS = 300;

/** file → the lines (a fragment each) whose sleep is the behaviour under test, and why. */
const ALLOWED: Record<string, { line: string; why: string }[]> = {
  'test/integration/proxy.test.ts': [{ line: 'setTimeout(r, 1000)', why: 'the proxy must stay quiet for a whole second after the setting is cleared: the quiet second is what is checked' }],
  'test/integration/sidebar.test.ts': [{ line: 'setTimeout(r, 3_500)', why: 'GET /requests counted over a 3.5 s window while the view is visible and while hidden: the rate per window is the behaviour' }],
  'test/integration/watch.test.ts': [{ line: 'setTimeout(r, 4000)', why: 'a paused watch does not run: the window in which the unpaused watch would have run (it runs every few seconds in the test) is the behaviour' }],
  'test/integration/endpoints.test.ts': [{ line: 'setTimeout(r, 1500)', why: 'after a second reload nothing downloads again: the window in which the restored poller would start a second download is the behaviour' }],
  'test/integration/query.test.ts': [{ line: 'setTimeout(r, 1500)', why: "the JSON language service adds no diagnostic of its own: the window in which it would publish one is the behaviour (it sends no event when it has nothing)" }],
};

const SLEEPS = [
  // new Promise((r) => setTimeout(r, 500)): the timer resolves the promise and does nothing else
  /setTimeout\(\s*(?:r|res|resolve|done|wake)\s*,\s*([\d_]+)\s*\)/gu,
  /(?:\bsleep|\bdelay|\.waitForTimeout)\(\s*([\d_]+)\s*[,)]/gu,
];

interface Sleep {
  file: string;
  line: number;
  text: string;
  ms: number;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sourceFiles(join(dir, e.name)) : /\.(?:ts|mts|js|mjs)$/u.test(e.name) ? [join(dir, e.name)] : [],
  );
}

/** Every fixed sleep of MIN_MS or more in a text. */
function sleepsIn(file: string, text: string): Sleep[] {
  const found: Sleep[] = [];
  for (const [i, line] of text.split('\n').entries()) {
    for (const re of SLEEPS) {
      for (const m of line.matchAll(re)) {
        const ms = Number((m[1] ?? '').replace(/_/gu, ''));
        if (ms >= MIN_MS) found.push({ file, line: i + 1, text: line.trim(), ms });
      }
    }
  }
  return found;
}

const all = sourceFiles(join(root, 'test'))
  .filter((f) => !f.endsWith('noSleeps.test.ts'))
  .flatMap((f) => sleepsIn(relative(root, f).split('\\').join('/'), readFileSync(f, 'utf8')));

describe('no fixed sleeps in the tests', () => {
  it('finds the sleeps it is meant to find, and not a polling step or a timer that acts', () => {
    const text = ['await new Promise((r) => setTimeout(r, 1_500));', 'await page.waitForTimeout(300);', 'await sleep(2000, signal);', 'await new Promise((r) => setTimeout(r, 50));', 'setTimeout(() => ac.abort(), 300);'].join('\n');
    assert.deepEqual(sleepsIn('x.ts', text).map((s) => [s.line, s.ms]), [[1, 1500], [2, 300], [3, 2000]]);
  });

  it('none of 300 ms or more in test/unit, test/integration and test/e2e but where the window is the behaviour under test', () => {
    const bad = all.filter((s) => !(ALLOWED[s.file] ?? []).some((a) => s.text.includes(a.line)));
    assert.deepEqual(
      bad.map((s) => `${s.file}:${s.line} ${s.text}`),
      [],
      'wait on an event or a state instead (waitFor in integration, a promise the code under test resolves in unit, a locator\'s waitFor or a loop on what the page shows in e2e)',
    );
  });

  it('every allowance still matches a sleep and says why', () => {
    for (const [file, list] of Object.entries(ALLOWED)) {
      for (const a of list) {
        assert.ok(a.why.length > 40, `${file}: say why the sleep is the behaviour`);
        assert.ok(all.some((s) => s.file === file && s.text.includes(a.line)), `${file}: "${a.line}" is gone; take it off the list`);
      }
    }
  });
});
