/**
 * `npm run bench:engine`: every figure of issue 34's table, through the path the product uses
 * (the table in its worker, RemoteTable), on the issue's four shapes, with DuckDB's one-shot
 * `ORDER BY … LIMIT 60` on the same CSV in the same run. tableBench.ts measures the engine on its
 * own thread against budgets of its own; this one answers the issue's questions side by side:
 *
 *   index ÷ reading the file         open (worker start included) to every row indexed, over plain 8 MiB reads of it;
 *                                    beside it, the file read as the engine's passes read it (passReads): a pass's floor
 *   first sort                       a sort issued the moment the index is done, to its answer (and the CPU of all
 *                                    the process's threads meanwhile: on a loaded machine the steadier figure);
 *                                    "its pass" is the part up to the worker's last progress of the pass that reads the
 *                                    sort column from the file, the rest is the sort itself and the answer's way back
 *   memory growth ÷ file             peak RSS of the process (the worker is a thread of it) minus RSS before open
 *   a 60-row window, p95             200 windows of 60 rows × 40 columns (all, when fewer) of the sorted view, cut as the
 *                                    grid asks for them (WINDOW_CELL_CHARS; `--whole-windows`: every cell whole)
 *   open → first sorted window       open, sort, the first 60 sorted rows, over DuckDB's one-shot query for them
 *
 * Shapes (bench/tableData.ts, seed 1; files in bench/data/, generated once and reused):
 *   quoted  1,000,000 rows × 12 quoted text cells (~206 MB)
 *   long    40,000 rows with one 5–20 KB quoted cell (~548 MB)
 *   wide    100,000 wallets × 640 metrics (~722 MB)
 *   huge    250,000 wallets × 640 metrics (~1.81 GB)
 *
 *   npm run bench:engine                                  # 3 interleaved rounds of every shape
 *   node out/bench/engineBench.js --rounds 5 --shape quoted,long
 *   … --worker /path/to/tableWorker.js --data /path/to/bench/data   # another build of the worker
 *   node out/bench/engineBench.js --part engine --shape long --file … --no-walk   # one session, the table opened without the cell walk (prepareColumns false)
 *   … --before /path/to/an/older/build   # that build's dist/tableWorker.js too (measured by this script, no spare
 *                                          worker started, as its own bench did), in the same rounds: every figure as before → after
 *   … --before /a,/b --prestart-before   # several builds, oldest first (each figure a → b → after), each with a spare
 *                                          worker started before the clock as the after side has (builds from 857d129 on,
 *                                          whose worker says when it is warm): the engines compared alone, e.g. to find the
 *                                          commit that moved a figure
 *
 * Every measurement runs in a fresh node process; the rounds are interleaved (each round runs
 * every shape's engine session and DuckDB's query in turn), so a load that rises or falls during
 * the run weighs on both sides alike, and the table shows medians with the load average beside.
 */
import { spawnSync } from 'node:child_process';
import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { cpus, loadavg, totalmem } from 'node:os';
import { basename, join } from 'node:path';
import { prestartTableWorker, RemoteTable, WINDOW_CELL_CHARS } from '../src/core/table';
import { CHUNK_BYTES, READ_BUFFERS } from '../src/core/table/rowChunks';
import { generateLongCellCsv, generateQuotedCsv, generateWalletCsv, LONG_CELL_COLUMNS, QUOTED_COLUMNS, seededRandom, walletColumns } from './tableData';
import { arg, flag, ms, quantile, randomWindowTimes, repoRoot, runPartOrMain } from './benchKit';



const root = repoRoot();
const dataDir = arg('data', join(root, 'bench', 'data'));
const workerFile = arg('worker', join(root, 'dist', 'tableWorker.js'));
const rounds = Math.max(1, Number(arg('rounds', '3')));
/** Older builds (folders with dist/tableWorker.js, comma-separated, oldest first), measured in the same rounds. */
const beforeDirs = arg('before', '').split(',').filter((d) => d !== '');

interface Shape {
  readonly name: string;
  readonly rows: number;
  readonly file: string;
  readonly columns: readonly string[];
  readonly sortColumn: string;
  generate(path: string, rows: number, seed: number): Promise<{ bytes: number; reused: boolean }>;
}

