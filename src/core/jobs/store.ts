/**
 * The jobs the extension is tracking, persisted through a small interface (globalState in
 * VS Code, memory in tests) so a pending job survives a window reload. Emits a change event
 * with the ids that changed, so views refresh only those.
 *
 * Several windows share one persisted list, so a save MERGES by requestId: it writes only the
 * jobs this window changed over what is saved now, and adopts everything else (another window's
 * new job, its progress). Overwriting the list would drop a job another window had just submitted
 * (charged, and then no longer followed).
 *
 * The saved list may be read stale: VS Code's globalState hands back an older value for a moment
 * after a save, when the echo of an earlier write arrives late (seen in CI: two of three jobs
 * submitted in the same millisecond vanished from the store). So a read never takes a job away
 * or winds it back:
 * - every change bumps the job's `rev`; a saved copy is adopted only when its `rev` is higher, and
 *   ours is written back over a lower one;
 * - a live job (pending, downloading, stalled: charged, its file still to come) the saved list
 *   lacks is written back. A finished job it lacks may have been trimmed or removed by another
 *   window: it is not written back, and leaves this window's memory only with a trim.
 */
import { isLive, type JobRecord } from './job';

export interface JobPersistence {
  load(): readonly JobRecord[];
  save(jobs: readonly JobRecord[]): Promise<void>;
  /** Work a save of these jobs needs done first (their long input lists' files), awaited before the saved list is read. */
  prepare?(jobs: readonly JobRecord[]): Promise<void>;
  /** A job's inputs whole, when the saved records keep parts of them elsewhere (./inputFiles.ts). */
  whole?(inputs: Record<string, unknown>): Promise<Record<string, unknown>>;
}

type JobsListener = (changed: readonly string[]) => void;

/** How many finished jobs to keep locally (the server keeps the full history). */
const KEEP_FINISHED = 500;

export class JobStore {
  private readonly jobs = new Map<string, JobRecord>();
  private readonly listeners = new Set<JobsListener>();
  private saving: Promise<void> = Promise.resolve();
  /** Ids changed (or removed) here and not saved yet: in a merge, these are ours to write. */
  private readonly dirty = new Set<string>();

  constructor(private readonly persistence: JobPersistence) {
    for (const j of persistence.load()) this.jobs.set(j.requestId, j);
  }

