// A real VS Code workbench (code-server) in headless Chromium, driven as a person would:
// the command palette, input boxes, notifications, screenshots. Each e2e file opens one with
// Workbench.open() and closes it in after(); see apiKey.test.ts for the pattern.
// Under scripts/test-e2e.mjs every window opens on the tier's one code-server (WA_E2E_CODE_SERVER),
// which saves a server start and a .vsix install per file; run alone, a file starts its own.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { closeSync, mkdirSync, mkdtempSync, openSync, readSync, rmSync, statSync, writeFileSync, copyFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { it } from 'node:test';
import { chromium, type Browser, type Locator, type Page } from 'playwright-core';
import * as cs from '../../scripts/code-server.js';

export const repoRoot = cs.repoRoot;
/** The packaged extension `npm run package` writes. */
export const packagedVsix = join(repoRoot, 'wallet-analytics.vsix');
export const screenshotsDir = join(repoRoot, 'test-results', 'e2e');

/** User settings for a quiet, predictable workbench (no welcome page, tips or update checks). */
const QUIET_SETTINGS: Record<string, unknown> = {
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  'workbench.enableExperiments': false,
  'workbench.secondarySideBar.defaultVisibility': 'hidden',
  'chat.commandCenter.enabled': false,
  'extensions.autoCheckUpdates': false,
  'extensions.autoUpdate': false,
  'extensions.ignoreRecommendations': true,
  'telemetry.telemetryLevel': 'off',
  'update.mode': 'none',
  'security.workspace.trust.enabled': false,
  'window.commandCenter': false,
  // The sticky scroll header sits over the editor's top lines and takes the clicks meant for them
  // (seen: a click on a squiggled word retried for 30 s under the header).
  'editor.stickyScroll.enabled': false,
};

export interface OpenOptions {
  /** Names this workbench's screenshots: test-results/e2e/<name>-<step>.png. */
  name: string;
  /** A .vsix to install with `code-server --install-extension` before starting (default: the packaged build). */
  vsix?: string | null;
  /** More .vsix files installed beside it the same way (the activation bench's control extension); a server of its own. */
  alsoInstall?: readonly string[];
  /** Load the extension from source instead (code-server's extensionDevelopmentPath payload). */
  extensionDevelopmentPath?: string;
  /** User settings on top of the quiet defaults (e.g. walletAnalytics.baseUrl for the sandbox). */
  settings?: Record<string, unknown>;
  /** Files to create in the workspace folder, by relative path. */
  files?: Record<string, string>;
  /** Extra environment for code-server and the extension host. */
  env?: Record<string, string>;
  /** Keep VS Code's workspace trust on (the folder opens in Restricted Mode); off by default. */
  workspaceTrust?: boolean;
  viewport?: { width: number; height: number };
}

/** The tier's one code-server, as scripts/test-e2e.mjs describes it in WA_E2E_CODE_SERVER. */
interface SharedServer {
  readonly url: string;
  readonly pid: number;
  readonly logPath: string;
  readonly vsix: string;
  readonly userDataDir: string;
  readonly extensionsDir: string;
  /** The lane's Chromium (a Playwright browser server), kept between windows: each window gets a fresh context in it. */
  readonly browserWs?: string;
}

function sharedServer(): SharedServer | undefined {
  const raw = process.env.WA_E2E_CODE_SERVER;
  if (!raw) return undefined;
  const v = JSON.parse(raw) as Partial<Record<keyof SharedServer, unknown>>;
  const { url, pid, logPath, vsix, userDataDir, extensionsDir, browserWs } = v;
  if (typeof url !== 'string' || typeof pid !== 'number' || typeof logPath !== 'string' || typeof vsix !== 'string' || typeof userDataDir !== 'string' || typeof extensionsDir !== 'string') {
    throw new Error(`WA_E2E_CODE_SERVER is not what scripts/test-e2e.mjs writes: ${raw}`);
  }
  return { url, pid, logPath, vsix, userDataDir, extensionsDir, browserWs: typeof browserWs === 'string' ? browserWs : undefined };
}

