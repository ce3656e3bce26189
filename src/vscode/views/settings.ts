import * as vscode from 'vscode';
import { readSettings } from '../config';

/** The sidebar's settings (package.json declares them with their descriptions). */
export interface SidebarSettings {
  /** Below this balance the status bar item turns the warning colour, and one notification per period says so. */
  readonly warnBelow: number;
  /** Below this, the error colour and a second notification. */
  readonly criticalBelow: number;
  /** How often the balance is read (GET /credits, free) when nothing else asked for it. */
  readonly creditsRefreshMs: number;
  /** How often the visible Requests view reads the history while nothing runs. */
  readonly idleRefreshMs: number;
  /** Polling and refreshes wait this many times longer while the window is unfocused. */
  readonly unfocusedSlowdown: number;
}

export const SIDEBAR_DEFAULTS = {
  warnBelow: 100_000_000,
  criticalBelow: 10_000_000,
  refreshMinutes: 5,
  idleRefreshSeconds: 30,
  unfocusedSlowdown: 4,
} as const;

const positive = (v: unknown, d: number): number => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : d);

export function readSidebarSettings(): SidebarSettings {
  const c = vscode.workspace.getConfiguration('walletAnalytics');
  return {
    warnBelow: positive(c.get('credits.warnBelow'), SIDEBAR_DEFAULTS.warnBelow),
    criticalBelow: positive(c.get('credits.criticalBelow'), SIDEBAR_DEFAULTS.criticalBelow),
    creditsRefreshMs: Math.max(1, positive(c.get('credits.refreshMinutes'), SIDEBAR_DEFAULTS.refreshMinutes)) * 60_000,
    idleRefreshMs: Math.max(readSettings().pollIntervalSeconds, positive(c.get('history.idleRefreshSeconds'), SIDEBAR_DEFAULTS.idleRefreshSeconds)) * 1000,
    unfocusedSlowdown: Math.max(1, positive(c.get('unfocusedSlowdown'), SIDEBAR_DEFAULTS.unfocusedSlowdown)),
  };
}
