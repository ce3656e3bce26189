/**
 * Activation, measured as a person's VS Code sees it (issue 34 item 1; writes bench/RESULTS-activation.md):
 *   - VS Code's own figure: the Running Extensions editor's "Activation: N ms", for the packaged
 *     .vsix installed with `--install-extension` into code-server, a fresh server, profile and
 *     workspace each round. What it counts (VS Code 1.100.3 in code-server 4.100.3, read in its
 *     built workbench.js and extensionHostProcess.js; microsoft/vscode's
 *     abstractRuntimeExtensionsEditor.ts and extHostExtensionService.ts): codeLoadingTime +
 *     activateCallTime of ExtensionActivationTimes, each Date.now() in the extension host.
 *     codeLoadingTime runs from before the l10n bundle is read (nothing to read in English) to
 *     after the require() of the entry, which includes VS Code building this extension's `vscode`
 *     API object on its first require('vscode'); activateCallTime is the synchronous activate()
 *     call, up to its return. activateResolvedTime, the wait for the promise activate() returns, is
 *     measured (Developer: Startup Performance lists it) but not in this figure; VS Code waits for
 *     that promise before it counts the extension activated and runs the command that activated it.
 *     The same figure of the built-in JSON Language Features, activated by a plain .json file in
 *     the same window after ours is read, is the yardstick: the load moves both;
 *   - the span from the activation event (the extension host log's "ExtensionService#_doActivateExtension"
 *     line) to the extension's first command and view being ready (its own log's "Activated in" line,
 *     written by the thin entry once every stand-in is registered, with what each kind of
 *     registration cost: the log channel, the commands, tools, views and providers), and to every feature built (its
 *     "Features ready" line; a build from before the stand-ins wrote "Activated in" only then);
 *   - loading the bundle alone (require() of dist/extension.js under a stub of `vscode`), each in a
 *     fresh Node process;
 *   - a second path, in a window of its own each round: a person opening the Wallet Analytics
 *     sidebar (its activity bar icon: onView activation) once the workbench is idle (the extension
 *     host's log unchanged for 5 s), with no key stored: the same span from the activation event to
 *     "Activated in", the host's wait for the extension's storage inside it, VS Code's figure, and
 *     the click to the Requests view's "Set API Key" welcome drawn (the bench's clock). Beside the
 *     query file opened during start-up, this is what a person sees when they first open the
 *     sidebar: VS Code calls activate() only once the extension's globalState, workspaceState and
 *     storage paths are ready (extHostExtensionService.ts `_loadExtensionContext`:
 *     `Promise.all([globalState.whenReady, workspaceState.whenReady, this._storagePath.whenReady])`,
 *     each memento a `$initializeExtensionStorage` round trip to the workbench), whatever the
 *     extension does; during start-up that round trip waits behind the workbench's own work;
 *   - a third path, a trader's usual one: the same click with a key stored (the extension's own Set
 *     API Key command, the base URL a sandbox this bench runs on 127.0.0.1, then the window reloaded so
 *     the extension host starts afresh with the key in SecretStorage): the click, and the activation
 *     event, to the Account view's first row drawn (its first real content, not a blank tree), to its
 *     balance drawn (read by the features' GET /credits), and to every feature built.
 * In every window a control is installed beside ours (bench/activationControl.ts: a do-nothing
 * extension with the same activation events, plain JavaScript, an activate() that registers one
 * command; its package built by vsce in a temp folder each run, never shipped): its Running
 * Extensions figure, its terms and its activation event to its command registered are read in the
 * same windows and rounds, and printed beside ours with ours less the control's, round by round: what
 * VS Code takes for any extension on that path, and what is left that is ours. WA_BENCH_CONTROL=0
 * leaves it out.
 * Median of 5 rounds each; the machine and its load are written beside the figures.
 *
 *   npm run bench:activation    (node esbuild.mjs --tests && npm run package && node out/bench/activationBench.js)
 * WA_BENCH_ROUNDS changes the number of rounds; WA_BENCH_PATHS picks the paths (a comma list of
 * query, sidebar, key; all three by default); WA_BENCH_LABEL names the run in the results file,
 * WA_BENCH_OUT writes it elsewhere than bench/RESULTS-activation.md;
 * WA_BENCH_VSIX and WA_BENCH_BUNDLE measure another build (a saved .vsix and its dist/extension.js).
 * WA_BENCH_SEED_MB (the query path): before the query file is opened, the extension's globalState in
 * the browser's storage is seeded with that many MB of finished PnL jobs of 10,000 wallets each (as
 * the job store kept them: every job's inputs in its record), the window reloaded, and the file
 * opened as the reloaded window starts; 0 seeds an empty list through the same reload, the yardstick.
 * What VS Code's wait for the stored state depends on is read from the two. WA_BENCH_SEED_STARTS=2
 * measures the start after that one instead: the window started once on the seeded state (the query
 * file opened, every feature built, the extension host idle for 5 s: what a build moves out of the
 * state, it has moved), then reloaded with the file still open.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { join, resolve } from 'node:path';
import { packagedVsix, repoRoot, Workbench } from '../test/e2e/workbench';
import { startSandbox } from '../src/sandbox/index';
import { buildControlVsix, CONTROL_ID, CONTROL_NAME, CONTROL_READY } from './activationControl';

const ROUNDS = Number(process.env.WA_BENCH_ROUNDS ?? 5);
/** The paths measured (WA_BENCH_PATHS): a query file at start-up, the sidebar with no key, the sidebar with a key stored. */
const PATHS = new Set((process.env.WA_BENCH_PATHS ?? 'query,sidebar,key').split(',').map((p) => p.trim()));
const EXTENSION_ID = 'wallet-analytics.wallet-analytics';
/** The Running Extensions row names an installed extension by its display name. */
const DISPLAY_NAME = 'Wallet Analytics';
/** Another build to measure (a saved .vsix and its dist/extension.js), e.g. the one before a change. */
const VSIX = process.env.WA_BENCH_VSIX ?? packagedVsix;
/** The control extension (bench/activationControl.ts), installed beside ours in every window unless WA_BENCH_CONTROL=0. */
const CONTROL_VSIX = process.env.WA_BENCH_CONTROL === '0' ? undefined : buildControlVsix();
const ALSO_INSTALL = CONTROL_VSIX ? [CONTROL_VSIX] : [];
const QUERY_FILE = 'holders.waquery.json';
/** A query file: opening it is the extension's activation event (onLanguage:waquery). */
const QUERY_TEXT = JSON.stringify({ endpoint: 'walletDatabase', query: { limit: 10 } }, null, 2);
/** A plain JSON file, opened once our figure is read: the built-in JSON Language Features' figure, in the same window, is the yardstick. */
const JSON_FILE = 'plain.json';
const JSON_ROW = 'JSON Language Features';

