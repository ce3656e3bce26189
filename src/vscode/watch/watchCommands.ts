/**
 * "Watch This…" and the Watches view (issue 25). Watch This takes a past request (a Requests
 * item), a query file or a pipeline (the Explorer, the active editor), asks when to run it and
 * which change counts, then shows the price per run with the budget it lives in: the person's one
 * approval, stored with the watch. Command arguments may pre-fill the target, the name, the
 * schedule and the threshold (the tests do), never the approval; a test-only interval shorter than
 * the hourly refresh is accepted only under VS Code's test runner.
 *
 * The view (watchesView.ts) lists each watch with its next run, its last result, its spend this
 * period, and a pause switch on the row; Run Now, Remove Watch, the result of the last run and
 * Approve the New Price… (a watch whose query changed after its approval) are a click away.
 */
import * as vscode from 'vscode';
import { createTreeView, registerCommand } from '../base/handOver';
import { DAY_MS, resetWords, type BudgetState } from '../../core/money/budget';
import { findEndpoint } from '../../core/spec/catalog';
import { watchApprovalRecord, watchDayWords, type StoredApproval } from '../../core/money/approval';
import { PIPELINE_EXTENSION } from '../../core/pipeline/format';
import { Threshold, WatchTarget, type WatchRecord } from '../../core/watch/model';
import { checkInterval, nextSlot, parseInterval, parseTimeOfDay, periodOf, scheduleText, slotOf, type Schedule } from '../../core/watch/schedule';
import { sinceText } from '../../core/watch/changes';
import type { HistoryItem } from '../../core/history/merge';
import { CommandIds, REQUESTS_VIEW, WATCHES_VIEW } from '../base/ids';
import { showError, showErrorIn } from '../base/errors';
import { readSettings } from '../base/settings';
import { askText, offerSpend } from '../base/personQuestions';
import { chargedTo, type PriceQuestions } from '../calls/priceStep';
import { openResult } from '../results/open';
import { openInTable } from '../table/tableEditor';
import { RequestNode } from '../views/requestsTree';
import { exportWatch, type ExportWatchDeps } from './exportWatch';
import { priceOfRun, targetName } from './targets';
import type { WatchService } from './watchService';
import { DetailNode, idOfTarget, WatchesProvider, WatchNode } from './watchesView';
import { l10n } from '../../shared/l10n';
import { fmtCredits, thousands } from '../../core/numberText';

const QUERY_SUFFIX = '.waquery.json';

interface WatchCommandDeps {
  readonly watches: WatchService;
  readonly questions: PriceQuestions;
  /** A Requests item's record (endpoint and inputs). */
  readonly historyItem: (requestId: string) => HistoryItem | undefined;
  /** True only under VS Code's test runner: a test-only interval shorter than an hour is allowed. */
  readonly testMode: boolean;
  /** Export Watch's deps: the person's answers (replace a script?) and the base URL written into it. */
  readonly exporter: ExportWatchDeps;
}

/** What a caller may pre-fill (never the approval). */
interface WatchArgs {
  readonly target?: WatchTarget;
  readonly name?: string;
  readonly schedule?: Schedule;
  /** null: no threshold (only new and gone rows count). */
  readonly threshold?: Threshold | null;
  readonly notify?: 'changed' | 'always';
}

