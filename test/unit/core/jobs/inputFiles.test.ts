import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import type { JobRecord } from '../../../../src/core/jobs/job';
import { filesNamedBy, InputFiles, KEEP_INLINE_ITEMS } from '../../../../src/core/jobs/inputFiles';
import { GlobalStatePersistence } from '../../../../src/core/jobs/persistence';
import { Poller, type PollApi } from '../../../../src/core/jobs/poller';
import { JobStore } from '../../../../src/core/jobs/store';
import { memberKey, Storage, StorageFamilies, StorageKeys, storageOn } from '../../../../src/core/storage';
import type { RequestRecord } from '../../../../src/core/spec/wire';

const BASE = 'http://127.0.0.1:1';
const JOBS = StorageKeys.jobs.key;

/** globalState as VS Code's extension host keeps it: each update stored as a copy, handed back until the next one. */
class Memento {
  readonly values = new Map<string, unknown>();
  get<T>(key: string): T | undefined {
    return this.values.get(key) as T | undefined;
  }
  async update(key: string, value: unknown): Promise<void> {
    this.values.set(key, value === undefined ? undefined : JSON.parse(JSON.stringify(value)));
  }
  bytes(key = JOBS): number {
    return JSON.stringify(this.values.get(key) ?? null).length;
  }
}

const wallets = (n: number, seed = 0): string[] => Array.from({ length: n }, (_, i) => `${seed}W${String(i).padStart(8, '0')}abcdefghijkmnopqrstuvwxyzABCDEFGHJK`);

function pnl(id: string, list: string[], state: JobRecord['state'] = 'pending', rev?: number): JobRecord {
  return { requestId: id, endpointId: 'pnl', inputs: { wallets: list }, cost: list.length * 5, baseUrl: BASE, profileId: 'default', submittedAt: '2026-11-28T10:00:00.000Z', state, ...(rev !== undefined ? { rev } : {}) };
}

const folders: string[] = [];
function folder(): string {
  const f = mkdtempSync(join(tmpdir(), 'wa-inputfiles-'));
  folders.push(f);
  return f;
}
after(() => {
  for (const f of folders) rmSync(f, { recursive: true, force: true });
});

/** A window: its store over the shared globalState and the shared storage folder. */
function windowOn(state: Memento, root: string): { store: JobStore; persistence: GlobalStatePersistence } {
  const persistence = new GlobalStatePersistence(storageOn(state), new InputFiles(root));
  return { store: new JobStore(persistence), persistence };
}

/** A server whose jobs are all done. */
const doneApi: PollApi = {
  request: async (id: string): Promise<RequestRecord> => ({ requestId: id, url: `${BASE}/files/${id}.csv`, status: 'done' }),
  requests: async (): Promise<RequestRecord[]> => [],
};

