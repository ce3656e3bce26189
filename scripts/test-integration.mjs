// Runs the integration suite (out/test/integration/index.js, built by `node esbuild.mjs --tests`)
// inside a real VS Code extension host, with one of two launchers over the same suite:
//   electron     @vscode/test-electron's runTests(): downloads desktop VS Code (needs internet and a display)
//   code-server  code-server 4.100.3 (npm run setup:code-server) in headless Chromium, with the
//                extensionTestsPath payload; works offline
// Choice: CI=true → code-server, always. Otherwise WA_VSCODE_LAUNCHER=electron|code-server|auto
// (or --launcher=…), default auto: electron, falling back to code-server when VS Code cannot be
// downloaded. Either way the suite writes test-results/integration/{report.txt,results.json};
// this script prints report.txt as it grows and ends when results.json appears. The wait follows
// progress, not a total: it fails only when the report has not grown for WA_INTEGRATION_IDLE_S
// (default 300) seconds, i.e. the extension host never started or a test hangs past mocha's own
// timeout; a slow machine that keeps reporting tests is waited for.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync, appendFileSync, copyFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import cs from './code-server.js';

const root = cs.repoRoot;
const outDir = join(root, 'test-results', 'integration');
const reportFile = join(outDir, 'report.txt');
const resultsFile = join(outDir, 'results.json');
const testsEntry = join(root, 'out', 'test', 'integration', 'index.js');
const idleMs = Number(process.env.WA_INTEGRATION_IDLE_S ?? process.env.WA_INTEGRATION_TIMEOUT_S ?? 300) * 1000;
const VSCODE_VERSION = process.env.WA_VSCODE_VERSION ?? '1.100.3'; // the VS Code inside code-server 4.100.3

function fail(msg) {
  console.error(`\nintegration: ${msg}`);
  process.exit(1);
}

function chooseLauncher() {
  const arg = process.argv.find((a) => a.startsWith('--launcher='))?.slice('--launcher='.length);
  const wanted = arg ?? process.env.WA_VSCODE_LAUNCHER ?? 'auto';
  if (!['auto', 'electron', 'code-server'].includes(wanted)) fail(`unknown launcher "${wanted}" (auto, electron or code-server).`);
  if (process.env.CI === 'true') {
    if (wanted !== 'code-server' && wanted !== 'auto') console.log(`integration: CI=true, so code-server is used (not ${wanted}).`);
    return 'code-server';
  }
  return wanted;
}

/** Prints report.txt as it grows; returns a function that prints the rest and stops. */
function tailReport() {
  let printed = 0;
  const pump = () => {
    if (!existsSync(reportFile)) return;
    const text = readFileSync(reportFile, 'utf8');
    const end = text.lastIndexOf('\n') + 1; // whole lines only
    if (end > printed) {
      process.stdout.write(text.slice(printed, end));
      printed = end;
    }
  };
  const timer = setInterval(pump, 200);
  return () => {
    clearInterval(timer);
    pump();
  };
}

/** Resolves with results.json's content, or rejects when stop() says so or time runs out. */
async function waitForResults(stopped) {
  let lastSize = -1;
  let lastProgress = Date.now();
  for (;;) {
    if (existsSync(resultsFile)) return JSON.parse(readFileSync(resultsFile, 'utf8'));
    const why = stopped();
    if (why) throw new Error(why);
    const size = existsSync(reportFile) ? statSync(reportFile).size : -1;
    if (size !== lastSize) {
      lastSize = size;
      lastProgress = Date.now();
    }
    if (Date.now() - lastProgress > idleMs) {
      throw new Error(
        `The extension host stopped reporting: ${relative(root, reportFile)} did not grow for ${idleMs / 1000} s ` +
          `and there is no ${relative(root, resultsFile)} (set WA_INTEGRATION_IDLE_S to wait longer).`,
      );
    }
    await new Promise((r) => setTimeout(r, 250));
  }
}

