// The system packages `npm test` and `npm run dev` need, installed the way `playwright install
// --with-deps` does it, so the README's two commands are the whole set-up on a fresh Debian/Ubuntu
// machine: missing packages are installed with apt-get as root or with passwordless sudo (saying
// what each is for); otherwise the one line to run is printed and the caller stops.
// planSystemDeps() is pure (facts in, plan out) so the unit tests can drive every case;
// gatherFacts() and ensureSystemDeps() read the machine and run apt-get.
// Plain CommonJS so node scripts use it without a build; types are in system-deps.d.ts.
//   node scripts/system-deps.js [--for=integration,e2e,dev,dev-smoke] [--dry-run]
//   WA_SETUP_PRETEND_MISSING=ripgrep,…  treat these packages as missing (to try the install path on a
//                                       machine that has everything; apt-get install of an installed
//                                       package changes nothing)
//   WA_APT_LOCK_WAIT_S=600               how long to wait for another apt/dpkg (a new machine's
//                                       unattended upgrades) to release the package lock
'use strict';

const { spawnSync } = require('node:child_process');
const fs = require('node:fs');

/**
 * What needs each package, by purpose:
 *   build   only to install code-server (its native modules are compiled: node-pty, spdlog,
 *           kerberos, argon2, @parcel/watcher); not needed once .vscode-test/code-server is built
 *   server  to run code-server
 *   browser headless Chromium, which drives code-server's workbench
 *   snippets the tools the unit tier runs generated code with: each Copy as Code snippet, against the
 *           sandbox (test/unit/core/codegen/snippetsSandbox.test.ts), and an Open in Notebook notebook's pandas
 *           cell (test/unit/core/codegen/notebook.test.ts): without them those tests could only skip. DuckDB,
 *           which the notebook's other cell uses, has no Debian package: that test skips without it.
 * Not here, on purpose: git (no git dependency in package-lock.json or code-server's shrinkwraps),
 * ca-certificates (npm and node-gyp use Node's own CA store), fonts-dejavu-core (Chromium's
 * fontconfig dependency brings a font already; Liberation is what --no-install-recommends skips).
 */
const PACKAGES = [
  { name: 'chromium-headless-shell', purpose: 'browser', why: "the headless browser that drives code-server's workbench (e2e, the integration tier's code-server launcher, npm run dev --smoke); the headless shell, not the full chromium: a window costs two thirds of the CPU" },
  { name: 'fonts-liberation', purpose: 'browser', why: "Chromium's fonts (a Recommends that --no-install-recommends skips), so screenshots show legible text" },
  { name: 'ripgrep', purpose: 'server', why: "code-server's search (the system rg is linked in; the npm package would download it from GitHub)" },
  { name: 'build-essential', purpose: 'build', why: "make and g++, to compile code-server's native modules (node-pty, spdlog, kerberos, argon2)" },
  { name: 'python3', purpose: 'build', why: 'node-gyp, which compiles those native modules, runs on Python' },
  { name: 'libkrb5-dev', purpose: 'build', why: "the Kerberos headers code-server's kerberos module is compiled against" },
  { name: 'python3-pandas', purpose: 'snippets', why: "the unit tier runs an Open in Notebook notebook's pandas code and compares its rows with the table's" },
  { name: 'python3-nbformat', purpose: 'snippets', why: "the unit tier validates an Open in Notebook file with Jupyter's own nbformat.validate" },
];

/**
 * The unit files that run what the `snippets` packages bring (Python with pandas and nbformat; the
 * Copy as Code snippets through test/unit/fixtures/runSnippet.ts), by their path under test/unit:
 * npm test starts the unit tier before apt-get has ended and these once it has
 * (scripts/test-unit.mjs --hold).
 */
const UNIT_FILES_NEEDING_PACKAGES = ['core/codegen/notebook.test', 'core/codegen/snippets.test', 'core/codegen/snippetsSandbox.test'];