/**
 * The pids of the extension hosts code-server (pid) runs: one per window. A window closed without
 * saying goodbye leaves its host waiting for a reconnection for hours, so close() ends its own.
 */
function extensionHosts(serverPid: number): Set<number> {
  const r = spawnSync('ps', ['-A', '-o', 'pid=,ppid=,args='], { encoding: 'utf8' });
  const procs = (r.stdout ?? '')
    .split('\n')
    .map((l) => /^\s*(\d+)\s+(\d+)\s+(.*)$/u.exec(l))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => ({ pid: Number(m[1]), ppid: Number(m[2]), args: m[3] ?? '' }));
  const under = new Set([serverPid]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const p of procs) {
      if (!under.has(p.pid) && under.has(p.ppid)) {
        under.add(p.pid);
        grew = true;
      }
    }
  }
  return new Set(procs.filter((p) => under.has(p.pid) && /--type=extensionHost/u.test(p.args)).map((p) => p.pid));
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** SIGTERM, then SIGKILL for those still running after 5 s. */
async function endProcesses(pids: readonly number[]): Promise<void> {
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGTERM');
    } catch {
      // already gone
    }
  }
  for (const deadline = Date.now() + 5000; pids.some(alive) && Date.now() < deadline; ) await new Promise((r) => setTimeout(r, 50));
  for (const pid of pids.filter(alive)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone meanwhile
    }
  }
}

/** The bytes a log gained since offset. */
function logSince(file: string, offset: number): Buffer {
  const size = statSync(file).size;
  const buf = Buffer.alloc(Math.max(0, size - offset));
  const fd = openSync(file, 'r');
  try {
    readSync(fd, buf, 0, buf.length, offset);
  } finally {
    closeSync(fd);
  }
  return buf;
}

/** How long the workbench may show no progress at all while it loads before it counts as stalled. */
const LOAD_IDLE_MS = 60_000;

export class Workbench {
  private shots = 0;
  /** The screenshots' name now (shotsAs() changes it when one window serves several flows). */
  private shotName: string;

  private constructor(
    readonly page: Page,
    private readonly browser: Browser,
    /** Stops or releases the server, keeps its log as <name>-code-server.log, removes the temporary folders. */
    private readonly release: () => Promise<void>,
    readonly workspace: string,
    readonly extensionsDir: string,
    name: string,
  ) {
    this.shotName = name;
  }

  /**
   * Names the screenshots that follow <name>-NN-<step>.png, counted from 01 again: a file that runs
   * two flows in one window (tableThemes: one theme, then the other, as a11y does) keeps each flow's
   * pictures under its own name, as two windows gave them, without the second window's cost (a
   * workbench drawn and an extension host started: 20–35 s of a loaded 2-core machine).
   */
  shotsAs(name: string): void {
    this.shotName = name;
    this.shots = 0;
  }

