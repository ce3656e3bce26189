/**
 * The watches of this window (issue 25): the store every window shares (a file under global
 * storage), the runner that one window at a time holds (core/watch/runner.ts), a tick that looks
 * for due slots, and what is told: a run that found changes in one line with Open Changes (the
 * compare table) and Open Result, a run skipped or failed, slots missed while no window ran it
 * (with Run Once Now). "Only when something changed" is each watch's default.
 */
import * as vscode from 'vscode';
import { saveComparison } from '../../core/table/compare/compareFile';
import { PERIOD_MS } from '../../core/money/quotaPeriod';
import { tableFileOf } from '../../core/results/files';
import { changeLine, compareInWorker, detectChanges } from '../../core/watch/changes';
import { spentSince, type WatchRecord } from '../../core/watch/model';
import type { StoredApproval } from '../../core/money/approval';
import { WatchRunner, type WatchEvent } from '../../core/watch/runner';
import { WatchStore } from '../../core/watch/store';
import type { CreditsService } from '../base/credits';
import { CommandIds } from '../base/ids';
import { showWarning } from '../base/errors';
import { CancelledError, errorText } from '../../core/errors';
import type { Log } from '../base/log';
import { openResult } from '../results/open';
import { openInTable } from '../table/tableEditor';
import { runWatch, type TargetDeps } from './targets';

const OPEN_CHANGES = 'Open Changes';
const OPEN_RESULT = 'Open Result';
const RUN_ONCE_NOW = 'Run Once Now';
const APPROVE_AGAIN = 'Approve the New Price…';

interface WatchServiceDeps extends TargetDeps {
  readonly credits: CreditsService;
  readonly log: Log;
  /** The folder under global storage the watches are kept in. */
  readonly dir: string;
  /** Where comparisons are written (the results folder). */
  readonly resultsFolder: () => string;
  /** How often the window looks for due slots (and tries to take the runner over). */
  readonly tickMs: number;
  /** Under VS Code's test runner only: intervals of seconds are kept when the watches are read. */
  readonly testMode?: boolean;
}

/**
 * A line told to the person, kept for the tests: the notification's text, its buttons, and what a
 * button does (`act`, the same function the notification's answer calls, so a test presses the
 * button of this line, not of whichever run is latest by then).
 */
interface Told {
  readonly watchId: string;
  readonly text: string;
  readonly actions: readonly string[];
  readonly act: (action: string) => void;
}

export class WatchService implements vscode.Disposable {
  readonly store: WatchStore;
  readonly runner: WatchRunner;
  private readonly changed = new vscode.EventEmitter<void>();
  /** A watch was added, removed, paused or ran (in this window; others' runs show at the next tick). */
  readonly onDidChange = this.changed.event;
  private readonly toldEmitter = new vscode.EventEmitter<Told>();
  readonly onDidTell = this.toldEmitter.event;
  readonly told: Told[] = [];
  private timer: NodeJS.Timeout | undefined;
  private readonly abort = new AbortController();
  private cached: WatchRecord[] = [];

  constructor(readonly deps: WatchServiceDeps) {
    this.store = new WatchStore(deps.dir, { testMode: deps.testMode === true });
    this.runner = new WatchRunner({
      store: this.store,
      execute: async (w) => {
        const out = await runWatch(w, deps, this.abort.signal);
        // A .zip result is a folder of tables: its first table is the one compared.
        return out.kind === 'done' ? { ...out, resultPath: (await tableFileOf(out.resultPath)) ?? out.resultPath } : out;
      },
      compare: (a, b, threshold) => detectChanges(a, b, threshold, compareInWorker()),
      saveComparison: (a, b) => this.saveComparison(a, b),
      tell: (e) => this.tell(e),
    });
  }

  /** Starts looking for due slots every tickMs. */
  start(): void {
    void this.reload();
    this.timer = setInterval(() => void this.tick(), this.deps.tickMs);
  }

  /** One look: takes the runner if free, runs what is due, and refreshes the view from the store. */
  async tick(): Promise<void> {
    try {
      await this.runner.tick();
    } catch (e) {
      this.deps.log.warn(`Watches: ${errorText(e)}`);
    }
    await this.reload();
  }

  /** The watches as last read (the view's source), newest first. */
  list(): readonly WatchRecord[] {
    return this.cached;
  }

