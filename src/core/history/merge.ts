/**
 * The request history a person sees: the server's `GET /requests` merged with the jobs this
 * extension tracks locally, one item per requestId, newest first.
 * - A job the server does not list yet (just accepted) is shown from the local record.
 * - Done wins: a local job still `pending` whose server record has its `url` is shown done
 *   (the poller will catch up), so an item never goes back from done to running.
 * - The local record brings what the server does not know: the file on disk, the full inputs
 *   (the server may shorten long lists), a download that failed.
 */
import { jobScope, type JobRecord, type JobState } from '../jobs/job';
import type { RequestRecord } from '../spec/wire';

type ItemStatus = 'running' | 'done' | 'failed';

export interface HistoryItem {
  readonly requestId: string;
  readonly endpointId: string;
  readonly status: ItemStatus;
  /** The local job's state, when this extension tracks the job. */
  readonly local?: JobState;
  /** The server's status word, when listed. */
  readonly serverStatus?: string;
  /** Accepted at (ms since the epoch). */
  readonly createdAt: number;
  readonly completedAt?: number;
  readonly cost?: number;
  readonly inputs: Record<string, unknown>;
  /** The result file's address, once done. */
  readonly url?: string;
  /** The file (or extracted .zip folder) on disk, when downloaded. */
  readonly resultPath?: string;
  readonly error?: string;
}

function time(iso: string | undefined): number | undefined {
  if (!iso) return undefined;
  const t = Date.parse(iso);
  return Number.isNaN(t) ? undefined : t;
}

function statusOfServer(r: RequestRecord): ItemStatus {
  if (r.url) return 'done';
  return r.status === 'failed' ? 'failed' : 'running';
}

function statusOfLocal(j: JobRecord): ItemStatus {
  switch (j.state) {
    // A stalled or untracked job is not done on the server as far as anyone knows.
    case 'pending':
    case 'stalled':
    case 'untracked':
      return 'running';
    case 'failed':
      return 'failed';
    // `downloading` and `downloadFailed` only follow a url: the job is done on the server.
    default:
      return 'done';
  }
}

/** done > failed > running: the furthest state either side has seen. */
function furthest(a: ItemStatus, b: ItemStatus): ItemStatus {
  const rank: Record<ItemStatus, number> = { running: 0, failed: 1, done: 2 };
  return rank[a] >= rank[b] ? a : b;
}

/** A local record as a history item. */
function itemOfJob(j: JobRecord): HistoryItem {
  return {
    requestId: j.requestId,
    endpointId: j.endpointId,
    status: statusOfLocal(j),
    local: j.state,
    createdAt: time(j.submittedAt) ?? 0,
    completedAt: time(j.completedAt),
    cost: j.cost,
    inputs: j.inputs,
    url: j.url || undefined,
    resultPath: j.state === 'done' ? j.resultPath : undefined,
    error: j.error,
  };
}

/** A server record (optionally with its local job) as a history item. */
function itemOfRecord(r: RequestRecord, j?: JobRecord): HistoryItem {
  const fromServer: ItemStatus = statusOfServer(r);
  if (!j) {
    return {
      requestId: r.requestId,
      endpointId: r.endpoint ?? 'unknown',
      status: fromServer,
      serverStatus: r.status,
      createdAt: time(r.createdAt) ?? 0,
      completedAt: time(r.completedAt),
      cost: r.cost,
      inputs: r.inputs ?? {},
      url: r.url || undefined,
      error: r.error,
    };
  }
  const local = itemOfJob(j);
  return {
    ...local,
    status: furthest(local.status, fromServer),
    serverStatus: r.status,
    // The server's clock orders the list; the local record fills what it lacks.
    createdAt: time(r.createdAt) ?? local.createdAt,
    completedAt: local.completedAt ?? time(r.completedAt),
    cost: local.cost ?? r.cost,
    url: local.url ?? (r.url || undefined),
    error: local.error ?? r.error,
  };
}

/** Newest first; equal times by requestId, so the order is stable. */
function compareItems(a: HistoryItem, b: HistoryItem): number {
  return b.createdAt - a.createdAt || (a.requestId < b.requestId ? 1 : a.requestId > b.requestId ? -1 : 0);
}

/**
 * Merges the server's history of a scope (a profile and its base URL, core/transport/profiles.ts; a bare
 * base URL for the Default profile; undefined when not fetched yet) with the local jobs submitted
 * under that scope (jobs of other profiles or base URLs are left out): no duplicates, newest first.
 */
export function mergeHistory(server: readonly RequestRecord[] | undefined, local: readonly JobRecord[], scope: string): HistoryItem[] {
  const jobs = new Map<string, JobRecord>();
  for (const j of local) if (jobScope(j) === scope) jobs.set(j.requestId, j);
  const out: HistoryItem[] = [];
  const seen = new Set<string>();
  for (const r of server ?? []) {
    if (seen.has(r.requestId)) continue;
    seen.add(r.requestId);
    out.push(itemOfRecord(r, jobs.get(r.requestId)));
  }
  for (const j of jobs.values()) if (!seen.has(j.requestId)) out.push(itemOfJob(j));
  return out.sort(compareItems);
}