  /**
   * Opens the workbench on a fresh workspace folder: on the tier's shared code-server when there is
   * one and these options allow it, otherwise on its own code-server (free loopback port, fresh
   * user-data-dir, the .vsix installed into a fresh extensions dir).
   */
  static async open(o: OpenOptions): Promise<Workbench> {
    const stateDir = mkdtempSync(join(tmpdir(), `wa-e2e-${o.name}-`));
    const workspace = join(stateDir, 'workspace');
    mkdirSync(workspace);
    for (const [rel, text] of Object.entries(o.files ?? {})) {
      mkdirSync(join(workspace, rel, '..'), { recursive: true });
      writeFileSync(join(workspace, rel), text);
    }
    // Without o.workspaceTrust, trust is off: by --disable-workspace-trust on an own server, by this
    // setting on the shared one (started with trust on, for Restricted Mode).
    const settings = { ...QUIET_SETTINGS, ...o.settings, ...(o.workspaceTrust === true ? {} : { 'security.workspace.trust.enabled': false }) };
    const vsix = o.vsix === undefined ? packagedVsix : o.vsix;
    const shared = sharedServer();
    // The shared server has the packaged .vsix and its own environment: a window wanting another
    // extension, a development path or extra environment variables needs its own server.
    if (shared && o.env === undefined && o.extensionDevelopmentPath === undefined && vsix === shared.vsix && !o.alsoInstall?.length) {
      return Workbench.openShared(o, shared, stateDir, workspace, settings);
    }

    const userDataDir = join(stateDir, 'user-data');
    const extensionsDir = join(stateDir, 'extensions');
    mkdirSync(join(userDataDir, 'User'), { recursive: true });
    writeFileSync(join(userDataDir, 'User', 'settings.json'), JSON.stringify(settings, null, 2));
    const dirs = { stateDir, userDataDir, extensionsDir, env: o.env, workspaceTrust: o.workspaceTrust === true };
    if (vsix) cs.installVsix({ ...dirs, vsix });
    for (const extra of o.alsoInstall ?? []) cs.installVsix({ ...dirs, vsix: extra });

    const server = await cs.startCodeServer({ ...dirs, folder: workspace });
    const release = async (): Promise<void> => {
      await server.stop();
      mkdirSync(screenshotsDir, { recursive: true });
      copyFileSync(server.logPath, join(screenshotsDir, `${o.name}-code-server.log`));
      rmSync(stateDir, { recursive: true, force: true });
    };
    try {
      const { browser, page } = await Workbench.load(o, server.url, workspace);
      return new Workbench(page, browser, release, workspace, extensionsDir, o.name);
    } catch (e) {
      const said = server.output().slice(-3000);
      await release();
      throw new Error(`The workbench did not open: ${e instanceof Error ? e.message : String(e)}\ncode-server said:\n${said}`, { cause: e });
    }
  }

  /**
   * A window on the shared server. The files run one at a time, so this window's user settings go
   * into the shared user-data-dir before it loads; what the last window left that a fresh
   * user-data-dir would not have (the extension's global storage: results, caches) is removed.
   * globalState, SecretStorage and workspace trust decisions live in the browser's storage, and
   * each window has a fresh Chromium profile; each window gets its own extension host.
   */
  private static async openShared(
    o: OpenOptions,
    shared: SharedServer,
    stateDir: string,
    workspace: string,
    settings: Record<string, unknown>,
  ): Promise<Workbench> {
    const user = join(shared.userDataDir, 'User');
    mkdirSync(user, { recursive: true });
    rmSync(join(user, 'globalStorage'), { recursive: true, force: true });
    writeFileSync(join(user, 'settings.json'), JSON.stringify(settings, null, 2));
    const logFrom = statSync(shared.logPath).size;
    // Windows open one at a time, so an extension host running now belongs to a window that is
    // gone (a file that stopped before its close()): end it, so nothing of it reaches this window.
    const left = [...extensionHosts(shared.pid)];
    if (left.length > 0) console.log(`# workbench: ended ${left.length} extension host(s) a closed window left running`);
    await endProcesses(left);
    const release = async (): Promise<void> => {
      // The window is closed: its extension host must end before the next window opens, so no
      // timer, sandbox or write of this window's can reach the next one.
      await endProcesses([...extensionHosts(shared.pid)]);
      mkdirSync(screenshotsDir, { recursive: true });
      writeFileSync(join(screenshotsDir, `${o.name}-code-server.log`), logSince(shared.logPath, logFrom));
      rmSync(stateDir, { recursive: true, force: true });
    };
    try {
      const { browser, page } = await Workbench.load(o, shared.url, workspace, shared.browserWs);
      return new Workbench(page, browser, release, workspace, shared.extensionsDir, o.name);
    } catch (e) {
      await release();
      const said = logSince(shared.logPath, logFrom).toString('utf8').slice(-3000);
      throw new Error(`The workbench did not open: ${e instanceof Error ? e.message : String(e)}\ncode-server said:\n${said}`, { cause: e });
    }
  }