interface Round {
  /** VS Code's Running Extensions figure (codeLoadingTime + activateCallTime). */
  vscodeMs: number;
  /** The host log's activation event to the extension's "Activated in" line. */
  eventToReadyMs?: number;
  /** What the extension said inside activate() ("Activated in N ms"). */
  ownMs?: number;
  /** The activation event to the features' "Features ready" line (the opened query file loads them). */
  eventToFeaturesMs?: number;
  /** The built-in JSON Language Features' figure in the same window (the same two terms), when it activated. */
  jsonMs?: number;
  /** What each kind of registration cost, from the extension's "Activated in" line (a build with the costs in it). */
  costs: Record<string, number>;
  /** VS Code's own terms (Developer: Startup Performance's "Extension Activation Stats" row), when read. */
  terms?: Terms;
  /** The control extension's figures in the same window. */
  control?: ControlRound;
}

/** The do-nothing control's figures in a window (bench/activationControl.ts): what VS Code takes for any extension on that path. */
interface ControlRound {
  /** Its Running Extensions figure. */
  vscodeMs?: number;
  /** Its activation event (host log) to its command registered (its own line). */
  eventToReadyMs?: number;
  /** Its terms, from Developer: Startup Performance (the query path). */
  terms?: Terms;
}

/**
 * VS Code's three activation terms for one extension, each Date.now() in the extension host
 * (ExtensionActivationTimesBuilder): the require() of the entry (with the host building this
 * extension's `vscode` API object on its first require('vscode')), the synchronous activate() call,
 * and the wait for the promise it returns. Running Extensions shows the first two summed.
 */
interface Terms {
  codeLoadingMs: number;
  activateCallMs: number;
  activateResolvedMs: number;
}

/**
 * The extension's row of Developer: Startup Performance ("| wallet-analytics.wallet-analytics    | false
 * | 31 | 0 | 12 | onLanguage:waquery | … |", padded: Load Code, Call Activate, Finish Activate). The document
 * is a text editor, drawn only where it is scrolled to: the editor's Find reveals the row first.
 */
async function termsOf(wb: Workbench, id = EXTENSION_ID): Promise<Terms | undefined> {
  await wb.runCommand('Developer: Startup Performance');
  const page = wb.page;
  // The document opens in the active group; its first lines (System Info) are drawn once it is filled in.
  const editor = page.locator('.editor-group-container.active .monaco-editor', { hasText: '## ' }).first();
  try {
    await editor.waitFor({ timeout: 30_000 });
    await editor.locator('.view-lines').click();
    await page.keyboard.press('Control+f');
    await page.keyboard.insertText(`| ${id} `);
    await page.keyboard.press('Enter');
    const line = editor.locator('.view-line', { hasText: new RegExp(`^\\s*\\|\\s${id.replace(/\./gu, '\\.')}\\s+\\|`, 'u') }).first();
    await line.waitFor({ timeout: 30_000 });
    const cells = (await line.innerText()).replace(/\u00a0/gu, ' ').split('|').map((c) => c.trim());
    // ['', id, eager, load code, call activate, finish activate, event, by, '']
    const [code, call, resolved] = [cells[3], cells[4], cells[5]].map(Number);
    if (code === undefined || call === undefined || resolved === undefined || [code, call, resolved].some(Number.isNaN)) return undefined;
    await page.keyboard.press('Escape');
    return { codeLoadingMs: code, activateCallMs: call, activateResolvedMs: resolved };
  } catch (e) {
    const shot = await wb.screenshot('startup-performance', { allowErrors: /./u }).catch(() => 'no screenshot');
    console.log(`Startup Performance not read (${shot}): ${String(e).split('\n')[0] ?? ''}`);
    return undefined;
  }
}

/** The entry's first line to its module's end (inside VS Code's code loading: mostly the host's `vscode` object for it). */
const LOADING_THE_ENTRY = "the entry's own loading, its first line to its end (the host's `vscode` object first)";
/** The entry loaded to activate() called: the host waits for the extension's globalState, workspaceState and storage paths (extHostExtensionService loadExtensionContext) before the call. */
const WAIT_FOR_THE_CALL = "from the entry loaded to activate() called (the host's wait for the extension's storage)";

/** "… From the call to the registrations 0.1 ms. Then: the log channel 1.2 ms, 89 commands 6.0 ms." → { …, 'the log channel': 1.2, '89 commands': 6.0 }. */
function costsIn(line: string): Record<string, number> {
  const costs: Record<string, number> = {};
  // The time from activate()'s start to the registrations' start: VS Code's own steps after the call, and the wait for the microtask.
  const call = /(?:The call VS Code times|From the call to the registrations) ([\d.]+) ms/u.exec(line);
  if (call) costs["from activate()'s start to the registrations'"] = Number(call[1]);
  // A build with the load clock (src/vscode/base/loadClock.ts): the entry's own loading, then the host's wait before the call.
  const loading = /Loading the entry ([\d.]+) ms \(the `vscode` object first\), then ([\d.]+) ms to the call/u.exec(line);
  if (loading) {
    costs[LOADING_THE_ENTRY] = Number(loading[1]);
    costs[WAIT_FOR_THE_CALL] = Number(loading[2]);
  }
  for (const m of (/\. Then: (.*)\.$/u.exec(line)?.[1] ?? '').matchAll(/([^,]+?) ([\d.]+) ms/gu)) costs[(m[1] ?? '').trim()] = Number(m[2]);
  return costs;
}

/** A Running Extensions row's "Activation: N ms", or undefined when the row has none within the time. */
async function figureOf(page: Workbench['page'], row: string, timeoutMs: number): Promise<number | undefined> {
  const time = page.locator('.runtime-extensions-editor .monaco-list-row', { hasText: row }).first().locator('.activation-time');
  try {
    await time.filter({ hasText: /\d+\s*ms/u }).waitFor({ timeout: timeoutMs });
  } catch {
    return undefined;
  }
  return Number(/(\d+)\s*ms/u.exec(await time.innerText())?.[1]);
}

/** The figure's terms, one row each, in the rounds that read them. */
function termRows(rounds: readonly Round[], fmt: (xs: readonly number[]) => string): string[] {
  const read = rounds.flatMap((r) => (r.terms ? [r.terms] : []));
  if (read.length === 0) return [];
  return [
    `| … of which loading the code (require() of the entry, with the host's \`vscode\` object for it) | — | ${fmt(read.map((t) => t.codeLoadingMs))} |`,
    `| … of which the activate() call | — | ${fmt(read.map((t) => t.activateCallMs))} |`,
    `| Then the wait for activate()'s promise (Startup Performance's "Finish Activate", not in the figure) | — | ${fmt(read.map((t) => t.activateResolvedMs))} |`,
  ];
}

