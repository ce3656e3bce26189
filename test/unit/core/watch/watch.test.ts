/**
 * Watches (issue 25), in core: the schedule's slots, the runner's lock across two "windows" (two
 * runners over one storage folder), a slot never run twice, slots missed while no window ran it
 * told and not caught up, and what changed between generated runs (rows new, gone, and moved past
 * a threshold on a column).
 */
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { threadId } from 'node:worker_threads';
import { compareSources } from '../../../../src/core/table/compare/compareSource';
import { countChanges } from '../../../../src/core/table/compare/changeCounts';
import { sampleAddress } from '../../../../src/core/spec/samples';
import { openTable } from '../../../../src/core/table';
import { changeLine, compareInWorker, detectChanges, movedPast, type ComparedTable, type OpenComparison } from '../../../../src/core/watch/changes';
import type { WatchRecord } from '../../../../src/core/watch/model';
import { WatchRunner, type ExecOutcome, type WatchEvent } from '../../../../src/core/watch/runner';
import { cronOf } from '../../../../src/core/pipeline/schedulerFiles';
import { checkInterval, cronSchedule, dueAt, nextSlot, parseInterval, parseTimeOfDay, scheduleText, slotOf } from '../../../../src/core/watch/schedule';
import { WatchStore } from '../../../../src/core/watch/store';

/** The repository (out/test/unit is three folders below it) and the table worker's bundle (node esbuild.mjs builds it). */
const repoRoot = resolve(__dirname, '../../../../..');
const workerFile = join(repoRoot, 'dist', 'tableWorker.js');

const H = 3_600_000;
const T0 = Date.UTC(2026, 10, 25, 14, 0, 0);

let dir = '';
before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'wa-watch-'));
});
after(() => rm(dir, { recursive: true, force: true }));

function watch(id: string, over: Partial<WatchRecord> = {}): WatchRecord {
  return {
    id, name: `Watch ${id}`, target: { kind: 'request', endpointId: 'trending', inputs: { hours: 2 } },
    schedule: { kind: 'hourly' }, approval: { credits: 50, scope: 'http://sandbox' },
    notify: 'changed', paused: false, createdAt: T0, lastSlot: T0, runs: [], ...over,
  };
}

/** A runner standing for one window: a clock, and a call flow that counts its sends. */
function windowOf(store: WatchStore, clock: { t: number }, opts: { lockNow?: () => number; result?: () => string } = {}) {
  const sent: string[] = [];
  const told: WatchEvent[] = [];
  const runner = new WatchRunner({
    store,
    now: () => clock.t,
    execute: (w): Promise<ExecOutcome> => {
      sent.push(w.id);
      return Promise.resolve({ kind: 'done', credits: 50, resultPath: opts.result?.() ?? '/nowhere.csv' });
    },
    compare: () => Promise.resolve({ added: 1, gone: 0, changed: 0, both: 0 }),
    saveComparison: () => Promise.resolve('/compare.compare.json'),
    tell: (e) => told.push(e),
    lock: { staleMs: 60_000, ...(opts.lockNow ? { now: opts.lockNow } : {}) },
  });
  return { runner, sent, told };
}

