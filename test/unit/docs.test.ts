import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, it } from 'node:test';
import { endpointTable } from '../../src/core/docs';

function repoRoot(): string {
  for (let d = __dirname; dirname(d) !== d; d = dirname(d)) if (existsSync(join(d, 'package.json'))) return d;
  throw new Error('no package.json');
}

describe('README', () => {
  it('carries the current endpoint table, with the parameter names from the catalog (run `npm run sync` if not)', () => {
    const readme = readFileSync(join(repoRoot(), 'README.md'), 'utf8');
    assert.ok(readme.includes(endpointTable()), 'README.md endpoint table is stale: run `npm run sync`');
  });
});