/** The sidebar path's rows (onView on an idle workbench), under the query file's. */
function sidebarRows(rounds: readonly SidebarRound[], fmt: (xs: readonly number[]) => string, fine: (xs: readonly number[]) => string): string[] {
  const of = (f: (r: SidebarRound) => number | undefined): number[] => rounds.flatMap((r) => {
    const v = f(r);
    return v === undefined || Number.isNaN(v) ? [] : [v];
  });
  const row = (what: string, budget: string, xs: number[], show = fmt): string => `| ${what} | ${budget} | ${xs.length ? show(xs) : 'not read'} |`;
  const events = [...new Set(rounds.map((r) => r.event ?? '?'))].join(', ');
  return [
    `| **The sidebar opened on an idle workbench** (its activity bar icon; activated by ${events}): VS Code's own figure | ≤ 50 ms | ${of((r) => r.vscodeMs).length ? fmt(of((r) => r.vscodeMs)) : 'not read'} |`,
    row('… the click to the activation event (host log)', '—', of((r) => r.clickToEventMs)),
    row('… activation event → first command and view ready (host log → "Activated in")', '≤ 100 ms', of((r) => r.eventToReadyMs)),
    row(`… of which ${WAIT_FOR_THE_CALL} (the extension's own clock)`, '—', of((r) => r.costs[WAIT_FOR_THE_CALL]), fine),
    row('… of which "Activated in": activate()\'s start to every stand-in registered (the extension\'s own clock)', '—', of((r) => r.ownMs), fine),
    row('… the click to the Requests view\'s "Set API Key" welcome drawn (the bench\'s clock)', '—', of((r) => r.clickToWelcomeMs)),
    row('… the click to every feature built (the Account view\'s rows load them: "Features ready")', '—', of((r) => r.clickToFeaturesMs)),
  ];
}

function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? (s[m] ?? NaN) : ((s[m - 1] ?? NaN) + (s[m] ?? NaN)) / 2;
}

function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? filesUnder(p) : [p];
  });
}

/**
 * A log line's time in ms on the machine's clock: the clock the extension wrote into it ("… at
 * 2026-11-27T13:21:06.123Z"), else its stamp ("2026-11-27 13:21:06.123 [info] …"). A new channel's
 * first lines are stamped when its file opens, seconds late when the thread is busy right after.
 */
function stampOf(line: string): number | undefined {
  const written = / at (\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z)/u.exec(line);
  if (written) return Date.parse(written[1] ?? '');
  const m = /^(\d{4}-\d\d-\d\d) (\d\d:\d\d:\d\d\.\d{3})/u.exec(line);
  return m ? Date.parse(`${m[1]}T${m[2]}`) : undefined;
}

function firstLine(files: readonly string[], pattern: RegExp): string | undefined {
  for (const f of files) {
    const hit = readFileSync(f, 'utf8').split('\n').find((l) => pattern.test(l));
    if (hit) return hit;
  }
  return undefined;
}

/** The figures of one round of the sidebar path (onView on an idle workbench). */
interface SidebarRound {
  vscodeMs?: number;
  /** The click on the activity bar icon to the host log's activation event (the bench's clock and the log's: one machine). */
  clickToEventMs?: number;
  eventToReadyMs?: number;
  /** The click to the Requests view's "Set API Key" welcome drawn (the bench's clock). */
  clickToWelcomeMs?: number;
  /** The click to the features' "Features ready" (the Account view's rows need them), when logged within 60 s. */
  clickToFeaturesMs?: number;
  /** What the extension said inside activate() ("Activated in N ms"). */
  ownMs?: number;
  costs: Record<string, number>;
  /** The activation event VS Code logged (onView:…), to show which path activated it. */
  event?: string;
  control?: ControlRound;
}

/** Waits until the extension host's log has not changed for quietMs (the workbench's start-up work done), up to 90 s. */
async function hostIdle(logs: string, page: Workbench['page'], quietMs: number): Promise<void> {
  let last = '';
  let since = Date.now();
  for (const deadline = Date.now() + 90_000; Date.now() < deadline; await page.waitForTimeout(250)) {
    const now = filesUnder(logs)
      .filter((f) => /exthost\.log$/u.test(f))
      .map((f) => `${f}:${statSync(f).size}`)
      .join();
    if (now !== last) {
      last = now;
      since = Date.now();
    } else if (now !== '' && Date.now() - since >= quietMs) return;
  }
}

/** Waits for the extension host to be idle, then clicks the extension's activity bar icon: the click's time, and the window's log folder. */
async function clickIconWhenIdle(wb: Workbench, beforeClick?: () => Promise<void>): Promise<{ logs: string; clicked: number }> {
  const page = wb.page;
  const logs = join(wb.workspace, '..', 'user-data', 'logs');
  await hostIdle(logs, page, 5_000);
  await beforeClick?.();
  const icon = page.locator('.part.activitybar .action-item .action-label[aria-label^="Wallet Analytics"]');
  await icon.waitFor({ timeout: 60_000 });
  const clicked = Date.now();
  await icon.click();
  return { logs, clicked };
}

/**
 * The sidebar path: a fresh window with no key, left until the workbench is idle, then the Wallet
 * Analytics icon in the activity bar clicked, as a person opening the sidebar for the first time.
 */
async function sidebarRound(i: number): Promise<SidebarRound> {
  const wb = await Workbench.open({ name: `bench-activation-sidebar-${i}`, vsix: VSIX, alsoInstall: ALSO_INSTALL, files: { 'notes.txt': 'nothing to activate on\n' } });
  try {
    const page = wb.page;
    await page.locator('.explorer-folders-view .monaco-list-row', { hasText: 'notes.txt' }).first().waitFor({ timeout: 60_000 });
    const { logs, clicked } = await clickIconWhenIdle(wb);
    await page.locator('.part.sidebar .welcome-view-content .monaco-button', { hasText: 'Set API Key' }).first().waitFor({ timeout: 60_000 });
    const drawn = Date.now();
    const ours = (): string[] => filesUnder(logs).filter((f) => f.includes('Wallet Analytics'));
    let own: string | undefined;
    for (const deadline = Date.now() + 60_000; !(own = firstLine(ours(), /Activated in [\d.]+ ms/u)); await page.waitForTimeout(200)) {
      if (Date.now() > deadline) throw new Error('The extension never logged "Activated in" after the sidebar opened');
    }
    let built: string | undefined;
    for (const deadline = Date.now() + 60_000; !(built = firstLine(ours(), FEATURES_READY)) && Date.now() < deadline; await page.waitForTimeout(200));
    await wb.screenshot('sidebar-first-answer', { allowErrors: /./u });
    await wb.runCommand('Developer: Show Running Extensions');
    const vscodeMs = await figureOf(page, DISPLAY_NAME, 30_000);
    const control = await controlOf(page, logs, 0);
    const hostLogs = filesUnder(logs).filter((f) => /exthost\.log$/u.test(f));
    const eventLine = firstLine(hostLogs, new RegExp(`_doActivateExtension ${EXTENSION_ID.replace('.', '\\.')}`, 'u'));
    const start = eventLine ? stampOf(eventLine) : undefined;
    const readyAt = stampOf(own);
    return {
      vscodeMs,
      clickToEventMs: start !== undefined ? start - clicked : undefined,
      eventToReadyMs: start !== undefined && readyAt !== undefined ? readyAt - start : undefined,
      clickToWelcomeMs: drawn - clicked,
      clickToFeaturesMs: built ? (stampOf(built) ?? NaN) - clicked : undefined,
      ownMs: Number(/Activated in ([\d.]+) ms/u.exec(own)?.[1]),
      costs: costsIn(own),
      event: /activationEvent: '([^']+)'/u.exec(eventLine ?? '')?.[1],
      control,
    };
  } finally {
    await wb.close();
  }
}

