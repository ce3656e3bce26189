/**
 * The table's status line says where the person is: "Row 12 of 3,400 · volume · 3 × 2 selected".
 * Apart from position.ts (which keeps the place in the webview's state) so a node test can read it
 * without the DOM.
 */
import { formatCount } from './format';

/**
 * The status line's position text for the active cell and selection; `name` is the active column's.
 * With no data rows the grid still keeps its active cell at row 0, so that case is said first.
 */
export function positionText(grid: { readonly active: { readonly row: number }; readonly selection: { readonly rows: readonly [number, number]; readonly cols: readonly [number, number] } }, name: string, rowCount: number): string {
  const { row } = grid.active;
  if (rowCount === 0) return `No rows · ${name}`;
  const sel = grid.selection;
  const rows = sel.rows[1] - sel.rows[0] + 1;
  const cols = sel.cols[1] - sel.cols[0] + 1;
  const where = row < 0 ? `Header · ${name}` : `Row ${formatCount(row + 1)} of ${formatCount(rowCount)} · ${name}`;
  return rows * cols > 1 && row >= 0 ? `${where} · ${formatCount(rows)} × ${formatCount(cols)} selected` : where;
}
