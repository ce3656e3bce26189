/**
 * The watches, in one file every window of the profile shares (`watches.json` under the
 * extension's global storage). Windows are separate processes: each change is a read-modify-write
 * of the whole file under a short lock (core/files/fileLock.ts tryLock), written atomically, so two
 * windows never lose each other's changes, and a slot taken by one is seen taken by the other
 * (`claim`: never run twice for one slot). Reads need no lock (writes are atomic renames).
 *
 * Also the runner's lock: one window runs the watches; the others try to take it over at each
 * tick, which they can once its owner stopped touching it (the window closed or crashed).
 * Pure apart from its folder.
 */
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { sleep, tryLock, writeAtomic, type HeldLock, type LockOptions } from '../files/fileLock';
import { MAX_RUNS, WatchRecord, type RunRecord } from './model';
import { storedSchedule } from './schedule';
import { l10n } from '../l10n';

const FILE = 'watches.json';

export class WatchStore {
  private readonly file: string;

  constructor(
    readonly dir: string,
    /** `testMode`: under VS Code's test runner (ExtensionMode.Test), whose intervals may be seconds. */
    private readonly opts: { readonly lock?: LockOptions; readonly testMode?: boolean } = {},
  ) {
    this.file = join(dir, FILE);
  }

  /**
   * Every watch, read fresh from the file (a record that does not parse is left out, and kept on
   * disk). The file can be edited by hand: what was checked when the watch was created is checked
   * again here (an interval under the hour is raised to it).
   */
  async all(): Promise<WatchRecord[]> {
    return (await this.readRaw()).flatMap((r) => {
      const p = WatchRecord.safeParse(r);
      return p.success ? [{ ...p.data, schedule: storedSchedule(p.data.schedule, this.opts.testMode) }] : [];
    });
  }

  async get(id: string): Promise<WatchRecord | undefined> {
    return (await this.all()).find((w) => w.id === id);
  }

  /** Adds a watch (or replaces one with its id). */
  async put(w: WatchRecord): Promise<void> {
    await this.modify((list) => [...list.filter((x) => idOf(x) !== w.id), w]);
  }

  async remove(id: string): Promise<boolean> {
    let found = false;
    await this.modify((list) => list.filter((x) => (idOf(x) === id ? ((found = true), false) : true)));
    return found;
  }

  /** Changes one watch under the lock; `f` sees its latest saved state. Resolves to the new state (undefined when gone). */
  async update(id: string, f: (w: WatchRecord) => WatchRecord): Promise<WatchRecord | undefined> {
    let out: WatchRecord | undefined;
    await this.modify((list) =>
      list.map((x) => {
        if (idOf(x) !== id) return x;
        const p = WatchRecord.safeParse(x);
        if (!p.success) return x;
        out = f(p.data);
        return out;
      }),
    );
    return out;
  }

  /**
   * Takes a slot of a watch: true when this caller is the one to act on it (run it, or tell it as
   * missed), false when it was already taken (in this window or another) or the watch is gone.
   */
  async claim(id: string, slot: number): Promise<boolean> {
    let won = false;
    await this.update(id, (w) => {
      if (w.lastSlot >= slot) return w;
      won = true;
      return { ...w, lastSlot: slot };
    });
    return won;
  }

  /** Adds a run to a watch's record (the newest MAX_RUNS are kept); a result becomes the one the next run is compared with. */
  async addRun(id: string, run: RunRecord): Promise<WatchRecord | undefined> {
    return this.update(id, (w) => ({
      ...w,
      runs: [...w.runs, run].slice(-MAX_RUNS),
      ...(run.resultPath !== undefined ? { lastResult: run.resultPath, lastResultAt: run.at } : {}),
    }));
  }

  /** The runner's lock: held by one window at a time, taken over once its owner is gone. */
  tryRunnerLock(opts: LockOptions = {}): Promise<HeldLock | undefined> {
    return mkdir(this.dir, { recursive: true }).then(() => tryLock(join(this.dir, 'runner.lock'), { staleMs: 60_000, ...opts }));
  }

  private async readRaw(): Promise<unknown[]> {
    try {
      const v: unknown = JSON.parse(await readFile(this.file, 'utf8'));
      return Array.isArray(v) ? v : [];
    } catch {
      return [];
    }
  }

  /** A read-modify-write of the whole file under the store's short lock (waits up to ~10 s for it). */
  private async modify(f: (list: unknown[]) => unknown[]): Promise<void> {
    await mkdir(this.dir, { recursive: true });
    const lockPath = `${this.file}.lock`;
    let lock: HeldLock | undefined;
    for (let i = 0; i < 200 && !lock; i++) {
      lock = await tryLock(lockPath, { staleMs: 10_000, ...this.opts.lock });
      if (!lock) await sleep(50);
    }
    if (!lock) throw new Error(l10n.t('The watches file is locked by another window; try again in a moment.'));
    try {
      await writeAtomic(this.file, `${JSON.stringify(f(await this.readRaw()), null, 2)}\n`);
    } finally {
      await lock.release();
    }
  }
}

function idOf(x: unknown): unknown {
  return x && typeof x === 'object' ? (x as { id?: unknown }).id : undefined;
}
