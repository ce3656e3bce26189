/**
 * The wallet metrics, each in four timeframes (§2.4, §1.4): 158 on each chain. The spec does
 * not show their names, so these are ours: the sandbox serves them from `/wallet_database/columns`,
 * the query language completes them, and the table groups its columns by them.
 * A column name is `<metric>_<timeframe>`, e.g. `realized_pnl_usd_7d`.
 *
 * CHAIN-ONLY METRICS (ours; the spec says only "158 metrics" for either chain): 154 metrics
 * exist on both chains, and four on one chain only (`only` below):
 *   main only  launchpad_token_share, migrated_token_share, pre_migration_buy_share,
 *              post_migration_buy_share: launchpads and their migration are a main-chain stage.
 *   alt only   private_tx_share, token_approval_count, unlimited_approval_share,
 *              avg_gas_price_gwei: private relays, token approvals and gas prices are EVM things.
 */
import type { Chain } from './addresses';

export const TIMEFRAMES = ['1d', '7d', '30d', 'all'] as const;
export type Timeframe = (typeof TIMEFRAMES)[number];
export const TIMEFRAME_LABEL: Record<Timeframe, string> = {
  '1d': 'last day',
  '7d': 'last 7 days',
  '30d': 'last 30 days',
  all: 'all time',
};

/** How a value is typed and shown: money in USD or the native coin, a 0..1 ratio shown as %, a count, seconds. */
export type MetricKind = 'usd' | 'native' | 'ratio' | 'count' | 'seconds' | 'number';

export interface Metric {
  readonly name: string;
  readonly group: MetricGroup;
  readonly kind: MetricKind;
  readonly description: string;
  /** The one chain the metric exists on; absent when it exists on both. */
  readonly only?: Chain;
}

export const METRIC_GROUPS = [
  'pnl',
  'roi',
  'winrate',
  'volume',
  'trades',
  'size',
  'holding',
  'timing',
  'tokens',
  'risk',
  'behaviour',
] as const;
export type MetricGroup = (typeof METRIC_GROUPS)[number];

type Row = readonly [name: string, kind: MetricKind, description: string, only?: Chain];

const money = (base: string, what: string): Row[] => [
  [`${base}_usd`, 'usd', `${what}, in USD`],
  [`${base}_native`, 'native', `${what}, in the native coin`],
];

const stats = (base: string, what: string, kind: MetricKind): Row[] => [
  [`avg_${base}`, kind, `Average ${what}`],
  [`median_${base}`, kind, `Median ${what}`],
  [`max_${base}`, kind, `Largest ${what}`],
  [`min_${base}`, kind, `Smallest ${what}`],
];

