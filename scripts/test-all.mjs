// `npm test`: build, typecheck, lint, then the three tiers: unit (node:test), integration (mocha in
// a real VS Code extension host), e2e (the packaged .vsix in code-server, driven from Chromium).
// Each step starts as soon as what it needs is done (the graph is below).
//   node scripts/test-all.mjs                 everything
//   node scripts/test-all.mjs unit            build + one tier (unit | integration | e2e | checks), or several
// A runner's output is shown whole when it ends (e2e: each file's, as each file ends); at
// the end come each runner's own summary lines, one line per tier, and last a line
// `N passed, N failed` over all tiers. Exit 1 if anything failed.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, rmSync } from 'node:fs';
import { join, relative } from 'node:path';
import { longestFirst, machineCapacity, measureOtherWork, readFigures } from './capacity.mjs';
import { checkVerdicts } from './checks.mjs';
import cs from './code-server.js';
import systemDeps from './system-deps.js';

const root = cs.repoRoot;
const TIERS = ['checks', 'unit', 'integration', 'e2e'];
const asked = process.argv.slice(2).filter((a) => !a.startsWith('-'));
for (const a of asked) {
  if (!TIERS.includes(a)) {
    console.error(`test-all: unknown tier "${a}"; choose from ${TIERS.join(', ')}.`);
    process.exit(2);
  }
}
const want = new Set(asked.length ? asked : TIERS);
const min = 60_000;
/** No tier or check runs longer than this in all, however much it prints (CI stops at 90 minutes). */
const HARD_CAP_MS = 40 * min;

const active = new Set(); // the runners in progress, so Ctrl+C can stop them too
const stopGroup = (child, signal) => {
  try {
    process.kill(-child.pid, signal);
  } catch {
    // already gone
  }
};
for (const [sig, code] of [['SIGINT', 130], ['SIGTERM', 143]]) {
  process.once(sig, () => {
    for (const child of active) stopGroup(child, 'SIGTERM');
    console.error(`\ntest-all: stopped by ${sig}.`);
    process.exit(code);
  });
}

/**
 * Runs a command with its output shown live and kept. A wait follows progress, not the clock of a
 * fast machine: the command is stopped only when it has printed nothing for idleMs (a stalled
 * runner), or past HARD_CAP_MS in all (never hangs CI). With `quiet` (a check running beside a
 * tier) its output is printed whole when it ends, not mixed in live.
 */
function run(title, cmd, args, idleMs, env = {}, quiet = false, onSpawn = undefined) {
  return new Promise((resolve) => {
    const started = Date.now();
    const header = `\n━━ ${title}: ${cmd} ${args.join(' ')}`;
    if (!quiet) console.log(header);
    // Own process group, so a timeout ends the runner and everything it started.
    // stdin only for a runner told things while it runs (onSpawn: e2e hears when it may add lanes).
    const child = spawn(cmd, args, { cwd: root, env: { ...process.env, ...env }, stdio: [onSpawn ? 'pipe' : 'ignore', 'pipe', 'pipe'], detached: true });
    if (onSpawn) {
      child.stdin.on('error', () => undefined); // a runner that ended does not read it
      onSpawn(child);
    }
    let output = '';
    let lastOutput = Date.now();
    const take = (stream) => (d) => {
      output += d.toString();
      lastOutput = Date.now();
      if (!quiet) stream.write(d);
    };
    child.stdout.on('data', take(process.stdout));
    child.stderr.on('data', take(process.stderr));
    active.add(child);
    let timedOut = false;
    let killTimer;
    const timer = setInterval(() => {
      const idle = Date.now() - lastOutput;
      const total = Date.now() - started;
      if (timedOut || (idle < idleMs && total < HARD_CAP_MS)) return;
      timedOut = true;
      console.error(
        idle >= idleMs
          ? `\ntest-all: ${title} printed nothing for ${Math.round(idle / 1000)} s (stalled); stopping it.`
          : `\ntest-all: ${title} ran past ${HARD_CAP_MS / 60_000} minutes in all; stopping it.`,
      );
      // SIGTERM first, so runners close their browsers and code-servers; then no more waiting.
      stopGroup(child, 'SIGTERM');
      killTimer = setTimeout(() => stopGroup(child, 'SIGKILL'), 15_000);
    }, 1_000);
    const done = (code, error) => {
      clearInterval(timer);
      clearTimeout(killTimer);
      active.delete(child);
      const seconds = (Date.now() - started) / 1000;
      if (quiet) console.log(`${header}  (${seconds.toFixed(0)} s, run beside another tier)\n${output.trimEnd()}`);
      resolve({ code: timedOut ? 'timeout' : code, output, seconds, error });
    };
    child.on('error', (e) => done(null, e.message));
    child.on('close', (code) => done(code));
  });
}

