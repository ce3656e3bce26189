/**
 * `npm run bench:input`: "Use Result as Input to…" on the 722 MB result (issue 22 item 6). From the
 * command to its price step the extension host reads the result's address columns in a table
 * worker (core/results/readResult.ts) and ranks the endpoints (core/addressLists/inputTargets.ts); this measures
 * that path as the Requests view runs it. Budgets: ≤ 2 s to the price step; the host's event loop
 * stalls ≤ 16 ms at p99; the process's memory grows by ≤ 0.25 × the file (RSS, the worker's
 * included, and the host's own heap apart). A `before` mode runs the old way (fs.readFile into one
 * string, then papaparse) for comparison; on the full file it fails at V8's string limit.
 *
 *   npm run bench:input                       # generates bench/data/wallets-100000-seed1.csv on first use
 *   node out/bench/inputBench.js --rows 20000 # a smaller file, for a quick look
 *
 * Each mode runs in a fresh node process, the file read once beforehand so it is in the page cache.
 */
import { spawnSync } from 'node:child_process';
import { createReadStream, existsSync, statSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import Papa from 'papaparse';
import { listFields, rankTargets, resultRole } from '../src/core/addressLists/inputTargets';
import { readResultLists } from '../src/core/results/readResult';
import { generateWalletCsv } from './tableData';
import { arg, repoRoot, runPartOrMain } from './benchKit';

const rows = Number(arg('rows', '100000'));
const seed = Number(arg('seed', '1'));
const mode = arg('mode', '');
const root = repoRoot();
const file = arg('file', join(root, 'bench', 'data', `wallets-${rows}-seed${seed}.csv`));
const workerFile = join(root, 'dist', 'tableWorker.js');
const BUDGET = { ms: 2000, stallP99: 16, memory: 0.25 };

interface Result {
  readonly ok: boolean;
  readonly error?: string;
  readonly ms: number;
  readonly p50: number;
  readonly p99: number;
  readonly max: number;
  /** Peak growth over the run, bytes: the process's RSS (worker included), and the host isolate's heap + external. */
  readonly rssGrowth: number;
  readonly heapGrowth: number;
  readonly addresses: number;
  readonly first: string;
}


/** One mode in this process: the path to the price step, with the loop's delay and the memory sampled. */
async function runMode(m: 'worker' | 'before'): Promise<Result> {
  await new Promise((r) => setTimeout(r, 300));
  const heap = (): number => {
    const u = process.memoryUsage();
    return u.heapUsed + u.external + u.arrayBuffers;
  };
  const rss0 = process.memoryUsage().rss;
  const heap0 = heap();
  let rssPeak = rss0;
  let heapPeak = heap0;
  const sampler = setInterval(() => {
    rssPeak = Math.max(rssPeak, process.memoryUsage().rss);
    heapPeak = Math.max(heapPeak, heap());
  }, 5);
  const loop = monitorEventLoopDelay({ resolution: 1 });
  loop.enable();
  const t0 = performance.now();
  let addresses = 0;
  let first = '';
  let error: string | undefined;
  try {
    if (m === 'worker') {
      const most = Math.max(...listFields().map((t) => t.field.max ?? 0));
      const lists = await readResultLists(file, { workerFile, limit: most, hint: resultRole('pnl') });
      const { targets } = rankTargets(lists);
      addresses = targets[0]?.count ?? 0;
      first = targets[0] ? `${targets[0].ep.id}: ${targets[0].price.text}` : '';
    } else {
      // The old way ("Use Result as Input to…" before issue 22): the whole file as one string, parsed here.
      const text = await readFile(file, 'utf8');
      const read = performance.now() - t0;
      const parsed = Papa.parse<string[]>(text, { skipEmptyLines: true });
      addresses = Math.max(0, parsed.data.length - 1);
      first = `read ${read.toFixed(0)} ms, parse ${(performance.now() - t0 - read).toFixed(0)} ms`;
    }
  } catch (e) {
    error = e instanceof Error ? e.message : String(e);
  }
  const ms = performance.now() - t0;
  loop.disable();
  clearInterval(sampler);
  rssPeak = Math.max(rssPeak, process.memoryUsage().rss);
  heapPeak = Math.max(heapPeak, heap());
  const ns = (v: number): number => v / 1e6;
  return {
    ok: error === undefined,
    ...(error ? { error } : {}),
    ms,
    p50: ns(loop.percentile(50)),
    p99: ns(loop.percentile(99)),
    max: ns(loop.max),
    rssGrowth: rssPeak - rss0,
    heapGrowth: heapPeak - heap0,
    addresses,
    first,
  };
}

const f1 = (v: number): string => v.toFixed(1);
const mb = (b: number): string => `${(b / 1e6).toFixed(0)} MB`;

async function main(): Promise<void> {
  if (!existsSync(workerFile)) throw new Error(`${workerFile} is not built: run node esbuild.mjs first.`);
  const gen = await generateWalletCsv(file, rows, seed);
  const bytes = statSync(file).size;
  console.log(`${file}: ${(bytes / 1e6).toFixed(0)} MB, ${rows.toLocaleString('en-US')} rows${gen.reused ? ' (reused)' : ''}`);
  await new Promise<void>((resolve, reject) => createReadStream(file, { highWaterMark: 8 << 20 }).on('data', () => undefined).on('end', resolve).on('error', reject));
  const run = (m: 'worker' | 'before'): Result => {
    const r = spawnSync(process.execPath, ['--max-old-space-size=4096', __filename, '--mode', m, '--file', file], { encoding: 'utf8', maxBuffer: 16 << 20 });
    const line = r.stdout.trim().split('\n').at(-1) ?? '';
    if (r.status !== 0 || !line.startsWith('{')) return { ok: false, error: `exit ${String(r.status)}: ${r.stderr.trim().split('\n').slice(-3).join(' ')}`, ms: NaN, p50: NaN, p99: NaN, max: NaN, rssGrowth: NaN, heapGrowth: NaN, addresses: 0, first: '' };
    return JSON.parse(line) as Result;
  };
  const load0 = loadavg()[0] ?? 0;
  const before = arg('before', 'yes') === 'no' ? undefined : run('before');
  const after = run('worker');
  const load1 = loadavg()[0] ?? 0;
  const lines: string[] = [];
  lines.push(`# "Use Result as Input to…" on a ${(bytes / 1e6).toFixed(0)} MB result`);
  lines.push('');
  lines.push(`${rows.toLocaleString('en-US')} rows (bench/tableData.ts, seed ${seed}); ${cpus().length} cores, load average (1 min) ${load0.toFixed(2)} → ${load1.toFixed(2)}; node ${process.version}; ${new Date().toISOString().slice(0, 16)}Z.`);
  lines.push('');
  lines.push('| Way | to the price step | loop p50 / p99 / max | RSS growth (worker included) | host heap growth | result |');
  lines.push('| --- | --- | --- | --- | --- | --- |');
  const row = (name: string, r: Result): string =>
    `| ${name} | ${f1(r.ms)} ms | ${f1(r.p50)} / ${f1(r.p99)} / ${f1(r.max)} ms | ${mb(r.rssGrowth)} = ${(r.rssGrowth / bytes).toFixed(2)} × | ${mb(r.heapGrowth)} = ${(r.heapGrowth / bytes).toFixed(2)} × | ${r.ok ? `${r.addresses.toLocaleString('en-US')} addresses; ${r.first || '–'}` : `failed: ${r.error ?? ''}`} |`;
  if (before) lines.push(row('before: readFile + papaparse on the host', before));
  lines.push(row('now: table worker (readResult.ts)', after));
  lines.push('');
  const verdict = (ok: boolean): string => (ok ? 'PASS' : 'FAIL');
  lines.push(`${verdict(after.ok)} use as input reads the result (${after.ok ? `${after.addresses.toLocaleString('en-US')} addresses` : after.error ?? ''})`);
  lines.push(`${verdict(after.ms <= BUDGET.ms)} use as input: price step ≤ ${BUDGET.ms} ms (${f1(after.ms)} ms)`);
  lines.push(`${verdict(after.p99 <= BUDGET.stallP99)} use as input: host event-loop stall p99 ≤ ${BUDGET.stallP99} ms (${f1(after.p99)} ms; max ${f1(after.max)} ms)`);
  lines.push(`${verdict(after.rssGrowth <= BUDGET.memory * bytes)} use as input: memory growth ≤ ${BUDGET.memory} × the file (RSS ${(after.rssGrowth / bytes).toFixed(2)} ×, host heap ${(after.heapGrowth / bytes).toFixed(3)} ×)`);
  console.log(`\n${lines.join('\n')}\n`);
  if (arg('write', 'yes') !== 'no' && rows === 100_000) await writeFile(join(root, 'bench', 'RESULTS-input.md'), `${lines.join('\n')}\n`);
  if (!after.ok || after.ms > BUDGET.ms || after.p99 > BUDGET.stallP99 || after.rssGrowth > BUDGET.memory * bytes) process.exitCode = 1;
}

runPartOrMain(mode === 'worker' || mode === 'before' ? () => runMode(mode) : undefined, main);