const SHAPES: readonly Shape[] = [
  { name: 'quoted', rows: 1_000_000, file: 'quoted-1000000-seed1.csv', columns: QUOTED_COLUMNS, sortColumn: 'amount', generate: generateQuotedCsv },
  { name: 'long', rows: 40_000, file: 'longcell-40000-seed1.csv', columns: LONG_CELL_COLUMNS, sortColumn: 'amount', generate: generateLongCellCsv },
  { name: 'wide', rows: 100_000, file: 'wallets-100000-seed1.csv', columns: walletColumns(), sortColumn: 'total_pnl_usd_30d', generate: generateWalletCsv },
  { name: 'huge', rows: 250_000, file: 'wallets-250000-seed1.csv', columns: walletColumns(), sortColumn: 'total_pnl_usd_30d', generate: generateWalletCsv },
];

type Figures = Record<string, number>;



/**
 * The file read the way the engine's passes read it (rowChunks.ts: CHUNK_BYTES reads on libuv's
 * threads, READ_BUFFERS − 1 in flight while one chunk is worked on), with no work on the chunks:
 * the floor of a pass over the file, such as the first sort's.
 */
async function passReads(file: string): Promise<number> {
  const fh = await open(file, 'r');
  const size = (await fh.stat()).size;
  const buffers = Array.from({ length: READ_BUFFERS }, () => Buffer.allocUnsafe(CHUNK_BYTES));
  const t = performance.now();
  const inFlight: Promise<unknown>[] = [];
  let pos = 0;
  let which = 0;
  const fill = (reads: number): void => {
    for (; inFlight.length < reads && pos < size; pos += CHUNK_BYTES) inFlight.push(fh.read(buffers[which++ % READ_BUFFERS] as Buffer, 0, CHUNK_BYTES, pos));
  };
  fill(READ_BUFFERS);
  for (let next = inFlight.shift(); next; next = inFlight.shift()) {
    await next;
    fill(READ_BUFFERS - 1);
  }
  const took = ms(t);
  await fh.close();
  return took;
}

/** Plain 8 MiB reads of the whole file: what reading it costs, the index's yardstick; and the passes' reads of it (passReads). */
async function readPart(file: string): Promise<Figures> {
  const t = performance.now();
  const fd = openSync(file, 'r');
  const buf = Buffer.allocUnsafe(8 << 20);
  let pos = 0;
  for (;;) {
    const n = readSync(fd, buf, 0, buf.length, pos);
    if (n <= 0) break;
    pos += n;
  }
  closeSync(fd);
  const readMs = ms(t);
  return { readMs, passReadsMs: await passReads(file) };
}

/** The product's path: open in a worker, first rows, index, first sort, the sorted rows, then windows. */
async function enginePart(shape: Shape, file: string): Promise<Figures> {
  const sortColumn = shape.columns.indexOf(shape.sortColumn);
  const width = Math.min(40, shape.columns.length);
  const rand = seededRandom(42);
  const block = (): number[] => {
    const first = Math.floor(rand() * (shape.columns.length - width + 1));
    return Array.from({ length: width }, (_, i) => first + i);
  };
  global.gc?.();
  const before = process.memoryUsage().rss;
  // A worker ready before it is needed, as the table session keeps one (prestartTableWorker); its memory counts as the table's.
  if (flag('prestart')) await prestartTableWorker(workerFile);
  const f: Figures = {};
  // CPU of every thread of the process (the worker's included; this thread only waits): what a part costs whatever the load.
  const cpu = (): number => {
    const u = process.cpuUsage();
    return (u.user + u.system) / 1000;
  };
  const c0 = cpu();
  const t0 = performance.now();
  const table = await RemoteTable.open(file, { workerFile, ...(flag('no-walk') ? { prepareColumns: false } : {}) });
  await table.window(0, 60, block());
  f.firstRowsMs = ms(t0);
  await table.indexed;
  f.indexMs = ms(t0);
  f.indexCpuMs = cpu() - c0;
  const t = performance.now();
  const c = cpu();
  // The pass over the file for the sort column reports progress (the last step always); its last report is where the pass ends.
  let passEnd = t;
  await table.apply({ sort: [{ column: sortColumn, descending: true }] }, { onProgress: () => (passEnd = performance.now()) });
  f.firstSortMs = ms(t);
  f.firstSortPassMs = passEnd - t;
  f.firstSortCpuMs = cpu() - c;
  await table.window(0, 60, block());
  f.openToSortedMs = ms(t0);
  const windows = await randomWindowTimes(table, () => table.rowCount, rand, block, 200, flag('whole-windows') ? undefined : WINDOW_CELL_CHARS);
  f.windowP95Ms = quantile(windows, 0.95);
  f.windowMaxMs = Math.max(...windows);
  f.rssGrowth = process.resourceUsage().maxRSS * 1024 - before;
  await table.close();
  return f;
}

