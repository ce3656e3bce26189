/**
 * Runs the watches that are due, in the one window that holds the runner's lock (issue 25). Each
 * tick: a window without the lock tries to take it (it can once its owner is gone); the owner
 * looks at each watch that is not paused, takes its due slot in the store (so no slot runs twice,
 * in any window), tells the slots missed while no window ran it (never caught up silently), and
 * runs the one that is on time through `execute`, the window's call flow, which prices the run and
 * holds it under the budgets and the approval. A result is compared with the previous one.
 *
 * Pure and injected: the store, the clock, the call flow, the comparison and what is told.
 */
import type { HeldLock, LockOptions } from '../files/fileLock';
import { errorText } from '../errors';
import { anyChange, changesText, type Changes } from './changes';
import type { RunRecord, Threshold, WatchRecord } from './model';
import { dueAt } from './schedule';
import { overApproved } from '../money/approval';
import type { WatchStore } from './store';
import { l10n } from '../l10n';

/** What one run of a watch came to in the call flow. */
export type ExecOutcome =
  | { readonly kind: 'done'; readonly credits: number; readonly resultPath: string }
  /** Not sent: past a budget or the ceiling, above the approved price, another connection… */
  /** `approveAgain`: what it would send, or its price, is not what was approved (the person may approve the new one). */
  | { readonly kind: 'skipped'; readonly message: string; readonly approveAgain?: true }
  | { readonly kind: 'failed'; readonly message: string; readonly credits: number };

export type WatchEvent =
  | { readonly kind: 'missed'; readonly watch: WatchRecord; readonly count: number }
  | { readonly kind: 'ran'; readonly watch: WatchRecord; readonly run: RunRecord; readonly changes?: Changes; readonly previousAt?: number; readonly manual: boolean };

interface RunnerDeps {
  readonly store: WatchStore;
  readonly now?: () => number;
  /** Runs a watch once through the call flow (priced, held under the budgets and the approval). */
  execute(w: WatchRecord): Promise<ExecOutcome>;
  /** Counts what changed between the previous result (A) and this one (B). */
  compare(older: string, newer: string, threshold: Threshold | undefined): Promise<Changes>;
  /** Saves the comparison (the Changes table) and returns its file. */
  saveComparison(older: string, newer: string): Promise<string>;
  /** A run ended or slots were missed: the window tells the person (and refreshes its view). */
  tell(e: WatchEvent): void;
  readonly lock?: LockOptions;
}

export class WatchRunner {
  private lock: HeldLock | undefined;
  private busy = false;
  private readonly running = new Set<string>();

  constructor(private readonly deps: RunnerDeps) {}

  private now(): number {
    return (this.deps.now ?? Date.now)();
  }

  /** Whether this window runs the watches (it holds the runner's lock, still its own). */
  async owns(): Promise<boolean> {
    if (this.lock && !(await this.lock.stillHeld())) {
      // Taken over while this window was judged gone (a long sleep): the other window runs them now.
      await this.lock.release();
      this.lock = undefined;
    }
    this.lock ??= await this.deps.store.tryRunnerLock(this.deps.lock);
    return this.lock !== undefined;
  }

  /** One look at every watch: takes the lock if it can, then runs what is due. Resolves to the ids it ran. */
  async tick(): Promise<string[]> {
    if (this.busy) return [];
    this.busy = true;
    try {
      if (!(await this.owns())) return [];
      const ran: string[] = [];
      for (const w of await this.deps.store.all()) {
        if (w.paused || this.running.has(w.id)) continue;
        const due = dueAt(w.schedule, w.lastSlot, this.now());
        if (due.latest <= w.lastSlot) continue;
        // Taken in the store before anything is sent: a slot is acted on once, whatever window looks.
        if (!(await this.deps.store.claim(w.id, due.latest))) continue;
        if (due.missed > 0) {
          const text = due.missed === 1 ? l10n.t('{0} run was missed while no window ran this watch; not caught up.', due.missed) : l10n.t('{0} runs were missed while no window ran this watch; not caught up.', due.missed);
          const after = await this.deps.store.addRun(w.id, { at: this.now(), status: 'missed', text, credits: 0 });
          this.deps.tell({ kind: 'missed', watch: after ?? w, count: due.missed });
        }
        if (due.run !== undefined) {
          await this.runOnce(w.id, false);
          ran.push(w.id);
        }
      }
      return ran;
    } finally {
      this.busy = false;
    }
  }

  /** Runs a watch now (a scheduled slot, or Run Now): executes, compares with the previous result, records, tells. */
  async runOnce(id: string, manual: boolean): Promise<RunRecord | undefined> {
    if (this.running.has(id)) return undefined;
    this.running.add(id);
    try {
      const w = await this.deps.store.get(id);
      if (!w) return undefined;
      const at = this.now();
      const out = await this.execute(w);
      let run: RunRecord;
      let changes: Changes | undefined;
      if (out.kind === 'skipped') run = { at, status: 'skipped', text: l10n.t('Skipped: {0}', out.message), credits: 0, ...(out.approveAgain ? { approveAgain: true as const } : {}) };
      else if (out.kind === 'failed') run = { at, status: 'failed', text: l10n.t('Failed: {0}', out.message), credits: out.credits };
      else if (w.lastResult === undefined) {
        run = { at, status: 'first', text: l10n.t('First result: the next run is compared with it.'), credits: out.credits, resultPath: out.resultPath };
      } else {
        try {
          changes = await this.deps.compare(w.lastResult, out.resultPath, w.threshold);
          const comparePath = await this.deps.saveComparison(w.lastResult, out.resultPath);
          const text = changes.missingColumn ? l10n.t('{0} (no column “{1}” to measure)', changesText(changes, w.threshold), changes.missingColumn) : changesText(changes, w.threshold);
          run = { at, status: anyChange(changes) ? 'changed' : 'unchanged', text, credits: out.credits, resultPath: out.resultPath, comparePath };
        } catch (e) {
          run = { at, status: 'failed', text: l10n.t('Ran, but not compared: {0}', errorText(e)), credits: out.credits, resultPath: out.resultPath };
        }
      }
      // A query billed per match can cost more than the amount accepted (the service bills what matched):
      // the watch stops there, so it never does it twice without the person.
      const over = out.kind === 'skipped' ? undefined : overApproved(w.approval, out.credits);
      if (over !== undefined) {
        run = { ...run, text: `${run.text} ${over}` };
        await this.deps.store.update(id, (x) => ({ ...x, paused: true }));
      }
      const after = await this.deps.store.addRun(id, run);
      this.deps.tell({ kind: 'ran', watch: after ?? w, run, manual, ...(changes ? { changes } : {}), ...(w.lastResultAt !== undefined ? { previousAt: w.lastResultAt } : {}) });
      return run;
    } finally {
      this.running.delete(id);
    }
  }

  private async execute(w: WatchRecord): Promise<ExecOutcome> {
    try {
      return await this.deps.execute(w);
    } catch (e) {
      return { kind: 'failed', message: errorText(e), credits: 0 };
    }
  }

  /** Lets another window run the watches (this one is closing). */
  async dispose(): Promise<void> {
    const l = this.lock;
    this.lock = undefined;
    await l?.release();
  }
}
