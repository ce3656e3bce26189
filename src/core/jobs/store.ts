/**
 * The jobs the extension is tracking, persisted through a small interface (globalState in
 * VS Code, memory in tests) so a pending job survives a window reload. Emits a change event
 * with the ids that changed, so views refresh only those.
 */
import { isOpen, type JobRecord } from './job';

export interface JobPersistence {
  load(): readonly JobRecord[];
  save(jobs: readonly JobRecord[]): Promise<void>;
}

export type JobsListener = (changed: readonly string[]) => void;

/** How many finished jobs to keep locally (the server keeps the full history). */
const KEEP_FINISHED = 500;

export class JobStore {
  private readonly jobs = new Map<string, JobRecord>();
  private readonly listeners = new Set<JobsListener>();
  private saving: Promise<void> = Promise.resolve();

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

  /** Jobs still waiting for their file. */
  open(): JobRecord[] {
    return this.all().filter(isOpen);
  }

  /** Adds or replaces a job and persists. */
  async put(job: JobRecord): Promise<void> {
    this.jobs.set(job.requestId, job);
    await this.persist([job.requestId]);
  }

  /** Applies a change to one job if it exists; returns the new record. */
  async update(requestId: string, change: Partial<JobRecord>): Promise<JobRecord | undefined> {
    const old = this.jobs.get(requestId);
    if (!old) return undefined;
    const next: JobRecord = { ...old, ...change, requestId };
    this.jobs.set(requestId, next);
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

  async remove(requestId: string): Promise<void> {
    if (this.jobs.delete(requestId)) await this.persist([requestId]);
  }

  private async persist(changed: readonly string[]): Promise<void> {
    this.trim();
    const snapshot = [...this.jobs.values()];
    // Saves are serialised so an older snapshot never overwrites a newer one, and listeners
    // hear of a change only once it is saved: a reload right after "done" must not see "downloading".
    this.saving = this.saving.then(() => this.persistence.save(snapshot)).catch(() => undefined);
    await this.saving;
    for (const l of this.listeners) l(changed);
  }

  private trim(): void {
    const finished = this.all().filter((j) => !isOpen(j));
    for (const j of finished.slice(KEEP_FINISHED)) this.jobs.delete(j.requestId);
  }
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