/** node:test's spec reporter ends with `ℹ pass N`, `ℹ fail N`, `ℹ cancelled N`. */
function nodeTestCounts(output) {
  const n = (k) => Number(new RegExp(`^ℹ ${k} (\\d+)$`, 'm').exec(output)?.[1] ?? NaN);
  const lines = output.split('\n').filter((l) => /^ℹ (tests|pass|fail|cancelled|skipped|todo) \d+$/.test(l));
  return { passed: n('pass'), failed: n('fail') + (n('cancelled') || 0), lines };
}

/** mocha's spec reporter ends with `N passing (…)` and, if any, `N failing`. */
function mochaCounts(output) {
  const passing = /^\s*(\d+) passing/m.exec(output);
  const failing = /^\s*(\d+) failing/m.exec(output);
  const lines = output.split('\n').filter((l) => /^\s*\d+ (passing|failing|pending)/.test(l)).map((l) => l.trim());
  return { passed: passing ? Number(passing[1]) : NaN, failed: failing ? Number(failing[1]) : passing ? 0 : NaN, lines };
}

const testFiles = (dir) => {
  const abs = join(root, dir);
  if (!existsSync(abs)) return [];
  const walk = (d) =>
    readdirSync(d, { withFileTypes: true }).flatMap((e) =>
      e.isDirectory() ? walk(join(d, e.name)) : e.name.endsWith('.test.js') ? [relative(root, join(d, e.name))] : [],
    );
  return walk(abs).sort();
};

const checks = []; // { name, ok, note }
const tiers = []; // { name, passed, failed, lines, note, seconds }
const t0 = Date.now();

async function check(name, cmd, args, timeoutMs, quiet = false) {
  const r = await run(name, cmd, args, timeoutMs, {}, quiet);
  const ok = r.code === 0;
  checks.push({ name, ok, note: ok ? `${r.seconds.toFixed(0)} s` : `failed (${r.error ?? `exit ${r.code}`})` });
  return ok;
}

function tierNotRun(name, why) {
  tiers.push({ name, passed: 0, failed: 1, lines: [], note: `not run: ${why}`, seconds: 0 });
}

/** since(): the tier's own seconds when they start later than its runner (e2e: from `go`). */
async function tier(name, cmd, args, timeoutMs, parse, env, quiet = false, onSpawn = undefined, since = () => undefined) {
  const r = await run(name, cmd, args, timeoutMs, env, quiet, onSpawn);
  r.seconds = since() ?? r.seconds;
  const c = parse(r.output);
  let { passed, failed } = c;
  let note = '';
  if (Number.isNaN(passed) || Number.isNaN(failed)) {
    // The runner died before its summary: count the tier as one failure, never as zero.
    passed = Number.isNaN(passed) ? 0 : passed;
    failed = Math.max(1, Number.isNaN(failed) ? 0 : failed);
    note = `the runner gave no summary (${r.error ?? `exit ${r.code}`})`;
  } else if (r.code !== 0 && failed === 0) {
    failed = 1;
    note = `the runner exited with ${r.code} although no test failed`;
  } else if (passed + failed === 0) {
    failed = 1;
    note = 'no tests ran';
  }
  // The failed tests by name (node:test and the integration launcher mark them `✖`), repeated in
  // the summary: a CI log keeps only its tail, and a failure must be named there.
  const failures = [...new Set(r.output.split('\n').filter((l) => /^\s*✖ /u.test(l)).map((l) => l.trim().slice(0, 500)))];
  tiers.push({ name, passed, failed, lines: c.lines, note, seconds: r.seconds, failures });
}

