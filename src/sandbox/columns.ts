/**
 * Which Wallet Database fields exist on which chain, and the ColumnInfo list each chain's
 * `/…wallet_database/columns` serves.
 *
 * CHAIN-ONLY FIELDS: every wallet has 158 metrics on either chain (§2.4, §4.3); 154 exist on
 * both and four on one chain only. Which four is decided by `only` in src/core/spec/metrics.ts
 * (launchpad metrics on the main chain; private relays, approvals and gas on the second).
 * A chain-only field is absent from the other chain's column list, Wallet Database (querying
 * it there is a 400 that names the chain that has it), WalletMetrics and pnl file: each chain
 * serves exactly its own 158 × 4 = 632 metric columns.
 */
import type { Chain } from '../core/spec/addresses';
import { ALT_DEXES, MAIN_DEXES, TRADING_BOTS } from '../core/spec/catalog';
import { METRICS, TIMEFRAMES, TIMEFRAME_LABEL, metricColumn, type Metric, type Timeframe } from '../core/spec/metrics';
import type { ColumnInfo } from '../core/spec/wire';

const ONLY = new Map(METRICS.flatMap((m) => (m.only ? [[m.name, m.only] as const] : [])));

/** Trading bots of the second chain (ours; the catalog's list is the main chain's). */
export const ALT_BOTS = ['maestro', 'banana_gun', 'sigma', 'unibot', 'bloom', 'photon'] as const;

/** Whether a metric (by name, without timeframe) exists on the chain. */
export function metricOnChain(metric: string, chain: Chain): boolean {
  const only = ONLY.get(metric);
  return only === undefined || only === chain;
}

/** The chain a metric exists on only, or undefined when it exists on both. */
export function onlyChainOf(metric: string): Chain | undefined {
  return ONLY.get(metric);
}

/** A metric column: where its value comes from in the wallet store. */
interface MetricColumn {
  readonly kind: 'metric';
  readonly name: string;
  /** Index among the metric columns of both chains (metric-major, as metricColumns() without a chain). */
  readonly index: number;
  readonly metric: Metric;
  readonly timeframe: Timeframe;
  readonly tf: number;
}

/** A categorical column: an index into `values`. */
interface CategoryColumn {
  readonly kind: 'category';
  readonly name: 'main_dex' | 'main_bot';
  readonly values: readonly string[];
}

export type QueryColumn = MetricColumn | CategoryColumn;

/** The metric columns of both chains, in metricColumns() order: a column's index keys its values, whatever its chain. */
export const ALL_METRIC_COLUMNS: readonly MetricColumn[] = METRICS.flatMap((metric, m) =>
  TIMEFRAMES.map((timeframe, tf) => ({ kind: 'metric' as const, name: metricColumn(metric.name, timeframe), index: m * TIMEFRAMES.length + tf, metric, timeframe, tf })),
);

/** The dex and bot names of a chain; index 0 of bots is "none" (''). */
export function categories(chain: Chain): { dexes: readonly string[]; bots: readonly string[] } {
  return chain === 'main' ? { dexes: MAIN_DEXES, bots: ['', ...TRADING_BOTS] } : { dexes: ALT_DEXES, bots: ['', ...ALT_BOTS] };
}

const MAIN_COLUMNS = ALL_METRIC_COLUMNS.filter((c) => metricOnChain(c.metric.name, 'main'));
const ALT_COLUMNS = ALL_METRIC_COLUMNS.filter((c) => metricOnChain(c.metric.name, 'alt'));

/** The metric columns of a chain (158 × 4), in ALL_METRIC_COLUMNS order: what its pnl file and WalletMetrics hold. */
export function chainMetricColumns(chain: Chain): readonly MetricColumn[] {
  return chain === 'main' ? MAIN_COLUMNS : ALT_COLUMNS;
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
  for (const c of chainMetricColumns(chain)) map.set(c.name, c);
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
