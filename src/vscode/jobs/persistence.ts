import type * as vscode from 'vscode';
import type { JobRecord } from '../../core/jobs/job';
import type { JobPersistence } from '../../core/jobs/store';

const KEY = 'walletAnalytics.jobs';

/** Jobs kept in globalState, so a pending job survives a window reload or a restart. */
export class GlobalStatePersistence implements JobPersistence {
  constructor(private readonly state: vscode.Memento) {}
  load(): readonly JobRecord[] {
    return this.state.get<JobRecord[]>(KEY, []);
  }
  async save(jobs: readonly JobRecord[]): Promise<void> {
    await this.state.update(KEY, jobs);
  }
}
