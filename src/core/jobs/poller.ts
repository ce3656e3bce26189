/**
 * One shared poller for every pending job (§1.1: poll about every 5 s until `url` is set).
 * - A single tick at a time, so never two requests in flight for one job.
 * - Several pending jobs on one base URL share a single `GET /requests`; a lone job uses `GET /request/{id}`.
 * - Errors back off exponentially with jitter, honouring a Retry-After the error carries.
 * - A job whose `url` appears is moved pending → downloading under a guard, so its file is
 *   downloaded once even across reloads; a failed download keeps the job for a retry.
 * Pure: timers, API and downloader are injected.
 */
import type { RequestRecord } from '../wire';
import type { JobRecord } from './job';
import type { JobStore } from './store';

export interface PollApi {
  request(requestId: string, signal?: AbortSignal): Promise<RequestRecord>;
  requests(signal?: AbortSignal): Promise<RequestRecord[]>;
}

/** Writes a finished job's file; resolves to where it is (a file, or a folder for a .zip). */
export type Downloader = (job: JobRecord, signal: AbortSignal) => Promise<{ resultPath: string }>;

export interface PollerOptions {
  /** The API for a base URL, or undefined while it cannot be reached (e.g. no key for it now). */
  apiFor(baseUrl: string): PollApi | undefined;
  download: Downloader;
  /** A number, or a function read at every tick so a changed setting applies at once. */
  intervalMs?: number | (() => number);
  maxBackoffMs?: number;
  log?: (line: string) => void;
  /** Sees every `GET /requests` answer, so views can share it instead of asking again. */
  onHistory?: (baseUrl: string, records: readonly RequestRecord[]) => void;
  /** Where failures are reported (not thrown: a poller never dies). */
  onError?: (job: JobRecord | undefined, err: unknown) => void;
  random?: () => number;
}

export class Poller {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private ticking: Promise<void> | undefined;
  private failures = 0;
  private readonly downloads = new Map<string, Promise<void>>();
  private readonly abort = new AbortController();
  private readonly waiters = new Map<string, Set<(j: JobRecord) => void>>();
  private disposed = false;
  private readonly unsubscribe: () => void;

  constructor(
    private readonly store: JobStore,
    private readonly opts: PollerOptions,
  ) {
    this.unsubscribe = store.onDidChange((ids) => {
      for (const id of ids) {
        const j = store.get(id);
        if (j && (j.state === 'done' || j.state === 'failed' || j.state === 'downloadFailed')) this.resolveWaiters(j);
      }
      this.ensureScheduled();
    });
  }

  get intervalMs(): number {
    const i = this.opts.intervalMs;
    return typeof i === 'function' ? i() : (i ?? 5_000);
  }

  /** Starts polling if any job is open; called at activation to resume jobs from the last session. */
  start(): void {
    this.ensureScheduled(0);
  }

  /** Resolves when the job leaves the pending/downloading states (done, failed or downloadFailed). */
  whenSettled(requestId: string): Promise<JobRecord> {
    const j = this.store.get(requestId);
    if (j && j.state !== 'pending' && j.state !== 'downloading') return Promise.resolve(j);
    return new Promise((resolve) => {
      const set = this.waiters.get(requestId) ?? new Set();
      set.add(resolve);
      this.waiters.set(requestId, set);
    });
  }

  /** Polls now (e.g. after a submit, or from a Refresh button), sharing any tick in progress. */
  async pollNow(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    await this.tick();
  }

  /** Retries the download of a job whose file failed to arrive. */
  async retryDownload(requestId: string): Promise<void> {
    const j = this.store.get(requestId);
    if (!j?.url) throw new Error('This job has no file address yet; it is still running on the server.');
    await this.store.update(requestId, { state: 'downloading', error: undefined });
    await this.startDownload(requestId);
  }

  dispose(): void {
    this.disposed = true;
    this.abort.abort();
    if (this.timer) clearTimeout(this.timer);
    this.unsubscribe();
  }