describe('jobs: long input lists kept in files of the storage folder, not in globalState', () => {
  it('saves a job of 10,000 wallets with a small record, and a reloaded window reads its list back whole', async () => {
    const state = new Memento();
    const root = folder();
    const list = wallets(10_000);
    const first = windowOn(state, root);
    await first.store.put(pnl('big', list));
    // Before, the record held the list: 630 KB of this window's state, sent to the host before every activate().
    assert.ok(state.bytes() < 2_000, `the saved jobs are ${state.bytes()} bytes`);
    assert.equal(readdirSync(join(root, 'inputs')).length, 1);
    // The window in memory keeps its own job whole.
    assert.deepEqual(first.store.get('big')?.inputs, { wallets: list });

    const reloaded = windowOn(state, root);
    const j = reloaded.store.get('big');
    assert.equal(j?.state, 'pending');
    assert.deepEqual((j?.inputs.wallets as { count: number }).count, 10_000);
    assert.deepEqual(await reloaded.store.wholeInputs(j?.inputs ?? {}), { wallets: list });
  });

  it('a pending job from an earlier window is downloaded with its inputs whole (the sidecar names them)', async () => {
    const state = new Memento();
    const root = folder();
    const list = wallets(5_000, 1);
    await windowOn(state, root).store.put(pnl('later', list));
    const next = windowOn(state, root);
    const given: Record<string, unknown>[] = [];
    const poller = new Poller(next.store, {
      apiFor: () => doneApi,
      download: async (j) => {
        given.push(j.inputs);
        return { resultPath: '/tmp/later.csv' };
      },
      intervalMs: 5,
    });
    poller.start();
    assert.equal((await poller.whenSettled('later')).state, 'done');
    poller.dispose();
    assert.deepEqual(given, [{ wallets: list }]);
    // Once done, the record saved is still the small one.
    assert.ok(state.bytes() < 2_000, `the saved jobs are ${state.bytes()} bytes`);
  });

  it('another window sees the job and its whole list, and a change it saves keeps the list in its file', async () => {
    const state = new Memento();
    const root = folder();
    const list = wallets(KEEP_INLINE_ITEMS + 1, 2);
    const a = windowOn(state, root);
    const b = windowOn(state, root);
    await a.store.put(pnl('shared', list));
    await b.store.put(pnl('other', ['x1', 'x2']));
    const seen = b.store.get('shared');
    assert.ok(seen, 'window B adopted window A’s job');
    await b.store.update('shared', { state: 'stalled' });
    const saved = (state.get<JobRecord[]>(JOBS) ?? []).find((j) => j.requestId === 'shared');
    assert.equal(saved?.state, 'stalled');
    assert.deepEqual(await b.store.wholeInputs(saved?.inputs ?? {}), { wallets: list });
    assert.deepEqual(state.get<JobRecord[]>(JOBS)?.find((j) => j.requestId === 'other')?.inputs, { wallets: ['x1', 'x2'] }, 'a short list stays in its record');
    assert.equal(readdirSync(join(root, 'inputs')).length, 1);
  });

  it('keeps the list in the record, as before, when its file cannot be written (a crash before it was written reads the same)', async () => {
    const state = new Memento();
    const root = folder();
    writeFileSync(join(root, 'inputs'), 'not a folder');
    const list = wallets(300, 3);
    const w = windowOn(state, root);
    await w.store.put(pnl('kept', list));
    assert.deepEqual(state.get<JobRecord[]>(JOBS)?.[0]?.inputs, { wallets: list });
    assert.deepEqual(await windowOn(state, root).store.wholeInputs(state.get<JobRecord[]>(JOBS)?.[0]?.inputs ?? {}), { wallets: list });
  });

  it('a list whose file is gone stays as the record keeps it: counted, not re-runnable, never a wrong list', async () => {
    const state = new Memento();
    const root = folder();
    await windowOn(state, root).store.put(pnl('gone', wallets(200, 4)));
    rmSync(join(root, 'inputs'), { recursive: true });
    const j = windowOn(state, root).store.get('gone');
    const whole = await windowOn(state, root).store.wholeInputs(j?.inputs ?? {});
    assert.deepEqual(whole, j?.inputs);
    assert.equal((whole.wallets as { count: number }).count, 200);
  });
});

