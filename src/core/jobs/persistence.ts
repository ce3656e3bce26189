// Where the jobs persist: the host's Storage (the window's globalState, the runner's state file), through the one storage owner (core/storage.ts).
import type { JobRecord } from './job';
import type { JobPersistence } from './store';
import { StorageKeys, type Storage } from '../storage';
import { hasLongList, type InputFiles } from './inputFiles';

/**
 * Jobs kept in the host's Storage, so a pending job survives a window reload, a restart or a crashed run.
 * With `lists` (the window's: its globalState is what VS Code loads before activate()), a job's long
 * input lists are kept in files of the storage folder and the saved record names them (./inputFiles.ts).
 */
export class GlobalStatePersistence implements JobPersistence {
  constructor(
    private readonly storage: Storage,
    private readonly lists?: InputFiles,
  ) {}
  load(): readonly JobRecord[] {
    // What this extension wrote from JobRecords (save below); the store merges them by requestId and rev.
    return (this.storage.get(StorageKeys.jobs) ?? []) as JobRecord[];
  }
  async prepare(jobs: readonly JobRecord[]): Promise<void> {
    if (this.lists) for (const j of jobs) await this.lists.write(j.inputs);
  }
  async save(jobs: readonly JobRecord[]): Promise<void> {
    await this.storage.set(StorageKeys.jobs, this.kept(jobs));
  }
  whole(inputs: Record<string, unknown>): Promise<Record<string, unknown>> {
    return this.lists ? this.lists.whole(inputs) : Promise.resolve(inputs);
  }

  /**
   * Moves the long lists that records saved before this version keep whole into files, once: the
   * saved list is read again after the files are written, with no await before its write, so a job
   * another window saved meanwhile is kept as it saved it. How many records now name their files.
   */
  async migrate(): Promise<number> {
    const whole = this.load().filter((j) => hasLongList(j.inputs));
    if (!this.lists || whole.length === 0) return 0;
    await this.prepare(whole);
    const now = this.load();
    const kept = this.kept(now);
    await this.storage.set(StorageKeys.jobs, kept);
    return kept.filter((j, i) => j !== now[i]).length;
  }

  /** The records as saved: each long list whose file is written named by it, the rest as they are. */
  private kept(jobs: readonly JobRecord[]): JobRecord[] {
    const lists = this.lists;
    if (!lists) return [...jobs];
    return jobs.map((j) => {
      const inputs = lists.keptNow(j.inputs);
      return inputs === j.inputs ? j : { ...j, inputs };
    });
  }
}
