// Shared by the installer, the integration launcher, the dev runner and the e2e helper:
// where code-server lives, how to start it on loopback, and how to open Chromium on it.
// Plain CommonJS so node scripts use it without a build; types are in code-server.d.ts.
'use strict';

const { spawn, spawnSync } = require('node:child_process');
const fs = require('node:fs');
const net = require('node:net');
const path = require('node:path');

const CODE_SERVER_VERSION = '4.100.3';
/** The repository root: the nearest folder up holding esbuild.mjs (this file is also bundled into out/test/). */
const repoRoot = (() => {
  for (let d = __dirname; ; d = path.dirname(d)) {
    if (fs.existsSync(path.join(d, 'esbuild.mjs')) && fs.existsSync(path.join(d, 'package.json'))) return d;
    if (path.dirname(d) === d) throw new Error(`No repository root above ${__dirname}`);
  }
})();
/** WA_CODE_SERVER_DIR puts it elsewhere (to time an install without touching the one in use). */
const codeServerDir = process.env.WA_CODE_SERVER_DIR ? path.resolve(process.env.WA_CODE_SERVER_DIR) : path.join(repoRoot, '.vscode-test', 'code-server');
const codeServerEntry = path.join(codeServerDir, 'out', 'node', 'entry.js');
/** Written last by the installer; its content is the installed version. */
const codeServerMarker = path.join(codeServerDir, '.installed-version');
/** Written by the installer's download stage (`--fetch-only`), which needs no compiler. */
const codeServerFetchedMarker = path.join(codeServerDir, '.fetched-version');

/**
 * The native modules to compile for code-server on this platform, by the folder (under
 * codeServerDir) whose node_modules holds them. Not the ones whose binding.gyp has sources for
 * Windows only (@vscode/windows-process-tree, @vscode/windows-registry, @vscode/deviceid: VS Code
 * loads them on Windows only; elsewhere node-gyp links an empty module), nor @parcel/watcher (its
 * prebuilt @parcel/watcher-linux-* package comes with npm install). Each is built in its own
 * process, side by side: one `npm rebuild` builds them one after another.
 *   verify: what loads it once built (kerberos: VS Code loads it for a proxy's Negotiate auth).
 */
function nativeBuilds(platform = process.platform) {
  const vs = 'lib/vscode';
  const all = [
    { dir: '.', name: 'argon2', why: "code-server's password hashing: its util.js loads it at start, whatever --auth" },
    { dir: vs, name: 'node-pty', why: "the terminal (npm run dev's window)" },
    { dir: vs, name: '@vscode/spdlog', why: "VS Code's log files" },
    { dir: vs, name: 'kerberos', why: "a proxy's Kerberos (Negotiate) authentication" },
    { dir: vs, name: 'native-watchdog', why: 'the extension host ends when its parent does' },
    { dir: vs, name: '@vscode/windows-process-tree', why: 'process trees on Windows', windowsOnly: true },
    { dir: vs, name: '@vscode/windows-registry', why: 'the registry on Windows', windowsOnly: true },
    { dir: vs, name: '@vscode/deviceid', why: "the device id in Windows' registry", windowsOnly: true },
  ];
  return all.filter((m) => platform === 'win32' || !m.windowsOnly).map((m) => ({ dir: m.dir, name: m.name, why: m.why }));
}

/**
 * Debian's chromium-headless-shell (the "old" headless Chromium, as Playwright's own headless
 * runs use) before the full browser: the same Blink and V8 without the browser's own UI, so a
 * workbench window costs about two thirds of the CPU (10.3 against 15.5 CPU-s a window, three
 * interleaved rounds at a load of 12-16), and the e2e tier is CPU-bound. The full chromium is
 * still used where it is the only one installed.
 */
const headlessShell = '/usr/bin/chromium-headless-shell';
const chromiumPath = process.env.CHROMIUM_PATH || (fs.existsSync(headlessShell) || !fs.existsSync('/usr/bin/chromium') ? headlessShell : '/usr/bin/chromium');
/**
 * Flags from docs/vscode-offline-testing.md, plus a host-resolver rule so the browser can
 * reach nothing but IP literals (code-server is always addressed as 127.0.0.1).
 */
const chromiumArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
  '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1',
];

