/**
 * How each metric (158 per chain) is synthesised. Every value is
 *     base = F[i] * (gw * G[i] + lo + span * u) * scale
 * where F is a per-wallet, per-timeframe magnitude (trades, volume, position size…), G a
 * per-wallet trait (skill, botness, how early it buys…) and u a fresh uniform draw. Reading a
 * value applies the hourly jitter and `post` (clamp, round, keep sensible decimals). One
 * formula for all metrics keeps generation a tight column-major loop (the 2 s budget for
 * 100,000 wallets × 632 values), while the factors keep metrics of one wallet coherent:
 * a skilled wallet has a high winrate, positive pnl and a high copy score.
 */
import type { Chain } from '../core/spec/addresses';
import { METRICS, type Metric } from '../core/spec/metrics';

/** Per-wallet, per-timeframe magnitudes. */
export type Magnitude = 'one' | 'count' | 'flow' | 'size' | 'hold' | 'days' | 'on' | 'act' | 'daily';
/** Per-wallet traits, tf-independent. */
export type Trait = 'zero' | 'edge' | 'skill' | 'unskill' | 'bot' | 'early';
/** What reading a value does after the jitter. */
export type Post = 'money' | 'number' | 'ratio' | 'score' | 'count' | 'int' | 'seconds';

interface Recipe {
  readonly f: Magnitude;
  readonly g: Trait;
  readonly gw: number;
  readonly lo: number;
  readonly span: number;
  readonly scale: number;
  readonly post: Post;
  /** Null when the wallet made no trade in the timeframe (averages and shares of nothing). */
  readonly idleNull: boolean;
  /** Share of values left null at random (e.g. a profit factor with no losing trade). */
  readonly nullRate: number;
}

/** USD per native coin, to turn USD magnitudes into native ones. */
export const NATIVE_PRICE: Record<Chain, number> = { main: 150, alt: 3000 };

type Opt = Partial<Pick<Recipe, 'scale' | 'idleNull' | 'nullRate' | 'post'>>;
const r = (f: Magnitude, g: Trait, gw: number, lo: number, span: number, o: Opt = {}): Omit<Recipe, 'post'> & { post?: Post } => ({
  f,
  g,
  gw,
  lo,
  span,
  scale: o.scale ?? 1,
  idleNull: o.idleNull ?? !['count', 'flow', 'days', 'on'].includes(f),
  nullRate: o.nullRate ?? 0,
  ...(o.post ? { post: o.post } : {}),
});

