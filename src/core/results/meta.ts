/**
 * The `<file>.meta.json` sidecar written beside every result the downloader places: which
 * endpoint, inputs and request made it, what it cost and where it came from. The table reads
 * the endpoint back from it to know which actions a file's columns offer; the downloader reads
 * the request back to know whose result a readable name (no request id in it) holds.
 */
import { readFile } from 'node:fs/promises';
import type { JobRecord } from '../jobs/job';

/** What the `<name>.meta.json` sidecar holds. */
interface ResultMeta {
  endpoint: string;
  inputs: Record<string, unknown>;
  requestId: string;
  cost: number;
  submittedAt: string;
  completedAt?: string;
  baseUrl: string;
  file: string;
}

/** The sidecar of a job's result, `file` being the result's file name. */
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

/** The endpoint id a sidecar names, or undefined when it is missing or unreadable. */
export async function sidecarEndpoint(sidecar: string): Promise<string | undefined> {
  try {
    const meta = JSON.parse(await readFile(sidecar, 'utf8')) as { endpoint?: unknown };
    return typeof meta.endpoint === 'string' ? meta.endpoint : undefined;
  } catch {
    return undefined;
  }
}

/** The request (id and base URL) a sidecar says made its result, or undefined when it is missing or unreadable. */
export async function sidecarRequest(sidecar: string): Promise<{ requestId: string; baseUrl: string } | undefined> {
  try {
    const meta = JSON.parse(await readFile(sidecar, 'utf8')) as { requestId?: unknown; baseUrl?: unknown };
    return typeof meta.requestId === 'string' && typeof meta.baseUrl === 'string' ? { requestId: meta.requestId, baseUrl: meta.baseUrl } : undefined;
  } catch {
    return undefined;
  }
}
