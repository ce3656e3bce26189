/**
 * Pipelines priced against the sandbox's own charges (issue 24): for several chains, the plan's
 * lines and total are compared with what the in-process sandbox wrote in its ledger for the run.
 * The chains: §8.4's example as shipped; the same chain with its last step at 5,000 wallets (26,050
 * exactly); a chain through take, filter and sets steps; a Wallet Database chain, whose answer of
 * this hour opens free by the query files' rule (QueryRunCache) and is refused as unbounded when
 * no answer counts its matches. Also: a cell past its approved line stops the run and nothing more
 * is sent; Cancel between and inside steps keeps what was paid; refresh sends exactly one cell again.
 * Each chain's plan text and charge is printed (the plan-versus-charge table of the note).
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { WalletAnalyticsApi } from '../../../../src/core/transport/api';
import { downloadFrom } from '../../../../src/core/results/download';
import { endpoint, type Endpoint } from '../../../../src/core/spec/catalog';
import { examplePipeline, type PipelineFile } from '../../../../src/core/pipeline/format';
import { columnFilterOf, filterResult } from '../../../../src/core/pipeline/filter';
import { RemoteTable } from '../../../../src/core/table/remoteTable';
import { planPipeline, planText, type Plan } from '../../../../src/core/pipeline/plan';
import { planOnDisk, readRecord, runPipeline, type CallCellFn, type LastAnswer } from '../../../../src/core/pipeline/run';
import type { QueryBody } from '../../../../src/core/spec/queryModel';
import { QueryRunCache } from '../../../../src/core/query/runCache';
import { startSandbox, type Sandbox } from '../../../../src/sandbox/index';
import { approvalsOf, queuedCall } from '../../pipelineSupport';

const workerFile = resolve(__dirname, '../../../../../dist/tableWorker.js');
const read = { workerFile };
const HOUR = 3_600_000;

/** The plan-versus-charge table, printed at the end. */
const table: string[] = [];

