// A real VS Code workbench (code-server) in headless Chromium, driven as a person would:
// the command palette, input boxes, notifications, screenshots. Each e2e file opens one with
// Workbench.open() and closes it in after(); see apiKey.test.ts for the pattern.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync, copyFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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
};

export interface OpenOptions {
  /** Names this workbench's screenshots: test-results/e2e/<name>-<step>.png. */
  name: string;
  /** A .vsix to install with `code-server --install-extension` before starting (default: the packaged build). */
  vsix?: string | null;
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

export class Workbench {
  private shots = 0;

  private constructor(
    readonly page: Page,
    private readonly browser: Browser,
    private readonly server: cs.RunningCodeServer,
    private readonly stateDir: string,
    readonly workspace: string,
    readonly extensionsDir: string,
    private readonly name: string,
  ) {}

  /** Starts code-server on a free loopback port with a fresh user-data-dir and opens the workbench. */
  static async open(o: OpenOptions): Promise<Workbench> {
    const stateDir = mkdtempSync(join(tmpdir(), `wa-e2e-${o.name}-`));
    const userDataDir = join(stateDir, 'user-data');
    const extensionsDir = join(stateDir, 'extensions');
    const workspace = join(stateDir, 'workspace');
    mkdirSync(join(userDataDir, 'User'), { recursive: true });
    mkdirSync(workspace);
    for (const [rel, text] of Object.entries(o.files ?? {})) {
      mkdirSync(join(workspace, rel, '..'), { recursive: true });
      writeFileSync(join(workspace, rel), text);
    }
    writeFileSync(join(userDataDir, 'User', 'settings.json'), JSON.stringify({ ...QUIET_SETTINGS, ...o.settings }, null, 2));
    const dirs = { stateDir, userDataDir, extensionsDir, env: o.env, workspaceTrust: o.workspaceTrust === true };
    const vsix = o.vsix === undefined ? packagedVsix : o.vsix;
    if (vsix) cs.installVsix({ ...dirs, vsix });

    const server = await cs.startCodeServer({ ...dirs, folder: workspace });
    let browser: Browser | undefined;
    try {
      browser = await chromium.launch({ executablePath: cs.chromiumPath, args: [...cs.chromiumArgs], headless: true, timeout: 60_000 });
      const page = await browser.newPage({ viewport: o.viewport ?? { width: 1280, height: 800 } });
      const url = cs.workbenchUrl(server.url, { folder: workspace, extensionDevelopmentPath: o.extensionDevelopmentPath });
      await page.goto(url, { timeout: 60_000 });
      await page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
      // The status bar is drawn once the workbench has restored its parts.
      await page.locator('.part.statusbar').waitFor({ timeout: 60_000 });
      return new Workbench(page, browser, server, stateDir, workspace, extensionsDir, o.name);
    } catch (e) {
      await browser?.close().catch(() => undefined);
      await server.stop();
      throw new Error(`The workbench did not open: ${e instanceof Error ? e.message : String(e)}\ncode-server said:\n${server.output().slice(-3000)}`, {
        cause: e,
      });
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
   * The list only renders the rows in view (about 15), so filter narrowly.
   */
  async openPalette(filter: string, until: (labels: string[]) => boolean = (l) => l.length > 0, timeoutMs = 30_000): Promise<string[]> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      await this.page.keyboard.press('F1');
      await this.quickInputField.waitFor({ state: 'visible', timeout: 15_000 });
      await this.page.keyboard.type(filter, { delay: 10 });
      // Let the list settle on the filter before reading it.
      await this.page.waitForTimeout(300);
      const labels = (await this.quickInput.locator('.quick-input-list .monaco-list-row .label-name').allInnerTexts()).filter(
        (l) => l !== 'No matching commands',
      );
      if (until(labels) || Date.now() > deadline) return labels;
      // The palette lists the commands known when it opened: close it and look again.
      await this.closeQuickInput();
      await this.page.waitForTimeout(1000);
    }
  }

  /** The palette row whose label is exactly title (e.g. "Wallet Analytics: Set API Key"). */
  paletteRow(title: string): Locator {
    return this.quickInput.locator('.quick-input-list .monaco-list-row').filter({
      has: this.page.locator('.label-name', { hasText: new RegExp(`^${escapeRegExp(title)}$`) }),
    });
  }

  /** Runs a command from the palette by its full title, as a person would: F1, type, pick. */
  async runCommand(title: string): Promise<void> {
    const labels = await this.openPalette(title, (l) => l.includes(title));
    if (!labels.includes(title)) throw new Error(`"${title}" is not in the command palette; it shows: ${JSON.stringify(labels)}`);
    await this.paletteRow(title).first().click();
  }

  /** Types into the open quick input (replacing what is there) and optionally presses Enter. */
  async typeIntoQuickInput(text: string, o: { submit?: boolean } = {}): Promise<void> {
    await this.quickInputField.waitFor({ state: 'visible', timeout: 15_000 });
    await this.quickInputField.fill('');
    await this.quickInputField.pressSequentially(text, { delay: 5 });
    if (o.submit) await this.page.keyboard.press('Enter');
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
    const file = join(screenshotsDir, `${this.name}-${String(++this.shots).padStart(2, '0')}-${step}.png`);
    await this.page.screenshot({ path: file });
    const errors = (await this.errorNotifications()).filter((m) => !o.allowErrors?.test(m));
    if (errors.length > 0) throw new Error(`Error notification on screen at "${step}" (${file}): ${JSON.stringify(errors)}`);
    return file;
  }

  /** Closes Chromium and code-server and removes the temporary folders (code-server's log is kept). */
  async close(): Promise<void> {
    await this.browser.close().catch(() => undefined);
    await this.server.stop();
    mkdirSync(screenshotsDir, { recursive: true });
    copyFileSync(this.server.logPath, join(screenshotsDir, `${this.name}-code-server.log`));
    rmSync(this.stateDir, { recursive: true, force: true });
  }
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