const GROUP_ROWS: Record<MetricGroup, Row[]> = {
  pnl: [
    ...money('realized_pnl', 'Realized profit and loss'),
    ...money('unrealized_pnl', 'Unrealized profit and loss of open positions'),
    ...money('total_pnl', 'Realized plus unrealized profit and loss'),
    ...money('gross_profit', 'Sum of winning trades'),
    ...money('gross_loss', 'Sum of losing trades (as a positive number)'),
    ...money('best_trade_pnl', 'Profit of the best closed trade'),
    ...money('worst_trade_pnl', 'Loss of the worst closed trade'),
    ...stats('trade_pnl_usd', 'profit per closed trade, in USD', 'usd'),
    ['pnl_stddev_usd', 'usd', 'Standard deviation of profit per closed trade, in USD'],
    ['profit_factor', 'number', 'Gross profit divided by gross loss'],
    ['fees_paid_usd', 'usd', 'Network and venue fees paid, in USD'],
    ['fees_paid_native', 'native', 'Network and venue fees paid, in the native coin'],
    ['pnl_after_fees_usd', 'usd', 'Realized profit after fees, in USD'],
  ],
  roi: [
    ['roi', 'ratio', 'Total profit divided by total invested'],
    ['realized_roi', 'ratio', 'Realized profit divided by the cost of closed positions'],
    ...stats('trade_roi', 'return per closed trade', 'ratio'),
    ['roi_stddev', 'ratio', 'Standard deviation of return per closed trade'],
    ['sharpe_ratio', 'number', 'Mean trade return over its standard deviation'],
    ['sortino_ratio', 'number', 'Mean trade return over its downside deviation'],
    ['calmar_ratio', 'number', 'Return over the largest drawdown'],
    ['roi_2x_share', 'ratio', 'Share of closed trades that at least doubled'],
    ['roi_5x_share', 'ratio', 'Share of closed trades that returned at least 5×'],
    ['roi_10x_share', 'ratio', 'Share of closed trades that returned at least 10×'],
    ['roi_loss_50_share', 'ratio', 'Share of closed trades that lost half or more'],
    ['roi_loss_90_share', 'ratio', 'Share of closed trades that lost 90% or more'],
  ],
  winrate: [
    ['winrate', 'ratio', 'Share of closed trades with a profit'],
    ['winrate_by_token', 'ratio', 'Share of traded tokens closed with a profit'],
    ['win_count', 'count', 'Closed trades with a profit'],
    ['loss_count', 'count', 'Closed trades with a loss'],
    ['breakeven_count', 'count', 'Closed trades with neither profit nor loss'],
    ['max_win_streak', 'count', 'Longest run of winning trades'],
    ['max_loss_streak', 'count', 'Longest run of losing trades'],
    ['current_streak', 'number', 'Current run: positive for wins, negative for losses'],
    ['avg_win_usd', 'usd', 'Average profit of winning trades, in USD'],
    ['avg_loss_usd', 'usd', 'Average loss of losing trades, in USD'],
    ['win_loss_ratio', 'number', 'Average win divided by average loss'],
  ],
  volume: [
    ...money('volume', 'Bought plus sold'),
    ...money('buy_volume', 'Bought'),
    ...money('sell_volume', 'Sold'),
    ...money('net_flow', 'Sold minus bought'),
    ['invested_usd', 'usd', 'Cost of all positions opened, in USD'],
    ['invested_native', 'native', 'Cost of all positions opened, in the native coin'],
    ['avg_daily_volume_usd', 'usd', 'Average volume per active day, in USD'],
    ['max_daily_volume_usd', 'usd', 'Largest volume in one day, in USD'],
    ['dex_volume_share', 'ratio', 'Share of volume on the main DEX of the wallet'],
    ['bot_volume_share', 'ratio', 'Share of volume sent through trading bots'],
  ],
  trades: [
    ['trade_count', 'count', 'Swaps made'],
    ['buy_count', 'count', 'Buys made'],
    ['sell_count', 'count', 'Sells made'],
    ['closed_trade_count', 'count', 'Positions fully closed'],
    ['open_position_count', 'count', 'Positions still open'],
    ['partial_sell_count', 'count', 'Sells that left part of a position open'],
    ['buy_sell_ratio', 'number', 'Buys divided by sells'],
    ['trades_per_day', 'number', 'Average swaps per active day'],
    ['max_trades_per_day', 'count', 'Most swaps in one day'],
    ['failed_tx_count', 'count', 'Failed swap transactions'],
    ['failed_tx_share', 'ratio', 'Share of swap transactions that failed'],
    ['copyable_trade_share', 'ratio', 'Share of trades that could have been copied'],
  ],
  size: [
    ...stats('buy_size_usd', 'buy size, in USD', 'usd'),
    ...stats('sell_size_usd', 'sell size, in USD', 'usd'),
    ...stats('position_size_usd', 'position size, in USD', 'usd'),
    ['avg_buy_size_native', 'native', 'Average buy size, in the native coin'],
    ['avg_sell_size_native', 'native', 'Average sell size, in the native coin'],
    ['position_size_stddev_usd', 'usd', 'Standard deviation of position size, in USD'],
    ['largest_position_share', 'ratio', 'Largest position as a share of all invested'],
  ],
  holding: [
    ...stats('hold_seconds', 'time a closed position was held', 'seconds'),
    ['avg_hold_seconds_winners', 'seconds', 'Average holding time of winning trades'],
    ['avg_hold_seconds_losers', 'seconds', 'Average holding time of losing trades'],
    ['flip_share', 'ratio', 'Share of positions closed within one minute'],
    ['short_hold_share', 'ratio', 'Share of positions closed within one hour'],
    ['long_hold_share', 'ratio', 'Share of positions held longer than a week'],
    ['still_holding_share', 'ratio', 'Share of bought tokens still held'],
    ['diamond_hands_score', 'number', 'How long winners are held compared to losers'],
  ],
  timing: [
    ['avg_entry_mcap_usd', 'usd', 'Average market cap at first buy, in USD'],
    ['median_entry_mcap_usd', 'usd', 'Median market cap at first buy, in USD'],
    ['avg_exit_mcap_usd', 'usd', 'Average market cap at last sell, in USD'],
    ['median_exit_mcap_usd', 'usd', 'Median market cap at last sell, in USD'],
    ['avg_seconds_after_launch', 'seconds', 'Average time from token launch to first buy'],
    ['median_seconds_after_launch', 'seconds', 'Median time from token launch to first buy'],
    ['first_block_buy_count', 'count', 'Buys in the launch block of a token'],
    ['early_buy_share', 'ratio', 'Share of buys within five minutes of launch'],
    ['pre_migration_buy_share', 'ratio', 'Share of buys before the launchpad migration', 'main'],
    ['post_migration_buy_share', 'ratio', 'Share of buys after the launchpad migration', 'main'],
    ['sell_near_ath_share', 'ratio', 'Share of sells within 10% of the token’s high'],
    ['buy_near_bottom_share', 'ratio', 'Share of buys within 10% of the token’s low'],
    ['avg_exit_vs_ath', 'ratio', 'Average exit price as a share of the token’s high'],
    ['active_days', 'count', 'Days with at least one swap'],
    ['active_hours_spread', 'count', 'Distinct hours of the day with activity'],
    ['seconds_since_last_trade', 'seconds', 'Time since the last swap'],
  ],
  tokens: [
    ['tokens_traded', 'count', 'Distinct tokens traded'],
    ['tokens_bought', 'count', 'Distinct tokens bought'],
    ['tokens_sold', 'count', 'Distinct tokens sold'],
    ['tokens_profitable', 'count', 'Distinct tokens closed with a profit'],
    ['tokens_unprofitable', 'count', 'Distinct tokens closed with a loss'],
    ['tokens_rugged', 'count', 'Tokens held when their liquidity was pulled'],
    ['rug_exposure_share', 'ratio', 'Share of invested lost to pulled liquidity'],
    ['launchpad_token_share', 'ratio', 'Share of tokens bought on a launchpad', 'main'],
    ['migrated_token_share', 'ratio', 'Share of tokens bought after migration', 'main'],
    ['avg_tokens_per_day', 'number', 'Distinct tokens traded per active day'],
    ['top_token_pnl_share', 'ratio', 'Share of profit from the single best token'],
    ['top3_token_pnl_share', 'ratio', 'Share of profit from the three best tokens'],
    ['dexes_used', 'count', 'Distinct DEXes used'],
    ['bots_used', 'count', 'Distinct trading bots used'],
  ],
  risk: [
    ['max_drawdown_usd', 'usd', 'Largest fall from a peak of cumulative profit, in USD'],
    ['max_drawdown_ratio', 'ratio', 'Largest fall from a peak of cumulative profit, as a share'],
    ['avg_drawdown_ratio', 'ratio', 'Average drawdown, as a share'],
    ['recovery_factor', 'number', 'Total profit divided by the largest drawdown'],
    ['value_at_risk_usd', 'usd', 'Loss not exceeded in 95% of trades, in USD'],
    ['tail_loss_usd', 'usd', 'Average of the worst 5% of trades, in USD'],
    ['concentration_index', 'number', 'Herfindahl index of invested per token'],
    ['loss_recovery_seconds', 'seconds', 'Average time to recover from a losing trade'],
    ['risk_score', 'number', 'Combined risk score from 0 (calm) to 100 (reckless)'],
    ['consistency_score', 'number', 'How steady profit is across days, 0 to 100'],
    ['skill_score', 'number', 'Profit not explained by market moves, 0 to 100'],
    ['luck_score', 'number', 'Profit concentrated in rare outliers, 0 to 100'],
  ],
  behaviour: [
    ['copy_score', 'number', 'How suitable the wallet is to copy, 0 to 100'],
    ['sniper_score', 'number', 'How often the wallet buys in the first blocks, 0 to 100'],
    ['insider_score', 'number', 'How often it buys before public attention, 0 to 100'],
    ['bundler_score', 'number', 'How often its buys share a block with related wallets, 0 to 100'],
    ['wash_trade_share', 'ratio', 'Share of volume that looks like wash trading'],
    ['bot_likelihood', 'ratio', 'Probability that the wallet is automated'],
    ['mev_victim_count', 'count', 'Swaps that were sandwiched'],
    ['transfer_in_count', 'count', 'Token transfers received from other wallets'],
    ['transfer_out_count', 'count', 'Token transfers sent to other wallets'],
    ['funding_wallet_count', 'count', 'Distinct wallets that funded this one'],
    ['linked_wallet_count', 'count', 'Wallets that often trade the same tokens at the same time'],
    ['followers_estimate', 'count', 'Wallets estimated to copy this one'],
    ['native_balance', 'native', 'Native coin balance at the end of the timeframe'],
    ['portfolio_value_usd', 'usd', 'Value of held tokens at the end of the timeframe, in USD'],
    // Last, so that adding them moved no other metric's column index.
    ['private_tx_share', 'ratio', 'Share of swaps sent through a private relay instead of the public mempool', 'alt'],
    ['token_approval_count', 'count', 'Token spending approvals granted', 'alt'],
    ['unlimited_approval_share', 'ratio', 'Share of token approvals granted for an unlimited amount', 'alt'],
    ['avg_gas_price_gwei', 'number', 'Average gas price paid per swap, in gwei', 'alt'],
  ],
};

