/**
 * One shared poller for every pending job (§1.1: poll about every 5 s until `url` is set).
 * - Each scope (a profile and its base URL) is polled by itself, one poll at a time, so never two
 *   requests in flight for one job, and a service that is down or hangs slows only its own jobs.
 * - Several pending jobs on one scope share a single `GET /requests`; a lone job uses `GET /request/{id}`.
 *   Jobs that `/requests` does not list are asked for one by one, least recently asked first, at most
 *   `unlistedPerTick` a tick and each at most once every `unlistedEveryTicks` ticks: the requests per
 *   tick stay bounded (1 + the cap) whatever the number pending.
 * - Errors are per job: a 404 for one id marks that job failed ("unknown to the service") and the
 *   others are applied as usual. Any other failure backs off that scope's polling exponentially
 *   with jitter, honouring a Retry-After the error carries; other scopes keep their pace.
 * - A job pending past `stalledAfterMs` becomes 'stalled' and is polled no more, until the person
 *   chooses Keep Waiting (`keepWaiting`) or Stop Tracking (`stopTracking`). Its age is wall-clock time
 *   (it must survive restarts); a clock set back restarts the bound rather than freezing or stalling it.
 * - A job whose `url` appears is moved pending → downloading under a guard, so its file is
 *   downloaded once even across reloads; a failed download keeps the job for a retry.
 * Pure: timers, API and downloader are injected.
 */
import { isWalletApiError, errorText, CancelledError } from '../errors';
import { unreadableOf, type RequestRecord } from '../spec/wire';
import { jobScope, type JobRecord } from './job';
import type { JobStore } from './store';
import { l10n } from '../l10n';

export interface PollApi {
  request(requestId: string, signal?: AbortSignal): Promise<RequestRecord>;
  requests(signal?: AbortSignal): Promise<RequestRecord[]>;
}

/** Writes a finished job's file; resolves to where it is (a file, or a folder for a .zip). */
export type Downloader = (job: JobRecord, signal: AbortSignal) => Promise<{ resultPath: string }>;

/** How often pending jobs are read when nothing says otherwise (the default of `walletAnalytics.pollIntervalSeconds`). */
const DEFAULT_POLL_INTERVAL_MS = 5_000;

interface PollerOptions {
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
  onHistory?: (scope: string, records: readonly RequestRecord[]) => void;
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

/**
 * The pace of one scope (a profile and its base URL): its own failures, backoff and tick count.
 * A scope is polled by itself, so a service that is down, slow or hanging (a stopped sandbox that
 * still accepts connections, a profile whose server is unreachable) never holds back the jobs of
 * another scope: its errors back off its own polling only.
 */
interface ScopePace {
  failures: number;
  retryAfterMs?: number;
  timer?: ReturnType<typeof setTimeout>;
  /** The poll of this scope in progress: never two at once, so never two requests in flight for a job. */
  running?: Promise<void>;
  /** Polls of this scope so far: the clock of its unlisted jobs' pace. */
  ticks: number;
}

export class Poller {
  private readonly scopes = new Map<string, ScopePace>();
  private readonly downloads = new Map<string, Promise<void>>();
  private readonly abort = new AbortController();
  private readonly waiters = new Map<string, Set<(j: JobRecord) => void>>();
  private disposed = false;
  private readonly unsubscribe: () => void;
  /** The scope poll at which each unlisted job was last asked for by id. */
  private readonly lastAsked = new Map<string, number>();
  /** Per scope, what of the last `GET /requests` could not be read, so the log says it once, not every tick. */
  private readonly lastUnreadable = new Map<string, string>();

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

  /**
   * Polls every scope with an open job now (e.g. after a submit, or from a Refresh button): a scope
   * whose poll is in progress shares it, the others start at once. Resolves when all of them end.
   */
  async pollNow(): Promise<void> {
    await this.store.sync();
    const runs: Promise<void>[] = [];
    for (const scope of this.openScopes()) {
      const pace = this.pace(scope);
      if (pace.timer) clearTimeout(pace.timer);
      pace.timer = undefined;
      runs.push(this.pollScope(scope));
    }
    await Promise.all(runs);
  }

  /** Retries the download of a job whose file failed to arrive. */
  async retryDownload(requestId: string): Promise<void> {
    const j = this.store.get(requestId);
    if (!j?.url) throw new Error(l10n.t('This job has no file address yet; it is still running on the server.'));
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
    this.abort.abort(new CancelledError());
    for (const p of this.scopes.values()) if (p.timer) clearTimeout(p.timer);
    this.unsubscribe();
  }

  /** The scopes that have a job to poll or to download. */
  private openScopes(): Set<string> {
    return new Set(this.store.open().map((j) => jobScope(j)));
  }

  private pace(scope: string): ScopePace {
    let p = this.scopes.get(scope);
    if (!p) {
      p = { failures: 0, ticks: 0 };
      this.scopes.set(scope, p);
    }
    return p;
  }

  /**
   * Gives every scope with an open job a timer, unless it has one or is being polled (the end of a
   * poll schedules the next, with any backoff: a store change heard meanwhile must not cut that short).
   */
  private ensureScheduled(delay = this.intervalMs): void {
    if (this.disposed) return;
    for (const scope of this.openScopes()) {
      const pace = this.pace(scope);
      if (pace.timer || pace.running) continue;
      this.schedule(scope, pace, delay);
    }
  }

  private schedule(scope: string, pace: ScopePace, delay: number): void {
    pace.timer = setTimeout(() => {
      pace.timer = undefined;
      void this.pollScope(scope);
    }, delay);
  }

