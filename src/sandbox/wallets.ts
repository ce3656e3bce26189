/**
 * Synthetic wallets with all 158 metrics × 4 timeframes of their chain.
 *
 * A value is a pure function of (seed, chain, address, column, hour): each wallet draws its
 * traits (activity, position size, skill, botness…) from its own PRNG stream seeded by its
 * address, and each metric value mixes those traits with a uniform number hashed from the
 * wallet and the column (src/sandbox/recipes.ts). So the values of an address do not depend
 * on which other addresses are generated with it: a pnl file on any list of addresses shows
 * exactly the numbers the Wallet Database shows.
 *
 * Only the traits are kept (about 30 Float32Arrays, 12 MB for 100,000 wallets); a metric
 * column is computed column-major when a query needs it (about 1 ms per 100,000 values) and
 * cached for the hour. Holding all 632 columns would take 253 MB as Float32 — and Float32
 * could not hold the served decimals exactly, which the query comparisons rely on.
 * The hourly refresh (§1.4, §8.5) is a per-wallet, per-hour jitter applied to every value; the hours
 * are the client's refresh periods (src/core/spec/refresh.ts), so both sides agree on when it falls.
 */
import { isMainThread } from 'node:worker_threads';
import type { Chain } from '../core/spec/addresses';
import { IDENTITY_COLUMNS, TIMEFRAMES } from '../core/spec/metrics';
import { REFRESH_PERIOD_MS } from '../core/spec/refresh';
import { ALL_METRIC_COLUMNS, categories, chainMetricColumns, metricOnChain } from './columns';
import { NATIVE_PRICE, RECIPES, finishColumn, type Magnitude, type Trait } from './recipes';
import { isDerived, relate } from './relations';
import { Rng, base58Address, hash32, hexAddress } from './rng';

const LABELS = ['', 'whale', 'sniper', 'smart money', 'market maker', 'fresh wallet', 'bot', 'insider', 'influencer', 'copy trader'] as const;

const TF_COUNT = TIMEFRAMES.length;
/** Days in each timeframe; 'all' is the wallet's age. */
const TF_DAYS = [1, 7, 30, Infinity] as const;
const DAY_S = 86_400;
/** How much a value may move from one hour to the next, per timeframe (1d moves most). */
const JITTER = [0.15, 0.05, 0.02, 0.005] as const;
/** Metric columns of a view kept computed at once (Float64, 0.8 MB each at 100,000 wallets). */
const COLUMN_CACHE = 24;

export interface WalletSet {
  readonly chain: Chain;
  readonly seed: number;
  readonly n: number;
  readonly addresses: readonly string[];
  /** Per-wallet key of the value hash. */
  readonly keys: Int32Array;
  /** Magnitudes by kind, one array per timeframe. */
  readonly mags: Readonly<Record<Magnitude, readonly Float32Array[]>>;
  readonly traits: Readonly<Record<Trait, Float32Array>>;
  readonly dex: Uint8Array;
  readonly bot: Uint8Array;
  readonly label: Uint8Array;
  readonly ageDays: Float32Array;
  /** Seconds from the last trade to the start of the hour. */
  readonly idleSeconds: Float32Array;
}

/** One step of a wallet's stream (mulberry32 with its state in an Int32Array). */
function draw(st: Int32Array, i: number): number {
  const a = (st[i]! + 0x6d2b79f5) | 0;
  st[i] = a;
  let t = Math.imul(a ^ (a >>> 15), a | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}

function normal(st: Int32Array, i: number): number {
  const u = 1 - draw(st, i);
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * draw(st, i));
}

/** Deterministic wallet addresses of a chain: the sandbox's universe. */
export function walletAddresses(chain: Chain, seed: number, n: number): string[] {
  const rng = new Rng(hash32(seed, chain, 'wallet-addresses'));
  const out: string[] = new Array<string>(n);
  for (let i = 0; i < n; i++) out[i] = chain === 'main' ? base58Address(rng) : hexAddress(rng);
  return out;
}