/** Every metric of either chain, in a stable order (group, then the order above). */
export const METRICS: readonly Metric[] = METRIC_GROUPS.flatMap((group) =>
  GROUP_ROWS[group].map(([name, kind, description, only]) => ({ name, group, kind, description, ...(only ? { only } : {}) })),
);

/** The 158 metrics of a chain, in METRICS order. */
export function metricsOn(chain: Chain): Metric[] {
  return METRICS.filter((m) => m.only === undefined || m.only === chain);
}

/** Columns that identify a wallet in tabular results, before its metric columns. */
export const IDENTITY_COLUMNS = ['address', 'label', 'first_seen', 'last_active', 'main_dex', 'main_bot', 'chain', 'refreshed_at'] as const;

/** `<metric>_<timeframe>` */
export function metricColumn(metric: string, tf: Timeframe): string {
  return `${metric}_${tf}`;
}

/** The metric columns of a chain (632), or of both chains without one, metric-major (every timeframe of a metric together). */
export function metricColumns(chain?: Chain): string[] {
  return (chain ? metricsOn(chain) : METRICS).flatMap((m) => TIMEFRAMES.map((tf) => metricColumn(m.name, tf)));
}

const BY_NAME = new Map(METRICS.map((m) => [m.name, m]));
const TF_SUFFIX = /_(1d|7d|30d|all)$/u;

/** Splits a column name into its metric and timeframe, or undefined for a non-metric column. */
export function parseMetricColumn(column: string): { metric: Metric; timeframe: Timeframe } | undefined {
  const m = TF_SUFFIX.exec(column);
  if (!m) return undefined;
  const metric = BY_NAME.get(column.slice(0, m.index));
  return metric ? { metric, timeframe: m[1] as Timeframe } : undefined;
}
