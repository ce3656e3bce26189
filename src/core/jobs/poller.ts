/**
 * One shared poller for every pending job (§1.1: poll about every 5 s until `url` is set).
 * - A single tick at a time, so never two requests in flight for one job.
 * - Several pending jobs on one base URL share a single `GET /requests`; a lone job uses `GET /request/{id}`.
 *   Jobs that `/requests` does not list are asked for one by one, least recently asked first, at most
 *   `unlistedPerTick` a tick and each at most once every `unlistedEveryTicks` ticks: the requests per
 *   tick stay bounded (1 + the cap) whatever the number pending.
 * - Errors are per job: a 404 for one id marks that job failed ("unknown to the service") and the
 *   others are applied as usual. A failed `/requests` (the whole base URL) backs off exponentially
 *   with jitter, honouring a Retry-After the error carries.
 * - A job pending past `stalledAfterMs` becomes 'stalled' and is polled no more, until the person
 *   chooses Keep Waiting (`keepWaiting`) or Stop Tracking (`stopTracking`). Its age is wall-clock time
 *   (it must survive restarts); a clock set back restarts the bound rather than freezing or stalling it.
 * - A job whose `url` appears is moved pending → downloading under a guard, so its file is
 *   downloaded once even across reloads; a failed download keeps the job for a retry.
 * Pure: timers, API and downloader are injected.
 */
import { isWalletApiError } from '../errors';
import type { RequestRecord } from '../wire';
import { jobScope, type JobRecord } from './job';
import type { JobStore } from './store';

export interface PollApi {
  request(requestId: string, signal?: AbortSignal): Promise<RequestRecord>;
  requests(signal?: AbortSignal): Promise<RequestRecord[]>;
}

/** Writes a finished job's file; resolves to where it is (a file, or a folder for a .zip). */
export type Downloader = (job: JobRecord, signal: AbortSignal) => Promise<{ resultPath: string }>;

/** How often pending jobs are read when nothing says otherwise (the default of `walletAnalytics.pollIntervalSeconds`). */
export const DEFAULT_POLL_INTERVAL_MS = 5_000;

export interface PollerOptions {
  /**
   * The API for a job's scope (its profile and base URL, `jobScope`; a bare base URL for jobs of the
   * Default profile), or undefined while it cannot be reached (no key for it now, a removed profile).
   */
  apiFor(scope: string): PollApi | undefined;
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
  /** How long a job may stay pending before it is 'stalled' (read at every tick; undefined or ≤ 0: never). */
  stalledAfterMs?: () => number | undefined;
  /** Hears of a job that just became stalled (the notification with Keep Waiting / Stop Tracking). */
  onStalled?: (job: JobRecord) => void;
  /** Wall clock, for the stall bound only (default Date.now). */
  now?: () => number;
  /** At most this many `GET /request/{id}` a tick for jobs `/requests` does not list (default 5). */
  unlistedPerTick?: number;
  /** Such a job is asked for at most once every this many ticks (default 3). */
  unlistedEveryTicks?: number;
}

/** What a job that the service answers 404 for is marked with. */
export const UNKNOWN_JOB_ERROR = 'Unknown to the service: GET /request/{id} answered 404 Not Found, so this job is no longer followed. If it finishes after all, its file is listed under Requests.';

const isNotFound = (e: unknown): boolean => isWalletApiError(e) && e.kind === 'notFound';
const message = (e: unknown): string => (e instanceof Error ? e.message : String(e));

export class Poller {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private ticking: Promise<void> | undefined;
  private failures = 0;
  private readonly downloads = new Map<string, Promise<void>>();
  private readonly abort = new AbortController();
  private readonly waiters = new Map<string, Set<(j: JobRecord) => void>>();
  private disposed = false;
  private readonly unsubscribe: () => void;
  /** Ticks run so far: the monotonic clock of the unlisted jobs' pace. */
  private ticks = 0;
  /** The tick at which each unlisted job was last asked for by id. */
  private readonly lastAsked = new Map<string, number>();

  constructor(
    private readonly store: JobStore,
    private readonly opts: PollerOptions,
  ) {
    this.unsubscribe = store.onDidChange((ids) => {
      for (const id of ids) {
        const j = store.get(id);
        if (j && j.state !== 'pending' && j.state !== 'downloading') this.resolveWaiters(j);
      }
      this.ensureScheduled();
    });
  }

  get intervalMs(): number {
    const i = this.opts.intervalMs;
    return typeof i === 'function' ? i() : (i ?? DEFAULT_POLL_INTERVAL_MS);
  }

  /** Starts polling if any job is open; called at activation to resume jobs from the last session. */
  start(): void {
    this.ensureScheduled(0);
  }

  /** Resolves when the job leaves the pending/downloading states (done, failed, downloadFailed, stalled or untracked). */
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

  /** Keep Waiting: a stalled job is pending again, and its bound counts from now. */
  async keepWaiting(requestId: string): Promise<JobRecord | undefined> {
    const j = await this.store.transition(requestId, 'stalled', { state: 'pending', pendingSince: new Date(this.wallNow()).toISOString(), error: undefined });
    if (j) this.ensureScheduled(0);
    return j;
  }

  /** Stop Tracking: a stalled job is polled no more; it stays in the store and in the server's history. */
  stopTracking(requestId: string): Promise<JobRecord | undefined> {
    return this.store.transition(requestId, 'stalled', { state: 'untracked' });
  }

  dispose(): void {
    this.disposed = true;
    this.abort.abort();
    if (this.timer) clearTimeout(this.timer);
    this.unsubscribe();
  }

