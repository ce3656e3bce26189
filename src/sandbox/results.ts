/**
 * What each queued endpoint's result file holds (§4.1, §4.3), as lazy line producers: a
 * `.txt` address list, a `.csv` with a header row, or a `.zip` of one `.csv` per token.
 * Everything is derived from the inputs, the seed and the hour the job was accepted in, so
 * the same job gives the same bytes. Inputs that match nothing give a valid empty file
 * (no lines for `.txt`, the header alone for `.csv`).
 */
import type { Chain } from '../core/spec/addresses';
import { ALT_DEXES, MAIN_DEXES, TRADING_BOTS } from '../core/spec/catalog';
import { refreshPeriodIndex } from '../core/spec/refresh';
import { swaps } from './activity';
import { categories, chainMetricColumns } from './columns';
import type { World } from './data';
import { iso, type Token } from './market';
import { Rng, hash32, unit, base58String } from './rng';
import { NATIVE_USD, type Trade } from './traders';
import { pnlHeader } from './wallets';

export type Lines = Iterable<string>;
export type ResultContent =
  | { readonly ext: 'txt' | 'csv'; readonly lines: Lines }
  | { readonly ext: 'zip'; readonly entries: readonly { readonly name: string; readonly lines: Lines }[] };

interface JobContext {
  readonly world: World;
  /** The hour the job was accepted in (ms of its start); every time in the file is relative to it. */
  readonly hourStart: number;
}

type Cell = string | number | boolean | null | undefined;

