/** Where and under what name a result is written, and its sidecar; saving a finished job's file. */
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import type { ResultKind } from '../catalog';
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

const exists = (p: string) => fs.stat(p).then(() => true, () => false);

/** Writes text to a file atomically: a temp file beside it, then a rename. */
export async function writeAtomic(file: string, text: string): Promise<void> {
  const tmp = `${file}.${process.pid}.${Date.now()}.tmp`;
  await fs.writeFile(tmp, text, 'utf8');
  await fs.rename(tmp, file);
}

/** What saveResult needs from the window: where, and how to fetch and extract. */
export interface SaveResultDeps {
  /** The results folder (made if missing). */
  readonly dir: string;
  /** The extension the file is expected to have (from the endpoint and the URL). */
  readonly ext: string;
  /** Downloads the job's file into dir under fileName (or a free variant of it). */
  readonly download: (fileName: string) => Promise<{ readonly path: string; readonly bytes: number; readonly kind: ResultKind }>;
  /** Extracts a zip into targetDir. */
  readonly extract: (zipPath: string, targetDir: string) => Promise<{ readonly dir: string }>;
}

/** A zip's first four bytes (a local file header). */
async function isZipFile(file: string): Promise<boolean> {
  const fh = await fs.open(file, 'r');
  try {
    const head = Buffer.alloc(4);
    const { bytesRead } = await fh.read(head, 0, 4, 0);
    return bytesRead === 4 && head.readUInt32LE(0) === 0x04034b50;
  } finally {
    await fh.close();
  }
}

/**
 * Saves a finished job's file into the results folder under its readable name, extracts a .zip
 * into a folder of its own, and writes the `<name>.meta.json` sidecar last. A file whose sidecar
 * is already there (a previous window finished it) is not fetched again.
 *
 * A window can die between the three steps. Each step's result appears only when complete (the
 * download and the extraction are both renamed into place when done), so what is found under the
 * job's own name (which holds its requestId) is that job's finished file or folder: the resume
 * takes it and does the steps still missing, rather than fetching a copy that would be named "-1".
 */
export async function saveResult(job: JobRecord, deps: SaveResultDeps): Promise<{ resultPath: string }> {
  const { dir, ext } = deps;
  await fs.mkdir(dir, { recursive: true });
  const name = resultFileName(job, ext);
  const file = path.join(dir, name);
  const zipDir = file.replace(/\.zip$/u, '');
  const metaFile = `${file}.meta.json`;
  if ((await exists(metaFile)) && (await exists(ext === 'zip' ? zipDir : file))) return { resultPath: ext === 'zip' ? zipDir : file };
  const got = (await exists(file))
    ? { path: file, bytes: (await fs.stat(file)).size, kind: ext === 'zip' || (await isZipFile(file)) ? ('zip' as const) : ext }
    : await deps.download(name);
  let resultPath = got.path;
  if (got.kind === 'zip' || ext === 'zip') {
    // Only a finished extraction is renamed to zipDir (extractZip), so one found there is kept, never replaced.
    resultPath = (await exists(zipDir)) ? zipDir : (await deps.extract(got.path, zipDir)).dir;
  }
  const meta = { ...resultMeta({ ...job, completedAt: job.completedAt ?? new Date().toISOString() }, path.basename(got.path)), bytes: got.bytes };
  await writeAtomic(metaFile, `${JSON.stringify(meta, null, 2)}\n`);
  return { resultPath };
}
