/**
 * The poller's downloader: streams a finished job's file into the results folder under a name a
 * person reads (`<endpoint>-<yyyy-mm-dd-hhmm>.<ext>`, `-2`… when taken: names.ts), extracts a .zip
 * into a folder of its own, and writes the `<name>.meta.json` sidecar, which holds the request id:
 * the sidecar is what tells whose result a readable name holds.
 *
 * Several windows poll the same jobs and share one results folder, so:
 * - the work on one job is claimed with a lock file keyed by the job (`.<older name>.lock`, the
 *   name results had before, which holds the request id; created 'wx'): exactly one window
 *   downloads; another sees the claim, waits, and adopts the finished result;
 * - a readable name is chosen, and the result moved in, under a second, folder-wide lock
 *   (`.wa-naming.lock`, held for a few renames), so two jobs never take the same name; the sidecar
 *   goes first: it reserves the name and says whose it is;
 * - everything is written in a private claim folder and then moved into place without ever
 *   replacing what is there, so no window overwrites, deletes or duplicates another's file or folder;
 * - a result already in place is adopted, not fetched again: one whose sidecar names this job, one
 *   under the older name (from an earlier version, sidecar or not), or a folder whose sidecar was
 *   written before a crash (the file is then moved in under that reserved name).
 * A claim whose owner is gone (no heartbeat for a few minutes, or its process ended) is taken over.
 * Pure Node: the API, the folder and the limits are injected.
 */
import { randomBytes } from 'node:crypto';
import { lstat, mkdir, readdir, rename, rm } from 'node:fs/promises';
import { basename, extname, join } from 'node:path';
import { endpoint } from '../spec/catalog';
import { downloadFrom } from './download';
import { DownloadError, isWalletApiError } from '../errors';
import { renameNoReplace, sleep, tryLock, writeAtomic, type LockOptions } from '../files/fileLock';
import { extractZip } from './unzip';
import { jobScope, type JobRecord } from '../jobs/job';
import type { Downloader } from '../jobs/poller';
import { resultKindOf } from './kinds';
import { resultMeta, sidecarRequest } from './meta';
import { isSidecar, readableResultName, readableResultStem, resultFileName, sidecarOf, zipFolderOf } from './names';
import { holdNamingLock } from './newResult';
import { l10n } from '../l10n';


/** The part of a scope's client a download needs (`WalletAnalyticsApi`): this file calls the download itself. */
type ResultFileApi = Parameters<typeof downloadFrom>[0];

interface ResultWriterOptions {
  /** The API of a job's scope (`jobScope`: its profile and base URL), or undefined when it is not available in this window. */
  apiFor(scope: string): ResultFileApi | undefined;
  /** The results folder now. */
  folder(): string;
  /** The size ceiling of one file now. */
  maxBytes(): number;
  lock?: LockOptions;
  /** How often a window waiting on another's claim looks again (default 250 ms). */
  waitPollMs?: number;
  /** First pause between download attempts (default 500 ms, doubling). */
  retryDelayMs?: number;
}

/** Downloading a finished file is free and idempotent: transient failures are tried again a few times. */
async function withRetries<T>(f: () => Promise<T>, signal: AbortSignal, firstDelayMs: number, attempts = 4): Promise<T> {
  for (let i = 1; ; i++) {
    try {
      return await f();
    } catch (e) {
      const kind = isWalletApiError(e) ? e.kind : undefined;
      const transient = kind === 'network' || kind === 'server' || (e instanceof DownloadError && e.problem !== 'tooLarge');
      if (!transient || i >= attempts || signal.aborted) throw e;
      await sleep(firstDelayMs * 2 ** (i - 1), signal);
    }
  }
}

/** Whether anything is at p, a link (dangling or not) included. */
function taken(p: string): Promise<boolean> {
  return lstat(p).then(
    () => true,
    () => false,
  );
}

/** Whether p is a placed result: a regular file or a folder, never a link to one. */
function isPlaced(p: string): Promise<boolean> {
  return lstat(p).then(
    (st) => st.isFile() || st.isDirectory(),
    () => false,
  );
}

/** Moves a folder in under a free name (a rename onto a folder already there fails, onto anything else is refused first). */
async function moveFolderNoReplace(from: string, to: string): Promise<void> {
  if (await taken(to)) return;
  try {
    await rename(from, to);
  } catch (e) {
    const c = (e as { code?: unknown }).code;
    if (c !== 'EEXIST' && c !== 'ENOTEMPTY' && c !== 'ENOTDIR') throw e;
  }
}

