/**
 * Synthetic wallet-metrics CSV for the table benchmark: the shape of a `/pnl` result
 * (IDENTITY_COLUMNS, then the main chain's 158 metrics × 4 timeframes), deterministic from a seed, so two
 * runs measure the same bytes. Values look like the real thing: base58 addresses, decimals,
 * a few empty cells, and quoted labels with commas and doubled quotes.
 */
import { createWriteStream } from 'node:fs';
import { mkdir, rename, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { IDENTITY_COLUMNS, TIMEFRAMES, metricColumns, metricsOn, type MetricKind } from '../src/core/metrics';

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
