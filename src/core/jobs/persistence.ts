// Where the jobs persist: the host's Storage (the window's globalState, the runner's state file), through the one storage owner (core/storage.ts).
import type { JobRecord } from './job';
import type { JobPersistence } from './store';
import { StorageKeys, type Storage } from '../storage';

/** Jobs kept in the host's Storage, so a pending job survives a window reload, a restart or a crashed run. */
export class GlobalStatePersistence implements JobPersistence {
  constructor(private readonly storage: Storage) {}
  load(): readonly JobRecord[] {
    // What this extension wrote from JobRecords (save below); the store merges them by requestId and rev.
    return (this.storage.get(StorageKeys.jobs) ?? []) as JobRecord[];
  }
  async save(jobs: readonly JobRecord[]): Promise<void> {
    await this.storage.set(StorageKeys.jobs, [...jobs]);
  }
}