/** First match wins; the metric's kind gives `post` unless the rule names one. */
const RULES: readonly [RegExp, ReturnType<typeof r>][] = [
  // pnl
  [/^(realized_pnl|total_pnl|pnl_after_fees)/u, r('flow', 'edge', 1, -0.15, 0.3)],
  [/^unrealized_pnl/u, r('flow', 'edge', 0.4, -0.06, 0.12)],
  [/^net_flow/u, r('flow', 'edge', 1, -0.2, 0.3)],
  [/^gross_profit/u, r('flow', 'skill', 0.5, 0.05, 0.2)],
  [/^gross_loss/u, r('flow', 'unskill', 0.5, 0.05, 0.2)],
  [/^(best_trade_pnl|max_trade_pnl)/u, r('size', 'skill', 3, 0.2, 1.5)],
  [/^(worst_trade_pnl|min_trade_pnl)/u, r('size', 'unskill', 1.5, 0.2, 0.8, { scale: -1 })],
  [/^(avg|median)_trade_pnl/u, r('size', 'edge', 1, -0.15, 0.3)],
  [/^pnl_stddev/u, r('size', 'zero', 0, 0.3, 1.2)],
  [/^profit_factor/u, r('one', 'skill', 2, 0.2, 1, { nullRate: 0.03 })],
  [/^fees_paid/u, r('count', 'zero', 0, 0.05, 0.6)],
  // roi (ratios stay in 0..1)
  [/^(roi|realized_roi|avg_trade_roi|median_trade_roi)$/u, r('one', 'skill', 0.5, 0.05, 0.3)],
  [/^max_trade_roi/u, r('one', 'skill', 0.4, 0.4, 0.3)],
  [/^min_trade_roi/u, r('one', 'zero', 0, 0, 0.1)],
  [/^roi_stddev/u, r('one', 'zero', 0, 0.05, 0.4)],
  [/^(sharpe|sortino|calmar)_ratio/u, r('one', 'edge', 8, -0.5, 1, { nullRate: 0.02 })],
  [/^roi_(2x|5x|10x)_share/u, r('one', 'skill', 0.25, 0, 0.15)],
  [/^roi_loss_(50|90)_share/u, r('one', 'unskill', 0.4, 0, 0.2)],
  // winrate
  [/^winrate/u, r('one', 'skill', 0.5, 0.1, 0.3)],
  [/^win_count/u, r('count', 'skill', 0.4, 0.1, 0.2)],
  [/^loss_count/u, r('count', 'unskill', 0.4, 0.1, 0.2)],
  [/^breakeven_count/u, r('count', 'zero', 0, 0, 0.05)],
  [/^max_win_streak/u, r('on', 'skill', 8, 1, 4)],
  [/^max_loss_streak/u, r('on', 'unskill', 8, 1, 4)],
  [/^current_streak/u, r('on', 'edge', 15, -3, 6, { post: 'int' })],
  [/^avg_win_usd/u, r('size', 'skill', 1, 0.1, 0.6)],
  [/^avg_loss_usd/u, r('size', 'unskill', 1, 0.1, 0.5)],
  [/^win_loss_ratio/u, r('one', 'skill', 2, 0.3, 1)],
  // volume
  [/^volume_/u, r('flow', 'zero', 0, 1.2, 0.8)],
  [/^(buy_volume|invested)/u, r('flow', 'zero', 0, 0.6, 0.4)],
  [/^sell_volume/u, r('flow', 'edge', 0.5, 0.55, 0.4)],
  [/^avg_daily_volume/u, r('daily', 'zero', 0, 0.8, 0.4)],
  [/^max_daily_volume/u, r('daily', 'zero', 0, 2, 4)],
  [/^dex_volume_share/u, r('one', 'zero', 0, 0.35, 0.65)],
  [/^bot_volume_share/u, r('one', 'bot', 0.7, 0, 0.3)],
  // trades
  [/^trade_count/u, r('count', 'zero', 0, 0.7, 0.6)],
  [/^buy_count/u, r('count', 'zero', 0, 0.45, 0.2)],
  [/^sell_count/u, r('count', 'zero', 0, 0.35, 0.2)],
  [/^closed_trade_count/u, r('count', 'zero', 0, 0.25, 0.15)],
  [/^partial_sell_count/u, r('count', 'zero', 0, 0.02, 0.1)],
  [/^open_position_count/u, r('one', 'zero', 0, 0, 14, { idleNull: false })],
  [/^buy_sell_ratio/u, r('one', 'zero', 0, 0.6, 1.4)],
  [/^trades_per_day/u, r('act', 'zero', 0, 0.7, 0.6)],
  [/^max_trades_per_day/u, r('act', 'zero', 0, 1.5, 3)],
  [/^failed_tx_count/u, r('count', 'bot', 0.1, 0.01, 0.06)],
  [/^failed_tx_share/u, r('one', 'bot', 0.2, 0, 0.1)],
  [/^copyable_trade_share/u, r('one', 'bot', -0.5, 0.6, 0.4)],
  // size
  [/^avg_(buy|sell|position)_size/u, r('size', 'zero', 0, 0.8, 0.4)],
  [/^median_(buy|sell|position)_size/u, r('size', 'zero', 0, 0.5, 0.3)],
  [/^max_(buy|sell|position)_size/u, r('size', 'zero', 0, 3, 7)],
  [/^min_(buy|sell|position)_size/u, r('size', 'zero', 0, 0.05, 0.15)],
  [/^position_size_stddev/u, r('size', 'zero', 0, 0.3, 1)],
  [/^largest_position_share/u, r('one', 'zero', 0, 0.05, 0.6)],
  // holding
  [/^avg_hold_seconds_winners/u, r('hold', 'skill', 1, 0.8, 0.8)],
  [/^avg_hold_seconds_losers/u, r('hold', 'unskill', 1, 0.5, 0.8)],
  [/^avg_hold_seconds/u, r('hold', 'zero', 0, 0.8, 0.4)],
  [/^median_hold_seconds/u, r('hold', 'zero', 0, 0.4, 0.4)],
  [/^max_hold_seconds/u, r('hold', 'zero', 0, 5, 15)],
  [/^min_hold_seconds/u, r('hold', 'zero', 0, 0.01, 0.09)],
  [/^flip_share/u, r('one', 'bot', 0.5, 0, 0.2)],
  [/^short_hold_share/u, r('one', 'bot', 0.3, 0.2, 0.4)],
  [/^(long_hold_share|still_holding_share)/u, r('one', 'bot', -0.2, 0.05, 0.3)],
  [/^diamond_hands_score/u, r('one', 'skill', 60, 10, 30)],
  // timing
  [/^(avg|median)_entry_mcap/u, r('one', 'early', -4e5, 4.5e5, 9e5)],
  [/^(avg|median)_exit_mcap/u, r('one', 'skill', 1e6, 5e4, 1.5e6)],
  [/^(avg|median)_seconds_after_launch/u, r('one', 'early', -8e4, 8.2e4, 2e5)],
  [/^first_block_buy_count/u, r('count', 'early', 0.1, 0, 0.02)],
  [/^early_buy_share/u, r('one', 'early', 0.6, 0, 0.3)],
  [/^(pre|post)_migration_buy_share/u, r('one', 'early', 0.3, 0.1, 0.6)],
  [/^(sell_near_ath|buy_near_bottom)_share/u, r('one', 'skill', 0.3, 0, 0.3)],
  [/^avg_exit_vs_ath/u, r('one', 'skill', 0.4, 0.1, 0.4)],
  [/^active_days/u, r('days', 'zero', 0, 0.6, 0.4)],
  [/^active_hours_spread/u, r('on', 'bot', 10, 1, 12)],
  [/^seconds_since_last_trade/u, r('one', 'zero', 0, 30, 3e5, { idleNull: false })],
  // tokens
  [/^(tokens_traded|tokens_bought)/u, r('count', 'zero', 0, 0.2, 0.2)],
  [/^tokens_sold/u, r('count', 'zero', 0, 0.15, 0.15)],
  [/^tokens_profitable/u, r('count', 'skill', 0.15, 0.02, 0.05)],
  [/^tokens_unprofitable/u, r('count', 'unskill', 0.15, 0.02, 0.05)],
  [/^tokens_rugged/u, r('count', 'unskill', 0.02, 0, 0.02)],
  [/^(launchpad_token_share|migrated_token_share)/u, r('one', 'early', 0.3, 0.2, 0.5)],
  [/^rug_exposure_share/u, r('one', 'unskill', 0.1, 0, 0.08)],
  [/^top_token_pnl_share/u, r('one', 'zero', 0, 0.1, 0.8, { nullRate: 0.05 })],
  [/^top3_token_pnl_share/u, r('one', 'zero', 0, 0.3, 0.7, { nullRate: 0.05 })],
  [/^avg_tokens_per_day/u, r('act', 'zero', 0, 0.2, 0.3)],
  [/^dexes_used/u, r('on', 'zero', 0, 1, 5)],
  [/^bots_used/u, r('on', 'bot', 3, 0, 1.5)],
  // risk
  [/^max_drawdown_usd/u, r('flow', 'unskill', 0.1, 0.03, 0.15)],
  [/^max_drawdown_ratio/u, r('one', 'unskill', 0.4, 0.05, 0.3)],
  [/^avg_drawdown_ratio/u, r('one', 'unskill', 0.2, 0.02, 0.15)],
  [/^recovery_factor/u, r('one', 'edge', 10, 0.5, 2, { nullRate: 0.02 })],
  [/^(value_at_risk|tail_loss)_usd/u, r('size', 'unskill', 0.8, 0.2, 0.6, { scale: -1 })],
  [/^concentration_index/u, r('one', 'zero', 0, 0.02, 0.5)],
  [/^loss_recovery_seconds/u, r('hold', 'unskill', 6, 1, 5, { nullRate: 0.05 })],
  [/^risk_score/u, r('one', 'unskill', 50, 5, 40)],
  [/^(consistency|skill)_score/u, r('one', 'skill', 60, 5, 35)],
  [/^luck_score/u, r('one', 'zero', 0, 0, 100)],
  // behaviour
  [/^copy_score/u, r('one', 'skill', 70, 0, 30)],
  [/^sniper_score/u, r('one', 'early', 80, 0, 20)],
  [/^insider_score/u, r('one', 'early', 40, 0, 20)],
  [/^bundler_score/u, r('one', 'bot', 50, 0, 15)],
  [/^wash_trade_share/u, r('one', 'bot', 0.3, 0, 0.05)],
  [/^bot_likelihood/u, r('one', 'bot', 0.85, 0, 0.15)],
  [/^mev_victim_count/u, r('count', 'bot', -0.02, 0.01, 0.04)],
  [/^transfer_(in|out)_count/u, r('on', 'zero', 0, 0, 25)],
  [/^funding_wallet_count/u, r('one', 'zero', 0, 1, 5, { idleNull: false })],
  [/^linked_wallet_count/u, r('one', 'bot', 20, 0, 10, { idleNull: false })],
  [/^followers_estimate/u, r('one', 'skill', 300, 0, 40, { idleNull: false })],
  [/^native_balance/u, r('size', 'zero', 0, 0.5, 12, { idleNull: false })],
  [/^portfolio_value_usd/u, r('size', 'zero', 0, 0, 25, { idleNull: false })],
  // second chain only: bots use private relays and pay more gas; careless wallets approve without limit
  [/^private_tx_share/u, r('one', 'bot', 0.4, 0.05, 0.3)],
  [/^token_approval_count/u, r('count', 'zero', 0, 0.1, 0.1)],
  [/^unlimited_approval_share/u, r('one', 'unskill', 0.3, 0.3, 0.4)],
  [/^avg_gas_price_gwei/u, r('one', 'bot', 10, 2, 20)],
];

