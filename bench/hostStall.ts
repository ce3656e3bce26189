/**
 * `npm run bench:stall`: the extension host's longest stall, max and not only p99, while each path
 * that reads a result reads a 722 MB one (issue 34 item 4): "use as input" to its price step, a
 * list source ("from a previous result": the column's text, parsed as a list), a watch's run
 * (two results compared, its changes counted), a comparison opened as a table, and a pipeline's
 * local steps (a take step: a reference resolved and its list file written; a filter written), and the price step of a paid call
 * with the 100,000 addresses "use as input" read (`price-list`: the endpoint's input check, as
 * callService runs it before the price shows, then the price), and `save-job`: the job that call's
 * send returns, its inputs holding that list, tracked as jobService.ts track does (the job store's
 * put, saved to globalState), in a window that tracks another such job already, into a model of
 * VS Code's globalState (VscodeMemento below; callService keeps no recent input of over 10,000, so
 * the job record is where such a list is saved; run for this build alone, as an older build's
 * bench has no such path: its script, asked for one, would start a whole run of its own). Budget: no stall over 16 ms;
 * the exit code is 1 when any path's max is over it. `sandbox-start` (issue 34 item 1): the sandbox
 * started as the extension starts it (src/vscode/base/connection.ts: its own thread,
 * src/sandbox/thread.ts), its first answer, and its stop; `--sandbox in-process` starts it on this
 * thread instead, as the extension did before (main a0ad965), for the figure before.
 *
 *   npm run bench:stall                                  # bench/data/wallets-100000-seed1.csv (+ seed2-shared90), made on first use
 *   node out/bench/hostStall.js --rounds 3 --before /tmp/base   # interleaved with another checkout's build of this bench
 *   node out/bench/hostStall.js --rows 5000 --paths use-as-input,list-source   # a quick look
 *   node out/bench/hostStall.js --no-settle               # the fresh process's start-up collections left inside the clock
 *
 * Why a fresh process per path and round: each path starts as a person's action does, in a host
 * that has been idle, with the table launcher (when this build has one) started beforehand at an
 * idle moment, as the extension starts it after its features load, and the fresh process's
 * start-up garbage collected before the clock (settleHeap; `--no-settle` measures without). The
 * stall is perf_hooks.monitorEventLoopDelay at 1 ms resolution over the path alone.
 */