function lastLines(file, n) {
  if (!existsSync(file)) return '(none)';
  return readFileSync(file, 'utf8').trimEnd().split('\n').slice(-n).join('\n');
}

async function runWithCodeServer() {
  const { chromium } = await import('playwright-core');
  if (!existsSync(cs.chromiumPath)) fail(`Chromium not found at ${cs.chromiumPath} (apt-get install -y chromium, or set CHROMIUM_PATH).`);
  try {
    cs.assertCodeServerInstalled();
  } catch (e) {
    fail(e.message);
  }
  const state = mkdtempSync(join(tmpdir(), 'wa-integration-'));
  const workspace = join(state, 'workspace');
  mkdirSync(workspace);
  writeFileSync(join(workspace, 'README.txt'), 'Workspace for the Wallet Analytics integration suite.\n');
  const consoleLog = join(outDir, 'browser-console.log');
  let server;
  let browser;
  let stopReason;
  const stopTail = tailReport();
  try {
    server = await cs.startCodeServer({
      stateDir: state,
      folder: workspace,
      env: { WA_INTEGRATION_OUT: outDir, WA_INTEGRATION_QUIET: '1', ...(process.env.WA_INTEGRATION_ONLY ? { WA_INTEGRATION_ONLY: process.env.WA_INTEGRATION_ONLY } : {}) },
    });
    browser = await chromium.launch({ executablePath: cs.chromiumPath, args: [...cs.chromiumArgs], headless: true, timeout: 60_000 });
    const page = await browser.newPage();
    page.on('console', (m) => appendFileSync(consoleLog, `[${m.type()}] ${m.text()}\n`));
    page.on('pageerror', (e) => appendFileSync(consoleLog, `[pageerror] ${e.message}\n`));
    page.on('crash', () => (stopReason = 'The workbench page crashed.'));
    browser.on('disconnected', () => (stopReason ??= 'Chromium exited.'));
    const url = cs.workbenchUrl(server.url, { folder: workspace, extensionDevelopmentPath: root, extensionTestsPath: testsEntry });
    console.log(`integration: code-server ${cs.CODE_SERVER_VERSION} on ${server.url} (pid ${server.pid}), Chromium ${browser.version()}`);
    await page.goto(url, { timeout: 60_000 });
    const t0 = Date.now();
    const results = await waitForResults(() => {
      if (stopReason) return stopReason;
      // code-server stays up; if it died, say so instead of waiting out the timeout.
      try {
        process.kill(server.pid, 0);
      } catch {
        return 'code-server exited while the suite was running.';
      }
      return undefined;
    });
    return { results, launcher: `code-server ${cs.CODE_SERVER_VERSION}`, wallMs: Date.now() - t0 };
  } catch (e) {
    stopTail();
    console.error(`\n--- last lines of the browser console (${relative(root, consoleLog)}) ---\n${lastLines(consoleLog, 30)}`);
    if (server) console.error(`--- last lines of code-server's log ---\n${lastLines(server.logPath, 30)}`);
    throw e;
  } finally {
    stopTail();
    await browser?.close().catch(() => {});
    if (server) {
      await server.stop();
      copyFileSync(server.logPath, join(outDir, 'code-server.log'));
      // The extension host logs (the extension's own log among them), for a look after a failure.
      spawnSync('cp', ['-r', join(state, 'user-data', 'logs'), join(outDir, 'logs')]);
    }
    rmSync(state, { recursive: true, force: true });
  }
}

class DownloadFailed extends Error {}

