/**
 * When a watch runs (issue 25): every hour, every day at a UTC time, or every custom interval of at
 * least the service's refresh (an hour: §8.5, core/spec/refresh.ts; a Wallet Database query re-run
 * inside the hour is free and the same, so a shorter interval would show nothing new). A test-only
 * interval shorter than that is accepted only when the caller says it runs under VS Code's test
 * runner (ExtensionMode.Test), never from settings or command arguments.
 *
 * A schedule is a series of slots (the times it is due). A watch records the last slot it took,
 * so it never runs twice for one slot; slots that passed while no window ran it (the editor was
 * closed) are counted and told, never caught up silently. Pure: every function takes the time.
 */
import { scheduleProblem, type Schedule as CronSchedule } from '../pipeline/schedulerFiles';
import { REFRESH_PERIOD_MS } from '../spec/refresh';
import { l10n } from '../l10n';

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

export type Schedule =
  | { readonly kind: 'hourly' }
  /** `at`: minutes past midnight UTC (09:00 is 540). */
  | { readonly kind: 'daily'; readonly at: number }
  | { readonly kind: 'interval'; readonly ms: number };

/** How long after its slot a run still counts as on time (a window that opens later tells it as missed). */
const GRACE_MAX_MS = 15 * 60_000;

/** The time between two slots. */
export function periodOf(s: Schedule): number {
  return s.kind === 'hourly' ? HOUR_MS : s.kind === 'daily' ? DAY_MS : s.ms;
}

function offsetOf(s: Schedule): number {
  return s.kind === 'daily' ? s.at * 60_000 : 0;
}

/** The start of the slot `t` falls in (the latest slot at or before t). */
export function slotOf(s: Schedule, t: number): number {
  const p = periodOf(s);
  const off = offsetOf(s);
  return Math.floor((t - off) / p) * p + off;
}

/** The first slot after `t`. */
export function nextSlot(s: Schedule, t: number): number {
  return slotOf(s, t) + periodOf(s);
}

/** How late a run may start after its slot and still be on time: half a period, at most 15 minutes. */
function graceOf(s: Schedule): number {
  return Math.min(periodOf(s) / 2, GRACE_MAX_MS);
}

/**
 * What is due at `now` for a watch whose last taken slot is `last`: the slot to run (the latest,
 * when it is still on time) and how many slots passed without a run (missed: told, not caught up).
 * `latest` is the slot to record as taken, so neither is told or run again.
 */
export function dueAt(s: Schedule, last: number, now: number): { readonly run?: number; readonly missed: number; readonly latest: number } {
  const latest = slotOf(s, now);
  if (latest <= last) return { missed: 0, latest: last };
  // A last slot off the schedule's grid (the schedule was changed) still counts one.
  const passed = Math.max(1, Math.round((latest - last) / periodOf(s)));
  const onTime = now - latest <= graceOf(s);
  return onTime ? { run: latest, missed: passed - 1, latest } : { missed: passed, latest };
}

/** "every hour", "every day at 09:00 UTC", "every 2 hours", "every 5 s (test)". */
export function scheduleText(s: Schedule): string {
  if (s.kind === 'hourly') return l10n.t('every hour');
  if (s.kind === 'daily') return l10n.t('every day at {0} UTC', hhmm(s.at));
  if (s.ms % DAY_MS === 0) return s.ms === DAY_MS ? l10n.t('every day') : l10n.t('every {0} days', s.ms / DAY_MS);
  if (s.ms % HOUR_MS === 0) return l10n.t('every {0} hours', s.ms / HOUR_MS);
  if (s.ms % 60_000 === 0) return l10n.t('every {0} minutes', s.ms / 60_000);
  return l10n.t('every {0} s (test)', s.ms / 1000);
}

function hhmm(minutes: number): string {
  return `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
}

/** "09:00" → 540; undefined unless a valid UTC time of day. */
export function parseTimeOfDay(text: string): number | undefined {
  const m = /^\s*([01]?\d|2[0-3]):([0-5]\d)\s*(?:UTC)?\s*$/iu.exec(text);
  return m ? Number(m[1]) * 60 + Number(m[2]) : undefined;
}

/**
 * A custom interval typed as "2h", "90m", "1d" (or a number of hours): its length, or why it is
 * refused. At least the service's refresh, an hour; shorter only when `testMode` (ExtensionMode.Test).
 */
export function parseInterval(text: string, testMode = false): { ms: number } | { problem: string } {
  const m = /^\s*(\d+(?:\.\d+)?)\s*(s|m|min|h|hours?|d|days?)?\s*$/iu.exec(text);
  if (!m) return { problem: l10n.t('Type an interval such as 2h, 90m or 1d.') };
  const n = Number(m[1]);
  const unit = (m[2] ?? 'h').toLowerCase();
  const ms = Math.round(n * (unit === 's' ? 1000 : unit.startsWith('m') ? 60_000 : unit.startsWith('d') ? DAY_MS : HOUR_MS));
  return checkInterval(ms, testMode);
}

/** The shortest interval allowed: the service's refresh (an hour); half a second only under the test runner. */
function intervalFloor(testMode: boolean): number {
  return testMode ? 500 : REFRESH_PERIOD_MS;
}

/** An interval's length if allowed: at least the service's refresh (an hour), unless under the test runner. */
export function checkInterval(ms: number, testMode = false): { ms: number } | { problem: string } {
  if (!Number.isFinite(ms) || ms <= 0) return { problem: l10n.t('The interval must be more than zero.') };
  if (ms < intervalFloor(testMode)) {
    return { problem: l10n.t('At least an hour: the metrics refresh hourly, and the same query inside the hour gives the same answer.') };
  }
  return { ms };
}

/**
 * A schedule as read back from watches.json (a file anyone can edit): an interval below the floor
 * is raised to it, so a hand-edited 1 ms never charges at every tick (issue 30 item 3).
 */
export function storedSchedule<S extends Schedule>(s: S, testMode = false): S {
  return s.kind === 'interval' && !(s.ms >= intervalFloor(testMode)) ? { ...s, ms: intervalFloor(testMode) } : s;
}

/**
 * The watch's schedule as an exported script's scheduler writes it (core/pipeline/schedulerFiles.ts:
 * a GitHub Actions workflow, a crontab line), or why cron cannot say it (an interval that does not
 * divide the hour or the day).
 */
export function cronSchedule(s: Schedule): CronSchedule | { readonly error: string } {
  const out: CronSchedule =
    s.kind === 'hourly' ? { kind: 'hourly', minute: 0 }
    : s.kind === 'daily' ? { kind: 'daily', hour: Math.floor(s.at / 60), minute: s.at % 60 }
    : { kind: 'interval', minutes: s.ms / 60_000 };
  const problem = scheduleProblem(out);
  return problem ? { error: problem } : out;
}
