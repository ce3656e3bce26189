/**
 * Synthetic wallet-metrics CSV for the table benchmark: the shape of a `/pnl` result
 * (IDENTITY_COLUMNS, then the main chain's 158 metrics × 4 timeframes), deterministic from a seed, so two
 * runs measure the same bytes. Values look like the real thing: base58 addresses, decimals,
 * a few empty cells, and quoted labels with commas and doubled quotes.
 */
import { createWriteStream } from 'node:fs';
import { mkdir, rename, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { IDENTITY_COLUMNS, TIMEFRAMES, metricColumns, metricsOn, type MetricKind } from '../src/core/spec/metrics';

/** A small, fast, seeded PRNG (mulberry32); returns floats in [0, 1). */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const LABELS = [
  'Whale, early buyer',
  'sniper',
  'The "Sniper" bot',
  'copy me, maybe',
  'market maker',
  'fresh wallet',
  'insider, funded by deployer',
  'ñandú trader',
];
const DEXES = ['Raydium', 'Orca', 'Meteora', 'Pump AMM', 'Phoenix'];
const BOTS = ['', 'Photon', 'BullX', 'Trojan', 'GMGN', 'Axiom'];

/** The header of the synthetic file: the real column names of a `/pnl` result. */
export function walletColumns(): string[] {
  return [...IDENTITY_COLUMNS, ...metricColumns('main')];
}

function csvQuote(s: string): string {
  return /[",\n\r]/u.test(s) ? `"${s.replace(/"/gu, '""')}"` : s;
}

function address(rand: () => number): string {
  let s = '';
  for (let i = 0; i < 44; i++) s += BASE58[Math.floor(rand() * 58)];
  return s;
}

function isoTime(rand: () => number): string {
  return new Date(1_600_000_000_000 + Math.floor(rand() * 150_000_000_000)).toISOString();
}

function metricValue(kind: MetricKind, rand: () => number): string {
  if (rand() < 0.02) return '';
  const r = rand();
  switch (kind) {
    case 'usd':
      return ((r - 0.3) * 10 ** Math.floor(rand() * 7)).toFixed(8);
    case 'native':
      return ((r - 0.3) * 10 ** Math.floor(rand() * 4)).toFixed(9);
    case 'ratio':
      return r.toFixed(12);
    case 'count':
    case 'seconds':
      return String(Math.floor(r * 10 ** Math.floor(rand() * 9)));
    case 'number':
      return ((r - 0.2) * 100).toFixed(8);
  }
}

/** One data row of the synthetic file, as CSV text without its line ending. */
export function walletRow(rand: () => number, kinds: readonly MetricKind[]): string {
  const cells: string[] = [
    address(rand),
    rand() < 0.6 ? '' : csvQuote(LABELS[Math.floor(rand() * LABELS.length)] ?? ''),
    isoTime(rand),
    isoTime(rand),
    DEXES[Math.floor(rand() * DEXES.length)] ?? '',
    BOTS[Math.floor(rand() * BOTS.length)] ?? '',
    'main',
    isoTime(rand),
  ];
  for (const kind of kinds) cells.push(metricValue(kind, rand));
  return cells.join(',');
}

/** The metric kind of each metric column, in header order. */
export function metricKinds(): MetricKind[] {
  return metricsOn('main').flatMap((m) => TIMEFRAMES.map(() => m.kind));
}

/**
 * Writes `rows` data rows (plus the header) to `path`, LF line endings, ending with a newline.
 * Skips the work when a file of that name already exists (the name carries rows and seed).
 * Writes to a temporary name first so an interrupted run never leaves a short file behind.
 */
export async function generateWalletCsv(path: string, rows: number, seed: number): Promise<{ bytes: number; reused: boolean }> {
  const existing = await stat(path).catch(() => undefined);
  if (existing) return { bytes: existing.size, reused: true };
  await mkdir(dirname(path), { recursive: true });
  const tmp = `${path}.partial`;
  const out = createWriteStream(tmp);
  const rand = seededRandom(seed);
  const kinds = metricKinds();
  out.write(walletColumns().join(',') + '\n');
  const batch: string[] = [];
  for (let r = 0; r < rows; r++) {
    batch.push(walletRow(rand, kinds));
    if (batch.length === 500 || r === rows - 1) {
      const text = batch.join('\n') + '\n';
      batch.length = 0;
      if (!out.write(text)) await new Promise<void>((resolve) => out.once('drain', resolve));
    }
  }
  await new Promise<void>((resolve, reject) => out.end((err?: Error | null) => (err ? reject(err) : resolve())));
  await rename(tmp, path);
  return { bytes: (await stat(path)).size, reused: false };
}

// ---------------------------------------------------------------------------------------------
// Two more shapes, where the wide numeric file flatters the engine: many short rows of quoted
// text, and few columns with one very long quoted cell. Text comes from a seeded pool of words
// with commas, quotes and line breaks, sliced at random places (cheap, and still deterministic).

const WORDS = [
  'wallet', 'swap', 'buy', 'sell', 'the', 'a', 'of', 'and', 'sniper', 'whale', 'bot', 'early,', 'late,',
  '"rug"', 'said', '"hi"', 'ñandú', 'café', 'pump', 'dump', 'LP', 'fee', 'airdrop', 'mint', 'burn,',
  'holder', 'dev', 'insider', 'copy', 'trader', 'x', 'to', 'in', 'on', 'for', '"moon"', 'ok.\n', 'gm\n',
];

/** A pool of raw (unquoted) text: words, spaces, commas, quotes and line feeds. */
function textPool(rand: () => number, chars: number): string {
  const parts: string[] = [];
  let n = 0;
  while (n < chars) {
    const w = WORDS[Math.floor(rand() * WORDS.length)] ?? 'x';
    parts.push(w);
    n += w.length + 1;
  }
  return parts.join(' ');
}

/** A quoted CSV cell of `raw` text: always quoted, quotes doubled. */
function quoted(raw: string): string {
  return `"${raw.replace(/"/gu, '""')}"`;
}

/** A slice of the pool between `min` and `max` characters long, at a random place. */
function poolSlice(pool: string, rand: () => number, min: number, max: number): string {
  const len = min + Math.floor(rand() * (max - min + 1));
  const at = Math.floor(rand() * (pool.length - len));
  return pool.slice(at, at + len);
}

/** Columns of the quoted-text shape: every cell quoted, as "quote all" exports write them. */
export const QUOTED_COLUMNS = ['id', 'wallet', 'name', 'note', 'amount', 'pnl_usd', 'opened_at', 'tag', 'city', 'score', 'memo', 'status'];
const STATUSES = ['open', 'closed', 'closed, partly', 'the "best" one', ''];
const CITIES = ['Lisboa', 'Zürich', 'São Paulo', 'New York, NY', 'Kyiv', ''];

/** One row of the quoted-text shape (~200 bytes, 12 cells, all quoted; text with commas, quotes and line feeds). */
export function quotedRow(r: number, rand: () => number, pool: string): string {
  return quotedCells(r, rand, pool).map(quoted).join(',');
}

/** The cells of quotedRow, unquoted, in QUOTED_COLUMNS order. */
function quotedCells(r: number, rand: () => number, pool: string): string[] {
  return [
    String(r + 1),
    address(rand),
    poolSlice(pool, rand, 6, 22),
    poolSlice(pool, rand, 10, 40),
    rand() < 0.03 ? '' : ((rand() - 0.3) * 10 ** Math.floor(rand() * 6)).toFixed(6),
    rand() < 0.03 ? '' : ((rand() - 0.5) * 1e5).toFixed(2),
    isoTime(rand),
    poolSlice(pool, rand, 3, 10),
    CITIES[Math.floor(rand() * CITIES.length)] ?? '',
    rand() < 0.02 ? '' : rand().toFixed(4),
    poolSlice(pool, rand, 0, 20),
    STATUSES[Math.floor(rand() * STATUSES.length)] ?? '',
  ];
}

/** `columns` with `first` moved to the front (the others in order); as they are without it. */
export function movedFirst<T>(columns: readonly T[], names: readonly string[], first?: string): T[] {
  const at = first === undefined ? -1 : names.indexOf(first);
  if (at < 0) return [...columns];
  return [columns[at] as T, ...columns.slice(0, at), ...columns.slice(at + 1)];
}

/** Columns of the long-cell shape: a few short cells, one 5–20 KB quoted text, then numbers. */
export const LONG_CELL_COLUMNS = ['id', 'wallet', 'opened_at', 'notes', 'amount', 'pnl_usd', 'score', 'trades'];

/** One row of the long-cell shape (~14 KB, the `notes` cell 5–20 KB of quoted text). */
export function longCellRow(r: number, rand: () => number, pool: string): string {
  return [
    String(r + 1),
    address(rand),
    isoTime(rand),
    quoted(poolSlice(pool, rand, 5 << 10, 20 << 10)),
    rand() < 0.03 ? '' : ((rand() - 0.3) * 10 ** Math.floor(rand() * 6)).toFixed(6),
    rand() < 0.03 ? '' : ((rand() - 0.5) * 1e5).toFixed(2),
    rand() < 0.02 ? '' : rand().toFixed(4),
    String(Math.floor(rand() * 5000)),
  ].join(',');
}

/** Writes a CSV of `rows` rows made by `row` under `header` (same caching and temp-file rules as generateWalletCsv). */
async function generateCsv(path: string, header: readonly string[], rows: number, row: (r: number) => string): Promise<{ bytes: number; reused: boolean }> {
  const existing = await stat(path).catch(() => undefined);
  if (existing) return { bytes: existing.size, reused: true };
  await mkdir(dirname(path), { recursive: true });
  const tmp = `${path}.partial`;
  const out = createWriteStream(tmp);
  out.write(header.join(',') + '\n');
  const batch: string[] = [];
  let batchChars = 0;
  for (let r = 0; r < rows; r++) {
    const line = row(r);
    batch.push(line);
    batchChars += line.length;
    if (batchChars >= 1 << 20 || r === rows - 1) {
      const text = batch.join('\n') + '\n';
      batch.length = 0;
      batchChars = 0;
      if (!out.write(text)) await new Promise<void>((resolve) => out.once('drain', resolve));
    }
  }
  await new Promise<void>((resolve, reject) => out.end((err?: Error | null) => (err ? reject(err) : resolve())));
  await rename(tmp, path);
  return { bytes: (await stat(path)).size, reused: false };
}

/**
 * The quoted-text shape: 1,000,000 rows × 12 quoted cells is ~201 MB. With `first`, that column
 * comes first and the others keep their order: the same cells, byte for byte, in another place.
 */
export function generateQuotedCsv(path: string, rows: number, seed: number, first?: string): Promise<{ bytes: number; reused: boolean }> {
  const rand = seededRandom(seed);
  const pool = textPool(rand, 1 << 20);
  return generateCsv(path, movedFirst(QUOTED_COLUMNS, QUOTED_COLUMNS, first), rows, (r) => movedFirst(quotedCells(r, rand, pool), QUOTED_COLUMNS, first).map(quoted).join(','));
}

/** The long-cell shape: 100,000 rows with a 5–20 KB quoted cell is ~1.37 GB. */
export function generateLongCellCsv(path: string, rows: number, seed: number): Promise<{ bytes: number; reused: boolean }> {
  const rand = seededRandom(seed);
  const pool = textPool(rand, 4 << 20);
  return generateCsv(path, LONG_CELL_COLUMNS, rows, (r) => longCellRow(r, rand, pool));
}
