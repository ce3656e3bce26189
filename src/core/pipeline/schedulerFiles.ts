import { l10n } from '../l10n';
/**
 * A schedule written out for schedulers that are not ours (issue 24 item 3): a GitHub Actions
 * workflow and a crontab line that run an exported pipeline with the command-line runner (issue 32:
 * `wallet-analytics.cjs`, the editor's own core in one file, run by Node 20). Kept apart from the export
 * so anything else that runs on a schedule (an exported watch) says "every day at 06:30 UTC" the
 * same way and gets the same files.
 *
 * Why it is built this way:
 * - The key never appears: the workflow reads it from the repository secret `WA_API_KEY`, the cron
 *   line from the crontab's own environment (the person sets it there, we never write it).
 * - Every name that reaches a file is data: the runner's and the pipeline's paths must be plain (letters, digits,
 *   `._-/`), because a workflow's `run:` is shell and GitHub evaluates `${{ … }}` in it before the
 *   shell sees it; quoting cannot make an arbitrary name safe there, so an unsafe one is refused.
 * - Cron has no time zone of its own in GitHub Actions (UTC) and in a crontab (the machine's), so
 *   a schedule is always said and written in UTC, and the crontab line says so.
 * Pure: no file access, no VS Code.
 */

export type Schedule =
  | { readonly kind: 'hourly'; readonly minute: number }
  | { readonly kind: 'daily'; readonly hour: number; readonly minute: number }
  /** Every N minutes (N divides 60) or every N hours (N × 60 minutes, N divides 24). */
  | { readonly kind: 'interval'; readonly minutes: number };

const pad = (n: number): string => String(n).padStart(2, '0');

/** Why a schedule cannot be written as cron, or undefined when it can. */
export function scheduleProblem(s: Schedule): string | undefined {
  const whole = (n: number, lo: number, hi: number): boolean => Number.isInteger(n) && n >= lo && n <= hi;
  switch (s.kind) {
    case 'hourly':
      return whole(s.minute, 0, 59) ? undefined : l10n.t('The minute must be a whole number from 0 to 59.');
    case 'daily':
      return whole(s.hour, 0, 23) && whole(s.minute, 0, 59) ? undefined : l10n.t('The time must be HH:MM, from 00:00 to 23:59 (UTC).');
    case 'interval': {
      const m = s.minutes;
      // GitHub runs scheduled workflows at most every 5 minutes.
      if (whole(m, 5, 59) && 60 % m === 0) return undefined;
      if (whole(m, 60, 1440) && m % 60 === 0 && 24 % (m / 60) === 0) return undefined;
      return l10n.t('An interval must be 5, 10, 15, 20 or 30 minutes, or 1, 2, 3, 4, 6, 8, 12 or 24 hours (cron repeats within the hour or the day).');
    }
  }
}

/**
 * Reads "every hour", "every hour at :15", "every day at 06:30", "every 15 minutes",
 * "every 6 hours" (UTC); a message for anything else.
 */
export function parseSchedule(text: string): Schedule | { readonly error: string } {
  const t = text.trim().toLowerCase().replace(/\s+/gu, ' ').replace(/ utc$/u, '');
  let s: Schedule | undefined;
  let m: RegExpExecArray | null;
  if ((m = /^(?:every hour|hourly)(?: at :?(\d{1,2}))?$/u.exec(t))) s = { kind: 'hourly', minute: Number(m[1] ?? 0) };
  else if ((m = /^(?:every day|daily) at (\d{1,2}):(\d{2})$/u.exec(t))) s = { kind: 'daily', hour: Number(m[1]), minute: Number(m[2]) };
  else if ((m = /^every (\d{1,4}) ?(minutes?|min|hours?|h)$/u.exec(t))) s = { kind: 'interval', minutes: Number(m[1]) * (m[2]?.startsWith('h') ? 60 : 1) };
  if (!s) return { error: 'Write a schedule as "every hour", "every hour at :15", "every day at 06:30", "every 15 minutes" or "every 6 hours" (UTC).' };
  const p = scheduleProblem(s);
  return p ? { error: p } : s;
}

