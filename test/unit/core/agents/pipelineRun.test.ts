/**
 * Running a pipeline file for an agent, the part both hosts share (core/agents/pipelineRun.ts):
 * only a .wapipe.json inside the given folders is run, a link inside cannot lead outside; a plan
 * with a step above the per-call ceiling is refused whole; the chat's confirmation shows the plan's
 * lines and total, the balance after, the ceiling, each budget and the allowance, and the allowance
 * covers only a plan whose every line has a bound; each step is said as the agent reads it.
 */
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { pipelineFileInside, planCeilingRefusal, planPriceFacts, stepLine, stepOf } from '../../../../src/core/agents/pipelineRun';
import { allowanceState } from '../../../../src/core/money/agentAllowance';
import { budgetStates } from '../../../../src/core/money/budget';
import { planPipeline } from '../../../../src/core/pipeline/plan';
import { examplePipeline, serializePipeline, type PipelineFile } from '../../../../src/core/pipeline/format';
import { SAMPLE_QUERY } from '../../../../src/core/spec/samples';

const root = mkdtempSync(join(tmpdir(), 'wa-pipeline-run-'));
after(() => rmSync(root, { recursive: true, force: true }));

/** Trending (50) → top traders of its top 2 tokens (up to 200). */
const twoSteps: PipelineFile = {
  version: 1,
  cells: [
    { name: 'trending', call: 'trending', inputs: { hours: 1 } },
    { name: 'traders', call: 'toptraders', inputs: { tokens: { from: 'trending', top: 2 }, output: 'txt' } },
  ],
};

describe('agents: running a pipeline file, what every host shares', () => {
  it('runs only a .wapipe.json inside the folders: another name, a path outside, a link leading outside and a missing file are refused', async () => {
    const ws = join(root, 'ws');
    const out = join(root, 'elsewhere');
    mkdirSync(ws);
    mkdirSync(out);
    writeFileSync(join(ws, 'a.wapipe.json'), serializePipeline(examplePipeline()));
    writeFileSync(join(ws, 'notes.json'), '{}');
    writeFileSync(join(out, 'b.wapipe.json'), serializePipeline(examplePipeline()));
    symlinkSync(join(out, 'b.wapipe.json'), join(ws, 'link.wapipe.json'));
    const say = 'only inside ws';
    assert.deepEqual(await pipelineFileInside(join(ws, 'a.wapipe.json'), [ws], say), { path: join(ws, 'a.wapipe.json') });
    assert.deepEqual(await pipelineFileInside(join(ws, 'notes.json'), [ws], say), { refused: say });
    assert.deepEqual(await pipelineFileInside(join(out, 'b.wapipe.json'), [ws], say), { refused: say });
    assert.deepEqual(await pipelineFileInside(join(ws, '..', 'elsewhere', 'b.wapipe.json'), [ws], say), { refused: say });
    assert.deepEqual(await pipelineFileInside(join(ws, 'link.wapipe.json'), [ws], say), { refused: say }, 'a link inside cannot lead outside');
    assert.deepEqual(await pipelineFileInside(join(ws, 'a.wapipe.json'), [], say), { refused: say }, 'no folder: nothing is run');
    const missing = await pipelineFileInside(join(ws, 'none.wapipe.json'), [ws], say);
    assert.ok('refused' in missing && /No such pipeline file/u.test(missing.refused));
  });

  it('refuses a plan whole when a step may cost more than the ceiling, with its bound and the setting named', () => {
    const plan = planPipeline(twoSteps);
    assert.equal(planCeilingRefusal(plan, 200, 'ceiling-setting'), undefined);
    assert.equal(planCeilingRefusal(plan, 100, 'ceiling-setting'), 'Refused: a step may cost up to 200 credits, above the per-call ceiling of 100 credits (ceiling-setting).');
    const exact = planPipeline({ version: 1, cells: [{ name: 't', call: 'trending', inputs: { hours: 1 } }] });
    assert.equal(planCeilingRefusal(exact, 40, 'x'), 'Refused: a step may cost 50 credits, above the per-call ceiling of 40 credits (x).');
  });

  it('shows the plan’s lines and total, the balance after at worst, the ceiling, each budget and the allowance; covered only when the allowance leaves the whole total', () => {
    const plan = planPipeline(twoSteps);
    const now = Date.UTC(2026, 10, 27, 12);
    const budgets = budgetStates({ perDay: 1_000, perPeriod: 0 }, [], 'scope', now, undefined);
    const at = (perDay: number) => planPriceFacts(plan, { balance: 10_000, ceiling: 5_000, budgets, ...(perDay > 0 ? { allowance: allowanceState(perDay, [], 'scope', now) } : {}) });
    const f = at(300);
    assert.equal(f.covered, true);
    assert.deepEqual(f.lines.slice(0, 5), [
      'trending (trending): 50 credits',
      'traders (toptraders): up to 200 credits (at most 2 tokens × 100)',
      'Total: up to 250 credits',
      'Balance after: 9,750 at worst.',
      'The per-call ceiling: 5,000 credits.',
    ]);
    assert.match(f.lines[5] ?? '', /^Daily budget: 1,000 left of 1,000/u);
    assert.match(f.lines[6] ?? '', /^300 credits of the agent allowance left today/u);
    assert.equal(at(249).covered, false, 'past the allowance');
    assert.equal(at(0).covered, false, 'no allowance');
    const query = planPipeline({ version: 1, cells: [{ name: 'w', call: 'wallet_database', inputs: { query: SAMPLE_QUERY } }] });
    assert.equal(query.unbounded.length, 1);
    assert.equal(planPriceFacts(query, { ceiling: 5_000, budgets: [], allowance: allowanceState(1e9, [], 'scope', now) }).covered, false, 'a bill with no bound is never covered');
  });

  it('says each step as the agent reads it: charged, reused, a local step, refused before sending, failed, not run', () => {
    const plan = planPipeline(twoSteps);
    const record = (cell: string, credits: number) => ({ cell, resultPath: `/r/${cell}.csv`, credits, size: 3, at: '' });
    assert.equal(stepLine(stepOf({ kind: 'done', index: 0, cell: 'trending', record: record('trending', 50), reused: false }, false), plan), 'trending\tcharged 50 credits\t/r/trending.csv');
    assert.equal(stepLine(stepOf({ kind: 'done', index: 0, cell: 'trending', record: record('trending', 0), reused: true }, false), plan), 'trending\treused, free\t/r/trending.csv');
    assert.equal(stepLine(stepOf({ kind: 'done', index: 2, cell: 'top', record: record('top', 0), reused: false }, false), plan), 'top\tlocal step, free\t/r/top.csv');
    assert.equal(stepLine(stepOf({ kind: 'stopped', index: 1, cell: 'traders', message: 'Past your daily budget' }, true), plan), 'traders\trefused, nothing sent\tPast your daily budget');
    assert.equal(stepLine(stepOf({ kind: 'stopped', index: 1, cell: 'traders', message: 'boom' }, false), plan), 'traders\tfailed\tboom');
    assert.equal(stepLine({ name: 'pnl', outcome: 'skipped', text: '' }, plan), 'pnl\tnot run');
  });
});