import { spawnSync } from 'node:child_process';
import { createReadStream, existsSync, mkdtempSync, statSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { get as httpGet } from 'node:http';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { constants, monitorEventLoopDelay, PerformanceObserver } from 'node:perf_hooks';
import * as table from '../src/core/table';
import { listFields, rankTargets, resultRole, type InputTarget } from '../src/core/addressLists/inputTargets';
import * as inputTargetsModule from '../src/core/addressLists/inputTargets';
import { readResultLists, withResultReader } from '../src/core/results/readResult';
import { parseAddressListSliced } from '../src/core/addressLists/listText';
import { compareInWorker, detectChanges } from '../src/core/watch/changes';
import { resolveReference } from '../src/core/pipeline/resolve';
import * as resolveModule from '../src/core/pipeline/resolve';
import { listText } from '../src/core/addressLists/addressSets';
import { filterResult } from '../src/core/pipeline/filter';
import { validateInput } from '../src/core/spec/catalog';
import { quote } from '../src/core/money/pricing';
import * as addressesModule from '../src/core/spec/addresses';
import { isPackedList, packChecked } from '../src/core/spec/packedList';
import { storageOn } from '../src/core/storage';
import { JobStore } from '../src/core/jobs/store';
import { GlobalStatePersistence } from '../src/core/jobs/persistence';
import { InputFiles } from '../src/core/jobs/inputFiles';
import type { JobRecord } from '../src/core/jobs/job';
import { startSandbox } from '../src/sandbox/index';
import { startSandboxThread } from '../src/sandbox/thread';
import { generateWalletCsv } from './tableData';
import { generateSharedCsv } from './compareData';
import { arg, flag, repoRoot, runPartOrMain } from './benchKit';

const BUDGET_MS = 16;
const PATHS = ['idle', 'use-as-input', 'price-list', 'save-job', 'list-source', 'watch-run', 'compare-open', 'pipeline-take', 'pipeline-filter', 'sandbox-start'] as const;
type PathName = (typeof PATHS)[number];
/** Paths an older build's bench does not have (2026-11-29): measured for this build alone under `--before`. */
const NEW_PATHS: readonly PathName[] = ['save-job'];

const rows = Number(arg('rows', '100000'));
const root = repoRoot();
const dataDir = join(root, 'bench', 'data');
const fileA = arg('file', join(dataDir, `wallets-${rows}-seed1.csv`));
const fileB = arg('file-b', join(dataDir, `wallets-${rows}-seed2-shared90.csv`));
const workerFile = join(root, 'dist', 'tableWorker.js');

interface Figures {
  readonly path: PathName;
  readonly launcher: boolean;
  readonly ms: number;
  readonly p99: number;
  readonly max: number;
  /** What the path produced, to check both builds did the same work. */
  readonly got: string;
  /** The host's garbage-collection pauses inside the clock: the longest and their sum (ms); absent from an older build's bench. */
  readonly gcMax?: number;
  readonly gcSum?: number;
  /** What filled the longest stall: its length by a 1 ms timer's own gaps, and the collections inside it (ms); absent from an older build's bench. */
  readonly longest?: StallContents;
}

/**
 * The longest wait between two ticks of a 1 ms timer, and the collections that fell inside it by
 * kind. Why: a stall can hold two collections back to back (incremental marking started, then a
 * scavenge that must mark what it promotes), so the longest single pause (gcMax) understates what
 * collection costs one stall; this says how much of the longest one was collection and how much
 * the path's own turn.
 */
interface StallContents {
  readonly ms: number;
  readonly gc: readonly { readonly kind: string; readonly ms: number }[];
}

/** perf_hooks' GC kinds in words. */
function gcKind(kind: number): string {
  if (kind & constants.NODE_PERFORMANCE_GC_MAJOR) return 'mark-compact';
  if (kind & constants.NODE_PERFORMANCE_GC_MINOR) return 'scavenge';
  if (kind & constants.NODE_PERFORMANCE_GC_INCREMENTAL) return 'incremental marking';
  return 'weak callbacks';
}

/** The longest gap between `ticks` (times of a 1 ms timer), with the pauses that overlap it. */
function longestStall(ticks: readonly number[], pauses: readonly { readonly start: number; readonly ms: number; readonly kind: number }[]): StallContents {
  let from = 0;
  let ms = 0;
  for (let i = 1; i < ticks.length; i++) {
    const gap = (ticks[i] ?? 0) - (ticks[i - 1] ?? 0);
    if (gap > ms) {
      ms = gap;
      from = ticks[i - 1] ?? 0;
    }
  }
  const inside = pauses.filter((p) => p.start < from + ms && p.start + p.ms > from);
  return { ms, gc: inside.map((p) => ({ kind: gcKind(p.kind), ms: Math.min(p.start + p.ms, from + ms) - Math.max(p.start, from) })) };
}

/** The launcher, when this build has one (an older build's bench runs without it). */
function startLauncher(): boolean {
  const start = (table as unknown as Record<string, unknown>).startTableLauncher;
  if (typeof start !== 'function') return false;
  (start as (file: string) => void)(workerFile);
  return true;
}

/**
 * globalState as VS Code's extension host keeps it (code-server's extensionHostProcess.js,
 * ExtensionMemento): update() copies the value through JSON at once (JSON.parse(JSON.stringify(v))),
 * and a scheduler's next turn sends the extension's whole stored value to the main process, which
 * its RPC writes as JSON. Another window's change comes back whole too ($acceptValue's JSON.parse;
 * not modelled here). What is sent is counted.
 */
class VscodeMemento {
  private readonly value: Record<string, unknown> = {};
  sent = 0;

  get<T>(key: string): T | undefined {
    return this.value[key] as T | undefined;
  }

  update(key: string, v: unknown): Promise<void> {
    this.value[key] = v !== null && typeof v === 'object' ? (JSON.parse(JSON.stringify(v)) as unknown) : v;
    return new Promise((resolve) =>
      setTimeout(() => {
        this.sent += JSON.stringify(this.value).length;
        resolve();
      }, 0),
    );
  }
}

/** The `save-job` path's globalState and this window's job store over it, with the call before's job in it (prepare). */
let memento: VscodeMemento | undefined;
let jobs: JobStore | undefined;

/** The price step's input: "use as input"'s chosen target and its list, read before the monitor starts. */
let chosen: { readonly ep: InputTarget['ep']; readonly key: string; readonly raw: Record<string, unknown> } | undefined;

/** What a path needs ready before it is measured (the price step starts from a list already read). */
async function prepare(p: PathName): Promise<void> {
  if (p !== 'price-list' && p !== 'save-job') return;
  const most = Math.max(...listFields().map((t) => t.field.max ?? 0));
  const lists = await readResultLists(fileA, { workerFile, limit: most, hint: resultRole('pnl') });
  const { targets } = rankTargets(lists);
  // The largest list a target takes (100,000 wallets), as inputPicker.ts targetInputs gives it.
  const t = [...targets].sort((a, b) => b.count - a.count)[0];
  if (!t) return;
  // As inputPicker.ts targetInputs cuts it: through firstAddresses when this build has it (it keeps the reader's check), else a copy.
  const first = (addressesModule as unknown as Record<string, unknown>).firstAddresses;
  // This build's list may be packed (spec/packedList.ts: firstAddresses keeps it packed); an older build's is strings.
  const list = typeof first === 'function' ? (first as (l: unknown, n: number) => unknown)(t.offer.addresses, t.count) : (t.offer.addresses as readonly string[]).slice(0, t.count);
  chosen = { ep: t.ep, key: t.field.key, raw: { [t.field.key]: list } };
  if (p === 'save-job') {
    // The call before: a job on the same list, done and kept in the window's history.
    memento = new VscodeMemento();
    // As jobService.ts keeps them: the long list in a file of the storage folder (core/jobs/inputFiles.ts), the record naming it.
    jobs = new JobStore(new GlobalStatePersistence(storageOn(memento), new InputFiles(mkdtempSync(join(tmpdir(), 'wa-bench-inputs-')))));
    // Its list another object with the same addresses (packed, as this build keeps a long list): the call's
    // own list is written and hashed by the path, not found written already (InputFiles knows a list by the object).
    const same = isPackedList(list) ? packChecked(list.text, list.length, list.chain) : JSON.parse(JSON.stringify(list)) as unknown;
    await jobs.put({ ...jobOf(t.ep.id, { [t.field.key]: same }, 'earlier'), state: 'done', completedAt: new Date().toISOString() });
    // The path ends listing the store (store.all() sorts by localeCompare): a process's first
    // localeCompare builds ICU's collator, 15-18 ms of one turn (a cpu profile of this path), which an
    // extension host running for a while has long done (its views sort the jobs). Done here, before the clock.
    'a'.localeCompare('b');
    memento.sent = 0;
  }
}

/** A queued job as send.ts returns it once accepted: pending, its inputs as sent. */
function jobOf(endpointId: string, inputs: Record<string, unknown>, requestId: string): JobRecord {
  return { requestId, endpointId, inputs, cost: 500_000, profileId: 'default', baseUrl: 'http://127.0.0.1:1', submittedAt: new Date().toISOString(), state: 'pending' };
}

/** One path, as the host runs it, up to what a person sees next. */
async function runPath(p: PathName, scratch: string): Promise<string> {
  switch (p) {
    case 'idle':
      // The machine's own noise: the same monitor over 3 s of nothing (a loaded machine delays an idle loop too).
      await new Promise((r) => setTimeout(r, 3000));
      return 'nothing';
    case 'use-as-input': {
      // requestActions.ts useAsInput: the lists, then the ranked endpoints with their prices, then the chosen one's inputs.
      const most = Math.max(...listFields().map((t) => t.field.max ?? 0));
      const lists = await readResultLists(fileA, { workerFile, limit: most, hint: resultRole('pnl') });
      // As inputPicker.ts pickInputTarget ranks them: its checks built a piece a turn first, when this build does so.
      const warm = (inputTargetsModule as unknown as Record<string, unknown>).rankTargetsWarm;
      const { targets } = typeof warm === 'function' ? await (warm as (o: typeof lists) => Promise<ReturnType<typeof rankTargets>>)(lists) : rankTargets(lists);
      const first = targets[0];
      return first ? `${first.ep.id} ${first.count} ${first.price.text}` : 'no target';
    }
    case 'price-list': {
      // "Use as input" on from the chosen target (its list read before the monitor started, by
      // prepare): the list checked by the endpoint's input schema as callService does before the
      // price shows, then priced.
      if (!chosen) return 'no target';
      const v = validateInput(chosen.ep, chosen.raw);
      if (!v.ok) return `refused: ${v.errors[0] ?? ''}`;
      const list = v.input[chosen.key];
      return `${chosen.ep.id} ${Array.isArray(list) || isPackedList(list) ? list.length : 0} ${quote(chosen.ep, v.input).text}`;
    }
    case 'save-job': {
      // jobService.ts track: the accepted job on the chosen list (read before the clock, as for the price step) put in the store and saved.
      if (!chosen || !jobs || !memento) return 'no target';
      await jobs.put(jobOf(chosen.ep.id, chosen.raw, 'now'));
      return `${chosen.ep.id}: ${jobs.all().length} jobs, ${(memento.sent / 1e6).toFixed(1)} MB sent`;
    }
    case 'list-source': {
      // flows/listSources.ts readAddressFile: the address column found in the worker (this build), the column parsed in the worker when this build does so
      // (ResultReader.addressList), else its cells read, then inputFlow's parse of them a slice at a time.
      const parsed = await withResultReader(fileA, async (reader) => {
        const column = reader.addressColumn()?.column ?? 0;
        const inWorker = (reader as unknown as Record<string, unknown>).addressList;
        if (typeof inWorker === 'function') return (inWorker as (c: number, chain: 'main') => Promise<{ valid: readonly string[] }>).call(reader, column, 'main');
        return parseAddressListSliced(await reader.columnText(column), 'main');
      }, { workerFile });
      return `${parsed.valid.length} valid`;
    }
    case 'watch-run': {
      const c = await detectChanges(fileA, fileB, { column: 'total_pnl_usd_30d', percent: 20 }, compareInWorker(workerFile));
      return `+${c.added} -${c.gone} ~${c.changed} =${c.both}`;
    }
    case 'compare-open': {
      // The table session on a comparison: open, indexed, a first window of 40 columns.
      const t = await table.RemoteTable.open(fileA, { workerFile, compareWith: fileB });
      try {
        await t.indexed;
        const w = await t.window(0, 60, Array.from({ length: Math.min(40, t.columns.length) }, (_, i) => i));
        return `${t.rowCount} rows, ${w.cells.length} shown`;
      } finally {
        await t.close();
      }
    }
    case 'pipeline-take': {
      // run.ts's take step: the reference resolved and its list file written (from the list as it
      // crossed when this build has resolveReferenceList, else the strings, as run.ts wrote them before).
      const packed = (resolveModule as unknown as Record<string, unknown>).resolveReferenceList;
      if (typeof packed === 'function') {
        const r = await (packed as (ref: { from: string }, p: string, o: { workerFile: string }) => Promise<{ count: number; column: string; file: () => Promise<Uint8Array> }>)({ from: 'top' }, fileA, { workerFile });
        await writeFile(join(scratch, 'top.txt'), await r.file());
        return `${r.count} ${r.column}`;
      }
      const r = await resolveReference({ from: 'top' }, fileA, { workerFile });
      await writeFile(join(scratch, 'top.txt'), listText(r.values));
      return `${r.values.length} ${r.column}`;
    }
    case 'pipeline-filter': {
      const n = await filterResult(fileA, [{ column: 'winrate_7d', op: 'between', value: [0.5, 0.8] }], join(scratch, 'filtered.csv'), 'top', { workerFile });
      return `${n} rows kept`;
    }
    case 'sandbox-start': {
      const inProcess = arg('sandbox', 'thread') === 'in-process';
      const sb = inProcess ? await startSandbox({ port: 0 }) : await startSandboxThread({ port: 0 }, { workerFile: join(root, 'dist', 'sandboxWorker.js') });
      // node:http, not fetch: Node's fetch compiles its own undici on first use, a stall of the bench's, not the sandbox's.
      const status = await new Promise<number>((resolve, reject) =>
        httpGet(`${sb.baseUrl}/credits`, { headers: { api_key: sb.demoKey } }, (res) => res.resume().on('end', () => resolve(res.statusCode ?? 0))).on('error', reject),
      );
      await sb.close();
      return `${inProcess ? 'in-process' : 'its thread'}: /credits ${status}`;
    }
  }
}

/**
 * A host that has been idle has collected its start-up garbage; this fresh process has not, and
 * two of its collections fell inside the clock, pauses no person sees in a host that has been
 * running: the first few MB a path keeps set off a mark-compact of the start-up heap (its limit
 * still low), and V8's memory reducer, about 8 s after a process's first mark-compact, runs up to
 * three more while the host waits (the filter step's and the watch's runs are that long: 5–15 ms
 * each at load 7). So, before the clock: a full GC (`--expose-gc`), then the memory reducer's
 * collections waited out (no major GC for 1.5 s, at least 8.5 s after the full one; 13 s at most).
 * `--no-settle` measures without this.
 */
async function settleHeap(): Promise<void> {
  let lastMajor = performance.now();
  const seen = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) if (((e as unknown as { detail?: { kind?: number } }).detail?.kind ?? 0) & (constants.NODE_PERFORMANCE_GC_MAJOR | constants.NODE_PERFORMANCE_GC_INCREMENTAL)) lastMajor = performance.now();
  });
  seen.observe({ entryTypes: ['gc'] });
  global.gc?.();
  const from = performance.now();
  while (performance.now() - from < 13_000 && (performance.now() - from < 8_500 || performance.now() - lastMajor < 1_500)) await new Promise((r) => setTimeout(r, 100));
  seen.disconnect();
}