describe('watch schedules', () => {
  it('slots: every hour at :00, every day at 09:00 UTC, a custom interval; what is due, on time or missed', () => {
    assert.equal(slotOf({ kind: 'hourly' }, T0 + 25 * 60_000), T0);
    assert.equal(nextSlot({ kind: 'hourly' }, T0 + 1), T0 + H);
    const daily = { kind: 'daily', at: parseTimeOfDay('09:00') ?? -1 } as const;
    assert.equal(new Date(nextSlot(daily, T0)).toISOString(), '2026-11-26T09:00:00.000Z');
    assert.equal(scheduleText(daily), 'every day at 09:00 UTC');
    assert.equal(scheduleText({ kind: 'interval', ms: 2 * H }), 'every 2 hours');
    // On time: the slot of 15:00 at 15:05 runs; nothing was missed.
    assert.deepEqual(dueAt({ kind: 'hourly' }, T0, T0 + H + 5 * 60_000), { run: T0 + H, missed: 0, latest: T0 + H });
    // The editor was closed from 14:30 to 18:40: 15:00, 16:00, 17:00 and 18:00 passed, none on time.
    assert.deepEqual(dueAt({ kind: 'hourly' }, T0, T0 + 4 * H + 40 * 60_000), { missed: 4, latest: T0 + 4 * H });
    // Opened at 18:05: 18:00 runs, the three before are missed.
    assert.deepEqual(dueAt({ kind: 'hourly' }, T0, T0 + 4 * H + 5 * 60_000), { run: T0 + 4 * H, missed: 3, latest: T0 + 4 * H });
    // Nothing due inside the slot already taken.
    assert.deepEqual(dueAt({ kind: 'hourly' }, T0, T0 + 59 * 60_000), { missed: 0, latest: T0 });
  });

  it('a custom interval is at least the service’s refresh (an hour); shorter only under the test runner', () => {
    assert.deepEqual(parseInterval('2h'), { ms: 2 * H });
    assert.deepEqual(parseInterval('90m'), { ms: 90 * 60_000 });
    assert.match(JSON.stringify(parseInterval('30m')), /At least an hour/u);
    assert.match(JSON.stringify(checkInterval(3000)), /At least an hour/u);
    assert.deepEqual(checkInterval(3000, true), { ms: 3000 });
    assert.match(JSON.stringify(parseInterval('soon')), /Type an interval/u);
  });
});

describe('Export Watch: the watch’s schedule as the exported script’s scheduler writes it', () => {
  it('every hour, every day at 09:30 UTC and every 2 hours as cron (UTC); 90 minutes cannot be said in cron', () => {
    const cron = (s: Parameters<typeof cronSchedule>[0]): string => {
      const c = cronSchedule(s);
      return 'error' in c ? c.error : cronOf(c);
    };
    assert.equal(cron({ kind: 'hourly' }), '0 * * * *');
    assert.equal(cron({ kind: 'daily', at: 9 * 60 + 30 }), '30 9 * * *');
    assert.equal(cron({ kind: 'interval', ms: 2 * H }), '0 */2 * * *');
    assert.match(cron({ kind: 'interval', ms: 90 * 60_000 }), /An interval must be/u);
  });
});