async function runWithElectron() {
  const { downloadAndUnzipVSCode, runTests } = await import('@vscode/test-electron');
  if (process.platform === 'linux' && !process.env.DISPLAY) {
    throw new DownloadFailed('no DISPLAY for desktop VS Code (run under xvfb-run, or use code-server)');
  }
  let vscodeExecutablePath;
  try {
    vscodeExecutablePath = await downloadAndUnzipVSCode({ version: VSCODE_VERSION, timeout: 20_000, cachePath: join(root, '.vscode-test') });
  } catch (e) {
    throw new DownloadFailed(e instanceof Error ? e.message : String(e));
  }
  const state = mkdtempSync(join(tmpdir(), 'wa-integration-'));
  const workspace = join(state, 'workspace');
  mkdirSync(workspace);
  const stopTail = tailReport();
  let exited;
  const t0 = Date.now();
  try {
    const run = runTests({
      vscodeExecutablePath,
      extensionDevelopmentPath: root,
      extensionTestsPath: testsEntry,
      extensionTestsEnv: { WA_INTEGRATION_OUT: outDir, WA_INTEGRATION_QUIET: '1' },
      launchArgs: [workspace, '--disable-extensions', '--disable-workspace-trust', '--password-store=basic', '--user-data-dir', join(state, 'user-data')],
    }).then(
      (code) => (exited = `VS Code exited with ${code}`),
      (e) => (exited = `VS Code failed: ${e instanceof Error ? e.message : String(e)}`),
    );
    const results = await waitForResults(() => (exited && !existsSync(resultsFile) ? `${exited} before the suite reported.` : undefined));
    await Promise.race([run, new Promise((r) => setTimeout(r, 30_000))]);
    return { results, launcher: `VS Code ${VSCODE_VERSION} (@vscode/test-electron)`, wallMs: Date.now() - t0 };
  } finally {
    stopTail();
    rmSync(state, { recursive: true, force: true });
  }
}

/**
 * After a failure, the tail of the extension's own log (its calls, polls and errors): a CI run
 * keeps only what this script prints, and a failure that shows only on a slower machine is
 * diagnosed from it. The log is redacted at the source (src/vscode/base/log.ts), so no key.
 */
function printExtensionLog() {
  const found = [];
  const walk = (dir) => {
    for (const e of existsSync(dir) ? readdirSync(dir, { withFileTypes: true }) : []) {
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.name === 'Wallet Analytics.log') found.push(p);
    }
  };
  walk(join(outDir, 'logs'));
  for (const f of found) console.log(`\n--- last lines of the extension's log (${relative(root, f)}) ---\n${lastLines(f, 80)}`);
}

// ---------------------------------------------------------------------------------------------

if (!existsSync(testsEntry) || !existsSync(join(root, 'dist', 'extension.js'))) {
  fail('the suite is not built: run `node esbuild.mjs --tests` first (npm test does).');
}
if (statSync(testsEntry).mtimeMs < Date.now() - 24 * 3600_000) console.log('integration: note, out/test/integration is over a day old.');
rmSync(outDir, { recursive: true, force: true });
mkdirSync(outDir, { recursive: true });

const launcher = chooseLauncher();
let outcome;
try {
  if (launcher === 'code-server') {
    outcome = await runWithCodeServer();
  } else {
    try {
      outcome = await runWithElectron();
    } catch (e) {
      if (!(e instanceof DownloadFailed)) throw e;
      if (launcher === 'electron') fail(`desktop VS Code is unavailable: ${e.message}`);
      console.log(`integration: desktop VS Code is unavailable (${e.message}); falling back to code-server.`);
      outcome = await runWithCodeServer();
    }
  }
} catch (e) {
  fail(e instanceof Error ? e.message : String(e));
}

const { results, launcher: used, wallMs } = outcome;
if (results.failures > 0) printExtensionLog();
if (results.crash) console.log(`\nThe suite crashed before or while running:\n${results.crash}`);
// The failed tests by name, after the log: a CI run shows only the tail of what is printed, and
// the summary (scripts/test-all.mjs) repeats these `✖` lines.
for (const f of results.failed ?? []) console.log(`✖ integration: ${f.title}: ${String(f.error).split('\n')[0].slice(0, 400)}`);
console.log(
  `integration (${used}, VS Code ${results.vscodeVersion}): ${results.passes} passing, ${results.failures} failing, ` +
    `${results.pending} pending in ${(wallMs / 1000).toFixed(1)} s`,
);
process.exit(results.failures > 0 || results.passes === 0 ? 1 : 0);