  private pollScope(scope: string): Promise<void> {
    const pace = this.pace(scope);
    pace.running ??= this.runScope(scope, pace).finally(() => {
      pace.running = undefined;
      if (this.disposed) return;
      if (pace.timer) return;
      if (this.openScopes().has(scope)) this.schedule(scope, pace, this.nextDelay(pace));
      else this.scopes.delete(scope);
    });
    return pace.running;
  }

  private nextDelay(pace: ScopePace): number {
    if (pace.failures === 0) return this.intervalMs;
    const max = this.opts.maxBackoffMs ?? 60_000;
    const base = Math.min(max, this.intervalMs * 2 ** Math.min(pace.failures, 8));
    const jitter = 0.5 + (this.opts.random ?? Math.random)() / 2;
    return Math.max(pace.retryAfterMs ?? 0, Math.round(base * jitter));
  }

  private wallNow(): number {
    return (this.opts.now ?? Date.now)();
  }

  /** One poll of one scope: its downloads resumed, its stalled jobs set aside, its pending jobs read. */
  private async runScope(scope: string, pace: ScopePace): Promise<void> {
    pace.ticks++;
    // Another window may have added a job or finished one since: adopt its saved state first.
    await this.store.sync();
    const mine = this.store.open().filter((j) => jobScope(j) === scope);
    // Jobs left 'downloading' by a previous window resume their download (it writes atomically).
    for (const j of mine) if (j.state === 'downloading' && j.url) void this.startDownload(j.requestId);

    const jobs: JobRecord[] = [];
    for (const j of mine) if (j.state === 'pending' && !(await this.stalled(j))) jobs.push(j);
    if (jobs.length === 0) return;

    let failed = false;
    pace.retryAfterMs = undefined;
    const failure = (err: unknown, what: string): void => {
      failed = true;
      const ra = (err as { retryAfterMs?: unknown }).retryAfterMs;
      if (typeof ra === 'number') pace.retryAfterMs = Math.max(pace.retryAfterMs ?? 0, ra);
      this.opts.log?.(`Polling ${what} failed: ${errorText(err)}`);
    };
    try {
      const api = this.opts.apiFor(scope);
      if (!api) return;
      let byId: JobRecord[] = jobs;
      if (jobs.length > 1) {
        let list: RequestRecord[];
        try {
          list = await api.requests(this.abort.signal);
        } catch (err) {
          failure(err, scope);
          this.opts.onError?.(undefined, err);
          return;
        }
        this.noteUnreadable(scope, unreadableOf(list));
        this.opts.onHistory?.(scope, list);
        const listed = new Map(list.map((r) => [r.requestId, r]));
        for (const job of jobs) {
          const rec = listed.get(job.requestId);
          if (rec) await this.apply(job, rec, 'pending');
        }
        // A stalled job's file, when the history shows it, costs nothing more to fetch.
        for (const job of this.store.all()) {
          const rec = job.state === 'stalled' && jobScope(job) === scope ? listed.get(job.requestId) : undefined;
          if (rec?.url) await this.apply(job, rec, 'stalled');
        }
        byId = this.unlistedToAsk(jobs.filter((j) => !listed.has(j.requestId)), pace.ticks);
      }
      for (const job of byId) {
        this.lastAsked.set(job.requestId, pace.ticks);
        try {
          await this.apply(job, await api.request(job.requestId, this.abort.signal), 'pending');
        } catch (err) {
          if (isNotFound(err)) {
            // This job alone: the service does not know it; the others go on.
            this.lastAsked.delete(job.requestId);
            const j = await this.store.transition(job.requestId, 'pending', { state: 'failed', error: UNKNOWN_JOB_ERROR });
            this.opts.log?.(`Job ${job.requestId} is unknown to ${scope} (404); marked failed.`);
            if (j) this.opts.onError?.(j, err);
            continue;
          }
          if (this.disposed) return;
          failure(err, `${scope} for ${job.requestId}`);
          this.opts.onError?.(job, err);
        }
      }
    } finally {
      for (const j of jobs) if (this.store.get(j.requestId)?.state !== 'pending') this.lastAsked.delete(j.requestId);
      pace.failures = failed ? pace.failures + 1 : 0;
    }
  }

  /** The unlisted jobs to ask for by id this tick: least recently asked first, each at most once every few ticks, a few a tick. */
  private unlistedToAsk(unlisted: JobRecord[], ticks: number): JobRecord[] {
    const every = Math.max(1, this.opts.unlistedEveryTicks ?? 3);
    const cap = Math.max(1, this.opts.unlistedPerTick ?? 5);
    const last = (j: JobRecord): number => this.lastAsked.get(j.requestId) ?? -Infinity;
    return unlisted
      .filter((j) => ticks - last(j) >= every)
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

  /** Logs what a history held that could not be read (the rest was used), when it changed. */
  private noteUnreadable(scope: string, notes: readonly string[]): void {
    const text = notes.length > 5 ? `${notes.slice(0, 5).join('; ')}; and ${notes.length - 5} more` : notes.join('; ');
    if ((this.lastUnreadable.get(scope) ?? '') === text) return;
    this.lastUnreadable.set(scope, text);
    if (text !== '') this.opts.log?.(`GET /requests on ${scope}: the readable records were used; ${text}.`);
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
        // The sidecar names the inputs whole, though an earlier window's record keeps a long list in a file.
        const { resultPath } = await this.opts.download({ ...job, inputs: await this.store.wholeInputs(job.inputs) }, this.abort.signal);
        await this.store.transition(requestId, 'downloading', { state: 'done', resultPath, error: undefined });
      } catch (err) {
        if (this.disposed) return;
        this.opts.log?.(`Download of ${requestId} failed: ${errorText(err)}`);
        await this.store.transition(requestId, 'downloading', { state: 'downloadFailed', error: errorText(err) });
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
