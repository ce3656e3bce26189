/**
 * Lists in globalState that a stale read cannot shrink (src/core/mergedList.ts): the spend ledger
 * and the memory of unsettled paid calls. The fake store answers, after each write, with the value
 * before it for a while: what VS Code's globalState does when the echo of an earlier write arrives
 * after a later one.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MergedList } from '../../../src/core/mergedList';
import { AmbiguousCalls } from '../../../src/core/money/ambiguousCalls';
import { RECENT_INPUTS_MAX, Storage, StorageKeys } from '../../../src/core/storage';
import { countingTurns } from '../loopTurns';

/** A key-value store whose reads lag: each write queues the value before it, and reads hand those back first. */
class EchoStore {
  saved = new Map<string, unknown>();
  late: { key: string; value: unknown }[] = [];
  get<T>(key: string, fallback?: T): T {
    const i = this.late.findIndex((l) => l.key === key);
    if (i >= 0) return (this.late.splice(i, 1)[0]?.value ?? fallback) as T;
    return (this.saved.get(key) ?? fallback) as T;
  }
  async update(key: string, value: unknown): Promise<void> {
    this.late.push({ key, value: this.saved.get(key) });
    this.saved.set(key, value);
  }
  keys(): readonly string[] {
    return [...this.saved.keys()];
  }
}

interface Item {
  id: string;
  at: number;
}

function list(store: EchoStore, max = 100): MergedList<Item> {
  return new MergedList<Item>({
    read: () => store.get<Item[]>('k', []),
    write: (items) => store.update('k', items),
    id: (i) => i.id,
    order: (a, b) => a.at - b.at,
    max,
  });
}

const ids = (items: readonly Item[]): string[] => items.map((i) => i.id);

describe('a list in globalState that a stale read cannot shrink', () => {
  it('keeps every item written one after another, though each write reads the list before the last', async () => {
    const store = new EchoStore();
    const l = list(store);
    for (const [i, id] of ['a', 'b', 'c', 'd'].entries()) await l.put({ id, at: i });
    assert.deepEqual(ids(l.all()), ['a', 'b', 'c', 'd']);
    store.late = [];
    assert.deepEqual(ids(store.get<Item[]>('k', [])), ['a', 'b', 'c', 'd'], 'and the saved list has them all');
  });

  it('the same writes through a plain read-modify-write lose items (what the ledger did)', async () => {
    const store = new EchoStore();
    for (const [i, id] of ['a', 'b', 'c', 'd'].entries()) await store.update('k', [...store.get<Item[]>('k', []), { id, at: i }]);
    store.late = [];
    assert.notDeepEqual(ids(store.get<Item[]>('k', [])), ['a', 'b', 'c', 'd']);
  });

  it('a removed item stays removed though a stale read still lists it; another window’s items come through', async () => {
    const store = new EchoStore();
    const l = list(store);
    await l.put({ id: 'a', at: 1 });
    await l.put({ id: 'b', at: 2 });
    await l.remove('a');
    assert.deepEqual(ids(l.all()), ['b']);
    store.late = [];
    // Another window adds an item.
    store.saved.set('k', [...store.get<Item[]>('k', []), { id: 'x', at: 3 }]);
    assert.deepEqual(ids(l.all()), ['b', 'x']);
    await l.put({ id: 'a', at: 4 });
    assert.deepEqual(ids(l.all()), ['b', 'x', 'a'], 'put again after a removal: back');
  });

  it('keeps the last max items, in order', async () => {
    const store = new EchoStore();
    const l = list(store, 3);
    for (let i = 0; i < 6; i++) await l.put({ id: `i${i}`, at: i });
    assert.deepEqual(ids(l.all()), ['i3', 'i4', 'i5']);
    store.late = [];
    assert.deepEqual(ids(store.get<Item[]>('k', [])), ['i3', 'i4', 'i5']);
  });

  it('unsettled paid calls: none is forgotten by a stale read, and a settled one stays forgotten', async () => {
    const store = new EchoStore();
    const calls = new AmbiguousCalls(new Storage({ globalState: store, workspaceState: store }), () => 1_000_000);
    const base = 'http://127.0.0.1:1';
    for (const hours of [1, 2, 3]) await calls.remember(base, 'trending', { hours });
    for (const hours of [1, 2, 3]) assert.equal(await calls.lastAt(base, 'trending', { hours }), 1_000_000, `hours ${hours} remembered`);
    await calls.forget(base, 'trending', { hours: 2 });
    assert.equal(await calls.lastAt(base, 'trending', { hours: 2 }), undefined);
    assert.equal(await calls.lastAt(base, 'trending', { hours: 2 }), undefined, 'and again, past the stale read');
    assert.equal(await calls.lastAt(base, 'trending', { hours: 3 }), 1_000_000);
  });

  it("knows a call with a list of 100,000 by the same id as before, its inputs' text hashed a slice a turn", async () => {
    const store = new EchoStore();
    const calls = new AmbiguousCalls(new Storage({ globalState: store, workspaceState: store }), () => 1_000_000);
    const base = 'http://127.0.0.1:1';
    const wallet = (i: number): string => `W${String(i).padStart(6, '0')}${'x'.repeat(36)}`;
    const input = { window: '30d', wallets: Array.from({ length: 20_000 }, (_, i) => wallet(i)), filters: { min: 1.5, tags: ['b', 'a', null], note: 'é"\\' } };
    await calls.remember(base, 'pnl', input);
    await calls.remember(base, 'trending', { hours: 2 });
    // The ids b739bac gave these inputs (sha256 of the sorted-keys JSON in one go): calls remembered before this change are still known.
    store.late = [];
    const saved = store.get<{ id: string }[]>(StorageKeys.ambiguousCalls.key, []);
    assert.deepEqual(saved.map((e) => e.id), ['36a61e761456e9ff05ab05376dfcd381', '481b9d5fc73b7cf32ec7ad9a537a7fac']);
    const big = { wallets: Array.from({ length: 100_000 }, (_, i) => wallet(i)) };
    await calls.remember(base, 'pnl', big);
    // Before, lastAt wrote and hashed 4.7 MB of text in one turn of the loop (100–600 ms at load 13).
    const { value, turns } = await countingTurns(() => calls.lastAt(base, 'pnl', big));
    assert.equal(value, 1_000_000);
    assert.ok(turns >= 5, `the loop turned ${turns} times while a list of 100,000 was looked up`);
    assert.equal(await calls.lastAt(base, 'pnl', { wallets: big.wallets.slice(1) }), undefined, 'another list is another call');
  });
});

