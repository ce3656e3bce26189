import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, it } from 'node:test';
import { endpointTable } from '../../../../src/core/manifest/docs';
import { commandsTable } from '../../../../scripts/commandsTable.mjs';

function repoRoot(): string {
  for (let d = __dirname; dirname(d) !== d; d = dirname(d)) if (existsSync(join(d, 'package.json'))) return d;
  throw new Error('no package.json');
}

describe('README', () => {
  it('carries the current endpoint table, with the parameter names from the catalog (run `npm run sync` if not)', () => {
    const readme = readFileSync(join(repoRoot(), 'README.md'), 'utf8');
    assert.ok(readme.includes(endpointTable()), 'README.md endpoint table is stale: run `npm run sync`');
  });

  it('lists every palette command with its title as the palette shows it (run `npm run sync` if not)', () => {
    const root = repoRoot();
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    const table = commandsTable(JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')), JSON.parse(readFileSync(join(root, 'package.nls.json'), 'utf8')) as Record<string, string>);
    assert.ok(table.includes('| Wallet Analytics: Set API Key |'), table.slice(0, 300));
    assert.ok(readme.includes(table), 'README.md command list is stale: run `npm run sync`');
  });
});