function isCodeServerInstalled() {
  try {
    return fs.readFileSync(codeServerMarker, 'utf8').trim() === CODE_SERVER_VERSION && fs.existsSync(codeServerEntry);
  } catch {
    return false;
  }
}

/** Fails with the command to run when code-server is missing. */
function assertCodeServerInstalled() {
  if (!isCodeServerInstalled()) {
    throw new Error(
      `code-server ${CODE_SERVER_VERSION} is not installed in ${path.relative(repoRoot, codeServerDir)}. ` +
        'Run `npm run setup:code-server` (needs apt packages libkrb5-dev and ripgrep).',
    );
  }
}

/** A TCP port that was free on 127.0.0.1 a moment ago. */
function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      srv.close(() => resolve(addr.port));
    });
  });
}

/**
 * Environment for a code-server child: its config and data under `stateDir` (never ~/.config),
 * and gallery/telemetry pointed at a closed loopback port so nothing leaves the machine.
 */
function codeServerEnv(stateDir, extra) {
  const closed = 'http://127.0.0.1:9';
  return {
    ...process.env,
    XDG_CONFIG_HOME: path.join(stateDir, 'xdg-config'),
    XDG_DATA_HOME: path.join(stateDir, 'xdg-data'),
    EXTENSIONS_GALLERY: JSON.stringify({
      serviceUrl: `${closed}/gallery`,
      itemUrl: `${closed}/item`,
      resourceUrlTemplate: `${closed}/asset/{publisher}/{name}/{version}/{path}`,
      controlUrl: '',
      recommendationsUrl: '',
    }),
    CS_TELEMETRY_URL: `${closed}/telemetry`,
    // The server takes this environment as it is (what VS Code does when started from a shell)
    // instead of running a login shell to read one for each server's first extension host and
    // terminal: under load that shell timed out after 10 s ("Unable to resolve your shell
    // environment", 5 of 19 windows' logs in a full run) and the extension host waited for it.
    VSCODE_CLI: '1',
    ...extra,
  };
}

function baseArgs(o) {
  return [
    '--auth',
    'none',
    '--config',
    path.join(o.stateDir, 'config.yaml'),
    '--user-data-dir',
    o.userDataDir ?? path.join(o.stateDir, 'user-data'),
    '--extensions-dir',
    o.extensionsDir ?? path.join(o.stateDir, 'extensions'),
    '--disable-telemetry',
    '--disable-update-check',
    // Trust is off unless a test is about Restricted Mode (o.workspaceTrust).
    ...(o.workspaceTrust ? [] : ['--disable-workspace-trust']),
    '--disable-getting-started-override',
  ];
}

/** Installs a .vsix into the extensions dir with code-server's own CLI (as a person would). */
function installVsix(o) {
  assertCodeServerInstalled();
  const r = spawnSync(process.execPath, [codeServerEntry, ...baseArgs(o), '--install-extension', o.vsix], {
    env: codeServerEnv(o.stateDir, o.env),
    encoding: 'utf8',
    timeout: o.timeoutMs ?? 120_000,
  });
  const out = `${r.stdout ?? ''}${r.stderr ?? ''}`;
  if (r.error || r.status !== 0 || !/successfully installed/i.test(out)) {
    throw new Error(
      `code-server --install-extension ${o.vsix} failed (status ${r.status}${r.error ? `, ${r.error.message}` : ''}):\n${out}`,
    );
  }
  return out;
}

/**
 * The same install without blocking this process (scripts/test-e2e.mjs adds a lane while other
 * lanes run: a synchronous install would hold their output and their next file meanwhile).
 */
function installVsixAsync(o) {
  assertCodeServerInstalled();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [codeServerEntry, ...baseArgs(o), '--install-extension', o.vsix], {
      env: codeServerEnv(o.stateDir, o.env),
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true, // its own group, as track() ends it on exit
    });
    track(child);
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    const timer = setTimeout(() => killGroup(child), o.timeoutMs ?? 120_000);
    child.on('error', (e) => {
      clearTimeout(timer);
      reject(new Error(`code-server --install-extension ${o.vsix} failed: ${e.message}`));
    });
    child.on('close', (status) => {
      clearTimeout(timer);
      if (status === 0 && /successfully installed/i.test(out)) resolve(out);
      else reject(new Error(`code-server --install-extension ${o.vsix} failed (status ${status}):\n${out}`));
    });
  });
}

