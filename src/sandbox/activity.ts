/**
 * Swap activity of one wallet (either chain), read by cursor pages of up to 100 (§2.7, §8.5).
 * A wallet has a deterministic number of swaps (some none, some thousands), newest first.
 * The cursor carries the hour the first page was read in, so a walk through the pages sees
 * one consistent list even when the hour turns; it also names the wallet it belongs to.
 */
import type { Chain } from '../core/spec/addresses';
import { ALT_DEXES, MAIN_DEXES, TRADING_BOTS } from '../core/spec/catalog';
import { ALT_BOTS } from './columns';
import type { Market } from './market';
import { Rng, base58String, hash32, hexAddress, unit } from './rng';

export const PAGE_SIZE = 100;
const NATIVE_USD: Record<Chain, number> = { main: 150, alt: 3000 };

interface Swap {
  readonly signature: string;
  readonly time: string;
  readonly side: 'buy' | 'sell';
  readonly token: string;
  readonly symbol: string;
  readonly token_amount: number;
  readonly native_amount: number;
  readonly usd_amount: number;
  readonly price_usd: number;
  readonly dex: string;
  readonly bot: string;
}

/** How many swaps a wallet has: 12% none, most a few hundred, a few thousands. */
export function swapCount(seed: number, chain: Chain, address: string): number {
  const u = unit(seed, 'swap-count', chain, address);
  const v = unit(seed, 'swap-count-2', chain, address);
  if (u < 0.12) return 0;
  if (u < 0.82) return 1 + Math.floor(300 * v);
  if (u < 0.97) return 300 + Math.floor(1_700 * v);
  return 2_000 + Math.floor(4_000 * v);
}

/** Swaps [offset, offset + size) of a wallet, newest first, for a list read during the hour starting at hourStart (ms). */
export function swaps(seed: number, market: Market, chain: Chain, address: string, hourStart: number, offset: number, size: number): Swap[] {
  const count = swapCount(seed, chain, address);
  const end = Math.min(count, offset + size);
  const rng = new Rng(hash32(seed, 'swaps', chain, address));
  const spanDays = 20 + unit(seed, 'swap-span', address) * 600;
  const meanGap = (spanDays * 86_400) / Math.max(1, count);
  const dexes: readonly string[] = chain === 'main' ? MAIN_DEXES : ALT_DEXES;
  const bots: readonly string[] = chain === 'main' ? TRADING_BOTS : ALT_BOTS;
  const usesBot = unit(seed, 'swap-bot', address) < 0.5;
  let ago = rng.exp(Math.min(meanGap, 86_400));
  const out: Swap[] = [];
  for (let j = 0; j < end; j++) {
    // Every swap draws the same number of values, so swap j is the same whichever page asks.
    const gap = rng.exp(meanGap);
    const side = rng.chance(0.55) ? 'buy' : 'sell';
    const tokenU = rng.next();
    const native = Math.exp(rng.normal() * 1.3) * (chain === 'main' ? 0.8 : 0.05);
    const dex = dexes[Math.floor(rng.next() ** 1.5 * dexes.length)] ?? '';
    const botU = rng.next();
    const bot = usesBot ? (bots[Math.floor(botU * bots.length)] ?? '') : '';
    const sigSeed = rng.int(0, 0x7fffffff);
    if (j >= offset) {
      let token: string;
      let symbol: string;
      let price: number;
      if (chain === 'main') {
        const t = market.tokens[Math.floor(tokenU * market.tokens.length)]!;
        token = t.address;
        symbol = t.symbol;
        price = t.mcap / 1e9;
      } else {
        const t = market.altTokens[Math.floor(tokenU * market.altTokens.length)]!;
        token = t.address;
        symbol = t.symbol;
        price = t.price;
      }
      const usd = native * NATIVE_USD[chain];
      const sig = new Rng(sigSeed);
      out.push({
        signature: chain === 'main' ? base58String(sig, 88) : hexAddress(sig, 64),
        time: new Date(hourStart - Math.floor(ago) * 1000).toISOString(),
        side,
        token,
        symbol,
        token_amount: Math.round((usd / price) * 1e4) / 1e4,
        native_amount: Math.round(native * 1e6) / 1e6,
        usd_amount: Math.round(usd * 100) / 100,
        price_usd: Number(price.toPrecision(6)),
        dex,
        bot,
      });
    }
    ago += gap;
  }
  return out;
}

interface CursorBody {
  readonly h: number;
  readonly o: number;
  readonly w: number;
}

/** An opaque cursor for the page starting at offset. */
export function encodeCursor(hour: number, offset: number, address: string): string {
  const body: CursorBody = { h: hour, o: offset, w: hash32('cursor', address) };
  return Buffer.from(JSON.stringify(body)).toString('base64url');
}

/** The hour and offset of a cursor this sandbox issued for this wallet, or undefined. */
export function decodeCursor(cursor: string, address: string): { hour: number; offset: number } | undefined {
  try {
    const v = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as Partial<CursorBody>;
    if (typeof v.h !== 'number' || typeof v.o !== 'number' || v.w !== hash32('cursor', address)) return undefined;
    if (!Number.isInteger(v.o) || v.o < 0 || !Number.isInteger(v.h)) return undefined;
    return { hour: v.h, offset: v.o };
  } catch {
    return undefined;
  }
}
