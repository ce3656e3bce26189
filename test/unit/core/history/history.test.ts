import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { hasShortenedList, inputSummary, inputsForTooltip } from '../../../../src/core/history/format';
import { ENDPOINTS } from '../../../../src/core/spec/catalog';
import { sampleInput } from '../../../../src/core/spec/samples';
import { mergeHistory, type HistoryItem } from '../../../../src/core/history/merge';
import { HistoryModel, groupOf, rowIcon, rowText } from '../../../../src/core/history/model';
import { isZipItem } from '../../../../src/core/results/kinds';
import { summariseInputs, type JobRecord } from '../../../../src/core/jobs/job';
import type { RequestRecord } from '../../../../src/core/spec/wire';
import { compactCredits, fmtCredits, thousands } from '../../../../src/core/numberText';

const BASE = 'http://127.0.0.1:1';
const OTHER = 'http://127.0.0.1:2';
/** Noon today, local time: "today" and "yesterday" are local days. */
const NOON = (() => {
  const d = new Date();
  d.setHours(12, 0, 0, 0);
  return d.getTime();
})();
const HOUR = 3_600_000;
const iso = (ms: number) => new Date(ms).toISOString();

function rec(id: string, at: number, o: Partial<RequestRecord> = {}): RequestRecord {
  return { requestId: id, url: '', endpoint: 'trending', status: 'queued', createdAt: iso(at), cost: 50, inputs: { hours: 1 }, ...o };
}
function job(id: string, at: number, o: Partial<JobRecord> = {}): JobRecord {
  return { requestId: id, endpointId: 'trending', inputs: { hours: 1 }, cost: 50, baseUrl: BASE, profileId: 'default', submittedAt: iso(at), state: 'pending', ...o };
}

describe('history: merge of the server history and local jobs', () => {
  it('lists each requestId once, newest first, with jobs the server does not list yet', () => {
    const server = [rec('a', NOON - 3 * HOUR, { url: `${BASE}/f/a.txt`, status: 'done' }), rec('b', NOON - 2 * HOUR), rec('a', NOON - 3 * HOUR)];
    const local = [job('b', NOON - 2 * HOUR), job('c', NOON - HOUR), job('d', NOON, { baseUrl: OTHER })];
    const items = mergeHistory(server, local, BASE);
    assert.deepEqual(items.map((i) => i.requestId), ['c', 'b', 'a'], 'no duplicates, newest first, another base URL left out');
    assert.equal(new Set(items.map((i) => i.requestId)).size, items.length);
    assert.equal(items.find((i) => i.requestId === 'c')?.status, 'running', 'a just-accepted job shows before the server lists it');
  });

  it('replaces a pending job by done when the server has its url, and never goes back', () => {
    const url = `${BASE}/files/x/toptraders.zip`;
    const server = [rec('x', NOON - HOUR, { url, status: 'done', completedAt: iso(NOON - HOUR + 9_000), endpoint: 'toptraders' })];
    const [pending] = mergeHistory(server, [job('x', NOON - HOUR, { endpointId: 'toptraders', inputs: { tokens: ['t1', 't2'], output: 'zip' } })], BASE);
    assert.equal(pending?.status, 'done', 'pending replaced by done');
    assert.equal(pending?.local, 'pending');
    assert.equal(pending?.url, url);
    assert.deepEqual(pending?.inputs, { tokens: ['t1', 't2'], output: 'zip' }, 'the full local inputs win');
    // The server still says running (its list is a poll behind) while the file is already on disk.
    const [done] = mergeHistory([rec('x', NOON - HOUR, { status: 'running' })], [job('x', NOON - HOUR, { state: 'done', url, resultPath: '/r/x' })], BASE);
    assert.equal(done?.status, 'done');
    assert.equal(done?.resultPath, '/r/x');
    assert.equal(rowIcon(done as HistoryItem), 'onDisk');
  });

  it('takes failures from either side, with their error', () => {
    const [a, b] = mergeHistory(
      [rec('a', NOON - HOUR, { status: 'failed', error: 'The job timed out on the server.' }), rec('b', NOON - 2 * HOUR, { status: 'done', url: `${BASE}/f/b.txt` })],
      [job('b', NOON - 2 * HOUR, { state: 'downloadFailed', url: `${BASE}/f/b.txt`, error: 'disk full' })],
      BASE,
    );
    assert.equal(a?.status, 'failed');
    assert.equal(rowIcon(a as HistoryItem), 'failed');
    assert.equal(a?.error, 'The job timed out on the server.');
    assert.equal(b?.status, 'done', 'the job is done on the server; only its download failed');
    assert.equal(rowIcon(b as HistoryItem), 'downloadFailed');
  });

  it('shows local jobs alone before the first fetch', () => {
    assert.deepEqual(mergeHistory(undefined, [job('a', NOON)], BASE).map((i) => i.requestId), ['a']);
  });
});

