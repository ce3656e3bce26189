/**
 * What results are called on disk: the name a queued job's file is written under, for a person to
 * read in a tab (`<endpoint>-<yyyy-mm-dd-hhmm>.<ext>` in local time, `-2`, `-3`… when taken; the
 * request id is in the sidecar), the name such files had before (`<endpoint>-<yyyymmdd-hhmmss>-<requestId>.<ext>`,
 * still recognised, and the key of a job's claim), the name a direct or paged JSON result is
 * saved under (the same readable name, `.json`), the sidecar beside each (`<file>.meta.json`),
 * the folder a `.zip` is extracted to (its name without `.zip`), and the safe name a downloaded
 * file gets from its server. Pure: no file system.
 */
import { basename } from 'node:path';
import { ENDPOINTS } from '../spec/catalog';
import type { JobRecord } from '../jobs/job';
import { kindOfName, type ResultKind } from './kinds';
import { nthName } from '../files/naming';

/** `yyyymmdd-hhmmss` in UTC, for file names that sort by time. */
function stamp(iso: string): string {
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

/**
 * `<endpoint>-<yyyymmdd-hhmmss>-<requestId>.<ext>`, with the request id made safe for a file name:
 * what a job's result was named before it was named for people. Unique per job, so it stays the key
 * of the job's download claim, and a result already under this name is adopted as it is.
 */
export function resultFileName(job: Pick<JobRecord, 'endpointId' | 'submittedAt' | 'requestId'>, ext: string): string {
  return `${job.endpointId}-${stamp(job.submittedAt)}-${fileSafeRequestId(job.requestId)}.${ext}`;
}

/** `yyyy-mm-dd-hhmm` in local time: when a job was sent, as the person's clock said it. */
function localStamp(iso: string): string {
  const d = new Date(iso);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())}-${p(d.getHours())}${p(d.getMinutes())}`;
}

/**
 * The i-th name (from 1) a queued job's result may take: `<endpoint>-<yyyy-mm-dd-hhmm>.<ext>`
 * (when it was sent, local time), then `…-2.<ext>`, `…-3.<ext>` when the name is taken. Short enough
 * for a tab; the request id is in the sidecar, which tells whose result a name holds.
 */
export function readableResultName(job: Pick<JobRecord, 'endpointId' | 'submittedAt'>, ext: string, i = 1): string {
  return nthName(`${readableResultStem(job)}.${ext}`, i);
}

/** The part every readable name of a job's result starts with (`<endpoint>-<yyyy-mm-dd-hhmm>`). */
export function readableResultStem(job: Pick<JobRecord, 'endpointId' | 'submittedAt'>): string {
  return `${job.endpointId}-${localStamp(job.submittedAt)}`;
}

/**
 * `<endpoint>-<yyyy-mm-dd-hhmm>`: the stem of a direct or paged result's `.json` file, named as a
 * queued job's result is (issue 35 item 14: a Wallet Database answer read `wallet_database-20261127-141502.json`
 * beside `pnl-2026-11-27-1415.csv`).
 */
export function directResultStem(endpointId: string, now: Date = new Date()): string {
  return readableResultStem({ endpointId, submittedAt: now.toISOString() });
}

/**
 * The i-th name (from 1) a direct or paged result may take: `<endpoint>-<yyyy-mm-dd-hhmm>.json`,
 * then `…-2.json`, `…-3.json` when the name is taken (two calls in the same minute), as a queued
 * job's readable name does.
 */
export function directResultName(endpointId: string, now: Date, i = 1): string {
  return nthName(`${directResultStem(endpointId, now)}.json`, i);
}

/** After the endpoint id: a readable stamp (`2026-11-21-1015`) or the older one (`20261121-101500`). */
const STAMP_AFTER_ID = /^(\d{4}-\d{2}-\d{2}-\d{4}|\d{8}-\d{6})(?=[-.]|$)/u;

/** The endpoint id a result file name starts with (`pnl-2026-11-21-1015.csv`, `pnl-20261121-101500-….csv`), longest id first. */
export function endpointFromName(file: string): string | undefined {
  const base = basename(file);
  const ids = ENDPOINTS.map((e) => e.id).sort((a, b) => b.length - a.length);
  return ids.find((id) => base.startsWith(`${id}-`) && STAMP_AFTER_ID.test(base.slice(id.length + 1)));
}

/** Files the table opens. */
const TABLE_FILE = /\.(csv|txt|json)$/iu;
const SIDECAR = /\.meta\.json$/iu;

/** The sidecar of a result file (or of a `.zip`): `<file>.meta.json`. */
export function sidecarOf(file: string): string {
  return `${file}.meta.json`;
}

/** Whether a name is a sidecar (`….meta.json`), not a result. */
export function isSidecar(name: string): boolean {
  return SIDECAR.test(name);
}

/** Whether a name is a file the table opens (a .csv, .txt or .json that is not a sidecar). */
export function isTableFile(name: string): boolean {
  return TABLE_FILE.test(name) && !isSidecar(name);
}

/** The folder a `.zip` result is extracted to: its path without `.zip`. */
export function zipFolderOf(zipFile: string): string {
  return zipFile.replace(/\.zip$/u, '');
}

/**
 * What a result is made of on disk: the file and its `<file>.meta.json`, or for a .zip the
 * extracted folder, the `<folder>.zip` and `<folder>.zip.meta.json`.
 */
export function partsOf(resultPath: string): string[] {
  return [resultPath, sidecarOf(resultPath), `${resultPath}.zip`, sidecarOf(`${resultPath}.zip`)];
}

/** A safe file name: no folders, no leading dots, only ordinary characters, ending in .kind. */
export function safeFileName(candidate: string, kind: ResultKind): string {
  let stem = basename(candidate.replace(/\\/gu, '/'))
    .replace(/[^A-Za-z0-9._() -]/gu, '_')
    .replace(/^[.\s]+/u, '')
    .slice(0, 120);
  if (kindOfName(stem) === kind) stem = stem.slice(0, -(kind.length + 1));
  stem = stem.replace(/[.\s]+$/u, '');
  return `${stem || 'result'}.${kind}`;
}
