import type { JobRecord } from '../../core/jobs/job';
import type { JobPersistence } from '../../core/jobs/store';
import { StorageKeys, type Storage } from '../../core/storage';

/** Jobs kept in globalState, so a pending job survives a window reload or a restart. */
export class GlobalStatePersistence implements JobPersistence {
  constructor(private readonly storage: Storage) {}
  load(): readonly JobRecord[] {
    return this.storage.get(StorageKeys.jobs) ?? [];
  }
  async save(jobs: readonly JobRecord[]): Promise<void> {
    await this.storage.set(StorageKeys.jobs, [...jobs]);
  }
}