/** Whether a unit test file (test/unit/…/x.test.ts, or its build out/test/unit/…/x.test.js) is one of those. */
function unitFileNeedsPackages(file) {
  const m = /(?:^|[\\/])test[\\/]unit[\\/](.+)\.[jt]s$/u.exec(String(file));
  return m !== null && UNIT_FILES_NEEDING_PACKAGES.includes(m[1].replace(/\\/gu, '/'));
}

/**
 * What a task needs from the system:
 *   codeServer  code-server is started (so it must be installed, and run)
 *   browser     headless Chromium is started
 * integration: only its code-server launcher needs anything; the electron launcher downloads
 * desktop VS Code. The choice mirrors scripts/test-integration.mjs: CI=true → code-server;
 * otherwise WA_VSCODE_LAUNCHER (default auto: electron, which on Linux needs a DISPLAY).
 * dev: nothing with a desktop `code` on PATH; otherwise code-server, and Chromium only for --smoke
 * (the developer opens the printed URL in their own browser).
 */
function needsFor(tasks, { ci, launcher, platform, display, desktopCode, devBrowser }) {
  const need = { codeServer: false, browser: false, snippets: false, why: [] };
  const add = (task, reason, browser) => {
    need.codeServer = true;
    if (browser) need.browser = true;
    need.why.push(`${task}: ${reason}`);
  };
  for (const task of tasks) {
    if (task === 'e2e') add('e2e', 'the .vsix is tested in code-server, driven from Chromium', true);
    else if (task === 'integration') {
      const wanted = launcher || 'auto';
      const electronUnusable = platform === 'linux' && !display;
      if (ci) add('integration', 'CI=true runs it in code-server, in Chromium', true);
      else if (wanted === 'code-server') add('integration', 'WA_VSCODE_LAUNCHER=code-server, in Chromium', true);
      else if (wanted === 'auto' && electronUnusable) add('integration', 'no DISPLAY for desktop VS Code, so code-server, in Chromium', true);
    } else if (task === 'dev' || task === 'dev-smoke') {
      const smoke = task === 'dev-smoke';
      if (smoke || devBrowser || !desktopCode) add(task, smoke ? 'code-server, checked in headless Chromium' : 'no desktop `code` on PATH, so code-server', smoke);
    } else if (task === 'unit') {
      need.snippets = true;
      need.why.push('unit: the notebook tests run pandas and nbformat (the Copy as Code snippets run the runner with plain Python 3)');
    } else if (task !== 'checks') {
      throw new Error(`system-deps: unknown task "${task}"`);
    }
  }
  return need;
}

const q = (s) => (/^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);

/**
 * The plan, from facts only:
 *   facts.platform          process.platform
 *   facts.distro            { id, idLike } from /etc/os-release (Linux), or undefined
 *   facts.need              from needsFor()
 *   facts.codeServerInstalled  the build packages are needed only before code-server is built
 *   facts.present           names from PACKAGES that are installed (dpkg, or found on the system)
 *   facts.uid, facts.sudo   root, or `sudo -n true` succeeds
 *   facts.apt               apt-get and dpkg-query are there
 * Returns one of
 *   { action: 'none', message }
 *   { action: 'install', packages, commands: [argv…], message }   run commands in order
 *   { action: 'fail', packages, line, message }                   print message (holds line), stop
 *   { action: 'advise', message }   not Linux: nothing can be checked here; say what is needed
 */