// ---------------------------------------------------------------------------------------------
// Each step starts as soon as what it needs is done (issue 13: a fresh machine spent ~45 s
// installing before any test ran, and the tiers mostly wait on extension hosts, workbenches and
// sandboxes; the whole run is about 260 CPU-seconds on 2 cores):
//
//   build ─┬─ package ─── unit (its Python files ───────┬─ integration (after unit and the checks on
//          │           after the system packages)        │               2 cores or a machine other work
//          ├─ system packages ─┬─ code-server ───────────┤               fills; beside them on 4 cores
//          │  code-server download ┘ (beside apt-get)    │               or more: capacity.mjs)
//          │                                             ├─ e2e
//          ├─ typecheck → lint ──────────────────────────┤  (after unit, the checks and both
//          └─ the e2e tier's two 722 MB inputs ──────────┘   722 MB files; its lanes start
//                                                                before, once code-server, the
//                                                                .vsix and the files are there)
//
// How wide each step runs comes from the machine (scripts/capacity.mjs: cores, and the load other
// work puts on them), never one count for all (issue 31.7: a 2-core machine at half this one's
// speed reached a load of 19 and failed 16 tests): unit files at a time, e2e lanes, and whether
// the integration tier runs beside the CPU-heavy steps. The two 722 MB files are written once,
// before e2e, which alone reads them. e2e's files wait for the unit tier and the checks: run beside
// them (4 unit files at a time, tsc, eslint), the timing tests of both tiers failed on a loaded
// machine. Its lanes (code-servers, browsers) start beside them and wait (WA_E2E_HOLD).
// `package` (the production bundles in dist/, then the .vsix) runs first, beside the system
// packages only: the unit and integration tiers load dist/, which it rewrites. Every step but the
// build, the system packages and e2e prints its output whole when it ends, so two never mix; e2e
// prints each file's output whole as it ends. No step has a time limit of its own but a stall
// (nothing printed for a while) and HARD_CAP_MS: a slower machine only takes longer.

const other = await measureOtherWork();
const capacity = machineCapacity();
console.log(`test-all: ${capacity.why}${Number.isFinite(other.busyNow) ? ` (cores busy in the second before the run: ${other.busyNow.toFixed(1)}; load average ${other.load1.toFixed(1)})` : ''}.`);

const built = await check('build', process.execPath, ['esbuild.mjs', '--tests'], 5 * min);

// System packages (Chromium, ripgrep, code-server's compilers; curl and Python requests, pandas, nbformat for the
// unit tier's Copy as Code runs) only for the tiers that need them (e2e; integration when its
// launcher is code-server; unit): installed by apt-get as root or with passwordless sudo, else the
// one line to run is printed and nothing more is run.
const sysTasks = [...want].filter((t) => t === 'unit' || t === 'integration' || t === 'e2e');
const sysNeed = systemDeps.gatherFacts(sysTasks).need;
const systemPackages = (async () => {
  if (!(sysNeed.codeServer || sysNeed.browser || sysNeed.snippets)) return;
  const r = await run('system packages', process.execPath, ['scripts/system-deps.js', `--for=${sysTasks.join(',')}`], 25 * min);
  if (r.code !== 0) {
    const line = /^ {2}(sudo apt-get .*)$/m.exec(r.output)?.[1];
    console.error(`\ntest-all: stopped before the ${sysTasks.join(' and ')} tier${sysTasks.length > 1 ? 's' : ''}: system packages are missing.`);
    console.error(line ? `Run this, then npm test again:\n\n  ${line}\n` : 'What to install is listed above.');
    for (const child of active) stopGroup(child, 'SIGTERM');
    process.exit(1);
  }
  checks.push({ name: 'system packages', ok: true, note: `${r.seconds.toFixed(0)} s` });
})();

