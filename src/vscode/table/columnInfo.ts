/**
 * What the table knows about each column beyond its name, from the name (metric, group,
 * timeframe, kind: src/core/spec/metrics.ts) and from a sample of the first rows (numbers, addresses:
 * src/core/table/columnKind.ts, the one rule).
 * Pure: no vscode import, so unit tests can read it.
 */
import { parseMetricColumn } from '../../core/spec/metrics';
import { classifyColumn, isSignedColumn } from '../../core/table/columnKind';
import type { ColumnInfo, TableLayout } from '../../shared/tableUiProtocol';

/** Longer cells are cut with an ellipsis (the whole text is in copies and exports). */
const MAX_CHARS = 48;

/**
 * A numeric column named "…_usd" outside the wallet metrics (Top Traders' pnl_usd, a query's own
 * alias) is money too: shown with its cents, as a metric's USD column is.
 */
const USD_COLUMN = /_usd$/iu;

/** Column information from names and the first rows (`sample[r][c]`, c over every column); the kind by the one classifier (core/table/columnKind.ts). */
export function columnInfo(names: readonly string[], sample: readonly (readonly string[])[]): ColumnInfo[] {
  return names.map((name, c) => {
    let chars = 0;
    const cells = sample.map((row) => {
      const v = (row[c] ?? '').trim();
      chars = Math.max(chars, v.length);
      return v;
    });
    const kind = classifyColumn(cells, name);
    const metric = parseMetricColumn(name);
    return {
      name,
      numeric: kind.kind === 'number',
      chars: Math.min(chars, MAX_CHARS),
      ...(kind.kind === 'address' ? { address: kind.chain } : {}),
      ...(isSignedColumn(kind, name) ? { signed: true } : {}),
      ...(kind.kind === 'date' ? { date: true } : {}),
      ...(metric
        ? { metric: metric.metric.name, group: metric.metric.group, timeframe: metric.timeframe, kind: metric.metric.kind, description: metric.metric.description }
        : USD_COLUMN.test(name) && kind.kind === 'number'
          ? { kind: 'usd' }
          : {}),
    };
  });
}

/**
 * The columns the webview will most likely show first, in display order: pinned ones (the
 * remembered ones, else the first address column), then the others in file order, hidden ones
 * left out. The same rule as the webview's ColumnModel, so the first window it gets is the one it needs.
 */
export function likelyShown(columns: readonly ColumnInfo[], layout: TableLayout | undefined): number[] {
  const index = new Map(columns.map((c, i) => [c.name, i]));
  const hidden = new Set((layout?.hidden ?? []).map((n) => index.get(n)).filter((i): i is number => i !== undefined));
  const firstAddress = columns.findIndex((c) => c.address !== undefined);
  const pinned = layout ? layout.pinned.map((n) => index.get(n)).filter((i): i is number => i !== undefined) : firstAddress >= 0 ? [firstAddress] : [];
  const pinnedSet = new Set(pinned);
  const rest = columns.map((_, i) => i).filter((i) => !pinnedSet.has(i) && !hidden.has(i));
  const shown = [...pinned.filter((i) => !hidden.has(i)), ...rest];
  return shown.length > 0 ? shown : columns.map((_, i) => i);
}
