/**
 * The poller's downloader: streams a finished job's file into the results folder under a readable
 * name, extracts a .zip into a folder of its own, and writes the `<name>.meta.json` sidecar last.
 *
 * Several windows poll the same jobs and share one results folder, so:
 * - the work on one result is claimed with a lock file beside it (`.<name>.lock`, created 'wx'):
 *   exactly one window downloads; another sees the claim, waits, and adopts the finished result;
 * - everything is written in a private claim folder and then moved into place without ever
 *   replacing what is there (a hard link, or a check and a rename under the lock), so no window
 *   overwrites, deletes or duplicates another's file or extracted folder;
 * - a result already in place (a file or an extracted folder, from another window or from a run
 *   that crashed before its sidecar) is adopted and its sidecar completed, not fetched again.
 * A claim whose owner is gone (no heartbeat for a few minutes, or its process ended) is taken over.
 * Pure Node: the API, the folder and the limits are injected.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, readdir, rename, rm } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { endpoint } from '../catalog';
import type { DownloadOptions, DownloadResult } from '../download';
import { DownloadError, isWalletApiError } from '../errors';
import { renameNoReplace, sleep, tryLock, writeAtomic, type LockOptions } from '../fileLock';
import { extractZip } from '../unzip';
import { jobScope, type JobRecord } from './job';
import type { Downloader } from './poller';
import { exists } from '../results/files';
import { resultKindOf } from '../results/kinds';
import { resultMeta } from '../results/meta';
import { resultFileName, sidecarOf, zipFolderOf } from '../results/names';
import { l10n } from '../l10n';

interface ResultFileApi {
  download(url: string, destDir: string, opts: Omit<DownloadOptions, 'destDir' | 'headersFor' | 'dispatcher'>): Promise<DownloadResult>;
}

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
    const name = resultFileName(job, ext);
    const file = join(dir, name);
    const zipDir = zipFolderOf(file);
    const metaFile = sidecarOf(file);
    const placed = ext === 'zip' ? zipDir : file;
    const sidecar = async (fileName: string, bytes: number | undefined): Promise<void> => {
      const meta = { ...resultMeta({ ...job, completedAt: job.completedAt ?? new Date().toISOString() }, fileName), ...(bytes !== undefined ? { bytes } : {}) };
      await writeAtomic(metaFile, `${JSON.stringify(meta, null, 2)}\n`);
    };

    const claimed = async (): Promise<{ resultPath: string }> => {
      // Under the claim. A result already in place is complete (it is only ever moved in whole): adopt it.
      if (await exists(placed)) {
        if (!(await exists(metaFile))) await sidecar(ext === 'zip' ? name : basename(file), undefined);
        return { resultPath: placed };
      }
      // Leftovers of a claim whose owner died are ours to clear now that we hold the lock.
      const prefix = `.wa-claim-${name}-`;
      for (const e of await readdir(dir)) if (e.startsWith(prefix)) await rm(join(dir, e), { recursive: true, force: true });
      const work = join(dir, `${prefix}${randomBytes(4).toString('hex')}`);
      await mkdir(work);
      try {
        const got = await withRetries(() => fileApi.download(url, work, { fileName: name, maxBytes: opts.maxBytes(), signal }), signal, opts.retryDelayMs ?? 500);
        const finalFile = join(dir, basename(got.path));
        let resultPath = finalFile;
        if (got.kind === 'zip' || ext === 'zip') {
          const target = zipFolderOf(finalFile);
          const extracted = await extractZip(got.path, { targetDir: join(work, 'extracted'), signal });
          // Never over another window's folder: a folder already there is adopted, ours dropped with the claim folder.
          if (!(await exists(target))) {
            try {
              await rename(extracted.dir, target);
            } catch (e) {
              const c = (e as { code?: unknown }).code;
              if (c !== 'EEXIST' && c !== 'ENOTEMPTY') throw e;
            }
          }
          resultPath = target;
        }
        // The file itself: placed without replacing one already there (same job, same bytes).
        await renameNoReplace(got.path, finalFile);
        await sidecar(basename(got.path), got.bytes);
        return { resultPath };
      } finally {
        await rm(work, { recursive: true, force: true });
      }
    };

    for (;;) {
      if ((await exists(metaFile)) && (await exists(placed))) return { resultPath: placed };
      const lock = await tryLock(join(dir, `.${name}.lock`), opts.lock);
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
