/** A queued job as the extension tracks it, from submit to a file on disk. */
import { scopeKey } from '../transport/profiles';
import { counted, thousands } from '../numberText';
import { isPackedList } from '../spec/packedList';

export type JobState =
  /** Accepted by the server; waiting for `url`. */
  | 'pending'
  /** `url` is set; the file is being written. */
  | 'downloading'
  /** The result is on disk at `resultPath`. */
  | 'done'
  /** The server reported the job failed, or no longer knows it (a 404 for its id). */
  | 'failed'
  /**
   * Pending for longer than `walletAnalytics.jobs.stalledAfterHours`: no longer polled until the
   * person chooses Keep Waiting (back to pending, the bound restarts) or Stop Tracking.
   */
  | 'stalled'
  /** The person stopped tracking a stalled job: never polled again; the server's history still lists it. */
  | 'untracked'
  /** The file could not be written; the job is kept so the download can be retried. */
  | 'downloadFailed';

export interface JobRecord {
  readonly requestId: string;
  readonly endpointId: string;
  readonly inputs: Record<string, unknown>;
  /** Credits charged at acceptance. */
  readonly cost: number;
  /** Base URL the job was submitted to (the sandbox and the real service keep separate jobs). */
  readonly baseUrl: string;
  /**
   * The profile it was submitted under (core/transport/profiles.ts): it is polled and downloaded with that
   * profile's key only, whichever profile is active.
   */
  readonly profileId: string;
  readonly submittedAt: string;
  readonly state: JobState;
  readonly url?: string;
  readonly completedAt?: string;
  /** The downloaded file, or the folder a .zip was extracted into. */
  readonly resultPath?: string;
  readonly error?: string;
  /**
   * Wall-clock time (ISO) the stall bound counts from: submittedAt, or the last Keep Waiting.
   * Wall clock because it must survive restarts; a clock set back restarts the bound (see poller).
   */
  readonly pendingSince?: string;
  /**
   * Bumped by every change the store makes (core/jobs/store.ts). A saved copy replaces the one in
   * memory only when its revision is higher: a stale read of the saved list never winds a job back.
   * Absent on records saved before revisions: 0.
   */
  readonly rev?: number;
}

/** What the job is polled and downloaded under: its profile and base URL (core/transport/profiles.ts scopeKey). */
export function jobScope(j: Pick<JobRecord, 'baseUrl' | 'profileId'>): string {
  return scopeKey(j.profileId, j.baseUrl);
}

/** Jobs whose file is still to come and that are polled (a stalled job waits for the person's choice). */
function isOpen(j: JobRecord): boolean {
  return j.state === 'pending' || j.state === 'downloading';
}

/** Jobs that may still bring a file: the open ones and the stalled ones (never trimmed from the store). */
export function isLive(j: JobRecord): boolean {
  return isOpen(j) || j.state === 'stalled';
}

/** A short summary of the inputs, e.g. "3 tokens" or "5,000 wallets". */
export function summariseInputs(inputs: Record<string, unknown>): string {
  const parts: string[] = [];
  for (const [k, v] of Object.entries(inputs)) {
    if (Array.isArray(v) || isPackedList(v)) parts.push(`${thousands(v.length)} ${v.length === 1 ? k.replace(/s$/u, '') : k}`);
    else if (k === 'query') parts.push('query');
    else if (typeof v === 'string' && v.length > 16) parts.push(`${k} ${v.slice(0, 4)}…${v.slice(-4)}`);
    else if (v !== undefined) parts.push(`${k} ${String(v)}`);
  }
  return parts.join(', ') || 'no inputs';
}

/** How long a job has been pending, in words: "26 hours", "3 days 2 hours" (whole hours, at least "1 hour"). */
export function pendingForText(ms: number): string {
  const hours = Math.max(1, Math.floor(ms / 3_600_000));
  if (hours < 48) return counted(hours, 'hour');
  const days = Math.floor(hours / 24);
  const rest = hours % 24;
  return rest === 0 ? counted(days, 'day') : `${counted(days, 'day')} ${counted(rest, 'hour')}`;
}
