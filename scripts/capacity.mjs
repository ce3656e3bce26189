// How much of `npm test` runs side by side on this machine (issue 31.7: on a 2-core machine at half
// this one's speed the tiers loaded the cores to a load average of 19, a 722 MB table missed its
// first paint and whole unit files ran past their time). The run reads the cores and the load once
// it starts each step and sizes it from them, instead of one count for every machine:
//   - a slot is half a core: a test file, an e2e lane or the integration tier mostly waits (on a
//     workbench, a sandbox, a child process), about half a core each when measured on 2 cores;
//   - a machine whose cores other work already fills (the load before the run began, at least one
//     per core, and as many cores busy in the second before it: otherWork()) gets one slot per core;
//   - the integration tier starts beside the CPU-heavy steps (the unit tier, typecheck, lint) only
//     on 4 cores or more that other work does not fill; on 2 it starts after them, beside e2e. Both
//     orders were run on 2 idle cores (2026-11-28, main 088adb2): beside them, the unit tier took
//     440 s instead of 262, e2e's `go` came at ~450 s instead of ~275, and the run took 814 s; after
//     them, 826 s with ~50 s of two failed e2e tests' timeouts in it (~775 s without): its processes
//     take about 0.7 of a core (327 CPU-s in 441 s alone), so on 2 cores there is no idle core for it
//     beside the unit tier. WA_INTEGRATION_BESIDE=1 or 0 fixes the order, to compare. Either way
//     e2e has two lanes less (never under two) while it runs.
// planCapacity() is pure (facts in, sizes out) so the unit tests drive every case.
import { readFileSync, readdirSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';

const clamp = (n, lo, hi) => Math.max(lo, Math.min(hi, Math.floor(n)));
const MAX_UNIT_FILES = 4;
const MAX_E2E_LANES = 4;

/**
 * cores: os.availableParallelism(); load1: the 1-minute load average before the run began (the
 * other work on the machine; the run's own steps are what the slots size); env: WA_E2E_JOBS and
 * WA_UNIT_JOBS fix a count, WA_INTEGRATION_BESIDE (1 or 0) whether the integration tier runs beside
 * the unit tier and the checks. integrationRunning: the integration tier still runs as e2e starts.
 */
export function planCapacity({ cores, load1, env = {}, integrationRunning = false }) {
  const c = Math.max(1, Math.floor(cores) || 1);
  const loaded = Number.isFinite(load1) && load1 >= c;
  const slots = loaded ? c : 2 * c;
  const fixed = (v) => (v !== undefined && v !== '' && Number.isFinite(Number(v)) && Number(v) >= 1 ? Math.floor(Number(v)) : undefined);
  const unitFiles = fixed(env.WA_UNIT_JOBS) ?? clamp(slots, 1, MAX_UNIT_FILES);
  // The integration tier is a whole code-server and extension host: two slots, not one (a full run on
  // 2 idle cores gave e2e 3 lanes beside it, reached a load of 19 and failed two e2e files).
  const e2eLanes = fixed(env.WA_E2E_JOBS) ?? clamp(slots - (integrationRunning ? 2 : 0), Math.min(2, slots), MAX_E2E_LANES);
  // WA_INTEGRATION_BESIDE=1 or 0 fixes it (to compare both orders of a run on one machine).
  const besideFixed = { 1: true, 0: false }[String(env.WA_INTEGRATION_BESIDE ?? '').trim()];
  const integrationBesideChecks = besideFixed ?? (!loaded && c >= 4);
  const why =
    `${c} core${c > 1 ? 's' : ''}, load ${Number.isFinite(load1) ? load1.toFixed(1) : '?'}${loaded ? ' (other work fills its cores: one slot a core)' : ''}: ` +
    `${unitFiles} unit file${unitFiles > 1 ? 's' : ''} at a time, ${e2eLanes} e2e lane${e2eLanes > 1 ? 's' : ''}${integrationRunning ? ' (two less while the integration tier runs)' : ''}, ` +
    `the integration tier ${integrationBesideChecks ? 'beside the unit tier and the checks' : 'after the unit tier and the checks, beside e2e'}`;
  return { unitFiles, e2eLanes, integrationBesideChecks, loaded, why };
}

/**
 * How many e2e lanes to add while the tier runs (scripts/test-e2e.mjs, when the integration tier
 * ends and its two slots are free again): up to `lanes` in all, and only for files still queued, two
 * at least for each new lane (a lane's start, a code-server and a Chromium, costs about 20 s of a
 * loaded 2-core machine, a file 45 s or more). Never past MAX_E2E_LANES.
 */
export function lanesToAdd({ lanes, running, queued }) {
  const want = Math.min(Math.floor(lanes) || 0, MAX_E2E_LANES);
  return Math.max(0, Math.min(want - running, Math.floor(queued / 2)));
}

/**
 * What npm test tells the e2e runner on its stdin, one line at a time: `lanes N` (the integration
 * tier ended: up to N lanes now) and `go` (the unit tier and the checks ended: the held lanes may
 * run files, WA_E2E_HOLD). Anything else is no order.
 */
export function runnerOrder(line) {
  const t = String(line).trim();
  if (t === 'go') return { go: true };
  const m = /^lanes (\d+)$/u.exec(t);
  return m ? { lanes: Number(m[1]) } : undefined;
}

/**
 * Files in the order to start them: the longest first, so the last to start are short and the
 * lanes (or unit files side by side) end together instead of one long file running alone at the
 * end. A file's seconds come from the first table that has it: this machine's last run
 * (test-results/), then the committed figures (test/durations.json: a fresh clone, as CI is, has no
 * last run), else guess(file). The sort is stable: files of equal weight keep their order.
 */
export function longestFirst(files, tables, guess = () => 0, key = (f) => f) {
  const expected = (f) => {
    for (const t of tables) {
      const s = t?.[key(f)];
      if (typeof s === 'number' && Number.isFinite(s)) return s;
    }
    return guess(f);
  };
  return [...files].sort((a, b) => expected(b) - expected(a));
}

/** A JSON file of figures, or nothing when it is missing or unreadable (a first run). */
export function readFigures(file, part) {
  try {
    const v = JSON.parse(readFileSync(file, 'utf8'));
    const t = part === undefined ? v : v?.[part];
    return t && typeof t === 'object' ? t : undefined;
  } catch {
    return undefined;
  }
}

/**
 * CPU-seconds (user and system, with those of its children already ended and reaped) of the
 * processes `pids` and everything they started, from /proc/<pid>/stat texts (default: this
 * machine's; null where there is no /proc, and then the answer is undefined). scripts/test-e2e.mjs reads it around each file
 * for its lane's code-server and Chromium: CI's e2e tier is CPU-bound, so what a file costs is its
 * CPU, not its seconds on a loaded machine.
 */
export function treeCpuSeconds(pids, stats = procStats(), ticksPerSecond = 100) {
  if (stats === null) return undefined;
  const procs = stats.flatMap((text) => {
    // The name, in parentheses, may hold spaces and ')': the fields after the last ')' are fixed.
    const close = text.lastIndexOf(')');
    const f = text.slice(close + 2).split(' ');
    const pid = Number.parseInt(text, 10);
    return close < 0 || !Number.isFinite(pid) ? [] : [{ pid, ppid: Number(f[1]), ticks: Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14]) }];
  });
  const under = new Set(pids);
  for (let grew = true; grew; ) {
    grew = false;
    for (const p of procs) {
      if (!under.has(p.pid) && under.has(p.ppid)) {
        under.add(p.pid);
        grew = true;
      }
    }
  }
  return procs.filter((p) => under.has(p.pid)).reduce((s, p) => s + p.ticks, 0) / ticksPerSecond;
}