describe('jobs: records saved whole by an earlier version move their lists into files once', () => {
  it('migrates every record with a long list, keeps the rest, and the lists read back whole', async () => {
    const state = new Memento();
    const root = folder();
    const lists = [wallets(10_000, 5), wallets(2_000, 6)];
    // As the version before saved them: the lists inside the records.
    await state.update(JOBS, [pnl('old1', lists[0] ?? [], 'done', 4), pnl('old2', lists[1] ?? [], 'pending', 2), pnl('small', ['a', 'b'], 'done', 1)]);
    const before = state.bytes();
    const w = windowOn(state, root);
    assert.equal(await w.persistence.migrate(), 2);
    assert.ok(state.bytes() < before / 100, `${before} → ${state.bytes()} bytes`);
    const saved = state.get<JobRecord[]>(JOBS) ?? [];
    assert.deepEqual(saved.map((j) => [j.requestId, j.state, j.rev]), [['old1', 'done', 4], ['old2', 'pending', 2], ['small', 'done', 1]]);
    assert.deepEqual(await w.store.wholeInputs(saved[0]?.inputs ?? {}), { wallets: lists[0] });
    assert.deepEqual(await w.store.wholeInputs(saved[1]?.inputs ?? {}), { wallets: lists[1] });
    assert.deepEqual(saved[2]?.inputs, { wallets: ['a', 'b'] });
    assert.equal(await w.persistence.migrate(), 0, 'once');
  });

  it('loses nothing another window saves while the files are written', async () => {
    const state = new Memento();
    const root = folder();
    const list = wallets(1_000, 7);
    await state.update(JOBS, [pnl('old', list, 'pending', 1)]);
    const w = windowOn(state, root);
    const migrating = w.persistence.migrate();
    // Another window (an earlier version) saves while the file is being written: a new job, and the old one moved on.
    await state.update(JOBS, [pnl('old', list, 'done', 2), pnl('new', ['n1'], 'pending', 1)]);
    await migrating;
    const saved = state.get<JobRecord[]>(JOBS) ?? [];
    assert.deepEqual(saved.map((j) => [j.requestId, j.state, j.rev]), [['old', 'done', 2], ['new', 'pending', 1]]);
    assert.deepEqual(await w.store.wholeInputs(saved[0]?.inputs ?? {}), { wallets: list });
  });

  it('names each file by its content and never rewrites one', async () => {
    const state = new Memento();
    const root = folder();
    const list = wallets(500, 8);
    const w = windowOn(state, root);
    await w.store.put(pnl('one', list));
    await w.store.put(pnl('two', [...list]));
    const files = readdirSync(join(root, 'inputs'));
    assert.equal(files.length, 1, 'the same list, one file');
    assert.deepEqual(JSON.parse(readFileSync(join(root, 'inputs', files[0] ?? ''), 'utf8')), list);
  });
});

describe('recent inputs: long lists kept in files of the storage folder, not in globalState', () => {
  const RECENT = memberKey(StorageFamilies.recentInputs, 'pnl').key;
  const windowStorage = (state: Memento, root: string): Storage => new Storage({ globalState: state, workspaceState: new Memento() }, new InputFiles(root));

  it('remembers an input of 10,000 wallets with a small saved list; another window offers it whole, and once', async () => {
    const state = new Memento();
    const root = folder();
    const big = { wallets: wallets(10_000, 9) };
    const a = windowStorage(state, root);
    await a.rememberInput('pnl', big, 1);
    await a.rememberInput('pnl', { wallets: ['w1'] }, 2);
    // Before, the saved list held the 10,000 wallets (630 KB).
    assert.ok(state.bytes(RECENT) < 2_000, `the saved recent inputs are ${state.bytes(RECENT)} bytes`);
    assert.deepEqual(await a.recentInputs('pnl'), [{ wallets: ['w1'] }, big]);
    const b = windowStorage(state, root);
    assert.deepEqual(await b.recentInputs('pnl'), [{ wallets: ['w1'] }, big]);
    // The same list remembered again by the other window (whole in its memory, kept in the state): one input, now newest.
    await b.rememberInput('pnl', { wallets: [...big.wallets] }, 3);
    assert.deepEqual(await windowStorage(state, root).recentInputs('pnl'), [big, { wallets: ['w1'] }]);
  });

  it('moves the long lists of recent inputs saved whole by an earlier version once, losing none', async () => {
    const state = new Memento();
    const root = folder();
    const big = { wallets: wallets(3_000, 10) };
    await state.update(RECENT, [{ input: big, at: 1 }, { input: { wallets: ['s1'] }, at: 2 }]);
    const before = state.bytes(RECENT);
    const w = windowStorage(state, root);
    assert.equal(await w.moveRecentLists(['pnl', 'trending']), 1);
    assert.ok(state.bytes(RECENT) < before / 50, `${before} → ${state.bytes(RECENT)} bytes`);
    assert.deepEqual(await windowStorage(state, root).recentInputs('pnl'), [{ wallets: ['s1'] }, big]);
    assert.equal(await w.moveRecentLists(['pnl']), 0, 'once');
  });
});