describe('watch runner: one window runs a watch, never twice per slot', () => {
  it('two windows over one storage folder: only the one holding the lock runs; the other takes over once it is gone', async () => {
    const store = new WatchStore(join(dir, 'lock'));
    await store.put(watch('a'));
    const clock = { t: T0 + H + 60_000 };
    const one = windowOf(store, clock);
    const two = windowOf(new WatchStore(join(dir, 'lock')), clock);
    assert.deepEqual(await one.runner.tick(), ['a']);
    assert.deepEqual(await two.runner.tick(), []);
    assert.equal(await two.runner.owns(), false, 'the second window does not run watches while the first is there');
    assert.deepEqual([one.sent, two.sent], [['a'], []]);

    // The first window goes away without a word (its lock is no longer touched): judged gone after staleMs.
    const later = windowOf(new WatchStore(join(dir, 'lock')), clock, { lockNow: () => Date.now() + 120_000 });
    clock.t = T0 + 2 * H + 60_000;
    assert.deepEqual(await later.runner.tick(), ['a'], 'taken over');
    assert.equal(await one.runner.owns(), false, 'the first window sees its lock was taken over');
    assert.deepEqual(await one.runner.tick(), []);
    assert.deepEqual(later.sent, ['a']);
    await later.runner.dispose();
    await one.runner.dispose();
    await two.runner.dispose();
  });

  it('a slot is run once, whatever window looks: the slot is recorded in the store before the call', async () => {
    const store = new WatchStore(join(dir, 'twice'));
    await store.put(watch('b'));
    const clock = { t: T0 + H + 60_000 };
    const w = windowOf(store, clock);
    assert.deepEqual(await w.runner.tick(), ['b']);
    assert.deepEqual(await w.runner.tick(), [], 'the same slot again: nothing');
    assert.equal(await store.claim('b', T0 + H), false, 'another window cannot claim the slot either');
    assert.equal((await store.get('b'))?.lastSlot, T0 + H);
    clock.t = T0 + 2 * H + 1000;
    assert.deepEqual(await w.runner.tick(), ['b'], 'the next slot runs');
    assert.deepEqual(w.sent, ['b', 'b']);
    await w.runner.dispose();
  });

  it('slots missed while the editor was closed are told with their number, not caught up: nothing is sent for them', async () => {
    const store = new WatchStore(join(dir, 'missed'));
    await store.put(watch('c'));
    const clock = { t: T0 + 5 * H + 40 * 60_000 };
    const w = windowOf(store, clock);
    assert.deepEqual(await w.runner.tick(), []);
    assert.deepEqual(w.sent, [], 'nothing sent for missed slots');
    const missed = w.told.find((e) => e.kind === 'missed');
    assert.equal(missed?.kind === 'missed' ? missed.count : -1, 5);
    const saved = await store.get('c');
    assert.equal(saved?.lastSlot, T0 + 5 * H, 'recorded, so they are told once');
    assert.equal(saved?.runs.at(-1)?.status, 'missed');
    assert.match(saved?.runs.at(-1)?.text ?? '', /5 runs were missed/u);
    assert.deepEqual(await w.runner.tick(), []);
    assert.equal(w.told.filter((e) => e.kind === 'missed').length, 1, 'told once');
    // The person may run it once now.
    assert.equal((await w.runner.runOnce('c', true))?.status, 'first');
    assert.deepEqual(w.sent, ['c']);
    await w.runner.dispose();
  });

  it('a run that charged more than the amount approved per run (a query billed per match) pauses the watch and says so', async () => {
    const store = new WatchStore(join(dir, 'over'));
    await store.put(watch('f', { approval: { credits: 40, risk: true, scope: 'http://sandbox' } }));
    const w = windowOf(store, { t: T0 + H + 1000 });
    assert.deepEqual(await w.runner.tick(), ['f']);
    const saved = await store.get('f');
    assert.equal(saved?.paused, true);
    assert.match(saved?.runs.at(-1)?.text ?? '', /Charged 50 credits, more than the 40 approved per run: the watch is paused\./u);
    await w.runner.dispose();
  });

  it('a paused watch does not run', async () => {
    const store = new WatchStore(join(dir, 'paused'));
    await store.put(watch('d', { paused: true }));
    const w = windowOf(store, { t: T0 + H + 1000 });
    assert.deepEqual(await w.runner.tick(), []);
    assert.deepEqual(w.sent, []);
    await w.runner.dispose();
  });

  it('a run skipped by the call flow (past a budget) is recorded as skipped, charges nothing and is not compared', async () => {
    const store = new WatchStore(join(dir, 'skipped'));
    await store.put(watch('e', { lastResult: '/prev.csv', lastResultAt: T0 }));
    const told: WatchEvent[] = [];
    let compared = 0;
    const runner = new WatchRunner({
      store, now: () => T0 + H + 1000,
      execute: () => Promise.resolve({ kind: 'skipped', message: 'Past your daily budget: this call needs 50 credits.' }),
      compare: () => ((compared += 1), Promise.resolve({ added: 0, gone: 0, changed: 0, both: 0 })),
      saveComparison: () => Promise.resolve(''),
      tell: (e) => told.push(e),
    });
    await runner.tick();
    const saved = await store.get('e');
    assert.equal(saved?.runs.at(-1)?.status, 'skipped');
    assert.match(saved?.runs.at(-1)?.text ?? '', /^Skipped: Past your daily budget/u);
    assert.equal(saved?.runs.at(-1)?.credits, 0);
    assert.equal(saved?.lastResult, '/prev.csv', 'the previous result stays the one to compare with');
    assert.equal(compared, 0);
    await runner.dispose();
  });

  it('a run skipped because what it would send changed is stored as such, so the view and the toast offer Approve the New Price…', async () => {
    const store = new WatchStore(join(dir, 'approve-again'));
    await store.put(watch('f', { lastResult: '/prev.csv', lastResultAt: T0 }));
    const told: WatchEvent[] = [];
    const runner = new WatchRunner({
      store, now: () => T0 + H + 1000,
      execute: () => Promise.resolve({ kind: 'skipped', message: 'what it would send is not what was approved', approveAgain: true }),
      compare: () => Promise.resolve({ added: 0, gone: 0, changed: 0, both: 0 }),
      saveComparison: () => Promise.resolve(''),
      tell: (e) => told.push(e),
    });
    await runner.tick();
    // Read back through the store's schema from disk (a field the schema does not know is dropped).
    const saved = await new WatchStore(join(dir, 'approve-again')).get('f');
    assert.equal(saved?.runs.at(-1)?.approveAgain, true, JSON.stringify(saved?.runs));
    assert.equal(saved?.runs.at(-1)?.credits, 0);
    const ran = told.find((e) => e.kind === 'ran');
    assert.equal(ran?.kind === 'ran' && ran.run.approveAgain, true);
    await runner.dispose();
  });
});

