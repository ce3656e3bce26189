import * as vscode from 'vscode';
import { createTreeView } from '../base/handOver';
import { endpointTitle } from '../../core/history/format';
import type { HistoryFilter } from '../../core/history/model';
import type { HistoryItem } from '../../core/history/merge';
import type { JobStore } from '../../core/jobs/store';
import { ContextKeys, REQUESTS_VIEW } from '../base/ids';
import type { Connection } from '../base/connection';
import type { ContextKeySetter } from '../base/contextKeys';
import type { JobService } from '../jobs/jobService';
import type { HistoryService } from '../base/history';
import { RequestsProvider, type RequestsElement } from './requestsTree';
import { ResultFiles } from './resultFiles';
import { onDidChangeSettings, readSidebarSettings } from '../base/settings';
import { stateOfError, type ConnectionStatus } from '../base/status';
import { thousands } from '../../core/numberText';

interface RequestsViewDeps {
  readonly connection: Connection;
  readonly jobs: JobService;
  readonly history: HistoryService;
  readonly status: ConnectionStatus;
  readonly contextKeys: ContextKeySetter;
}

/**
 * The Requests view: its tree, and when it reads the history. It asks the shared fetcher only
 * while it is visible (every interval while something runs, every `history.idleRefreshSeconds`
 * otherwise, slower while the window is unfocused); while it is hidden, the poller's own
 * `GET /requests` (same fetcher) and the job store keep it current at no extra cost.
 */
export class RequestsView implements vscode.Disposable {
  readonly provider: RequestsProvider;
  readonly treeView: vscode.TreeView<RequestsElement>;
  readonly files: ResultFiles;
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** Failed history reads in a row. */
  private failures = 0;
  private store: JobStore | undefined;
  private unsubscribeStore: (() => void) | undefined;
  private readonly subs: vscode.Disposable[] = [];

  constructor(private readonly d: RequestsViewDeps) {
    this.files = new ResultFiles(d.jobs);
    this.provider = new RequestsProvider({
      scope: () => d.connection.scope(),
      server: (scope) => d.history.fetcher.peek(scope)?.records,
      local: () => this.jobStore().all(),
      showing: () => d.status.state === 'ok' || d.status.state === 'checking',
      ensureOnDisk: (item) => this.files.ensure(item, d.connection.scope()),
    });
    this.treeView = createTreeView(REQUESTS_VIEW, { treeDataProvider: this.provider, showCollapseAll: true });
    const unFetch = d.history.fetcher.onDidFetch((e) => {
      if (e.scope !== d.connection.scope()) return;
      // One failed poll is not "offline" (the view would flash its welcome): the second in a row is.
      // A refused key is said at once.
      this.failures = e.error === undefined ? 0 : this.failures + 1;
      const refused = e.error !== undefined && stateOfError(e.error).state === 'refused';
      if (e.error === undefined || refused || this.failures >= 2 || d.status.state !== 'ok') void d.status.report(e.scope, e.error);
      if (e.snapshot) this.rebuild();
    });
    this.subs.push(
      this.provider,
      this.treeView,
      { dispose: unFetch },
      { dispose: () => this.unsubscribeStore?.() },
      d.status.onDidChange(() => {
        this.provider.refreshAll();
        this.rebuild();
        this.describe();
        this.schedule();
      }),
      d.connection.onDidChange(() => {
        this.rebuild();
        this.provider.refreshAll();
        void this.refresh();
      }),
      this.treeView.onDidChangeVisibility((e) => {
        if (e.visible && d.history.fetcher.due(d.connection.scope())) void this.refresh();
        this.schedule();
      }),
      d.history.onDidChangeFocus(() => this.schedule()),
      onDidChangeSettings(() => this.schedule()),
    );
    this.rebuild();
    this.describe();
    this.schedule();
  }

  /** The job store now (JobService may rebuild it, as a reload does); follows it. */
  /** An item's inputs whole: a local job's record may keep a long list in a file (core/jobs/inputFiles.ts). */
  wholeInputs(item: HistoryItem): Promise<Record<string, unknown>> {
    return this.jobStore().wholeInputs(item.inputs);
  }

  private jobStore(): JobStore {
    const s = this.d.jobs.store;
    if (s !== this.store) {
      this.unsubscribeStore?.();
      this.store = s;
      this.unsubscribeStore = s.onDidChange(() => {
        this.rebuild();
        this.schedule();
      });
    }
    return s;
  }

  /** Re-merges and fires what changed. */
  rebuild(): void {
    this.provider.rebuild();
    this.describe();
  }

  /**
   * Reads the history (through the shared fetcher: at most one call per interval; `force`
   * for a Refresh button, still never twice within a second) and rebuilds.
   */
  async refresh(force = false): Promise<void> {
    this.jobStore();
    if (!this.d.status.canPoll) {
      this.rebuild();
      return;
    }
    try {
      await this.d.history.fetcher.get(this.d.connection.scope(), { force });
    } catch {
      // Reported through onDidFetch to the status (and so to the welcome view).
    }
    this.rebuild();
  }

  private anyRunning(): boolean {
    return this.provider.model.groups().some((g) => g.id === 'running') || this.jobStore().open().length > 0;
  }

  private schedule(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (!this.treeView.visible || !this.d.status.canPoll) return;
    const ok = this.d.status.state === 'ok';
    const delay = ok && this.anyRunning() ? this.d.history.intervalMs() : this.d.history.paced(readSidebarSettings().idleRefreshMs);
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.refresh().finally(() => this.schedule());
    }, delay);
  }

  /** Sets the filter and search; the whole tree is redrawn once. */
  async setFilter(f: HistoryFilter): Promise<void> {
    this.provider.fire(this.provider.model.setFilter(f));
    await this.d.contextKeys.set(ContextKeys.requestsFiltered, this.provider.model.filtered);
    this.describe();
  }

  /** The view's description: the error when offline, else the filter and the counts. */
  private describe(): void {
    const m = this.provider.model;
    const s = this.d.status;
    let text: string | undefined;
    if ((s.state === 'offline' || s.state === 'refused') && s.error) text = s.error.message;
    else if (m.filtered) {
      const parts: string[] = [];
      if (m.filter.endpointId) parts.push(endpointTitle(m.filter.endpointId));
      if (m.filter.search) parts.push(`“${m.filter.search}”`);
      parts.push(`${thousands(m.shown)} of ${thousands(m.size)}`);
      text = parts.join(' · ');
    } else if (m.size > 0 && s.state === 'ok') text = `${thousands(m.size)} request${m.size === 1 ? '' : 's'}`;
    if (this.treeView.description !== text) this.treeView.description = text;
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    for (const s of this.subs) s.dispose();
  }
}
