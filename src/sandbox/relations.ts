/**
 * What ties the sandbox's metrics to each other (issue 35.10). Each metric is first drawn on its
 * own (recipes.ts); a trader then checks them against each other, so the ones a trader can check
 * are written from the others they depend on, as served (after the hourly refresh and rounding):
 *
 * - formulas: total = realized + unrealized, realized = gross profit − gross loss, PnL after fees =
 *   realized − fees, win rate = wins ÷ (wins + losses), closed = wins + losses + breakevens,
 *   trades = buys + sells, volume = bought + sold, a native amount = its USD ÷ the coin's price…
 * - bounds: a family's max is at least its average and median, its min at most; 10× ≤ 5× ≤ 2×;
 *   partial sells ≤ sells; tokens sold ≤ traded…
 * - timeframes: a count, a sum or a maximum over a longer timeframe is never below the shorter
 *   one's (the best trade of a day is within the month's), a minimum never above it.
 *
 * Pure: a metric's column from the columns it depends on, through `src` (the hour's view, which
 * caches them). The dependencies form no cycle (a test reads every column).
 */
import type { Chain } from '../core/spec/addresses';
import { METRICS } from '../core/spec/metrics';
import { NATIVE_PRICE } from './recipes';

/** Reads a metric's served column over a timeframe (0 = 1d … 3 = all). */
type Source = (metric: string, tf: number) => Float64Array;

type Formula = (get: (metric: string) => Float64Array, i: number) => number;

const ratio = (a: number, b: number): number => (b > 0 ? a / b : NaN);

/** Metrics whose value is a formula of others of the same timeframe. */
const FORMULAS: Readonly<Record<string, { readonly from: readonly string[]; readonly f: Formula }>> = {
  realized_pnl_usd: { from: ['gross_profit_usd', 'gross_loss_usd'], f: (g, i) => g('gross_profit_usd')[i]! - g('gross_loss_usd')[i]! },
  total_pnl_usd: { from: ['realized_pnl_usd', 'unrealized_pnl_usd'], f: (g, i) => g('realized_pnl_usd')[i]! + g('unrealized_pnl_usd')[i]! },
  pnl_after_fees_usd: { from: ['realized_pnl_usd', 'fees_paid_usd'], f: (g, i) => g('realized_pnl_usd')[i]! - g('fees_paid_usd')[i]! },
  best_trade_pnl_usd: { from: ['max_trade_pnl_usd'], f: (g, i) => g('max_trade_pnl_usd')[i]! },
  worst_trade_pnl_usd: { from: ['min_trade_pnl_usd'], f: (g, i) => g('min_trade_pnl_usd')[i]! },
  profit_factor: { from: ['gross_profit_usd', 'gross_loss_usd'], f: (g, i) => ratio(g('gross_profit_usd')[i]!, g('gross_loss_usd')[i]!) },
  winrate: { from: ['win_count', 'loss_count'], f: (g, i) => ratio(g('win_count')[i]!, g('win_count')[i]! + g('loss_count')[i]!) },
  closed_trade_count: { from: ['win_count', 'loss_count', 'breakeven_count'], f: (g, i) => g('win_count')[i]! + g('loss_count')[i]! + g('breakeven_count')[i]! },
  win_loss_ratio: { from: ['avg_win_usd', 'avg_loss_usd'], f: (g, i) => ratio(g('avg_win_usd')[i]!, g('avg_loss_usd')[i]!) },
  volume_usd: { from: ['buy_volume_usd', 'sell_volume_usd'], f: (g, i) => g('buy_volume_usd')[i]! + g('sell_volume_usd')[i]! },
  net_flow_usd: { from: ['buy_volume_usd', 'sell_volume_usd'], f: (g, i) => g('sell_volume_usd')[i]! - g('buy_volume_usd')[i]! },
  trade_count: { from: ['buy_count', 'sell_count'], f: (g, i) => g('buy_count')[i]! + g('sell_count')[i]! },
  buy_sell_ratio: { from: ['buy_count', 'sell_count'], f: (g, i) => ratio(g('buy_count')[i]!, g('sell_count')[i]!) },
};

/** Metrics kept at least (`at least`) or at most (`at most`) each of others of the same timeframe. */
const BOUNDS: Readonly<Record<string, { readonly atLeast?: readonly string[]; readonly atMost?: readonly string[]; readonly sum?: boolean }>> = {
  sell_count: { atLeast: ['closed_trade_count'] },
  partial_sell_count: { atMost: ['sell_count'] },
  tokens_sold: { atLeast: ['tokens_profitable', 'tokens_unprofitable'], sum: true },
  tokens_traded: { atLeast: ['tokens_bought', 'tokens_sold'] },
  roi_5x_share: { atMost: ['roi_2x_share'] },
  roi_10x_share: { atMost: ['roi_5x_share'] },
  roi_loss_90_share: { atMost: ['roi_loss_50_share'] },
  flip_share: { atMost: ['short_hold_share'] },
  top_token_pnl_share: { atMost: ['top3_token_pnl_share'] },
};
// A family's max holds its average and median, its min is below them.
for (const s of ['trade_pnl_usd', 'trade_roi', 'buy_size_usd', 'sell_size_usd', 'position_size_usd', 'hold_seconds']) {
  (BOUNDS as Record<string, (typeof BOUNDS)[string]>)[`max_${s}`] = { atLeast: [`avg_${s}`, `median_${s}`] };
  (BOUNDS as Record<string, (typeof BOUNDS)[string]>)[`min_${s}`] = { atMost: [`avg_${s}`, `median_${s}`] };
}

