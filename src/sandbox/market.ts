/**
 * The synthetic market around the wallets: tokens (launchpad, migration, market caps),
 * their creators, custom swap programs, lookup tables, and the second chain's tokens.
 * Times are kept as "seconds before the start of the hour" so the market ages with the
 * clock and "migrated in the last 6 hours" always finds something.
 *
 * The catalog's sample addresses (src/core/spec/samples.ts) are planted here (as tokens, the first
 * creator, the first program and lookup table), so every sampleInput finds data.
 */
import { CREATOR_COLUMNS, LAUNCHPADS } from '../core/spec/catalog';
import { sampleAddress } from '../core/spec/samples';
import { Rng, base58Address, hash32, hexAddress } from './rng';

export interface Token {
  readonly address: string;
  readonly symbol: string;
  readonly name: string;
  /** '' when the token did not start on a launchpad. */
  readonly launchpad: string;
  readonly createdAgo: number;
  /** Seconds before the hour it migrated; undefined when it did not. */
  readonly migratedAgo: number | undefined;
  /** The creator's address. */
  readonly creator: string;
  readonly athMcap: number;
  readonly athAgo: number;
  readonly mcap: number;
  /** How many wallets traded it. */
  readonly traders: number;
  /** Swaps per hour now. */
  readonly swapRate: number;
  readonly rugged: boolean;
}

interface Creator {
  readonly address: string;
  readonly tokens: number[];
}

interface Venue {
  readonly address: string;
  readonly name: string;
  readonly swapRate: number;
  readonly createdAgo: number;
  readonly size: number;
}

interface AltToken {
  readonly address: string;
  readonly symbol: string;
  readonly price: number;
}

export interface Market {
  readonly tokens: readonly Token[];
  readonly tokenIndex: ReadonlyMap<string, number>;
  readonly creators: readonly Creator[];
  readonly creatorIndex: ReadonlyMap<string, number>;
  readonly programs: readonly Venue[];
  readonly programIndex: ReadonlyMap<string, number>;
  readonly tables: readonly Venue[];
  readonly tableIndex: ReadonlyMap<string, number>;
  readonly altTokens: readonly AltToken[];
}

const DAY = 86_400;
const SYLLABLES = ['mo', 'on', 'pe', 'pe', 'do', 'ge', 'ca', 'to', 'ba', 'nk', 'wi', 'f', 'gi', 'ga', 'zo', 'ra', 'ki', 'lu', 'na', 'sol', 'x', 'ai'];

function tokenName(rng: Rng): { symbol: string; name: string } {
  let name = '';
  const parts = rng.int(2, 4);
  for (let i = 0; i < parts; i++) name += rng.pick(SYLLABLES);
  const symbol = name.replace(/[^a-z]/gu, '').slice(0, rng.int(3, 6)).toUpperCase() || 'TKN';
  return { symbol, name: name[0]?.toUpperCase() + name.slice(1) + (rng.chance(0.2) ? ' Coin' : '') };
}