/** The figures of one round of the sidebar path with a key stored. */
interface KeyRound {
  /** VS Code's own figure for ours on this path. */
  vscodeMs?: number;
  /** The click on the activity bar icon to the host log's activation event. */
  clickToEventMs?: number;
  /** The activation event to the Account view's first row drawn (the host log's clock and the bench's: one machine). */
  eventToFirstRowMs?: number;
  /** The click to the Account view's first row drawn (the bench's clock). */
  clickToFirstRowMs?: number;
  /** The click to the Account view's balance drawn, read by the features' GET /credits. */
  clickToBalanceMs?: number;
  /** The click to the features' "Features ready". */
  clickToFeaturesMs?: number;
  eventToReadyMs?: number;
  /** What the first row said (the early answer's or the features'). */
  firstRow?: string;
  /** How many rows the Account view showed when its first was drawn (the early answer draws 5). */
  rowsAtFirst?: number;
  /** The activation event to the entry's "Early answer for walletAnalyticsAccount" line (a build with it): the early rows handed to VS Code. */
  eventToEarlyRowsMs?: number;
  control?: ControlRound;
  /** The activation event to "Features ready". */
  eventToFeaturesMs?: number;
  /** The Account view's rows as the page changed them, from the activation event (the click when the event was not read). */
  timeline?: RowsSeen[];
  /** The page's long tasks (≥ 50 ms of its main thread) from the activation event, each its start and length. */
  longTasks?: { t: number; ms: number }[];
}

/** The first line matching `pattern` whose time (stampOf) is at or after `since`: this extension host's, after a reload. */
function lineSince(files: readonly string[], pattern: RegExp, since: number): string | undefined {
  for (const f of files) {
    const hit = readFileSync(f, 'utf8').split('\n').find((l) => pattern.test(l) && (stampOf(l) ?? 0) >= since);
    if (hit) return hit;
  }
  return undefined;
}

/** One change of the Account view's rows in the page: when (the page's Date.now(), the machine's clock), how many, the first's text. */
interface RowsSeen {
  t: number;
  rows: number;
  first: string;
}

/**
 * Starts recording each change of the Account view's rows in the page (a MutationObserver, told of
 * every change before the frame that paints it): the view's own timeline, to put beside the
 * extension's lines (its early rows handed, the features built) on the machine's one clock.
 */
const WATCH_ACCOUNT_ROWS = `(() => {
  const seen = [];
  globalThis.__waAccountRows = seen;
  const read = () => {
    const pane = [...document.querySelectorAll('.part.sidebar .pane')].find((p) => p.querySelector('.pane-header')?.textContent?.includes('Account'));
    const rows = pane ? [...pane.querySelectorAll('.monaco-list-row')] : [];
    const first = (rows[0]?.textContent ?? '').replace(/\\s+/g, ' ').trim();
    const last = seen[seen.length - 1];
    if (!last || last.rows !== rows.length || last.first !== first) seen.push({ t: Date.now(), rows: rows.length, first });
  };
  new MutationObserver(read).observe(document.body, { childList: true, subtree: true, characterData: true });
  // The page's own long tasks (50 ms or more of its main thread): what the drawing may wait behind.
  const long = [];
  globalThis.__waLongTasks = long;
  new PerformanceObserver((l) => { for (const e of l.getEntries()) long.push({ t: Math.round(performance.timeOrigin + e.startTime), ms: Math.round(e.duration) }); }).observe({ type: 'longtask' });
})()`;

/**
 * The control's figures in this window (none when it is not installed): its Running Extensions
 * figure (that editor open now), and its activation event to its command registered, from the lines
 * after `since`.
 */
async function controlOf(page: Workbench['page'], logs: string, since: number, terms?: Terms): Promise<ControlRound | undefined> {
  if (!CONTROL_VSIX) return undefined;
  const vscodeMs = await figureOf(page, CONTROL_NAME, 10_000);
  const event = lineSince(filesUnder(logs).filter((f) => /exthost\.log$/u.test(f)), new RegExp(`_doActivateExtension ${CONTROL_ID.replace(/\./gu, '\\.')}`, 'u'), since);
  const ready = lineSince(filesUnder(logs).filter((f) => f.includes(CONTROL_ID)), CONTROL_READY, since);
  const start = event ? stampOf(event) : undefined;
  const at = ready ? stampOf(ready) : undefined;
  return { vscodeMs, eventToReadyMs: start !== undefined && at !== undefined ? at - start : undefined, terms };
}

/**
 * The sidebar path with a key stored: the key set through the extension's own command against the
 * bench's sandbox, the window reloaded (a fresh extension host, the key in SecretStorage), left
 * until idle, then the icon clicked. The first content is the Account view's first row, whoever
 * draws it (the thin entry's early answer, or the features once built).
 */
