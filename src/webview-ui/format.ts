/**
 * Number formats for cells. Only cells that are numbers by the store's rule (numbers.ts: a plain
 * decimal within a number's range) are formatted; anything else is shown as it is.
 * Copy and export always carry the text of the file, never the formatted one.
 */
import { parseNumberText } from '../core/table/numbers';
import type { ColumnInfo, NumberFormat } from '../shared/tableUiProtocol';

export type ConcreteFormat = Exclude<NumberFormat, 'auto'>;

export const FORMAT_LABELS: Record<NumberFormat, string> = {
  auto: 'Auto (1,234.5678; ratios as %)',
  raw: 'As in the file',
  thousands: 'Thousands separators',
  fixed2: 'Fixed, 2 decimals',
  compact: 'Compact (1.2M)',
  percent: 'Percent (0.25 → 25.00%)',
};

/** For the toolbar, where space is short. */
export const SHORT_FORMAT_LABELS: Record<NumberFormat, string> = {
  auto: 'Numbers: auto',
  raw: 'Numbers: as in file',
  thousands: 'Numbers: 1,234.5678',
  fixed2: 'Numbers: 1,234.57',
  compact: 'Numbers: 1.2K',
  percent: 'Numbers: %',
};

const LOCALE = 'en-US';
const thousands = new Intl.NumberFormat(LOCALE, { maximumFractionDigits: 4 });
const fixed2 = new Intl.NumberFormat(LOCALE, { minimumFractionDigits: 2, maximumFractionDigits: 2 });
const compact = new Intl.NumberFormat(LOCALE, { notation: 'compact', maximumSignificantDigits: 3 });
const percent = new Intl.NumberFormat(LOCALE, { style: 'percent', minimumFractionDigits: 2, maximumFractionDigits: 2 });

/** The format a column is shown in: its own choice, else the table's, where `auto` means % for ratio metrics and thousands otherwise. */
export function effectiveFormat(column: Pick<ColumnInfo, 'kind' | 'numeric'> | undefined, own: NumberFormat | undefined, table: NumberFormat): ConcreteFormat {
  const f = own && own !== 'auto' ? own : table;
  if (f !== 'auto') return f;
  if (!column?.numeric) return 'raw';
  return column.kind === 'ratio' ? 'percent' : 'thousands';
}

/**
 * The text a cell shows in a format, from its decimal text: Intl formats a string as the exact
 * decimal it spells (no double between), so 999999999999999999 keeps its 18 nines. A decimal out
 * of a number's range (1e400), which the table holds as text, is shown as it is.
 */
export function formatCell(text: string, format: ConcreteFormat): string {
  if (format === 'raw' || text.length === 0 || text.length > 40 || Number.isNaN(parseNumberText(text))) return text;
  // Intl reads a string argument as an exact decimal (ES2023 Intl.NumberFormat v3); its types only list numbers.
  const exact = text as unknown as number;
  switch (format) {
    case 'thousands':
      return thousands.format(exact);
    case 'fixed2':
      return fixed2.format(exact);
    case 'compact':
      return compact.format(exact);
    case 'percent':
      return percent.format(exact);
  }
}

/** "12,345" */
export function formatCount(n: number): string {
  return n.toLocaleString(LOCALE);
}