export function makeResultWriter(opts: ResultWriterOptions): Downloader {
  return async (job: JobRecord, signal: AbortSignal): Promise<{ resultPath: string }> => {
    const api = opts.apiFor(jobScope(job));
    if (!api) throw new Error(l10n.t('The service that ran this job is not available in this window (was it the sandbox, now stopped?).'));
    if (!job.url) throw new Error(l10n.t('The job has no file address yet.'));
    const url = job.url;
    const fileApi = api;
    const dir = opts.folder();
    await mkdir(dir, { recursive: true });
    const ep = endpoint(job.endpointId);
    const guessed = resultKindOf(url);
    const ext = guessed === 'json' || !ep.results.includes(guessed) ? (ep.results[0] ?? 'txt') : guessed;
    // The older name: unique to the job, so the key of its claim; a result already under it is adopted.
    const older = resultFileName(job, ext);
    const olderFile = join(dir, older);
    const olderPlaced = ext === 'zip' ? zipFolderOf(olderFile) : olderFile;
    const writeSidecar = async (file: string, bytes: number | undefined): Promise<void> => {
      const meta = { ...resultMeta({ ...job, completedAt: job.completedAt ?? new Date().toISOString() }, basename(file)), ...(bytes !== undefined ? { bytes } : {}) };
      await writeAtomic(sidecarOf(file), `${JSON.stringify(meta, null, 2)}\n`);
    };

    /** This job's result in the folder: placed (done), or only reserved by its sidecar (a crash before the move). */
    const ours = async (): Promise<{ placed: string } | { reserved: string } | undefined> => {
      if ((await isPlaced(sidecarOf(olderFile))) && (await isPlaced(olderPlaced))) return { placed: olderPlaced };
      const stem = readableResultStem(job);
      const names = await readdir(dir).catch(() => [] as string[]);
      for (const n of names.filter((x) => x.startsWith(stem) && isSidecar(x)).sort()) {
        const who = await sidecarRequest(join(dir, n));
        if (who?.requestId !== job.requestId || who.baseUrl !== job.baseUrl) continue;
        const file = join(dir, n.slice(0, -'.meta.json'.length));
        const placed = file.endsWith('.zip') ? zipFolderOf(file) : file;
        return (await isPlaced(placed)) ? { placed } : (await taken(placed)) ? undefined : { reserved: file };
      }
      return undefined;
    };

    /** Under the naming lock: the sidecar (it reserves the name), then the extracted folder, then the file. */
    const place = async (downloaded: string, bytes: number, extracted: string | undefined, reserved: string | undefined): Promise<{ resultPath: string }> => {
      const kindExt = extname(downloaded).slice(1) || ext;
      const naming = await holdNamingLock(dir, { lock: opts.lock, waitPollMs: opts.waitPollMs ?? 250, signal });
      try {
        let file = reserved !== undefined && extname(reserved) === `.${kindExt}` ? reserved : undefined;
        for (let i = 1; ; ) {
          // lstat: a link at a name, even dangling, takes it (issue 30.11: a dangling link read as free lost the paid file).
          for (; file === undefined; i++) {
            const f = join(dir, readableResultName(job, kindExt, i));
            if (!(await taken(f)) && !(await taken(sidecarOf(f))) && !(await taken(zipFolderOf(f)))) file = f;
          }
          await writeSidecar(file, bytes);
          let resultPath = file;
          if (extracted !== undefined) {
            resultPath = zipFolderOf(file);
            // Never over another folder: one already there (ours, from before a crash) is adopted, the new one dropped with the claim folder.
            if (!(await isPlaced(resultPath))) await moveFolderNoReplace(extracted, resultPath);
          }
          if (await renameNoReplace(downloaded, file)) return { resultPath };
          // The extracted folder is the result; its .zip beside it is a copy.
          if (extracted !== undefined && (await isPlaced(resultPath))) return { resultPath };
          // The name was taken under us by something not ours: our sidecar goes, the next name is tried.
          await rm(sidecarOf(file), { force: true });
          file = undefined;
        }
      } finally {
        await naming.release();
      }
    };

    const claimed = async (): Promise<{ resultPath: string }> => {
      // Under the claim. A result already in place is complete (it is only ever moved in whole): adopt it.
      if (await isPlaced(olderPlaced)) {
        if (!(await taken(sidecarOf(olderFile)))) await writeSidecar(olderFile, undefined);
        return { resultPath: olderPlaced };
      }
      const found = await ours();
      if (found && 'placed' in found) return { resultPath: found.placed };
      // Leftovers of a claim whose owner died are ours to clear now that we hold the lock.
      const prefix = `.wa-claim-${older}-`;
      for (const e of await readdir(dir)) if (e.startsWith(prefix)) await rm(join(dir, e), { recursive: true, force: true });
      const work = join(dir, `${prefix}${randomBytes(4).toString('hex')}`);
      await mkdir(work);
      try {
        const got = await withRetries(() => downloadFrom(fileApi, url, work, { fileName: older, maxBytes: opts.maxBytes(), signal }), signal, opts.retryDelayMs ?? 500);
        const extracted = got.kind === 'zip' || ext === 'zip' ? (await extractZip(got.path, { targetDir: join(work, 'extracted'), signal })).dir : undefined;
        return await place(got.path, got.bytes, extracted, found?.reserved);
      } finally {
        await rm(work, { recursive: true, force: true });
      }
    };

    for (;;) {
      const found = await ours();
      if (found && 'placed' in found) return { resultPath: found.placed };
      const lock = await tryLock(join(dir, `.${older}.lock`), opts.lock);
      if (!lock) {
        // Another window is on it: wait, then adopt its result (or take over if it gave up).
        await sleep(opts.waitPollMs ?? 250, signal);
        continue;
      }
      try {
        return await claimed();
      } finally {
        await lock.release();
      }
    }
  };
}