  async reload(): Promise<void> {
    const next = (await this.store.all()).sort((a, b) => b.createdAt - a.createdAt);
    if (JSON.stringify(next) !== JSON.stringify(this.cached)) {
      this.cached = next;
      this.changed.fire();
    }
  }

  /** What a watch's runs charged in the current quota period (the last 30 days when its start is not known). */
  spentThisPeriod(w: WatchRecord): number {
    const reset = this.deps.credits.nextReset(w.approval.scope);
    return spentSince(w, reset ? reset.date.getTime() - PERIOD_MS : Date.now() - PERIOD_MS);
  }

  async add(w: WatchRecord): Promise<void> {
    await this.store.put(w);
    await this.reload();
  }

  async setPaused(id: string, paused: boolean): Promise<void> {
    // Resumed: the slots that passed while paused are not missed runs; the next slot is the first.
    await this.store.update(id, (w) => ({ ...w, paused, ...(paused ? {} : { lastSlot: Math.max(w.lastSlot, Date.now() - 1) }) }));
    await this.reload();
  }

  /** Binds a watch to a new approval (the person approved the new price of what it sends now). */
  async setApproval(id: string, approval: StoredApproval): Promise<WatchRecord | undefined> {
    const after = await this.store.update(id, (w) => ({ ...w, approval }));
    await this.reload();
    return after;
  }

  async remove(id: string): Promise<boolean> {
    const gone = await this.store.remove(id);
    await this.reload();
    return gone;
  }

  /** Runs a watch once now, outside its schedule (its slots stay as they are). */
  async runNow(id: string): Promise<void> {
    await this.runner.runOnce(id, true);
    await this.reload();
  }

  private async saveComparison(older: string, newer: string): Promise<string> {
    return saveComparison(this.deps.resultsFolder(), older, newer);
  }

  private say(watchId: string, text: string, actions: readonly string[], level: 'info' | 'warning', act: (action: string) => void = () => undefined): void {
    const t: Told = { watchId, text, actions, act };
    this.told.push(t);
    if (this.told.length > 50) this.told.shift();
    this.toldEmitter.fire(t);
    this.deps.log.info(`Watch: ${text}`);
    const shown = level === 'warning' ? showWarning(text, ...actions) : vscode.window.showInformationMessage(text, ...actions);
    void shown.then((a) => {
      if (a !== undefined) act(a);
    });
  }

  private tell(e: WatchEvent): void {
    void this.reload();
    const w = e.watch;
    if (e.kind === 'missed') {
      const text = `${w.name}: ${e.count} scheduled run${e.count === 1 ? ' was' : 's were'} missed while the editor was closed (not caught up).`;
      this.say(w.id, text, [RUN_ONCE_NOW], 'info', (a) => {
        if (a === RUN_ONCE_NOW) void this.runNow(w.id);
      });
      return;
    }
    const { run } = e;
    if (run.approveAgain) {
      // Short enough to read whole in a toast; the reason in full is on the Last result row's hover.
      const text = `${w.name}: skipped, nothing sent: what it would send (or its price) changed since you approved the watch.`;
      this.say(w.id, text, [APPROVE_AGAIN], 'warning', (a) => {
        if (a === APPROVE_AGAIN) void vscode.commands.executeCommand(CommandIds.approveWatchAgain, w.id);
      });
      return;
    }
    if (run.status === 'skipped' || run.status === 'failed') {
      this.say(w.id, `${w.name}: ${run.text}`, [], 'warning');
      return;
    }
    const changed = run.status === 'changed';
    if (!changed && w.notify === 'changed' && !e.manual) return;
    const text = e.changes && e.previousAt !== undefined ? changeLine(w.name, e.changes, w.threshold, e.previousAt, run.at) : `${w.name}: ${run.text}`;
    const actions = [...(run.comparePath ? [OPEN_CHANGES] : []), ...(run.resultPath ? [OPEN_RESULT] : [])];
    this.say(w.id, text, actions, 'info', (a) => {
      if (a === OPEN_CHANGES && run.comparePath) void openInTable(run.comparePath);
      else if (a === OPEN_RESULT && run.resultPath) void openResult(run.resultPath);
    });
  }

  dispose(): void {
    if (this.timer) clearInterval(this.timer);
    this.abort.abort(new CancelledError());
    void this.runner.dispose();
    this.changed.dispose();
    this.toldEmitter.dispose();
  }
}
