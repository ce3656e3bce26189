/**
 * Paid pages are kept (src/core/results/pagedResult.ts), against the sandbox: a page that fails
 * leaves every page paid before it in the result file; resume continues from the saved cursor;
 * and the sandbox's ledger and GET /credits show each page paid exactly once.
 */
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { WalletAnalyticsApi } from '../../../../src/core/transport/api';
import { endpoint } from '../../../../src/core/spec/catalog';
import { isComplete, listResumable, loadPaged, newPagedFile, remainingPages, resumePaged, startPaged, type PageCall } from '../../../../src/core/results/pagedResult';
import { readableResultStem } from '../../../../src/core/results/names';
import { openJsonFile } from '../../../../src/core/table/jsonSource';
import { ActivityPage, CreatorsPage } from '../../../../src/core/spec/wire';
import { startSandbox, type Sandbox } from '../../../../src/sandbox/index';

let sb: Sandbox;
let api: WalletAnalyticsApi;
let dir: string;
/** A wallet with 7 to 15 pages of swaps, and its swap count. */
let busy: string;
let total: number;

const charged = (since: number) => sb.ledger().slice(since).reduce((s, e) => s + e.credits, 0);
const activityAsked = (since: number) => sb.received().slice(since).filter((r) => r.path.includes('/activity'));

/** api.call, counting calls; the Nth one meets a server error (500: refused, not charged) as the sandbox's fault switch makes it. */
function failingAt(n: number): { call: PageCall; inputs: Record<string, unknown>[] } {
  const inputs: Record<string, unknown>[] = [];
  const call: PageCall = async (id, input) => {
    inputs.push(input);
    if (inputs.length !== n) return api.call(id, input);
    sb.setFaults({ errorRate: 1 });
    try {
      return await api.call(id, input);
    } finally {
      sb.setFaults({ errorRate: 0 });
    }
  };
  return { call, inputs };
}

before(async () => {
  sb = await startSandbox({ wallets: 300, altWallets: 100 });
  api = new WalletAnalyticsApi({ baseUrl: sb.baseUrl, apiKey: () => Promise.resolve(sb.demoKey), retry: { baseDelayMs: 1 } });
  dir = await mkdtemp(join(tmpdir(), 'wa-pages-'));
  for (const a of sb.addresses('wallet', 300)) {
    const r = await fetch(`${sb.baseUrl}/wallets/${a}/activity`, { headers: { api_key: sb.demoKey } });
    const p = ActivityPage.parse(await r.json()) as ActivityPage & { total: number };
    if (p.total > 650 && p.total < 1_500) {
      busy = a;
      total = p.total;
      break;
    }
  }
  assert.ok(busy, 'a wallet with several pages of swaps');
});

after(async () => {
  await sb.close();
  await rm(dir, { recursive: true, force: true });
});