function watchArgsFrom(raw: unknown, testMode: boolean): WatchArgs | { problem: string } {
  if (!raw || typeof raw !== 'object' || raw instanceof vscode.Uri || raw instanceof RequestNode) return {};
  const r = raw as Record<string, unknown>;
  const target = r.target === undefined ? undefined : WatchTarget.safeParse(r.target);
  if (target && !target.success) return { problem: 'The watch’s target is not a request, a query file or a pipeline.' };
  let schedule: Schedule | undefined;
  const s = r.schedule as { kind?: unknown; at?: unknown; ms?: unknown } | undefined;
  if (s?.kind === 'hourly') schedule = { kind: 'hourly' };
  else if (s?.kind === 'daily' && typeof s.at === 'number') schedule = { kind: 'daily', at: s.at };
  else if (s?.kind === 'interval' && typeof s.ms === 'number') {
    const c = checkInterval(s.ms, testMode);
    if ('problem' in c) return c;
    schedule = { kind: 'interval', ms: c.ms };
  }
  const th = r.threshold === null ? null : r.threshold === undefined ? undefined : Threshold.safeParse(r.threshold);
  if (th && !th.success) return { problem: 'The threshold is a column and a percentage, e.g. realized_pnl_usd_7d 20%.' };
  return {
    ...(target?.success ? { target: target.data } : {}),
    ...(typeof r.name === 'string' && r.name.trim() ? { name: r.name.trim() } : {}),
    ...(schedule ? { schedule } : {}),
    ...(th === null ? { threshold: null } : th?.success ? { threshold: th.data } : {}),
    ...(r.notify === 'always' || r.notify === 'changed' ? { notify: r.notify } : {}),
  };
}

/** The target a command was run on: a Requests item, a file (Explorer, editor), or the active editor's file. */
function targetOf(arg: unknown, deps: WatchCommandDeps): WatchTarget | { problem: string } | undefined {
  if (arg instanceof RequestNode || typeof arg === 'string') {
    const item = deps.historyItem(arg instanceof RequestNode ? arg.requestId : arg);
    if (!item) return { problem: 'That request is no longer in the history.' };
    const ep = findEndpoint(item.endpointId);
    if (!ep || ep.family !== 'queued') return { problem: `${item.endpointId} cannot be re-run, so it cannot be watched.` };
    return { kind: 'request', endpointId: item.endpointId, inputs: item.inputs };
  }
  const uri = arg instanceof vscode.Uri ? arg : vscode.window.activeNotebookEditor?.notebook.uri ?? vscode.window.activeTextEditor?.document.uri;
  if (!uri || uri.scheme !== 'file') return undefined;
  const file = uri.fsPath;
  if (file.endsWith(QUERY_SUFFIX)) return { kind: 'query', file };
  if (file.endsWith(PIPELINE_EXTENSION)) return { kind: 'pipeline', file };
  return undefined;
}

async function askSchedule(testMode: boolean): Promise<Schedule | undefined> {
  type Item = vscode.QuickPickItem & { readonly pick: 'hourly' | 'daily9' | 'daily' | 'interval' };
  const items: Item[] = [
    { label: l10n.t('Every hour'), description: l10n.t('at :00 UTC, when the metrics refresh'), pick: 'hourly' },
    { label: l10n.t('Every day at 09:00 UTC'), pick: 'daily9' },
    { label: l10n.t('Every day at…'), description: l10n.t('a UTC time you type'), pick: 'daily' },
    { label: l10n.t('Custom interval…'), description: l10n.t('at least an hour'), pick: 'interval' },
  ];
  const chosen = await vscode.window.showQuickPick(items, { title: l10n.t('Watch This (1/3): when to run it'), ignoreFocusOut: true });
  if (!chosen) return undefined;
  if (chosen.pick === 'hourly') return { kind: 'hourly' };
  if (chosen.pick === 'daily9') return { kind: 'daily', at: 9 * 60 };
  if (chosen.pick === 'daily') {
    const t = await askText({ title: l10n.t('Every day at (UTC)'), placeHolder: '09:00', validateInput: (v) => (parseTimeOfDay(v) === undefined ? 'A UTC time such as 09:00 or 17:30.' : undefined) });
    const at = t === undefined ? undefined : parseTimeOfDay(t);
    return at === undefined ? undefined : { kind: 'daily', at };
  }
  const t = await askText({
    title: l10n.t('Every…'), placeHolder: l10n.t('2h, 90m, 1d'),
    validateInput: (v) => { const p = parseInterval(v, testMode); return 'problem' in p ? p.problem : undefined; },
  });
  const p = t === undefined ? undefined : parseInterval(t, testMode);
  return p && 'ms' in p ? { kind: 'interval', ms: p.ms } : undefined;
}

