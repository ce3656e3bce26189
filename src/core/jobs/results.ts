/** Where and under what name a result is written, and its sidecar. */
import type { JobRecord } from './job';

/** `yyyymmdd-hhmmss` in UTC, for file names that sort by time. */
export function stamp(iso: string): string {
  const d = new Date(iso);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getUTCFullYear()}${p(d.getUTCMonth() + 1)}${p(d.getUTCDate())}-${p(d.getUTCHours())}${p(d.getUTCMinutes())}${p(d.getUTCSeconds())}`;
}

/** `<endpoint>-<yyyymmdd-hhmmss>-<requestId>.<ext>`, with the request id made safe for a file name. */
export function resultFileName(job: Pick<JobRecord, 'endpointId' | 'submittedAt' | 'requestId'>, ext: string): string {
  const id = job.requestId.replace(/[^A-Za-z0-9_-]/gu, '_').slice(0, 80);
  return `${job.endpointId}-${stamp(job.submittedAt)}-${id}.${ext}`;
}

/** What the `<name>.meta.json` sidecar holds. */
export interface ResultMeta {
  endpoint: string;
  inputs: Record<string, unknown>;
  requestId: string;
  cost: number;
  submittedAt: string;
  completedAt?: string;
  baseUrl: string;
  file: string;
}

export function resultMeta(job: JobRecord, file: string): ResultMeta {
  return {
    endpoint: job.endpointId,
    inputs: job.inputs,
    requestId: job.requestId,
    cost: job.cost,
    submittedAt: job.submittedAt,
    completedAt: job.completedAt,
    baseUrl: job.baseUrl,
    file,
  };
}