describe('history: groups, rows, paging, filter and what changed', () => {
  const day = 86_400_000;
  const items = (): HistoryItem[] =>
    mergeHistory(
      [
        rec('r1', NOON + HOUR),
        rec('t1', NOON - HOUR, { url: `${BASE}/f/t1.txt`, status: 'done' }),
        rec('y1', NOON - day, { url: `${BASE}/f/y1.zip`, status: 'done', endpoint: 'alltraders', inputs: { tokens: ['a', 'b', 'c'] }, cost: 450 }),
        rec('e1', NOON - 3 * day, { status: 'failed', error: 'boom', endpoint: 'pnl', inputs: { wallets: { count: 5000, first: ['w1'] } }, cost: 25_000 }),
      ],
      [],
      BASE,
    );

  it('groups Running / Today / Yesterday / Earlier by local day', () => {
    const m = new HistoryModel();
    m.update(items(), NOON + 2 * HOUR);
    assert.deepEqual(m.groups().map((g) => [g.id, g.count]), [['running', 1], ['today', 1], ['yesterday', 1], ['earlier', 1]]);
    assert.equal(groupOf({ ...(items()[0] as HistoryItem), status: 'done' }, NOON + 2 * HOUR), 'today');
  });

  it('writes the row as title, short inputs, time and cost', () => {
    const all = items();
    const y = all.find((i) => i.requestId === 'y1') as HistoryItem;
    const t = rowText(y, 'yesterday', NOON);
    assert.equal(t.label, 'All Traders of Tokens');
    assert.match(t.description, /^3 tokens · 450 credits · \d{2}:\d{2}$/u);
    const e = all.find((i) => i.requestId === 'e1') as HistoryItem;
    assert.match(rowText(e, 'earlier', NOON).description, /^5,000 wallets · 25,000 credits · \d{1,2} [A-Z][a-z]{2}, \d{2}:\d{2}$/u, 'a list the server shortened still counts in full');
    assert.equal(isZipItem(y), true);
    assert.equal(isZipItem(all.find((i) => i.requestId === 't1') as HistoryItem), false);
  });

  it('fires only what changed: a row, a group, or the root', () => {
    const m = new HistoryModel();
    const now = NOON + 2 * HOUR;
    const server = (o: { r1?: Partial<RequestRecord>; r2?: boolean } = {}): RequestRecord[] => [
      ...(o.r2 ? [rec('r2', NOON + 90 * 60_000)] : []),
      rec('r1', NOON + HOUR, o.r1),
      rec('t1', NOON - HOUR, { url: `${BASE}/f/t1.txt`, status: 'done' }),
      rec('e1', NOON - 3 * day, { status: 'failed', error: 'boom' }),
    ];
    m.update(mergeHistory(server(), [], BASE), now);
    assert.deepEqual(m.update(mergeHistory(server(), [], BASE), now), { root: false, groups: [], items: [] }, 'nothing changed: nothing fires');
    // The running job gets a local record with another cost: only its row changes (same group).
    const local = [job('r1', NOON + HOUR, { cost: 60 })];
    assert.deepEqual(m.update(mergeHistory(server(), local, BASE), now), { root: false, groups: [], items: ['r1'] });
    // A second running job joins: its group changes, not the root.
    assert.deepEqual(m.update(mergeHistory(server({ r2: true }), local, BASE), now), { root: false, groups: ['running'], items: [] });
    // r1 is done: it moves from Running to Today; both groups change, not the root.
    const c3 = m.update(mergeHistory(server({ r2: true, r1: { url: `${BASE}/f/r1.txt`, status: 'done' } }), local, BASE), now);
    assert.deepEqual([...c3.groups].sort(), ['running', 'today']);
    assert.equal(c3.root, false);
    // r2 goes too (the list no longer has it): the Running group disappears, so the root changes.
    assert.equal(m.update(mergeHistory(server({ r1: { url: `${BASE}/f/r1.txt`, status: 'done' } }), local, BASE), now).root, true);
  });

  it('pages a long group and filters by endpoint and search', () => {
    const many: HistoryItem[] = mergeHistory(
      Array.from({ length: 5_000 }, (_, k) =>
        rec(`q${String(k).padStart(5, '0')}`, NOON - 3 * 86_400_000 - k * 60_000, {
          status: 'done',
          url: `${BASE}/f/${k}.csv`,
          endpoint: k % 2 ? 'pnl' : 'toptraders',
          inputs: k % 2 ? { wallets: [`W${k}`] } : { tokens: [`T${k}`], output: 'txt' },
        }),
      ),
      [],
      BASE,
    );
    const m = new HistoryModel(200);
    m.update(many, NOON);
    assert.deepEqual(m.groups().map((g) => [g.id, g.count]), [['earlier', 5_000]]);
    const p1 = m.page('earlier');
    assert.equal(p1.items.length, 200);
    assert.equal(p1.more, 4_800);
    assert.deepEqual(m.showMore('earlier'), { root: false, groups: ['earlier'], items: [] });
    assert.equal(m.page('earlier').items.length, 400);
    m.setFilter({ endpointId: 'pnl' });
    assert.equal(m.shown, 2_500);
    assert.equal(m.page('earlier').items.length, 200, 'a new filter starts at the first page again');
    m.setFilter({ endpointId: 'pnl', search: 'w4321' });
    assert.deepEqual(m.page('earlier').items.map((i) => i.requestId), ['q04321'], 'search looks inside the inputs, case-insensitively');
    m.setFilter({});
    assert.equal(m.filtered, false);
    assert.equal(m.shown, 5_000);
  });
});

