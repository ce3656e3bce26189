/**
 * The first queries a newcomer runs: the file "New Wallet Database Query" creates and the one the
 * walkthrough shows. A Wallet Database bill follows the matches, whatever the limit (§4.2), so a
 * sample that matches a quarter of the wallets teaches the wrong habit and bills it: on the
 * sandbox's default data (what "Try the Sandbox" serves), each must match some wallets and at most
 * 1% of them.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { EXAMPLE_QUERY } from '../../../../src/core/query/example';
import { parseQueryFile } from '../../../../src/core/query/file';
import { DEFAULTS, startSandbox, type Sandbox } from '../../../../src/sandbox/index';

const root = join(__dirname, '..', '..', '..', '..', '..');

/** The walkthrough's query: the first ```jsonc block of its "query file" step. */
function walkthroughQuery(): string {
  const md = readFileSync(join(root, 'media', 'walkthrough', 'query-file.md'), 'utf8');
  const block = /```jsonc\n([\s\S]*?)```/u.exec(md)?.[1];
  assert.ok(block, 'query-file.md shows a query');
  return block;
}

describe('the sample queries a newcomer runs first', () => {
  let sb: Sandbox;
  before(async () => {
    sb = await startSandbox({ port: 0 });
  });
  after(() => sb.close());

  const matches = async (text: string): Promise<number> => {
    const parsed = parseQueryFile(text);
    assert.ok(parsed.ok, parsed.ok ? '' : parsed.errors.join('\n'));
    const r = await fetch(`${sb.baseUrl}/wallet_database`, { method: 'POST', headers: { api_key: sb.demoKey, 'content-type': 'application/json' }, body: JSON.stringify(parsed.body) });
    assert.equal(r.status, 200);
    return ((await r.json()) as { total: number }).total;
  };

  for (const [name, text] of [['New Wallet Database Query’s file', () => EXAMPLE_QUERY], ['the walkthrough’s query', walkthroughQuery]] as const) {
    it(`${name} matches some wallets and at most 1% of the sandbox's ${DEFAULTS.wallets.toLocaleString('en-US')}`, async () => {
      const total = await matches(text());
      assert.ok(total >= 1, `${name} matches nothing: a sample should show rows`);
      assert.ok(total <= DEFAULTS.wallets / 100, `${name} matches ${total} wallets, a bill of ${total * 100} credits for a first try`);
    });
  }
});