  /**
   * Chromium on the workbench URL for folder, once the workbench has drawn its parts. With the lane's
   * browser (browserWs, from scripts/test-e2e.mjs) the window is a fresh context in it, as isolated
   * as a fresh browser (its own storage, cache and cookies) without a Chromium start per window
   * (6–8 s each on a loaded 2-core machine, 15 windows a run); closing it closes only that context.
   * When the lane's browser cannot be reached, the window starts its own, as a file run alone does.
   */
  private static async load(o: OpenOptions, serverUrl: string, folder: string, browserWs?: string): Promise<{ browser: Browser; page: Page }> {
    let browser: Browser | undefined;
    try {
      const started = Date.now();
      if (browserWs) {
        browser = await chromium.connect(browserWs, { timeout: 30_000 }).catch((e: unknown) => {
          console.log(`# workbench: the lane's browser did not answer (${e instanceof Error ? e.message.split('\n')[0] : String(e)}); starting one for this window`);
          return undefined;
        });
      }
      const shared = browser !== undefined;
      browser ??= await chromium.launch({ executablePath: cs.chromiumPath, args: [...cs.chromiumArgs], headless: true, timeout: 60_000 });
      // Uncompressed: code-server compresses every response as it sends it (its compression
      // middleware, brotli for Chromium, nothing cached) for a transfer over loopback, and each
      // window, a fresh context, fetches the workbench again. workbench.js (11.4 MB): 0.49 CPU-s of
      // code-server a fetch brotli'd, 0.06 as is; a plain window drawn: code-server 3.3 CPU-s
      // against 4.2 (four interleaved rounds, load 14-20). The same bytes reach the page.
      const page = await browser.newPage({ viewport: o.viewport ?? { width: 1280, height: 800 }, extraHTTPHeaders: { 'Accept-Encoding': 'identity' } });
      const browserMs = Date.now() - started;
      const url = cs.workbenchUrl(serverUrl, { folder, extensionDevelopmentPath: o.extensionDevelopmentPath });
      // The wait follows the page's progress (each resource it loads, each element it adds), not a
      // clock: on a loaded machine the workbench took past a fixed 60 s while still loading
      // (issue 31.7). It fails when nothing moved for LOAD_IDLE_MS.
      let finished = 0;
      page.on('requestfinished', () => finished++);
      let navError: unknown;
      const nav = page.goto(url, { timeout: 0 }).catch((e: unknown) => (navError = e));
      const progress = async (): Promise<string> => `${finished} ${await page.locator('*').count().catch(() => -1)}`;
      let seen = await progress();
      // The status bar is drawn once the workbench has restored its parts.
      for (let idleSince = Date.now(); (await page.locator('.monaco-workbench .part.statusbar').count()) === 0; await new Promise((r) => setTimeout(r, 100))) {
        if (navError) throw navError;
        const now = await progress();
        if (now !== seen) [seen, idleSince] = [now, Date.now()];
        else if (Date.now() - idleSince > LOAD_IDLE_MS) throw new Error(`the workbench stopped loading: nothing changed for ${LOAD_IDLE_MS / 1000} s (${seen.split(' ')[0]} resources loaded)`);
      }
      void nav;
      // A figure for the tier's time (issue: CI under 10 minutes), printed, never asserted.
      console.log(`# workbench: ${shared ? "the lane's browser" : 'a browser of its own'} in ${(browserMs / 1000).toFixed(1)} s, the workbench drawn ${((Date.now() - started - browserMs) / 1000).toFixed(1)} s later`);
      return { browser, page };
    } catch (e) {
      await browser?.close().catch(() => undefined);
      throw e;
    }
  }

  /** Folders in the extensions dir (e.g. wallet-analytics.wallet-analytics-0.1.0). */
  installedExtensions(): string[] {
    return readdirSync(this.extensionsDir).filter((f) => !f.endsWith('.json'));
  }

  get quickInput(): Locator {
    return this.page.locator('.quick-input-widget');
  }

  /** The text field of the open quick input (palette or input box). */
  get quickInputField(): Locator {
    return this.quickInput.locator('.quick-input-box input');
  }