/** The child: the path alone under the loop monitor, the launcher (if any) started at an idle moment before. */
async function measure(p: PathName): Promise<Figures> {
  const scratch = await mkdtemp(join(tmpdir(), 'wa-stall-'));
  try {
    await prepare(p);
    await new Promise((r) => setTimeout(r, 300));
    const launcher = startLauncher();
    await new Promise((r) => setTimeout(r, 700));
    if (!flag('no-settle')) await settleHeap();
    // The collections inside the clock, beside the stall: what a path's own allocation costs the
    // host's loop, a figure a loaded machine inflates less than the loop's waits.
    const pauses: { start: number; ms: number; kind: number }[] = [];
    const gcs = new PerformanceObserver((list) => {
      for (const e of list.getEntries()) pauses.push({ start: e.startTime, ms: e.duration, kind: (e as unknown as { detail?: { kind?: number } }).detail?.kind ?? 0 });
    });
    gcs.observe({ entryTypes: ['gc'] });
    const loop = monitorEventLoopDelay({ resolution: 1 });
    loop.enable();
    // The monitor's first tick only sets where it counts from: a path that starts with a synchronous
    // stretch would hide it in that tick. Two ticks first (each path measured from the same point).
    await new Promise((r) => setTimeout(r, 3));
    // Beside the monitor, a 1 ms timer's own ticks: where the longest stall lies, to set the collections against it.
    const ticks: number[] = [];
    const ticker = setInterval(() => ticks.push(performance.now()), 1);
    const t0 = performance.now();
    ticks.push(t0);
    const got = await runPath(p, scratch);
    const ms = performance.now() - t0;
    // The monitor's timer records a stall when it next fires: a path that ends in one synchronous
    // stretch (the price step's check) is seen only if the loop turns before the monitor stops.
    await new Promise((r) => setTimeout(r, 5));
    ticks.push(performance.now());
    clearInterval(ticker);
    loop.disable();
    // The observer is told of the last collections a turn later.
    await new Promise((r) => setImmediate(r));
    gcs.disconnect();
    const durations = pauses.map((e) => e.ms);
    return { path: p, launcher, ms, p99: loop.percentile(99) / 1e6, max: loop.max / 1e6, got, gcMax: Math.max(0, ...durations), gcSum: durations.reduce((a, b) => a + b, 0), longest: longestStall(ticks, pauses) };
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

const f1 = (v: number): string => (Number.isFinite(v) ? v.toFixed(1) : '–');
const load = (): string => (loadavg()[0] ?? 0).toFixed(1);

function runChild(script: string, p: PathName): Figures | string {
  const sandbox = arg('sandbox', '');
  const r = spawnSync(process.execPath, ['--expose-gc', script, '--mode', p, '--file', fileA, '--file-b', fileB, '--rows', String(rows), ...(sandbox ? ['--sandbox', sandbox] : []), ...(flag('no-settle') ? ['--no-settle'] : [])], { encoding: 'utf8', maxBuffer: 16 << 20 });
  const line = r.stdout.trim().split('\n').at(-1) ?? '';
  if (r.status !== 0 || !line.startsWith('{')) return `exit ${String(r.status)}: ${r.stderr.trim().split('\n').slice(-3).join(' ')}`;
  return JSON.parse(line) as Figures;
}

async function main(): Promise<void> {
  if (!existsSync(workerFile)) throw new Error(`${workerFile} is not built: run node esbuild.mjs first.`);
  const rounds = Number(arg('rounds', '3'));
  const beforeDir = arg('before', '');
  const beforeScript = beforeDir ? join(beforeDir, 'out', 'bench', 'hostStall.js') : '';
  if (beforeScript && !existsSync(beforeScript)) throw new Error(`${beforeScript} is not built (node esbuild.mjs --tests in ${beforeDir}).`);
  const paths = arg('paths', PATHS.join(',')).split(',').filter((p): p is PathName => (PATHS as readonly string[]).includes(p));
  await generateWalletCsv(fileA, rows, 1);
  await generateSharedCsv(fileA, fileB, rows, 2, 0.9);
  for (const f of [fileA, fileB]) await new Promise<void>((resolve, reject) => createReadStream(f, { highWaterMark: 8 << 20 }).on('data', () => undefined).on('end', resolve).on('error', reject));
  console.log(`${fileA}: ${(statSync(fileA).size / 1e6).toFixed(0)} MB; B ${(statSync(fileB).size / 1e6).toFixed(0)} MB; ${rounds} round(s)${beforeDir ? `, before = ${beforeDir}` : ''}`);
  const lines: string[] = [];
  const worst = new Map<PathName, number>();
  lines.push(`| Round | Path | load | before: max / p99 (time) | now: max / p99 (time) | now ÷ before (max) | GC pauses, longest / sum: before → now | the longest stall's collections: before → now | what it read |`);
  lines.push('| --- | --- | --- | --- | --- | --- | --- | --- | --- |');
  for (let round = 1; round <= rounds; round++) {
    for (const p of paths) {
      // Interleaved: the older build first on odd rounds, this one first on even ones.
      const order: ('before' | 'now')[] = beforeScript && !NEW_PATHS.includes(p) ? (round % 2 ? ['before', 'now'] : ['now', 'before']) : ['now'];
      const got: Partial<Record<'before' | 'now', Figures | string>> = {};
      const l = load();
      for (const side of order) got[side] = runChild(side === 'now' ? __filename : beforeScript, p);
      const gc = (f: Figures | string | undefined): string => (typeof f === 'object' && f.gcMax !== undefined ? `${f1(f.gcMax)} / ${f1(f.gcSum ?? NaN)}` : '–');
      // "24.1 ms: scavenge 11.7 + incremental marking 1.3": the timer's longest gap and the collections inside it.
      const inLongest = (f: Figures | string | undefined): string =>
        typeof f === 'object' && f.longest ? `${f1(f.longest.ms)} ms: ${f.longest.gc.length ? f.longest.gc.map((g) => `${g.kind} ${f1(g.ms)}`).join(' + ') : 'no collection'}` : '–';
      const cell = (f: Figures | string | undefined): string => (f === undefined ? '–' : typeof f === 'string' ? `failed: ${f}` : `${f1(f.max)} / ${f1(f.p99)} (${f1(f.ms)} ms)`);
      const now = got.now;
      const before = got.before;
      const ratio = typeof now === 'object' && typeof before === 'object' ? (now.max / before.max).toFixed(2) : '–';
      worst.set(p, Math.max(worst.get(p) ?? 0, typeof now === 'object' ? now.max : Infinity));
      const row = `| ${round} | ${p} | ${l} | ${cell(before)} | ${cell(now)} | ${ratio} | ${gc(before)} → ${gc(now)} | ${inLongest(before)} → ${inLongest(now)} | ${typeof now === 'object' ? now.got : ''} |`;
      lines.push(row);
      console.log(row);
    }
  }
  lines.push('');
  for (const p of paths) {
    const m = worst.get(p) ?? Infinity;
    if (p === 'idle') {
      lines.push(`(idle, the machine's noise floor: max ${f1(m)} ms; a path's max near it says little about the path)`);
      continue;
    }
    lines.push(`${m <= BUDGET_MS ? 'PASS' : 'FAIL'} ${p}: the host's longest stall ≤ ${BUDGET_MS} ms (max over ${rounds} round(s): ${f1(m)} ms)`);
  }
  const head = `${cpus().length} cores, load (1 min) ${load()} at the end; node ${process.version}; ${new Date().toISOString().slice(0, 16)}Z; monitorEventLoopDelay at 1 ms resolution over each path alone, a fresh process each.`;
  const text = `${head}\n\n${lines.join('\n')}\n`;
  console.log(`\n${text}`);
  if (arg('write', '') !== '') await writeFile(arg('write', ''), text);
  if ([...worst].some(([p, m]) => p !== 'idle' && !(m <= BUDGET_MS))) process.exitCode = 1;
}

const mode = arg('mode', '');
runPartOrMain((PATHS as readonly string[]).includes(mode) ? () => measure(mode as PathName) : undefined, main);