function planSystemDeps(facts) {
  const { need } = facts;
  if (!need.codeServer && !need.browser && !need.snippets) return { action: 'none', packages: [], message: 'system packages: none needed for this run.' };

  const purposes = new Set();
  if (need.browser) purposes.add('browser');
  if (need.snippets) purposes.add('snippets');
  if (need.codeServer) {
    purposes.add('server');
    if (!facts.codeServerInstalled) purposes.add('build');
  }
  const wanted = PACKAGES.filter((p) => purposes.has(p.purpose));

  if (facts.platform !== 'linux') {
    const lines = [
      `system packages: apt-get is for Debian/Ubuntu, and this is ${facts.platform}; nothing is installed for you. This run needs:`,
      ...need.why.map((w) => `  - ${w}`),
    ];
    if (need.browser) lines.push('  - Chromium or Google Chrome, with CHROMIUM_PATH set to its executable;');
    if (need.snippets) lines.push('  - Python 3 with pandas and nbformat, for the Copy as Code and notebook tests (without them those tests fail);');
    if (need.codeServer) {
      lines.push('  - ripgrep (`rg` on PATH: brew install ripgrep / winget install BurntSushi.ripgrep.MSVC);');
      if (!facts.codeServerInstalled) lines.push('  - a C++ toolchain and Python 3 for code-server\'s native modules (xcode-select --install on macOS).');
    }
    lines.push('  With a desktop VS Code the integration tier needs none of this (its electron launcher); see the README, Requirements.');
    return { action: 'advise', packages: wanted.map((p) => p.name), message: lines.join('\n') };
  }

  const present = new Set(facts.present);
  const ubuntu = facts.distro && [facts.distro.id, ...String(facts.distro.idLike || '').split(/\s+/)].includes('ubuntu');
  const missing = wanted.filter((p) => !present.has(p.name));
  if (missing.length === 0) {
    return { action: 'none', packages: [], message: `system packages: all present (${wanted.map((p) => p.name).join(' ')}).` };
  }

  // Ubuntu has no chromium .deb (chromium-browser installs a snap, which cannot run here headless
  // under a test runner); Playwright's own Chromium build works there.
  const noApt = ubuntu ? missing.filter((p) => p.name === 'chromium-headless-shell') : [];
  const viaApt = missing.filter((p) => !noApt.includes(p));
  const whyLines = missing.map((p) => `  ${p.name.padEnd(17)} ${p.why}`);
  const ubuntuChromium =
    'Chromium: Ubuntu packages it as a snap only. Run `npx playwright-core install chromium-headless-shell`, then set ' +
    'CHROMIUM_PATH to the headless shell it installed (under ~/.cache/ms-playwright/), or point CHROMIUM_PATH at any Chromium or Chrome.';

  const aptLine = `apt-get install -y --no-install-recommends ${viaApt.map((p) => q(p.name)).join(' ')}`;
  const root = facts.uid === 0;
  if (viaApt.length > 0 && facts.apt && (root || facts.sudo)) {
    const pre = root ? [] : ['sudo', '-n'];
    const env = ['env', 'DEBIAN_FRONTEND=noninteractive'];
    const commands = [
      [...pre, ...env, 'apt-get', 'update', '-q'],
      [...pre, ...env, 'apt-get', 'install', '-y', '-q', '--no-install-recommends', ...viaApt.map((p) => p.name)],
    ];
    const message = [`system packages: installing ${viaApt.length} with apt-get${root ? '' : ' (sudo)'}:`, ...viaApt.map((p) => `  ${p.name.padEnd(17)} ${p.why}`)];
    if (noApt.length) message.push(`and one apt cannot install: ${ubuntuChromium}`);
    return { action: 'install', packages: viaApt.map((p) => p.name), commands, manual: noApt.map((p) => p.name), message: message.join('\n') };
  }

  const lines = ['system packages: missing, and this script cannot install them:', ...whyLines];
  let line = '';
  if (viaApt.length > 0 && !facts.apt) {
    lines.push(
      "apt-get is not on this system: install these with your distribution's package manager (the names above are Debian's),",
      'then run the same npm command again.',
    );
  } else if (viaApt.length > 0) {
    line = `sudo apt-get update && sudo ${aptLine}`;
    lines.push('This is not root, and sudo asks for a password (or is not installed). Run this once, then the same npm command again:', '', `  ${line}`, '');
  }
  if (noApt.length) lines.push(ubuntuChromium);
  return { action: 'fail', packages: missing.map((p) => p.name), line, message: lines.join('\n') };
}

// ---------------------------------------------------------------------------------------------
// Reading the machine.

function has(cmd) {
  return spawnSync('sh', ['-c', `command -v ${cmd}`], { stdio: 'ignore' }).status === 0;
}