const packaged = built && want.has('e2e') ? check('package', 'npm', ['run', '--silent', 'package'], 5 * min, true) : Promise.resolve(false);
// A failure here is not fatal: the table file writes its input itself, and says so.
const bigTable = built && want.has('e2e') ? run('e2e data (the two 722 MB files)', process.execPath, ['out/test/e2e/bigTable.js'], 10 * min, {}, true) : undefined;
// code-server's download stage (npm pack and its installs without scripts: about a minute on a fresh
// machine) needs none of the system packages, so it runs beside apt-get; the build stage (the
// native modules: compilers, the Kerberos headers, ripgrep) after both. Neither runs once installed.
const installing = sysNeed.codeServer && !cs.isCodeServerInstalled();
const codeServerFetched = installing ? run('code-server download', process.execPath, ['scripts/install-code-server.mjs', '--fetch-only'], 20 * min, {}, true) : Promise.resolve();
const codeServer = Promise.all([systemPackages, codeServerFetched]).then(() =>
  sysNeed.codeServer ? check('code-server', process.execPath, ['scripts/install-code-server.mjs'], 20 * min, true) : true,
);

const steps = [systemPackages, packaged, bigTable, codeServer];
/** The steps e2e runs after (besides what it needs): the CPU-heavy ones. */
const before2e = [];
if (want.has('checks')) {
  before2e.push(
    (async () => {
      // Both on one program per tsconfig (scripts/checks.mjs: `npm run typecheck` and `npm run lint`
      // each built and checked their own, 170 CPU-s against 110), the lint a folder at a time with a
      // line each: as one silent `eslint .` it ran past the 5 minutes without output on a loaded
      // machine and was stopped as stalled. Still two checks, each with its own verdict.
      // A young generation of 64 MB a semi-space (Node's default is 16): the checker's and ESLint's
      // short-lived objects were scavenged four times as often, and the garbage collector was a tenth
      // of the process's CPU profile (figures in CONTRIBUTING.md).
      const r = await run('typecheck and lint', process.execPath, ['--max-semi-space-size=64', 'scripts/checks.mjs'], 5 * min, {}, true);
      for (const c of checkVerdicts(r.output, r.error ? 'error' : r.code)) checks.push(c);
    })(),
  );
}

if (want.has('unit')) {
  const files = testFiles('out/test/unit');
  if (!built) tierNotRun('unit', 'the build failed');
  else if (files.length === 0) tierNotRun('unit', 'no out/test/unit/**/*.test.js');
  else {
    // Files side by side as the machine holds them (up to four: many wait on timers, sandboxes and
    // child processes; the Copy as Code snippets poll every 5 s). No time limit per file or test:
    // on a loaded machine whole files ran past a fixed 120 s (pipelineExport, notebook, snippets);
    // the tier stops only when it prints nothing for 10 minutes. After `package`, which rewrites
    // the dist/ the worker tests load.
    // The longest files first (longestFirst: this machine's last run, else test/durations.json),
    // through scripts/test-unit.mjs: `node --test` sorts its files by name, and the runner's three
    // longest files started last and ran on alone for about a minute. Each file's seconds are kept
    // for the next run.
    const last = join(root, 'test-results', 'unit-durations.json');
    const ordered = longestFirst(files, [readFigures(last), readFigures(join(root, 'test', 'durations.json'), 'unit')]);
    // It starts once `package` has ended, beside apt-get: only its files that run Python's pandas and
    // nbformat (systemDeps.unitFileNeedsPackages) wait for the system packages (--hold, then `go`
    // on the runner's stdin); on a fresh machine apt-get took 78 s that the whole tier waited.
    const held = ordered.filter((f) => systemDeps.unitFileNeedsPackages(f));
    const args = ['scripts/test-unit.mjs', `--concurrency=${capacity.unitFiles}`, `--durations=${last}`, ...(held.length ? [`--hold=${held.join(',')}`] : []), ...ordered];
    const release = (child) => void systemPackages.then(() => child.stdin.write('go\n'));
    before2e.push(packaged.then(() => tier('unit', process.execPath, args, 10 * min, nodeTestCounts, {}, true, held.length ? release : undefined)));
  }
}

