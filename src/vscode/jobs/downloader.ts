/**
 * The window side of saving a finished job: which connection fetches it (the job's own base URL),
 * the size limit from the settings, and retries, since fetching a finished file is free.
 */
import { endpoint } from '../../core/catalog';
import { resultKindOf } from '../../core/download';
import type { JobRecord } from '../../core/jobs/job';
import { saveResult } from '../../core/jobs/results';
import { extractZip } from '../../core/unzip';
import { DownloadError, isWalletApiError } from '../../core/errors';
import type { Connection } from '../connection';
import { readSettings } from '../config';

/** Kept here too for the callers that import it from the downloader. */
export { writeAtomic } from '../../core/jobs/results';

/** Downloading a finished file is free and idempotent: transient failures are tried again a few times. */
async function withRetries<T>(f: () => Promise<T>, signal: AbortSignal, attempts = 4): Promise<T> {
  for (let i = 1; ; i++) {
    try {
      return await f();
    } catch (e) {
      const kind = isWalletApiError(e) ? e.kind : undefined;
      const transient = kind === 'network' || kind === 'server' || (e instanceof DownloadError && e.problem !== 'tooLarge');
      if (!transient || i >= attempts || signal.aborted) throw e;
      await new Promise((r) => setTimeout(r, 500 * 2 ** (i - 1)));
    }
  }
}

/**
 * The poller's downloader: the window's connection and settings around saveResult
 * (src/core/jobs/results.ts), which names, fetches, extracts and writes the sidecar.
 */
export function makeDownloader(connection: Connection, folder: () => string) {
  return async (job: JobRecord, signal: AbortSignal): Promise<{ resultPath: string }> => {
    const api = connection.apiFor(job.baseUrl);
    if (!api) throw new Error('The service that ran this job is not available in this window (was it the sandbox, now stopped?).');
    if (!job.url) throw new Error('The job has no file address yet.');
    const ep = endpoint(job.endpointId);
    const guessed = resultKindOf(job.url);
    const ext = guessed === 'json' || !ep.results.includes(guessed) ? (ep.results[0] ?? 'txt') : guessed;
    const url = job.url;
    const dir = folder();
    return saveResult(job, {
      dir,
      ext,
      download: (fileName) => withRetries(() => api.download(url, dir, { fileName, maxBytes: readSettings().maxDownloadMB * 1024 * 1024, signal }), signal),
      extract: (zipPath, targetDir) => extractZip(zipPath, { targetDir, signal }),
    });
  };
}
