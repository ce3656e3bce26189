import * as vscode from 'vscode';
import { HistoryFetcher } from '../../core/history/fetcher';
import type { PollApi } from '../../core/jobs/poller';
import type { Connection } from './connection';
import { pollIntervalMs, readSidebarSettings } from './settings';

/**
 * The window's pace and its one history reader. Every `GET /requests` of this window (the
 * Requests view, the poller, a Refresh) goes through `fetcher`, so there is at most one per
 * interval; the interval is `walletAnalytics.pollIntervalSeconds`, times
 * `walletAnalytics.unfocusedSlowdown` while the window is not focused.
 */
export class HistoryService implements vscode.Disposable {
  readonly fetcher: HistoryFetcher;
  private focusedNow = vscode.window.state.focused;
  private readonly focusChanged = new vscode.EventEmitter<boolean>();
  /** Fires with whether the window is focused now. */
  readonly onDidChangeFocus = this.focusChanged.event;
  private readonly subs: vscode.Disposable[] = [];
  /** Set only through the test runner's surface (TestSurface.pollEvery): the interval in ms instead of the setting's whole seconds. */
  private testIntervalMs: number | undefined;

  constructor(private readonly connection: Connection) {
    this.fetcher = new HistoryFetcher({
      fetch: async (scope, signal) => {
        const api = connection.apiFor(scope);
        if (!api) throw new Error(`The service at ${scope} is not available in this window.`);
        return api.requests(signal);
      },
      minIntervalMs: () => this.intervalMs(),
    });
    this.subs.push(
      vscode.window.onDidChangeWindowState((s) => {
        if (s.focused === this.focusedNow) return;
        this.focusedNow = s.focused;
        this.focusChanged.fire(s.focused);
      }),
    );
  }

  get focused(): boolean {
    return this.focusedNow;
  }

  /** Multiplies a delay while the window is unfocused. */
  paced(ms: number): number {
    return this.focusedNow ? ms : ms * readSidebarSettings().unfocusedSlowdown;
  }

  /** The poll interval now: the setting, slowed while the window is unfocused. */
  intervalMs(): number {
    return this.paced(this.testIntervalMs ?? pollIntervalMs());
  }

  /**
   * Under VS Code's test runner only (TestSurface.pollEvery, never a setting: a workspace cannot
   * make the window poll faster): a suite's jobs, done in 200 ms on its sandbox, are read at this
   * interval instead of the setting's (at least 1 s, 5 by default), so a test waits for its job,
   * not for the next poll. undefined: the setting again.
   */
  intervalForTests(ms: number | undefined): void {
    this.testIntervalMs = ms === undefined ? undefined : Math.max(50, ms);
  }

  /** The API the poller uses: its `requests` is the shared fetcher, `request` goes straight through. */
  pollApiFor(scope: string): PollApi | undefined {
    const api = this.connection.apiFor(scope);
    if (!api) return undefined;
    return {
      request: (id, signal) => api.request(id, signal),
      requests: async (signal) => [...(await this.fetcher.get(scope, { signal }))],
    };
  }

  dispose(): void {
    for (const s of this.subs) s.dispose();
    this.fetcher.dispose();
    this.focusChanged.dispose();
  }
}
