/**
 * The start-up sweep (issue 12): a crash's leftovers in the results folder (`.part` downloads,
 * extraction folders, sidecar temporaries) are removed once old; recent ones, results, and
 * anything not ours are kept.
 */
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readdir, rm, symlink, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { LEFTOVER_AGE_MS, sweepLeftovers } from '../../../../src/core/results/sweep';

let root: string;
before(async () => {
  root = await mkdtemp(join(tmpdir(), 'wa-sweep-'));
});
after(async () => {
  await rm(root, { recursive: true, force: true });
});

const NOW = Date.UTC(2026, 0, 15, 12, 0, 0);
const MIN = 60_000;

/** Sets a path's times to `ageMs` before NOW. */
async function age(path: string, ageMs: number): Promise<void> {
  const t = new Date(NOW - ageMs);
  await utimes(path, t, t);
}

async function file(dir: string, name: string, ageMs: number, text = 'x'): Promise<void> {
  await writeFile(join(dir, name), text);
  await age(join(dir, name), ageMs);
}

describe('sweepLeftovers', () => {
  it('removes old .part files, extraction folders and sidecar temporaries; keeps recent ones and every result', async () => {
    const dir = await mkdtemp(join(root, 'results-'));
    await file(dir, '.wa-download-0123456789ab.part', 60 * MIN, 'half a file');
    await file(dir, '.wa-download-ba9876543210.part', 1 * MIN, 'a download in progress');
    await mkdir(join(dir, '.wa-unzip-AbC123'));
    await file(join(dir, '.wa-unzip-AbC123'), 'a.csv', 30 * MIN);
    await age(join(dir, '.wa-unzip-AbC123'), 30 * MIN);
    await file(dir, 'toptraders-20260115-110000-r1.csv.meta.json.4242.1768474800000.tmp', 20 * MIN);
    await file(dir, 'creators-20260115-110000.json.4242.1768474800001.tmp', 20 * MIN);
    // A dead window's private download folder (resultWriter's claim), with its half-written .part.
    await mkdir(join(dir, '.wa-claim-pnl-20260115-110000-r3.csv-0a1b2c3d'));
    await file(join(dir, '.wa-claim-pnl-20260115-110000-r3.csv-0a1b2c3d'), '.wa-download-00ff.part', 40 * MIN);
    await age(join(dir, '.wa-claim-pnl-20260115-110000-r3.csv-0a1b2c3d'), 40 * MIN);
    // Results and their sidecars, however old, are never touched; nor is anything not ours.
    await file(dir, 'toptraders-20260115-110000-r1.csv', 24 * 60 * MIN);
    await file(dir, 'toptraders-20260115-110000-r1.csv.meta.json', 24 * 60 * MIN);
    await file(dir, 'notes.part', 24 * 60 * MIN);
    await file(dir, '.wa-download-NOTHEX.part', 24 * 60 * MIN);
    await mkdir(join(dir, 'trending-20260101-000000-r2'));
    await age(join(dir, 'trending-20260101-000000-r2'), 24 * 60 * MIN);

    const r = await sweepLeftovers(dir, { now: NOW });
    assert.deepEqual([...r.removed].sort(), ['.wa-claim-pnl-20260115-110000-r3.csv-0a1b2c3d', '.wa-download-0123456789ab.part', '.wa-unzip-AbC123', 'creators-20260115-110000.json.4242.1768474800001.tmp', 'toptraders-20260115-110000-r1.csv.meta.json.4242.1768474800000.tmp']);
    assert.deepEqual(r.recent, ['.wa-download-ba9876543210.part']);
    assert.deepEqual(r.failed, []);
    assert.deepEqual((await readdir(dir)).sort(), [
      '.wa-download-NOTHEX.part',
      '.wa-download-ba9876543210.part',
      'notes.part',
      'toptraders-20260115-110000-r1.csv',
      'toptraders-20260115-110000-r1.csv.meta.json',
      'trending-20260101-000000-r2',
    ]);
  });

  it('an old extraction folder whose file is still being written is kept (another window is extracting)', async () => {
    const dir = await mkdtemp(join(root, 'results-'));
    const tmp = join(dir, '.wa-unzip-Zz9999');
    await mkdir(join(tmp, 'tokens'), { recursive: true });
    await file(join(tmp, 'tokens'), 'big.csv', 10_000); // written 10 s ago
    await age(join(tmp, 'tokens'), 60 * MIN);
    await age(tmp, 60 * MIN);
    const r = await sweepLeftovers(dir, { now: NOW });
    assert.deepEqual(r.removed, []);
    assert.deepEqual(r.recent, ['.wa-unzip-Zz9999']);
  });

  it('the age is a bound: just under it is kept, at it removed; the default is a few minutes', async () => {
    assert.ok(LEFTOVER_AGE_MS >= 5 * MIN && LEFTOVER_AGE_MS <= 30 * MIN);
    const dir = await mkdtemp(join(root, 'results-'));
    await file(dir, '.wa-download-aaaa.part', LEFTOVER_AGE_MS - 5_000);
    await file(dir, '.wa-download-bbbb.part', LEFTOVER_AGE_MS + 5_000);
    const r = await sweepLeftovers(dir, { now: NOW });
    assert.deepEqual(r.removed, ['.wa-download-bbbb.part']);
    assert.deepEqual(r.recent, ['.wa-download-aaaa.part']);
    const sooner = await sweepLeftovers(dir, { now: NOW, olderThanMs: 1_000 });
    assert.deepEqual(sooner.removed, ['.wa-download-aaaa.part']);
  });

  it('a file from the future (the clock was set back) is kept', async () => {
    const dir = await mkdtemp(join(root, 'results-'));
    await file(dir, '.wa-download-cccc.part', -60 * MIN);
    const r = await sweepLeftovers(dir, { now: NOW });
    assert.deepEqual(r.removed, []);
    assert.deepEqual(r.recent, ['.wa-download-cccc.part']);
  });

  it('a symbolic link with a leftover’s name is neither followed nor removed', async () => {
    const dir = await mkdtemp(join(root, 'results-'));
    const elsewhere = await mkdtemp(join(root, 'precious-'));
    await file(elsewhere, 'keep.csv', 60 * MIN);
    await symlink(elsewhere, join(dir, '.wa-unzip-Link00'));
    const r = await sweepLeftovers(dir, { now: NOW });
    assert.deepEqual(r.removed, []);
    assert.deepEqual(await readdir(elsewhere), ['keep.csv']);
    assert.deepEqual(await readdir(dir), ['.wa-unzip-Link00']);
  });

  it('a missing folder has nothing to sweep, and that is no error', async () => {
    const r = await sweepLeftovers(join(root, 'never-made'), { now: NOW });
    assert.deepEqual(r, { removed: [], recent: [], failed: [] });
  });
});