/** Until the integration tier has ended (or will not run): e2e leaves it two lanes meanwhile. */
let integrationPending = want.has('integration') && built;
/** The e2e runner while it runs, told when the integration tier ends so it takes those lanes back. */
let e2eRunner;
const integrationEnded = () => {
  integrationPending = false;
  if (!e2eRunner || e2eRunner.exitCode !== null) return;
  const lanes = machineCapacity(process.env, false).e2eLanes;
  e2eRunner.stdin.write(`lanes ${lanes}\n`);
  console.log(`\ntest-all: the integration tier ended; e2e may run ${lanes} lanes now.`);
};
if (want.has('integration')) {
  if (!built) tierNotRun('integration', 'the build failed');
  else {
    // Beside the unit tier and the checks (after them it was the run's critical path; about 0.7 of
    // a core, scripts/capacity.mjs), unless the machine has one core or other work fills its cores
    // (or WA_INTEGRATION_BESIDE=0): then after them, beside e2e (whose lanes leave it two slots).
    const after = capacity.integrationBesideChecks ? [] : before2e;
    steps.push(
      Promise.all([codeServer, packaged, ...after]).then(async ([installed]) => {
        if (installed) await tier('integration', process.execPath, ['scripts/test-integration.mjs'], 15 * min, mochaCounts, {}, true);
        else tierNotRun('integration', 'code-server is not installed');
        integrationEnded();
      }),
    );
  }
}

if (want.has('e2e')) {
  // The runner starts as soon as what it needs is there (code-server, the .vsix, the two 722 MB
  // files) and holds its lanes, started, until the unit tier and the checks have ended
  // (WA_E2E_HOLD: a line `go` on its stdin): the lanes' start, about 30 s on a loaded 2-core
  // machine, ran after them, on the run's critical path (CI's unit tier → e2e).
  const mayGo = Promise.all(before2e);
  steps.push(
    Promise.all([codeServer, packaged, bigTable]).then(async ([installed, pk]) => {
      const files = testFiles('out/test/e2e');
      if (!built) tierNotRun('e2e', 'the build failed');
      else if (!pk) tierNotRun('e2e', '`npm run package` failed');
      else if (!installed) tierNotRun('e2e', 'code-server is not installed');
      else if (files.length === 0) tierNotRun('e2e', 'no out/test/e2e/**/*.test.js');
      else {
        rmSync(join(root, 'test-results', 'e2e'), { recursive: true, force: true }); // no stale screenshots
        // Shared code-servers (scripts/test-e2e.mjs): one file at a time on each, as many as the
        // machine holds beside what still runs.
        // While the integration tier runs, e2e starts with two lanes fewer and adds them back when
        // it ends (integrationEnded: `lanes N` on the runner's stdin; scripts/test-e2e.mjs).
        const lanes = machineCapacity(process.env, integrationPending).e2eLanes;
        let goAt = 0;
        await tier('e2e', process.execPath, ['scripts/test-e2e.mjs', ...files], 20 * min, nodeTestCounts, { WA_E2E_JOBS: String(lanes), WA_E2E_GROW: 'stdin', WA_E2E_HOLD: 'stdin' }, false, (child) => {
          e2eRunner = child;
          void mayGo.then(() => {
            goAt = Date.now();
            child.stdin.write('go\n');
          });
        }, () => (goAt ? (Date.now() - goAt) / 1000 : undefined));
      }
    }),
  );
}
await Promise.all([...steps, ...before2e]);

// ---------------------------------------------------------------------------------------------

const checksFailed = checks.filter((c) => !c.ok).length;
const all = [
  { name: 'checks', passed: checks.length - checksFailed, failed: checksFailed, lines: [], note: checks.map((c) => `${c.name} ${c.ok ? '✓' : '✗'} ${c.note}`).join(', ') },
  ...tiers,
];
tiers.sort((a, b) => TIERS.indexOf(a.name) - TIERS.indexOf(b.name)); // some ran side by side
console.log('\n━━ summary');
for (const t of tiers) {
  for (const f of (t.failures ?? []).slice(0, 20)) console.log(`${t.name} ${f}`);
}
for (const t of tiers) {
  if (t.lines.length) console.log(`${t.name}: ${t.lines.join(' · ')}`);
}
for (const t of all) {
  const time = t.seconds ? ` in ${t.seconds.toFixed(0)} s` : '';
  console.log(`${t.name.padEnd(12)} ${t.passed} passed, ${t.failed} failed${time}${t.note ? `  (${t.note})` : ''}`);
}
console.log(`total time ${((Date.now() - t0) / 1000).toFixed(0)} s`);
const passed = all.reduce((s, t) => s + t.passed, 0);
const failed = all.reduce((s, t) => s + t.failed, 0);
console.log(`${passed} passed, ${failed} failed`);
process.exitCode = failed > 0 ? 1 : 0;
