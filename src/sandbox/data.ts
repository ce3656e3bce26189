/**
 * The sandbox's whole synthetic world for one seed: both chains' wallets, the market, the
 * traders of each token, and the hour views (the hourly refresh). Built once at start.
 */
import type { Chain } from '../core/spec/addresses';
import { buildMarket, type Market } from './market';
import { TraderBook } from './traders';
import { refreshPeriodIndex } from '../core/spec/refresh';
import { HourView, generateWallets, walletAddresses, type WalletSet } from './wallets';

export class World {
  readonly market: Market;
  readonly traders: TraderBook;
  private readonly sets: Record<Chain, WalletSet>;
  private readonly views = new Map<Chain, HourView>();

  constructor(
    readonly seed: number,
    wallets: number,
    altWallets: number,
  ) {
    this.sets = {
      main: generateWallets('main', seed, walletAddresses('main', seed, wallets)),
      alt: generateWallets('alt', seed, walletAddresses('alt', seed, altWallets)),
    };
    this.market = buildMarket(seed);
    this.traders = new TraderBook(seed, this.market, this.sets.main);
  }

  wallets(chain: Chain): WalletSet {
    return this.sets[chain];
  }

  /** The chain's wallets as they read during the hour holding time `now` (ms). Only the latest hour is kept. */
  view(chain: Chain, now: number): HourView {
    const hour = refreshPeriodIndex(now);
    const v = this.views.get(chain);
    if (v && v.hour === hour) return v;
    const fresh = new HourView(this.sets[chain], hour);
    this.views.set(chain, fresh);
    return fresh;
  }

  /** A view of arbitrary addresses (a pnl list) for an hour: the same numbers as the universe for known ones. */
  viewOf(chain: Chain, addresses: readonly string[], hour: number): HourView {
    return new HourView(generateWallets(chain, this.seed, addresses), hour);
  }
}