  private ensureScheduled(delay = this.intervalMs): void {
    // During a tick, its end schedules the next one (with any backoff): a store change heard meanwhile must not cut that short.
    if (this.disposed || this.timer || this.ticking || this.store.open().length === 0) return;
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

  private wallNow(): number {
    return (this.opts.now ?? Date.now)();
  }

  private async runTick(): Promise<void> {
    this.ticks++;
    // Another window may have added a job or finished one since: adopt its saved state first.
    await this.store.sync();
    // Jobs left 'downloading' by a previous window resume their download (it writes atomically).
    for (const j of this.store.open()) if (j.state === 'downloading' && j.url) void this.startDownload(j.requestId);

    const pending: JobRecord[] = [];
    for (const j of this.store.open()) if (j.state === 'pending' && !(await this.stalled(j))) pending.push(j);
    const byBase = new Map<string, JobRecord[]>();
    // Grouped by scope, not base URL: two profiles on one base URL are two accounts with two keys.
    for (const j of pending) byBase.set(jobScope(j), [...(byBase.get(jobScope(j)) ?? []), j]);

    let failed = false;
    this.retryAfterMs = undefined;
    const failure = (err: unknown, what: string): void => {
      failed = true;
      const ra = (err as { retryAfterMs?: unknown }).retryAfterMs;
      if (typeof ra === 'number') this.retryAfterMs = Math.max(this.retryAfterMs ?? 0, ra);
      this.opts.log?.(`Polling ${what} failed: ${message(err)}`);
    };
    for (const [baseUrl, jobs] of byBase) {
      const api = this.opts.apiFor(baseUrl);
      if (!api) continue;
      let byId: JobRecord[] = jobs;
      if (jobs.length > 1) {
        let list: RequestRecord[];
        try {
          list = await api.requests(this.abort.signal);
        } catch (err) {
          failure(err, baseUrl);
          this.opts.onError?.(undefined, err);
          continue;
        }
        this.opts.onHistory?.(baseUrl, list);
        const listed = new Map(list.map((r) => [r.requestId, r]));
        for (const job of jobs) {
          const rec = listed.get(job.requestId);
          if (rec) await this.apply(job, rec, 'pending');
        }
        // A stalled job's file, when the history shows it, costs nothing more to fetch.
        for (const job of this.store.all()) {
          const rec = job.state === 'stalled' && jobScope(job) === baseUrl ? listed.get(job.requestId) : undefined;
          if (rec?.url) await this.apply(job, rec, 'stalled');
        }
        byId = this.unlistedToAsk(jobs.filter((j) => !listed.has(j.requestId)));
      }
      for (const job of byId) {
        this.lastAsked.set(job.requestId, this.ticks);
        try {
          await this.apply(job, await api.request(job.requestId, this.abort.signal), 'pending');
        } catch (err) {
          if (isNotFound(err)) {
            // This job alone: the service does not know it; the others go on.
            this.lastAsked.delete(job.requestId);
            const j = await this.store.transition(job.requestId, 'pending', { state: 'failed', error: UNKNOWN_JOB_ERROR });
            this.opts.log?.(`Job ${job.requestId} is unknown to ${baseUrl} (404); marked failed.`);
            if (j) this.opts.onError?.(j, err);
            continue;
          }
          if (this.disposed) return;
          failure(err, `${baseUrl} for ${job.requestId}`);
          this.opts.onError?.(job, err);
        }
      }
    }
    for (const id of [...this.lastAsked.keys()]) if (this.store.get(id)?.state !== 'pending') this.lastAsked.delete(id);
    this.failures = failed ? this.failures + 1 : 0;
  }

  /** The unlisted jobs to ask for by id this tick: least recently asked first, each at most once every few ticks, a few a tick. */
  private unlistedToAsk(unlisted: JobRecord[]): JobRecord[] {
    const every = Math.max(1, this.opts.unlistedEveryTicks ?? 3);
    const cap = Math.max(1, this.opts.unlistedPerTick ?? 5);
    const last = (j: JobRecord): number => this.lastAsked.get(j.requestId) ?? -Infinity;
    return unlisted
      .filter((j) => this.ticks - last(j) >= every)
      .sort((a, b) => last(a) - last(b))
      .slice(0, cap);
  }

  /** Moves a job pending past the bound to 'stalled'; a clock set back restarts the bound. Whether it stalled. */
  private async stalled(job: JobRecord): Promise<boolean> {
    const bound = this.opts.stalledAfterMs?.();
    if (bound === undefined || !(bound > 0)) return false;
    const now = this.wallNow();
    const since = Date.parse(job.pendingSince ?? job.submittedAt);
    if (Number.isNaN(since)) return false;
    const age = now - since;
    if (age < 0) {
      // The clock went back (or the record comes from a machine ahead of us): count from now.
      await this.store.update(job.requestId, { pendingSince: new Date(now).toISOString() });
      return false;
    }
    if (age <= bound) return false;
    const j = await this.store.transition(job.requestId, 'pending', { state: 'stalled' });
    if (j) this.opts.onStalled?.(j);
    return true;
  }

  private async apply(job: JobRecord, rec: RequestRecord, from: 'pending' | 'stalled'): Promise<void> {
    if (rec.url) {
      const moved = await this.store.transition(job.requestId, from, {
        state: 'downloading',
        url: rec.url,
        completedAt: rec.completedAt ?? new Date().toISOString(),
      });
      if (moved) await this.startDownload(job.requestId);
    } else if (rec.status === 'failed') {
      await this.store.transition(job.requestId, from, { state: 'failed', error: rec.error ?? 'The server reported that the job failed.' });
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
        this.opts.log?.(`Download of ${requestId} failed: ${message(err)}`);
        await this.store.transition(requestId, 'downloading', { state: 'downloadFailed', error: message(err) });
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
