/**
 * Localisable code (issue 26): no string a person reads is written at a sink (a message, a picker's
 * label or placeholder, a webview element's text…: scripts/l10nScan.mjs lists them) without
 * l10n.t, and l10n/bundle.l10n.json, the English source a translation starts from, is current.
 * `npm run sync` (scripts/l10n.mjs) wraps new ones and rewrites the bundle.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, it } from 'node:test';
import { BUNDLE, bundleText, sourceFiles } from '../../../scripts/l10n.mjs';
import { scanSource, untranslatedComparisons } from '../../../scripts/l10nScan.mjs';

const root = ((): string => {
  for (let d = __dirname; dirname(d) !== d; d = dirname(d)) if (existsSync(join(d, 'package.nls.json'))) return d;
  throw new Error(`no package.nls.json above ${__dirname}`);
})();

describe('user-facing strings go through l10n.t', () => {
  const here = process.cwd();
  const inRoot = <T>(f: () => T): T => {
    process.chdir(root);
    try {
      return f();
    } finally {
      process.chdir(here);
    }
  };

  it('no literal a person reads at a sink in src/core, src/vscode, src/webview-ui or extension.ts', () => {
    const left = inRoot(() => sourceFiles().flatMap((f) => scanSource(f, readFileSync(f, 'utf8')).map((s) => `${f}:${s.line} ${s.text.slice(0, 90)}`)));
    assert.deepEqual(left, [], 'wrap them in l10n.t (npm run sync does it)');
  });

  it('compares a pick with the translation of what it showed, never with the English literal', () => {
    const left = inRoot(() => sourceFiles().flatMap((f) => untranslatedComparisons(f, readFileSync(f, 'utf8')).map((s) => `${f}:${s.line} ${s.text}`)));
    assert.deepEqual(left, [], 'in another language the pick is the translation: compare with l10n.t(…) (npm run sync does it)');
    const src = "const a = await w.showWarningMessage(l10n.t('Stop?'), l10n.t('Retry')); if (a === 'Retry') go(); switch (a) { case 'Retry': break; case 'Other': break; }";
    assert.deepEqual(untranslatedComparisons('x.ts', src).map((s) => s.text), ["'Retry'", "'Retry'"]);
  });

  it('sees each kind of sink, and leaves data, codicons and wrapped text alone', () => {
    const src = [
      "vscode.window.showWarningMessage('Not sent.', { modal: true, detail: `Costs ${n}` }, 'Retry');",
      "const q = { placeHolder: 'Choose a wallet', label: '$(key)', description: cond ? 'on' : 'off' };",
      "cell.textContent = value; header.textContent = 'Sort';",
      "el.setAttribute('aria-label', 'Close'); el.setAttribute('data-x', 'Not text');",
      "button('Apply', go); const t = new vscode.TreeItem('Requests');",
      "const ok = l10n.t('Done'); const d = { title: '' };",
    ].join('\n');
    assert.deepEqual(
      scanSource('x.ts', src).map((s) => s.text),
      ["'Not sent.'", '`Costs ${n}`', "'Retry'", "'Choose a wallet'", "'on'", "'off'", "'Sort'", "'Close'", "'Apply'", "'Requests'"],
    );
  });

  it('sees each kind of core sink (src/core: errors, messages, words returned), and leaves codes, logs, load-time data and wrapped text alone', () => {
    const src = [
      "const NOT_SENT = 'Nothing was sent.'; const RULE = 'A list of addresses.'; const KEY = 'walletAnalytics.baseUrl';",
      "export class GoneError extends WalletApiError { constructor(n: number) { super(`Gone after ${n} s. ${NOT_SENT}`, { charged: 'no' }); } }",
      "function f(e: Error) { if (!e) throw new UnzipError('zipSlip', 'The archive was refused.'); throw new RangeError(l10n.t('No row {0}.', 3)); }",
      "function g(x: number) { const held = x > 1 ? 'is used up' : l10n.t('has {0} left', x); return { kind: 'refuse', message: `Past your budget: it ${held}.`, setting: KEY, code: 'Over' }; }",
      "function resetWords(r: boolean) { return r ? 'as older calls leave' : l10n.t('at {0}', 1); }",
      'function validateList(xs: string[]) { return xs.map((x) => `${x} is required.`); }',
      "function h() { log.info('Started the table worker.'); return { problem: 'Free', text: `${1} ${2}` }; }",
      "const FIELD = { label: 'Tokens', message: 'A list of tokens.' }; const s = { spec: (() => ({ message: 'Script text.' }))() };",
    ].join('\n');
    assert.deepEqual(
      scanSource('src/core/x.ts', src).map((s) => s.text),
      ["'Nothing was sent.'", '`Gone after ${n} s. ${NOT_SENT}`', "'The archive was refused.'", "'is used up'", '`Past your budget: it ${held}.`', "'as older calls leave'", '`${x} is required.`', "'Free'"],
    );
  });

  it(`${BUNDLE} holds every l10n.t message (the English source), and only those`, () => {
    const want = inRoot(() => bundleText(sourceFiles()));
    assert.equal(readFileSync(join(root, BUNDLE), 'utf8'), want, 'stale: run npm run sync');
    assert.ok(Object.keys(JSON.parse(want) as object).length > 300);
  });
});