/**
 * Wallet sets drawn on the process's main thread. The extension runs its sandbox in a worker
 * (./thread.ts), so in the extension host this stays 0: the host's thread never draws the data
 * (issue 34; counted by test/unit/vscode/base/connection.test.ts, not timed).
 */
let drawnOnMainThread = 0;

/** How many wallet sets this process's main thread has drawn. */
export function walletSetsDrawnOnMainThread(): number {
  return drawnOnMainThread;
}

/** Draws the traits of these wallets (any addresses: the universe's, or a pnl list's). */
export function generateWallets(chain: Chain, seed: number, addresses: readonly string[]): WalletSet {
  if (isMainThread) drawnOnMainThread++;
  const n = addresses.length;
  const st = new Int32Array(n);
  for (let i = 0; i < n; i++) st[i] = hash32(seed, chain, addresses[i] ?? '') | 0;
  const keys = Int32Array.from(st, (k) => k ^ 0x5bd1e995);
  const { dexes, bots } = categories(chain);

  const act = new Float32Array(n);
  const size = new Float32Array(n);
  const skill = new Float32Array(n);
  const unskill = new Float32Array(n);
  const edge = new Float32Array(n);
  const botness = new Float32Array(n);
  const early = new Float32Array(n);
  const hold = new Float32Array(n);
  const ageDays = new Float32Array(n);
  const idleSeconds = new Float32Array(n);
  const rec = Array.from({ length: TF_COUNT }, () => new Float32Array(n));
  const dex = new Uint8Array(n);
  const bot = new Uint8Array(n);
  const label = new Uint8Array(n);

  // Traits, in a fixed draw order per wallet.
  for (let i = 0; i < n; i++) {
    act[i] = 0.3 + 3 * Math.exp(normal(st, i));
    size[i] = Math.exp(5 + 1.3 * normal(st, i));
    const s = draw(st, i) ** 1.2;
    skill[i] = s;
    unskill[i] = 1 - s;
    edge[i] = (s - 0.45) * 0.6;
    botness[i] = draw(st, i) ** 3;
    early[i] = draw(st, i) ** 2;
    hold[i] = Math.exp(7 + 1.8 * normal(st, i));
    let age = 3 + Math.min(1500, -Math.log(1 - draw(st, i)) * 250);
    const r1 = draw(st, i) < 0.45 ? 0 : 0.3 + 1.4 * draw(st, i);
    const r7 = r1 === 0 && draw(st, i) < 0.25 ? 0 : 0.4 + 1.2 * draw(st, i);
    const r30 = r7 === 0 && draw(st, i) < 0.3 ? 0 : 0.5 + draw(st, i);
    rec[0]![i] = r1;
    rec[1]![i] = r7;
    rec[2]![i] = r30;
    rec[3]![i] = 1;
    const u = draw(st, i);
    const idleDays = r1 > 0 ? u : r7 > 0 ? 1 + 6 * u : r30 > 0 ? 7 + 23 * u : 30 + 90 * u;
    if (age < idleDays + 1) age = idleDays + 1 + draw(st, i) * 30;
    ageDays[i] = age;
    idleSeconds[i] = idleDays * DAY_S;
    dex[i] = Math.floor(draw(st, i) ** 1.6 * dexes.length);
    bot[i] = draw(st, i) < 0.45 ? 0 : 1 + Math.floor(draw(st, i) * (bots.length - 1));
    label[i] = draw(st, i) < 0.7 ? 0 : 1 + Math.floor(draw(st, i) * (LABELS.length - 1));
  }


  // Expected trades per timeframe: never fewer in a longer timeframe, nor before the wallet existed.
  const trades: Float32Array[] = [];
  for (let k = 0; k < TF_COUNT; k++) {
    const e = new Float32Array(n);
    const prev = trades[k - 1];
    const r = rec[k]!;
    for (let i = 0; i < n; i++) e[i] = Math.max(prev ? prev[i]! : 0, act[i]! * Math.min(TF_DAYS[k]!, ageDays[i]!) * r[i]!);
    trades.push(e);
  }
  const perTf = (f: (i: number, tf: number) => number): Float32Array[] =>
    Array.from({ length: TF_COUNT }, (_, tf) => {
      const a = new Float32Array(n);
      for (let i = 0; i < n; i++) a[i] = f(i, tf);
      return a;
    });
  const same = (a: Float32Array): Float32Array[] => [a, a, a, a];
  const mags: Record<Magnitude, Float32Array[]> = {
    one: same(new Float32Array(n).fill(1)),
    size: same(size),
    hold: same(hold),
    act: same(act),
    daily: same(Float32Array.from(act, (a, i) => a * size[i]!)),
    count: trades,
    flow: perTf((i, tf) => trades[tf]![i]! * size[i]!),
    on: perTf((i, tf) => (rec[tf]![i]! > 0 ? 1 : 0)),
    // Active days: at most the days in the timeframe; about a third of an old wallet's life.
    days: perTf((i, tf) => {
      const days = Math.min(TF_DAYS[tf]!, ageDays[i]!);
      return tf === 3 ? days * 0.35 : Math.min(days, days * rec[tf]![i]! * 0.7 + 0.3);
    }),
  };
  const traits: Record<Trait, Float32Array> = { zero: new Float32Array(n), edge, skill, unskill, bot: botness, early };
  return { chain, seed, n, addresses, keys, mags, traits, dex, bot, label, ageDays, idleSeconds };
}

