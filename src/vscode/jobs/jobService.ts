import * as vscode from 'vscode';
import { endpoint, shortTitle } from '../../core/spec/catalog';
import { pendingForText, type JobRecord } from '../../core/jobs/job';
import { Poller, type PollApi } from '../../core/jobs/poller';
import { JobStore } from '../../core/jobs/store';
import type { Storage } from '../../core/storage';
import type { Connection } from '../base/connection';
import type { Log } from '../base/log';
import { offerResult, openResult } from '../results/open';
import { pollIntervalMs, readSettings } from '../base/settings';
import { makeDownloader } from './downloader';
import { GlobalStatePersistence } from '../../core/jobs/persistence';
import type { InputFiles } from '../../core/jobs/inputFiles';
import { resultsFolder } from './resultsFolder';
import { CommandIds, REQUESTS_VIEW } from '../base/ids';
import { l10n } from '../../shared/l10n';
import { showError, showWarning } from '../base/errors';
import { fmtCredits } from '../../core/numberText';
import { errorText } from '../../core/errors';

/**
 * The jobs of this window: the persisted store, the one shared poller, and the notifications
 * a person sees while a job runs and when its file arrives.
 */
export class JobService implements vscode.Disposable {
  store: JobStore;
  poller: Poller;
  /** The saved jobs, their long input lists in files of the extension's storage folder (core/jobs/inputFiles.ts). */
  private readonly persistence: GlobalStatePersistence;
  /** Settled once start() moved the saved jobs' long lists (an earlier version's) into files. */
  listsMoved: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly storage: Storage,
    /** The window's long input lists in files (the one InputFiles its Storage keeps recent inputs' in). */
    lists: InputFiles,
    private readonly connection: Connection,
    private readonly log: Log,
    /**
     * The window's shared pace (src/vscode/base/history.ts): the poller's `GET /requests` goes
     * through the one history fetcher every view uses, and its interval slows while unfocused.
     */
    private readonly shared?: { pollApiFor(baseUrl: string): PollApi | undefined; intervalMs(): number },
  ) {
    this.persistence = new GlobalStatePersistence(this.storage, lists);
    [this.store, this.poller] = this.build();
  }

  private build(): [JobStore, Poller] {
    const store = new JobStore(this.persistence);
    const shared = this.shared;
    const poller = new Poller(store, {
      apiFor: (baseUrl) => (shared ? shared.pollApiFor(baseUrl) : this.connection.apiFor(baseUrl)),
      download: makeDownloader(this.connection, () => this.folder()),
      log: (line) => this.log.warn(line),
      intervalMs: () => (shared ? shared.intervalMs() : pollIntervalMs()),
      stalledAfterMs: () => {
        const h = readSettings().jobsStalledAfterHours;
        return Number.isFinite(h) && h > 0 ? h * 3_600_000 : undefined;
      },
      onStalled: (j) => void this.announceStalled(j),
    });
    return [store, poller];
  }

  /** The folder results are written to now. */
  folder(): string {
    return resultsFolder(this.context.globalStorageUri);
  }

  /** Resumes polling the jobs a previous window left pending, and asks again about stalled ones. */
  start(): void {
    // Records an earlier version saved with their long lists whole move them into files, once.
    this.listsMoved = this.persistence.migrate().then(
      (n) => n > 0 && this.log.info(`Moved the long input lists of ${n} saved jobs into files.`),
      (e: unknown) => this.log.warn(`The saved jobs' long input lists stay in the window's state: ${errorText(e)}`),
    );
    this.poller.start();
    for (const j of this.store.all()) if (j.state === 'stalled') void this.announceStalled(j);
  }

  /** Stalled jobs this window has asked about (once each: the answer, or a dismissal, is enough). */
  private readonly askedStalled = new Set<string>();

  /** The notification for a stalled job: how long it has been pending, Keep Waiting or Stop Tracking. */
  async announceStalled(j: JobRecord): Promise<void> {
    if (this.askedStalled.has(j.requestId)) return;
    this.askedStalled.add(j.requestId);
    const title = shortTitle(endpoint(j.endpointId));
    const since = Date.parse(j.pendingSince ?? j.submittedAt);
    const pendingFor = pendingForText(Number.isNaN(since) ? 0 : Date.now() - since);
    const a = await showWarning(
      l10n.t('{0} (job {1}) has been pending for {2}, so it is no longer checked. Keep waiting for it, or stop tracking it? The Requests view lists it either way.', title, j.requestId, pendingFor),
      l10n.t('Keep Waiting'),
      l10n.t('Stop Tracking'),
    );
    if (a === l10n.t('Keep Waiting')) {
      this.askedStalled.delete(j.requestId);
      await this.poller.keepWaiting(j.requestId);
    } else if (a === l10n.t('Stop Tracking')) {
      await this.poller.stopTracking(j.requestId);
    }
  }

  /**
   * Rebuilds store and poller from the stored jobs, exactly as a window reload does.
   * Used by the integration tests to prove a pending job resumes and downloads once.
   */
  reloadForTest(): void {
    this.poller.dispose();
    [this.store, this.poller] = this.build();
    this.poller.start();
  }

  /** Tracks a just-accepted job, then waits for it with a cancellable notification. */
  async track(job: JobRecord, opts: { notify: boolean; wait: boolean }): Promise<JobRecord | undefined> {
    await this.store.put(job);
    void this.poller.pollNow();
    if (!opts.wait) return undefined;
    if (!opts.notify) return this.poller.whenSettled(job.requestId);
    const title = shortTitle(endpoint(job.endpointId));
    const settled = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: l10n.t('{0}: queued ({1} charged)', title, fmtCredits(job.cost)), cancellable: true },
      (progress, token) =>
        new Promise<JobRecord | undefined>((resolve) => {
          const started = Date.now();
          const tick = setInterval(() => progress.report({ message: `waiting for the file… ${Math.round((Date.now() - started) / 1000)} s` }), 1000);
          token.onCancellationRequested(() => {
            clearInterval(tick);
            resolve(undefined);
          });
          void this.poller.whenSettled(job.requestId).then((j) => {
            clearInterval(tick);
            resolve(j);
          });
        }),
    );
    if (!settled) {
      // With a button: a toast without one shows collapsed, on one line, cut before it said the job
      // still runs (and was charged) and where its file goes (issue 23). The button goes where it shows.
      const show = l10n.t('Show Requests');
      void vscode.window
        .showInformationMessage(
          l10n.t('Stopped waiting. The job {0} still runs on the server; its file will be downloaded to {1} and listed under Requests when it is done.', job.requestId, this.folder()),
          show,
        )
        .then((a) => {
          if (a === show) void vscode.commands.executeCommand(`${REQUESTS_VIEW}.focus`);
        });
      return undefined;
    }
    await this.announce(settled);
    return settled;
  }

  /** The notification for a settled job: Open / Reveal / Copy Path, or Retry Download. */
  async announce(j: JobRecord): Promise<void> {
    const title = shortTitle(endpoint(j.endpointId));
    if (j.state === 'done' && j.resultPath) {
      if (readSettings().openResultOnCompletion) await openResult(j.resultPath);
      // The file's name (endpoint, time and request id) is the tab's title already: the message says
      // what a person reads at a glance, and stays short enough not to be cut.
      const sent = new Date(j.submittedAt).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
      void offerResult(`${title} is ready (sent ${sent}, ${fmtCredits(j.cost)}).`, j.resultPath);
    } else if (j.state === 'downloadFailed') {
      const a = await showError(l10n.t('{0}: the job is done but its file could not be saved: {1}', title, j.error ?? 'unknown error'), l10n.t('Retry Download'));
      if (a) await vscode.commands.executeCommand(CommandIds.retryDownload, j.requestId);
    } else if (j.state === 'failed') {
      void showError(l10n.t('{0} failed on the server: {1}', title, j.error ?? 'no reason given'));
    } else if (j.state === 'stalled') {
      await this.announceStalled(j);
    }
  }

  dispose(): void {
    this.poller.dispose();
  }
}