  /**
   * Opens the command palette (F1), types filter after its ">" and returns the visible command
   * labels once one matches `until` (default: any match). Right after the workbench opens, the
   * extensions' commands arrive a moment later, so the filter is typed again until they show up.
   * The list only renders the rows in view (about 15), so filter narrowly. The limit is a safety net
   * for a command that never comes (it costs nothing when the command is there): 30 s ran out on a
   * loaded 2-core machine (load 20–25) before the workbench had registered "Manage Workspace Trust".
   */
  async openPalette(filter: string, until: (labels: string[]) => boolean = (l) => l.length > 0, timeoutMs = 90_000): Promise<string[]> {
    const deadline = Date.now() + timeoutMs;
    const rows = this.quickInput.locator('.quick-input-list .monaco-list-row');
    for (;;) {
      // F1 again while the palette does not show: right after the workbench opens, something that
      // takes focus as it opens (an editor, the walkthrough) can close it at once (seen in CI on
      // the first command of a file). Each press is followed by a 5 s wait on the field, so the
      // next press comes only once the last one has visibly come to nothing.
      for (let attempt = 1; ; attempt++) {
        await this.page.keyboard.press('F1');
        try {
          await this.quickInputField.waitFor({ state: 'visible', timeout: 5_000 });
          break;
        } catch (e) {
          if (attempt === 4) throw e;
        }
      }
      // Pasted, as a person who knows the command's name might: one input event, not one round trip
      // per character (a palette filter typed key by key cost about a second, several times a file).
      await this.page.keyboard.insertText(filter);
      // The palette computes its list from the filter asynchronously (it gathers every command, then
      // filters): the list is this filter's once a row highlights what was typed, or none matches. The
      // unfiltered list it opened with highlights nothing, so until then the rows are not the answer
      // (the command used last would be read as the first match).
      const filtered = async (): Promise<boolean> =>
        (await rows.locator('.label-name .highlight').count()) > 0 || (await rows.filter({ hasText: 'No matching commands' }).count()) > 0;
      const read = async (): Promise<string[]> => (await rows.locator('.label-name').allInnerTexts()).filter((l) => l !== 'No matching commands');
      for (const end = Math.min(deadline, Date.now() + 15_000); !(await filtered()) && Date.now() < end; await this.page.waitForTimeout(50));
      const labels = await read();
      if (until(labels) || Date.now() > deadline) return labels;
      // The palette lists the commands known when it opened: close it and look again.
      await this.closeQuickInput();
    }
  }

  /** Selects two files in the Explorer and runs "Address Sets…" from their context menu (retried until the item shows). */
  async addressSetsFromExplorer(first: string, second: string): Promise<void> {
    const row = (label: string) => this.page.locator('.explorer-folders-view .monaco-list-row', { hasText: label }).first();
    const selected = async (label: string): Promise<boolean> => (await row(label).getAttribute('aria-selected')) === 'true';
    const item = this.page.getByRole('menuitem', { name: 'Address Sets…' });
    for (let attempt = 1; ; attempt++) {
      // The selection is made again at each attempt: on a loaded machine the Ctrl+click can land
      // while the Explorer re-renders, and a right-click on one selected row has no "Address Sets…".
      if (!(await selected(first)) || !(await selected(second))) {
        await row(first).click();
        await row(second).click({ modifiers: ['ControlOrMeta'] });
      }
      await row(second).click({ button: 'right' });
      if (await item.waitFor({ state: 'visible', timeout: 3000 }).then(() => true, () => false)) break;
      await this.page.keyboard.press('Escape');
      if (attempt === 10) throw new Error('"Address Sets…" is not in the context menu of two selected files');
    }
    await this.pickMenuItem(item);
  }

  /**
   * Picks an item of an open context menu as a person at the keyboard would: points at it, and once
   * the menu shows it focused, presses Enter. A menu item takes mouse clicks only 100 ms after it is
   * drawn (VS Code's menu.ts: the right-click's own mouse-up must not pick an item), a window no page
   * state shows; Enter on the focused item has no such window.
   */
  private async pickMenuItem(item: Locator): Promise<void> {
    await item.hover();
    await this.page.locator('.monaco-menu .action-item.focused').filter({ has: item }).waitFor({ state: 'visible', timeout: 5000 });
    await this.page.keyboard.press('Enter');
  }