/** Starts code-server on 127.0.0.1 and resolves once /healthz answers. */
async function startCodeServer(o) {
  // The installer starts it once before writing the marker, to verify the install.
  if (!o.beforeMarker) assertCodeServerInstalled();
  fs.mkdirSync(o.stateDir, { recursive: true });
  const port = o.port ?? (await freePort());
  const args = [codeServerEntry, ...baseArgs(o), '--bind-addr', `127.0.0.1:${port}`, ...(o.extraArgs ?? [])];
  if (o.folder) args.push(o.folder);
  const logPath = path.join(o.stateDir, 'code-server.log');
  const log = fs.createWriteStream(logPath);
  // Own process group, so stop() ends code-server together with its extension hosts.
  const child = spawn(process.execPath, args, {
    env: codeServerEnv(o.stateDir, o.env),
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  track(child);
  let output = '';
  const onData = (d) => {
    output += d.toString();
    log.write(d);
    if (o.echo) process.stdout.write(d);
  };
  child.stdout.on('data', onData);
  child.stderr.on('data', onData);
  let exited = null;
  const exitPromise = new Promise((resolve) => child.on('exit', (code, signal) => resolve((exited = { code, signal }))));

  const url = `http://127.0.0.1:${port}/`;
  const deadline = Date.now() + (o.timeoutMs ?? 60_000);
  for (;;) {
    if (exited) {
      log.end();
      throw new Error(`code-server exited before it was ready (${JSON.stringify(exited)}). Its output:\n${output}`);
    }
    if (Date.now() > deadline) {
      killGroup(child);
      log.end();
      throw new Error(`code-server did not answer on ${url}healthz within ${o.timeoutMs ?? 60_000} ms. Its output:\n${output}`);
    }
    try {
      const res = await fetch(`${url}healthz`, { signal: AbortSignal.timeout(2000) });
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }

  return {
    url,
    port,
    pid: child.pid,
    logPath,
    output: () => output,
    async stop() {
      if (!exited) {
        killGroup(child, 'SIGTERM');
        const t = setTimeout(() => killGroup(child, 'SIGKILL'), 5000);
        await exitPromise;
        clearTimeout(t);
      }
      log.end();
    },
  };
}

/**
 * code-server runs in its own process group (so stop() ends its extension hosts too), which also
 * means a signal to ours does not reach it. Until stopped, each one is killed when this process
 * exits or is told to stop, so no code-server outlives the test or script that started it.
 */
const running = new Set();
let exitHooked = false;
function track(child) {
  running.add(child);
  child.on('exit', () => running.delete(child));
  if (exitHooked) return;
  exitHooked = true;
  process.on('exit', () => {
    for (const c of running) killGroup(c);
  });
  for (const [sig, code] of [['SIGINT', 130], ['SIGTERM', 143], ['SIGHUP', 129]]) {
    process.once(sig, () => {
      for (const c of running) killGroup(c);
      process.exit(code);
    });
  }
}

function killGroup(child, signal = 'SIGKILL') {
  try {
    process.kill(-child.pid, signal);
  } catch {
    // already gone
  }
}

/**
 * The workbench URL. With extensionDevelopmentPath/extensionTestsPath it carries the same
 * payload VS Code's `--extensionDevelopmentPath`/`--extensionTestsPath` would (see the doc).
 */
function workbenchUrl(base, o) {
  const u = new URL(base);
  const remote = (p) => `vscode-remote://${u.host}${p}`;
  if (o.folder) u.searchParams.set('folder', o.folder);
  const payload = [];
  if (o.extensionDevelopmentPath) payload.push(['extensionDevelopmentPath', remote(o.extensionDevelopmentPath)]);
  if (o.extensionTestsPath) payload.push(['extensionTestsPath', remote(o.extensionTestsPath)]);
  if (payload.length) u.searchParams.set('payload', JSON.stringify(payload));
  return u.toString();
}

module.exports = {
  CODE_SERVER_VERSION,
  repoRoot,
  codeServerDir,
  codeServerEntry,
  codeServerMarker,
  codeServerFetchedMarker,
  nativeBuilds,
  chromiumPath,
  chromiumArgs,
  isCodeServerInstalled,
  assertCodeServerInstalled,
  freePort,
  installVsix,
  installVsixAsync,
  startCodeServer,
  workbenchUrl,
};