function readDistro() {
  try {
    const text = fs.readFileSync('/etc/os-release', 'utf8');
    const get = (k) => new RegExp(`^${k}="?([^"\\n]*)"?$`, 'm').exec(text)?.[1];
    return { id: get('ID') ?? '', idLike: get('ID_LIKE') ?? '' };
  } catch {
    return undefined;
  }
}

/** Installed per dpkg; or, where the package is not from dpkg, found where the scripts look for it. */
function presentPackages(chromiumPath, dpkg) {
  const probes = {
    'chromium-headless-shell': () => fs.existsSync(chromiumPath),
    ripgrep: () => has('rg'),
    python3: () => has('python3'),
    'build-essential': () => has('make') && has('g++'),
    'libkrb5-dev': () => fs.existsSync('/usr/include/krb5.h') || fs.existsSync('/usr/include/gssapi/gssapi.h'),
    // Debian's python3 or the one on PATH: test/unit/fixtures/runSnippet.ts and notebook.test.ts try both.
    'python3-pandas': () => ['python3', '/usr/bin/python3'].some((py) => spawnSync(py, ['-c', 'import pandas'], { stdio: 'ignore' }).status === 0),
    'python3-nbformat': () => ['python3', '/usr/bin/python3'].some((py) => spawnSync(py, ['-c', 'import nbformat'], { stdio: 'ignore' }).status === 0),
    'fonts-liberation': () => ['/usr/share/fonts/truetype/liberation', '/usr/share/fonts/liberation-sans'].some((d) => fs.existsSync(d)),
  };
  const installed = new Set();
  if (dpkg) {
    const r = spawnSync('dpkg-query', ['-W', '-f=${Package} ${db:Status-Status}\\n', ...PACKAGES.map((p) => p.name)], { encoding: 'utf8' });
    for (const l of (r.stdout || '').split('\n')) {
      const [name, status] = l.split(' ');
      if (status === 'installed') installed.add(name);
    }
  }
  return PACKAGES.map((p) => p.name).filter((n) => installed.has(n) || probes[n]());
}

/** Everything planSystemDeps() needs, read from this machine, for these tasks. */
function gatherFacts(tasks, env = process.env) {
  const cs = require('./code-server.js');
  const linux = process.platform === 'linux';
  const apt = linux && has('apt-get') && has('dpkg-query');
  const uid = typeof process.getuid === 'function' ? process.getuid() : -1;
  const need = needsFor(tasks, {
    ci: env.CI === 'true',
    launcher: env.WA_VSCODE_LAUNCHER,
    platform: process.platform,
    display: Boolean(env.DISPLAY || env.WAYLAND_DISPLAY),
    desktopCode: has('code'),
    devBrowser: env.WA_DEV_BROWSER === '1',
  });
  const pretend = new Set((env.WA_SETUP_PRETEND_MISSING || '').split(',').map((s) => s.trim()).filter(Boolean));
  const present = linux ? presentPackages(cs.chromiumPath, has('dpkg-query')).filter((n) => !pretend.has(n)) : [];
  return {
    platform: process.platform,
    distro: linux ? readDistro() : undefined,
    need,
    codeServerInstalled: cs.isCodeServerInstalled(),
    present,
    uid,
    sudo: uid !== 0 && linux && has('sudo') && spawnSync('sudo', ['-n', 'true'], { stdio: 'ignore' }).status === 0,
    apt,
  };
}

// ---------------------------------------------------------------------------------------------
// The package lock. On a new machine unattended upgrades run apt for minutes after boot, and
// apt-get fails at once when another apt or dpkg holds the lock (a fresh clone's `npm test` failed
// so, issue 31.5): each apt-get waits for the lock first, with a bound, saying so.

/** The locks apt-get and dpkg take (fcntl locks): the frontend's, dpkg's, the lists' and the archives'. */
const LOCK_FILES = ['/var/lib/dpkg/lock-frontend', '/var/lib/dpkg/lock', '/var/lib/apt/lists/lock', '/var/cache/apt/archives/lock'];
const LOCK_WAIT_MS = 10 * 60_000;