async function keyRound(i: number, sandbox: { baseUrl: string; demoKey: string }): Promise<KeyRound> {
  const wb = await Workbench.open({ name: `bench-activation-key-${i}`, vsix: VSIX, alsoInstall: ALSO_INSTALL, settings: { 'walletAnalytics.baseUrl': sandbox.baseUrl }, files: { 'notes.txt': 'nothing to activate on\n' } });
  try {
    const page = wb.page;
    const notes = page.locator('.explorer-folders-view .monaco-list-row', { hasText: 'notes.txt' }).first();
    await notes.waitFor({ timeout: 60_000 });
    await wb.runCommand('Wallet Analytics: Set API Key');
    await wb.typeIntoQuickInput(sandbox.demoKey, { submit: true });
    await wb.waitForNotification('API key saved', 60_000);
    // A fresh extension host with the key stored (code-server keeps SecretStorage in the page's storage, which a reload keeps).
    const reloaded = Date.now();
    await page.reload();
    await notes.waitFor({ timeout: 90_000 });
    const { logs, clicked } = await clickIconWhenIdle(wb, async () => {
      await page.evaluate(WATCH_ACCOUNT_ROWS);
    });
    const account = page.locator('.part.sidebar .pane', { has: page.locator('.pane-header', { hasText: 'Account' }) }).first();
    const first = account.locator('.monaco-list-row').first();
    await first.filter({ hasText: /\S/u }).waitFor({ timeout: 60_000 });
    const drawn = Date.now();
    const firstRow = (await first.innerText().catch(() => '')).replace(/\s+/gu, ' ').trim();
    const rowsAtFirst = await account.locator('.monaco-list-row').count();
    await account.locator('.monaco-list-row', { hasText: /Balance\s*[\d.]+[KM]? credits/u }).first().waitFor({ timeout: 60_000 });
    const balance = Date.now();
    await wb.screenshot('sidebar-key-stored', { allowErrors: /./u });
    const timeline = (await page.evaluate('globalThis.__waAccountRows')) as RowsSeen[];
    const longTasks = (await page.evaluate('globalThis.__waLongTasks')) as { t: number; ms: number }[];
    await wb.runCommand('Developer: Show Running Extensions');
    const vscodeMs = await figureOf(page, DISPLAY_NAME, 30_000);
    const control = await controlOf(page, logs, reloaded);
    const ours = (): string[] => filesUnder(logs).filter((f) => f.includes('Wallet Analytics'));
    let built: string | undefined;
    for (const deadline = Date.now() + 60_000; !(built = lineSince(ours(), FEATURES_READY, reloaded)) && Date.now() < deadline; await page.waitForTimeout(200));
    const own = lineSince(ours(), /Activated in [\d.]+ ms/u, reloaded);
    const earlyLine = lineSince(ours(), /Early answer for walletAnalyticsAccount: \d+ rows/u, reloaded);
    const hostLogs = filesUnder(logs).filter((f) => /exthost\.log$/u.test(f));
    const eventLine = lineSince(hostLogs, new RegExp(`_doActivateExtension ${EXTENSION_ID.replace('.', '\\.')}`, 'u'), reloaded);
    const start = eventLine ? stampOf(eventLine) : undefined;
    const readyAt = own ? stampOf(own) : undefined;
    return {
      vscodeMs,
      clickToEventMs: start !== undefined ? start - clicked : undefined,
      eventToFirstRowMs: start !== undefined ? drawn - start : undefined,
      clickToFirstRowMs: drawn - clicked,
      clickToBalanceMs: balance - clicked,
      clickToFeaturesMs: built ? (stampOf(built) ?? NaN) - clicked : undefined,
      eventToReadyMs: start !== undefined && readyAt !== undefined ? readyAt - start : undefined,
      firstRow,
      rowsAtFirst,
      eventToEarlyRowsMs: start !== undefined && earlyLine ? (stampOf(earlyLine) ?? NaN) - start : undefined,
      control,
      timeline: timeline.map((x) => ({ ...x, t: x.t - (start ?? clicked) })),
      longTasks: longTasks.map((x) => ({ ...x, t: x.t - (start ?? clicked) })),
      eventToFeaturesMs: start !== undefined && built ? (stampOf(built) ?? NaN) - start : undefined,
    };
  } finally {
    await wb.close();
  }
}

/** The key path's rows. */
function keyRows(rounds: readonly KeyRound[], fmt: (xs: readonly number[]) => string): string[] {
  const of = (f: (r: KeyRound) => number | undefined): number[] => rounds.flatMap((r) => {
    const v = f(r);
    return v === undefined || Number.isNaN(v) ? [] : [v];
  });
  const row = (what: string, budget: string, xs: number[]): string => `| ${what} | ${budget} | ${xs.length ? fmt(xs) : 'not read'} |`;
  const said = [...new Set(rounds.map((r) => r.firstRow ?? '?'))].map((t) => `“${t}”`).join(', ');
  return [
    row('**The sidebar opened with a key stored** (the icon clicked on an idle workbench after a reload): the click to the activation event (host log)', '—', of((r) => r.clickToEventMs)),
    row('… activation event → first command and view ready (host log → "Activated in")', '≤ 100 ms', of((r) => r.eventToReadyMs)),
    row(`… activation event → the Account view's first row drawn (${said}; rows then: ${rounds.map((r) => r.rowsAtFirst ?? '?').join(' / ')})`, '≤ 100 ms', of((r) => r.eventToFirstRowMs)),
    row('… activation event → the early rows handed to VS Code (the entry\'s "Early answer" line)', '—', of((r) => r.eventToEarlyRowsMs)),
    row("… activation event → the Account view's first row in the page (a MutationObserver in the page, which Playwright's wait above sees later)", '≤ 100 ms', of((r) => r.timeline?.find((x) => x.rows > 0)?.t)),
    row("… activation event → every feature built (\"Features ready\")", '—', of((r) => r.eventToFeaturesMs)),
    row("… the click to the Account view's first row drawn (the bench's clock)", '—', of((r) => r.clickToFirstRowMs)),
    row('… the click to the balance drawn (the features\' GET /credits)', '—', of((r) => r.clickToBalanceMs)),
    row('… the click to every feature built ("Features ready")', '—', of((r) => r.clickToFeaturesMs)),
  ];
}

/** One figure of ours and of the control in the same window, each round. */
interface Pair {
  ours?: number;
  control?: number;
}

/**
 * Ours beside the control, a row a figure: each one's median and rounds, and ours less the control's
 * in the same round (median and rounds): what of the figure is ours.
 */
function controlTable(rows: readonly { what: string; pairs: readonly Pair[] }[]): string[] {
  const nums = (xs: readonly (number | undefined)[]): number[] => xs.flatMap((x) => (x === undefined || Number.isNaN(x) ? [] : [x]));
  const show = (xs: readonly number[]): string => (xs.length ? `**${median(xs).toFixed(0)} ms** (${xs.map((x) => x.toFixed(0)).join(' / ')})` : 'not read');
  const lines = rows
    .filter((r) => r.pairs.some((p) => p.control !== undefined))
    .map((r) => {
      const less = nums(r.pairs.map((p) => (p.ours !== undefined && p.control !== undefined ? p.ours - p.control : undefined)));
      return `| ${r.what} | ${show(nums(r.pairs.map((p) => p.ours)))} | ${show(nums(r.pairs.map((p) => p.control)))} | ${show(less)} |`;
    });
  if (lines.length === 0) return [];
  return [
    '',
    "Ours beside the control, a do-nothing extension with the same activation events (its own tiny package, plain JavaScript, an activate() that registers one command: bench/activationControl.ts), installed in the same windows and measured in the same rounds: what VS Code takes for any extension on that path is the control's figure.",
    '',
    '| Path: figure | Ours | The control | Ours − the control, the same round |',
    '| --- | --- | --- | --- |',
    ...lines,
  ];
}

/** A build with stand-ins logs "Features ready" once the features are built (src/vscode/features.ts). */
const FEATURES_READY = /Features ready [\d.,]+ ?m?s after activation began/u;

/** WA_BENCH_SEED_MB: the MB of job records seeded into the extension's globalState before the query round's reload. */
const SEED_MB = process.env.WA_BENCH_SEED_MB === undefined ? undefined : Number(process.env.WA_BENCH_SEED_MB);
/** WA_BENCH_SEED_STARTS=2: the second start on the seeded state is measured, not the first. */
const SEED_STARTS = Number(process.env.WA_BENCH_SEED_STARTS ?? 1);

/**
 * The extension's globalState as a job store of `mb` MB left it: finished PnL jobs of 10,000 wallets
 * each, every job's inputs in its record (the shape src/core/jobs/job.ts keeps), as the JSON text the
 * workbench stores under the extension's id.
 */
