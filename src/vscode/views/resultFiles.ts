import type { HistoryItem } from '../../core/history/merge';
import type { JobRecord } from '../../core/jobs/job';
import { parseScope } from '../../core/transport/profiles';
import { exists, setAside } from '../../core/results/files';
import type { JobService } from '../jobs/jobService';

/**
 * Gets a done request's result onto disk through the job store and the shared poller's
 * downloader (atomic file, extracted .zip, sidecar), so the Requests view, the notifications
 * and a reload all agree on where it is. A request this extension did not submit (seen only in
 * `GET /requests`) becomes a tracked job. `again` downloads even when the file is there.
 * One download per request at a time, however many rows or commands ask.
 */
export class ResultFiles {
  private readonly running = new Map<string, Promise<string>>();

  constructor(private readonly jobs: JobService) {}

  /** `scope`: the profile and base URL the item belongs to (Connection.scope), so its file is fetched with that profile's client. */
  ensure(item: HistoryItem, scope: string, o: { again?: boolean } = {}): Promise<string> {
    const busy = this.running.get(item.requestId);
    if (busy) return busy;
    const p = this.fetch(item, scope, o).finally(() => this.running.delete(item.requestId));
    this.running.set(item.requestId, p);
    return p;
  }

  private async fetch(item: HistoryItem, scope: string, o: { again?: boolean }): Promise<string> {
    const { store, poller } = this.jobs;
    let j = store.get(item.requestId);
    if (!o.again && j?.state === 'done' && j.resultPath && (await exists(j.resultPath))) return j.resultPath;
    if (j?.state === 'downloading' && !o.again) return this.settled(await poller.whenSettled(item.requestId));
    if (item.status !== 'done') throw new Error(item.status === 'failed' ? 'The request failed on the server: there is no result file.' : 'The request is still running on the server.');
    const url = j?.url ?? item.url;
    if (!url) throw new Error('The server has not given this request a file address yet.');
    if (!j) {
      const job: JobRecord = {
        requestId: item.requestId,
        endpointId: item.endpointId,
        inputs: item.inputs,
        cost: item.cost ?? 0,
        ...parseScope(scope),
        submittedAt: new Date(item.createdAt).toISOString(),
        completedAt: item.completedAt !== undefined ? new Date(item.completedAt).toISOString() : undefined,
        state: 'downloading',
        url,
      };
      await store.put(job);
    } else if (!j.url) {
      await store.update(item.requestId, { url, completedAt: j.completedAt ?? (item.completedAt !== undefined ? new Date(item.completedAt).toISOString() : undefined) });
    }
    // Download Again replaces the result: the old one is kept aside until the new one is complete.
    const previous = o.again && j?.resultPath ? await setAside(j.resultPath) : undefined;
    await poller.retryDownload(item.requestId);
    j = store.get(item.requestId);
    if (j?.state === 'done' && j.resultPath) await previous?.drop();
    else await previous?.restore();
    return this.settled(j);
  }

  private settled(j: JobRecord | undefined): string {
    if (j?.state === 'done' && j.resultPath) return j.resultPath;
    throw new Error(j?.error ?? 'The download did not finish.');
  }
}