describe('jobs: the files of long input lists no state names any more are deleted once a day old', () => {
  const DAY = 24 * 60 * 60 * 1000;
  const age = (file: string, ms: number): void => {
    const t = (Date.now() - ms) / 1000;
    utimesSync(file, t, t);
  };

  it('deletes an old file no job or recent input names; keeps the named, the young, and what is not ours', async () => {
    const state = new Memento();
    const root = folder();
    const storage = new Storage({ globalState: state, workspaceState: state }, new InputFiles(root));
    const w = windowOn(state, root);
    await w.store.put(pnl('kept-job', wallets(500, 1)));
    await storage.rememberInput('pnl', { wallets: wallets(300, 2) });
    // A job trimmed from the records long ago left its file behind, and one written a moment ago
    // by another window is not named yet.
    const dir = join(root, 'inputs');
    const orphan = join(dir, `${'a'.repeat(64)}.json`);
    const fresh = join(dir, `${'b'.repeat(64)}.json`);
    writeFileSync(orphan, '[]');
    writeFileSync(fresh, '[]');
    writeFileSync(join(dir, 'notes.txt'), 'not ours');
    mkdirSync(join(dir, `${'c'.repeat(64)}.json`));
    symlinkSync(orphan, join(dir, `${'d'.repeat(64)}.json`));
    for (const f of readdirSync(dir)) if (!f.startsWith('b')) age(join(dir, f), 2 * DAY);

    const named = new Set(storage.storedInputs(['pnl']).flatMap(filesNamedBy));
    assert.equal(named.size, 2, 'the job’s list and the recent input’s list');
    const deleted = await new InputFiles(root).prune(named);
    assert.equal(deleted, 1);
    const left = readdirSync(dir).sort();
    assert.ok(!left.includes(`${'a'.repeat(64)}.json`), 'the old file nothing names is gone');
    for (const f of named) assert.ok(left.includes(f), `${f} is named and kept`);
    for (const f of [`${'b'.repeat(64)}.json`, 'notes.txt', `${'c'.repeat(64)}.json`, `${'d'.repeat(64)}.json`]) assert.ok(left.includes(f), `${f} is left`);
    // The kept lists still read back whole.
    const again = windowOn(state, root);
    assert.equal(((await again.store.wholeInputs(again.store.get('kept-job')?.inputs ?? {})).wallets as string[]).length, 500);
    assert.equal(((await storage.recentInputs('pnl'))[0]?.wallets as string[]).length, 300);
  });

  it('a list saved again whose file is already there touches it, so a window cleaning up keeps it', async () => {
    const state = new Memento();
    const root = folder();
    const list = wallets(200, 3);
    await windowOn(state, root).store.put(pnl('first', list));
    const dir = join(root, 'inputs');
    const [file] = readdirSync(dir);
    assert.ok(file);
    // The job is trimmed from the records, its file a day and more old.
    await state.update(JOBS, []);
    age(join(dir, file), 2 * DAY);
    // Another window runs the same list again: the file is taken, as it is.
    await windowOn(state, root).store.put(pnl('second', [...list]));
    assert.ok(Date.now() - statSync(join(dir, file)).mtimeMs < DAY, 'the file found there was touched');
    // A third window starting now cleans up before reading the record that names it: nothing lost.
    assert.equal(await new InputFiles(root).prune(new Set()), 0);
    assert.deepEqual(readdirSync(dir), [file]);
  });
});