function seededState(mb: number): string {
  const wallets = (j: number): string[] => Array.from({ length: 10_000 }, (_, k) => `${(j * 10_000 + k).toString(36).padStart(8, '1')}So1aNaWaLLeTaddReSs1111111111111111`.slice(0, 44));
  const jobs: unknown[] = [];
  for (let j = 0, size = 0; size < mb * 1e6; j++) {
    const job = { requestId: `seed-${j}`, endpointId: 'pnl', inputs: { wallets: wallets(j) }, cost: 50_000, baseUrl: 'https://api.example.invalid', profileId: 'default', submittedAt: new Date(Date.UTC(2026, 10, 1, 0, j)).toISOString(), state: 'completed', completedAt: new Date(Date.UTC(2026, 10, 1, 1, j)).toISOString(), rev: 3 };
    size += JSON.stringify(job).length;
    jobs.push(job);
  }
  return JSON.stringify({ 'walletAnalytics.jobs': jobs });
}

/**
 * Writes the extension's globalState straight into the workbench's storage (IndexedDB
 * `vscode-web-state-db-global`, table ItemTable, key: the extension's id), for the next load of the
 * window to read. The workbench writes back only the keys it changed, so the value stays as long as
 * the extension has not run in this page. Returns the bytes stored.
 */
async function seedGlobalState(page: Workbench['page'], text: string): Promise<number> {
  // The page's IndexedDB, typed here by what is used (the bench's tsconfig has no DOM library).
  interface Request<T> { result: T; error: unknown; onsuccess: (() => void) | null; onerror: (() => void) | null }
  interface Transaction { objectStore(name: string): { put(value: string, key: string): unknown; get(key: string): Request<unknown> }; oncomplete: (() => void) | null; onerror: (() => void) | null; error: unknown }
  interface Database { transaction(store: string, mode?: string): Transaction }
  return page.evaluate(
    async ({ key, value }) =>
      new Promise<number>((done, fail) => {
        const open = (globalThis as unknown as { indexedDB: { open(name: string): Request<Database> } }).indexedDB.open('vscode-web-state-db-global');
        open.onerror = () => fail(open.error);
        open.onsuccess = () => {
          const tx = open.result.transaction('ItemTable', 'readwrite');
          tx.objectStore('ItemTable').put(value, key);
          tx.oncomplete = () => {
            const read = open.result.transaction('ItemTable').objectStore('ItemTable').get(key);
            read.onsuccess = () => done(typeof read.result === 'string' ? read.result.length : -1);
            read.onerror = () => fail(read.error);
          };
          tx.onerror = () => fail(tx.error);
        };
      }),
    { key: EXTENSION_ID, value: text },
  );
}

/** The bytes of the extension's globalState as the workbench's storage holds it now. */
async function storedBytes(page: Workbench['page']): Promise<number> {
  interface Request<T> { result: T; error: unknown; onsuccess: (() => void) | null; onerror: (() => void) | null }
  interface Database { transaction(store: string): { objectStore(name: string): { get(key: string): Request<unknown> } } }
  return page.evaluate(
    async (key) =>
      new Promise<number>((done, fail) => {
        const open = (globalThis as unknown as { indexedDB: { open(name: string): Request<Database> } }).indexedDB.open('vscode-web-state-db-global');
        open.onerror = () => fail(open.error);
        open.onsuccess = () => {
          const read = open.result.transaction('ItemTable').objectStore('ItemTable').get(key);
          read.onsuccess = () => done(typeof read.result === 'string' ? read.result.length : -1);
          read.onerror = () => fail(read.error);
        };
      }),
    EXTENSION_ID,
  );
}

async function oneRound(i: number, featuresLine: boolean): Promise<Round> {
  const wb = await Workbench.open({ name: `bench-activation-${i}`, vsix: VSIX, alsoInstall: ALSO_INSTALL, files: { [QUERY_FILE]: QUERY_TEXT, [JSON_FILE]: '{ "a": 1 }\n' } });
  try {
    const page = wb.page;
    if (SEED_MB !== undefined) {
      // The state seeded while nothing has activated the extension, then a fresh window reads it.
      await page.locator('.explorer-folders-view .monaco-list-row', { hasText: QUERY_FILE }).first().waitFor({ timeout: 60_000 });
      const stored = await seedGlobalState(page, seededState(SEED_MB));
      console.log(`round ${i}: globalState seeded with ${(stored / 1e6).toFixed(2)} MB`);
      await page.reload();
    }
    const logs = join(wb.workspace, '..', 'user-data', 'logs');
    const ours = (): string[] => filesUnder(logs).filter((f) => f.includes('Wallet Analytics'));
    // The lines of the start measured: after the last reload.
    let startedAt = 0;
    if (SEED_MB !== undefined && SEED_STARTS > 1) {
      const row = page.locator('.explorer-folders-view .monaco-list-row', { hasText: QUERY_FILE }).first();
      await row.waitFor({ timeout: 60_000 });
      await row.click();
      for (const deadline = Date.now() + 120_000; !firstLine(ours(), FEATURES_READY) && Date.now() < deadline; await page.waitForTimeout(200));
      await hostIdle(logs, page, 5_000);
      console.log(`round ${i}: the extension's globalState is ${((await storedBytes(page)) / 1e6).toFixed(3)} MB before the start measured`);
      startedAt = Date.now();
      await page.reload();
    }
    // Open the query file from the Explorer, as a person would: its language activates the extension.
    const row = page.locator('.explorer-folders-view .monaco-list-row', { hasText: QUERY_FILE }).first();
    await row.waitFor({ timeout: 60_000 });
    await row.click();
    let own: string | undefined;
    let ready: string | undefined;
    for (const deadline = Date.now() + 120_000; !own || (featuresLine && !ready); ) {
      own = lineSince(ours(), /Activated in [\d.]+ ms/u, startedAt);
      ready = featuresLine ? lineSince(ours(), FEATURES_READY, startedAt) : undefined;
      if (Date.now() > deadline) throw new Error(`The extension never logged ${own ? '"Features ready"' : '"Activated in"'}`);
      if (!own || (featuresLine && !ready)) await page.waitForTimeout(200);
    }
    await wb.runCommand('Developer: Show Running Extensions');
    const vscodeMs = await figureOf(page, DISPLAY_NAME, 30_000);
    if (vscodeMs === undefined) throw new Error('Running Extensions showed no activation time for the extension');
    const control = await controlOf(page, logs, startedAt);
    // The yardstick: JSON's own figure in the same window, once a plain JSON file activated it.
    await page.locator('.explorer-folders-view .monaco-list-row', { hasText: JSON_FILE }).first().click();
    // The file opens over the Running Extensions editor; back to it (it lists JSON's row once activated).
    await page.locator('.monaco-editor', { hasText: '"a"' }).first().waitFor({ timeout: 30_000 });
    await wb.runCommand('Developer: Show Running Extensions');
    const jsonMs = await figureOf(page, JSON_ROW, 30_000);
    await wb.screenshot('running-extensions', { allowErrors: /./u });
    const terms = await termsOf(wb);
    if (control) control.terms = await termsOf(wb, CONTROL_ID);
    const hostLogs = filesUnder(logs).filter((f) => /exthost\.log$/u.test(f));
    const event = lineSince(hostLogs, new RegExp(`_doActivateExtension ${EXTENSION_ID.replace('.', '\\.')}`, 'u'), startedAt);
    const start = event ? stampOf(event) : undefined;
    const readyAt = stampOf(own);
    const builtAt = ready ? stampOf(ready) : undefined;
    const ownMs = Number(/Activated in ([\d.]+) ms/u.exec(own)?.[1]);
    const since = (t: number | undefined): number | undefined => (start !== undefined && t !== undefined ? t - start : undefined);
    return { vscodeMs, eventToReadyMs: since(readyAt), ownMs, eventToFeaturesMs: since(builtAt), jsonMs, costs: costsIn(own), terms, control };
  } finally {
    await wb.close();
  }
}