  /**
   * Right-clicks an Explorer row and picks "Open in Table" (the extension's items arrive a moment
   * after the workbench), as pickMenuItem does.
   */
  async openInTableFromExplorer(label: string): Promise<void> {
    const row = this.page.locator('.explorer-folders-view .monaco-list-row', { hasText: label }).first();
    const item = this.page.getByRole('menuitem', { name: 'Open in Table' });
    for (let attempt = 1; ; attempt++) {
      await row.click({ button: 'right' });
      const shown = await item.waitFor({ state: 'visible', timeout: 3000 }).then(
        () => true,
        () => false,
      );
      if (shown) break;
      await this.page.keyboard.press('Escape');
      if (attempt === 10) throw new Error(`"Open in Table" is not in the context menu of ${label}`);
    }
    await this.pickMenuItem(item);
    await item.waitFor({ state: 'hidden', timeout: 5000 });
  }

  /** The palette row whose label is exactly title (e.g. "Wallet Analytics: Set API Key"). */
  paletteRow(title: string): Locator {
    return this.quickInput.locator('.quick-input-list .monaco-list-row').filter({
      has: this.page.locator('.label-name', { hasText: new RegExp(`^${escapeRegExp(title)}$`) }),
    });
  }

  /** Runs a command from the palette by its full title, as a person would: F1, type, pick. */
  async runCommand(title: string): Promise<void> {
    // Something that takes focus as it opens (an editor, a view, a result's table) can close the
    // palette between the look and the click, and the click then waits on a hidden row (seen in
    // full runs on a loaded machine). A person would open the palette again; so does this, up to
    // three times, once the click's own wait (10 s) has given what opened the time to take focus.
    // A click that happened never throws, so a command never runs twice.
    for (let attempt = 1; ; attempt++) {
      const labels = await this.openPalette(title, (l) => l.includes(title));
      if (!labels.includes(title)) throw new Error(`"${title}" is not in the command palette; it shows: ${JSON.stringify(labels)}`);
      try {
        await this.paletteRow(title).first().click({ timeout: attempt < 3 ? 10_000 : 30_000 });
        return;
      } catch (e) {
        if (attempt === 3 || (await this.quickInput.isVisible())) throw e;
      }
    }
  }

  /** Types into the open quick input (replacing what is there) and optionally presses Enter. */
  async typeIntoQuickInput(text: string, o: { submit?: boolean } = {}): Promise<void> {
    await this.quickInputField.waitFor({ state: 'visible', timeout: 15_000 });
    await this.quickInputField.fill('');
    // Pasted, as a person with the addresses on the clipboard would: one input event, not a round trip
    // per key (eleven addresses, 540 characters, typed key by key ran past 30 s at a load of 19).
    await this.page.keyboard.insertText(text);
    // On a busy machine the quick input can still be turning from the last step (a pick) into this
    // one while the first keys land, and it clears them: 4 characters of an address were lost once
    // in a full run. What a person sees before pressing Enter is the whole text: make sure of it.
    for (let i = 0; i < 3 && (await this.quickInputField.inputValue()) !== text; i++) {
      await this.page.waitForTimeout(200);
      await this.quickInputField.fill(text);
    }
    assert.equal(await this.quickInputField.inputValue(), text, 'the quick input holds the whole text');
    if (o.submit) await this.page.keyboard.press('Enter');
  }