function lockWaitMs(env = process.env) {
  const s = env.WA_APT_LOCK_WAIT_S ? Number(env.WA_APT_LOCK_WAIT_S) : NaN;
  return Number.isFinite(s) && s >= 0 ? s * 1000 : LOCK_WAIT_MS;
}

/** A device number as /proc/locks writes it, `major:minor` in hex (Linux's new encoding of st_dev). */
function devText(dev) {
  const d = BigInt(dev);
  const major = ((d >> 8n) & 0xfffn) | ((d >> 32n) & ~0xfffn);
  const minor = (d & 0xffn) | ((d >> 12n) & ~0xffn);
  return `${major.toString(16).padStart(2, '0')}:${minor.toString(16).padStart(2, '0')}`;
}

/**
 * Who holds a package lock now, or undefined: the fcntl locks in /proc/locks matched against the
 * lock files' device and inode, so it needs neither root nor fuser/lsof (which a new machine may
 * lack). The reads are parameters so the unit tests give their own.
 */
function packageLockHolder({
  files = LOCK_FILES,
  readLocks = () => fs.readFileSync('/proc/locks', 'utf8'),
  stat = (f) => fs.statSync(f),
  comm = (pid) => fs.readFileSync(`/proc/${pid}/comm`, 'utf8').trim(),
} = {}) {
  let text;
  try {
    text = readLocks();
  } catch {
    return undefined; // not Linux, or no /proc: apt-get's own lock timeout still applies
  }
  const held = new Map(); // "maj:min:ino" → pid
  for (const line of text.split('\n')) {
    // "1: POSIX  ADVISORY  WRITE 8898 fe:00:15343617 0 EOF" (a blocked waiter's line has "->")
    const m = /^\d+:\s+(?:POSIX|OFDLCK|FLOCK)\s+\S+\s+\S+\s+(-?\d+)\s+([0-9a-f]+:[0-9a-f]+):(\d+)\s/u.exec(line);
    if (m) held.set(`${m[2]}:${m[3]}`, Number(m[1]));
  }
  for (const file of files) {
    let st;
    try {
      st = stat(file);
    } catch {
      continue;
    }
    const pid = held.get(`${devText(st.dev)}:${st.ino}`);
    if (pid === undefined) continue;
    let name = '';
    try {
      name = pid > 0 ? comm(pid) : '';
    } catch {
      // the holder has just ended
    }
    return { file, pid, name };
  }
  return undefined;
}

