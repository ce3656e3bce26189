/**
 * Pipelines (issue 24): the file format and its checks (unique names, no forward reference or
 * cycle), the plan (§8.4's example plans "up to 26,050"; exact once a result is on disk), and a run
 * against the in-process sandbox whose ledger must match the plan: 50 + 1,000 + 5 × the wallets
 * the top-traders step returned. A cell that would spend past its approved line stops the run
 * before anything is sent for it, and a second run reuses every result on disk for free.
 */
import assert from 'node:assert/strict';
import { readFileSync, unlinkSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { WalletAnalyticsApi } from '../../../../src/core/transport/api';
import { checkPipeline, examplePipeline, parsePipeline, serializePipeline, type PipelineFile } from '../../../../src/core/pipeline/format';
import { planPipeline } from '../../../../src/core/pipeline/plan';
import { isApproval } from '../../../../src/core/money/approval';
import { planOnDisk, readRecord, resultsDirOf, runPipeline, type CallCellFn } from '../../../../src/core/pipeline/run';
import type { Sandbox } from '../../../../src/sandbox/index';
import { approvalsOf, queuedCall, startPipelineSandbox, stopPipelineSandbox } from '../../pipelineSupport';

const workerFile = resolve(__dirname, '../../../../../dist/tableWorker.js');

describe('pipeline file', () => {
  it('round-trips the example as plain JSON with no result in it', () => {
    const text = serializePipeline(examplePipeline());
    assert.deepEqual(parsePipeline(text), examplePipeline());
    assert.deepEqual(checkPipeline(examplePipeline()), []);
    assert.ok(!/resultPath|credits|api_key/u.test(text));
  });

  it('refuses duplicate names, forward references, self references and unknown cells at the cell', () => {
    const f: PipelineFile = {
      version: 1,
      cells: [
        { name: 'a', take: { from: 'b' } },
        { name: 'b', take: { from: 'b' } },
        { name: 'b', call: 'pnl', inputs: { wallets: { from: 'nope', top: 5 } } },
      ],
    };
    const msgs = checkPipeline(f).map((p) => `${p.index}: ${p.message}`);
    assert.ok(msgs.some((m) => m.startsWith('0:') && m.includes('comes later')), msgs.join('\n'));
    assert.ok(msgs.some((m) => m.startsWith('1:') && m.includes('refers to itself')), msgs.join('\n'));
    assert.ok(msgs.some((m) => m.startsWith('2:') && m.includes('already used')), msgs.join('\n'));
    assert.ok(msgs.some((m) => m.startsWith('2:') && m.includes('no cell has that name')), msgs.join('\n'));
  });

  it("checks a call's fixed inputs with the catalog's schemas, but not the ones a reference fills", () => {
    const bad: PipelineFile = { version: 1, cells: [{ name: 't', call: 'trending', inputs: { hours: 99 } }, { name: 'x', call: 'toptraders', inputs: { tokens: { from: 't', top: 2 }, output: 'pdf' } }] };
    const msgs = checkPipeline(bad).map((p) => p.message);
    assert.equal(msgs.length, 2, msgs.join('\n'));
    assert.ok(msgs[0]?.startsWith('“t”: Hours'), msgs[0]);
    assert.ok(msgs[1]?.startsWith('“x”: Output'), msgs[1]);
  });
});

describe('pipeline plan', () => {
  it('plans §8.4’s example at “up to 26,050” from the bounds its cells set', () => {
    const plan = planPipeline(examplePipeline());
    assert.equal(plan.total, 26_050);
    assert.equal(plan.totalText, 'up to 26,050 credits');
    assert.deepEqual(plan.lines.map((l) => [l.cell, l.credits, l.exact]), [['trending', 50, true], ['traders', 1_000, false], ['pnl', 25_000, false]]);
    assert.equal(plan.lines[2]?.text, 'up to 25,000 credits (at most 5,000 wallets × 5)');
  });

  it('prices exactly what is on disk, reuses it for free, and refuses a reference with no bound', () => {
    const plan = planPipeline(examplePipeline(), { onDisk: new Map([['trending', 100], ['traders', 321]]) });
    assert.deepEqual(plan.lines.map((l) => [l.cell, l.credits, l.exact, l.reused]), [['trending', 0, true, true], ['traders', 0, true, true], ['pnl', 1_605, true, false]]);
    assert.equal(plan.totalText, '1,605 credits');
    const unbounded = planPipeline({ version: 1, cells: [{ name: 't', call: 'trending', inputs: {} }, { name: 'x', call: 'toptraders', inputs: { tokens: { from: 't' } } }] });
    assert.deepEqual(unbounded.unbounded, ['x']);
    assert.throws(() => approvalsOf(unbounded, { version: 1, cells: [] }), /no bound/u);
  });

  it('recognises only approvals it issued: a copy from command arguments is none', () => {
    const a = approvalsOf(planPipeline(examplePipeline()), examplePipeline()).get('pnl');
    assert.ok(a && isApproval(a));
    assert.equal(isApproval({ ...a }), false);
    assert.equal(isApproval(JSON.parse(JSON.stringify(a))), false);
  });
});

describe('pipeline run against the sandbox', () => {
  let sb: Sandbox;
  let api: WalletAnalyticsApi;
  let dir: string;
  before(async () => {
    ({ sb, api, dir } = await startPipelineSandbox('wa-pipe-'));
  });
  after(() => stopPipelineSandbox({ sb, api, dir }));

  /** A queued call sent, followed and downloaded: the bare API, standing in for the window's call flow. */
  const call: CallCellFn = (_cell, ep, input) => queuedCall(api, ep.id, input, join(dir, 'files'));
  /** Where the calls put their results: the one folder besides a pipeline's own its records may name. */
  const callsFolder = (): string[] => [join(dir, 'files')];
  const balance = (): Promise<number> => api.credits();

  it('charges exactly 50 + 1,000 + 5 × the wallets of the top-traders step, within the plan; a second run is free', async () => {
    const file = examplePipeline();
    const results = resultsDirOf(join(dir, 'example.wapipe.json'));
    const plan = await planOnDisk(file, results, undefined, undefined, Date.now, callsFolder());
    assert.equal(plan.totalText, 'up to 26,050 credits');
    const start = await balance();
    const summary = await runPipeline(file, { roots: callsFolder(), dir: results, plan, approvals: approvalsOf(plan, file), call, read: { workerFile } });
    assert.equal(summary.stopped, undefined, summary.stopped?.message);
    const traders = await readRecord(results, 'traders', callsFolder());
    const pnl = await readRecord(results, 'pnl', callsFolder());
    assert.ok(traders && pnl);
    const wallets = Math.min(traders.size, 5_000);
    assert.ok(wallets > 0);
    const charged = start - (await balance());
    assert.equal(charged, 50 + 1_000 + 5 * wallets);
    assert.equal(summary.charged, charged);
    assert.ok(charged <= plan.total);
    assert.equal(readFileSync(traders.resultPath, 'utf8').trim().split('\n').length, traders.size);
    // Again: every result on disk is reused; the plan is exact and free.
    const again = await planOnDisk(file, results, undefined, undefined, Date.now, callsFolder());
    assert.equal(again.total, 0);
    const second = await runPipeline(file, { roots: callsFolder(), dir: results, plan: again, approvals: approvalsOf(again, file), call, read: { workerFile } });
    assert.equal(second.charged, 0);
    assert.equal(await balance(), start - charged);
  });

  it('stops the run at a cell that would spend past its approved line; nothing is sent for it', async () => {
    const results = join(dir, 'over.results');
    const planned: PipelineFile = {
      version: 1,
      cells: [
        { name: 'trending', call: 'trending', inputs: { hours: 1 } },
        { name: 'traders', call: 'toptraders', inputs: { tokens: { from: 'trending', top: 3 }, output: 'txt' } },
      ],
    };
    const plan = planPipeline(planned);
    assert.equal(plan.total, 350);
    // The file changed after the plan was approved: 10 tokens now, 1,000 credits against a 300 line.
    const edited: PipelineFile = { ...planned, cells: [planned.cells[0] ?? '', { name: 'traders', call: 'toptraders', inputs: { tokens: { from: 'trending', top: 10 }, output: 'txt' } }] };
    const start = await balance();
    const summary = await runPipeline(edited, { roots: callsFolder(), dir: results, plan, approvals: approvalsOf(plan, planned), call, read: { workerFile } });
    assert.equal(summary.stopped?.cell, 'traders');
    assert.match(summary.stopped?.message ?? '', /would cost 1,000 credits, more than its approved line \(300 credits\)/u);
    assert.equal(start - (await balance()), 50);
    // A result reused in the plan that is gone by the run has no line: it stops, it is not paid for.
    unlinkSync((await readRecord(results, 'trending', callsFolder()))?.resultPath ?? '');
    const reusedPlan = planPipeline(planned, { onDisk: new Map([['trending', 100]]) });
    const s2 = await runPipeline(planned, { roots: callsFolder(), dir: results, plan: reusedPlan, approvals: approvalsOf(reusedPlan, planned), call, read: { workerFile } });
    assert.equal(s2.stopped?.cell, 'trending');
    assert.match(s2.stopped?.message ?? '', /not in the approved plan/u);
    assert.equal(start - (await balance()), 50);
  });
});

describe('pipeline cell output', () => {
  it('escapes every value from a result: no HTML, link or table break survives', async () => {
    const { summaryMarkdown } = await import('../../../../src/core/pipeline/output');
    const md = summaryMarkdown({ status: 'done', credits: 1_000, rows: 3, columns: ['wallet', 'a|b'], preview: [['<img src=x onerror=alert(1)>', '[x](javascript:alert(1))']] });
    assert.ok(md.startsWith('**done** · 1,000 credits charged · 3 rows'), md);
    assert.ok(!/(^|[^\\])<img/u.test(md) && !md.includes('](') && !md.includes('a|b'), md);
    assert.ok(md.includes('\\<img') && md.includes('a\\|b'), md);
  });

  it('a reused cell says it was free, with no credits charged (issue 35.13)', async () => {
    const { summaryMarkdown } = await import('../../../../src/core/pipeline/output');
    const md = summaryMarkdown({ status: 'reused from disk (free)', credits: 0, rows: 951, columns: [], preview: [] });
    assert.equal(md, '**reused from disk \\(free\\)** · 951 rows');
  });
});