/** One CSV line (RFC 4180 quoting; null and undefined are empty cells). */
function csvLine(cells: readonly Cell[]): string {
  let s = '';
  for (let i = 0; i < cells.length; i++) {
    const c = cells[i];
    const v = c === null || c === undefined || (typeof c === 'number' && c !== c) ? '' : String(c);
    s += (i ? ',' : '') + (/[",\n\r]/u.test(v) ? `"${v.replace(/"/gu, '""')}"` : v);
  }
  return s;
}

function* csv(header: readonly string[], rows: Iterable<readonly Cell[]>): Generator<string> {
  yield csvLine(header);
  for (const r of rows) yield csvLine(r);
}

const NATIVE_MINT = 'So11111111111111111111111111111111111111112';
const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const num = (v: unknown): number => (typeof v === 'number' ? v : 0);
const list = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);

class Producer {
  private readonly world: World;
  private readonly hourStart: number;
  private readonly nowS: number;
  constructor(ctx: JobContext) {
    this.world = ctx.world;
    this.hourStart = ctx.hourStart;
    this.nowS = Math.floor(ctx.hourStart / 1000);
  }

  private at(agoS: number): string {
    return iso(this.hourStart - agoS * 1000);
  }
  private firstBuyS(tok: Token, tr: Trade): number {
    return this.nowS - Math.floor(tok.createdAgo) + tr.firstBuyAfter;
  }
  private tokenOf(address: string): Token | undefined {
    const t = this.world.market.tokenIndex.get(address);
    return t === undefined ? undefined : this.world.market.tokens[t];
  }
  private jitter(...parts: (string | number)[]): number {
    return 0.5 + unit(this.world.seed, this.hourStart, ...parts);
  }

  produce(id: string, input: Record<string, unknown>): ResultContent {
    const m = this.world.market;
    switch (id) {
      case 'trending': {
        const hours = num(input.hours);
        const ranked = m.tokens
          .map((t) => ({ t, swaps: Math.floor(t.swapRate * Math.min(hours, t.createdAgo / 3600) * this.jitter('trend', t.address, hours)) }))
          .filter((x) => x.swaps > 0)
          .sort((a, b) => b.swaps - a.swaps || a.t.address.localeCompare(b.t.address))
          .slice(0, 100);
        return { ext: 'txt', lines: ranked.map((x) => x.t.address) };
      }
      case 'migratedtokens': {
        const within = num(input.hours) * 3600;
        const pad = str(input.launchpad);
        const hits = m.tokens
          .filter((t) => t.migratedAgo !== undefined && t.migratedAgo <= within && (pad === '' || t.launchpad === pad))
          .sort((a, b) => (a.migratedAgo ?? 0) - (b.migratedAgo ?? 0));
        if (input.format === 'txt') return { ext: 'txt', lines: hits.map((t) => t.address) };
        return {
          ext: 'csv',
          lines: csv(
            ['token', 'symbol', 'name', 'launchpad', 'created_at', 'migrated_at', 'mcap_usd', 'ath_mcap_usd', 'creator'],
            hits.map((t) => [t.address, t.symbol, t.name, t.launchpad, this.at(t.createdAgo), this.at(t.migratedAgo ?? 0), t.mcap, t.athMcap, t.creator]),
          ),
        };
      }
      case 'mcaptokens': {
        const cap = num(input.mcap_usd);
        const within = num(input.days) * 86_400;
        const rows: Cell[][] = [];
        for (const t of m.tokens) {
          if (t.athMcap < cap) continue;
          const frac = cap <= 4_000 ? 0 : Math.min(1, Math.log(cap / 4_000) / Math.log(Math.max(4_001, t.athMcap) / 4_000));
          const crossedAgo = t.createdAgo - (t.createdAgo - t.athAgo) * frac;
          if (crossedAgo > within) continue;
          rows.push([t.address, t.symbol, t.name, t.launchpad, this.at(t.createdAgo), this.at(crossedAgo), t.mcap, t.athMcap]);
        }
        return { ext: 'csv', lines: csv(['token', 'symbol', 'name', 'launchpad', 'created_at', 'crossed_at', 'mcap_usd', 'ath_mcap_usd'], rows) };
      }
      case 'athmcap': {
        const rows = list(input.tokens)
          .map((a) => this.tokenOf(a))
          .filter((t): t is Token => t !== undefined)
          .map((t) => [t.address, t.symbol, t.name, t.athMcap, this.at(t.athAgo), t.mcap, Math.round((1 - t.mcap / t.athMcap) * 1e4) / 1e4]);
        return { ext: 'csv', lines: csv(['token', 'symbol', 'name', 'ath_mcap_usd', 'ath_at', 'mcap_usd', 'drawdown_from_ath'], rows) };
      }
      case 'toptraders': {
        const tokens = list(input.tokens);
        const top = (a: string) => [...this.world.traders.ofAddress(a)].sort((x, y) => y.pnlUsd - x.pnlUsd || x.wallet.localeCompare(y.wallet)).slice(0, 100);
        if (input.output === 'txt') {
          const lines = [...new Set(tokens.flatMap((a) => top(a).map((t) => t.wallet)))];
          return { ext: 'txt', lines };
        }
        return {
          ext: 'zip',
          entries: tokens.map((a) => ({
            name: `${a}.csv`,
            lines: csv(
              ['rank', 'wallet', 'pnl_usd', 'roi', 'bought_native', 'sold_native', 'buys', 'sells', 'first_buy_at', 'last_trade_at', 'holding'],
              top(a).map((tr, k) => {
                const tok = this.tokenOf(a)!;
                return [k + 1, tr.wallet, tr.pnlUsd, tr.roi, tr.boughtNative, tr.soldNative, tr.buys, tr.sells, iso(this.firstBuyS(tok, tr) * 1000), this.at(tr.lastTradeAgo), tr.holding];
              }),
            ),
          })),
        };
      }
      case 'earlybuyers': {
        const n = num(input.buyers);
        return {
          ext: 'zip',
          entries: list(input.tokens).map((a) => ({
            name: `${a}.csv`,
            lines: csv(
              ['rank', 'wallet', 'first_buy_at', 'seconds_after_launch', 'amount_native', 'amount_usd', 'entry_mcap_usd', 'buys', 'sells', 'holding'],
              this.world.traders
                .ofAddress(a)
                .slice(0, n)
                .map((tr, k) => {
                  const first = Math.round((tr.boughtNative / tr.buys) * 1e4) / 1e4;
                  return [k + 1, tr.wallet, iso(this.firstBuyS(this.tokenOf(a)!, tr) * 1000), tr.firstBuyAfter, first, Math.round(first * NATIVE_USD * 100) / 100, tr.entryMcap, tr.buys, tr.sells, tr.holding];
                }),
            ),
          })),
        };
      }
      case 'alltraders':
        return {
          ext: 'zip',
          entries: list(input.tokens).map((a) => ({
            name: `${a}.csv`,
            lines: csv(
              ['wallet', 'first_buy_at', 'last_trade_at', 'buys', 'sells', 'bought_native', 'sold_native', 'pnl_usd', 'roi', 'holding'],
              this.world.traders
                .ofAddress(a)
                .map((tr) => [tr.wallet, iso(this.firstBuyS(this.tokenOf(a)!, tr) * 1000), this.at(tr.lastTradeAgo), tr.buys, tr.sells, tr.boughtNative, tr.soldNative, tr.pnlUsd, tr.roi, tr.holding]),
            ),
          })),
        };
      case 'dexwallets':
        return { ext: 'txt', lines: this.venueWallets('main', 'dex', MAIN_DEXES.indexOf(str(input.dex) as (typeof MAIN_DEXES)[number]), num(input.hours)) };
      case 'botwallets':
        return { ext: 'txt', lines: this.venueWallets('main', 'bot', 1 + TRADING_BOTS.indexOf(str(input.bot) as (typeof TRADING_BOTS)[number]), num(input.hours)) };
      case 'altchain_dexwallets':
        return { ext: 'txt', lines: this.venueWallets('alt', 'dex', ALT_DEXES.indexOf(str(input.dex) as (typeof ALT_DEXES)[number]), num(input.hours)) };
      case 'programstats':
      case 'lookuptablestats': {
        const hours = num(input.hours);
        const isProgram = id === 'programstats';
        const venues = isProgram ? m.programs : m.tables;
        const rows = venues.map((v) => {
          const n = Math.floor(v.swapRate * hours * this.jitter(v.address, hours));
          const wallets = Math.max(n > 0 ? 1 : 0, Math.floor(n * 0.35));
          const volume = Math.round(n * 95 * this.jitter('vol', v.address) * 100) / 100;
          return isProgram ? [v.address, v.name, n, wallets, volume, this.at(v.createdAgo)] : [v.address, v.name, v.size, n, wallets, volume, this.at(v.createdAgo)];
        });
        rows.sort((a, b) => num(b[isProgram ? 2 : 3]) - num(a[isProgram ? 2 : 3]));
        const header = isProgram ? ['program', 'name', 'swaps', 'wallets', 'volume_usd', 'first_seen'] : ['table', 'name', 'addresses', 'swaps', 'wallets', 'volume_usd', 'created_at'];
        return { ext: 'csv', lines: csv(header, rows) };
      }
      case 'programswaps':
      case 'lookuptableswaps': {
        const address = str(id === 'programswaps' ? input.program : input.table);
        const idx = (id === 'programswaps' ? m.programIndex : m.tableIndex).get(address);
        const venue = idx === undefined ? undefined : (id === 'programswaps' ? m.programs : m.tables)[idx];
        const rows = venue ? this.venueSwaps(venue.address, Math.min(20_000, Math.floor(venue.swapRate * num(input.hours) * this.jitter(venue.address, num(input.hours)))), num(input.hours)) : [];
        if (input.format === 'txt') return { ext: 'txt', lines: [...new Set(rows.map((r) => String(r[2])))] };
        return { ext: 'csv', lines: csv(['signature', 'time', 'wallet', 'token_in', 'token_out', 'amount_in', 'amount_out', 'volume_usd'], rows) };
      }
      case 'pnl':
        return { ext: 'csv', lines: this.pnl('main', list(input.wallets)) };
      case 'altchain_pnlplus':
        return { ext: 'csv', lines: this.pnl('alt', list(input.wallets)) };
      case 'firstbuysanalyze': {
        const wallet = str(input.wallet);
        const all = swaps(this.world.seed, m, 'main', wallet, this.hourStart, 0, Number.MAX_SAFE_INTEGER);
        const first = new Map<string, (typeof all)[number]>();
        for (const s of all) if (s.side === 'buy') first.set(s.token, s); // newest first: the last write is the oldest buy
        const rows = [...first.values()].reverse().map((s) => [s.token, s.symbol, s.time, s.native_amount, s.usd_amount, s.price_usd, s.dex]);
        return { ext: 'csv', lines: csv(['token', 'symbol', 'first_buy_at', 'amount_native', 'amount_usd', 'price_usd', 'dex'], rows) };
      }
      case 'mcap':
      case 'timestamp': {
        const tok = this.tokenOf(str(input.token));
        const trades = tok ? this.world.traders.of(m.tokenIndex.get(tok.address)!) : [];
        const keep = (tr: Trade) =>
          id === 'mcap'
            ? tr.entryMcap >= num(input.min_mcap_usd) && tr.entryMcap <= num(input.max_mcap_usd)
            : this.firstBuyS(tok!, tr) >= num(input.from) && this.firstBuyS(tok!, tr) <= num(input.to);
        const rows = trades.filter(keep).map((tr) => [tr.wallet, iso(this.firstBuyS(tok!, tr) * 1000), tr.entryMcap, tr.boughtNative, tr.pnlUsd, tr.roi, tr.holding]);
        return { ext: 'csv', lines: csv(['wallet', 'first_buy_at', 'entry_mcap_usd', 'bought_native', 'pnl_usd', 'roi', 'holding'], rows) };
      }
      case 'buysellfilter': {
        const tok = this.tokenOf(str(input.token));
        const lo = num(input.min_native);
        const hi = num(input.max_native);
        const side = str(input.side);
        const rows: Cell[][] = [];
        for (const tr of tok ? this.world.traders.ofAddress(tok.address) : []) {
          const buyIn = tr.maxBuyNative >= lo && tr.maxBuyNative <= hi;
          const sellIn = tr.sells > 0 && tr.maxSellNative >= lo && tr.maxSellNative <= hi;
          const hit = side === 'buy' ? (buyIn ? 'buy' : '') : side === 'sell' ? (sellIn ? 'sell' : '') : buyIn ? 'buy' : sellIn ? 'sell' : '';
          if (!hit) continue;
          const amount = hit === 'buy' ? tr.maxBuyNative : tr.maxSellNative;
          rows.push([tr.wallet, hit, amount, Math.round(amount * NATIVE_USD * 100) / 100, tr.buys, tr.sells, iso(this.firstBuyS(tok!, tr) * 1000)]);
        }
        return { ext: 'csv', lines: csv(['wallet', 'side', 'amount_native', 'amount_usd', 'buys', 'sells', 'first_buy_at'], rows) };
      }
      case 'tokensoverlap': {
        const windows = Array.isArray(input.tokens) ? (input.tokens as { token: string; from: number; to: number }[]) : [];
        let common: Set<string> | undefined;
        for (const w of windows) {
          const tok = this.tokenOf(w.token);
          const buyers = new Set(
            tok ? this.world.traders.ofAddress(w.token).filter((tr) => this.firstBuyS(tok, tr) >= w.from && this.firstBuyS(tok, tr) <= w.to).map((tr) => tr.wallet) : [],
          );
          common = common ? new Set([...common].filter((a) => buyers.has(a))) : buyers;
        }
        return { ext: 'txt', lines: [...(common ?? [])] };
      }
      case 'findaddress':
        return { ext: 'txt', lines: this.findAddress(str(input.fragment)) };
      default:
        throw new Error(`No result file for endpoint ${id}`);
    }
  }

  /** Wallets of a chain active on a venue (or bot) within the last hours: their main one, or now and then another. */
  private venueWallets(chain: Chain, by: 'dex' | 'bot', which: number, hours: number): string[] {
    const set = this.world.wallets(chain);
    const within = hours * 3600;
    const out: string[] = [];
    const options = by === 'dex' ? categories(chain).dexes.length : categories(chain).bots.length;
    for (let i = 0; i < set.n; i++) {
      if (set.idleSeconds[i]! > within) continue;
      const own = by === 'dex' ? set.dex[i] : set.bot[i];
      const other = unit(this.world.seed, 'venue', by, which, set.addresses[i] ?? '') < 1 / options;
      // Index 0 of bots is "no bot": such a wallet is never on a bot list.
      if (own === which || (other && (by === 'dex' || own !== 0))) out.push(set.addresses[i] ?? '');
    }
    return out;
  }

  private venueSwaps(venue: string, count: number, hours: number): Cell[][] {
    const rng = new Rng(hash32(this.world.seed, 'venue-swaps', venue, this.hourStart));
    const set = this.world.wallets('main');
    const tokens = this.world.market.tokens;
    const rows: Cell[][] = [];
    for (let k = 0; k < count && set.n > 0; k++) {
      const ago = rng.range(0, hours * 3600);
      const wallet = set.addresses[Math.floor(rng.next() ** 2 * set.n)] ?? '';
      const tok = tokens[Math.floor(rng.next() * tokens.length)]!;
      const native = Math.round(Math.exp(rng.normal() * 1.2) * 0.8 * 1e4) / 1e4;
      const price = tok.mcap / 1e9;
      const amount = Math.round(((native * NATIVE_USD) / price) * 100) / 100;
      const buy = rng.chance(0.55);
      rows.push([base58String(rng, 88), this.at(ago), wallet, buy ? NATIVE_MINT : tok.address, buy ? tok.address : NATIVE_MINT, buy ? native : amount, buy ? amount : native, Math.round(native * NATIVE_USD * 100) / 100]);
    }
    return rows.sort((a, b) => String(b[1]).localeCompare(String(a[1])));
  }

  private *pnl(chain: Chain, wallets: readonly string[]): Generator<string> {
    yield csvLine(pnlHeader(chain));
    const hour = refreshPeriodIndex(this.hourStart);
    const columns = chainMetricColumns(chain).map((c) => c.index);
    // Chunks keep memory flat on 100,000 wallets: each chunk is generated, written, dropped.
    for (let from = 0; from < wallets.length; from += 2_000) {
      const view = this.world.viewOf(chain, wallets.slice(from, from + 2_000), hour);
      const cols = columns.map((c) => view.column(c, false));
      for (let i = 0; i < view.set.n; i++) {
        let line = csvLine(view.identity(i));
        for (const col of cols) {
          const v = col[i]!;
          line += v === v ? `,${v}` : ',';
        }
        yield line;
      }
    }
  }

  private findAddress(fragment: string): string[] {
    const [prefix, suffix] = fragment.includes('...') ? fragment.split('...') : [fragment, undefined];
    const matches = (a: string) =>
      suffix === undefined ? a.startsWith(prefix ?? '') || a.endsWith(prefix ?? '') : a.startsWith(prefix ?? '') && a.endsWith(suffix) && a.length >= (prefix ?? '').length + suffix.length;
    const m = this.world.market;
    const all = [
      ...this.world.wallets('main').addresses,
      ...m.tokens.map((t) => t.address),
      ...m.creators.map((c) => c.address),
      ...m.programs.map((p) => p.address),
      ...m.tables.map((t) => t.address),
    ];
    return [...new Set(all.filter(matches))].slice(0, 1_000);
  }
}

/** The content of an endpoint's result file for validated input. */
export function resultContent(ctx: JobContext, endpointId: string, input: Record<string, unknown>): ResultContent {
  return new Producer(ctx).produce(endpointId, input);
}
