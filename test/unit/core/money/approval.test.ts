/**
 * The one owner of approval (issue 30 items 1–5, issue 35 items 2 and 11), in core: an approval
 * binds what the person saw (the endpoint, the request, the price); a stored watch's approval and
 * its interval are checked again when read; a quota period start in the future never stops the
 * counting. Each test failed on the code before src/core/money/approval.ts.
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { agentApproval, callRefusal, cellRefusal, isApproval, planApprovals, priceCover, watchApprovalRecord, watchCellApprovals, watchRunApproval, watchDayWords } from '../../../../src/core/money/approval';
import { findEndpoint } from '../../../../src/core/spec/catalog';
import { examplePipeline } from '../../../../src/core/pipeline/format';
import { planPipeline } from '../../../../src/core/pipeline/plan';
import { quote } from '../../../../src/core/money/pricing';
import { nextReset, priceGate } from '../../../../src/core/money/quota';
import { PERIOD_MS } from '../../../../src/core/money/quotaPeriod';
import { isUserOnly, SETTINGS } from '../../../../src/core/manifest/settingsSchema';
import { WatchStore } from '../../../../src/core/watch/store';

const H = 3_600_000;
const DAY = 24 * H;
let dir = '';
before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'wa-approval-'));
});
after(() => rm(dir, { recursive: true, force: true }));

const query = (limit: number, min: number) => ({ filters: [{ field: 'winrate_30d', op: 'gte', value: min }], limit });

describe('approval: a watch binds the request the person approved (issue 30 items 1, 2)', () => {
  it('30.1 a watched query file edited after approval is not run: skipped and told, nothing sent', () => {
    const stored = watchApprovalRecord({ credits: 10_000, risk: true, scope: 'http://sandbox', request: { query: query(100, 0.9) } });
    const same = watchRunApproval(stored, 'query', { query: query(100, 0.9) });
    assert.ok(isApproval(same), 'the very query approved runs under its approval');
    assert.equal(same.credits, 10_000);
    // The file now matches far more wallets (a looser filter): not what the person approved.
    const edited = watchRunApproval(stored, 'query', { query: query(100, 0.1) });
    assert.ok(!isApproval(edited) && /not what was approved/u.test(edited.refused), JSON.stringify(edited));
    // A stored approval with no request bound (written before, or by hand) binds nothing: it is not run.
    const { request: _, ...unbound } = stored;
    assert.ok(!isApproval(watchRunApproval(unbound, 'query', { query: query(100, 0.9) })));
  });

  it('30.2 a pipeline watch approves each cell (its endpoint and inputs), not its name: a swapped cell within its line is not run', () => {
    const file = examplePipeline();
    const plan = planPipeline(file);
    const calls = file.cells.flatMap((c) => (typeof c !== 'string' && 'call' in c ? [c] : []));
    const stored = watchApprovalRecord({ credits: plan.total, scope: 's', cells: calls.map((c) => ({ ...c, credits: plan.lines.find((l) => l.cell === c.name)?.credits ?? 0 })) });
    const ok = watchCellApprovals(stored, plan.lines, calls);
    assert.ok(ok instanceof Map && ok.size === 3);
    // "trending" swapped for another request (24 hours, not 2) at the same price, under the same name.
    const swapped = calls.map((c) => (c.name === 'trending' ? { ...c, call: 'trending', inputs: { hours: 24 } } : c));
    const sp = planPipeline({ ...file, cells: file.cells.map((c) => (typeof c !== 'string' && c.name === 'trending' ? { ...c, inputs: { hours: 24 } } : c)) });
    const refused = watchCellApprovals(stored, sp.lines, swapped);
    assert.ok('refused' in refused && /“trending” is not the cell approved/u.test(refused.refused), JSON.stringify(refused));
    // Old records (a number per cell name) bind no cell: asked again, never run.
    const old = { ...stored, cells: { trending: 50, traders: 1_000, pnl: 25_000 } };
    assert.ok('refused' in watchCellApprovals(old, plan.lines, calls));
  });

  it('every refusal of a watch\'s run offers Approve the New Price… (an edited query, a swapped cell, a pricier line); an approved one runs', () => {
    const stored = watchApprovalRecord({ credits: 10_000, risk: true, scope: 's', request: { query: query(100, 0.9) } });
    const edited = watchRunApproval(stored, 'query', { query: query(100, 0.1) });
    assert.ok(!isApproval(edited) && edited.approveAgain === true, JSON.stringify(edited));
    assert.match(edited.refused, /Approve the New Price… shows it and asks again\.$/u);
    const file = examplePipeline();
    const plan = planPipeline(file);
    const calls = file.cells.flatMap((c) => (typeof c !== 'string' && 'call' in c ? [c] : []));
    const lines = (credits: (name: string) => number) => watchApprovalRecord({ credits: plan.total, scope: 's', cells: calls.map((c) => ({ ...c, credits: credits(c.name) })) });
    const swapped = calls.map((c) => (c.name === 'trending' ? { ...c, inputs: { hours: 24 } } : c));
    const cell = watchCellApprovals(lines((n) => plan.lines.find((l) => l.cell === n)?.credits ?? 0), plan.lines, swapped);
    assert.ok('refused' in cell && cell.approveAgain === true, JSON.stringify(cell));
    // The same cells, each approved 1 credit below its price now: the line grew.
    const pricier = watchCellApprovals(lines((n) => (plan.lines.find((l) => l.cell === n)?.credits ?? 1) - 1), plan.lines, calls);
    assert.ok('refused' in pricier && pricier.approveAgain === true && /its approved line is/u.test(pricier.refused), JSON.stringify(pricier));
  });

  it('a plan line binds its cell as written: the same name with other inputs is refused by the run', () => {
    const file = examplePipeline();
    const calls = file.cells.flatMap((c) => (typeof c !== 'string' && 'call' in c ? [c] : []));
    const approvals = planApprovals(planPipeline(file).lines, calls);
    const trending = calls[0];
    assert.ok(trending);
    assert.equal(cellRefusal(approvals.get('trending'), trending, 'trending', 50, true), undefined);
    assert.match(cellRefusal(approvals.get('trending'), { ...trending, inputs: { hours: 24 } }, 'trending', 50, true) ?? '', /changed since its line was approved/u);
    assert.match(cellRefusal({ ...approvals.get('trending') }, trending, 'trending', 50, true) ?? '', /not in the approved plan/u);
    assert.match(cellRefusal(approvals.get('trending'), trending, 'trending', 51, true) ?? '', /more than its approved line/u);
    assert.match(cellRefusal(approvals.get('trending'), trending, 'pnl', 50, true) ?? '', /approved for trending, not pnl/u);
  });
});

describe('approval: the price step (issue 35 item 2)', () => {
  it('35.2 an approved plan is the confirmation for every line within it, above the threshold too', () => {
    const file = examplePipeline();
    const calls = file.cells.flatMap((c) => (typeof c !== 'string' && 'call' in c ? [c] : []));
    const pnl = planApprovals(planPipeline(file).lines, calls).get('pnl');
    const ep = findEndpoint('pnl');
    assert.ok(ep && pnl);
    const q = quote(ep, { wallets: new Array<string>(951).fill('0x') });
    const gate = priceGate(q, { confirmAbove: 1_000, maxCreditsPerCall: 1_000_000 }, 100_000, undefined);
    assert.equal(gate.kind, 'modal', 'above the threshold');
    const cover = priceCover(pnl, q, gate);
    assert.equal(cover.kind, 'hold');
    assert.equal(cover.kind === 'hold' ? cover.credits : 0, 4_755);
    // Past its line it is not covered: asked (and the run's own check stops it first).
    assert.equal(priceCover(pnl, quote(ep, { wallets: new Array<string>(5_001).fill('0x') }), gate).kind, 'ask');
    // Nothing but an issued approval covers anything.
    assert.equal(priceCover({ ...pnl }, q, gate).kind, 'ask');
  });
});

describe('approval: an AI agent’s call (issue 33)', () => {
  const ep = findEndpoint('toptraders');
  const gateOf = (q: ReturnType<typeof quote>, budgets: Parameters<typeof priceGate>[5] = []) => priceGate(q, { confirmAbove: 1_000, maxCreditsPerCall: 1_000_000 }, 100_000, undefined, false, budgets);

  it('from a chat, within what the allowance holds for it: goes on without a question, below and above the threshold', () => {
    assert.ok(ep);
    const q = quote(ep, { tokens: ['a', 'b'] });
    const a = agentApproval({ endpointId: 'toptraders', fromChat: true, held: 200 });
    assert.ok(isApproval(a));
    assert.equal(callRefusal(a, 'toptraders', q), undefined);
    const cover = priceCover(a, q, gateOf(q));
    assert.equal(cover.kind, 'hold');
    assert.equal(cover.kind === 'hold' ? cover.credits : 0, 200);
    const big = quote(ep, { tokens: new Array<string>(20).fill('t') });
    assert.equal(gateOf(big).kind, 'modal');
    assert.equal(priceCover(agentApproval({ endpointId: 'toptraders', fromChat: true, held: 2_000 }), big, gateOf(big)).kind, 'hold');
  });

  it('past the allowance, or with no chat behind it (another extension’s invokeTool), the person is asked with Cancel first', () => {
    assert.ok(ep);
    const q = quote(ep, { tokens: ['a', 'b'] });
    const over = priceCover(agentApproval({ endpointId: 'toptraders', fromChat: true, held: 199 }), q, gateOf(q));
    assert.deepEqual(over, { kind: 'ask', agent: true });
    const noChat = agentApproval({ endpointId: 'toptraders', fromChat: false, held: 1_000_000 });
    assert.equal(noChat.credits, 0, 'no chat token: the allowance is never spent');
    assert.deepEqual(priceCover(noChat, q, gateOf(q)), { kind: 'ask', agent: true });
    // Another endpoint than the one held for is refused before any price.
    assert.match(callRefusal(noChat, 'pnl', q) ?? '', /approved for toptraders, not pnl/u);
  });

  it('the ceiling and the budgets hold inside the allowance: the gate refuses, and the cover never overrides a refusal', () => {
    assert.ok(ep);
    const q = quote(ep, { tokens: ['a', 'b'] });
    const spent = [{ kind: 'day' as const, budget: 100, spent: 50, left: 50, since: 0, resetsAt: new Date(DAY), rolling: false }];
    const gate = gateOf(q, spent);
    assert.equal(gate.kind, 'refuse');
    const cover = priceCover(agentApproval({ endpointId: 'toptraders', fromChat: true, held: 10_000 }), q, gate);
    assert.notEqual(cover.kind, 'hold');
    const ceiling = priceGate(q, { confirmAbove: 1_000, maxCreditsPerCall: 100 }, 100_000, undefined);
    assert.equal(ceiling.kind, 'refuse');
    assert.notEqual(priceCover(agentApproval({ endpointId: 'toptraders', fromChat: true, held: 10_000 }), q, ceiling).kind, 'hold');
  });

  it('a Wallet Database query whose match count is unknown always asks, in the palette’s words (not the agent’s pick), whatever is held', () => {
    const wd = findEndpoint('wallet_database');
    assert.ok(wd);
    const q = quote(wd, { query: query(100, 0.9) });
    const gate = gateOf(q);
    assert.equal(gate.kind, 'unbounded');
    assert.deepEqual(priceCover(agentApproval({ endpointId: 'wallet_database', fromChat: true, held: 1e9 }), q, gate), { kind: 'ask' });
  });

  it('the MCP server’s question answered by the person (asked): that very price passes, a bill per match is held at its smallest bill, and nothing more', () => {
    const wd = findEndpoint('wallet_database');
    assert.ok(wd && ep);
    const q = quote(wd, { query: query(100, 0.9) });
    const gate = gateOf(q);
    const asked = priceCover(agentApproval({ endpointId: 'wallet_database', fromChat: true, held: q.credits, asked: true }), q, gate);
    assert.equal(asked.kind, 'hold');
    assert.equal(asked.kind === 'hold' ? asked.credits : 0, q.credits);
    // Approved for 200, a price of 300 is asked again, never sent under the answer.
    const two = quote(ep, { tokens: ['a', 'b'] });
    assert.equal(priceCover(agentApproval({ endpointId: 'toptraders', fromChat: true, held: 200, asked: true }), two, gateOf(two)).kind, 'hold');
    const three = quote(ep, { tokens: ['a', 'b', 'c'] });
    assert.deepEqual(priceCover(agentApproval({ endpointId: 'toptraders', fromChat: true, held: 200, asked: true }), three, gateOf(three)), { kind: 'ask', agent: true });
    // No caller behind it: `asked` counts for nothing.
    assert.deepEqual(priceCover(agentApproval({ endpointId: 'wallet_database', fromChat: false, held: q.credits, asked: true }), q, gate), { kind: 'ask' });
  });
});

describe('watch words (issue 35 item 11)', () => {
  it('35.11 a query watch says the most a day can cost, and names the daily budget as what it leaves, not "your balance"', () => {
    const words = watchDayWords({ perRun: 3_440, perDay: 24, risk: true, dayLeft: 3_440 });
    assert.match(words, /at most 82,560 credits a day/u);
    assert.match(words, /daily budget/u);
    assert.doesNotMatch(words, /balance/u);
  });
});

describe('stored watches are checked again when read (issue 30 item 3)', () => {
  it('30.3 an interval under an hour in watches.json is raised to an hour when read (the test runner’s own floor aside)', async () => {
    const store = new WatchStore(join(dir, 'tick'));
    await store.put({
      id: 'w1', name: 'fast', target: { kind: 'request', endpointId: 'trending', inputs: { hours: 2 } }, schedule: { kind: 'interval', ms: 1 },
      approval: { credits: 50, scope: 's' }, notify: 'changed', paused: false, createdAt: 0, lastSlot: 0, runs: [],
    });
    const [w] = await store.all();
    assert.deepEqual(w?.schedule, { kind: 'interval', ms: H });
    // Written straight into the file, as a hand edit would.
    await writeFile(join(dir, 'tick', 'watches.json'), JSON.stringify([{ ...w, schedule: { kind: 'interval', ms: 0.5 } }]));
    assert.deepEqual((await store.get('w1'))?.schedule, { kind: 'interval', ms: H });
    const test = new WatchStore(join(dir, 'tick'), { testMode: true });
    await writeFile(join(dir, 'tick', 'watches.json'), JSON.stringify([{ ...w, schedule: { kind: 'interval', ms: 3000 } }]));
    assert.deepEqual((await test.get('w1'))?.schedule, { kind: 'interval', ms: 3000 });
  });
});

describe('the quota period start (issue 30 item 5)', () => {
  it('30.5 is a user-only setting (a workspace cannot set it)', () => {
    const s = SETTINGS.get('quotaPeriodStart');
    assert.ok(s && isUserOnly(s));
  });

  it('30.5 a start date in the future still counts the 30 days before now: the period holds now', () => {
    const now = Date.UTC(2026, 10, 27, 12);
    for (const ahead of [1, 10 * 24 * H, 400 * 24 * H]) {
      const reset = nextReset(now + ahead, now).getTime();
      assert.ok(reset > now && reset - PERIOD_MS <= now, `a start ${ahead} ms ahead: the period ${new Date(reset - PERIOD_MS).toISOString()}–${new Date(reset).toISOString()} holds now`);
    }
  });
});