const POST_OF_KIND: Record<Metric['kind'], Post> = {
  usd: 'money',
  native: 'money',
  ratio: 'ratio',
  count: 'count',
  seconds: 'seconds',
  number: 'number',
};

function recipeOf(m: Metric): Recipe {
  const hit = RULES.find(([re]) => re.test(m.name));
  // A metric no rule names gets a plain recipe from its kind (none today: a test checks).
  const base = hit?.[1] ?? r(m.kind === 'count' ? 'count' : m.kind === 'seconds' ? 'hold' : m.kind === 'ratio' || m.kind === 'number' ? 'one' : 'size', 'zero', 0, 0.1, 0.5);
  const post = base.post ?? (m.name.endsWith('_score') ? 'score' : POST_OF_KIND[m.kind]);
  return { ...base, post };
}

/** The recipe of every metric, in METRICS order. */
export const RECIPES: readonly Recipe[] = METRICS.map(recipeOf);

/** Metrics no rule names (a test keeps this empty, so a new metric gets a deliberate recipe). */
export function unrecipedMetrics(): string[] {
  return METRICS.filter((m) => !RULES.some(([re]) => re.test(m.name))).map((m) => m.name);
}

/** Applies `post` to a raw value: the exact number that is served, compared and printed. */
export function finish(post: Post, v: number): number {
  if (v !== v) return NaN; // null stays null
  switch (post) {
    case 'ratio':
      return Math.round((v < 0 ? 0 : v > 1 ? 1 : v) * 1e4) / 1e4;
    case 'score':
      return Math.round((v < 0 ? 0 : v > 100 ? 100 : v) * 100) / 100;
    case 'count':
    case 'seconds':
      return v <= 0 ? 0 : Math.round(v);
    case 'int':
      return Math.round(v) || 0; // no -0
    case 'money':
    case 'number':
      return Math.abs(v) < 1e4 ? Math.round(v * 100) / 100 || 0 : Math.round(v);
  }
}

