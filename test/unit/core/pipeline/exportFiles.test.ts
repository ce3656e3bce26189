/**
 * Issue 30.7: Export Pipeline as Script wrote the `.py` and the GitHub workflow through links planted
 * in the repository (a link at the workflow's path replaced `~/.bashrc`; a dangling link read as
 * absent and its target was created with mode 755). Through src/core/pipeline/exportFiles.ts now:
 * refused, nothing written outside.
 */
import assert from 'node:assert/strict';
import { existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { scriptSlot, writeScript, writeWorkflow } from '../../../../src/core/pipeline/exportFiles';
import { UnsafePathError } from '../../../../src/core/files/writeInside';

let repo: string;
let home: string;
beforeEach(() => {
  repo = mkdtempSync(join(tmpdir(), 'wa-repo-'));
  home = mkdtempSync(join(tmpdir(), 'wa-home-'));
});
afterEach(() => {
  rmSync(repo, { recursive: true, force: true });
  rmSync(home, { recursive: true, force: true });
});
const unsafe = (e: unknown): boolean => e instanceof UnsafePathError;

describe('the exported files are never written through a planted link (30.7)', () => {
  it('a link at the workflow path (live, to ~/.bashrc) is refused and the file outside is unchanged', async () => {
    writeFileSync(join(home, '.bashrc'), 'alias ll=ls\n');
    mkdirSync(join(repo, '.github', 'workflows'), { recursive: true });
    symlinkSync(join(home, '.bashrc'), join(repo, '.github', 'workflows', 'wallet-analytics-x.yml'));
    await assert.rejects(writeWorkflow(repo, '.github/workflows/wallet-analytics-x.yml', 'run: $(evil)\n'), unsafe);
    assert.equal(readFileSync(join(home, '.bashrc'), 'utf8'), 'alias ll=ls\n');
  });

  it('a dangling link at the workflow path or at .github/workflows creates nothing outside', async () => {
    mkdirSync(join(repo, '.github'));
    symlinkSync(join(home, 'made-by-export'), join(repo, '.github', 'workflows'));
    await assert.rejects(writeWorkflow(repo, '.github/workflows/wallet-analytics-x.yml', 'x'), unsafe);
    assert.deepEqual(readdirSync(home), []);
  });

  it('a dangling link at the script is neither "absent" nor written through (no 755 file outside)', async () => {
    symlinkSync(join(home, 'payload'), join(repo, 'x.py'));
    assert.equal(await scriptSlot(repo, 'x.py'), 'refused');
    await assert.rejects(writeScript(repo, 'x.py', 'print(1)\n', false), unsafe);
    await assert.rejects(writeScript(repo, 'x.py', 'print(1)\n', true), unsafe);
    assert.equal(existsSync(join(home, 'payload')), false);
    assert.ok(lstatSync(join(repo, 'x.py')).isSymbolicLink());
  });

  it('a script and workflow are written (755) when nothing is planted, and rewritten over their own files', async () => {
    assert.equal(await scriptSlot(repo, 'x.py'), 'free');
    const py = await writeScript(repo, 'x.py', 'print(1)\n', false);
    if (process.platform !== 'win32') assert.equal(lstatSync(py).mode & 0o111, 0o111);
    assert.equal(await scriptSlot(repo, 'x.py'), 'file');
    await writeScript(repo, 'x.py', 'print(2)\n', true);
    assert.equal(readFileSync(py, 'utf8'), 'print(2)\n');
    await writeWorkflow(repo, '.github/workflows/w.yml', 'a');
    await writeWorkflow(repo, '.github/workflows/w.yml', 'b');
    assert.equal(readFileSync(join(repo, '.github', 'workflows', 'w.yml'), 'utf8'), 'b');
  });
});
