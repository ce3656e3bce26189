/**
 * The one shared, single-flight reader of `GET /requests`. Every view and the job poller ask it,
 * so the service sees at most one history call per interval per base URL, whoever asks:
 * - a caller inside the interval gets the last answer (or the last error) again;
 * - callers during a fetch share it (single flight);
 * - `force` (a Refresh button) may cut the interval short, but never below `minForceMs`.
 * A caller's AbortSignal only detaches that caller; the shared fetch runs on for the others.
 * Ages are measured on a monotonic clock (performance.now), so setting the system clock back
 * cannot make an old answer look fresh; an injected clock that goes back anyway (a negative age)
 * counts as stale, never as fresh.
 * Pure: the transport, the interval and the clock are injected.
 */
import type { RequestRecord } from '../wire';
import { abortable } from '../abort';
import { CancelledError } from '../errors';

export interface HistorySnapshot {
  readonly baseUrl: string;
  readonly records: readonly RequestRecord[];
  /** When the answer arrived (ms, on the fetcher's monotonic clock: compare only with other `at`s). */
  readonly at: number;
}

export interface HistoryFetcherOptions {
  /** One `GET /requests` against baseUrl. */
  fetch(baseUrl: string, signal: AbortSignal): Promise<readonly RequestRecord[]>;
  /** The current interval (read at every call, so focus and settings apply at once). */
  minIntervalMs(): number;
  /** The shortest gap a forced refresh may leave (default 1 s). */
  minForceMs?: number;
  /** A monotonic clock in ms (default performance.now). */
  now?: () => number;
}

export type HistoryListener = (event: { baseUrl: string; snapshot?: HistorySnapshot; error?: unknown }) => void;

interface Slot {
  startedAt: number;
  inFlight?: Promise<readonly RequestRecord[]>;
  snapshot?: HistorySnapshot;
  /** The outcome of the last completed fetch, when it failed. */
  error?: unknown;
}

export class HistoryFetcher {
  private readonly slots = new Map<string, Slot>();
  private readonly listeners = new Set<HistoryListener>();
  private readonly abort = new AbortController();
  /** How many `GET /requests` were sent, per base URL (for tests and the log). */
  readonly sent = new Map<string, number>();

  constructor(private readonly opts: HistoryFetcherOptions) {}

  private now(): number {
    return this.opts.now ? this.opts.now() : performance.now();
  }

  /** Whether a slot started at `startedAt` is younger than gap; a negative age (a clock set back) is stale. */
  private fresh(startedAt: number, gap: number): boolean {
    const age = this.now() - startedAt;
    return age >= 0 && age < gap;
  }

  /** Subscribes to every completed fetch (success or failure); returns the unsubscribe function. */
  onDidFetch(listener: HistoryListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The last answer for baseUrl, however old, without asking. */
  peek(baseUrl: string): HistorySnapshot | undefined {
    return this.slots.get(baseUrl)?.snapshot;
  }

  /** Whether a call now would reach the server (the interval has passed and nothing is in flight). */
  due(baseUrl: string): boolean {
    const s = this.slots.get(baseUrl);
    return !s || (!s.inFlight && !this.fresh(s.startedAt, this.opts.minIntervalMs()));
  }

  /** The history of baseUrl: the last answer while it is younger than the interval, else one shared fetch. */
  get(baseUrl: string, o: { force?: boolean; signal?: AbortSignal } = {}): Promise<readonly RequestRecord[]> {
    let slot = this.slots.get(baseUrl);
    const now = this.now();
    if (!slot?.inFlight) {
      const gap = o.force ? (this.opts.minForceMs ?? 1_000) : this.opts.minIntervalMs();
      if (slot && this.fresh(slot.startedAt, gap)) {
        if (slot.error !== undefined) return Promise.reject(slot.error);
        if (slot.snapshot) return Promise.resolve(slot.snapshot.records);
      } else {
        slot = this.start(baseUrl, slot, now);
      }
    }
    const p = slot?.inFlight ?? Promise.resolve(slot?.snapshot?.records ?? []);
    return abortable(p, o.signal);
  }

  private start(baseUrl: string, old: Slot | undefined, now: number): Slot {
    const slot: Slot = { startedAt: now, snapshot: old?.snapshot };
    this.slots.set(baseUrl, slot);
    this.sent.set(baseUrl, (this.sent.get(baseUrl) ?? 0) + 1);
    slot.inFlight = this.opts.fetch(baseUrl, this.abort.signal).then(
      (records) => {
        slot.inFlight = undefined;
        slot.error = undefined;
        slot.snapshot = { baseUrl, records, at: this.now() };
        // A forgotten slot's answer (the key changed meanwhile) is nobody's news.
        if (this.slots.get(baseUrl) === slot) this.emit({ baseUrl, snapshot: slot.snapshot });
        return records;
      },
      (error: unknown) => {
        slot.inFlight = undefined;
        slot.error = error;
        if (this.slots.get(baseUrl) === slot) this.emit({ baseUrl, error });
        throw error;
      },
    );
    // A fetch nobody awaits (every caller detached) must not become an unhandled rejection.
    slot.inFlight.catch(() => undefined);
    return slot;
  }

  private emit(e: Parameters<HistoryListener>[0]): void {
    for (const l of this.listeners) {
      try {
        l(e);
      } catch {
        // A listener's bug must not break the fetch for the others.
      }
    }
  }

  /** Forgets everything known about baseUrl (a changed key: the next call asks again, and an answer in flight is not kept). */
  forget(baseUrl: string): void {
    this.slots.delete(baseUrl);
  }

  dispose(): void {
    this.abort.abort(new CancelledError());
    this.listeners.clear();
  }
}
