/**
 * The `<file>.meta.json` sidecar written beside every result the downloader places: which
 * endpoint, inputs and request made it, what it cost and where it came from. The table reads
 * the endpoint back from it to know which actions a file's columns offer.
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
