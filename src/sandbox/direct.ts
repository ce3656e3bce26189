/**
 * The direct family (§4.2, §4.3): JSON in the same response. Each handler computes its
 * answer, then pays through `pay` (which refuses with 402 before anything is charged when
 * the balance is short), then answers. Prices come from the sandbox's own table (./prices.ts).
 */
import type { Chain } from '../core/spec/addresses';
import { CREATOR_COLUMNS } from '../core/spec/catalog';
import { canonicalQuery, type QueryBody } from '../core/spec/queryModel';
import { REFRESH_PERIOD_MS, refreshPeriodIndex, refreshPeriodStart } from '../core/spec/refresh';
import { ERROR_CODES } from '../core/spec/wire';
import { PAGE_SIZE, decodeCursor, encodeCursor, swapCount, swaps } from './activity';
import { columnInfos } from './columns';
import type { World } from './data';
import { ApiError } from './http';
import { creatorRecord, tokenRecord } from './market';
import { chargeFor } from './prices';
import { projection, queryProblem, runQuery, walletRows, type QueryHits } from './query';
import type { Endpoint } from './routes';
import { metricsRecord } from './wallets';

export interface DirectCall {
  readonly ep: Endpoint;
  readonly input: Record<string, unknown>;
  /** Charges credits now, or throws 402 with nothing charged. */
  readonly pay: (credits: number) => void;
}

type Creator = Record<(typeof CREATOR_COLUMNS)[number], string | number>;

export class Direct {
  /** Wallet Database answers by chain and canonical query, for the hour they were computed in (§8.5). */
  private readonly cache = new Map<string, QueryHits>();
  private cacheHour = -1;

  constructor(
    private readonly world: World,
    private readonly now: () => number,
  ) {}

  /** Answers a direct endpoint; throws ApiError for refusals. */
  handle(call: DirectCall): unknown {
    const { ep } = call;
    switch (ep.id) {
      case 'wallet_database':
      case 'altchain_wallet_database':
        return this.walletDatabase(call, ep.chain);
      case 'wallet_database_columns':
      case 'altchain_wallet_database_columns':
        return columnInfos(ep.chain);
      case 'token_creators':
        return this.creators(call);
      case 'token_creator':
        return this.creator(call);
      case 'wallet_activity':
      case 'altchain_wallet_activity':
        return this.activity(call, ep.chain);
      case 'altchain_pnl':
        return this.altPnl(call);
      default:
        throw new Error(`no direct handler for ${ep.id}`);
    }
  }

  private walletDatabase({ ep, input, pay }: DirectCall, chain: Chain): unknown {
    const body = input.query as QueryBody;
    const problem = queryProblem(body, chain);
    if (problem) throw new ApiError(400, ERROR_CODES.badInput, problem);
    const view = this.world.view(chain, this.now());
    if (view.hour !== this.cacheHour) {
      this.cache.clear();
      this.cacheHour = view.hour;
    }
    const key = `${chain}:${canonicalQuery(body)}`;
    let hits = this.cache.get(key);
    if (!hits) {
      hits = runQuery(view, body);
      if (this.cache.size >= 500) this.cache.clear();
      this.cache.set(key, hits);
    }
    // The bill follows the matches, not the limit; a flat minimum when nothing matches (§4.2).
    const cost = chargeFor(ep.id, input, { matches: hits.total });
    pay(cost);
    const fields = projection(body);
    return {
      total: hits.total,
      wallets: walletRows(view, hits.indexes, fields),
      cost,
      refreshedAt: new Date(view.hourStart).toISOString(),
    };
  }

  private creators({ ep, input, pay }: DirectCall): unknown {
    const m = this.world.market;
    const hourStart = this.hourStart();
    const sort = String(input.sort) as (typeof CREATOR_COLUMNS)[number];
    const dir = input.order === 'asc' ? 1 : -1;
    const page = Number(input.page);
    const size = Number(input.page_size);
    const all: Creator[] = m.creators.map((c) => creatorRecord(m, c, hourStart));
    all.sort((a, b) => {
      const x = a[sort];
      const y = b[sort];
      if (x !== y) return (x < y ? -1 : 1) * dir;
      return a.address < b.address ? -1 : 1;
    });
    const slice = all.slice((page - 1) * size, page * size);
    const cols = Array.isArray(input.columns) ? (input.columns as string[]) : [...CREATOR_COLUMNS];
    // The address always comes along: a creator row without it cannot be followed up.
    const keep = ['address', ...cols.filter((c) => c !== 'address')] as (typeof CREATOR_COLUMNS)[number][];
    const creators = slice.map((c) => Object.fromEntries(keep.map((k) => [k, c[k]])));
    const cost = chargeFor(ep.id, input, { returned: creators.length });
    pay(cost);
    return { creators, page, page_size: size, total: all.length, sort, order: dir === 1 ? 'asc' : 'desc', cost };
  }

  private creator({ ep, input, pay }: DirectCall): unknown {
    const m = this.world.market;
    const address = String(input.address);
    const idx = m.creatorIndex.get(address);
    // Unknown creator: refused, so not charged.
    if (idx === undefined) throw new ApiError(404, ERROR_CODES.notFound, `No token creator with address ${address}.`);
    const c = m.creators[idx]!;
    const hourStart = this.hourStart();
    pay(chargeFor(ep.id, input));
    return {
      ...creatorRecord(m, c, hourStart),
      tokens: c.tokens.map((t) => tokenRecord(m.tokens[t]!, hourStart)).sort((a, b) => String(b.created_at).localeCompare(String(a.created_at))),
    };
  }

  private activity({ ep, input, pay }: DirectCall, chain: Chain): unknown {
    const address = String(input.address);
    let hour = refreshPeriodIndex(this.now());
    let offset = 0;
    if (typeof input.cursor === 'string') {
      const c = decodeCursor(input.cursor, address);
      if (!c) throw new ApiError(400, ERROR_CODES.badInput, 'Cursor: not a cursor this server issued for this wallet. Leave it out for the first page.');
      hour = c.hour;
      offset = c.offset;
    }
    const total = swapCount(this.world.seed, chain, address);
    const page = swaps(this.world.seed, this.world.market, chain, address, hour * REFRESH_PERIOD_MS, offset, PAGE_SIZE);
    // One credit per page read, even an empty one (§7.3).
    const cost = chargeFor(ep.id, input, { pages: 1 });
    pay(cost);
    const next = offset + PAGE_SIZE < total ? encodeCursor(hour, offset + PAGE_SIZE, address) : null;
    return { address, swaps: page, nextCursor: next, total, cost };
  }

  private altPnl({ ep, input, pay }: DirectCall): unknown {
    const wallet = String(input.wallet);
    const hour = refreshPeriodIndex(this.now());
    // Any address has metrics (they derive from the address), and a known one reads as in the database.
    const view = this.world.viewOf('alt', [wallet], hour);
    const i = 0;
    pay(chargeFor(ep.id, input));
    const [, label, firstSeen, lastActive, mainDex, mainBot] = view.identity(i);
    return {
      address: wallet,
      label,
      first_seen: firstSeen,
      last_active: lastActive,
      main_dex: mainDex,
      main_bot: mainBot,
      refreshedAt: new Date(view.hourStart).toISOString(),
      metrics: metricsRecord(view, i),
    };
  }

  private hourStart(): number {
    return refreshPeriodStart(this.now());
  }
}