const METRIC_INDEX = new Map(ALL_METRIC_COLUMNS.filter((c) => c.tf === 0).map((c) => [c.metric.name, c.index]));

/** The ALL_METRIC_COLUMNS index of a metric over timeframe tf. */
function columnIndex(metric: string, tf: number): number {
  const first = METRIC_INDEX.get(metric);
  if (first === undefined) throw new Error(`No metric ${metric}`);
  return first + tf;
}

/** The uniform draw of (wallet key, column): murmur's fmix32 of the two, mixed. */
function hashDraw(key: number, col: number): number {
  let h = key ^ Math.imul(col + 1, 0x9e3779b1);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** Computes metric column col (an ALL_METRIC_COLUMNS index) of every wallet as served, jittered by jit (or not), into out; all null off its chain. */
export function computeColumn(set: WalletSet, col: number, jit: Float32Array | undefined, out: Float64Array): void {
  const c = ALL_METRIC_COLUMNS[col];
  if (!c || !metricOnChain(c.metric.name, set.chain)) {
    out.fill(NaN);
    return;
  }
  const r = RECIPES[(col / TF_COUNT) | 0]!;
  const f = set.mags[r.f][c.tf]!;
  const g = set.traits[r.g];
  const on = set.mags.on[c.tf]!;
  const keys = set.keys;
  const { gw, lo, span, idleNull, post } = r;
  const scale = r.scale / (c.metric.kind === 'native' ? NATIVE_PRICE[set.chain] : 1);
  // Nulls use the low 12 bits of the draw, which barely move u.
  const nullBelow = Math.round(r.nullRate * 4096);
  const n = set.n;
  for (let i = 0; i < n; i++) {
    const h = hashDraw(keys[i]!, col);
    if ((idleNull && on[i] === 0) || (h & 0xfff) < nullBelow) out[i] = NaN;
    else out[i] = f[i]! * (gw * g[i]! + lo + span * (h / 4294967296)) * scale;
  }
  if (jit) for (let i = 0; i < n; i++) out[i] = out[i]! * jit[i]!;
  finishColumn(post, out);
}

/** The per-wallet jitter factors of one hour, one array per timeframe. */
function hourJitter(set: WalletSet, hour: number): Float32Array[] {
  const out = JITTER.map(() => new Float32Array(set.n));
  for (let i = 0; i < set.n; i++) {
    const j = (hash32(set.seed, set.addresses[i] ?? '', hour) / 4294967296) * 2 - 1;
    for (let tf = 0; tf < TF_COUNT; tf++) out[tf]![i] = 1 + JITTER[tf]! * j;
  }
  return out;
}

/** A wallet set as it reads during one hour. */
export class HourView {
  readonly hourStart: number;
  private readonly jitter: Float32Array[];
  private readonly columns = new Map<number, Float64Array>();
  constructor(
    readonly set: WalletSet,
    readonly hour: number,
  ) {
    this.hourStart = hour * REFRESH_PERIOD_MS;
    this.jitter = hourJitter(set, hour);
  }

  /** Every wallet's served value of a metric column (an ALL_METRIC_COLUMNS index); NaN is null. Cached for the hour unless cache is false. */
  column(col: number, cache = true): Float64Array {
    const hit = this.columns.get(col);
    if (hit) {
      // Refresh its place: the cache drops the least recently used column.
      this.columns.delete(col);
      this.columns.set(col, hit);
      return hit;
    }
    const out = new Float64Array(this.set.n);
    const c = ALL_METRIC_COLUMNS[col];
    if (c && metricOnChain(c.metric.name, this.set.chain)) {
      // Drawn on its own, then tied to the metrics it depends on (relations.ts), then rounded as served.
      if (!isDerived(c.metric.name)) computeColumn(this.set, col, this.jitter[col % TF_COUNT], out);
      relate(c.metric.name, c.tf, this.set.chain, out, (metric, tf) => this.column(columnIndex(metric, tf)));
      finishColumn(RECIPES[(col / TF_COUNT) | 0]!.post, out);
    } else out.fill(NaN);
    if (cache) {
      if (this.columns.size >= COLUMN_CACHE) this.columns.delete(this.columns.keys().next().value as number);
      this.columns.set(col, out);
    }
    return out;
  }

  /** The served value of one metric column for wallet i; NaN is null. */
  value(col: number, i: number): number {
    const hit = this.columns.get(col);
    if (hit) return hit[i]!;
    return this.column(col)[i]!;
  }

  /** The identity columns (IDENTITY_COLUMNS) of wallet i, as strings. */
  identity(i: number): string[] {
    const { dexes, bots } = categories(this.set.chain);
    const s = this.set;
    const iso = (ms: number) => new Date(Math.floor(ms / 1000) * 1000).toISOString();
    return [
      s.addresses[i] ?? '',
      LABELS[s.label[i]!] ?? '',
      iso(this.hourStart - s.ageDays[i]! * DAY_S * 1000),
      iso(this.hourStart - s.idleSeconds[i]! * 1000),
      dexes[s.dex[i]!] ?? '',
      bots[s.bot[i]!] ?? '',
      s.chain,
      iso(this.hourStart),
    ];
  }

  /** A category column's value for wallet i. */
  category(name: 'main_dex' | 'main_bot', i: number): string {
    const { dexes, bots } = categories(this.set.chain);
    return (name === 'main_dex' ? dexes[this.set.dex[i]!] : bots[this.set.bot[i]!]) ?? '';
  }
}

/** The CSV header of a chain's pnl file: the identity columns, then the chain's 632 metric columns. */
export function pnlHeader(chain: Chain): string[] {
  return [...IDENTITY_COLUMNS, ...chainMetricColumns(chain).map((c) => c.name)];
}

/** Every metric of wallet i that exists on its chain, by column name (WalletMetrics). */
export function metricsRecord(view: HourView, i: number): Record<string, number | null> {
  const out: Record<string, number | null> = {};
  for (const c of chainMetricColumns(view.set.chain)) {
    const v = view.value(c.index, i);
    out[c.name] = v === v ? v : null;
  }
  return out;
}
