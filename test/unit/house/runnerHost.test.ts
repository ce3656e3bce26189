/**
 * The command-line runner is a host, not a second implementation (issue 32): src/runner holds no
 * HTTP of its own (no fetch, no undici, no node:http/https/net), sends no call itself (no
 * `api.call`/`api.submit`), and reaches the network and the money checks only through the core's
 * flow: the unattended call flow and the one send (src/core/calls), the pipeline run
 * (src/core/pipeline/run.ts), the one poller and result writer, the spend ledger, and the owner of
 * approval. The Python runtime it replaced (an exported script that did the money path again, and
 * charged twice after a lost answer) is gone from src/.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, it } from 'node:test';

function repoRoot(): string {
  for (let d = __dirname; dirname(d) !== d; d = dirname(d)) if (statSync(join(d, 'package.json'), { throwIfNoEntry: false })?.isFile()) return d;
  throw new Error(`no package.json above ${__dirname}`);
}

describe('the runner stands on the core', () => {
  const root = repoRoot();
  const dir = join(root, 'src/runner');
  const files = readdirSync(dir).filter((f) => f.endsWith('.ts'));
  const text = (f: string): string => readFileSync(join(dir, f), 'utf8');
  const imports = (f: string): string[] => [...text(f).matchAll(/^import[^'"]*['"]([^'"]+)['"]/gmu)].map((m) => m[1] ?? '');

  it('has no HTTP of its own and sends no call itself', () => {
    for (const f of files) {
      assert.doesNotMatch(text(f), /\bfetch\s*\(|XMLHttpRequest|\bapi\.(call|submit)\s*\(/u, `${f} talks to the network itself`);
      for (const i of imports(f)) assert.ok(!/^(undici|node:(http|https|net|tls|dgram)|http|https|net)$/u.test(i), `${f} imports ${i}`);
    }
  });

  it('takes the call flow, the run, the poller, the download, the ledger and the approval from the core', () => {
    const all = files.flatMap((f) => imports(f).map((i) => `${f}: ${i}`));
    for (const [file, wanted] of [
      ['host.ts', '../core/calls/unattended'],
      ['host.ts', '../core/calls/reconcile'],
      ['host.ts', '../core/jobs/poller'],
      ['host.ts', '../core/results/resultWriter'],
      ['host.ts', '../core/money/spendLedger'],
      ['host.ts', '../core/money/ambiguousCalls'],
      ['runCommand.ts', '../core/pipeline/run'],
      ['runCommand.ts', '../core/money/approval'],
      // One call (what Copy as Code hands over to) is `run`'s pipeline run of one cell, under the owner's approval.
      ['callCommand.ts', '../core/pipeline/run'],
      ['callCommand.ts', '../core/money/approval'],
      ['watchCommand.ts', '../core/watch/changes'],
      ['watchCommand.ts', '../core/transport/webhook'],
    ]) {
      assert.ok(all.includes(`${file}: ${wanted}`), `${file} imports ${wanted}`);
    }
  });

  it('the Python runtime is gone from src/: no exported script does the money path again', () => {
    assert.equal(existsSync(join(root, 'src/core/pipeline/scriptRuntime.ts')), false);
    assert.equal(existsSync(join(root, 'src/core/pipeline/exportScript.ts')), false);
  });
});
