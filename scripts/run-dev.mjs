// `npm run dev`: builds the extension, keeps rebuilding it on change, and opens it in VS Code:
//   - a desktop `code` on PATH: `code --extensionDevelopmentPath=<repo> <demo workspace>`
//   - otherwise (or WA_DEV_BROWSER=1): code-server's browser workbench on 127.0.0.1, with the
//     extension under development (extensionDevelopmentPath payload); open the printed URL.
// After an edit, run "Developer: Reload Window" to load the new build.
//   WA_DEV_PORT=8377   the loopback port for code-server (a free one if it is taken)
//   --smoke            code-server only: open the URL in headless Chromium, check the extension's
//                      commands are in the palette, save test-results/dev-smoke.png and exit
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { dirname, join } from 'node:path';
import cs from './code-server.js';
import systemDeps from './system-deps.js';

const root = cs.repoRoot;
const smoke = process.argv.includes('--smoke');
const devDir = join(root, '.vscode-test', 'dev'); // ignored; keeps settings between runs
const workspace = join(devDir, 'workspace');

/**
 * The one place to hand settings and environment to the extension under development.
 * They are written to the demo workspace's .vscode/settings.json and passed to VS Code's
 * extension host. The built-in sandbox starts with the extension (synthetic data on a loopback
 * port, a demo key, no credits), so every command works without a key or a network.
 */
function devConfig() {
  const settings = {
    'walletAnalytics.sandbox.autoStart': true,
    // The demo workspace sits inside this repository: no "open the parent git repository?" toast,
    // and no editor's own welcome page over the demo's README.
    'git.openRepositoryInParentFolders': 'never',
    'workbench.startupEditor': 'readme',
  };
  const env = {};
  return { settings, env };
}

function fail(msg) {
  console.error(`\nrun-dev: ${msg}`);
  process.exit(1);
}

function portIsFree(port) {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.once('error', () => resolve(false));
    srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(true)));
  });
}

const build = spawnSync(process.execPath, ['esbuild.mjs'], { cwd: root, stdio: 'inherit' });
if (build.status !== 0) fail('the build failed.');

const { settings, env } = devConfig();
mkdirSync(join(workspace, '.vscode'), { recursive: true });
writeFileSync(join(workspace, '.vscode', 'settings.json'), `${JSON.stringify(settings, null, 2)}\n`);
// The startup editor is read before the workspace's settings on a first launch in code-server:
// without it in the user settings too, VS Code for the Web's own walkthrough covered the demo's
// README on a fresh clone. Written only when the dev profile has no user settings of its own yet.
const userSettings = join(devDir, 'user-data', 'User', 'settings.json');
if (!existsSync(userSettings)) {
  mkdirSync(dirname(userSettings), { recursive: true });
  writeFileSync(userSettings, `${JSON.stringify({ 'workbench.startupEditor': 'readme', 'workbench.welcomePage.walkthroughs.openOnInstall': false }, null, 2)}\n`);
}
writeFileSync(
  join(workspace, 'README.md'),
  '# Wallet Analytics demo workspace\n\nOpen the Wallet Analytics view in the activity bar, or the command palette (F1) and type\n"Wallet Analytics" ("Wallet Analytics: Get Started" walks through it). The built-in sandbox starts with\nthe extension, the first time you use it ("WA Sandbox" then shows in the status bar): every command\nworks on synthetic data, with no key and no credits. `winners.waquery.json` is a Wallet Database\nquery: open it and press Ctrl+Enter.\n',
);
writeFileSync(
  join(workspace, 'winners.waquery.json'),
  `${JSON.stringify({ where: { and: [{ field: 'winrate_30d', op: '>=', value: 0.6 }] }, limit: 20 }, null, 2)}\n`,
);

// Rebuild on change (esbuild --watch), for both kinds of VS Code. code-server, once started, is
// stopped by scripts/code-server.js when this process exits or gets SIGINT/SIGTERM.
let watcher;
if (!smoke) watcher = spawn(process.execPath, ['esbuild.mjs', '--watch'], { cwd: root, stdio: 'inherit' });
process.on('exit', () => watcher?.kill('SIGTERM'));
for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => process.exit(0));

const desktop = !smoke && process.env.WA_DEV_BROWSER !== '1' && spawnSync('sh', ['-c', 'command -v code'], { encoding: 'utf8' }).status === 0;
if (desktop) {
  console.log(`run-dev: opening desktop VS Code with the extension from ${root}`);
  const code = spawn('code', ['--new-window', `--extensionDevelopmentPath=${root}`, workspace], {
    stdio: 'inherit',
    env: { ...process.env, ...env },
  });
  code.on('exit', () => console.log('run-dev: VS Code was started; esbuild keeps watching (Ctrl+C to stop).'));
} else {
  // code-server's system packages (and Chromium for --smoke): apt-get as root or with passwordless
  // sudo, else the one line to run.
  if (!systemDeps.ensureSystemDeps([smoke ? 'dev-smoke' : 'dev'])) fail('system packages are missing: run the line above, then `npm run dev` again.');
  try {
    cs.assertCodeServerInstalled();
  } catch {
    console.log('run-dev: installing code-server first (once).');
    const r = spawnSync(process.execPath, [join(root, 'scripts', 'install-code-server.mjs')], { stdio: 'inherit' });
    if (r.status !== 0) fail('code-server could not be installed.');
  }
  const wanted = Number(process.env.WA_DEV_PORT ?? 8377);
  const port = (await portIsFree(wanted)) ? wanted : await cs.freePort();
  const server = await cs.startCodeServer({ stateDir: devDir, folder: workspace, port, env }).catch((e) => fail(e.message));
  const url = cs.workbenchUrl(server.url, { folder: workspace, extensionDevelopmentPath: root });
  if (smoke) {
    const ok = await smokeTest(url).catch((e) => {
      console.error(`run-dev --smoke: ${e.message}`);
      return false;
    });
    await server.stop();
    process.exit(ok ? 0 : 1);
  }
  console.log(`\nWallet Analytics is running in code-server ${cs.CODE_SERVER_VERSION} (log: ${server.logPath}).`);
  console.log(`Open this URL in a browser on this machine:\n\n  ${url}\n`);
  console.log('esbuild rebuilds on change; run "Developer: Reload Window" to load it. Ctrl+C stops everything.');
}

/** Opens the dev URL in headless Chromium and checks the palette lists the extension's commands. */
async function smokeTest(url) {
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({ executablePath: cs.chromiumPath, args: [...cs.chromiumArgs], headless: true, timeout: 60_000 });
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(url, { timeout: 60_000 });
    await page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
    const deadline = Date.now() + 30_000;
    let labels = [];
    while (Date.now() < deadline) {
      await page.keyboard.press('F1');
      await page.keyboard.type('Wallet Analytics: Set API Key');
      await page.waitForTimeout(700);
      labels = await page.locator('.quick-input-list .label-name').allInnerTexts();
      if (labels.includes('Wallet Analytics: Set API Key')) break;
      await page.keyboard.press('Escape');
      await page.waitForTimeout(1000);
    }
    mkdirSync(join(root, 'test-results'), { recursive: true });
    await page.screenshot({ path: join(root, 'test-results', 'dev-smoke.png') });
    const ok = labels.includes('Wallet Analytics: Set API Key');
    console.log(`run-dev --smoke: ${ok ? 'ok' : 'FAILED'}; the palette shows ${JSON.stringify(labels)}`);
    return ok;
  } finally {
    await browser.close();
  }
}