/** "realized_pnl_usd_7d 20%" → a threshold; '' → none. */
function parseThreshold(text: string): Threshold | null | { problem: string } {
  if (text.trim() === '') return null;
  const m = /^\s*([\w.$-]+)\s*(?:>|moves?\s+by)?\s*(\d+(?:\.\d+)?)\s*%\s*$/iu.exec(text);
  return m?.[1] && m[2] ? { column: m[1], percent: Number(m[2]) } : { problem: 'A column and a percentage, e.g. realized_pnl_usd_7d 20%; empty for new and gone rows only.' };
}

async function askThreshold(): Promise<Threshold | null | undefined> {
  const t = await askText({
    title: l10n.t('Watch This (2/3): which change counts'),
    prompt: l10n.t('New and gone wallets always count. Also count a numeric column that moved by more than a percentage (either way), or leave empty.'),
    placeHolder: l10n.t('realized_pnl_usd_7d 20%'),
    ignoreFocusOut: true,
    validateInput: (v) => { const p = parseThreshold(v); return p && 'problem' in p ? p.problem : undefined; },
  });
  if (t === undefined) return undefined;
  const p = parseThreshold(t);
  return p && 'problem' in p ? undefined : p;
}

/** "daily budget: 9,500 of 10,000 credits left, resets at …"; the budgets a watch's runs live in. */
function budgetWords(states: readonly BudgetState[]): string {
  if (states.length === 0) return 'No spend budget is set (walletAnalytics.budget.perDay, walletAnalytics.budget.perPeriod): only the per-call ceiling holds each run.';
  return `Each run lives in ${states.map((s) => `your ${s.kind === 'day' ? 'daily' : '30-day'} budget (${fmtCredits(s.left)} of ${fmtCredits(s.budget)} left, resets ${resetWords(s)})`).join(' and ')}; a run that would pass one is skipped, nothing sent.`;
}

/**
 * The approval's pick in one short line, with what the budgets leave ("Approves every run · left: 250,000
 * today, 1,000,000 this period"), named as the sidebar names them; short enough to read whole (the
 * longer "Daily budget: … credits left of …" line was cut off at the quick pick's width).
 */
function budgetLine(states: readonly BudgetState[]): string {
  if (states.length === 0) return l10n.t('Approves every run · no budget set: the per-call ceiling holds each run');
  const left = states.map((s) => (s.kind === 'day' ? l10n.t('{0} today', thousands(s.left)) : l10n.t('{0} this period', thousands(s.left))));
  return l10n.t('Approves every run · left: {0}', left.join(', '));
}

/**
 * The price per run of a watch's target as it is now, shown with the budget it lives in: the
 * person's one approval (creating a watch, or approving the new price of one whose query, inputs or
 * price changed). Undefined when the person did not approve; Cancel is every step's default.
 */
