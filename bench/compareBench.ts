/**
 * Compare and address-set benchmark (issue 15: two 722 MB, 100,000 × 640 results compared in
 * ≤ 5 s, memory growth ≤ 0.5× one file). A is the table benchmark's file (seed 1); B is written
 * from another seed with 90% of A's addresses in a shuffled order and 10% new ones, so the
 * comparison has rows in both, only in A and only in B.
 *
 *   npm run bench:compare                          # 100,000 rows (generates both files once)
 *   node out/bench/compareBench.js --rows 20000    # smaller files, for a quick look
 *
 * Each measure runs in a fresh process (memory is the process's peak RSS minus its RSS before
 * opening). One line per figure, PASS or FAIL against its budget; the rest are for reading.
 */
import { spawnSync } from 'node:child_process';
import { stat, writeFile } from 'node:fs/promises';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { AddressSetCache, combine, countOf, readAddressSet, type SetOperation } from '../src/core/addressLists/addressSets';
import { compareSources } from '../src/core/table/compare/compareSource';
import { openCsvFile, TableView } from '../src/core/table';
import { generateSharedCsv } from './compareData';
import { generateWalletCsv, walletColumns } from './tableData';
import { arg, flag, ms } from './benchKit';

const rows = Number(arg('rows', '100000'));
const part = arg('part', 'main');
const SHARED = 0.9;
const dataDir = join(__dirname, '..', '..', 'bench', 'data');
const fileA = arg('a', join(dataDir, `wallets-${rows}-seed1.csv`));
const fileB = arg('b', join(dataDir, `wallets-${rows}-seed2-shared90.csv`));

type Figures = Record<string, number>;

const peakRss = (): number => process.resourceUsage().maxRSS * 1024;

/** Both files opened and indexed, then compared; then a sort on a Δ column, a status filter and windows. */
async function comparePart(): Promise<Figures> {
  const rss0 = process.memoryUsage().rss;
  const t0 = performance.now();
  const [a, b] = await Promise.all([openCsvFile(fileA), openCsvFile(fileB)]);
  await Promise.all([a.indexed, b.indexed]);
  const indexMs = ms(t0);
  const rssIndexed = process.memoryUsage().rss;
  const t1 = performance.now();
  const cmp = await compareSources(a, b, { ownsSources: true });
  const compareMs = ms(t1);
  const view = new TableView(cmp);
  const first = await view.window(0, 60, Array.from({ length: 40 }, (_, i) => i));
  const readyMs = ms(t0);
  const delta = cmp.columns.indexOf('Δ realized_pnl_usd_30d');
  const t2 = performance.now();
  await view.apply({ sort: [{ column: delta, descending: true }] });
  const sortMs = ms(t2);
  const t3 = performance.now();
  await view.apply({ sort: [{ column: delta, descending: true }], filters: [{ kind: 'contains', column: 0, text: 'in both' }] });
  const filterMs = ms(t3);
  const times: number[] = [];
  for (let i = 0; i < 50; i++) {
    const at = Math.floor(((i * 7919) % 97) / 97 * Math.max(1, view.length - 60));
    const t = performance.now();
    await view.window(at, at + 60, Array.from({ length: 40 }, (_, k) => 2 + ((i * 40 + k) % (cmp.columns.length - 2))));
    times.push(ms(t));
  }
  times.sort((x, y) => x - y);
  const peak = peakRss();
  await cmp.close();
  return {
    fileBytes: (await stat(fileA)).size,
    indexMs,
    compareMs,
    readyMs,
    sortMs,
    filterMs,
    windowP95Ms: times[Math.floor(0.95 * times.length)] ?? NaN,
    firstCells: first.cells.length,
    both: cmp.counts.both,
    onlyA: cmp.counts.onlyA,
    onlyB: cmp.counts.onlyB,
    columns: cmp.columns.length,
    deltas: cmp.deltaColumns,
    rssGrowth: peak - rss0,
    compareRssGrowth: peak - rssIndexed,
  };
}

/** The address sets of both files (each read once), then every operation's count, as a picker asks them. */
async function setsPart(): Promise<Figures> {
  const rss0 = process.memoryUsage().rss;
  const t0 = performance.now();
  const cache = new AddressSetCache((f) => readAddressSet(f));
  const sets = await Promise.all([cache.get(fileA), cache.get(fileB)]);
  const readMs = ms(t0);
  const ops: SetOperation[] = ['intersect', 'union', 'subtract'];
  // The picker counts again on every change of the selection: the first time, then the median of five.
  let counts: number[] = [];
  const countTimes: number[] = [];
  for (let i = 0; i < 6; i++) {
    const t1 = performance.now();
    counts = ops.map((op) => countOf(op, sets));
    countTimes.push(ms(t1));
  }
  const firstCountMs = countTimes[0] ?? NaN;
  const countMs = countTimes.slice(1).sort((x, y) => x - y)[2] ?? NaN;
  const t2 = performance.now();
  const list = combine('intersect', sets);
  const listMs = ms(t2);
  return {
    readMs,
    firstCountMs,
    countMs,
    listMs,
    intersect: counts[0] ?? NaN,
    union: counts[1] ?? NaN,
    subtract: counts[2] ?? NaN,
    listed: list.length,
    rssGrowth: peakRss() - rss0,
  };
}

