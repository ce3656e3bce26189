/**
 * Saving a finished job's file, crashed between its steps (issue 12): the rename of the download,
 * the extraction of a zip and the sidecar are three steps, and a window can die between any two.
 * The resume finishes what is there; it never fetches a second copy named "-1".
 */
import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import * as yazl from 'yazl';
import { downloadFile } from '../../src/core/download';
import type { JobRecord } from '../../src/core/jobs/job';
import { resultFileName, saveResult, type SaveResultDeps } from '../../src/core/jobs/results';
import { extractZip } from '../../src/core/unzip';
import { startFixture, type Fixture } from './fixtures/httpFixture';

const CSV = Buffer.from('wallet,pnl\nSo111,12\n');
let ZIP: Buffer;
let f: Fixture;
let root: string;

function buildZip(): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  zip.addBuffer(Buffer.from('wallet,pnl\na,1\n'), 'So111.csv');
  zip.end();
  const chunks: Buffer[] = [];
  return new Promise((resolve, reject) => {
    zip.outputStream.on('data', (c: Buffer) => chunks.push(c));
    zip.outputStream.on('end', () => resolve(Buffer.concat(chunks)));
    zip.outputStream.on('error', reject);
  });
}

before(async () => {
  root = await mkdtemp(join(tmpdir(), 'wa-save-'));
  ZIP = await buildZip();
  f = await startFixture((h, res) => {
    const body = h.path.endsWith('.zip') ? ZIP : CSV;
    res.writeHead(200, { 'content-length': body.length });
    res.end(body);
  });
});
after(async () => {
  await f.close();
  await rm(root, { recursive: true, force: true });
});

function job(ext: 'csv' | 'zip'): JobRecord {
  return {
    requestId: `r-${ext}`,
    endpointId: ext === 'zip' ? 'earlybuyers' : 'trending',
    inputs: {},
    cost: 100,
    baseUrl: f.url,
    submittedAt: '2026-01-15T11:00:00.000Z',
    completedAt: '2026-01-15T11:01:00.000Z',
    state: 'downloading',
    url: `${f.url}/files/r.${ext}`,
  };
}

class Killed extends Error {}

/** The real download and extraction; `die` kills the run right after the named step succeeded. */
function deps(dir: string, j: JobRecord, ext: 'csv' | 'zip', die?: 'download' | 'extract'): SaveResultDeps {
  return {
    dir,
    ext,
    download: async (fileName) => {
      const got = await downloadFile(j.url ?? '', { destDir: dir, fileName });
      if (die === 'download') throw new Killed('killed after the rename');
      return got;
    },
    extract: async (zipPath, targetDir) => {
      const got = await extractZip(zipPath, { targetDir });
      if (die === 'extract') throw new Killed('killed after the extraction');
      return got;
    },
  };
}

describe('saveResult resumes a crashed save without a copy', () => {
  it('a csv renamed into place but with no sidecar: the resume writes the sidecar and fetches nothing', async () => {
    const dir = await mkdtemp(join(root, 'csv-'));
    const j = job('csv');
    const name = resultFileName(j, 'csv');
    await assert.rejects(saveResult(j, deps(dir, j, 'csv', 'download')), Killed);
    assert.deepEqual(await readdir(dir), [name]);
    const hits = f.hits.length;

    const r = await saveResult(j, deps(dir, j, 'csv'));
    assert.equal(r.resultPath, join(dir, name));
    assert.equal(f.hits.length, hits, 'the finished file is not fetched again');
    assert.deepEqual((await readdir(dir)).sort(), [name, `${name}.meta.json`], 'no "-1" copy beside it');
    const meta = JSON.parse(await readFile(join(dir, `${name}.meta.json`), 'utf8')) as Record<string, unknown>;
    assert.equal(meta.file, name);
    assert.equal(meta.bytes, CSV.length);
    assert.equal(meta.requestId, 'r-csv');
  });

  it('a zip renamed into place but not extracted: the resume extracts that zip and writes the sidecar', async () => {
    const dir = await mkdtemp(join(root, 'zip-'));
    const j = job('zip');
    const name = resultFileName(j, 'zip');
    const folder = name.replace(/\.zip$/u, '');
    await assert.rejects(saveResult(j, deps(dir, j, 'zip', 'download')), Killed);
    const hits = f.hits.length;

    const r = await saveResult(j, deps(dir, j, 'zip'));
    assert.equal(r.resultPath, join(dir, folder));
    assert.equal(f.hits.length, hits, 'the finished file is not fetched again');
    assert.deepEqual((await readdir(dir)).sort(), [folder, name, `${name}.meta.json`]);
    assert.deepEqual(await readdir(join(dir, folder)), ['So111.csv']);
  });

  it('a zip extracted but with no sidecar: the resume keeps that folder and writes the sidecar', async () => {
    const dir = await mkdtemp(join(root, 'zip-'));
    const j = job('zip');
    const name = resultFileName(j, 'zip');
    const folder = name.replace(/\.zip$/u, '');
    await assert.rejects(saveResult(j, deps(dir, j, 'zip', 'extract')), Killed);
    assert.deepEqual((await readdir(dir)).sort(), [folder, name]);
    const hits = f.hits.length;

    const r = await saveResult(j, deps(dir, j, 'zip'));
    assert.equal(r.resultPath, join(dir, folder));
    assert.equal(f.hits.length, hits, 'the finished file is not fetched again');
    assert.deepEqual((await readdir(dir)).sort(), [folder, name, `${name}.meta.json`]);
    const meta = JSON.parse(await readFile(join(dir, `${name}.meta.json`), 'utf8')) as Record<string, unknown>;
    assert.equal(meta.file, name);
    assert.equal(meta.bytes, ZIP.length);
  });

  it('a save that completed is not repeated', async () => {
    const dir = await mkdtemp(join(root, 'csv-'));
    const j = job('csv');
    await saveResult(j, deps(dir, j, 'csv'));
    const hits = f.hits.length;
    await saveResult(j, deps(dir, j, 'csv'));
    assert.equal(f.hits.length, hits);
    assert.equal((await readdir(dir)).length, 2);
  });
});