async function askRunApproval(deps: WatchCommandDeps, target: WatchTarget, name: string, schedule: Schedule, why: 'create' | 'again'): Promise<StoredApproval | undefined> {
  const command = why === 'create' ? l10n.t('Watch This') : l10n.t('Approve the New Price');
  const price = await priceOfRun(target);
  if (price.kind === 'unwatchable') {
    void showErrorIn(command, price.message);
    return undefined;
  }
  const { connection, credits } = deps.watches.deps;
  const scope = connection.scope();
  const to = connection.label();
  const settings = readSettings();
  const states = credits.budgets(settings.budgets, scope);
  const endpointId = target.kind === 'request' ? target.endpointId : target.kind;
  const ceiling = settings.maxCreditsPerCall;
  let perRun: number;
  let risk = false;
  const perDay = Math.max(1, Math.round(DAY_MS / periodOf(schedule)));
  const day = states.find((s) => s.kind === 'day');
  if (price.kind === 'perMatch') {
    const left = states.length ? Math.min(...states.map((s) => s.left)) : Infinity;
    // The most a run may be typed: the ceiling, or what a budget leaves, named as what it is (never "your balance").
    const most = Math.min(ceiling, left);
    const mostIs = most < ceiling ? (day && day.left === most ? l10n.t('what your daily budget leaves today') : l10n.t('what your 30-day budget leaves')) : l10n.t('your per-call ceiling');
    const typed = await deps.questions.choose({
      kind: 'amount', endpointId, to, title: why === 'create' ? l10n.t('Watch “{0}” (3/3) · {1}', name, to) : l10n.t('The new price of watch “{0}” · {1}', name, to), min: price.min, balance: most, mostIs, perMatch: price.perMatch,
      runsPerDay: perDay, ...(day ? { dayLeft: day.left } : {}),
      prompt: l10n.t('A Wallet Database query is billed per match ({0}), not known before it runs. Type the most credits each run may cost ({1} runs a day; at most {2}, {3}); a run that could cost more is skipped. {4}', price.text, perDay, mostIs, fmtCredits(most), why === 'create' ? l10n.t('Escape creates nothing.') : l10n.t('Escape keeps the old approval.')),
    });
    if (typeof typed !== 'number') return undefined;
    perRun = typed;
    risk = true;
  } else {
    perRun = price.credits;
    if (perRun > ceiling) {
      void showError(why === 'create'
        ? l10n.t('Watch This: a run costs {0}, above your per-call ceiling (walletAnalytics.maxCreditsPerCall: {1}); no watch was created.', price.text, fmtCredits(ceiling))
        : l10n.t('Approve the New Price: a run costs {0}, above your per-call ceiling (walletAnalytics.maxCreditsPerCall: {1}); the watch keeps its old approval and skips its runs.', price.text, fmtCredits(ceiling)));
      return undefined;
    }
  }
  const perRunText = risk ? `up to ${fmtCredits(perRun)}` : price.kind === 'bounded' && !price.exact ? `up to ${fmtCredits(perRun)}` : fmtCredits(perRun);
  const paid = perRun > 0;
  const detail = [
    `${scheduleText(schedule)}: ${paid ? watchDayWords({ perRun, perDay, risk: risk || (price.kind === 'bounded' && !price.exact), ...(day ? { dayLeft: day.left } : {}) }) : l10n.t('free.')}`,
    budgetWords(states),
    'This is the only approval: a run whose price is above it is skipped and the watch says so.',
    chargedTo(connection.bind()),
  ].join('\n\n');
  const yes = why === 'create' ? l10n.t('Create Watch') : l10n.t('Approve New Price');
  const ok = await deps.questions.ask({
    kind: 'modal', why: 'confirm', endpointId, to,
    message: why === 'create' ? `Watch “${name}”, ${scheduleText(schedule)}: ${perRunText} per run` : l10n.t('The new price of watch “{0}”, {1}: {2} per run', name, scheduleText(schedule), perRunText),
    detail, yes,
    // The label short and the price beside it, so the row reads whole at the quick pick's width.
    pick: { label: yes, description: l10n.t('{0} per run, {1}', perRunText, scheduleText(schedule)), detail: budgetLine(states) },
  });
  if (!ok) return undefined;
  // Bound to what the person saw: the request or query body, each pipeline cell as written.
  return watchApprovalRecord({ credits: perRun, scope, risk, ...(price.request !== undefined ? { request: price.request } : {}), ...(price.kind === 'bounded' && price.cells ? { cells: price.cells } : {}) });
}

/**
 * The note after a watch is approved, with a run now one click away: the button names what a run
 * may charge ("Run Now (up to 200,000 credits)"), as every button that spends does.
 */
function offerRunNow(deps: WatchCommandDeps, w: WatchRecord, message: string): void {
  // "up to": the approved amount is the most a run may charge (a pipeline's bounded price is not
  // always exact, and the stored approval does not say which; a run above it is skipped).
  const run = w.approval.credits > 0 ? l10n.t('Run Now (up to {0})', fmtCredits(w.approval.credits)) : l10n.t('Run Now');
  // The first button sends nothing: the watch runs at its time unless the person clicks Run Now.
  void offerSpend(message, l10n.t('Wait for the First Run'), run).then((yes) => {
    if (yes) void deps.watches.runNow(w.id);
  });
}

