/**
 * Benchmark of the analysis panel's host side (issue 15) on the synthetic /pnl result of the
 * table bench (100,000 × 640, ~722 MB): a column's profile, a histogram and a scatter's points,
 * each asked of the table's worker through RemoteTable exactly as the table session does, one
 * line each with PASS or FAIL against the issue's budgets.
 *
 *   npm run bench:analysis                          # also run by npm run bench:table
 *   node out/bench/analysisBench.js --rows 20000     # a smaller file, for a quick look
 *   … --runs 5                                       # medians of 5 sessions (default 3)
 *   … --wait-quiet 10                                # first wait ≤ 10 min for a 1-minute load average < 1
 *
 * Each session opens the file in a fresh worker. Results go to stdout as Markdown and, for the
 * full-size file, to bench/RESULTS-analysis.md.
 */
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { cpus, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';
import { RemoteTable } from '../src/core/table';
import type { ScatterData } from '../src/shared/analysisProtocol';
import { generateWalletCsv, walletColumns } from './tableData';
import { arg, ms } from './benchKit';

const FULL_ROWS = 100_000;
const rows = Number(arg('rows', String(FULL_ROWS)));
const seed = Number(arg('seed', '1'));
const runs = Math.max(1, Number(arg('runs', '3')));
const waitQuietMinutes = Number(arg('wait-quiet', '0'));
const root = join(__dirname, '..', '..');
const dataDir = join(root, 'bench', 'data');
const file = arg('file', join(dataDir, `wallets-${rows}-seed${seed}.csv`));
const workerFile = join(root, 'dist', 'tableWorker.js');

type Figures = Record<string, number>;


function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)] ?? NaN;
}

/**
 * What VS Code does to a message for webview.postMessage (extHostWebview's serializeWebviewMessage,
 * engines ≥ 1.57): typed arrays are taken out and sent as binary buffers, the rest as JSON.
 * Timed on the host because it runs on the host's main thread.
 */
function serialiseForWebview(message: { type: string; requestId: number; scatter: ScatterData }): { json: number; buffers: number } {
  const buffers: Uint8Array[] = [];
  const json = JSON.stringify(message, (_key, value: unknown) => {
    if (ArrayBuffer.isView(value)) {
      buffers.push(new Uint8Array(value.buffer, value.byteOffset, value.byteLength).slice());
      return { $$vscode_array_buffer_reference$$: buffers.length - 1 };
    }
    return value;
  });
  return { json: json.length, buffers: buffers.reduce((n, b) => n + b.byteLength, 0) };
}

/** One person's session: open, and the moment the index is done ask for a profile; then the other requests. */
async function session(): Promise<Figures> {
  const columns = walletColumns();
  const col = (name: string): number => {
    const i = columns.indexOf(name);
    if (i < 0) throw new Error(`no column ${name}`);
    return i;
  };
  const f: Figures = {};
  let t = performance.now();
  const table = await RemoteTable.open(file, { workerFile });
  try {
    await table.indexed;
    f.indexMs = ms(t);

    // Right after the index: the background cell walk is still running and the column waits for it.
    t = performance.now();
    const first = await table.profile(col('realized_pnl_usd_30d'));
    f.profileAfterIndexMs = ms(t);
    f.profileRows = first.count;

    // A column not typed before, the walk done: what a person sees on a second look.
    t = performance.now();
    const second = await table.profile(col('total_pnl_usd_7d'));
    f.profileMs = ms(t);
    f.profileWorkerMs = second.ms;

    t = performance.now();
    await table.profile(col('total_pnl_usd_7d'));
    f.profileCachedMs = ms(t);

    t = performance.now();
    const h = await table.histogram(col('realized_pnl_usd_7d'), 30, true);
    f.histogramMs = ms(t);
    f.histogramCounted = h.counted;

    t = performance.now();
    await table.histogram(col('realized_pnl_usd_7d'), 100, false);
    f.histogramCachedMs = ms(t);

    // Two columns not typed before: typing them both is part of the request.
    t = performance.now();
    const cold = await table.scatter(col('winrate_30d'), col('total_pnl_usd_30d'));
    f.scatterColdMs = ms(t);
    f.scatterPoints = cold.xs.length;

    // Columns typed: the payload part alone (worker pass, clone to the host, VS Code's serialisation).
    t = performance.now();
    const warm = await table.scatter(col('winrate_30d'), col('realized_pnl_usd_30d'));
    f.scatterWorkerMs = warm.ms;
    f.scatterHostMs = ms(t);
    const s = performance.now();
    const wire = serialiseForWebview({ type: 'scatter', requestId: 1, scatter: warm });
    f.serialiseMs = ms(s);
    f.scatterPayloadMs = ms(t);
    f.scatterBytes = wire.json + wire.buffers;
    f.scatterWarmPoints = warm.xs.length;

    // A filtered view: the statistics follow it.
    await table.apply({ filters: [{ kind: 'range', column: col('winrate_7d'), min: 0.5, max: 0.8 }] });
    t = performance.now();
    const filtered = await table.profile(col('realized_pnl_usd_30d'));
    f.profileFilteredMs = ms(t);
    f.filteredRows = filtered.count;
  } finally {
    await table.close();
  }
  return f;
}

/** Waits until the 1-minute load average is below 1, for at most `minutes`. */
async function waitQuiet(minutes: number): Promise<void> {
  const until = Date.now() + minutes * 60_000;
  while ((loadavg()[0] ?? 0) >= 1 && Date.now() < until) await new Promise((r) => setTimeout(r, 5000));
}

const fmtMs = (v: number | undefined): string =>
  v === undefined || Number.isNaN(v) ? '–' : v >= 1000 ? `${(v / 1000).toFixed(2)} s` : `${v < 10 ? v.toFixed(1) : v.toFixed(0)} ms`;
