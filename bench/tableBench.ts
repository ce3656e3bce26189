/**
 * Benchmark of the table data path on three shapes of file, every budget with pass/fail beside
 * the read-and-count-newlines floor, all in one run:
 *   wide      a synthetic /pnl result, 100,000 rows × 640 columns of numbers (~723 MB), with
 *             papaparse's streaming parse of the same file as the reference;
 *   quoted    1,000,000 rows × 12 columns, every cell quoted, text with commas, quotes and line feeds (~206 MB);
 *   longcell  100,000 rows × 8 columns, one 5–20 KB quoted text cell a row (~1.35 GB).
 *
 *   npm run bench:table                           # all three; generates bench/data/… on first use (~30 s)
 *   node out/bench/tableBench.js --shape quoted   # one shape
 *   … --scale 0.1                                 # a tenth of the rows, for a quick look (--rows N sets them)
 *   … --runs 3 --wait-quiet 10 --no-papa          # medians of 3 sessions; wait ≤ 10 min for load < 1; skip papaparse
 *
 * Each part runs in its own node process, so one part's heap cannot flatter or spoil another's
 * time or memory. The file is read once first, so every part finds it in the page cache.
 * Results go to stdout as Markdown and, for a full-size run of every shape, to bench/RESULTS-table.md.
 */