/** Sleeps without an event loop: ensureSystemDeps is synchronous (apt-get runs with spawnSync). */
function sleepSync(ms) {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

const holderText = (h) => `${h.name || 'another process'}${h.pid > 0 ? ` (pid ${h.pid})` : ''} holds ${h.file}`;
const secondsText = (ms) => (ms >= 120_000 ? `${Math.round(ms / 60_000)} minutes` : `${Math.round(ms / 1000)} s`);

/**
 * Waits until no package lock is held, checking every everyMs, for at most boundMs: says that it
 * waits and who holds the lock, again every reportEveryMs (a runner that prints nothing for a while
 * is taken for stalled), and when the lock is free. Returns { ok, waitedMs, holder? } (ok false:
 * still held at the bound). The check, the sleep and the clock are parameters for the unit tests.
 */
function waitForPackageLock({
  holder = () => packageLockHolder(),
  sleep = sleepSync,
  now = Date.now,
  log = console.log,
  boundMs = LOCK_WAIT_MS,
  everyMs = 2_000,
  reportEveryMs = 30_000,
} = {}) {
  let h = holder();
  if (!h) return { ok: true, waitedMs: 0 };
  const start = now();
  let reported = start;
  log(
    `system packages: waiting for the package lock: ${holderText(h)} (on a new machine, unattended upgrades run for a few minutes); ` +
      `waiting up to ${secondsText(boundMs)}.`,
  );
  for (;;) {
    const waited = now() - start;
    if (waited >= boundMs) {
      log(
        `system packages: the package lock is still held after ${secondsText(waited)}: ${holderText(h)}. ` +
          'Run the same npm command again once it has finished (WA_APT_LOCK_WAIT_S sets how long to wait).',
      );
      return { ok: false, waitedMs: waited, holder: h };
    }
    sleep(Math.min(everyMs, boundMs - waited));
    h = holder();
    if (!h) {
      const w = now() - start;
      log(`system packages: the package lock is free (waited ${secondsText(w)}).`);
      return { ok: true, waitedMs: w };
    }
    if (now() - reported >= reportEveryMs) {
      reported = now();
      log(`system packages: still waiting for the package lock (${secondsText(reported - start)}): ${holderText(h)}.`);
    }
  }
}

/**
 * Runs the plan's apt-get commands in order, each after the package lock is free; a command that
 * fails while the lock is held again (taken between the check and apt-get) is run once more after
 * the wait. apt-get itself is also told to wait for dpkg's lock (DPkg::Lock::Timeout). One bound
 * for all the waiting. The runner and the wait are parameters for the unit tests.
 */
function runAptCommands(
  commands,
  { log = console.log, boundMs = LOCK_WAIT_MS, holder = () => packageLockHolder(), wait = waitForPackageLock, run = runInherit, now = Date.now } = {},
) {
  const start = now();
  const left = () => Math.max(0, boundMs - (now() - start));
  for (const plain of commands) {
    const at = plain.indexOf('apt-get');
    const argv = at < 0 ? plain : [...plain.slice(0, at + 1), '-o', `DPkg::Lock::Timeout=${Math.ceil(left() / 1000)}`, ...plain.slice(at + 1)];
    for (let attempt = 1; ; attempt++) {
      if (!wait({ holder, log, boundMs: left() }).ok) return false;
      log(`  $ ${argv.map(q).join(' ')}`);
      const r = run(argv);
      if (r.status === 0) break;
      const again = attempt === 1 && holder() !== undefined;
      log(`system packages: \`${plain.join(' ')}\` failed (${r.error ? r.error.message : `exit ${r.status ?? r.signal}`})${again ? '; the package lock was taken meanwhile, so once more after it is free' : ''}.`);
      if (!again) return false;
    }
  }
  return true;
}

function runInherit(argv) {
  return spawnSync(argv[0], argv.slice(1), { stdio: 'inherit', timeout: 20 * 60_000 });
}

/**
 * Reads the machine, prints the plan and carries it out. Returns true when the run can go on
 * (nothing missing, installed now, or not Linux: advice only); false after printing what to run.
 */
function ensureSystemDeps(tasks, { dryRun = false, log = console.log, env = process.env } = {}) {
  const plan = planSystemDeps(gatherFacts(tasks, env));
  if (plan.action === 'none' || plan.action === 'advise') {
    log(plan.message);
    return true;
  }
  if (plan.action === 'fail') {
    log(plan.message);
    return false;
  }
  log(plan.message);
  if (dryRun) {
    for (const argv of plan.commands) log(`  $ ${argv.map(q).join(' ')}`);
  } else if (!runAptCommands(plan.commands, { log, boundMs: lockWaitMs(env) })) {
    return false;
  }
  if (plan.manual && plan.manual.length) return false;
  if (!dryRun) log(`system packages: installed ${plan.packages.join(' ')}.`);
  return true;
}

module.exports = { PACKAGES, UNIT_FILES_NEEDING_PACKAGES, unitFileNeedsPackages, needsFor, planSystemDeps, gatherFacts, ensureSystemDeps, packageLockHolder, waitForPackageLock, runAptCommands };

if (require.main === module) {
  const forArg = process.argv.find((a) => a.startsWith('--for='));
  const tasks = forArg ? forArg.slice('--for='.length).split(',').filter(Boolean) : ['integration', 'e2e'];
  const ok = ensureSystemDeps(tasks, { dryRun: process.argv.includes('--dry-run') });
  process.exit(ok ? 0 : 1);
}