/** Drawn metrics that only grow with the timeframe: counts, sums, maxima (what is derived from them follows). */
const GROWS = new Set([
  'win_count', 'loss_count', 'breakeven_count', 'buy_count', 'sell_count', 'partial_sell_count', 'failed_tx_count', 'first_block_buy_count',
  'active_days', 'active_hours_spread', 'tokens_traded', 'tokens_bought', 'tokens_sold', 'tokens_profitable', 'tokens_unprofitable',
  'tokens_rugged', 'fees_paid_usd', 'gross_profit_usd', 'gross_loss_usd', 'buy_volume_usd', 'sell_volume_usd', 'invested_usd',
  'max_trade_pnl_usd', 'max_trade_roi', 'max_buy_size_usd', 'max_sell_size_usd', 'max_position_size_usd', 'max_hold_seconds',
  'max_daily_volume_usd', 'max_trades_per_day', 'max_win_streak', 'max_loss_streak', 'max_drawdown_usd', 'dexes_used', 'bots_used',
  'transfer_in_count', 'transfer_out_count', 'mev_victim_count', 'token_approval_count',
]);
/** Drawn minima: never larger over a longer timeframe. */
const SHRINKS = new Set(['min_trade_pnl_usd', 'min_trade_roi', 'min_buy_size_usd', 'min_sell_size_usd', 'min_position_size_usd', 'min_hold_seconds']);

const NAMES = new Set(METRICS.map((m) => m.name));

/** The USD twin of a native metric (`fees_paid_native` → `fees_paid_usd`), when there is one. */
function usdTwin(metric: string): string | undefined {
  if (!metric.endsWith('_native')) return undefined;
  const twin = `${metric.slice(0, -'_native'.length)}_usd`;
  return NAMES.has(twin) ? twin : undefined;
}

/** Whether a metric's served column is written from others (so its own draw is not needed). */
export function isDerived(metric: string): boolean {
  return metric in FORMULAS || usdTwin(metric) !== undefined;
}

/** a kept at least b; a null (NaN) stays null, a null b bounds nothing. */
const atLeast = (a: number, b: number): number => (a !== a || b !== b || a >= b ? a : b);
const atMost = (a: number, b: number): number => (a !== a || b !== b || a <= b ? a : b);

/**
 * Writes the relations of `metric` over timeframe `tf` into `out` (its drawn values, before the
 * final rounding, which the caller applies): a formula replaces them, a bound or the timeframe
 * rule clamps them.
 */
export function relate(metric: string, tf: number, chain: Chain, out: Float64Array, src: Source): void {
  const n = out.length;
  const twin = usdTwin(metric);
  if (twin) {
    const usd = src(twin, tf);
    const price = NATIVE_PRICE[chain];
    for (let i = 0; i < n; i++) out[i] = usd[i]! / price;
    return;
  }
  const formula = FORMULAS[metric];
  if (formula) {
    const cols = new Map(formula.from.map((m) => [m, src(m, tf)]));
    const get = (m: string): Float64Array => cols.get(m)!;
    for (let i = 0; i < n; i++) out[i] = formula.f(get, i);
    return;
  }
  const bound = BOUNDS[metric];
  if (bound?.atLeast) {
    const cols = bound.atLeast.map((m) => src(m, tf));
    for (let i = 0; i < n; i++) {
      if (bound.sum) out[i] = atLeast(out[i]!, cols.reduce((s, c) => s + c[i]!, 0));
      else for (const c of cols) out[i] = atLeast(out[i]!, c[i]!);
    }
  }
  if (bound?.atMost) {
    const cols = bound.atMost.map((m) => src(m, tf));
    for (let i = 0; i < n; i++) for (const c of cols) out[i] = atMost(out[i]!, c[i]!);
  }
  if (tf > 0 && GROWS.has(metric)) {
    const shorter = src(metric, tf - 1);
    for (let i = 0; i < n; i++) out[i] = atLeast(out[i]!, shorter[i]!);
  }
  if (tf > 0 && SHRINKS.has(metric)) {
    const shorter = src(metric, tf - 1);
    for (let i = 0; i < n; i++) out[i] = atMost(out[i]!, shorter[i]!);
  }
}
