// Where the jobs persist in this window: globalState, through the one storage owner (core/storage.ts).
import type { JobRecord } from '../../core/jobs/job';
import type { JobPersistence } from '../../core/jobs/store';
import { StorageKeys, type Storage } from '../../core/storage';

/** Jobs kept in globalState, so a pending job survives a window reload or a restart. */
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
