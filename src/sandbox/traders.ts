/**
 * Who traded a token: derived from the token and the seed, the same list for every endpoint
 * that reads it (toptraders, earlybuyers, alltraders, mcap, timestamp, buysellfilter,
 * tokensoverlap). A few busy wallets trade many tokens, so overlaps exist.
 */
import type { Market, Token } from './market';
import { Rng, hash32 } from './rng';
import type { WalletSet } from './wallets';

export interface Trade {
  readonly wallet: string;
  /** Seconds after the token's creation of the first buy. */
  readonly firstBuyAfter: number;
  /** Seconds before the hour of the last trade. */
  readonly lastTradeAgo: number;
  readonly buys: number;
  readonly sells: number;
  readonly boughtNative: number;
  readonly soldNative: number;
  readonly maxBuyNative: number;
  readonly maxSellNative: number;
  readonly entryMcap: number;
  readonly pnlUsd: number;
  readonly roi: number;
  readonly holding: boolean;
}

const NATIVE_USD = 150;
const round = (v: number, d: number) => Math.round(v * 10 ** d) / 10 ** d;

/** Traders of a token, in first-buy order. Cached: the lists are read again and again. */
export class TraderBook {
  private readonly cache = new Map<number, readonly Trade[]>();
  constructor(
    private readonly seed: number,
    private readonly market: Market,
    private readonly wallets: WalletSet,
  ) {}

  /** The traders of a token address, or [] for an address the market does not know. */
  ofAddress(address: string): readonly Trade[] {
    const t = this.market.tokenIndex.get(address);
    return t === undefined ? [] : this.of(t);
  }

  of(t: number): readonly Trade[] {
    const hit = this.cache.get(t);
    if (hit) return hit;
    const list = this.generate(this.market.tokens[t]!);
    if (this.cache.size >= 256) this.cache.delete(this.cache.keys().next().value as number);
    this.cache.set(t, list);
    return list;
  }

  private generate(tok: Token): Trade[] {
    const rng = new Rng(hash32(this.seed, 'traders', tok.address));
    const n = this.wallets.n;
    const seen = new Set<number>();
    const out: Trade[] = [];
    const span = Math.max(60, tok.createdAgo);
    for (let k = 0; k < tok.traders && n > 0; k++) {
      // Skewed towards low indexes: some wallets are in many tokens.
      const w = Math.floor(rng.next() ** 2.5 * n);
      if (seen.has(w)) continue;
      seen.add(w);
      const after = Math.min(span - 1, k < 20 ? rng.range(0, 30) * (k + 1) : rng.exp(span / 6));
      const progress = Math.min(1, after / Math.max(1, span - tok.athAgo));
      const entryMcap = Math.round(4_000 + (tok.athMcap - 4_000) * progress * rng.range(0.3, 1));
      const buys = 1 + Math.floor(rng.exp(2));
      const sells = rng.chance(0.2) ? 0 : 1 + Math.floor(rng.exp(2));
      const buy = Math.exp(rng.normal() * 1.2) * 0.8;
      const boughtNative = round(buy * buys, 4);
      const mult = (tok.athMcap / entryMcap) * rng.range(0.05, 0.9);
      const soldNative = sells === 0 ? 0 : round(boughtNative * Math.min(mult, 50) * rng.range(0.2, 1), 4);
      const holding = sells === 0 || rng.chance(0.3);
      const held = holding ? boughtNative * (tok.mcap / entryMcap) * 0.3 : 0;
      const pnlUsd = round((soldNative + held - boughtNative) * NATIVE_USD, 2);
      out.push({
        wallet: this.wallets.addresses[w] ?? '',
        firstBuyAfter: Math.floor(after),
        lastTradeAgo: Math.floor(rng.range(0, span - after)),
        buys,
        sells,
        boughtNative,
        soldNative,
        maxBuyNative: round(Math.min(boughtNative, buy * rng.range(1, 2.5)), 4),
        maxSellNative: sells === 0 ? 0 : round(Math.min(soldNative, (soldNative / sells) * rng.range(1, 2)), 4),
        entryMcap,
        pnlUsd,
        roi: round(pnlUsd / (boughtNative * NATIVE_USD), 4),
        holding,
      });
    }
    return out.sort((a, b) => a.firstBuyAfter - b.firstBuyAfter);
  }
}

export { NATIVE_USD };