  /**
   * Types a path into code-server's file dialog (a quick input) and accepts it; resolves with the
   * time of the Enter that took. The dialog fills in the workspace folder a moment after it shows,
   * so the path goes in once it has. On a busy machine the dialog may still be listing the folder
   * the path names when Enter comes, and drop it (seen in a full run: the dialog stayed open on the
   * path): while it is still open on the whole path 2 s later, Enter again, as a person would.
   */
  async acceptFileDialog(file: string): Promise<number> {
    // The dialog opens after the command's own work, on a loaded machine well past 15 s (a full run
    // at load 17 failed the table file's first step so): a wait on the dialog, bounded generously.
    await this.quickInputField.waitFor({ state: 'visible', timeout: 60_000 });
    for (const end = Date.now() + 30_000; !(await this.quickInputField.inputValue()).endsWith('/workspace/'); await this.page.waitForTimeout(50)) {
      if (Date.now() > end) throw new Error(`The file dialog never showed the workspace folder: "${await this.quickInputField.inputValue()}"`);
    }
    await this.quickInputField.fill(file);
    for (const end = Date.now() + 5_000; (await this.quickInputField.inputValue()) !== file; await this.page.waitForTimeout(50)) {
      if (Date.now() > end) throw new Error(`The file dialog holds "${await this.quickInputField.inputValue()}", not ${file}`);
    }
    // The dialog reads the path (listing its folder when it is another) and makes the file's row the
    // active one: Enter then takes the file a person sees chosen. Bounded: Enter on the path alone
    // also opens it, and the loop below presses again if the dialog dropped it.
    const name = file.split('/').pop() ?? file;
    const active = this.quickInput.locator('.quick-input-list .monaco-list-row.focused .label-name', { hasText: new RegExp(`^${escapeRegExp(name)}$`) });
    if (!(await active.waitFor({ state: 'visible', timeout: 30_000 }).then(() => true, () => false))) console.log(`# the file dialog never made ${name} its active row; Enter on the path`);
    let entered = Date.now();
    await this.page.keyboard.press('Enter');
    for (let i = 0; i < 3; i++) {
      const deadline = Date.now() + 2_000;
      while (Date.now() < deadline && (await this.quickInput.isVisible()) && (await this.quickInputField.inputValue()) === file) await this.page.waitForTimeout(50);
      if (!(await this.quickInput.isVisible()) || (await this.quickInputField.inputValue()) !== file) break;
      entered = Date.now();
      await this.page.keyboard.press('Enter');
    }
    return entered;
  }

  /**
   * Waits for an endpoint's price, shown before anything is sent: the flow's last step (a quick
   * pick with "Run"), or a dialog above `confirmAbove`; returns what it says.
   */
  async priceShown(timeoutMs = 30_000): Promise<string> {
    const run = this.quickInput.locator('.quick-input-list .monaco-list-row', { hasText: 'Run' }).first();
    const modal = this.page.locator('.monaco-dialog-box');
    for (const end = Date.now() + timeoutMs; !(await run.isVisible()) && !(await modal.isVisible()); await this.page.waitForTimeout(50)) {
      if (Date.now() > end) throw new Error(`No price shown within ${timeoutMs} ms`);
    }
    return (await modal.isVisible()) ? modal.innerText() : this.quickInput.innerText();
  }

  /** The validation or prompt message under the quick input's field. */
  async quickInputMessage(): Promise<string> {
    return (await this.quickInput.locator('.quick-input-message').innerText()).trim();
  }

  async closeQuickInput(): Promise<void> {
    await this.page.keyboard.press('Escape');
    await this.quickInput.waitFor({ state: 'hidden', timeout: 5000 });
  }

  /** Waits for a notification toast containing text to finish sliding in; returns its message. */
  async waitForNotification(text: string | RegExp, timeoutMs = 15_000): Promise<string> {
    const toast = this.page.locator('.notifications-toasts .notification-toast', { hasText: text }).first();
    await toast.waitFor({ state: 'visible', timeout: timeoutMs }).catch(async () => {
      const seen = await this.page.locator('.notifications-toasts .notification-list-item-message').allInnerTexts();
      throw new Error(`No notification with ${String(text)} within ${timeoutMs} ms; visible: ${JSON.stringify(seen)}`);
    });
    // Toasts slide in (0.3 s); wait until this one rests, so a screenshot shows it as a person reads it.
    for (const deadline = Date.now() + 5000; ; await this.page.waitForTimeout(50)) {
      const style = await toast.evaluate((el) => {
        const cs = el.ownerDocument.defaultView.getComputedStyle(el);
        return `${cs.opacity} ${cs.transform}`;
      });
      if (style === '1 none' || style === '1 matrix(1, 0, 0, 1, 0, 0)' || Date.now() > deadline) break;
    }
    return (await toast.locator('.notification-list-item-message').innerText()).trim();
  }

