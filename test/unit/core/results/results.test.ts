/**
 * The results room (src/core/results/): what a result is called on disk, which parts it has,
 * which endpoint made a table file and which files share its extracted .zip, and setting a
 * result aside while it is downloaded again.
 */
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { addressFilesOf, exists, resultInfo, setAside, tableFileOf, tableFilesIn } from '../../../../src/core/results/files';
import { isZipItem } from '../../../../src/core/results/kinds';
import { saveNewResult } from '../../../../src/core/results/newResult';
import { nthName } from '../../../../src/core/files/naming';
import { directResultName, directResultStem, endpointFromName, isTableFile, partsOf, readableResultName, readableResultStem, sidecarOf, zipFolderOf } from '../../../../src/core/results/names';

describe('results: names', () => {
  it('names a direct result, a sidecar, a zip folder and every part of a result', () => {
    // Named like a queued job's result (issue 35 item 14): `<endpoint>-<yyyy-mm-dd-hhmm>`, local time.
    assert.equal(directResultStem('pnl', new Date('2026-11-21T10:15:00Z')), readableResultStem({ endpointId: 'pnl', submittedAt: '2026-11-21T10:15:00Z' }));
    assert.match(directResultStem('wallet_database', new Date('2026-11-21T10:15:00Z')), /^wallet_database-\d{4}-\d{2}-\d{2}-\d{4}$/u);
    assert.equal(sidecarOf('/r/a.csv'), '/r/a.csv.meta.json');
    assert.equal(zipFolderOf('/r/t-1.zip'), '/r/t-1');
    assert.deepEqual(partsOf('/r/t-1'), ['/r/t-1', '/r/t-1.meta.json', '/r/t-1.zip', '/r/t-1.zip.meta.json']);
  });

  it('tells table files from sidecars, and the endpoint from a result name (longest id first)', () => {
    assert.equal(isTableFile('a.csv'), true);
    assert.equal(isTableFile('a.csv.meta.json'), false);
    assert.equal(isTableFile('a.zip'), false);
    assert.equal(endpointFromName('/r/pnl-20261121-101500.json'), 'pnl');
    assert.equal(endpointFromName('/r/pnl-notastamp.json'), undefined);
    // Results named for people, and those named before (the request id in them), are both recognised.
    assert.equal(endpointFromName('/r/pnl-2026-11-21-1015.csv'), 'pnl');
    assert.equal(endpointFromName('/r/pnl-2026-11-21-1015-2.csv'), 'pnl');
    assert.equal(endpointFromName('/r/toptraders-2026-11-21-1015'), 'toptraders');
    assert.equal(endpointFromName('/r/pnl-20261122-080000-req_2.csv'), 'pnl');
    assert.equal(endpointFromName('/r/pnl-2026-11-21-10150.csv'), undefined);
  });

  it('names a job’s result for people: endpoint, local date and time of sending, -2 and on when taken', () => {
    const job = { endpointId: 'pnl', submittedAt: new Date(2026, 10, 22, 8, 0, 59).toISOString() };
    assert.equal(readableResultName(job, 'csv'), 'pnl-2026-11-22-0800.csv');
    assert.equal(readableResultName(job, 'csv', 2), 'pnl-2026-11-22-0800-2.csv');
    assert.equal(readableResultName({ ...job, endpointId: 'toptraders' }, 'zip', 3), 'toptraders-2026-11-22-0800-3.zip');
    assert.ok(readableResultName(job, 'csv', 2).startsWith(readableResultStem(job)));
  });

  it('knows a zip result by its URL, or by its endpoint and inputs before there is one', () => {
    assert.equal(isZipItem({ status: 'done', url: 'https://x/f.zip?sig=1', endpointId: 'pnl', inputs: {} }), true);
    assert.equal(isZipItem({ status: 'done', endpointId: 'toptraders', inputs: { output: 'txt' } }), false);
    assert.equal(isZipItem({ status: 'done', endpointId: 'toptraders', inputs: {} }), true);
    assert.equal(isZipItem({ status: 'running', endpointId: 'earlybuyers', inputs: {} }), false);
  });
});

describe('results: on disk', () => {
  let dir = '';
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'wa-results-'));
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('lists a zip folder CSV first, finds its endpoint in the zip sidecar, and its address files', async () => {
    const zipDir = join(dir, 'toptraders-20261121-101500-r1');
    await mkdir(join(zipDir, 'sub'), { recursive: true });
    await writeFile(`${zipDir}.zip`, '');
    await writeFile(`${zipDir}.zip.meta.json`, JSON.stringify({ endpoint: 'earlybuyers' }));
    for (const f of ['b.txt', 'a.json', 'c.csv', 'x.csv.meta.json', 'sub/d.csv']) await writeFile(join(zipDir, f), 'x\n');
    assert.deepEqual(await tableFilesIn(zipDir), ['c.csv', 'sub/d.csv', 'b.txt', 'a.json'].map((f) => join(zipDir, f)));
    const info = await resultInfo(join(zipDir, 'b.txt'));
    assert.equal(info.endpoint, 'earlybuyers');
    assert.equal(info.files.length, 4);
    assert.equal(await tableFileOf(zipDir), join(zipDir, 'c.csv'));
    assert.deepEqual(await addressFilesOf(zipDir), ['b.txt', 'c.csv'].map((f) => join(zipDir, f)));
    assert.equal(nthName('toptraders-20261121-101500-r1.zip', 2), 'toptraders-20261121-101500-r1-2.zip');
  });

  it('sets every part of a result aside, then puts it back or drops it', async () => {
    const file = join(dir, 'pnl-20261121-101500-r2.csv');
    await writeFile(file, 'old\n');
    await writeFile(sidecarOf(file), '{}');
    const kept = await setAside(file);
    assert.equal(await exists(file), false);
    await writeFile(file, 'half\n');
    await kept.restore();
    assert.equal(await readFile(file, 'utf8'), 'old\n');
    assert.equal(await exists(sidecarOf(file)), true);
    const dropped = await setAside(file);
    await dropped.drop();
    assert.deepEqual((await readdir(dir)).filter((n) => n.startsWith('pnl-')), []);
  });

  it('never replaces a paid direct result: two saves of one endpoint in the same second keep both, whole, under -2', async () => {
    const sub = join(dir, 'same-second');
    await mkdir(sub, { recursive: true });
    const now = new Date('2026-11-26T01:16:12Z');
    const first = JSON.stringify({ total: 1, wallets: ['a'] });
    const second = JSON.stringify({ total: 2, wallets: ['b', 'c'] });
    // Two windows at once, then a third call later in the same second.
    const save = (text: string) => saveNewResult(sub, (i) => directResultName('wallet_database', now, i), text);
    const [a, b] = await Promise.all([save(first), save(second)]);
    const c = await save('third');
    const stem = readableResultStem({ endpointId: 'wallet_database', submittedAt: now.toISOString() });
    const names = [`${stem}-2.json`, `${stem}-3.json`, `${stem}.json`];
    assert.deepEqual([a, b, c].map((f) => f.slice(sub.length + 1)).sort(), names);
    assert.deepEqual([await readFile(a, 'utf8'), await readFile(b, 'utf8'), await readFile(c, 'utf8')], [first, second, 'third']);
    // Nothing else is left in the folder: no temp file, no lock.
    assert.deepEqual((await readdir(sub)).sort(), names);
    assert.equal(endpointFromName(b), 'wallet_database');
  });
});
