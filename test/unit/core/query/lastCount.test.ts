/**
 * Issue 35 item 1: a Wallet Database query's bill cannot be known before its answer, so the price
 * question gives what is known instead: past the hour, the last answer's count of the same query or
 * of the same query file, dated, as an estimate. These tests hold where that count is kept and for
 * how long (LAST_COUNTS), and the words the question says first.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { LAST_COUNTS, QueryRunCache } from '../../../../src/core/query/runCache';
import { unboundedBillWords } from '../../../../src/core/money/riskAmount';
import type { QueryBody } from '../../../../src/core/spec/queryModel';

const at = (d: number, h: number, m: number) => Date.UTC(2026, 10, d, h, m);
const S = 'http://127.0.0.1:1';
const body: QueryBody = { where: { and: [{ field: 'winrate_30d', op: '>', value: 0.5 }] }, limit: 5 };
const edited: QueryBody = { where: { and: [{ field: 'winrate_30d', op: '>', value: 0.4 }] }, limit: 5 };
const FILE = '/work/winners.waquery.json';

describe('the last count of a query, kept past its hour as a dated estimate', () => {
  const setUp = () => {
    let now = at(21, 14, 5);
    const dir = mkdtempSync(join(tmpdir(), 'wa-count-'));
    const cache = new QueryRunCache(dir, () => now);
    return { cache, dir, set: (t: number) => (now = t) };
  };

  it('outlives the run it came from: the next hour has no exact price but knows the last count and when it was', async () => {
    const { cache, dir, set } = setUp();
    await cache.record({ scope: S, chain: 'main', at: at(21, 14, 5), total: 1_534, charged: 153_400, body, answer: { total: 1_534, wallets: [] }, file: FILE });
    set(at(21, 16, 30));
    assert.equal(await cache.lookup(S, 'main', body), undefined, 'no exact price past the refresh');
    assert.deepEqual(await cache.lastCount(S, 'main', body, FILE), { at: at(21, 14, 5), total: 1_534, of: 'query' });
    await cache.prune();
    assert.ok(readdirSync(dir).includes(LAST_COUNTS.file), 'kept in the one file named by LAST_COUNTS');
    assert.ok(!readdirSync(dir).some((n) => n.endsWith('.answer.json')), 'the stale answer itself is gone');
  });

  it('answers for the file when its query was edited since, and says so; another chain or service knows nothing', async () => {
    const { cache, set } = setUp();
    await cache.record({ scope: S, chain: 'main', at: at(21, 14, 5), total: 1_534, charged: 153_400, body, answer: {}, file: FILE });
    set(at(21, 15, 10));
    assert.deepEqual(await cache.lastCount(S, 'main', edited, FILE), { at: at(21, 14, 5), total: 1_534, of: 'file' });
    assert.equal(await cache.lastCount(S, 'main', edited), undefined, 'no file, another query: nothing known');
    assert.equal(await cache.lastCount(S, 'alt', body, FILE), undefined);
    assert.equal(await cache.lastCount('https://api.example', 'main', body, FILE), undefined);
  });

  it('forgets a count after LAST_COUNTS.keptMs, and keeps the newest LAST_COUNTS.most', async () => {
    const { cache, set } = setUp();
    await cache.record({ scope: S, chain: 'main', at: at(21, 14, 5), total: 7, charged: 700, body, answer: {} });
    const later = at(21, 14, 5) + LAST_COUNTS.keptMs + 1;
    set(later);
    assert.equal(await cache.lastCount(S, 'main', body), undefined, 'too old to say anything');
    for (let i = 0; i <= LAST_COUNTS.most; i++) {
      const q: QueryBody = { where: { and: [{ field: 'winrate_30d', op: '>', value: i / 1000 }] }, limit: 5 };
      // An hour apart, so each record prunes the run before it and the folder stays small.
      set(later + i * 3_600_000);
      await cache.record({ scope: S, chain: 'main', at: later + i * 3_600_000, total: i, charged: 100, body: q, answer: {} });
    }
    const first: QueryBody = { where: { and: [{ field: 'winrate_30d', op: '>', value: 0 }] }, limit: 5 };
    const last: QueryBody = { where: { and: [{ field: 'winrate_30d', op: '>', value: LAST_COUNTS.most / 1000 }] }, limit: 5 };
    assert.equal(await cache.lastCount(S, 'main', first), undefined, 'the oldest of one too many is dropped');
    assert.equal((await cache.lastCount(S, 'main', last))?.total, LAST_COUNTS.most);
  });
});

describe('the words of a bill no one can know before the answer', () => {
  it('says first that the bill is 100 × the matches and that nobody can know the count, and asks for no amount', () => {
    const w = unboundedBillWords({ perMatch: 100, minimum: 100, ceiling: 1_000_000, now: at(21, 16, 30) });
    assert.match(w.message, /^The bill is 100 credits × the wallets that match, and nobody can know how many match before the answer\.$/u);
    assert.match(w.known, /Nothing is known of its count yet/u);
    assert.doesNotMatch(`${w.message} ${w.known} ${w.rule} ${w.runLabel} ${w.runDetail}`, /type|accept|risk/iu, 'no amount to type, nothing that reads as a cap');
    assert.match(w.rule, /The limit trims the rows shown, not the bill/u);
    assert.match(w.rule, /your ceiling of 1,000,000 credits per call cannot hold it/u);
  });

  it('gives the last count as an estimate with its date and time, of this query or of this file', () => {
    const q = unboundedBillWords({ perMatch: 100, minimum: 100, ceiling: 1_000_000, now: at(21, 16, 30), last: { at: at(21, 14, 5), total: 1_534, of: 'query' } });
    assert.match(q.known, /^Known: this query’s last answer, 2026-11-21 14:05 UTC, matched 1,534 wallets \(153,400 credits\)\. An estimate only: the data has been refreshed since\.$/u);
    assert.match(q.runDetail, /about 153,400 credits by the answer of 2026-11-21 14:05 UTC/u);
    const f = unboundedBillWords({ perMatch: 100, minimum: 100, ceiling: 1_000_000, now: at(21, 16, 30), last: { at: at(21, 14, 5), total: 0, of: 'file' } });
    assert.match(f.known, /^Known: this file’s last answer, 2026-11-21 14:05 UTC, matched 0 wallets \(100 credits\), for its query as it was then\. An estimate only/u);
  });
});
