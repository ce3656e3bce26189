/** A queued job as the extension tracks it, from submit to a file on disk. */

export type JobState =
  /** Accepted by the server; waiting for `url`. */
  | 'pending'
  /** `url` is set; the file is being written. */
  | 'downloading'
  /** The result is on disk at `resultPath`. */
  | 'done'
  /** The server reported the job failed. */
  | 'failed'
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
  readonly submittedAt: string;
  readonly state: JobState;
  readonly url?: string;
  readonly completedAt?: string;
  /** The downloaded file, or the folder a .zip was extracted into. */
  readonly resultPath?: string;
  readonly error?: string;
}

/** Jobs whose file is still to come. */
export function isOpen(j: JobRecord): boolean {
  return j.state === 'pending' || j.state === 'downloading';
}

/** A short summary of the inputs, e.g. "3 tokens" or "5,000 wallets". */
export function summariseInputs(inputs: Record<string, unknown>): string {
  const parts: string[] = [];
  for (const [k, v] of Object.entries(inputs)) {
    if (Array.isArray(v)) parts.push(`${v.length.toLocaleString('en-US')} ${v.length === 1 ? k.replace(/s$/u, '') : k}`);
    else if (k === 'query') parts.push('query');
    else if (typeof v === 'string' && v.length > 16) parts.push(`${k} ${v.slice(0, 4)}…${v.slice(-4)}`);
    else if (v !== undefined) parts.push(`${k} ${String(v)}`);
  }
  return parts.join(', ') || 'no inputs';
}