const fmtN = (v: number | undefined): string => (v === undefined ? '–' : v.toLocaleString('en-US'));

async function main(): Promise<void> {
  if (!existsSync(workerFile)) throw new Error(`${workerFile} is not built (node esbuild.mjs)`);
  const t = performance.now();
  const gen = await generateWalletCsv(file, rows, seed);
  console.error(gen.reused ? `using ${file}` : `generated ${file} in ${fmtMs(ms(t))}`);
  if (waitQuietMinutes > 0) await waitQuiet(waitQuietMinutes);
  const loadBefore = loadavg();
  const all: Figures[] = [];
  for (let i = 0; i < runs; i++) all.push(await session());
  const loadAfter = loadavg();
  const m: Figures = {};
  for (const key of Object.keys(all[0] ?? {})) m[key] = median(all.map((f) => f[key] ?? NaN));

  const verdict = (v: number | undefined, limit: number): string => ((v ?? Infinity) <= limit ? 'PASS' : 'FAIL');
  const budgets: [string, string, number | undefined, number][] = [
    ['Profile of a numeric column, asked the moment the index is done (waits for the cell walk)', '≤ 1 s', m.profileAfterIndexMs, 1000],
    ['Profile of a numeric column not typed before (cell walk done)', '≤ 1 s', m.profileMs, 1000],
    ['Histogram (30 bins, log) of a numeric column not typed before', '≤ 1 s', m.histogramMs, 1000],
    [`Scatter payload, ${fmtN(m.scatterPoints)} points, two columns not typed before (request → arrays on the host)`, '≤ 500 ms', m.scatterColdMs, 500],
    ['Scatter payload, columns typed (request → arrays on the host → serialised for the webview)', '≤ 150 ms', m.scatterPayloadMs, 150],
  ];
  const lines = [
    `File: ${fmtN(rows)} rows × 640 columns, ${(gen.bytes / 1e6).toFixed(0)} MB (in page cache). Node ${process.version}, ${cpus().length} cores, ${(totalmem() / 1e6).toFixed(0)} MB RAM.`,
    `Load average (1/5/15 min): ${loadBefore.map((l) => l.toFixed(2)).join(' / ')} before, ${loadAfter.map((l) => l.toFixed(2)).join(' / ')} after.`,
    `Medians of ${runs} sessions, each in a fresh worker (RemoteTable, as the table session uses it); times from the host's request to its reply.`,
    ...((loadBefore[0] ?? 0) >= cpus().length
      ? [
          `The machine was busy (load ${(loadBefore[0] ?? 0).toFixed(1)} on ${cpus().length} cores): the worker runs at nice 5 and waits its turn, so the figures`,
          'that type a column (a pass over the file) are slower than on a free machine; the statistics themselves are the "column typed" lines.',
        ]
      : []),
    '',
    ...budgets.map(([name, target, value, limit]) => `${verdict(value, limit)}  ${name}: ${fmtMs(value)} (budget ${target})`),
    '',
    '| Reference, same sessions | Measured |',
    '| --- | --- |',
    `| Whole-file index in the worker (from open) | ${fmtMs(m.indexMs)} |`,
    `| Profile rows (every row of the view, no sample) | ${fmtN(m.profileRows)} |`,
    `| Profile, time inside the worker (typed column + statistics) | ${fmtMs(m.profileWorkerMs)} |`,
    `| Profile again, column typed (statistics + round trip) | ${fmtMs(m.profileCachedMs)} |`,
    `| Profile over a filtered view (${fmtN(m.filteredRows)} rows), column typed | ${fmtMs(m.profileFilteredMs)} |`,
    `| Histogram again, 100 bins linear, column typed | ${fmtMs(m.histogramCachedMs)} |`,
    `| Scatter, columns typed: worker pass / request → host / VS Code's serialisation | ${fmtMs(m.scatterWorkerMs)} / ${fmtMs(m.scatterHostMs)} / ${fmtMs(m.serialiseMs)} |`,
    `| Scatter message size (JSON + binary buffers), ${fmtN(m.scatterWarmPoints)} points | ${((m.scatterBytes ?? 0) / 1e6).toFixed(2)} MB |`,
    '',
    'How each figure is taken (bench/analysisBench.ts): RemoteTable.open in a fresh worker, then, in order,',
    'profile of realized_pnl_usd_30d issued as `indexed` resolves (the background cell walk still runs, the',
    'column waits for it and is typed), profile of total_pnl_usd_7d (not typed before), the same again,',
    'histogram of realized_pnl_usd_7d (30 bins, log10 of the positive values), then 100 bins linear, scatter',
    'of winrate_30d × total_pnl_usd_30d (both new), scatter of winrate_30d × realized_pnl_usd_30d (typed),',
    'and what VS Code does to it for webview.postMessage (typed arrays out as binary, the rest as JSON).',
    "The webview's drawing of the points is the charts side's part of the 500 ms (bench of the webview).",
  ];
  const markdown = lines.join('\n');
  console.log(markdown);
  if (rows === FULL_ROWS && file.endsWith(`wallets-${FULL_ROWS}-seed${seed}.csv`)) {
    const out = join(root, 'bench', 'RESULTS-analysis.md');
    await writeFile(
      out,
      `# Analysis panel, host side: benchmark results\n\nMeasured ${new Date().toISOString().slice(0, 10)} with \`npm run bench:analysis\` (bench/analysisBench.ts).\n\n${markdown}\n`,
    );
    console.error(`wrote ${out}`);
  }
  if (budgets.some(([, , value, limit]) => (value ?? Infinity) > limit)) process.exitCode = 1;
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