describe('history: formats', () => {
  it('writes credits compact, rounded down', () => {
    assert.equal(compactCredits(999_950_000), '999.95M');
    assert.equal(compactCredits(1_000_000_000), '1000M');
    assert.equal(compactCredits(999_999_800), '999.99M', 'never rounded up to look larger');
    assert.equal(compactCredits(12_500), '12.5K');
    assert.equal(compactCredits(950), '950');
    assert.equal(compactCredits(0), '0');
    assert.equal(compactCredits(2_000_000), '2M');
  });

  it('writes exact figures as toLocaleString and fmtCredits do, without a formatter per call', () => {
    for (const n of [0, 1, 7, 999, 1_000, 12_345, 999_950_000, 1_000_000_000, -4_321, 123_456_789_012]) {
      assert.equal(thousands(n), n.toLocaleString('en-US'));
      assert.equal(fmtCredits(n), fmtCredits(n));
    }
  });

  it('summarises inputs in the words of summariseInputs, for every endpoint', () => {
    for (const ep of ENDPOINTS) {
      const input = sampleInput(ep);
      assert.equal(inputSummary(input), summariseInputs(input), ep.id);
    }
    const big = { wallets: Array.from({ length: 5_000 }, (_, i) => `w${i}`) };
    assert.equal(inputSummary(big), summariseInputs(big));
    assert.equal(inputSummary({}), summariseInputs({}));
  });

  it('summarises inputs, and cuts long lists in tooltips with their full count', () => {
    assert.equal(inputSummary({ tokens: ['a', 'b', 'c'] }), '3 tokens');
    assert.equal(inputSummary({ wallets: { count: 5000, first: ['w'] } }), '5,000 wallets');
    assert.equal(hasShortenedList({ wallets: { count: 5000, first: ['w'] } }), true);
    assert.equal(hasShortenedList({ wallets: ['w'] }), false);
    const tip = JSON.parse(inputsForTooltip({ wallets: Array.from({ length: 50 }, (_, i) => `w${i}`), hours: 3 }, 20)) as { wallets: string[]; hours: number };
    assert.equal(tip.wallets.length, 21);
    assert.equal(tip.wallets[20], '… 50 in all');
    assert.equal(tip.hours, 3);
  });
});