describe('a record in globalState that a stale read cannot undo (MergedRecord, through Storage)', () => {
  const storage = (store: EchoStore): Storage => new Storage({ globalState: store, workspaceState: store });

  it('keeps every entry set one after another, though each write reads the record before the last (warned-once marks, quota anchors)', async () => {
    const store = new EchoStore();
    const marks = storage(store).record(StorageKeys.creditsWarned);
    for (const [i, k] of ['a', 'b', 'c', 'd'].entries()) await marks.set(k, i);
    assert.deepEqual(marks.all(), { a: 0, b: 1, c: 2, d: 3 });
    store.late = [];
    assert.deepEqual(store.get(StorageKeys.creditsWarned.key), { a: 0, b: 1, c: 2, d: 3 }, 'and the saved record has them all');
  });

  it('the same writes through a plain read-modify-write lose entries (what the warned-once marks did)', async () => {
    const store = new EchoStore();
    for (const [i, k] of ['a', 'b', 'c', 'd'].entries()) await store.update('w', { ...store.get<Record<string, number>>('w', {}), [k]: i });
    store.late = [];
    assert.notDeepEqual(store.get('w'), { a: 0, b: 1, c: 2, d: 3 });
  });

  it('modify writes only the entries it changed: another window’s entry comes through, a deleted one stays deleted (saved views)', async () => {
    const store = new EchoStore();
    const views = storage(store).record(StorageKeys.savedViews);
    await views.modify((all) => ({ ...all, pnl: 1 }));
    await views.modify((all) => ({ ...all, trending: 2 }));
    store.late = [];
    // Another window saves a scope.
    store.saved.set(StorageKeys.savedViews.key, { ...store.get<Record<string, unknown>>(StorageKeys.savedViews.key, {}), mcap: 3 });
    await views.modify((all) => Object.fromEntries(Object.entries(all).filter(([k]) => k !== 'pnl')));
    assert.deepEqual(views.all(), { trending: 2, mcap: 3 });
    store.late = [];
    assert.deepEqual(store.get(StorageKeys.savedViews.key), { trending: 2, mcap: 3 });
  });

  it('recent inputs: the newest first, each once, at most RECENT_INPUTS_MAX, none lost to a stale read', async () => {
    const store = new EchoStore();
    const s = storage(store);
    for (let i = 0; i < RECENT_INPUTS_MAX + 2; i++) await s.rememberInput('trending', { hours: i }, i);
    await s.rememberInput('trending', { hours: 3 }, 100);
    const want = [{ hours: 3 }, { hours: 6 }, { hours: 5 }, { hours: 4 }, { hours: 2 }].slice(0, RECENT_INPUTS_MAX);
    assert.deepEqual(await s.recentInputs('trending'), want);
    store.late = [];
    assert.deepEqual(await storage(store).recentInputs('trending'), want, 'another window reads the same');
    assert.deepEqual(await s.recentInputs('pnl'), [], 'per endpoint');
  });

  it('recent inputs: a list of 20,000 is written as JSON once when remembered, not again for every recent input at each call', async () => {
    const store = new EchoStore();
    const s = storage(store);
    const list = (n: number): { wallets: string[] } => ({ wallets: Array.from({ length: 20_000 }, (_, i) => `W${n}-${String(i).padStart(6, '0')}${'x'.repeat(32)}`) });
    for (let n = 0; n < RECENT_INPUTS_MAX; n++) await s.rememberInput('pnl', list(n), n);
    // Each text of 100,000 characters or more JSON.stringify writes while one more is remembered.
    const stringify = JSON.stringify;
    let long = 0;
    JSON.stringify = function counted(...a: Parameters<typeof JSON.stringify>): string {
      const text = stringify.apply(JSON, a);
      if ((text?.length ?? 0) >= 100_000) long++;
      return text;
    } as typeof JSON.stringify;
    try {
      await s.rememberInput('pnl', list(99), 99);
      await s.rememberInput('pnl', list(0), 100);
    } finally {
      JSON.stringify = stringify;
    }
    assert.equal(long, 2, `${long} long texts written for 2 inputs remembered`);
    assert.deepEqual((await s.recentInputs('pnl')).map((r) => (r.wallets as string[])[0]), [0, 99, 4, 3, 2].map((n) => list(n).wallets[0]));
  });
});