/** DuckDB's one-shot answer to the same question: the first 60 rows of the file sorted, from a fresh instance. */
async function duckPart(shape: Shape, file: string): Promise<Figures> {
  const { DuckDBInstance } = await import('@duckdb/node-api');
  const t = performance.now();
  const instance = await DuckDBInstance.create(':memory:');
  const connection = await instance.connect();
  const sql = `SELECT * FROM read_csv('${file.replace(/'/gu, "''")}') ORDER BY "${shape.sortColumn}" DESC LIMIT 60`;
  const reader = await connection.runAndReadAll(sql);
  const rows = reader.getRows().length;
  const f = { duckMs: ms(t), duckRows: rows };
  connection.closeSync();
  instance.closeSync();
  return f;
}

function runPart(part: string, shape: Shape, build?: string): Figures {
  const file = join(dataDir, shape.file);
  // The older build's worker under this script (the same clock and figures; the host's side of the
  // protocol is unchanged), with no spare worker started, as that build's own bench ran it.
  const script = __filename;
  const worker = build ? join(build, 'dist', 'tableWorker.js') : workerFile;
  const prestart = build === undefined || flag('prestart-before');
  const r = spawnSync(process.execPath, ['--expose-gc', script, '--part', part, '--shape', shape.name, '--file', file, '--worker', worker, ...(prestart ? ['--prestart'] : [])], {
    encoding: 'utf8',
    maxBuffer: 1 << 20,
  });
  if (r.status !== 0) throw new Error(`part ${part} of ${shape.name} failed:\n${r.stderr}`);
  return JSON.parse(r.stdout.trim().split('\n').pop() ?? '{}') as Figures;
}

function fmtMs(v: number | undefined): string {
  if (v === undefined || Number.isNaN(v)) return '–';
  return v >= 1000 ? `${Math.round(v).toLocaleString('en-US')} ms` : `${v < 10 ? v.toFixed(1) : v.toFixed(0)} ms`;
}

const load = (): string => loadavg().map((l) => l.toFixed(1)).join(' / ');

