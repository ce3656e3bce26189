/**
 * Issue 35 item 3: a pipeline's results follow it through Save As. After saving under a new name,
 * every output was gone and the next Run All paid for the whole chain again; carried over, the plan
 * reuses every cell's result (free).
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { carryResults } from '../../../../src/core/pipeline/carry';
import { readRecord, resultsDirOf } from '../../../../src/core/pipeline/run';

describe('a pipeline’s results carried to its new name', () => {
  it('copies each record, rewrites a local step’s file to its copy, keeps a call’s result where it is, and carries a paid pending job', async () => {
    const root = mkdtempSync(join(tmpdir(), 'wa-carry-'));
    const results = join(root, 'results');
    mkdirSync(results);
    const from = resultsDirOf(join(root, 'old.wapipe.json'));
    const to = resultsDirOf(join(root, 'new.wapipe.json'));
    mkdirSync(from);
    const call = join(results, 'toptraders-20261127-140000.csv');
    writeFileSync(call, 'address\nA\n');
    writeFileSync(join(from, 'traders.json'), JSON.stringify({ cell: 'traders', endpointId: 'toptraders', resultPath: call, credits: 500, size: 1, at: '2026-11-27T14:00:00Z' }));
    writeFileSync(join(from, 'winners.txt'), 'A\n');
    writeFileSync(join(from, 'winners.json'), JSON.stringify({ cell: 'winners', resultPath: join(from, 'winners.txt'), credits: 0, size: 1, at: '2026-11-27T14:00:01Z' }));
    writeFileSync(join(from, 'pnl.pending.json'), JSON.stringify({ requestId: 'req_1' }));
    writeFileSync(join(from, 'gone.json'), JSON.stringify({ cell: 'gone', resultPath: join(root, 'nowhere.csv'), credits: 5, size: 1, at: '2026-11-27T14:00:02Z' }));

    const carried = await carryResults(from, to, [results]);
    assert.deepEqual(carried.sort(), ['pnl', 'traders', 'winners']);
    assert.equal((await readRecord(to, 'traders', [results]))?.resultPath, call, 'a call’s result stays in the results folder');
    const winners = await readRecord(to, 'winners', [results]);
    assert.equal(winners?.resultPath, join(to, 'winners.txt'), 'a local step’s file is copied beside the new name');
    assert.equal(readFileSync(join(to, 'winners.txt'), 'utf8'), 'A\n');
    assert.equal(JSON.parse(readFileSync(join(to, 'pnl.pending.json'), 'utf8')).requestId, 'req_1');
    assert.equal(await readRecord(to, 'gone', [results]), undefined, 'a record whose result is gone is not carried');
    assert.ok(await readRecord(from, 'winners', [results]), 'the old folder is left as it was');
    assert.deepEqual(await carryResults(from, to, [results]), [], 'never over what the new folder has');
  });
});