/** Watch This…: the target, when, what counts, then the price per run, approved once. */
async function watchThis(deps: WatchCommandDeps, arg: unknown, extra: unknown): Promise<WatchRecord | undefined> {
  const args = watchArgsFrom(extra ?? arg, deps.testMode);
  if ('problem' in args) {
    void showErrorIn(l10n.t('Watch This'), args.problem);
    return undefined;
  }
  const found = args.target ?? targetOf(arg, deps);
  if (!found) {
    // With a button: the Watches view's welcome button lands here with nothing open, and a toast
    // without a button showed one line, cut before the query file and the pipeline (issue 23).
    const show = l10n.t('Show Requests');
    void vscode.window
      .showInformationMessage(l10n.t('Watch This works on a past request (right-click it in the Requests view), a .waquery.json query file or a .wapipe.json pipeline (open it, or right-click it in the Explorer).'), show)
      .then((a) => {
        if (a === show) void vscode.commands.executeCommand(`${REQUESTS_VIEW}.focus`);
      });
    return undefined;
  }
  if ('problem' in found) {
    void showErrorIn(l10n.t('Watch This'), found.problem);
    return undefined;
  }
  const target = found;
  const name = args.name ?? targetName(target);
  const schedule = args.schedule ?? (await askSchedule(deps.testMode));
  if (!schedule) return undefined;
  const threshold = args.threshold !== undefined ? args.threshold : await askThreshold();
  if (threshold === undefined) return undefined;

  const approval = await askRunApproval(deps, target, name, schedule, 'create');
  if (!approval) return undefined;
  const now = Date.now();
  const record: WatchRecord = {
    id: `w-${now.toString(36)}-${Math.random().toString(36).slice(2, 8)}`,
    name, target, schedule,
    approval,
    ...(threshold ? { threshold } : {}),
    notify: args.notify ?? 'changed', paused: false, createdAt: now,
    // The slot it was created in is not run: the first run is the next slot.
    lastSlot: slotOf(schedule, now), runs: [],
  };
  await deps.watches.add(record);
  offerRunNow(deps, record, l10n.t('Watching “{0}” {1}; the first run is at {2}.', name, scheduleText(schedule), sinceText(nextSlot(schedule, now), now)));
  return record;
}

/**
 * Approve the New Price…: a watch whose query, inputs or price changed after its approval skips
 * its runs (nothing sent); this shows the price of what it would send now, with the budget it lives
 * in, and on the person's approval binds the watch to it. Its schedule, threshold, runs and last
 * result stay (the next run is compared with the last result). Cancel keeps the old approval.
 */
async function approveAgain(deps: WatchCommandDeps, id: string): Promise<WatchRecord | undefined> {
  const w = await deps.watches.store.get(id);
  if (!w) throw new Error('That watch is no longer there.');
  const approval = await askRunApproval(deps, w.target, w.name, w.schedule, 'again');
  if (!approval) return undefined;
  const after = await deps.watches.setApproval(id, approval);
  const now = Date.now();
  offerRunNow(deps, after ?? { ...w, approval }, l10n.t('The watch “{0}” now runs what it would send now, up to {1} per run; its next run is at {2}.', w.name, fmtCredits(approval.credits), sinceText(nextSlot(w.schedule, Math.max(now, w.lastSlot)), now)));
  return after;
}