/** Builds the market of a seed. Token count is fixed; it does not grow with the wallets. */
export function buildMarket(seed: number, tokenCount = 3_000, creatorCount = 800): Market {
  const rng = new Rng(hash32(seed, 'market'));
  const planted = [1, 2, 7, 10, 11].map((i) => sampleAddress('main', i));
  const tokens: Token[] = [];
  for (let t = 0; t < tokenCount; t++) {
    const isPlanted = t < planted.length;
    const address = isPlanted ? planted[t]! : base58Address(rng);
    const { symbol, name } = tokenName(rng);
    // Most tokens are days old; a tail is years old. Planted ones are established.
    const createdAgo = isPlanted ? rng.range(30, 400) * DAY : rng.chance(0.1) ? rng.range(30, 900) * DAY : Math.min(900 * DAY, rng.exp(8 * DAY) + 60);
    const launchpad = rng.chance(0.8) ? (rng.chance(0.55) ? 'pumpfun' : rng.pick(LAUNCHPADS)) : '';
    // A migration comes minutes to hours after launch; one still due has not happened yet.
    const dueAfter = rng.exp(2 * 3600) + 300;
    const migrates = launchpad !== '' && (isPlanted || rng.chance(0.25)) && dueAfter < createdAgo;
    const migratedAgo = migrates ? createdAgo - dueAfter : undefined;
    let athMcap = Math.exp(9 + 2 * rng.normal());
    if (migrates || isPlanted) athMcap = Math.max(athMcap, 69_000 * (1 + rng.exp(3)));
    if (launchpad === '') athMcap = Math.max(athMcap, 200_000 * (1 + rng.exp(5)));
    athMcap = Math.round(Math.min(athMcap, 5e9));
    const athAgo = createdAgo * rng.range(0, 0.98);
    const rugged = !isPlanted && rng.chance(0.12);
    const mcap = Math.round(athMcap * (rugged ? rng.range(0.0005, 0.01) : rng.range(0.02, 1)));
    const traders = isPlanted ? rng.int(300, 1500) : Math.min(5_000, Math.round(5 + rng.exp(1) * Math.sqrt(athMcap) / 4));
    const swapRate = Math.round((traders / 2) * (rugged ? 0.01 : 1) / (1 + createdAgo / DAY / 2));
    tokens.push({ address, symbol, name, launchpad, createdAgo, migratedAgo, creator: '', athMcap, athAgo, mcap, traders, swapRate, rugged });
  }
  // Creators: a few are prolific. The first (a planted sample address) always has tokens.
  const creators: Creator[] = Array.from({ length: creatorCount }, (_, c) => ({ address: c === 0 ? sampleAddress('main', 7) : base58Address(rng), tokens: [] }));
  tokens.forEach((tok, t) => {
    const c = t < 12 ? 0 : Math.floor(rng.next() ** 2.2 * creatorCount);
    (tok as { creator: string }).creator = creators[c]!.address;
    creators[c]!.tokens.push(t);
  });
  const kept = creators.filter((c) => c.tokens.length > 0);
  const venues = (n: number, prefix: string, first: string): Venue[] =>
    Array.from({ length: n }, (_, i) => ({
      address: i === 0 ? first : base58Address(rng),
      name: `${prefix}_${String(i + 1).padStart(2, '0')}`,
      swapRate: Math.round(rng.exp(400) + 5),
      createdAgo: rng.range(2, 400) * DAY,
      size: rng.int(8, 256),
    }));
  const programs = venues(40, 'custom_router', sampleAddress('main', 7));
  const tables = venues(60, 'lookup_table', sampleAddress('main', 7));
  const altTokens: AltToken[] = Array.from({ length: 400 }, () => ({ address: hexAddress(rng), symbol: tokenName(rng).symbol, price: Math.exp(rng.normal() * 3) }));
  const index = <T extends { address: string }>(l: readonly T[]) => new Map(l.map((x, i) => [x.address, i]));
  return {
    tokens,
    tokenIndex: index(tokens),
    creators: kept,
    creatorIndex: index(kept),
    programs,
    programIndex: index(programs),
    tables,
    tableIndex: index(tables),
    altTokens,
  };
}

const iso = (ms: number) => new Date(Math.floor(ms / 1000) * 1000).toISOString();

/** A creator's track record (CREATOR_COLUMNS), with times relative to hourStart (ms). */
export function creatorRecord(m: Market, c: Creator, hourStart: number): Record<(typeof CREATOR_COLUMNS)[number], string | number> {
  const toks = c.tokens.map((t) => m.tokens[t]!);
  const migrated = toks.filter((t) => t.migratedAgo !== undefined).length;
  const aths = toks.map((t) => t.athMcap).sort((a, b) => a - b);
  const mid = aths.length >> 1;
  const median = aths.length % 2 ? aths[mid]! : ((aths[mid - 1] ?? 0) + (aths[mid] ?? 0)) / 2;
  const ages = toks.map((t) => t.createdAgo);
  return {
    address: c.address,
    tokens_created: toks.length,
    tokens_migrated: migrated,
    migration_rate: Math.round((migrated / toks.length) * 1e4) / 1e4,
    best_ath_mcap_usd: aths[aths.length - 1] ?? 0,
    median_ath_mcap_usd: Math.round(median),
    rug_count: toks.filter((t) => t.rugged).length,
    first_created: iso(hourStart - Math.max(...ages) * 1000),
    last_created: iso(hourStart - Math.min(...ages) * 1000),
  };
}

/** One token as a creator's record lists it. */
export function tokenRecord(t: Token, hourStart: number): Record<string, string | number | boolean | null> {
  return {
    address: t.address,
    symbol: t.symbol,
    name: t.name,
    launchpad: t.launchpad,
    created_at: iso(hourStart - t.createdAgo * 1000),
    migrated: t.migratedAgo !== undefined,
    migrated_at: t.migratedAgo === undefined ? null : iso(hourStart - t.migratedAgo * 1000),
    ath_mcap_usd: t.athMcap,
    ath_at: iso(hourStart - t.athAgo * 1000),
    mcap_usd: t.mcap,
    rugged: t.rugged,
  };
}

export { iso };