describe('pipeline plans against the sandbox ledger', () => {
  let sb: Sandbox;
  let api: WalletAnalyticsApi;
  let dir: string;
  let runs: QueryRunCache;
  // One clock for the sandbox's hourly refresh and the query-run cache: 20 minutes into an hour.
  let now = Math.floor(Date.now() / HOUR) * HOUR + 20 * 60_000;
  const clock = (): number => now;
  /** Where the calls put their results: the one folder besides a pipeline's own its records may name. */
  const callsFolder = (): string[] => [join(dir, 'files')];

  before(async () => {
    sb = await startSandbox({ seed: 7, wallets: 12_000, altWallets: 200, delayScale: 0.001, now: clock });
    api = new WalletAnalyticsApi({ baseUrl: sb.baseUrl, apiKey: () => Promise.resolve(sb.demoKey) });
    dir = mkdtempSync(join(tmpdir(), 'wa-pipe-charges-'));
    runs = new QueryRunCache(join(dir, 'query-runs'), clock);
  });
  after(async () => {
    await sb.close();
    rmSync(dir, { recursive: true, force: true });
    console.log(['', 'Plan versus sandbox charge:', ...table].join('\n'));
  });

  const lastAnswer: LastAnswer = (ep, body) => runs.lookup(sb.baseUrl, ep.chain, body);

  /** A direct call (a Wallet Database query) as the call flow sends it: its answer saved and its match count recorded for the hour. */
  async function direct(ep: Endpoint, input: Record<string, unknown>): Promise<{ credits: number; resultPath: string }> {
    const sentAt = clock();
    const r = await api.call(ep.id, input);
    await mkdir(join(dir, 'files'), { recursive: true });
    const file = join(dir, 'files', `${ep.id}-${sentAt}-${Math.random().toString(36).slice(2)}.json`);
    await writeFile(file, JSON.stringify(r.value));
    const total = (r.value as { total: number }).total;
    await runs.record({ scope: sb.baseUrl, chain: ep.chain, at: sentAt, total, charged: r.charged, resultPath: file, body: input.query as QueryBody, answer: r.value });
    return { credits: r.charged, resultPath: file };
  }

  /** The bare API standing in for the window's call flow: queued calls followed and downloaded, direct ones saved. */
  const sent: string[] = [];
  const call: CallCellFn = async (cell, ep, input) => {
    sent.push(cell.name);
    if (ep.family !== 'queued') return { status: 'done', ...(await direct(ep, input)) };
    return queuedCall(api, ep.id, input, join(dir, 'files'));
  };

  /** Runs `file` under its own plan; returns the plan and what the sandbox's ledger charged during the run. */
  async function planAndRun(name: string, file: PipelineFile, results: string, opts: { refresh?: ReadonlySet<string> } = {}): Promise<{ plan: Plan; charged: number; byEndpoint: Map<string, number> }> {
    const plan = await planOnDisk(file, results, opts.refresh, lastAnswer, clock, callsFolder());
    assert.deepEqual(plan.unbounded, [], planText(plan).join('\n'));
    const since = sb.ledger().length;
    const summary = await runPipeline(file, { roots: callsFolder(), dir: results, plan, approvals: approvalsOf(plan, file), call, read, lastAnswer, now: clock, ...(opts.refresh ? { refresh: opts.refresh } : {}) });
    assert.equal(summary.stopped, undefined, summary.stopped?.message);
    const entries = sb.ledger().slice(since);
    const charged = entries.reduce((s, e) => s + e.credits, 0);
    const byEndpoint = new Map<string, number>();
    for (const e of entries) byEndpoint.set(e.endpoint, (byEndpoint.get(e.endpoint) ?? 0) + e.credits);
    assert.equal(summary.charged, charged, 'the run counts what the sandbox charged');
    assert.ok(charged <= plan.total, `charged ${charged} within the plan's ${plan.total}`);
    if (plan.exact) assert.equal(charged, plan.total, 'an exact plan is what is charged');
    table.push(`| ${name} | ${planText(plan).join('; ')} | ${charged.toLocaleString('en-US')} |`);
    return { plan, charged, byEndpoint };
  }

  /** A query that matches at least `n` of the sandbox's wallets (every wallet with a swap count). */
  const broad: QueryBody = { where: { and: [{ field: 'trade_count_all', op: '>=', value: 0 }] }, limit: 6_000 };

  it('§8.4 as shipped: up to 26,050 planned; charged 50 + 1,000 + 5 × the wallets its top traders gave', async () => {
    const results = join(dir, 'example.results');
    const { plan, charged } = await planAndRun('§8.4 example as shipped', examplePipeline(), results);
    assert.equal(plan.totalText, 'up to 26,050 credits');
    const traders = await readRecord(results, 'traders', callsFolder());
    assert.ok(traders && traders.size > 0);
    assert.equal(charged, 50 + 1_000 + 5 * Math.min(traders.size, 5_000));
  });

  it('§8.4 with its last step at 5,000 wallets: planned up to 26,050, charged exactly 26,050', async () => {
    // Top traders give at most 100 wallets a token; the 5,000 come from a Wallet Database answer of this hour, which opens free.
    const own = await direct(endpoint('wallet_database'), { query: broad });
    assert.ok(own.credits >= 500_000, `the query matched ${own.credits / 100} wallets`);
    const file: PipelineFile = {
      version: 1,
      cells: [
        ...examplePipeline().cells.slice(0, 2),
        { name: 'crowd', call: 'wallet_database', inputs: { query: broad } },
        { name: 'all', sets: { op: 'union', of: ['traders', 'crowd'] } },
        { name: 'pnl', call: 'pnl', inputs: { wallets: { from: 'all', top: 5_000 } } },
      ],
    };
    const results = join(dir, 'at5000.results');
    const { plan, charged, byEndpoint } = await planAndRun('§8.4 at 5,000 wallets (traders ∪ a free Wallet Database answer)', file, results);
    assert.equal(plan.totalText, 'up to 26,050 credits');
    assert.match(plan.lines.find((l) => l.cell === 'crowd')?.text ?? '', /^free: the same query's answer from /u);
    assert.equal(charged, 26_050);
    assert.deepEqual([...byEndpoint], [['trending', 50], ['toptraders', 1_000], ['pnl', 25_000]]);
  });

  it('a chain through take, filter and sets: the plan bounds every step; the sandbox charges what the lists held', async () => {
    const file: PipelineFile = {
      version: 1,
      cells: [
        { name: 'trending', call: 'trending', inputs: { hours: 1 } },
        { name: 'traders', call: 'toptraders', inputs: { tokens: { from: 'trending', top: 3 }, output: 'txt' } },
        { name: 'wide', call: 'toptraders', inputs: { tokens: { from: 'trending', top: 5 }, output: 'txt' } },
        { name: 'fresh', sets: { op: 'subtract', of: ['wide', 'traders'] } },
        { name: 'pnl', call: 'pnl', inputs: { wallets: { from: 'fresh', top: 300 } } },
        { name: 'winners', filter: { from: 'pnl', where: [{ column: 'realized_pnl_usd_30d', op: '>=', value: 0 }] } },
        { name: 'best', take: { from: 'winners', column: 'address', top: 40, by: 'realized_pnl_usd_30d' } },
        { name: 'again', call: 'pnl', inputs: { wallets: { from: 'best' } } },
      ],
    };
    const results = join(dir, 'local.results');
    const { plan, charged } = await planAndRun('take, filter and sets', file, results);
    assert.equal(plan.totalText, 'up to 2,550 credits');
    assert.equal(plan.lines.find((l) => l.cell === 'again')?.text, 'up to 200 credits (at most 40 wallets × 5)');
    const pnl = await readRecord(results, 'pnl', callsFolder());
    const best = await readRecord(results, 'best', callsFolder());
    const winners = await readRecord(results, 'winners', callsFolder());
    assert.ok(pnl && best && winners);
    assert.equal(charged, 50 + 300 + 500 + 5 * pnl.size + 5 * best.size);
    // The filter kept exactly the rows the table's filter keeps: every kept row passes, and none that passes is missing.
    const rows = (f: string): string[][] => readFileSync(f, 'utf8').trim().split('\n').map((l) => l.split(','));
    const [head = [], ...all] = rows(pnl.resultPath);
    const col = head.indexOf('realized_pnl_usd_30d');
    const [, ...kept] = rows(winners.resultPath);
    assert.equal(kept.length, all.filter((r) => r[col] !== '' && Number(r[col]) >= 0).length);
    assert.ok(kept.length > 0 && kept.length < all.length, `${kept.length} of ${all.length} kept`);
  });

  it('a Wallet Database chain: unbounded with no answer this hour; run alone; then free within the hour, exact when refreshed', async () => {
    const query: QueryBody = { where: { and: [{ field: 'realized_pnl_usd_30d', op: '>=', value: 20_000 }] }, limit: 500 };
    const file: PipelineFile = {
      version: 1,
      cells: [
        { name: 'whales', call: 'wallet_database', inputs: { query } },
        { name: 'pnl', call: 'pnl', inputs: { wallets: { from: 'whales' } } },
      ],
    };
    const results = join(dir, 'wdb.results');
    // 1. No answer this hour: the plan has no bound and says what to do; Run All cannot be approved.
    const first = await planOnDisk(file, results, undefined, lastAnswer, clock, callsFolder());
    assert.deepEqual(first.unbounded, ['whales']);
    assert.match(first.lines[0]?.text ?? '', /no bound: .*Run this cell alone/u);
    assert.equal(first.lines[1]?.text, 'up to 2,500 credits (at most 500 wallets × 5)', 'the limit bounds the wallets a later step gets');
    assert.throws(() => approvalsOf(first, file), /no bound/u);
    table.push(`| Wallet Database, no answer this hour | ${planText(first).join('; ')} | refused, 0 |`);
    // 2. Run alone (the call flow asks its price as for one query): charged per match.
    let since = sb.ledger().length;
    const alone = await runPipeline(file, { roots: callsFolder(), dir: results, plan: first, approvals: new Map(), call, read, lastAnswer, now: clock, only: new Set([0]), askAlone: new Set(['whales']) });
    assert.equal(alone.stopped, undefined, alone.stopped?.message);
    const whales = await readRecord(results, 'whales', callsFolder());
    const answer = await runs.lookup(sb.baseUrl, 'main', query);
    assert.ok(whales && answer && answer.total > 0);
    const alonePaid = sb.ledger().slice(since).reduce((s, e) => s + e.credits, 0);
    assert.equal(alonePaid, 100 * answer.total);
    table.push(`| Wallet Database cell run alone | (its price asked as one query) | ${alonePaid.toLocaleString('en-US')} |`);
    // 3. Within the hour, with the cell's own record gone, its answer opens free by the query files' rule; pnl is exact.
    rmSync(join(results, 'whales.json'));
    const { plan, charged } = await planAndRun('Wallet Database answer of this hour → pnl', file, results);
    assert.equal(plan.exact, true);
    assert.equal(plan.lines[0]?.credits, 0);
    assert.equal(charged, 5 * Math.min(answer.total, 500));
    // 4. Refreshed within the hour: the match count prices it exactly, and that is what is charged.
    const again = await planAndRun('Wallet Database refreshed within the hour', file, results, { refresh: new Set(['whales']) });
    assert.equal(again.plan.lines[0]?.text.startsWith(`${(100 * answer.total).toLocaleString('en-US')} credits (${answer.total.toLocaleString('en-US')} matching wallets × 100, from the same query at`), true, again.plan.lines[0]?.text);
    assert.equal(again.charged, 100 * answer.total);
    // 5. After the hourly refresh the count is stale: refreshed again, the line has no bound.
    now += HOUR;
    const stale = await planOnDisk(file, results, new Set(['whales']), lastAnswer, clock);
    assert.deepEqual(stale.unbounded, ['whales']);
    since = sb.ledger().length;
    assert.equal(sb.ledger().length, since);
  });

  it('a cell past its approved line stops the run; nothing more is sent, later cells included', async () => {
    const planned: PipelineFile = {
      version: 1,
      cells: [
        { name: 'trending', call: 'trending', inputs: { hours: 1 } },
        { name: 'traders', call: 'toptraders', inputs: { tokens: { from: 'trending', top: 2 }, output: 'txt' } },
        { name: 'pnl', call: 'pnl', inputs: { wallets: { from: 'traders', top: 10 } } },
      ],
    };
    const plan = planPipeline(planned);
    const edited: PipelineFile = { ...planned, cells: [planned.cells[0] ?? '', { name: 'traders', call: 'toptraders', inputs: { tokens: { from: 'trending', top: 4 }, output: 'txt' } }, planned.cells[2] ?? ''] };
    const since = sb.ledger().length;
    sent.length = 0;
    const s = await runPipeline(edited, { roots: callsFolder(), dir: join(dir, 'over.results'), plan, approvals: approvalsOf(plan, planned), call, read });
    assert.equal(s.stopped?.cell, 'traders');
    assert.match(s.stopped?.message ?? '', /would cost 400 credits, more than its approved line \(200 credits\)/u);
    assert.deepEqual(sent, ['trending']);
    assert.deepEqual(sb.ledger().slice(since).map((e) => [e.endpoint, e.credits]), [['trending', 50]]);
    table.push(`| over its line (plan ${plan.totalText}, toptraders edited to 4 tokens) | stopped at traders: 400 > 200 | 50 |`);
  });

  it('Cancel between steps and inside a step keeps what was paid and sends nothing more', async () => {
    const file: PipelineFile = {
      version: 1,
      cells: [
        { name: 'trending', call: 'trending', inputs: { hours: 1 } },
        { name: 'traders', call: 'toptraders', inputs: { tokens: { from: 'trending', top: 1 }, output: 'txt' } },
        { name: 'pnl', call: 'pnl', inputs: { wallets: { from: 'traders', top: 10 } } },
      ],
    };
    // Between steps: cancelled once the first cell is done.
    const results = join(dir, 'cancel.results');
    const plan = planPipeline(file);
    let abort = new AbortController();
    let since = sb.ledger().length;
    sent.length = 0;
    const between = await runPipeline(file, { roots: callsFolder(), dir: results, plan, approvals: approvalsOf(plan, file), call, read, signal: abort.signal, onEvent: (e) => e.kind === 'done' && abort.abort() });
    assert.equal(between.stopped?.cell, 'traders');
    assert.match(between.stopped?.message ?? '', /^Cancelled/u);
    assert.deepEqual(sent, ['trending']);
    assert.equal(between.charged, 50);
    assert.equal(sb.ledger().slice(since).reduce((s, e) => s + e.credits, 0), 50);
    assert.ok(await readRecord(results, 'trending', callsFolder()), 'what was paid for is kept on disk');
    // Inside a step: the call is under way when Cancel comes; it was paid, so its credits are counted, and nothing after it is sent.
    abort = new AbortController();
    since = sb.ledger().length;
    sent.length = 0;
    const inside: CallCellFn = async (cell, ep, input, approval) => {
      if (cell.name !== 'traders') return call(cell, ep, input, approval);
      sent.push(cell.name);
      const ack = await api.submit(ep.id, input);
      abort.abort();
      return { status: 'stopped', message: 'Cancelled while Top Traders ran; the job was paid and goes on.', credits: 100, requestId: ack.requestId };
    };
    const again = planPipeline(file, { onDisk: new Map([['trending', 1]]) });
    const s = await runPipeline(file, { roots: callsFolder(), dir: results, plan: again, approvals: approvalsOf(again, file), call: inside, read, signal: abort.signal });
    assert.equal(s.stopped?.cell, 'traders');
    assert.equal(s.charged, 100);
    assert.deepEqual(sent, ['traders']);
    assert.deepEqual(sb.ledger().slice(since).map((e) => [e.endpoint, e.credits]), [['toptraders', 100]]);
    assert.ok(await readRecord(results, 'trending', callsFolder()), 'the earlier result is still on disk');
    // The next run adopts the job that was paid for: the plan says so, nothing is sent for it, only pnl is charged.
    const adopt = async (requestId: string): Promise<{ resultPath: string } | undefined> => {
      for (;;) {
        const rec = await api.request(requestId);
        if (rec.status === 'failed') return undefined;
        if (rec.url) return { resultPath: (await downloadFrom(api, rec.url, join(dir, 'files'))).path };
        await new Promise((r) => setTimeout(r, 20));
      }
    };
    const resumed = await planOnDisk(file, results, undefined, undefined, Date.now, callsFolder());
    assert.match(resumed.lines.find((l) => l.cell === 'traders')?.text ?? '', /^already paid \(req_\w+, cancelled while it ran\): its result is awaited, free$/u);
    assert.equal(resumed.totalText, 'up to 50 credits');
    since = sb.ledger().length;
    sent.length = 0;
    const s2 = await runPipeline(file, { roots: callsFolder(), dir: results, plan: resumed, approvals: approvalsOf(resumed, file), call, read, adopt });
    assert.equal(s2.stopped, undefined, s2.stopped?.message);
    assert.deepEqual(sent, ['pnl']);
    const traders = await readRecord(results, 'traders', callsFolder());
    assert.ok(traders && traders.credits === 0 && traders.size > 0);
    assert.deepEqual(sb.ledger().slice(since).map((e) => [e.endpoint, e.credits]), [['pnl', 5 * Math.min(10, traders.size)]]);
    table.push(`| cancelled inside toptraders, then Run All again | ${planText(resumed).join('; ')} | ${(5 * Math.min(10, traders.size)).toLocaleString('en-US')} (the paid job adopted) |`);
    // Inside a local step: Cancel while a filter reads its source in the table worker; it ends there, nothing after it runs.
    const local: PipelineFile = { version: 1, cells: [file.cells[0] ?? '', { name: 'some', filter: { from: 'trending', where: [{ column: 'token', op: 'nonEmpty' }] } }, { name: 'pnl', call: 'pnl', inputs: { wallets: { from: 'some', top: 3 } } }] };
    abort = new AbortController();
    since = sb.ledger().length;
    sent.length = 0;
    const localPlan = planPipeline(local, { onDisk: new Map([['trending', 1]]) });
    const s3 = await runPipeline(local, { roots: callsFolder(), dir: results, plan: localPlan, approvals: approvalsOf(localPlan, local), call, read, signal: abort.signal, onEvent: (e) => e.kind === 'running' && e.cell === 'some' && abort.abort() });
    assert.equal(s3.stopped?.cell, 'some');
    assert.match(s3.stopped?.message ?? '', /^Cancelled while this cell ran/u);
    assert.equal(await readRecord(results, 'some', callsFolder()), undefined);
    assert.deepEqual(sent, []);
    assert.equal(sb.ledger().length, since);
  });

  it('Run All reuses every result on disk; a refreshed cell alone is sent again, at its exact line', async () => {
    const results = join(dir, 'example.results');
    const reused = await planAndRun('§8.4 example again (all on disk)', examplePipeline(), results);
    assert.equal(reused.charged, 0);
    assert.ok(reused.plan.lines.every((l) => l.reused));
    const traders = await readRecord(results, 'traders', callsFolder());
    assert.ok(traders);
    const refreshed = await planAndRun('§8.4 example, pnl refreshed', examplePipeline(), results, { refresh: new Set(['pnl']) });
    assert.equal(refreshed.plan.totalText, `${(5 * Math.min(traders.size, 5_000)).toLocaleString('en-US')} credits`);
    assert.deepEqual([...refreshed.byEndpoint], [['pnl', 5 * Math.min(traders.size, 5_000)]]);
  });
});

describe('pipeline filter step', () => {
  it('turns each condition into the table’s own filter, long bounds kept exact', () => {
    assert.deepEqual(columnFilterOf({ column: 'x', op: '>=', value: 10 }, 2), { kind: 'range', column: 2, min: 10 });
    assert.deepEqual(columnFilterOf({ column: 'x', op: '<=', value: '123456789012345678901' }, 0), { kind: 'range', column: 0, max: Number('123456789012345678901'), maxText: '123456789012345678901' });
    assert.deepEqual(columnFilterOf({ column: 'x', op: 'contains', value: 'Bot' }, 1), { kind: 'contains', column: 1, text: 'Bot' });
    assert.equal(columnFilterOf({ column: 'x', op: '>=', value: 'ten' }, 0), '“x”: "ten" is not a number.');
  });

  it('keeps rows by every digit of a long number, as the table does', async () => {
    const d = mkdtempSync(join(tmpdir(), 'wa-pipe-filter-'));
    try {
      const src = join(d, 'in.csv');
      // Both amounts are the same double; only the exact comparison tells them apart.
      writeFileSync(src, 'wallet,amount\nA1,12345678901234567890\nA2,12345678901234567891\nA3,5\n');
      const out = join(d, 'out.csv');
      const n = await filterResult(src, [{ column: 'amount', op: '>=', value: '12345678901234567891' }], out, 'in', { workerFile });
      assert.equal(n, 1);
      assert.equal(readFileSync(out, 'utf8'), 'wallet,amount\nA2,12345678901234567891\n');
      await assert.rejects(filterResult(src, [{ column: 'nope', op: 'empty' }], out, 'in', { workerFile }), /“in” has no column “nope” to filter on \(its columns: wallet, amount\)/u);
    } finally {
      rmSync(d, { recursive: true, force: true });
    }
  });

  it("reads no row of its result on the host, nor asks the worker for the columns' chains: the header names the columns (a 640-column sample was 32,000 strings there, issue 34 item 4)", async () => {
    const d = mkdtempSync(join(tmpdir(), 'wa-pipe-filter-'));
    // Every window the host asks of a table worker while the step runs (the sample's first rows came in windows),
    // and every judgement of the columns' chains (the worker read 50 rows × every column for it).
    const window = RemoteTable.prototype.window;
    const columnChains = RemoteTable.prototype.columnChains;
    let windows = 0;
    let chains = 0;
    RemoteTable.prototype.window = function counted(this: RemoteTable, ...a: Parameters<RemoteTable['window']>) {
      windows++;
      return window.apply(this, a);
    };
    RemoteTable.prototype.columnChains = function counted(this: RemoteTable, ...a: Parameters<RemoteTable['columnChains']>) {
      chains++;
      return columnChains.apply(this, a);
    };
    try {
      const src = join(d, 'in.csv');
      writeFileSync(src, 'wallet,amount\nA1,1\nA2,7\nA3,5\n');
      const out = join(d, 'out.csv');
      assert.equal(await filterResult(src, [{ column: 'amount', op: 'between', value: [2, 6] }], out, 'in', { workerFile }), 1);
      assert.equal(readFileSync(out, 'utf8'), 'wallet,amount\nA3,5\n');
      assert.equal(windows, 0, `the host asked ${windows} window(s) of rows`);
      assert.equal(chains, 0, `the worker was asked ${chains} time(s) for the columns' chains`);
    } finally {
      RemoteTable.prototype.window = window;
      RemoteTable.prototype.columnChains = columnChains;
      rmSync(d, { recursive: true, force: true });
    }
  });
});