  /** Dismisses every notification, as a person would from the palette. */
  async clearNotifications(): Promise<void> {
    await this.runCommand('Notifications: Clear All Notifications');
    await this.page.locator('.notifications-toasts .notification-toast').first().waitFor({ state: 'detached', timeout: 5000 });
  }

  /**
   * The texts of the toast holding `text` that a person cannot read whole: its message, source or a
   * button cut to "…". A toast without a button shows collapsed, on one line (issue 23), so a long
   * message without one ends mid-sentence.
   */
  async cutInToast(text: string | RegExp): Promise<string[]> {
    const toast = this.page.locator('.notifications-toasts .notification-toast', { hasText: text }).first();
    return toast
      .locator('.notification-list-item-message, .notification-list-item-source, .monaco-button')
      .evaluateAll((els) => els.filter((e) => e.scrollWidth > e.clientWidth + 1 || e.scrollHeight > e.clientHeight + 1).map((e) => e.textContent ?? ''));
  }

  /**
   * The buttons of the toast holding `text`, in order, each with whether VS Code draws it as the
   * primary one (the blue button a person takes by habit): a button that spends is never primary.
   */
  async toastButtons(text: string | RegExp): Promise<{ label: string; primary: boolean }[]> {
    const toast = this.page.locator('.notifications-toasts .notification-toast', { hasText: text }).first();
    await toast.locator('.monaco-button').first().waitFor({ timeout: 15_000 });
    return toast.locator('.monaco-button').evaluateAll((els) => els.map((e) => ({ label: (e.textContent ?? '').trim(), primary: !e.classList.contains('secondary') })));
  }

  /**
   * The rows of the open quick pick whose first line (the label and its description, such as a
   * price) is cut to "…": the row's text container is narrower than what it holds.
   */
  async cutQuickPickRows(): Promise<string[]> {
    return this.quickInput
      .locator('.quick-input-list .quick-input-list-rows > .quick-input-list-row:first-child .monaco-icon-label-container')
      .evaluateAll((els) => els.filter((e) => e.scrollWidth > e.clientWidth + 1).map((e) => e.textContent ?? ''));
  }

  /** The messages of the error notifications on screen. */
  async errorNotifications(): Promise<string[]> {
    const toasts = this.page.locator('.notifications-toasts .notification-toast', { has: this.page.locator('.codicon-error') });
    return (await toasts.locator('.notification-list-item-message').allInnerTexts()).map((t) => t.trim());
  }

  /**
   * Saves a screenshot of the whole window to test-results/e2e/<name>-NN-<step>.png and returns its
   * path. An error notification on screen fails the step (after the picture is taken), unless
   * `allowErrors` matches it: a person would see it, so a flow that shows one is not passing.
   */
  async screenshot(step: string, o: { allowErrors?: RegExp } = {}): Promise<string> {
    mkdirSync(screenshotsDir, { recursive: true });
    const file = join(screenshotsDir, `${this.shotName}-${String(++this.shots).padStart(2, '0')}-${step}.png`);
    await this.page.screenshot({ path: file });
    const errors = (await this.errorNotifications()).filter((m) => !o.allowErrors?.test(m));
    if (errors.length > 0) throw new Error(`Error notification on screen at "${step}" (${file}): ${JSON.stringify(errors)}`);
    return file;
  }

  /** Closes Chromium, then stops (or, when shared, releases) code-server and removes the temporary folders; code-server's log is kept. */
  async close(): Promise<void> {
    await this.browser.close().catch(() => undefined);
    await this.release();
  }
}

/**
 * A test (node:test `it`) that, when it fails, first leaves a screenshot of what the workbench
 * showed: test-results/e2e/<name>-NN-failed-<title>.png. `wb` is read when the test runs.
 */
export function stepWithShot(wb: () => Workbench | undefined, title: string, fn: () => Promise<void>): void {
  it(title, async () => {
    try {
      await fn();
    } catch (e) {
      await wb()?.screenshot(`failed-${title.slice(0, 24).replace(/\W+/gu, '-')}`).catch(() => undefined);
      throw e;
    }
  });
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