function runPart(name: string): Figures {
  const r = spawnSync(process.execPath, [__filename, '--part', name, '--a', fileA, '--b', fileB, '--rows', String(rows)], { encoding: 'utf8', maxBuffer: 1 << 20 });
  if (r.status !== 0) throw new Error(`part ${name} failed:\n${r.stderr}`);
  return JSON.parse(r.stdout.trim().split('\n').pop() ?? '{}') as Figures;
}

const fmtMs = (v: number | undefined): string => (v === undefined || Number.isNaN(v) ? '–' : v >= 1000 ? `${(v / 1000).toFixed(2)} s` : `${v < 10 ? v.toFixed(1) : v.toFixed(0)} ms`);
const fmtMb = (v: number | undefined): string => (v === undefined ? '–' : `${(v / 1e6).toFixed(0)} MB`);
const n = (v: number | undefined): string => (v ?? NaN).toLocaleString('en-US');

async function main(): Promise<void> {
  const t = performance.now();
  const genA = await generateWalletCsv(fileA, rows, 1);
  await generateSharedCsv(fileA, fileB, rows, 2, SHARED);
  console.error(genA.reused ? `using ${fileA} and ${fileB}` : `generated the files in ${fmtMs(ms(t))}`);
  const c = runPart('compare');
  const s = runPart('sets');
  const size = c.fileBytes ?? 0;
  const shared = Math.round(SHARED * rows);
  const line = (ok: boolean, what: string, measured: string, budget: string): string => `${ok ? 'PASS' : 'FAIL'}  ${what}: ${measured} (budget ${budget})`;
  const lines = [
    `Compare: A ${fileA} and B ${fileB}, ${n(rows)} rows × ${walletColumns().length} columns each, ${fmtMb(size)} each; node ${process.version}.`,
    line((c.compareMs ?? Infinity) <= 5000, 'Compare two results after both are indexed', fmtMs(c.compareMs), '≤ 5 s'),
    line((c.readyMs ?? Infinity) <= 5000, 'Compare including opening and indexing both (to the first 60 × 40 window)', fmtMs(c.readyMs), '≤ 5 s'),
    line((c.rssGrowth ?? Infinity) <= 0.5 * size, 'Memory growth, both opened, indexed, compared, sorted and filtered (peak RSS − RSS before open)', fmtMb(c.rssGrowth), `≤ ${fmtMb(0.5 * size)}, 0.5 × one file`),
    line(c.both === shared && c.onlyA === rows - shared && c.onlyB === rows - shared, 'Rows in both / only in A / only in B', `${n(c.both)} / ${n(c.onlyA)} / ${n(c.onlyB)}`, `${n(shared)} / ${n(rows - shared)} / ${n(rows - shared)}`),
    line((c.sortMs ?? Infinity) <= 3000, 'First sort on a Δ column (types the column in both files)', fmtMs(c.sortMs), '≤ 3 s, as a first sort'),
    line((c.filterMs ?? Infinity) <= 1000, 'Filter on the status column, keeping the sort', fmtMs(c.filterMs), '≤ 1 s, as a filter'),
    line((c.windowP95Ms ?? Infinity) <= 16, 'Window of 60 rows × 40 compared columns, p95 of 50', fmtMs(c.windowP95Ms), '≤ 16 ms, as a window'),
    line((s.readMs ?? Infinity) <= 5000, 'Address sets: read both results’ address columns (open, index, one column)', fmtMs(s.readMs), '≤ 5 s, as a compare'),
    line((s.countMs ?? Infinity) <= 100, 'Address sets: intersect, union and subtract counts (what the picker shows live), median of 5', `${fmtMs(s.countMs)} (first ${fmtMs(s.firstCountMs)})`, '≤ 100 ms'),
    line(s.intersect === shared && s.union === rows + rows - shared && s.subtract === rows - shared && s.listed === shared, 'Address sets: counts', `∩ ${n(s.intersect)}, ∪ ${n(s.union)}, A − B ${n(s.subtract)}`, `${n(shared)}, ${n(2 * rows - shared)}, ${n(rows - shared)}`),
    `      also: compare-only memory growth (peak − RSS once indexed) ${fmtMb(c.compareRssGrowth)}; open + index both ${fmtMs(c.indexMs)}; ${n(c.columns)} columns (${n(c.deltas)} Δ); intersect list built in ${fmtMs(s.listMs)}; sets memory growth ${fmtMb(s.rssGrowth)}.`,
  ];
  console.log(lines.join('\n'));
  if (lines.some((l) => l.startsWith('FAIL'))) process.exitCode = 1;
  if (rows === 100_000 && !flag('a') && !flag('b')) {
    const out = join(__dirname, '..', '..', 'bench', 'RESULTS-compare.md');
    const [l1, l5] = loadavg();
    await writeFile(
      out,
      `# Compare and address sets: benchmark results\n\nMeasured ${new Date().toISOString().slice(0, 10)} with \`npm run bench:compare\` (bench/compareBench.ts), ${cpus().length} cores, load average ${(l1 ?? 0).toFixed(2)} / ${(l5 ?? 0).toFixed(2)} after.\n\n\`\`\`\n${lines.join('\n')}\n\`\`\`\n`,
    );
    console.error(`wrote ${out}`);
  }
}

if (part === 'compare') void comparePart().then((f) => console.log(JSON.stringify(f)));
else if (part === 'sets') void setsPart().then((f) => console.log(JSON.stringify(f)));
else void main();
