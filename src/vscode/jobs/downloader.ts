import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { endpoint } from '../../core/catalog';
import { resultKindOf } from '../../core/download';
import type { JobRecord } from '../../core/jobs/job';
import { resultFileName, resultMeta } from '../../core/jobs/results';
import { extractZip } from '../../core/unzip';
import { DownloadError, isWalletApiError } from '../../core/errors';
import type { Connection } from '../connection';
import { readSettings } from '../config';

const exists = (p: string) => fs.stat(p).then(() => true, () => false);

/** Writes text to a file atomically: a temp file beside it, then a rename. */
export async function writeAtomic(file: string, text: string): Promise<void> {
  const tmp = `${file}.${process.pid}.${Date.now()}.tmp`;
  await fs.writeFile(tmp, text, 'utf8');
  await fs.rename(tmp, file);
}

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
 * The poller's downloader: streams the file into the results folder under a readable name,
 * extracts a .zip into a folder of its own, and writes the `<name>.meta.json` sidecar last.
 * A file whose sidecar is already there (a previous window finished it) is not fetched again.
 */
export function makeDownloader(connection: Connection, folder: () => string) {
  return async (job: JobRecord, signal: AbortSignal): Promise<{ resultPath: string }> => {
    const api = connection.apiFor(job.baseUrl);
    if (!api) throw new Error('The service that ran this job is not available in this window (was it the sandbox, now stopped?).');
    if (!job.url) throw new Error('The job has no file address yet.');
    const dir = folder();
    await fs.mkdir(dir, { recursive: true });
    const ep = endpoint(job.endpointId);
    const guessed = resultKindOf(job.url);
    const ext = guessed === 'json' || !ep.results.includes(guessed) ? (ep.results[0] ?? 'txt') : guessed;
    const name = resultFileName(job, ext);
    const file = path.join(dir, name);
    const zipDir = file.replace(/\.zip$/u, '');
    const metaFile = `${file}.meta.json`;
    if ((await exists(metaFile)) && (await exists(ext === 'zip' ? zipDir : file))) return { resultPath: ext === 'zip' ? zipDir : file };
    const url = job.url;
    const got = await withRetries(() => api.download(url, dir, { fileName: name, maxBytes: readSettings().maxDownloadMB * 1024 * 1024, signal }), signal);
    let resultPath = got.path;
    if (got.kind === 'zip' || ext === 'zip') {
      if (await exists(zipDir)) await fs.rm(zipDir, { recursive: true, force: true });
      resultPath = (await extractZip(got.path, { targetDir: zipDir, signal })).dir;
    }
    const meta = { ...resultMeta({ ...job, completedAt: job.completedAt ?? new Date().toISOString() }, path.basename(got.path)), bytes: got.bytes };
    await writeAtomic(metaFile, `${JSON.stringify(meta, null, 2)}\n`);
    return { resultPath };
  };
}
