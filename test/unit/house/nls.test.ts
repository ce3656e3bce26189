/**
 * Localisable (issue 26): every string of package.json a person reads is a %key% of
 * package.nls.json (scripts/nlsPaths.mjs lists where they are; `npm run sync` moves new ones), and
 * package.nls.json holds nothing package.json does not use.
 */
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, it } from 'node:test';
import { userFacingStrings } from '../../../scripts/nlsPaths.mjs';
import { resolveNls } from '../localizedManifest';

const root = ((): string => {
  for (let d = __dirname; dirname(d) !== d; d = dirname(d)) if (existsSync(join(d, 'package.nls.json'))) return d;
  throw new Error(`no package.nls.json above ${__dirname}`);
})();
const pkg: unknown = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const nls = JSON.parse(readFileSync(join(root, 'package.nls.json'), 'utf8')) as Record<string, string>;

describe('package.json strings are localisable (package.nls.json)', () => {
  it('holds no literal string a person reads: each is a %key%', () => {
    const literals = userFacingStrings(pkg)
      .filter((s) => typeof s.get() === 'string' && !/^%[^%\s]+%$/u.test(String(s.get())))
      .map((s) => `${s.key}: ${String(s.get())}`);
    assert.deepEqual(literals, [], 'run `npm run sync` (scripts/nls.mjs) to move them to package.nls.json');
  });

  it('finds the literals it must move (the check is not empty)', () => {
    const sample = { displayName: 'X', contributes: { commands: [{ command: 'walletAnalytics.a', title: 'Do A', category: 'Wallet Analytics' }], views: { c: [{ id: 'v', name: 'Account' }] } } };
    assert.deepEqual(
      userFacingStrings(sample).map((s) => s.key),
      ['extension.displayName', 'command.a.title', 'command.category', 'view.v.name'],
    );
  });

  it('every %key% has its text, and every text is used', () => {
    assert.doesNotThrow(() => resolveNls(pkg, nls));
    const used = new Set(userFacingStrings(pkg).map((s) => s.key));
    assert.deepEqual(Object.keys(nls).filter((k) => !used.has(k)), [], 'keys package.json does not use');
    assert.ok(used.size > 100, `${used.size} strings`);
  });
});