/** The names the `vscode` module exports (its top-level classes, enums and namespaces, from @types/vscode). */
function vscodeNames(): string[] {
  const d = readFileSync(join(repoRoot, 'node_modules', '@types', 'vscode', 'index.d.ts'), 'utf8');
  return [...d.matchAll(/^\texport (?:class|enum|namespace|const|function|let) (\w+)/gmu)].map((m) => m[1] ?? '');
}

/** require() of the bundle under a stub `vscode`, in a fresh Node process: wall ms, the process's CPU ms (less moved by a loaded machine), MB of heap it added. */
function bundleLoad(bundle: string): { ms: number; cpuMs: number; heapMb: number } {
  const script = `
    const Module = require('node:module');
    const stub = new Proxy(function () {}, { get: () => stub, apply: () => stub, construct: () => stub });
    const api = Object.fromEntries(${JSON.stringify(vscodeNames())}.map((n) => [n, stub]));
    const load = Module._load;
    Module._load = function (request, ...rest) { return request === 'vscode' ? api : load.call(this, request, ...rest); };
    const heap = process.memoryUsage().heapUsed;
    const t = performance.now();
    const cpu0 = process.cpuUsage();
    require(${JSON.stringify(bundle)});
    const ms = performance.now() - t;
    const cpu = process.cpuUsage(cpu0);
    process.stdout.write(JSON.stringify({ ms, cpuMs: (cpu.user + cpu.system) / 1000, heapMb: (process.memoryUsage().heapUsed - heap) / 1e6 }));`;
  const r = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`Loading ${bundle} failed: ${r.stderr}`);
  return JSON.parse(r.stdout) as { ms: number; cpuMs: number; heapMb: number };
}

/** A round again when the workbench did not come up (a loaded machine can miss code-server's 60 s), up to three times. */
async function withRetries<T>(round: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await round();
    } catch (e) {
      if (attempt === 3) throw e;
      console.log(`attempt ${attempt} failed, again: ${String(e).split('\n')[0] ?? ''}`);
    }
  }
}