/** Registers Watch This…, Pause/Resume, Run Now, Remove Watch, the view, and starts the runner. */
export function registerWatches(context: vscode.ExtensionContext, deps: WatchCommandDeps): { provider: WatchesProvider; view: vscode.TreeView<unknown> } {
  const { watches } = deps;
  const provider = new WatchesProvider(watches);
  const view = createTreeView(WATCHES_VIEW, { treeDataProvider: provider }) as vscode.TreeView<unknown>;
  const need = (t: unknown): string => {
    const id = idOfTarget(t);
    if (!id || !watches.list().some((w) => w.id === id)) throw new Error('That watch is no longer there.');
    return id;
  };
  /**
   * Run Now and Resume spend under the watch's standing approval, so they need the person's own
   * click (issue 30 item 4). A row of this view is one: VS Code hands the command the very tree
   * item object this provider made, which no other extension and no `command:` link can make (they
   * can pass only JSON, such as a bare id). Anything else asks first, Cancel the default.
   */
  const clicked = async (t: unknown, id: string, action: 'run' | 'resume'): Promise<boolean> => {
    if (t instanceof WatchNode || t instanceof DetailNode) return true;
    const w = watches.list().find((x) => x.id === id);
    const name = w?.name ?? id;
    // "up to", as Run Now (up to …) says: the approved amount is the most a run may charge.
    const per = w ? l10n.t('up to {0}', fmtCredits(w.approval.credits)) : '';
    const yes = action === 'run' ? l10n.t('Run Watch Now') : l10n.t('Resume Watch');
    return deps.questions.ask({
      kind: 'modal', why: 'confirm', endpointId: 'watch', to: deps.watches.deps.connection.label(),
      message: action === 'run' ? l10n.t('Run the watch “{0}” now ({1})?', name, per) : l10n.t('Resume the watch “{0}” ({1} per run, {2})?', name, per, w ? scheduleText(w.schedule) : ''),
      detail: l10n.t('This was asked from outside the Watches view (a link, another extension, a command argument): it spends under the watch’s approval only if you choose {0}.', yes),
      yes, pick: { label: yes, description: l10n.t('asked from outside the Watches view'), detail: l10n.t('Spends under the watch’s approval; Cancel sends nothing.') },
    });
  };
  const guard = <A extends unknown[], R>(f: (...a: A) => Promise<R>) => async (...a: A): Promise<R | undefined> => {
    try {
      return await f(...a);
    } catch (e) {
      void showError(e);
      return undefined;
    }
  };
  context.subscriptions.push(
    watches, provider, view,
    registerCommand(CommandIds.watchThis, guard((arg?: unknown, extra?: unknown) => watchThis(deps, arg, extra))),
    registerCommand(CommandIds.pauseWatch, guard((t?: unknown) => watches.setPaused(need(t), true))),
    registerCommand(CommandIds.resumeWatch, guard(async (t?: unknown) => {
      const id = need(t);
      return (await clicked(t, id, 'resume')) ? watches.setPaused(id, false) : undefined;
    })),
    registerCommand(CommandIds.runWatchNow, guard(async (t?: unknown) => {
      const id = need(t);
      return (await clicked(t, id, 'run')) ? watches.runNow(id) : undefined;
    })),
    registerCommand(CommandIds.approveWatchAgain, guard((t?: unknown) => approveAgain(deps, need(t)))),
    registerCommand(CommandIds.removeWatch, guard(async (t?: unknown) => {
      const id = need(t);
      const w = watches.list().find((x) => x.id === id);
      const yes = 'Remove Watch';
      const ok = await deps.exporter.persons.confirm(l10n.t('Remove the watch “{0}”?', w?.name ?? id), l10n.t('It stops running; its results stay on disk.'), yes);
      return ok ? watches.remove(id) : false;
    })),
    registerCommand(CommandIds.exportWatch, guard(async (t?: unknown) => {
      const w = watches.list().find((x) => x.id === need(t));
      return w ? exportWatch(w, deps.exporter) : undefined;
    })),
    registerCommand(CommandIds.openWatchResult, guard(async (t?: unknown) => {
      // The store, not the view's list: a run that just ended here, or in the window that runs the
      // watch, is in the store before the list's next reload (a CI run opened the run before).
      const w = await watches.store.get(need(t));
      const last = w && [...w.runs].reverse().find((r) => r.resultPath !== undefined);
      if (last?.comparePath) await openInTable(last.comparePath);
      else if (last?.resultPath) await openResult(last.resultPath);
      else void vscode.window.showInformationMessage(l10n.t('This watch has no result yet.'));
    })),
  );
  watches.start();
  return { provider, view };
}