/** The schedule as a person reads it: "every day at 06:30 UTC". */
export function scheduleText(s: Schedule): string {
  switch (s.kind) {
    case 'hourly':
      return l10n.t('every hour at :{0} UTC', pad(s.minute));
    case 'daily':
      return l10n.t('every day at {0}:{1} UTC', pad(s.hour), pad(s.minute));
    case 'interval':
      return s.minutes % 60 === 0 ? s.minutes / 60 === 1 ? l10n.t('every hour (UTC)') : l10n.t('every {0} hours (UTC)', s.minutes / 60) : l10n.t('every {0} minutes', s.minutes);
  }
}

/** The five cron fields of a schedule (UTC). Throws for a schedule scheduleProblem refuses. */
export function cronOf(s: Schedule): string {
  const p = scheduleProblem(s);
  if (p) throw new Error(p);
  switch (s.kind) {
    case 'hourly':
      return `${s.minute} * * * *`;
    case 'daily':
      return `${s.minute} ${s.hour} * * *`;
    case 'interval':
      if (s.minutes < 60) return `*/${s.minutes} * * * *`;
      return s.minutes === 1440 ? '0 0 * * *' : s.minutes === 60 ? '0 * * * *' : `0 */${s.minutes / 60} * * *`;
  }
}

/** How many times a day a schedule runs: what a day of it may cost is this × the run's bound. */
export function runsPerDay(s: Schedule): number {
  return s.kind === 'daily' ? 1 : s.kind === 'hourly' ? 24 : 1440 / s.minutes;
}

const PLAIN_PATH = /^(?!.*(?:^|\/)\.\.?(?:\/|$))[A-Za-z0-9._-]+(?:\/[A-Za-z0-9._-]+)*$/u;

/** Whether a relative path may stand unquoted in a workflow's shell line and in a crontab (no `..`, no space, no `$`). */
export function isPlainPath(p: string): boolean {
  return PLAIN_PATH.test(p) && !p.startsWith('-');
}

/** A file name made plain: every other character becomes `_` (a name is the person's, the path must be safe). */
export function plainName(name: string): string {
  const s = name.replace(/[^A-Za-z0-9._-]+/gu, '_').replace(/^[.-]+/u, '');
  return s === '' ? 'pipeline' : s.slice(0, 80);
}

/** What the scheduled command runs: the runner (its path in the repository or on the machine) on the pipeline, with its bound. */
interface ScheduledRun {
  /** The runner's path (`wallet-analytics.cjs`), relative to the repository root (workflow) or the working folder (cron): plain only. */
  readonly runner: string;
  /** The pipeline's path, relative like `runner`: plain only. */
  readonly pipeline: string;
  /** `run` (a pipeline), or `watch` (an exported watch: every call again, its change summary). */
  readonly command: 'run' | 'watch';
  /** The credit bound passed as --max-credits: the run refuses to start above it. */
  readonly maxCredits: number;
  /** The service, passed as --base-url (https, or http for loopback only). */
  readonly baseUrl: string;
  /** The folder the runner writes its results to, relative like `runner` (uploaded as the workflow's artifact). */
  readonly results: string;
  /** A display name (the pipeline's); written only as a quoted YAML string or a comment-safe text. */
  readonly name: string;
}

/** A base URL a shell line can hold unquoted: scheme, host, port and a plain path, nothing a shell or GitHub reads. */
const PLAIN_URL = /^https?:\/\/[A-Za-z0-9.-]+(?::\d{1,5})?(?:\/[A-Za-z0-9._~-]+)*\/?$/u;

function checkRun(r: ScheduledRun): void {
  for (const p of [r.runner, r.pipeline, r.results]) if (!isPlainPath(p)) throw new Error(l10n.t('“{0}” is not a plain relative path (letters, digits, “._-/”); rename it to schedule it.', p));
  if (!Number.isSafeInteger(r.maxCredits) || r.maxCredits < 0) throw new Error(l10n.t('The credit bound must be a whole number of credits.'));
  if (!PLAIN_URL.test(r.baseUrl)) throw new Error(l10n.t('The base URL “{0}” cannot be written in a scheduled command as it is.', r.baseUrl));
}

