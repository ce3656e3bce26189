/**
 * One wallet at a glance (issue 23 item 4): a row of a result whose columns are wallet metrics,
 * turned into the catalog's groups of metrics (metrics.ts), each metric a row and the four
 * timeframes its columns, with the row's other columns (address, label, dates) apart. A
 * one-wallet result is one row of 639 columns: read this way it is a page. Pure: names and texts
 * in, the card's model out; the webview formats and draws it.
 */
import { isSignedName } from './columnKind';
import { METRIC_GROUPS, METRICS, parseMetricColumn, TIMEFRAMES, type Metric, type MetricGroup, type Timeframe } from '../spec/metrics';

/** A metric of the card: its catalog entry and its raw text per timeframe (undefined: no such column). */
interface CardMetric {
  readonly metric: Metric;
  /** A profit or a return (core/table/columnKind.ts): shown with its sign, a gain apart from a loss. */
  readonly signed: boolean;
  readonly values: Readonly<Partial<Record<Timeframe, string>>>;
}

interface CardGroup {
  readonly group: MetricGroup;
  readonly metrics: readonly CardMetric[];
}

/** A column of the row that is not a metric (address, label, first_seen…), in file order. */
interface CardField {
  readonly column: number;
  readonly name: string;
  readonly value: string;
}

interface WalletCard {
  readonly fields: readonly CardField[];
  /** The timeframes some column of the row has, in catalog order (1d, 7d, 30d, all). */
  readonly timeframes: readonly Timeframe[];
  /** Groups in catalog order, metrics in catalog order; groups without a column of the row are left out. */
  readonly groups: readonly CardGroup[];
}

/** True when the columns hold wallet metrics (at least one `<metric>_<timeframe>` of the catalog): a row of them can open as a card. */
export function isWalletRow(columns: readonly string[]): boolean {
  return columns.some((c) => parseMetricColumn(c) !== undefined);
}

/** The card of one row: `columns[i]` is the name of `values[i]`. */
export function walletCard(columns: readonly string[], values: readonly string[]): WalletCard {
  const fields: CardField[] = [];
  const byMetric = new Map<Metric, Partial<Record<Timeframe, string>>>();
  const seen = new Set<Timeframe>();
  columns.forEach((name, column) => {
    const value = values[column] ?? '';
    const parsed = parseMetricColumn(name);
    if (!parsed) {
      fields.push({ column, name, value });
      return;
    }
    seen.add(parsed.timeframe);
    const row = byMetric.get(parsed.metric) ?? {};
    row[parsed.timeframe] = value;
    byMetric.set(parsed.metric, row);
  });
  const groups: CardGroup[] = [];
  for (const group of METRIC_GROUPS) {
    const metrics: CardMetric[] = [];
    for (const [metric, values] of byMetric) if (metric.group === group) metrics.push({ metric, signed: isSignedName(metric.name), values });
    if (metrics.length > 0) groups.push({ group, metrics: metrics.sort((a, b) => order(a.metric) - order(b.metric)) });
  }
  return { fields, timeframes: TIMEFRAMES.filter((t) => seen.has(t)), groups };
}

/** A metric's place in the catalog (METRICS order). */
const ORDER = new Map(METRICS.map((m, i) => [m.name, i]));
const order = (m: Metric): number => ORDER.get(m.name) ?? 0;