/** finish() over a whole column in place: one tight loop per kind (the hot path of every query). */
export function finishColumn(post: Post, a: Float64Array): void {
  const n = a.length;
  switch (post) {
    case 'ratio':
      for (let i = 0; i < n; i++) {
        const v = a[i]!;
        a[i] = Math.round((v < 0 ? 0 : v > 1 ? 1 : v) * 1e4) / 1e4;
      }
      return;
    case 'score':
      for (let i = 0; i < n; i++) {
        const v = a[i]!;
        a[i] = Math.round((v < 0 ? 0 : v > 100 ? 100 : v) * 100) / 100;
      }
      return;
    case 'count':
    case 'seconds':
      for (let i = 0; i < n; i++) {
        const v = a[i]!;
        a[i] = v <= 0 ? 0 : Math.round(v);
      }
      return;
    case 'money':
    case 'number':
      for (let i = 0; i < n; i++) {
        const v = a[i]!;
        // NaN fails the test and stays NaN through Math.round; `|| 0` turns -0 into 0.
        a[i] = Math.abs(v) < 1e4 ? Math.round(v * 100) / 100 || 0 : Math.round(v);
      }
      return;
    case 'int':
      for (let i = 0; i < n; i++) a[i] = finish(post, a[i]!);
  }
}
