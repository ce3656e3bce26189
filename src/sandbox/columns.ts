/**
 * Which Wallet Database fields exist on which chain, and the ColumnInfo list each chain's
 * `/…wallet_database/columns` serves.
 *
 * CHAIN-ONLY FIELDS (the one place they are decided; our design, the spec does not say):
 *   main only  launchpad_token_share_*, migrated_token_share_*, pre_migration_buy_share_*,
 *              post_migration_buy_share_*  — launchpads and their migrations are a main-chain
 *              thing; the second chain has no launchpad stage.
 *   alt only   mev_victim_count_*  — sandwich detection needs a public mempool, which only the
 *              second chain has.
 * Every other metric exists on both chains. These fields are absent from the other chain's
 * column list and Wallet Database (querying them there is a 400 that names the chain that has
 * them), left out of its WalletMetrics, and left empty in its pnl CSV, which keeps the full
 * 632-column header on both chains so one reader handles both files.
 */
import type { Chain } from '../core/addresses';
import { ALT_DEXES, MAIN_DEXES, TRADING_BOTS } from '../core/catalog';
import { METRICS, TIMEFRAMES, TIMEFRAME_LABEL, metricColumn, type Metric, type Timeframe } from '../core/metrics';
import type { ColumnInfo } from '../core/wire';

export const MAIN_ONLY_METRICS: ReadonlySet<string> = new Set([
  'launchpad_token_share',
  'migrated_token_share',
  'pre_migration_buy_share',
  'post_migration_buy_share',
]);
export const ALT_ONLY_METRICS: ReadonlySet<string> = new Set(['mev_victim_count']);

/** Trading bots of the second chain (ours; the catalog's list is the main chain's). */
export const ALT_BOTS = ['maestro', 'banana_gun', 'sigma', 'unibot', 'bloom', 'photon'] as const;

/** Whether a metric (by name, without timeframe) exists on the chain. */
export function metricOnChain(metric: string, chain: Chain): boolean {
  return chain === 'main' ? !ALT_ONLY_METRICS.has(metric) : !MAIN_ONLY_METRICS.has(metric);
}

/** The chain a metric exists on only, or undefined when it exists on both. */
export function onlyChainOf(metric: string): Chain | undefined {
  if (MAIN_ONLY_METRICS.has(metric)) return 'main';
  if (ALT_ONLY_METRICS.has(metric)) return 'alt';
  return undefined;
}

/** A metric column: where its value comes from in the wallet store. */
export interface MetricColumn {
  readonly kind: 'metric';
  readonly name: string;
  /** Index among all 632 metric columns (metric-major, as metricColumns()). */
  readonly index: number;
  readonly metric: Metric;
  readonly timeframe: Timeframe;
  readonly tf: number;
}

/** A categorical column: an index into `values`. */
export interface CategoryColumn {
  readonly kind: 'category';
  readonly name: 'main_dex' | 'main_bot';
  readonly values: readonly string[];
}

export type QueryColumn = MetricColumn | CategoryColumn;

/** All 632 metric columns, in metricColumns() order. */
export const ALL_METRIC_COLUMNS: readonly MetricColumn[] = METRICS.flatMap((metric, m) =>
  TIMEFRAMES.map((timeframe, tf) => ({ kind: 'metric' as const, name: metricColumn(metric.name, timeframe), index: m * TIMEFRAMES.length + tf, metric, timeframe, tf })),
);

/** The dex and bot names of a chain; index 0 of bots is "none" (''). */
export function categories(chain: Chain): { dexes: readonly string[]; bots: readonly string[] } {
  return chain === 'main' ? { dexes: MAIN_DEXES, bots: ['', ...TRADING_BOTS] } : { dexes: ALT_DEXES, bots: ['', ...ALT_BOTS] };
}

const QUERY_COLUMNS = new Map<Chain, ReadonlyMap<string, QueryColumn>>();

/** Every queryable column of a chain, by name. */
export function queryColumns(chain: Chain): ReadonlyMap<string, QueryColumn> {
  const known = QUERY_COLUMNS.get(chain);
  if (known) return known;
  const map = new Map<string, QueryColumn>();
  QUERY_COLUMNS.set(chain, map);
  const { dexes, bots } = categories(chain);
  map.set('main_dex', { kind: 'category', name: 'main_dex', values: dexes });
  map.set('main_bot', { kind: 'category', name: 'main_bot', values: bots });
  for (const c of ALL_METRIC_COLUMNS) if (metricOnChain(c.metric.name, chain)) map.set(c.name, c);
  return map;
}

const INTEGER_KINDS = new Set(['count', 'seconds']);

/** The ColumnInfo list served by GET /wallet_database/columns (and the second-chain twin). */
export function columnInfos(chain: Chain): ColumnInfo[] {
  const out: ColumnInfo[] = [];
  for (const c of queryColumns(chain).values()) {
    if (c.kind === 'category') {
      out.push({
        name: c.name,
        type: 'string',
        group: 'identity',
        kind: 'category',
        description: c.name === 'main_dex' ? 'The DEX the wallet trades on most' : 'The trading bot the wallet uses most ("" for none)',
        values: [...c.values],
      });
    } else {
      out.push({
        name: c.name,
        type: INTEGER_KINDS.has(c.metric.kind) ? 'integer' : 'number',
        metric: c.metric.name,
        timeframe: c.timeframe,
        group: c.metric.group,
        kind: c.metric.kind,
        description: `${c.metric.description} (${TIMEFRAME_LABEL[c.timeframe]})`,
      });
    }
  }
  return out;
}
