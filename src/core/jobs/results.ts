/** Where and under what name a result is written, and its sidecar. */
import type { JobRecord } from './job';

/** `yyyymmdd-hhmmss` in UTC, for file names that sort by time. */
export function stamp(iso: string): string {
  const d = new Date(iso);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getUTCFullYear()}${p(d.getUTCMonth() + 1)}${p(d.getUTCDate())}-${p(d.getUTCHours())}${p(d.getUTCMinutes())}${p(d.getUTCSeconds())}`;
}

/** FNV-1a, 32 bits, as 8 hex digits: a short, stable tag of a string. */
function tag(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h.toString(16).padStart(8, '0');
}

/**
 * The request id as it may stand in a file name. The id is the server's and opaque (it may hold
 * `/`, `+`, `=`, dots…): only letters, digits, `_` and `-` are kept, so no id can leave the results
 * folder or make an invalid name. When that changed or shortened the id, a tag of the real id is
 * added, so two ids that read alike (`a+b`, `a/b`) never share a file. The real id stays in the
 * job record and the sidecar.
 */
export function fileSafeRequestId(requestId: string): string {
  const safe = requestId.replace(/[^A-Za-z0-9_-]/gu, '_').slice(0, 80);
  return safe === requestId ? safe : `${safe}-${tag(requestId)}`;
}

/** `<endpoint>-<yyyymmdd-hhmmss>-<requestId>.<ext>`, with the request id made safe for a file name. */
export function resultFileName(job: Pick<JobRecord, 'endpointId' | 'submittedAt' | 'requestId'>, ext: string): string {
  return `${job.endpointId}-${stamp(job.submittedAt)}-${fileSafeRequestId(job.requestId)}.${ext}`;
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