describe('what changed between two runs (the compare engine)', () => {
  const header = 'wallet_address,realized_pnl_usd_7d,trades';
  const row = (i: number, pnl: number): string => `${sampleAddress('main', i)},${pnl},${i}`;

  it('counts rows new, gone, and moved past a threshold on a column (either way), and says it in one line', async () => {
    const a = join(dir, 'run-1.csv');
    const b = join(dir, 'run-2.csv');
    // Run 1: wallets 0..9. Run 2: 0..7 and 10..16 (2 gone, 7 new); wallet 0 up 50%, wallet 1 down 30%, wallet 2 up 10%.
    const first = Array.from({ length: 10 }, (_, i) => row(i, 1000));
    const second = [row(0, 1500), row(1, 700), row(2, 1100), ...Array.from({ length: 5 }, (_, i) => row(i + 3, 1000)), ...Array.from({ length: 7 }, (_, i) => row(i + 10, 5))];
    await writeFile(a, [header, ...first].join('\n'));
    await writeFile(b, [header, ...second].join('\n'));
    const threshold = { column: 'realized_pnl_usd_7d', percent: 20 };
    // The watch's own opener (watchService.ts): both results compared in a table worker.
    const threads: number[] = [];
    const inWorker = compareInWorker(workerFile);
    const open: OpenComparison = async (older, newer) => {
      const table = await inWorker(older, newer);
      threads.push(table.threadId);
      return table;
    };
    const c = await detectChanges(a, b, threshold, open);
    assert.deepEqual(c, { added: 7, gone: 2, both: 8, changed: 2 });
    assert.equal(changeLine('Top traders of ABC…', c, threshold, T0, T0 + H), 'Top traders of ABC…: 7 new wallets, 2 gone, 2 moved past 20% on realized_pnl_usd_7d since 14:00 UTC');
    assert.deepEqual(await detectChanges(a, b, undefined, open), { added: 7, gone: 2, both: 8, changed: 0 }, 'no threshold: only new and gone');
    assert.equal((await detectChanges(a, a, threshold, open)).changed, 0, 'the same result: nothing changed');
    assert.equal((await detectChanges(a, b, { column: 'nope', percent: 5 }, open)).missingColumn, 'nope');
    assert.equal(threads.length, 4);
    assert.ok(threads.every((t) => t !== threadId), `compared on threads ${threads.join()}, never this one (${threadId})`);
  });

  it('a run over N compared rows costs the host one reply of four counts: no cell crosses (issue 34 item 4: 5,000 rows × 3 cells a message held the host 36–47 ms)', async () => {
    const a = join(dir, 'many-1.csv');
    const b = join(dir, 'many-2.csv');
    // 12,000 wallets in A; B drops the first 1,000, adds 1,000 new, and doubles every tenth's pnl.
    // Second-chain addresses: distinct for every i (the main chain's samples repeat past a few thousand).
    const n = 12_000;
    const wide = (i: number, pnl: number): string => `${sampleAddress('alt', i)},${pnl},${i}`;
    await writeFile(a, [header, ...Array.from({ length: n }, (_, i) => wide(i, 100))].join('\n'));
    await writeFile(b, [header, ...Array.from({ length: n }, (_, i) => wide(i + 1000, (i + 1000) % 10 === 0 ? 200 : 100))].join('\n'));
    // Everything the watch's comparison hands this thread, counted: each call, and every cell in what it returns.
    const calls: string[] = [];
    let cells = 0;
    const countCells = (v: unknown): void => {
      if (Array.isArray(v)) {
        for (const x of v) {
          if (typeof x === 'string') cells++;
          else countCells(x);
        }
      }
      else if (typeof v === 'object' && v !== null && !ArrayBuffer.isView(v)) for (const x of Object.values(v)) countCells(x);
    };
    const inWorker = compareInWorker(workerFile);
    const open: OpenComparison = async (older, newer) => {
      const table = await inWorker(older, newer);
      return new Proxy(table, {
        get(target, key, receiver) {
          const v: unknown = Reflect.get(target, key, receiver);
          if (typeof v !== 'function') return v;
          if (key === 'close') return (v as () => Promise<void>).bind(target);
          return async (...args: unknown[]) => {
            calls.push(String(key));
            const got: unknown = await (v as (...a: unknown[]) => unknown).apply(target, args);
            countCells(got);
            return got;
          };
        },
      });
    };
    const c = await detectChanges(a, b, { column: 'realized_pnl_usd_7d', percent: 20 }, open);
    assert.deepEqual(c, { added: 1000, gone: 1000, both: 11_000, changed: 1100 });
    assert.equal(cells, 0, `cells read on this thread: ${cells} (calls: ${calls.join(' ')})`);
    assert.deepEqual(calls, ['changeCounts'], 'one request, answered with the counts');
  });

  it('refuses a comparison read on the extension host\'s thread (issue 31 item 4: a watch compares in the table worker)', async () => {
    const a = join(dir, 'host-1.csv');
    const b = join(dir, 'host-2.csv');
    await writeFile(a, [header, row(0, 1), row(1, 2)].join('\n'));
    await writeFile(b, [header, row(1, 3), row(2, 4)].join('\n'));
    let closed = 0;
    // The way the watch read its results before: openTable and compareSources on this thread.
    const onHost: OpenComparison = async (older, newer) => {
      const cmp = await compareSources(await openTable(older), await openTable(newer), { ownsSources: true });
      const table: ComparedTable = {
        threadId,
        changeCounts: (threshold) => countChanges(cmp, threshold),
        close: async () => {
          closed++;
          await cmp.close();
        },
      };
      return table;
    };
    await assert.rejects(detectChanges(a, b, undefined, onHost), /extension host's thread/u);
    assert.equal(closed, 1, 'the refused comparison is closed');
  });

  it('no module of src/core/watch opens a result itself: the watch reads results only through the table worker', () => {
    const folder = resolve(repoRoot, 'src', 'core', 'watch');
    for (const name of readdirSync(folder).filter((n) => n.endsWith('.ts'))) {
      const text = readFileSync(join(folder, name), 'utf8');
      assert.doesNotMatch(text, /\bopen(Table|CsvFile|AddressList|JsonFile)\b|compareSources\(/u, `${name} opens or compares a result on the calling thread`);
    }
  });

  it('moved past: relative to the older value; from zero any move counts', () => {
    assert.equal(movedPast(100, 121, 20), true);
    assert.equal(movedPast(100, 120, 20), false);
    assert.equal(movedPast(-100, -50, 20), true);
    assert.equal(movedPast(0, 1, 20), true);
    assert.equal(movedPast(0, 0, 20), false);
  });
});