async function main(): Promise<void> {
  if (!existsSync(VSIX)) throw new Error(`${VSIX} is missing: run npm run package first`);
  const bundle = process.env.WA_BENCH_BUNDLE ?? resolve(repoRoot, 'dist', 'extension.js');
  const bundleBytes = statSync(bundle).size;
  const nonAscii = [...readFileSync(bundle, 'latin1')].filter((c) => c.charCodeAt(0) > 127).length;
  const loadBefore = loadavg();
  const loads = Array.from({ length: ROUNDS }, () => bundleLoad(bundle));
  // The features' own bundle (esbuild.mjs), loaded on first use, right after activation.
  const featuresBundle = join(bundle, '..', 'features.js');
  const featureLoads = existsSync(featuresBundle) ? Array.from({ length: ROUNDS }, () => bundleLoad(featuresBundle)) : [];
  const featuresLine = existsSync(featuresBundle) && readFileSync(featuresBundle, 'latin1').includes('Features ready');
  const rounds: Round[] = [];
  const sidebar: SidebarRound[] = [];
  const keyed: KeyRound[] = [];
  const sandbox = PATHS.has('key') ? await startSandbox({ port: 0 }) : undefined;
  for (let i = 1; i <= ROUNDS; i++) {
    if (sandbox) {
      const k = await withRetries(() => keyRound(i, sandbox));
      console.log(
        `round ${i}, the sidebar opened with a key stored (load ${loadavg()[0]?.toFixed(1)}): click → event ${k.clickToEventMs ?? '?'} ms, VS Code ${k.vscodeMs ?? '?'} ms, event → ready ${k.eventToReadyMs ?? '?'} ms (the control: VS Code ${k.control?.vscodeMs ?? '?'} ms, event → ready ${k.control?.eventToReadyMs ?? '?'} ms), event → early rows handed ${k.eventToEarlyRowsMs ?? '?'} ms, event → first row ${k.eventToFirstRowMs ?? '?'} ms ("${k.firstRow ?? '?'}", ${k.rowsAtFirst ?? '?'} rows), click → first row ${k.clickToFirstRowMs ?? '?'} ms, click → balance ${k.clickToBalanceMs ?? '?'} ms, click → features built ${k.clickToFeaturesMs ?? '?'} ms`,
      );
      console.log(`  the Account view's rows from the event: ${(k.timeline ?? []).map((x) => `${x.t} ms ${x.rows} rows "${x.first.slice(0, 40)}"`).join('; ')} (features built at ${k.eventToFeaturesMs ?? '?'} ms); the page's long tasks: ${(k.longTasks ?? []).filter((x) => x.t > -500).map((x) => `${x.t} ms for ${x.ms} ms`).join(', ') || 'none'}`);
      keyed.push(k);
    }
    if (PATHS.has('query')) {
    const r = await withRetries(() => oneRound(i, featuresLine));
    const costs = Object.entries(r.costs).map(([k, v]) => `${k} ${v} ms`).join(', ');
    const t = r.terms;
    console.log(
      `round ${i} (load ${loadavg()[0]?.toFixed(1)}): VS Code ${r.vscodeMs} ms (${t ? `code loading ${t.codeLoadingMs} + activate() call ${t.activateCallMs} ms; its promise ${t.activateResolvedMs} ms` : 'terms not read'}; JSON ${r.jsonMs ?? '?'} ms), event → ready ${r.eventToReadyMs ?? '?'} ms (the control: VS Code ${r.control?.vscodeMs ?? '?'} ms, event → ready ${r.control?.eventToReadyMs ?? '?'} ms), → features ${r.eventToFeaturesMs ?? '?'} ms, "Activated in" ${r.ownMs ?? '?'} ms${costs ? ` (${costs})` : ''}`,
    );
    rounds.push(r);
    }
    if (!PATHS.has('sidebar')) continue;
    const b = await withRetries(() => sidebarRound(i));
    console.log(
      `round ${i}, the sidebar opened on an idle workbench (load ${loadavg()[0]?.toFixed(1)}; ${b.event ?? 'event not read'}): VS Code ${b.vscodeMs ?? '?'} ms, click → event ${b.clickToEventMs ?? '?'} ms, event → ready ${b.eventToReadyMs ?? '?'} ms (the control: VS Code ${b.control?.vscodeMs ?? '?'} ms, event → ready ${b.control?.eventToReadyMs ?? '?'} ms; the host's wait for the storage ${b.costs[WAIT_FOR_THE_CALL] ?? '?'} ms), click → "Set API Key" drawn ${b.clickToWelcomeMs ?? '?'} ms, click → features built ${b.clickToFeaturesMs ?? '?'} ms`,
    );
    sidebar.push(b);
  }
  const loadAfter = loadavg();
  const fmt = (xs: readonly number[]): string => `**${median(xs).toFixed(0)} ms** (${xs.map((x) => x.toFixed(0)).join(' / ')})`;
  const spans = rounds.flatMap((r) => (r.eventToReadyMs === undefined ? [] : [r.eventToReadyMs]));
  const own = rounds.flatMap((r) => (r.ownMs === undefined || Number.isNaN(r.ownMs) ? [] : [r.ownMs]));
  const built = rounds.flatMap((r) => (r.eventToFeaturesMs === undefined ? [] : [r.eventToFeaturesMs]));
  const json = rounds.flatMap((r) => (r.jsonMs === undefined ? [] : [r.jsonMs]));
  const ratios = rounds.flatMap((r) => (r.jsonMs ? [r.vscodeMs / r.jsonMs] : []));
  const apart = [LOADING_THE_ENTRY, WAIT_FOR_THE_CALL];
  const kinds = [...new Set(rounds.flatMap((r) => Object.keys(r.costs)))].filter((k) => !apart.includes(k));
  const clock = (k: string): number[] => rounds.flatMap((r) => (r.costs[k] === undefined ? [] : [r.costs[k]]));
  const fine = (xs: readonly number[]): string => `${median(xs).toFixed(1)} ms (${xs.map((x) => x.toFixed(1)).join(' / ')})`;
  const label = process.env.WA_BENCH_LABEL ?? 'this build';
  const lines = [
    '# Activation benchmark',
    '',
    `Measured ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC (${label}) on ${cpus()[0]?.model ?? 'unknown CPU'} (${cpus().length} cores, ${(totalmem() / 1e9).toFixed(1)} GB), Node ${process.version}, by \`npm run bench:activation\` (bench/activationBench.ts).`,
    `1-minute load average ${loadBefore[0]?.toFixed(1)} before, ${loadAfter[0]?.toFixed(1)} after.`,
    '',
    `The packaged .vsix (${bundleBytes < 100_000 ? `${(bundleBytes / 1e3).toFixed(1)} KB` : `${(bundleBytes / 1e6).toFixed(2)} MB`} dist/extension.js, ${nonAscii} non-ASCII bytes) installed in code-server; each round a fresh server, profile and workspace; the extension activated by opening a \`.waquery.json\` file from the Explorer.`,
    '',
    '| Figure | Budget | Median (each round) |',
    '| --- | --- | --- |',
    ...(rounds.length === 0 ? ['| (the query-file path not measured: WA_BENCH_PATHS) | — | — |'] : []),
    ...(rounds.length ? [`| VS Code's own (Running Extensions: code loading + activate() call) | ≤ 50 ms | ${fmt(rounds.map((r) => r.vscodeMs))} |`] : []),
    ...termRows(rounds, fmt),
    ...apart.flatMap((k) => (clock(k).length ? [`| ${k[0]?.toUpperCase()}${k.slice(1)} (the extension's own clock) | — | ${fine(clock(k))} |`] : [])),
    `| Activation event → first command and view ready (host log → "Activated in") | ≤ 100 ms | ${spans.length ? fmt(spans) : 'not read'} |`,
    `| Activation event → every feature built (the opened query file loads them: "Features ready") | — | ${built.length ? fmt(built) : featuresLine ? 'not read' : 'the same as the line above (this build built them inside activation)'} |`,
    `| The built-in JSON Language Features in the same window (the same two terms), and ours ÷ it | — | ${json.length ? `${fmt(json)}; ours ÷ JSON ${median(ratios).toFixed(2)} (${ratios.map((x) => x.toFixed(2)).join(' / ')})` : 'not read'} |`,
    `| "Activated in": activate()'s start to every stand-in registered (the extension's own clock) | — | ${own.length ? fmt(own) : 'not read'} |`,
    ...kinds.map((k) => `| … of which ${k} | — | ${fine(rounds.flatMap((r) => (r.costs[k] === undefined ? [] : [r.costs[k]])))} |`),
    `| Loading the entry bundle alone under a stub of \`vscode\` (fresh Node each) | — | ${fmt(loads.map((l) => l.ms))}; its thread's CPU time ${fmt(loads.map((l) => l.cpuMs))}; heap +${median(loads.map((l) => l.heapMb)).toFixed(0)} MB |`,
    ...(sidebar.length ? sidebarRows(sidebar, fmt, fine) : []),
    ...(keyed.length ? keyRows(keyed, fmt) : []),
    ...(featureLoads.length ? [`| Loading the features bundle (dist/features.js, ${(statSync(featuresBundle).size / 1e6).toFixed(2)} MB) alone, the same way | — | ${fmt(featureLoads.map((l) => l.ms))}; its thread's CPU time ${fmt(featureLoads.map((l) => l.cpuMs))}, which the load moves less; heap +${median(featureLoads.map((l) => l.heapMb)).toFixed(0)} MB |`] : []),
    ...controlTable([
      { what: "A query file at start-up: VS Code's own figure", pairs: rounds.map((r) => ({ ours: r.vscodeMs, control: r.control?.vscodeMs })) },
      { what: '… of which loading the code (Startup Performance)', pairs: rounds.map((r) => ({ ours: r.terms?.codeLoadingMs, control: r.control?.terms?.codeLoadingMs })) },
      { what: "… the wait for activate()'s promise (Finish Activate)", pairs: rounds.map((r) => ({ ours: r.terms?.activateResolvedMs, control: r.control?.terms?.activateResolvedMs })) },
      { what: '… activation event → first command ready (ours: "Activated in"; the control: its command registered)', pairs: rounds.map((r) => ({ ours: r.eventToReadyMs, control: r.control?.eventToReadyMs })) },
      { what: "The sidebar on an idle workbench, no key: VS Code's own figure", pairs: sidebar.map((r) => ({ ours: r.vscodeMs, control: r.control?.vscodeMs })) },
      { what: '… activation event → first command ready', pairs: sidebar.map((r) => ({ ours: r.eventToReadyMs, control: r.control?.eventToReadyMs })) },
      { what: "The sidebar with a key stored: VS Code's own figure", pairs: keyed.map((r) => ({ ours: r.vscodeMs, control: r.control?.vscodeMs })) },
      { what: '… activation event → first command ready', pairs: keyed.map((r) => ({ ours: r.eventToReadyMs, control: r.control?.eventToReadyMs })) },
    ]),
    '',
  ];
  // WA_BENCH_OUT: another file (a partial run's, or an older build's in interleaved rounds).
  const out = process.env.WA_BENCH_OUT ?? join(repoRoot, 'bench', 'RESULTS-activation.md');
  writeFileSync(out, lines.join('\n'));
  console.log(lines.join('\n'));
  console.log(`Written to ${out}`);
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    console.error(e);
    process.exit(1);
  },
);