/** Every process's /proc/<pid>/stat, or null without /proc. */
function procStats() {
  let pids;
  try {
    pids = readdirSync('/proc').filter((d) => /^\d+$/u.test(d));
  } catch {
    return null;
  }
  return pids.flatMap((pid) => {
    try {
      return [readFileSync(`/proc/${pid}/stat`, 'utf8')];
    } catch {
      return []; // ended meanwhile
    }
  });
}

/**
 * The first line of /proc/stat ("cpu  user nice system idle iowait irq softirq steal …", in ticks)
 * as [busy, total] ticks; undefined when the text has no such line.
 */
export function cpuTicks(text) {
  const m = /^cpu\s+([\d ]+)$/mu.exec(String(text));
  if (!m) return undefined;
  const f = m[1].trim().split(/\s+/u).map(Number);
  if (f.length < 4 || f.some((n) => !Number.isFinite(n))) return undefined;
  const total = f.slice(0, 8).reduce((a, b) => a + b, 0);
  const idle = f[3] + (f[4] ?? 0);
  return [total - idle, total];
}

/** Cores busy between two cpuTicks() readings: the busy share of the ticks times the cores. */
export function busyCores(before, after, cores) {
  if (!before || !after) return undefined;
  const total = after[1] - before[1];
  return total > 0 ? (Math.max(0, after[0] - before[0]) / total) * Math.max(1, cores) : undefined;
}

/**
 * The other work on the machine as the run starts: the 1-minute load average, but no more than the
 * cores busy right now. The load average lags a minute behind: work that has just ended (CI's
 * `npm ci`, an engineer's build) still counts in it though it takes no core, and it gave a run on
 * idle cores the loaded machine's plan (a load of 3.8 left by ended work: two unit files, two e2e
 * lanes, the integration tier last). Without a reading of the cores now, the load alone.
 */
export function otherWork({ load1, busyNow }) {
  return Number.isFinite(busyNow) && Number.isFinite(load1) ? Math.min(load1, busyNow) : load1;
}

function readCpuTicks() {
  try {
    return cpuTicks(readFileSync('/proc/stat', 'utf8'));
  } catch {
    return undefined; // no /proc: the load average alone
  }
}

/** The load when this module was first loaded: test-all imports it before it starts anything. */
const loadAtStart = loadavg()[0];
let otherAtStart;

/**
 * Reads the cores' use over `ms` before anything of the run starts (test-all awaits it first): the
 * other work every later machineCapacity() sizes the run by. Returns it and what it came from.
 */
export async function measureOtherWork(ms = 1000) {
  const before = readCpuTicks();
  await new Promise((resolve) => setTimeout(resolve, ms));
  const busyNow = busyCores(before, readCpuTicks(), availableParallelism());
  otherAtStart = otherWork({ load1: loadAtStart, busyNow });
  return { other: otherAtStart, load1: loadAtStart, busyNow };
}

/** The same, for this machine. */
export function machineCapacity(env = process.env, integrationRunning = false) {
  return planCapacity({ cores: availableParallelism(), load1: otherAtStart ?? loadAtStart, env, integrationRunning });
}