describe('paged results: paid pages kept on disk', () => {
  it('a failure at page 4 keeps pages 1–3 in the file; resume reads from page 4 on; every page is paid once', async () => {
    const ep = endpoint('wallet_activity');
    const file = await newPagedFile(dir, ep.id);
    const ledger0 = sb.ledger().length;
    const received0 = sb.received().length;
    const balance0 = await api.credits();

    const first = failingAt(4);
    const out = await startPaged(file, ep, { address: busy }, { call: first.call, maxPages: 20, baseUrl: sb.baseUrl });
    assert.equal(out.end, 'failed');
    assert.match(String(out.error), /500|server/iu);
    assert.deepEqual([out.pages, out.credits], [3, 3], 'this run paid for three pages');

    // (a) The file holds the three paid pages and the cursor of the fourth, read from disk.
    assert.ok((await stat(file)).isFile(), 'the result file exists after the failed page');
    const disk = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;
    assert.equal(disk.endpointId, 'wallet_activity');
    assert.equal(disk.address, busy);
    assert.equal(disk.baseUrl, sb.baseUrl, 'the server the cursor belongs to');
    assert.deepEqual([disk.pages, disk.credits, disk.complete], [3, 3, false]);
    assert.equal((disk.swaps as unknown[]).length, 300);
    assert.equal(typeof disk.nextCursor, 'string');
    assert.equal(disk.nextCursor, first.inputs[3]?.cursor, 'the saved cursor is the failed page’s');
    assert.match(String(disk.stopped), /500|server/iu);
    assert.equal(charged(ledger0), 3, 'the sandbox charged the three pages it answered, not the refused fourth');
    const saved = await loadPaged(file);
    assert.equal(remainingPages(saved), 17);

    // (b) Resume asks for page 4 first (the saved cursor) and goes on to the last page.
    const again = failingAt(0);
    const resumed = await resumePaged(file, { call: again.call, maxPages: remainingPages(saved) });
    assert.equal(resumed.end, 'last');
    assert.equal(again.inputs[0]?.cursor, disk.nextCursor, 'resume starts from the saved cursor');
    const pages = Math.ceil(total / 100);
    assert.equal(resumed.pages, pages - 3, 'resume read only the pages not yet paid');
    const done = await loadPaged(file);
    assert.ok(isComplete(done));
    assert.equal(done.baseUrl, sb.baseUrl);
    assert.deepEqual([done.pages, done.credits, done.rows.length], [pages, pages, total]);
    assert.equal(new Set(done.rows.map((s) => s.signature)).size, total, 'every swap once');
    assert.equal(done.stopped, undefined, 'the note of the failure is gone once the read is complete');

    // (c) Nothing paid twice: the ledger and the balance went down by the number of distinct pages.
    assert.equal(charged(ledger0), pages);
    assert.equal(balance0 - (await api.credits()), pages);
    const answered = activityAsked(received0).filter((r) => r.status === 200);
    assert.equal(answered.length, pages);
    assert.equal(new Set(answered.map((r) => r.query)).size, pages, 'no page was asked for twice');
  });

  it('stops at the page budget and on cancel, keeping what was read; each resume appends', async () => {
    const ep = endpoint('wallet_activity');
    const file = await newPagedFile(dir, ep.id);
    const ledger0 = sb.ledger().length;
    const call: PageCall = (id, input) => api.call(id, input);
    const seen: number[] = [];
    const two = await startPaged(file, ep, { address: busy }, { call, maxPages: 2, onPage: (r) => void seen.push(r.pages) });
    assert.deepEqual([two.end, two.pages, two.result?.pages, two.result?.rows.length], ['budget', 2, 2, 200]);
    assert.deepEqual(seen, [1, 2], 'told after each page');
    assert.equal(remainingPages(await loadPaged(file)), 0, 'the pages asked for were read');
    // Cancelled after one more page: it is kept.
    let n = 0;
    const cancelled = await resumePaged(file, { call, maxPages: 5, cancelled: () => n > 0, onPage: () => void n++ });
    assert.deepEqual([cancelled.end, cancelled.pages, cancelled.result?.pages, cancelled.result?.asked], ['cancelled', 1, 3, 7]);
    const kept = await loadPaged(file);
    assert.deepEqual([kept.pages, kept.rows.length, kept.stopped, remainingPages(kept)], [3, 300, 'cancelled', 4]);
    assert.equal(charged(ledger0), 3);
    // A complete file resumes to nothing, for free.
    await resumePaged(file, { call, maxPages: 100 });
    const ledger1 = sb.ledger().length;
    const none = await resumePaged(file, { call, maxPages: 100 });
    assert.deepEqual([none.end, none.pages, sb.ledger().length], ['last', 0, ledger1]);
  });

  it('two reads given the same free name (one endpoint, the same second) keep both: the second is saved as -2, no paid page overwritten', async () => {
    const ep = endpoint('wallet_activity');
    const own = await mkdtemp(join(dir, 'same-second-'));
    const at = new Date('2026-11-26T10:00:00Z');
    // Both reads are proposed the same name, as two windows (or a watch and a person) would be.
    const [a, b] = [await newPagedFile(own, ep.id, at), await newPagedFile(own, ep.id, at)];
    assert.equal(a, b, 'the same proposed name');
    const [wallet1, wallet2] = sb.addresses('wallet', 2);
    const [x, y] = await Promise.all([
      startPaged(a, ep, { address: wallet1 }, { call: (id, input) => api.call(id, input), maxPages: 2 }),
      startPaged(b, ep, { address: wallet2 }, { call: (id, input) => api.call(id, input), maxPages: 2 }),
    ]);
    assert.notEqual(x.file, y.file, 'two files');
    assert.deepEqual([x.file, y.file].map((f) => f.slice(own.length + 1)).sort(), [a.slice(own.length + 1), a.slice(own.length + 1).replace(/\.json$/u, '-2.json')].sort());
    for (const [out, wallet] of [[x, wallet1], [y, wallet2]] as const) {
      const kept = await loadPaged(out.file);
      assert.equal(kept.input.address, wallet, 'each file holds its own read');
      assert.equal(kept.pages, out.result?.pages, 'every paid page of it');
    }
  });

  it('keeps nothing when the first page fails (nothing was paid), and reports a page paid but not saved', async () => {
    const ep = endpoint('wallet_activity');
    const file = await newPagedFile(dir, `${ep.id}-first`);
    const out = await startPaged(file, ep, { address: busy }, { call: failingAt(1).call, maxPages: 3 });
    assert.deepEqual([out.end, out.result, out.pages], ['failed', undefined, 0]);
    await assert.rejects(stat(file));
    // The file's place taken by a folder after page 1: page 2 is paid, but cannot be saved.
    const blocked = await newPagedFile(dir, `${ep.id}-blocked`);
    const ledger0 = sb.ledger().length;
    const r = await startPaged(blocked, ep, { address: busy }, {
      call: (id, input) => api.call(id, input),
      maxPages: 3,
      onPage: async () => {
        await rm(blocked);
        await mkdir(blocked);
      },
    });
    assert.deepEqual([r.end, r.unsaved, r.pages, r.credits, r.result?.pages, r.result?.rows.length], ['failed', true, 2, 2, 1, 100]);
    assert.equal(charged(ledger0), 2, 'the unsaved page was paid: the outcome says so');
  });

  it('reads token creators page after page, stops at a short page, and resumes after a failure', async () => {
    const ep = endpoint('token_creators');
    // The last three pages of 20: the read must stop at the short one by itself.
    const probe = CreatorsPage.parse((await api.call(ep.id, { sort: 'tokens_created', order: 'desc', page: 1, page_size: 1 })).value);
    const count = probe.total ?? 0;
    const lastPage = Math.ceil(count / 20);
    assert.ok(count % 20 !== 0 && lastPage > 3, `the sandbox ends its creators on a short page (${count})`);
    const input = { sort: 'tokens_created', order: 'desc', page: lastPage - 2, page_size: 20 };
    const expected = count - (lastPage - 3) * 20;
    const file = await newPagedFile(dir, ep.id);
    const ledger0 = sb.ledger().length;
    const out = await startPaged(file, ep, input, { call: failingAt(2).call, maxPages: 50 });
    assert.deepEqual([out.end, out.result?.pages, out.result?.credits, out.result?.next], ['failed', 1, 2_000, lastPage - 1]);
    const disk = JSON.parse(await readFile(file, 'utf8')) as Record<string, unknown>;
    assert.deepEqual([(disk.creators as unknown[]).length, disk.nextPage, disk.complete], [20, lastPage - 1, false]);
    const again = failingAt(0);
    const resumed = await resumePaged(file, { call: again.call, maxPages: 49 });
    assert.deepEqual([resumed.end, resumed.pages], ['last', 2], 'two more pages: the second was short, so the last');
    assert.deepEqual(again.inputs.map((i) => i.page), [lastPage - 1, lastPage]);
    const done = await loadPaged(file);
    assert.deepEqual([done.pages, done.rows.length, done.credits], [3, expected, expected * 100]);
    assert.equal(new Set(done.rows.map((c) => c.address)).size, expected);
    assert.equal(charged(ledger0), expected * 100, 'each creator paid once');
  });

  it('opens a saved result in the table as rows of swaps (or creators)', async () => {
    const ep = endpoint('altchain_wallet_activity');
    const [alt] = sb.addresses('altWallet', 1);
    const file = await newPagedFile(dir, ep.id);
    const out = await startPaged(file, ep, { address: alt }, { call: (id, input) => api.call(id, input), maxPages: 2 });
    const n = out.result?.rows.length ?? 0;
    const table = await openJsonFile(file);
    assert.equal(table.rowCount, n);
    if (n > 0) assert.ok(table.columns.includes('signature'), table.columns.join(', '));
    const creators = await newPagedFile(dir, 'token_creators');
    await startPaged(creators, endpoint('token_creators'), { sort: 'rug_count', order: 'asc', page: 1, page_size: 5 }, { call: (id, input) => api.call(id, input), maxPages: 2 });
    const t2 = await openJsonFile(creators);
    assert.equal(t2.rowCount, 10);
    assert.ok(t2.columns.includes('address'));
  });

  it('lists the results that can be resumed, newest first, and nothing else', async () => {
    const own = await mkdtemp(join(dir, 'list-'));
    const ep = endpoint('wallet_activity');
    const call: PageCall = (id, input) => api.call(id, input);
    const t = (s: number) => () => new Date(Date.UTC(2025, 0, 1, 0, 0, s));
    const older = await newPagedFile(own, ep.id, t(1)());
    await startPaged(older, ep, { address: busy }, { call, maxPages: 1, now: t(1) });
    const newer = await newPagedFile(own, 'token_creators', t(2)());
    await startPaged(newer, endpoint('token_creators'), { sort: 'rug_count', order: 'asc', page: 1, page_size: 3 }, { call, maxPages: 1, now: t(2) });
    const complete = await newPagedFile(own, ep.id, t(3)());
    await startPaged(complete, ep, { address: busy }, { call, maxPages: 100, now: t(3) });
    await writeFile(join(own, 'wallet_activity-20240101-000000.json'), JSON.stringify({ address: busy, pages: 1, swaps: [], nextCursor: 'x' }));
    await writeFile(join(own, 'trending-20240101-000000.json'), '{}');
    assert.deepEqual((await listResumable(own)).map((r) => r.file), [newer, older]);
    assert.deepEqual(await listResumable(join(own, 'missing')), []);
  });

  it('never reuses a file name, and refuses a file that is not a paged result', async () => {
    const d = new Date(Date.UTC(2025, 0, 2, 3, 4, 5));
    const a = await newPagedFile(dir, 'wallet_activity', d);
    // Named like a queued result (issue 35 item 14): the readable stamp, local time.
    const stem = readableResultStem({ endpointId: 'wallet_activity', submittedAt: d.toISOString() });
    assert.ok(a.endsWith(`${stem}.json`), a);
    await mkdir(a);
    assert.ok((await newPagedFile(dir, 'wallet_activity', d)).endsWith(`${stem}-2.json`));
    await assert.rejects(loadPaged(a), /cannot be read/u);
  });
});
