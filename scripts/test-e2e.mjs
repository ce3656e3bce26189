// The e2e tier on shared code-servers (issue 13: each file starting its own code-server, with its
// own `--install-extension`, cost seconds a file, and one file at a time left the 2 cores idle
// while the workbench waited on timers and the sandbox). It starts WA_E2E_JOBS code-servers
// (default 4: a file mostly waits on the workbench, about 7 s of CPU in 20–30 s, and the whole
// tier is about 90 CPU-seconds; on 2 cores 3 lanes took 132 s and 4 took 104–114 s, while 5,
// beside the integration tier, timed out waiting for the workbench in two files), each with the packaged .vsix installed once, and runs the files on them, one file
// at a time per server, longest first (by the last run's times). Each file's output is printed
// whole when it ends, so two files never interleave; the last lines are node:test's summary over
// all files (`ℹ pass N`, …), as test-all.mjs reads them. The servers are stopped at the end, on
// failure, and on SIGINT/SIGTERM/SIGHUP (code-server.js kills them on exit).
// The files find their server through WA_E2E_CODE_SERVER (test/e2e/workbench.ts); a file run
// alone, without it, starts its own server as before. Each lane also keeps one Chromium (a
// Playwright browser server) for its files: a window is a fresh browser context in it, as isolated
// as a fresh browser, without a Chromium start per window (6–8 s each on a loaded 2-core machine);
// WA_E2E_LANE_BROWSER=0 starts one per window instead.
//   node scripts/test-e2e.mjs [out/test/e2e/x.test.js ...]   default: every out/test/e2e/**/*.test.js
// WA_E2E_JOBS=1 runs the files one after another on one server (npm test sets it from the machine:
// scripts/capacity.mjs). With WA_E2E_GROW=stdin a line `lanes N` on stdin adds lanes up to N while
// files are still queued: npm test sends it when the integration tier ends, so the lanes that tier
// held are used again instead of left idle for the rest of the run. With WA_E2E_HOLD=stdin the lanes start at once
// and the first file waits for a line `go` on stdin (npm test: the lanes start beside the unit tier and
// the checks, the files after them). A file has no time limit in all: it is stopped only when it has printed
// nothing for WA_E2E_IDLE_S seconds (600), as the integration launcher's wait follows its report. After a failure, the servers' logs
// (extension hosts, language servers) are copied to test-results/e2e/code-server-N-logs/;
// WA_E2E_KEEP_STATE=1 keeps their whole state folder in the temp dir.
// Needs `node esbuild.mjs --tests` and `npm run package` first (npm test does both).
import { spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { basename, join, relative } from 'node:path';
import { lanesToAdd, longestFirst, readFigures, runnerOrder, treeCpuSeconds } from './capacity.mjs';
import cs from './code-server.js';

const root = cs.repoRoot;
const vsix = join(root, 'wallet-analytics.vsix');
/** Each file's last duration, so the longest start first and the servers finish together. */
const durationsFile = join(root, 'test-results', 'e2e-durations.json');

function testFiles(dir) {
  const walk = (d) =>
    readdirSync(d, { withFileTypes: true }).flatMap((e) =>
      e.isDirectory() ? walk(join(d, e.name)) : e.name.endsWith('.test.js') ? [relative(root, join(d, e.name))] : [],
    );
  return existsSync(dir) ? walk(dir).sort() : [];
}

const files = process.argv.slice(2).filter((a) => !a.startsWith('-'));
if (files.length === 0) files.push(...testFiles(join(root, 'out', 'test', 'e2e')));
if (files.length === 0) {
  console.error('test-e2e: no out/test/e2e/**/*.test.js: run `node esbuild.mjs --tests` first.');
  process.exit(1);
}
if (!existsSync(vsix)) {
  console.error(`test-e2e: ${relative(root, vsix)} is missing: run \`npm run package\` first.`);
  process.exit(1);
}
const jobs = Math.max(1, Math.min(files.length, Number(process.env.WA_E2E_JOBS ?? 4) || 1));

const lastDurations = readFigures(durationsFile) ?? {};
// This machine's last run, else the committed figures (a fresh clone, as CI is: by the bundle's
// size alone the longest file, a11y, started seventh), else the bundle's size.
const queue = longestFirst(files, [lastDurations, readFigures(join(root, 'test', 'durations.json'), 'e2e')], (f) => statSync(join(root, f)).size / 2000, (f) => basename(f));

const stateDir = mkdtempSync(join(tmpdir(), 'wa-e2e-shared-'));
const servers = [];
const browsers = []; // each lane's Chromium, closed at the end
const running = new Set(); // the node --test children
// Synchronous, so it also runs when a signal ends the process (code-server.js kills the servers then).
process.on('exit', () => process.env.WA_E2E_KEEP_STATE || rmSync(stateDir, { recursive: true, force: true }));
// The test runners are in our process group (test-all stops the group); they are told here too in
// case only this process was signalled.
for (const [sig, n] of [['SIGINT', 130], ['SIGTERM', 143], ['SIGHUP', 129]]) {
  process.prependListener(sig, () => {
    for (const c of running) {
      try {
        c.kill(sig);
      } catch {
        // already gone
      }
    }
    process.exit(n);
  });
}

/** One server: its own user-data-dir (each window's settings) and extensions dir. */
function serverDirs(i) {
  const dir = join(stateDir, `server-${i + 1}`);
  return { stateDir: dir, userDataDir: join(dir, 'user-data'), extensionsDir: join(dir, 'extensions') };
}

const idleMs = (Number(process.env.WA_E2E_IDLE_S) || 600) * 1000;

/**
 * Runs one file with node:test on a server; resolves with its output and counts. The wait follows
 * progress: the file is stopped when it has printed nothing for idleMs (a stall), however long it
 * takes in all (on a loaded machine a file took past a fixed 300 s while it kept going, issue 31.7).
 */
function runFile(file, shared) {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(process.execPath, ['--test', '--test-reporter=spec', file], {
      cwd: root,
      env: { ...process.env, WA_E2E_CODE_SERVER: JSON.stringify(shared) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    running.add(child);
    let output = '';
    let lastOutput = Date.now();
    let stalled = '';
    const take = (d) => {
      output += d;
      lastOutput = Date.now();
    };
    child.stdout.on('data', take);
    child.stderr.on('data', take);
    const watch = setInterval(() => {
      if (stalled || Date.now() - lastOutput < idleMs) return;
      stalled = `test-e2e: ${file} printed nothing for ${Math.round(idleMs / 1000)} s (stalled); stopped.`;
      child.kill('SIGTERM');
      setTimeout(() => child.kill('SIGKILL'), 15_000).unref();
    }, 1_000);
    const done = (code, error) => {
      clearInterval(watch);
      if (stalled) error = error ? `${stalled} ${error}` : stalled;
      running.delete(child);
      resolve({ file, code, output: error ? `${output}\ntest-e2e: ${error}\n` : output, seconds: (Date.now() - started) / 1000 });
    };
    child.on('error', (e) => done(1, e.message));
    child.on('close', (code, signal) => done(code ?? (signal ? 1 : 0)));
  });
}

const SUMMARY = ['tests', 'suites', 'pass', 'fail', 'cancelled', 'skipped', 'todo'];
const totals = Object.fromEntries(SUMMARY.map((k) => [k, 0]));
const durations = { ...lastDurations };
let failedFiles = 0;
/** CPU-seconds of the lanes' code-servers and Chromiums over the files, where /proc tells (Linux). */
let laneCpu = 0;

/** Each lane's Chromium, or none: WA_E2E_LANE_BROWSER=0 gives a Chromium per window, as before (to compare, or to rule the shared one out). */
async function laneBrowser(lane, i) {
  if (process.env.WA_E2E_LANE_BROWSER === '0') return;
  const { chromium } = await import('playwright-core');
  lane.browser = await chromium.launchServer({ executablePath: cs.chromiumPath, args: [...cs.chromiumArgs], headless: true, timeout: 60_000 }).catch((e) => {
    console.log(`test-e2e: lane ${i + 1} has no browser of its own (${e instanceof Error ? e.message.split('\n')[0] : String(e)}); each window starts one`);
    return undefined;
  });
  if (lane.browser) browsers.push(lane.browser);
}

/** Runs files from the queue on a lane until it is empty. */
async function worker({ server, dirs, browser }) {
  const shared = { url: server.url, pid: server.pid, logPath: server.logPath, vsix, ...dirs, ...(browser ? { browserWs: browser.wsEndpoint() } : {}) };
  // What a file costs the machine: the CPU its lane's code-server (its extension hosts) and Chromium
  // (its windows) spent meanwhile. The tier is CPU-bound, so this, not its seconds on a loaded
  // machine, is what a change to a file saves (the file's own node process is not counted).
  const lanePids = [server.pid, ...(browser?.process()?.pid ? [browser.process().pid] : [])];
  await released; // WA_E2E_HOLD: no file before `go`
  for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
    const cpuBefore = treeCpuSeconds(lanePids);
    const r = await runFile(file, shared);
    const cpuAfter = treeCpuSeconds(lanePids);
    const cpu = cpuBefore === undefined || cpuAfter === undefined ? undefined : cpuAfter - cpuBefore;
    if (cpu !== undefined) laneCpu += cpu;
    const counts = {};
    // Each file's own summary is folded into the tier's, printed last.
    const body = r.output
      .split('\n')
      .filter((l) => {
        const m = /^ℹ (\w+) ([\d.]+)$/u.exec(l);
        if (m) counts[m[1]] = Number(m[2]);
        return !m;
      })
      .join('\n')
      .trimEnd();
    const ran = SUMMARY.every((k) => Number.isFinite(counts[k]));
    for (const k of SUMMARY) totals[k] += counts[k] ?? 0;
    if (r.code !== 0 || !ran) {
      failedFiles++;
      // A file that died before its summary counts as a failure, never as nothing.
      if (!ran || counts.fail + counts.cancelled === 0) totals.fail++;
    }
    durations[basename(file)] = Math.round(r.seconds);
    const cpuNote = cpu === undefined ? '' : `, ${cpu.toFixed(0)} CPU-s in its lane's code-server and Chromium`;
    console.log(`\n━ ${file} (${r.seconds.toFixed(1)} s${cpuNote} on ${server.url}, exit ${r.code})\n${body}`);
  }
}

/** The lanes' work: one promise a lane, including lanes added while the tier runs. */
const workers = [];
let ended = false;

/**
 * More lanes, up to `lanes` in all, while the tier runs: npm test starts e2e with two lanes fewer
 * while the integration tier runs beside it (scripts/capacity.mjs) and, when that tier ends, says
 * on stdin how many the machine now holds (`lanes N`). A lane is added only for files still
 * queued (lanesToAdd, scripts/capacity.mjs); a lane that fails to start is said and its files run
 * on the others.
 */
function grow(lanes) {
  if (ended) return;
  const add = lanesToAdd({ lanes, running: servers.length, queued: queue.length });
  if (add === 0) return;
  console.log(`test-e2e: ${add} lane${add > 1 ? 's' : ''} more (${servers.length + add} in all) for the ${queue.length} files still queued`);
  for (let k = 0; k < add; k++) {
    const i = servers.length;
    servers[i] = undefined; // the slot is taken now; the lane fills it once started
    workers.push(
      (async () => {
        const dirs = serverDirs(i);
        mkdirSync(dirs.stateDir, { recursive: true });
        await cs.installVsixAsync({ ...dirs, vsix });
        const lane = { server: await cs.startCodeServer({ ...dirs, workspaceTrust: true }), dirs };
        servers[i] = lane;
        await laneBrowser(lane, i);
        console.log(`test-e2e: lane ${i + 1} ready on ${lane.server.url} (pid ${lane.server.pid})`);
        await worker(lane);
      })().catch((e) => console.log(`test-e2e: lane ${i + 1} did not start (${e instanceof Error ? e.message.split('\n')[0] : String(e)}); the other lanes run its files`)),
    );
  }
}
/**
 * With WA_E2E_HOLD=stdin the lanes start (the .vsix installed, the code-servers and their browsers
 * up) and then wait for a line `go` on stdin before the first file: npm test starts the runner while
 * the unit tier and the checks still run, so the lanes' start (about 30 s on a loaded 2-core
 * machine, twice that on CI's) is off the tier's critical path, and tells it `go` when they end.
 * stdin closing (npm test gone) releases it too.
 */
const hold = process.env.WA_E2E_HOLD === 'stdin';
let release = () => undefined;
const released = hold ? new Promise((r) => (release = r)) : Promise.resolve();
if (hold || process.env.WA_E2E_GROW === 'stdin') {
  let pending = '';
  process.stdin.setEncoding('utf8');
  process.stdin.on('data', (d) => {
    pending += d;
    for (let nl = pending.indexOf('\n'); nl >= 0; nl = pending.indexOf('\n')) {
      const order = runnerOrder(pending.slice(0, nl));
      pending = pending.slice(nl + 1);
      if (order?.lanes !== undefined && process.env.WA_E2E_GROW === 'stdin') grow(order.lanes);
      if (order?.go) release();
    }
  });
  process.stdin.on('end', () => release());
  process.stdin.on('error', () => undefined); // npm test gone: the signal handlers end this too
}

let code = 1;
try {
  const t0 = Date.now();
  // Install and start one server while the next installs.
  servers.length = jobs; // their slots, before a lane added meanwhile (grow) takes the next
  const starting = [];
  for (let i = 0; i < jobs; i++) {
    const dirs = serverDirs(i);
    mkdirSync(dirs.stateDir, { recursive: true });
    await cs.installVsixAsync({ ...dirs, vsix });
    // Trust stays on for the server (no --disable-workspace-trust): Restricted Mode needs it, and
    // every other window turns it off in its user settings (workbench.ts), as the flag did.
    starting.push(cs.startCodeServer({ ...dirs, workspaceTrust: true }).then((s) => (servers[i] = { server: s, dirs })));
  }
  const first = await Promise.all(starting);
  // One Chromium a lane, started after the servers (both are CPU-heavy starts); a lane without one
  // (it failed to start) lets each window start its own, as before.
  for (const [i, lane] of first.entries()) await laneBrowser(lane, i);
  console.log(
    `test-e2e: ${files.length} files on ${jobs} code-server ${cs.CODE_SERVER_VERSION} (${first.map((s) => `${s.server.url} pid ${s.server.pid}`).join(', ')}), ` +
      `one file at a time on each, the .vsix installed once per server, ${browsers.length} lane browser${browsers.length === 1 ? '' : 's'}, ready in ${((Date.now() - t0) / 1000).toFixed(1)} s`,
  );
  let tFiles = Date.now();
  if (hold) {
    console.log('test-e2e: the lanes are ready; held until `go` on stdin (npm test: when the unit tier and the checks have ended)');
    // A line now and then while held: npm test stops a runner that prints nothing for 20 minutes,
    // and a loaded machine's unit tier can take that long (over 20 min at a load of 20); held is not stalled.
    const heldSince = tFiles;
    const said = setInterval(() => console.log(`test-e2e: still held after ${Math.round((Date.now() - heldSince) / 1000)} s`), 5 * 60_000);
    await released;
    clearInterval(said);
    console.log(`test-e2e: go after ${((Date.now() - tFiles) / 1000).toFixed(1)} s held`);
    tFiles = Date.now();
  }
  workers.push(...first.map(worker));
  // Lanes added meanwhile (grow) are waited for too.
  for (let waited = 0; waited < workers.length; ) {
    const upTo = workers.length;
    await Promise.all(workers.slice(waited, upTo));
    waited = upTo;
  }
  ended = true;
  mkdirSync(join(root, 'test-results'), { recursive: true });
  writeFileSync(durationsFile, `${JSON.stringify(durations, null, 2)}\n`);
  // The files' time counts from `go` when held (the lanes' start ran beside other work before it).
  const since = hold ? tFiles : t0;
  const cpuNote = treeCpuSeconds([]) === undefined ? '' : ` (${laneCpu.toFixed(0)} CPU-s in the lanes' code-servers and Chromiums, load ${loadavg()[0].toFixed(1)})`;
  console.log(`\ntest-e2e: ${files.length} files in ${((Date.now() - since) / 1000).toFixed(1)} s${hold ? ' from `go`' : ''}${cpuNote}, ${failedFiles} failed`);
  for (const k of SUMMARY) console.log(`ℹ ${k} ${totals[k]}`);
  console.log(`ℹ duration_ms ${Date.now() - since}`);
  if (failedFiles > 0) {
    for (const [i, s] of servers.entries()) {
      if (!s) continue; // a lane that never started
      const logs = join(s.dirs.userDataDir, 'logs');
      if (existsSync(logs)) cpSync(logs, join(root, 'test-results', 'e2e', `code-server-${i + 1}-logs`), { recursive: true });
    }
  }
  code = failedFiles > 0 ? 1 : 0;
} catch (e) {
  console.error(`test-e2e: ${e instanceof Error ? e.message : String(e)}`);
  code = 1;
} finally {
  await Promise.all(browsers.map((b) => b.close().catch(() => undefined)));
  await Promise.all(servers.map((s) => s?.server.stop()));
}
process.exit(code);
