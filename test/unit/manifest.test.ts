import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, it } from 'node:test';
import { endpointCommands } from '../../src/core/manifest';
// ids.ts is a plain const map (no vscode import), so a node test may read it.
// eslint-disable-next-line no-restricted-imports
import { CommandIds } from '../../src/vscode/commands/ids';

/** The repository root: the nearest folder up from this file holding package.json. */
function repoRoot(): string {
  for (let d = __dirname; dirname(d) !== d; d = dirname(d)) if (existsSync(join(d, 'package.json'))) return d;
  throw new Error(`no package.json above ${__dirname}`);
}
const root = repoRoot();

interface Command {
  command: string;
  title: string;
  category?: string;
}
interface Manifest {
  main: string;
  activationEvents?: string[];
  contributes: { commands: Command[] };
}
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as Manifest;
const declared = manifest.contributes.commands;

/**
 * Commands package.json declares besides CommandIds, each list generated from data.
 * A feature that generates commands adds its list here (and `npm run sync` writes them).
 */
const generated: { name: string; commands: () => readonly Command[] }[] = [
  { name: 'endpoint commands (src/core/manifest.ts)', commands: endpointCommands },
];

describe('package.json manifest', () => {
  it('declares exactly the commands of CommandIds plus the generated ones, each once', () => {
    const expected = [...Object.values(CommandIds), ...generated.flatMap((g) => g.commands().map((c) => c.command))];
    const ids = declared.map((c) => c.command);
    assert.deepEqual(
      ids.filter((id, i) => ids.indexOf(id) !== i),
      [],
      'declared twice',
    );
    assert.deepEqual(
      expected.filter((id) => !ids.includes(id)),
      [],
      'missing from package.json contributes.commands (run `npm run sync` for generated ones)',
    );
    assert.deepEqual(
      ids.filter((id) => !expected.includes(id)),
      [],
      'in package.json but neither in CommandIds (src/vscode/commands/ids.ts) nor generated',
    );
  });

  for (const g of generated) {
    it(`carries the current titles of the ${g.name}`, () => {
      // Missing ones are reported by the test above; here, what differs in those present.
      const stale = g.commands().flatMap((want) => {
        const have = declared.find((d) => d.command === want.command);
        return have && (have.title !== want.title || have.category !== want.category)
          ? [`${want.command}: "${have.category}: ${have.title}" should be "${want.category}: ${want.title}"`]
          : [];
      });
      assert.deepEqual(stale, [], 'package.json is stale: run `npm run sync`');
    });
  }

  it('gives every command a title under the "Wallet Analytics" category', () => {
    for (const c of declared) {
      assert.ok(c.title.trim().length > 0, `${c.command} has no title`);
      assert.equal(c.category, 'Wallet Analytics', `${c.command} category`);
    }
  });

  it('never activates on "*" (nor on startup)', () => {
    const events = manifest.activationEvents ?? [];
    assert.ok(!events.includes('*'), `activationEvents: ${JSON.stringify(events)}`);
    assert.ok(!events.includes('onStartupFinished'), `activationEvents: ${JSON.stringify(events)}`);
  });

  it('packs only the bundles, media, package.json, README, CHANGELOG and LICENSE into the .vsix', () => {
    assert.ok(existsSync(join(root, 'dist', 'extension.js')), 'dist/extension.js is not built (node esbuild.mjs)');
    const vsce = join(root, 'node_modules', '.bin', 'vsce');
    const r = spawnSync(vsce, ['ls', '--no-dependencies'], { cwd: root, encoding: 'utf8', timeout: 60_000 });
    assert.equal(r.status, 0, `vsce ls failed: ${r.error?.message ?? ''}${r.stderr}`);
    const files = r.stdout.split('\n').map((l) => l.trim()).filter(Boolean);
    const allowed = [
      /^dist\/[\w.-]+\.js(\.map)?$/,
      /^media\/.+/,
      /^package\.json$/,
      /^README\.md$/,
      /^CHANGELOG\.md$/,
      /^LICENSE$/,
    ];
    assert.deepEqual(
      files.filter((f) => !allowed.some((a) => a.test(f))),
      [],
      'files in the .vsix that should not ship (see .vscodeignore)',
    );
    for (const must of ['package.json', 'README.md', 'CHANGELOG.md', 'LICENSE', manifest.main.replace(/^\.\//, '')]) {
      assert.ok(files.includes(must), `${must} is missing from the .vsix`);
    }
  });
});
