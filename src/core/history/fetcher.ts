/**
 * The one shared, single-flight reader of `GET /requests`. Every view and the job poller ask it,
 * so the service sees at most one history call per interval per profile scope (core/transport/profiles.ts: a profile and its base URL), whoever asks:
 * - a caller inside the interval gets the last answer (or the last error) again;
 * - callers during a fetch share it (single flight);
 * - `force` (a Refresh button) may cut the interval short, but never below `minForceMs`.
 * A caller's AbortSignal only detaches that caller; the shared fetch runs on for the others.
 * Ages are measured on a monotonic clock (performance.now), so setting the system clock back
 * cannot make an old answer look fresh; an injected clock that goes back anyway (a negative age)
 * counts as stale, never as fresh.
 * Pure: the transport, the interval and the clock are injected.
 */
import type { RequestRecord } from '../spec/wire';
import { abortable } from '../abort';
import { CancelledError } from '../errors';

interface HistorySnapshot {
  readonly scope: string;
  readonly records: readonly RequestRecord[];
  /** When the answer arrived (ms, on the fetcher's monotonic clock: compare only with other `at`s). */
  readonly at: number;
}

interface HistoryFetcherOptions {
  /** One `GET /requests` with the scope's base URL and key. */
  fetch(scope: string, signal: AbortSignal): Promise<readonly RequestRecord[]>;
  /** The current interval (read at every call, so focus and settings apply at once). */
  minIntervalMs(): number;
  /** The shortest gap a forced refresh may leave (default 1 s). */
  minForceMs?: number;
  /** A monotonic clock in ms (default performance.now). */
  now?: () => number;
}

type HistoryListener = (event: { scope: string; snapshot?: HistorySnapshot; error?: unknown }) => void;

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
  /** How many `GET /requests` were sent, per scope (for tests and the log). */
  readonly sent = new Map<string, number>();
  /**
   * When the last fetches started (the fetcher's monotonic clock, the last 50 of every scope): the
   * pace as this window kept it. The server's arrival times carry the machine's jitter (a loaded
   * CI machine delivered two reads 876 ms apart that left 1 s apart).
   */
  readonly starts: { readonly scope: string; readonly at: number }[] = [];

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

  /** The last answer for scope, however old, without asking. */
  peek(scope: string): HistorySnapshot | undefined {
    return this.slots.get(scope)?.snapshot;
  }

  /** Whether a call now would reach the server (the interval has passed and nothing is in flight). */
  due(scope: string): boolean {
    const s = this.slots.get(scope);
    return !s || (!s.inFlight && !this.fresh(s.startedAt, this.opts.minIntervalMs()));
  }

  /** The history of scope: the last answer while it is younger than the interval, else one shared fetch. */
  get(scope: string, o: { force?: boolean; signal?: AbortSignal } = {}): Promise<readonly RequestRecord[]> {
    let slot = this.slots.get(scope);
    const now = this.now();
    if (!slot?.inFlight) {
      const gap = o.force ? (this.opts.minForceMs ?? 1_000) : this.opts.minIntervalMs();
      if (slot && this.fresh(slot.startedAt, gap)) {
        if (slot.error !== undefined) return Promise.reject(slot.error);
        if (slot.snapshot) return Promise.resolve(slot.snapshot.records);
      } else {
        slot = this.start(scope, slot, now);
      }
    }
    const p = slot?.inFlight ?? Promise.resolve(slot?.snapshot?.records ?? []);
    return abortable(p, o.signal);
  }

  private start(scope: string, old: Slot | undefined, now: number): Slot {
    const slot: Slot = { startedAt: now, snapshot: old?.snapshot };
    this.slots.set(scope, slot);
    this.sent.set(scope, (this.sent.get(scope) ?? 0) + 1);
    this.starts.push({ scope, at: now });
    if (this.starts.length > 50) this.starts.shift();
    slot.inFlight = this.opts.fetch(scope, this.abort.signal).then(
      (records) => {
        slot.inFlight = undefined;
        slot.error = undefined;
        slot.snapshot = { scope, records, at: this.now() };
        // A forgotten slot's answer (the key changed meanwhile) is nobody's news.
        if (this.slots.get(scope) === slot) this.emit({ scope, snapshot: slot.snapshot });
        return records;
      },
      (error: unknown) => {
        slot.inFlight = undefined;
        slot.error = error;
        if (this.slots.get(scope) === slot) this.emit({ scope, error });
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

  /** Forgets everything known about scope (a changed key: the next call asks again, and an answer in flight is not kept). */
  forget(scope: string): void {
    this.slots.delete(scope);
  }

  dispose(): void {
    this.abort.abort(new CancelledError());
    this.listeners.clear();
  }
}