  private ensureScheduled(delay = this.intervalMs): void {
    if (this.disposed || this.timer || this.store.open().length === 0) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.tick();
    }, delay);
  }

  private tick(): Promise<void> {
    this.ticking ??= this.runTick().finally(() => {
      this.ticking = undefined;
      this.ensureScheduled(this.nextDelay());
    });
    return this.ticking;
  }

  private nextDelay(): number {
    if (this.failures === 0) return this.intervalMs;
    const max = this.opts.maxBackoffMs ?? 60_000;
    const base = Math.min(max, this.intervalMs * 2 ** Math.min(this.failures, 8));
    const jitter = 0.5 + (this.opts.random ?? Math.random)() / 2;
    return Math.max(this.retryAfterMs ?? 0, Math.round(base * jitter));
  }

  private retryAfterMs: number | undefined;

  private async runTick(): Promise<void> {
    // Jobs left 'downloading' by a previous window resume their download (it writes atomically).
    for (const j of this.store.open()) if (j.state === 'downloading' && j.url) void this.startDownload(j.requestId);

    const pending = this.store.open().filter((j) => j.state === 'pending');
    const byBase = new Map<string, JobRecord[]>();
    for (const j of pending) byBase.set(j.baseUrl, [...(byBase.get(j.baseUrl) ?? []), j]);

    let failed = false;
    this.retryAfterMs = undefined;
    for (const [baseUrl, jobs] of byBase) {
      const api = this.opts.apiFor(baseUrl);
      if (!api) continue;
      try {
        const records = await this.fetchRecords(baseUrl, api, jobs);
        for (const job of jobs) {
          const rec = records.get(job.requestId);
          if (rec) await this.apply(job, rec);
        }
      } catch (err) {
        failed = true;
        const ra = (err as { retryAfterMs?: unknown }).retryAfterMs;
        if (typeof ra === 'number') this.retryAfterMs = Math.max(this.retryAfterMs ?? 0, ra);
        this.opts.log?.(`Polling ${baseUrl} failed: ${err instanceof Error ? err.message : String(err)}`);
        this.opts.onError?.(undefined, err);
      }
    }
    this.failures = failed ? this.failures + 1 : 0;
  }

  private async fetchRecords(baseUrl: string, api: PollApi, jobs: JobRecord[]): Promise<Map<string, RequestRecord>> {
    const out = new Map<string, RequestRecord>();
    const signal = this.abort.signal;
    if (jobs.length === 1 && jobs[0]) {
      const rec = await api.request(jobs[0].requestId, signal);
      out.set(rec.requestId, rec);
      return out;
    }
    const list = await api.requests(signal);
    this.opts.onHistory?.(baseUrl, list);
    for (const rec of list) out.set(rec.requestId, rec);
    // A job the history does not list (yet) is asked for by id.
    for (const j of jobs) {
      if (!out.has(j.requestId)) {
        const rec = await api.request(j.requestId, signal);
        out.set(rec.requestId, rec);
      }
    }
    return out;
  }

  private async apply(job: JobRecord, rec: RequestRecord): Promise<void> {
    if (rec.url) {
      const moved = await this.store.transition(job.requestId, 'pending', {
        state: 'downloading',
        url: rec.url,
        completedAt: rec.completedAt ?? new Date().toISOString(),
      });
      if (moved) await this.startDownload(job.requestId);
    } else if (rec.status === 'failed') {
      await this.store.transition(job.requestId, 'pending', { state: 'failed', error: rec.error ?? 'The server reported that the job failed.' });
    }
  }

  private startDownload(requestId: string): Promise<void> {
    const running = this.downloads.get(requestId);
    if (running) return running;
    const p = (async () => {
      const job = this.store.get(requestId);
      if (!job || job.state !== 'downloading') return;
      try {
        const { resultPath } = await this.opts.download(job, this.abort.signal);
        await this.store.transition(requestId, 'downloading', { state: 'done', resultPath, error: undefined });
      } catch (err) {
        if (this.disposed) return;
        const message = err instanceof Error ? err.message : String(err);
        this.opts.log?.(`Download of ${requestId} failed: ${message}`);
        await this.store.transition(requestId, 'downloading', { state: 'downloadFailed', error: message });
        this.opts.onError?.(this.store.get(requestId), err);
      }
    })().finally(() => this.downloads.delete(requestId));
    this.downloads.set(requestId, p);
    return p;
  }

  private resolveWaiters(j: JobRecord): void {
    const set = this.waiters.get(j.requestId);
    if (!set) return;
    this.waiters.delete(j.requestId);
    for (const r of set) r(j);
  }
}
