import { makeResultWriter } from '../../core/results/resultWriter';
import type { Downloader } from '../../core/jobs/poller';
import type { Connection } from '../base/connection';
import { readSettings } from '../base/settings';

/**
 * The poller's downloader for this window: src/core/results/resultWriter.ts with this window's
 * connection, results folder and size ceiling. The claim (a lock file beside the result) makes
 * one window download a job's file while the others wait and adopt it.
 */
export function makeDownloader(connection: Connection, folder: () => string): Downloader {
  return makeResultWriter({
    apiFor: (baseUrl) => connection.apiFor(baseUrl),
    folder,
    maxBytes: () => readSettings().maxDownloadMB * 1024 * 1024,
  });
}