import { spawnSync } from 'node:child_process';
import { createReadStream, openSync, readSync, closeSync, statSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { cpus, loadavg, totalmem } from 'node:os';
import { join } from 'node:path';
import Papa from 'papaparse';
import { exportView, openCsvFile, TABLE_WORKER_YOUNG_GENERATION_MB, TableView, type TableSource } from '../src/core/table';
import { generateLongCellCsv, generateQuotedCsv, generateWalletCsv, LONG_CELL_COLUMNS, movedFirst, QUOTED_COLUMNS, seededRandom, walletColumns } from './tableData';
import { arg, flag, ms, quantile, randomWindowTimes, runPartOrMain } from './benchKit';

const seed = Number(arg('seed', '1'));
const part = arg('part', 'main');
const runs = Math.max(1, Number(arg('runs', '3')));
const scale = Number(arg('scale', '1'));
const waitQuietMinutes = Number(arg('wait-quiet', '0'));
const papa = !flag('no-papa');
const dataDir = join(__dirname, '..', '..', 'bench', 'data');

type Figures = Record<string, number>;

/** A shape of file, and what the session does on it. */
interface Shape {
  readonly name: string;
  /** Rows of the full-size file. */
  readonly fullRows: number;
  describe(rows: number, bytes: number): string;
  readonly columns: readonly string[];
  generate(path: string, rows: number, seed: number, first?: string): Promise<{ bytes: number; reused: boolean }>;
  /** A numeric column to sort on, and one to filter on by range. */
  readonly sortColumn: string;
  readonly filter: { readonly column: string; readonly min: number; readonly max: number };
  readonly search: string;
  /** Columns whose first typing pass is timed: the first column, then columns far from it (after the long cell). */
  readonly passColumns: readonly string[];
  /**
   * A far pass column whose own cells are also typed from a copy of the file with that column
   * moved first (`generate`'s `first`): the same cells at the first place and at a far one, so
   * the cost of the place is apart from the cost of what the cells hold.
   */
  readonly moved?: string;
}

const count = (n: number): string => n.toLocaleString('en-US');
const SHAPES: Record<string, Shape> = {
  wide: {
    name: 'wide',
    fullRows: 100_000,
    describe: (rows, bytes) => `${count(rows)} rows × 640 columns of numbers (a synthetic /pnl result), ${fmtMb(bytes)}`,
    columns: walletColumns(),
    generate: generateWalletCsv,
    sortColumn: 'total_pnl_usd_30d',
    filter: { column: 'winrate_7d', min: 0.5, max: 0.8 },
    search: 'sniper',
    passColumns: ['address', 'total_pnl_usd_7d', 'portfolio_value_usd_all'],
  },
  quoted: {
    name: 'quoted',
    fullRows: 1_000_000,
    describe: (rows, bytes) => `${count(rows)} rows × 12 columns, every cell quoted, text with commas, quotes and line feeds, ${fmtMb(bytes)}`,
    columns: QUOTED_COLUMNS,
    generate: generateQuotedCsv,
    sortColumn: 'amount',
    filter: { column: 'score', min: 0.5, max: 0.8 },
    search: 'sniper',
    passColumns: ['id', 'pnl_usd', 'score'],
    moved: 'pnl_usd',
  },
  longcell: {
    name: 'longcell',
    fullRows: 100_000,
    describe: (rows, bytes) => `${count(rows)} rows × 8 columns, one 5–20 KB quoted text cell a row (the 4th), ${fmtMb(bytes)}`,
    columns: LONG_CELL_COLUMNS,
    generate: generateLongCellCsv,
    sortColumn: 'amount',
    filter: { column: 'score', min: 0.5, max: 0.8 },
    search: 'sniper',
    passColumns: ['id', 'pnl_usd', 'trades'],
  },
};

function shapeNamed(name: string): Shape {
  const shape = SHAPES[name];
  if (!shape) throw new Error(`No shape ${name} (${Object.keys(SHAPES).join(', ')})`);
  return shape;
}

function rowsOf(shape: Shape): number {
  return Number(arg('rows', String(Math.max(1, Math.round(shape.fullRows * scale)))));
}

function fileOf(shape: Shape, rows: number): string {
  return arg('file', join(dataDir, `${shape.name === 'wide' ? 'wallets' : shape.name}-${rows}-seed${seed}.csv`));
}


function peakRss(): number {
  return process.resourceUsage().maxRSS * 1024;
}


function columnIndex(shape: Shape, name: string): number {
  const i = movedFirst(shape.columns, shape.columns, arg('moved', '') || undefined).indexOf(name);
  if (i < 0) throw new Error(`No column ${name} in shape ${shape.name}`);
  return i;
}

/** Plain reads of the whole file and a count of its line feeds: no parser can beat this. */
function floorPart(file: string): Figures {
  const t = performance.now();
  const fd = openSync(file, 'r');
  const buf = Buffer.allocUnsafe(8 << 20);
  let pos = 0;
  let lines = 0;
  for (;;) {
    const n = readSync(fd, buf, 0, buf.length, pos);
    if (n <= 0) break;
    pos += n;
    for (let i = buf.indexOf(10); i !== -1 && i < n; i = buf.indexOf(10, i + 1)) lines++;
  }
  closeSync(fd);
  return { floorMs: ms(t), lines };
}

/**
 * papaparse over the whole file, streamed: `keep` holds every row as arrays of strings (the
 * issue's "full parse", its reference); otherwise rows are dropped as they come (papaparse's
 * cheapest possible pass, shown for honesty).
 */
async function papaPart(file: string, keep: boolean): Promise<Figures> {
  global.gc?.();
  const before = process.memoryUsage().rss;
  const t = performance.now();
  const kept: string[][] = [];
  let count = 0;
  await new Promise<void>((resolve, reject) => {
    Papa.parse<string[]>(createReadStream(file), {
      chunk: (results) => {
        count += results.data.length;
        if (keep) for (const row of results.data) kept.push(row);
      },
      complete: () => resolve(),
      error: (e: Error) => reject(e),
    });
  });
  return { papaMs: ms(t), papaRows: count - 1, papaRssGrowth: peakRss() - before, kept: kept.length };
}

/** A person's session with the store: open, scroll, sort, sort back, filter, scroll, search, export. */
async function storePart(shape: Shape, file: string): Promise<Figures> {
  const columns = shape.columns;
  const sortColumn = columnIndex(shape, shape.sortColumn);
  const filter = { kind: 'range' as const, column: columnIndex(shape, shape.filter.column), min: shape.filter.min, max: shape.filter.max };
  const width = Math.min(40, columns.length);
  const rand = seededRandom(42);
  const block = (): number[] => {
    const first = Math.floor(rand() * (columns.length - width + 1));
    return Array.from({ length: width }, (_, i) => first + i);
  };
  global.gc?.();
  const baseline = process.memoryUsage().rss;
  const f: Figures = {};

  let t = performance.now();
  const source = await openCsvFile(file);
  const view = new TableView(source);
  await view.window(0, 60, block());
  f.firstRowsMs = ms(t);
  await source.indexed;
  f.indexMs = ms(t);

  t = performance.now();
  await view.apply({ sort: [{ column: sortColumn, descending: true }] });
  f.firstSortMs = ms(t);
  t = performance.now();
  await view.apply({ sort: [{ column: sortColumn }] });
  f.repeatSortMs = ms(t);

  t = performance.now();
  await view.apply({ sort: [{ column: sortColumn }], filters: [filter] });
  f.filterMs = ms(t);
  f.filteredRows = view.length;

  const windows = await randomWindowTimes(view, () => view.length, rand, block);
  f.windowP50Ms = quantile(windows, 0.5);
  f.windowP95Ms = quantile(windows, 0.95);
  f.windowMaxMs = Math.max(...windows);

  t = performance.now();
  await view.apply({ sort: [{ column: sortColumn }], filters: [filter], search: shape.search });
  f.searchMs = ms(t);
  f.searchRows = view.length;

  t = performance.now();
  const exported = await exportView(view, join(dataDir, 'export-bench.csv'), { columns: block() });
  f.exportMs = ms(t);
  f.exportRows = exported.rows;

  f.rssGrowth = peakRss() - baseline;
  f.fileBytes = statSync(file).size;
  await source.close();
  return f;
}

/**
 * The first typing pass over one of `passColumns` (`--column i`), once the background cell walk
 * is done (waited for by typing the sort column first): a column far from the first must not
 * cost more. One column a process, so no pass pays for the garbage of the one before it.
 */
async function passesPart(shape: Shape, file: string): Promise<Figures> {
  const i = Number(arg('column', '0'));
  const moved = arg('moved', '');
  const source = await openCsvFile(file);
  await source.indexed;
  await source.typedColumns([{ column: columnIndex(shape, shape.sortColumn) }]);
  global.gc?.();
  const t = performance.now();
  await source.typedColumns([{ column: columnIndex(shape, moved || (shape.passColumns[i] ?? '')) }]);
  const f: Figures = { [moved ? 'movedMs' : `pass${i}Ms`]: ms(t) };
  await source.close();
  return f;
}

/** The cost of the first typed column when nothing was typed before: the full cell walk included. */
async function coldFilterPart(shape: Shape, file: string): Promise<Figures> {
  const source: TableSource = await openCsvFile(file, { prepareColumns: false });
  await source.indexed;
  const view = new TableView(source);
  const t = performance.now();
  await view.apply({ filters: [{ kind: 'range', column: columnIndex(shape, shape.filter.column), min: shape.filter.min, max: shape.filter.max }] });
  const f = { coldFilterMs: ms(t) };
  await source.close();
  return f;
}

/**
 * V8's semi-space in MB for the part processes: the table worker's young generation
 * (TABLE_WORKER_YOUNG_GENERATION_MB, three semi-spaces), so the engine runs here with the heap
 * it has in the product.
 */
const SEMI_SPACE_MB = TABLE_WORKER_YOUNG_GENERATION_MB / 3;

/** Runs one part in a fresh node process and returns its figures (papaparse, the reference, with node's own heap). */
function runPart(name: string, shape: Shape, file: string, extra: readonly string[] = []): Figures {
  const heap = name.startsWith('papaparse') ? [] : [`--max-semi-space-size=${SEMI_SPACE_MB}`];
  const r = spawnSync(process.execPath, ['--expose-gc', ...heap, __filename, '--part', name, '--shape', shape.name, '--file', file, ...extra], {
    encoding: 'utf8',
    maxBuffer: 1 << 20,
  });
  if (r.status !== 0) throw new Error(`part ${name} failed:\n${r.stderr}`);
  const last = r.stdout.trim().split('\n').pop() ?? '{}';
  return JSON.parse(last) as Figures;
}

/** Runs a part `n` times and keeps the median of each figure: other work on the machine moves single runs. */
function medianOf(name: string, shape: Shape, file: string, n: number, extra: readonly string[] = []): Figures {
  const all = Array.from({ length: n }, () => runPart(name, shape, file, extra));
  const out: Figures = {};
  for (const key of Object.keys(all[0] ?? {})) out[key] = quantile(all.map((f) => f[key] ?? NaN), 0.5);
  return out;
}

/**
 * The typing passes, `n` rounds of one pass over each column in turn (medians per column): the
 * budget compares columns, so each must see the same load; runs of one column after another let
 * a load that rises or falls during the shape decide the comparison.
 */
function interleavedPasses(shape: Shape, file: string, n: number, movedFile?: string): Figures {
  const all: Figures[] = [];
  for (let k = 0; k < n; k++) {
    const round: Figures = {};
    for (const i of shape.passColumns.keys()) Object.assign(round, runPart('passes', shape, file, ['--column', String(i)]));
    if (movedFile && shape.moved) Object.assign(round, runPart('passes', shape, movedFile, ['--moved', shape.moved]));
    all.push(round);
  }
  const out: Figures = {};
  for (const key of Object.keys(all[0] ?? {})) out[key] = quantile(all.map((f) => f[key] ?? NaN), 0.5);
  return out;
}

/** Waits until the 1-minute load average is below 1, for at most `minutes`. */
async function waitQuiet(minutes: number): Promise<void> {
  const until = Date.now() + minutes * 60_000;
  while ((loadavg()[0] ?? 0) >= 1 && Date.now() < until) await new Promise((r) => setTimeout(r, 5000));
}

function fmtMs(v: number | undefined): string {
  if (v === undefined || Number.isNaN(v)) return '–';
  return v >= 1000 ? `${(v / 1000).toFixed(2)} s` : `${v < 10 ? v.toFixed(1) : v.toFixed(0)} ms`;
}

function fmtMb(v: number | undefined): string {
  return v === undefined ? '–' : `${(v / 1e6).toFixed(0)} MB`;
}

/** A pass over a far column may cost this much more than over the first before it counts as slower (run-to-run noise). */
const PASS_NOISE = 1.15;

/** Runs every part on one shape; returns its Markdown section and whether every budget passed. */
async function benchShape(shape: Shape): Promise<{ markdown: string; pass: boolean; full: boolean }> {
  const rows = rowsOf(shape);
  const file = fileOf(shape, rows);
  const t = performance.now();
  const gen = await shape.generate(file, rows, seed);
  console.error(gen.reused ? `using ${file}` : `generated ${file} in ${fmtMs(ms(t))}`);
  const movedFile = shape.moved ? file.replace(/(\.csv)$/u, `-${shape.moved}-first$1`) : undefined;
  if (movedFile && shape.moved) {
    const m = await shape.generate(movedFile, rows, seed, shape.moved);
    console.error(m.reused ? `using ${movedFile}` : `generated ${movedFile}`);
  }
  if (waitQuietMinutes > 0) await waitQuiet(waitQuietMinutes);
  const loadBefore = loadavg();
  floorPart(file); // read once so every part finds the file in the page cache
  const floor = medianOf('floor', shape, file, runs);
  const store = medianOf('store', shape, file, runs);
  if (movedFile) floorPart(movedFile);
  const passes = interleavedPasses(shape, file, runs, movedFile);
  const cold = runPart('cold', shape, file);
  const withPapa = papa && shape.name === 'wide';
  const papaKeep = withPapa ? runPart('papaparse', shape, file) : undefined;
  const papaStream = withPapa ? runPart('papaparse-stream', shape, file) : undefined;
  const loadAfter = loadavg();

  const size = store.fileBytes ?? 0;
  const floorMs = floor.floorMs ?? NaN;
  const indexRatio = (store.indexMs ?? NaN) / floorMs;
  const firstPass = passes.pass0Ms ?? NaN;
  const farPasses = shape.passColumns.slice(1).map((_, i) => passes[`pass${i + 1}Ms`] ?? NaN);
  const slowestFar = Math.max(...farPasses);
  const ok = (pass: boolean): string => (pass ? 'PASS' : '**FAIL**');
  const budgets: [string, string, string, boolean][] = [
    ['First rows ready after opening (open + a 60-row window)', '≤ 100 ms', fmtMs(store.firstRowsMs), (store.firstRowsMs ?? Infinity) <= 100],
    ['Whole-file index (from open), against the read floor', '≤ 1.5 × floor', `${fmtMs(store.indexMs)} = ${indexRatio.toFixed(2)} × ${fmtMs(floorMs)}`, indexRatio <= 1.5],
    [
      `Typing pass over a far column (${shape.passColumns.slice(1).join(', ')}) against the first (${shape.passColumns[0] ?? ''})`,
      `≤ first (×${PASS_NOISE} noise)`,
      `${farPasses.map(fmtMs).join(', ')} vs ${fmtMs(firstPass)}`,
      slowestFar <= firstPass * PASS_NOISE,
    ],
    ['First sort on a numeric column (waits for the cell walk)', '≤ 3 s', fmtMs(store.firstSortMs), (store.firstSortMs ?? Infinity) <= 3000],
    [`Repeat sort (other direction), ${count(rows)} rows`, '≤ 300 ms', fmtMs(store.repeatSortMs), (store.repeatSortMs ?? Infinity) <= 300],
    ['Filter on a numeric range (a column not typed before)', '≤ 1 s', fmtMs(store.filterMs), (store.filterMs ?? Infinity) <= 1000],
    ['Window of 60 rows × 40 columns (or all), p95 of 200 (max)', '≤ 16 ms', `${fmtMs(store.windowP95Ms)} (max ${fmtMs(store.windowMaxMs)})`, (store.windowP95Ms ?? Infinity) <= 16],
    ['Memory growth of the process (peak RSS − RSS before open)', `≤ ${fmtMb(size * 0.25)} (0.25 × file)`, `${fmtMb(store.rssGrowth)} = ${((store.rssGrowth ?? NaN) / size).toFixed(2)} × file`, (store.rssGrowth ?? Infinity) <= size * 0.25],
  ];
  if (papaKeep) {
    const ratio = (papaKeep.papaMs ?? NaN) / (store.indexMs ?? NaN);
    budgets.splice(2, 0, ['Index speed-up over papaparse, same run', '≥ 10×', `${ratio.toFixed(1)}×`, ratio >= 10]);
  }
  const reference = [
    `| Read-and-count-newlines floor (fs reads + counting LF) | ${fmtMs(floorMs)} (${count(floor.lines ?? 0)} LF) |`,
    ...(papaKeep && papaStream
      ? [
          `| papaparse full parse: streamed, every row kept as arrays | ${fmtMs(papaKeep.papaMs)}, RSS growth ${fmtMb(papaKeep.papaRssGrowth)} |`,
          `| papaparse streamed, rows dropped as they come (its cheapest pass) | ${fmtMs(papaStream.papaMs)}, RSS growth ${fmtMb(papaStream.papaRssGrowth)}; index is ${((papaStream.papaMs ?? NaN) / (store.indexMs ?? NaN)).toFixed(1)}× faster |`,
        ]
      : []),
    `| Filter on a numeric range with nothing typed before (no background walk) | ${fmtMs(cold.coldFilterMs)} |`,
    `| Search "${shape.search}" in every cell (streamed) | ${fmtMs(store.searchMs)} → ${count(store.searchRows ?? 0)} rows |`,
    `| Export of the filtered view, ${Math.min(40, shape.columns.length)} columns (${count(store.exportRows ?? 0)} rows) | ${fmtMs(store.exportMs)} |`,
    `| Rows kept by the range filter | ${count(store.filteredRows ?? 0)} |`,
    ...(shape.moved
      ? [
          `| The same cells at the first place and at a far one: ${shape.moved} typed as column 1 of a copy of the file with it moved first, against its own place (column ${shape.columns.indexOf(shape.moved) + 1}), same rounds | ${fmtMs(passes.movedMs)} first vs ${fmtMs(passes[`pass${shape.passColumns.indexOf(shape.moved)}Ms`])} far (×${((passes[`pass${shape.passColumns.indexOf(shape.moved)}Ms`] ?? NaN) / (passes.movedMs ?? NaN)).toFixed(2)}) |`,
        ]
      : []),
  ];
  const lines = [
    `### ${shape.name}: ${shape.describe(rows, size)}`,
    '',
    `Load average (1/5/15 min): ${loadBefore.map((l) => l.toFixed(2)).join(' / ')} before, ${loadAfter.map((l) => l.toFixed(2)).join(' / ')} after.`,
    '',
    '| Budget | Target | Measured | |',
    '| --- | --- | --- | --- |',
    ...budgets.map(([name, target, value, pass]) => `| ${name} | ${target} | ${value} | ${ok(pass)} |`),
    '',
    '| Reference, same run | Measured |',
    '| --- | --- |',
    ...reference,
    '',
  ];
  return { markdown: lines.join('\n'), pass: budgets.every(([, , , p]) => p), full: rows === shape.fullRows && !flag('file') };
}

const METHOD = [
  'How each figure is taken (bench/tableBench.ts):',
  '- Floor: `readSync` in 8 MiB chunks and `Buffer.indexOf` for every line feed; index budgets are against it.',
  '- First rows: from `openCsvFile()` to the first 60-row window answered (open reads 1 MiB).',
  '- Index: from `openCsvFile()` to `indexed` (a quote-aware scan of every byte, plus a UTF-8 check).',
  '- Typing pass: once the background cell walk is done, `typedColumns()` on one column, each column in its own process,',
  '  the columns in turn in each round (so a load that changes during the shape weighs on each alike).',
  '  quoted: pnl_usd is also typed from a copy of the file with it moved first (same cells, same rounds): the place apart from the content.',
  '- First sort: `apply({sort})` issued the moment the index is done, so it waits for the background cell walk',
  '  and then types its column; repeat sort: the other direction, column cached.',
  '- Filter: a range on a column not typed before, keeping the sort.',
  '- Window: 200 windows of 60 rows × 40 adjacent columns (all columns when fewer) at random places of the sorted, filtered view.',
  `- Memory: peak RSS (getrusage) minus RSS before open, in a fresh process, over the whole session (search and export too); every part of the engine runs with V8's semi-space at ${SEMI_SPACE_MB} MB, the table worker's young generation (TABLE_WORKER_YOUNG_GENERATION_MB); papaparse with node's own.`,
  '- papaparse (wide only): `Papa.parse(fs.createReadStream(file))`, rows collected from the chunk callback (or dropped).',
];

async function main(): Promise<void> {
  const names = arg('shape', 'all') === 'all' ? Object.keys(SHAPES) : arg('shape', 'all').split(',');
  const shapes = names.map(shapeNamed);
  const sections: string[] = [];
  let allPass = true;
  let allFull = shapes.length === Object.keys(SHAPES).length;
  for (const shape of shapes) {
    const r = await benchShape(shape);
    console.log(r.markdown);
    sections.push(r.markdown);
    allPass &&= r.pass;
    allFull &&= r.full;
  }
  const intro = `Node ${process.version}, ${cpus().length} cores, ${fmtMb(totalmem())} RAM; files in page cache. Figures are medians of ${runs} sessions, each in a fresh process (cold filter and papaparse: one).`;
  console.log(METHOD.join('\n'));
  if (allFull) {
    const out = join(__dirname, '..', '..', 'bench', 'RESULTS-table.md');
    await writeFile(
      out,
      `# Table data path: benchmark results\n\nMeasured ${new Date().toISOString().slice(0, 10)} with \`npm run bench:table\` (bench/tableBench.ts).\n${intro}\n\n${sections.join('\n')}\n${METHOD.join('\n')}\n`,
    );
    console.error(`wrote ${out}`);
  }
  if (!allPass) process.exitCode = 1;
}

const parts: Record<string, (shape: Shape, file: string) => Figures | Promise<Figures>> = {
  floor: (_shape, file) => floorPart(file),
  papaparse: (_shape, file) => papaPart(file, true),
  'papaparse-stream': (_shape, file) => papaPart(file, false),
  store: storePart,
  passes: passesPart,
  cold: coldFilterPart,
};

const run = parts[part];
runPartOrMain(run ? () => Promise.resolve(run(shapeNamed(arg('shape', 'wide')), arg('file', ''))) : undefined, main);