  /** Subscribes to changes; returns the unsubscribe function. */
  onDidChange(listener: JobsListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  get(requestId: string): JobRecord | undefined {
    return this.jobs.get(requestId);
  }

  /** Every job, newest first. */
  all(): JobRecord[] {
    return [...this.jobs.values()].sort((a, b) => b.submittedAt.localeCompare(a.submittedAt));
  }

  /** A job's inputs whole: a record saved by an earlier window may keep a long list in a file. */
  wholeInputs(inputs: Record<string, unknown>): Promise<Record<string, unknown>> {
    return this.persistence.whole ? this.persistence.whole(inputs) : Promise.resolve(inputs);
  }

  /** Jobs still waiting for their file (and polled for it). */
  open(): JobRecord[] {
    return this.all().filter((j) => j.state === 'pending' || j.state === 'downloading');
  }

  /** Adds or replaces a job and persists. */
  async put(job: JobRecord): Promise<void> {
    this.jobs.set(job.requestId, { ...job, rev: Math.max(rev(job), rev(this.jobs.get(job.requestId))) + 1 });
    this.dirty.add(job.requestId);
    await this.persist([job.requestId]);
  }

  /** Adopts what other windows saved since (new jobs, their progress); saves nothing of its own unless a change is waiting. */
  async sync(): Promise<void> {
    await this.persist([]);
  }

  /** Applies a change to one job if it exists; returns the new record. */
  async update(requestId: string, change: Partial<JobRecord>): Promise<JobRecord | undefined> {
    const old = this.jobs.get(requestId);
    if (!old) return undefined;
    const next: JobRecord = { ...old, ...change, requestId, rev: rev(old) + 1 };
    this.jobs.set(requestId, next);
    this.dirty.add(requestId);
    await this.persist([requestId]);
    return next;
  }

  /**
   * Moves a job from one state to another only if it is still in `from`: the guard that
   * makes a download start once, even when two pollers or a reload race for it.
   */
  async transition(requestId: string, from: JobRecord['state'], change: Partial<JobRecord>): Promise<JobRecord | undefined> {
    const old = this.jobs.get(requestId);
    if (!old || old.state !== from) return undefined;
    return this.update(requestId, change);
  }

  private async persist(changed: readonly string[]): Promise<void> {
    // Saves are serialised so an older snapshot never overwrites a newer one, and listeners
    // hear of a change only once it is saved: a reload right after "done" must not see "downloading".
    let adopted: string[] = [];
    this.saving = this.saving
      .then(async () => {
        adopted = await this.mergeAndSave();
      })
      .catch(() => undefined);
    await this.saving;
    const all = new Set([...changed, ...adopted]);
    if (all.size === 0) return;
    for (const l of this.listeners) l([...all]);
  }

  /** Merges this window's changes over the saved list and saves it; returns the ids another window had changed. */
  private async mergeAndSave(): Promise<string[]> {
    const mine = [...this.dirty];
    this.dirty.clear();
    // Before the read: nothing awaited between reading the saved list and writing it.
    await this.persistence.prepare?.(mine.flatMap((id) => this.jobs.get(id) ?? [])).catch(() => undefined);
    const saved = this.persistence.load();
    const merged = new Map<string, JobRecord>();
    for (const j of saved) merged.set(j.requestId, j);
    for (const id of mine) {
      const j = this.jobs.get(id);
      if (j) merged.set(id, j);
      else merged.delete(id);
    }
    // A live job the saved list lacks, or any it holds an older revision of, is a stale read, not
    // news: ours is written back.
    const full = saved.filter((j) => !isLive(j)).length >= KEEP_FINISHED;
    let restored = false;
    for (const [id, j] of this.jobs) {
      const s = merged.get(id);
      if (s ? rev(s) < rev(j) : isLive(j)) {
        merged.set(id, j);
        restored = true;
      }
    }
    const trimmed = trim(merged);
    try {
      if (mine.length > 0 || trimmed || restored) await this.persistence.save([...merged.values()]);
    } catch (e) {
      for (const id of mine) this.dirty.add(id);
      throw e;
    }
    // The memory becomes the saved list, except for changes made here while this save ran (still dirty).
    const adopted: string[] = [];
    for (const [id, j] of merged) {
      if (this.dirty.has(id)) continue;
      const had = this.jobs.get(id);
      // Only a later revision is news (storage hands back copies, not our objects).
      if (had && (had === j || rev(j) <= rev(had))) continue;
      adopted.push(id);
      this.jobs.set(id, j);
    }
    for (const id of [...this.jobs.keys()]) {
      // A finished job missing from a list that was not trimmed may be a stale read: kept.
      if (merged.has(id) || this.dirty.has(id) || !(full || trimmed)) continue;
      this.jobs.delete(id);
      adopted.push(id);
    }
    return adopted.filter((id) => !mine.includes(id));
  }
}

/** A record's revision (0 when saved before revisions). */
function rev(j: JobRecord | undefined): number {
  return typeof j?.rev === 'number' && Number.isFinite(j.rev) ? j.rev : 0;
}

/** Drops the oldest finished jobs beyond KEEP_FINISHED; whether it dropped any. */
function trim(jobs: Map<string, JobRecord>): boolean {
  const finished = [...jobs.values()].filter((j) => !isLive(j)).sort((a, b) => b.submittedAt.localeCompare(a.submittedAt));
  for (const j of finished.slice(KEEP_FINISHED)) jobs.delete(j.requestId);
  return finished.length > KEEP_FINISHED;
}

/** In-memory persistence, for tests and for windows without storage. */
export class MemoryPersistence implements JobPersistence {
  constructor(public saved: readonly JobRecord[] = []) {}
  load(): readonly JobRecord[] {
    return this.saved;
  }
  async save(jobs: readonly JobRecord[]): Promise<void> {
    this.saved = jobs.map((j) => ({ ...j }));
  }
}