/** The command line both schedulers run. */
function runnerLine(r: ScheduledRun): string {
  return `node ${r.runner} ${r.command} ${r.pipeline} --max-credits ${r.maxCredits} --base-url ${r.baseUrl}`;
}

/** A YAML double-quoted scalar: JSON's string syntax, with every line break and control character escaped. */
function yamlString(s: string): string {
  let out = '';
  // GitHub evaluates ${{ … }} in the parsed value of most strings of a workflow, so no escape of the
  // YAML text helps: the value itself must never hold one. A name is display only; "$ {{" reads alike.
  for (const ch of JSON.stringify(s.replaceAll('${{', '$ {{'))) {
    const c = ch.charCodeAt(0);
    out += c < 0x20 || (c >= 0x7f && c < 0xa0) || c === 0x2028 || c === 0x2029 ? `\\u${c.toString(16).padStart(4, '0')}` : ch;
  }
  return out;
}

/**
 * A GitHub Actions workflow that runs the runner on the schedule (UTC) under Node 20, with the key
 * from the repository secret WA_API_KEY, and keeps its results as the run's artifact.
 */
export function githubWorkflow(s: Schedule, r: ScheduledRun): string {
  checkRun(r);
  const cron = cronOf(s);
  return [
    `# Runs the Wallet Analytics pipeline ${yamlString(r.name)} ${scheduleText(s)}.`,
    '# Put this file in .github/workflows/ of the repository that holds the pipeline and wallet-analytics.cjs, and add the',
    '# repository secret WA_API_KEY (Settings → Secrets and variables → Actions) holding your API key.',
    `# Each run refuses to start if its plan could cost more than ${r.maxCredits} credits (--max-credits).`,
    `name: ${yamlString(`Wallet Analytics pipeline: ${r.name}`)}`,
    'on:',
    '  schedule:',
    `    - cron: "${cron}"`,
    '  workflow_dispatch: {}',
    'permissions:',
    '  contents: read',
    'concurrency:',
    `  group: ${yamlString(`wallet-analytics-${r.pipeline}`)}`,
    '  cancel-in-progress: false',
    'jobs:',
    '  run:',
    '    runs-on: ubuntu-latest',
    '    timeout-minutes: 120',
    '    steps:',
    '      - uses: actions/checkout@v4',
    '      - uses: actions/setup-node@v4',
    '        with:',
    '          node-version: "20"',
    `      - run: ${runnerLine(r)}`,
    '        env:',
    '          WA_API_KEY: ${{ secrets.WA_API_KEY }}',
    '      - uses: actions/upload-artifact@v4',
    '        if: always()',
    '        with:',
    `          name: ${yamlString(plainName(r.name))}`,
    `          path: ${r.results}`,
    '          if-no-files-found: ignore',
    '',
  ].join('\n');
}

/**
 * A crontab line that runs the runner on the schedule from `dir` (absolute; single-quoted for the
 * shell). Cron reads its times in the machine's zone, so CRON_TZ=UTC goes first (cronie and
 * systemd-cron read it; elsewhere set the machine to UTC). WA_API_KEY must be set in the crontab.
 */
export function cronLine(s: Schedule, r: ScheduledRun, dir: string): string {
  checkRun(r);
  if (/[\r\n%]/u.test(dir) || dir.includes('\u0000')) throw new Error(l10n.t('The folder holds a line break or “%”, which a crontab line cannot carry; move the pipeline.'));
  const quoted = `'${dir.replace(/'/gu, `'\\''`)}'`;
  return `CRON_TZ=UTC\n${cronOf(s)} cd ${quoted} && ${runnerLine(r)} >> ${r.pipeline}.log 2>&1`;
}