async function main(): Promise<void> {
  const wanted = arg('shape', 'all');
  const shapes = wanted === 'all' ? SHAPES : SHAPES.filter((s) => wanted.split(',').includes(s.name));
  for (const s of shapes) {
    const path = join(dataDir, s.file);
    const t = performance.now();
    const g = await s.generate(path, s.rows, 1);
    console.error(g.reused ? `using ${path}` : `generated ${path} in ${fmtMs(ms(t))}`);
    await readPart(path); // into the page cache, so every round reads it from memory
  }
  // Per round and shape: the read, the older build's session (when asked), this build's, DuckDB's query.
  // Each older build is a side named by its folder; this build is 'after'.
  const builds = new Map<string, string>(beforeDirs.map((d) => [basename(d), d]));
  const sides = [...builds.keys(), 'after'];
  if (new Set(sides).size !== beforeDirs.length + 1) throw new Error(`--before: each build's folder needs a name of its own, none 'after' (${beforeDirs.join(', ')})`);
  const all = new Map<string, Figures[]>();
  const loads: string[] = [`${load()} before`];
  for (let k = 0; k < rounds; k++) {
    for (const s of shapes) {
      const read = runPart('read', s);
      for (const side of sides) {
        const f = { ...read, ...runPart('engine', s, builds.get(side)) };
        console.error(`round ${k + 1} ${s.name} ${side}: ${JSON.stringify(f)} (load ${load()})`);
        all.set(`${s.name}/${side}`, [...(all.get(`${s.name}/${side}`) ?? []), f]);
      }
      const duck = runPart('duck', s);
      console.error(`round ${k + 1} ${s.name} duckdb: ${JSON.stringify(duck)} (load ${load()})`);
      all.set(`${s.name}/duck`, [...(all.get(`${s.name}/duck`) ?? []), duck]);
    }
    loads.push(`${load()} after round ${k + 1}`);
  }
  const med = (key: string, figure: string): number => quantile((all.get(key) ?? []).map((f) => f[figure] ?? NaN), 0.5);
  const size = (s: Shape): number => statSync(join(dataDir, s.file)).size;
  // One cell: each side's figure, "before → after" when there are two.
  const cell = (s: Shape, show: (key: string) => string): string => sides.map((side) => show(`${s.name}/${side}`)).join(' → ');
  const head = ['Figure', 'Budget', ...shapes.map((s) => `${s.name} (${(size(s) / 1e6).toFixed(0)} MB)`)];
  const row = (label: string, budget: string, show: (s: Shape) => string): string => `| ${[label, budget, ...shapes.map(show)].join(' | ')} |`;
  const lines = [
    `Node ${process.version}, ${cpus().length} cores, ${(totalmem() / 2 ** 30).toFixed(0)} GiB RAM; ${builds.size > 0 ? `before: ${beforeDirs.join(', ')}${flag('prestart-before') ? ' (each with a spare worker started before the clock)' : ''}, after: ` : ''}worker ${workerFile} (a spare worker started before the clock, prestartTableWorker); medians of ${rounds} interleaved rounds, each part in a fresh process, files in the page cache.`,
    `Load average (1/5/15 min): ${loads.join('; ')}.`,
    '',
    `| ${head.join(' | ')} |`,
    `| ${head.map(() => '---').join(' | ')} |`,
    row('index ÷ reading the file', '≤ 1.5×', (s) => cell(s, (k) => `${(med(k, 'indexMs') / med(`${s.name}/${sides[0]}`, 'readMs')).toFixed(2)}×`)),
    row('index', '', (s) => cell(s, (k) => fmtMs(med(k, 'indexMs')))),
    row('reading the file (8 MiB reads)', '', (s) => fmtMs(med(`${s.name}/${sides[0]}`, 'readMs'))),
    row("reading it as a pass does (1 MiB reads, 2 in flight, no work on them)", '', (s) => fmtMs(med(`${s.name}/${sides[0]}`, 'passReadsMs'))),
    row('first sort', '≤ 500 ms', (s) => cell(s, (k) => fmtMs(med(k, 'firstSortMs')))),
    row('first sort, CPU of all threads (the load touches it least)', '', (s) => cell(s, (k) => fmtMs(med(k, 'firstSortCpuMs')))),
    row('first sort: its pass over the file', '', (s) => cell(s, (k) => fmtMs(med(k, 'firstSortPassMs')))),
    row('index, CPU of all threads', '', (s) => cell(s, (k) => fmtMs(med(k, 'indexCpuMs')))),
    row('memory growth ÷ file', '≤ 0.25×', (s) => cell(s, (k) => `${(med(k, 'rssGrowth') / size(s)).toFixed(2)}×`)),
    row('a 60-row window, p95', '≤ 16 ms', (s) => cell(s, (k) => fmtMs(med(k, 'windowP95Ms')))),
    row('open → first sorted window ÷ DuckDB one-shot', '< 1', (s) => cell(s, (k) => (med(k, 'openToSortedMs') / med(`${s.name}/duck`, 'duckMs')).toFixed(2))),
    row('open → first sorted window', '', (s) => cell(s, (k) => fmtMs(med(k, 'openToSortedMs')))),
    row('DuckDB one-shot `ORDER BY … LIMIT 60` on the CSV', '', (s) => fmtMs(med(`${s.name}/duck`, 'duckMs'))),
    row('first rows after open', '', (s) => cell(s, (k) => fmtMs(med(k, 'firstRowsMs')))),
  ];
  console.log(lines.join('\n'));
}

/** One measured part in this fresh process (the parent's main spawns one per part and round). */
function measuredPart(part: string): Promise<unknown> {
  const shape = SHAPES.find((s) => s.name === arg('shape', ''));
  if (!shape) throw new Error(`no shape ${arg('shape', '')}`);
  const file = arg('file', '');
  return part === 'read' ? readPart(file) : part === 'engine' ? enginePart(shape, file) : duckPart(shape, file);
}

const part = arg('part', '');
runPartOrMain(part ? () => measuredPart(part) : undefined, main);
