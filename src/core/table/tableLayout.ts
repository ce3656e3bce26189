/**
 * How a table's columns are laid out and its numbers shown: what a remembered layout and a saved
 * view hold (savedViews.ts) and what the webview applies. Here, below src/shared (which re-exports
 * it for the protocol), so core never imports the protocol that imports core. No imports.
 */

/** How numbers are shown. `auto`: the table's default for the column (thousands, or % for ratios). */
export type NumberFormat = 'auto' | 'raw' | 'thousands' | 'fixed2' | 'compact' | 'percent';
export const NUMBER_FORMATS: readonly NumberFormat[] = ['auto', 'raw', 'thousands', 'fixed2', 'compact', 'percent'];

/** A person's column choices, remembered per endpoint (by column name, so they carry to the next result). */
export interface TableLayout {
  readonly hidden: readonly string[];
  readonly pinned: readonly string[];
  readonly widths: Readonly<Record<string, number>>;
  readonly formats: Readonly<Record<string, NumberFormat>>;
  readonly defaultFormat: NumberFormat;
}
