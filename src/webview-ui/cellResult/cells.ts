/**
 * The words and cells of a pipeline cell's result as the notebook renderer shows them: pure, so a
 * node test reads them. Cells are shown by the table's own rules (format.ts displayCell, over the
 * host's column information from core/table/columnKind.ts): nothing here decides what a number is.
 */
import type { CellResult } from '../../shared/cellResultProtocol';
import type { ColumnInfo } from '../../shared/tableUiProtocol';
import { displayCell, formatCount, type ShownCell } from '../format';

/**
 * "done · 1,000 credits charged · 5,000 rows"; a cell that charged nothing in this run (reused from
 * disk) says no credits at all, so "(free)" never sits beside what its first run cost.
 */
export function statusLine(r: Pick<CellResult, 'status' | 'credits' | 'rows'>): string {
  const charged = r.credits === 0 ? '' : ` · ${formatCount(r.credits)} ${r.credits === 1 ? 'credit' : 'credits'} charged`;
  return `${r.status}${charged} · ${formatCount(r.rows)} ${r.rows === 1 ? 'row' : 'rows'}`;
}

/** "Rows 11–20 of 5,000" (or "No rows"). */
export function pageLabel(start: number, shown: number, total: number): string {
  if (total === 0 || shown === 0) return 'No rows';
  return `Rows ${formatCount(start + 1)}–${formatCount(start + shown)} of ${formatCount(total)}`;
}

/**
 * One cell as shown: the table's text for it (a number in the table's default format, a time in
 * the person's zone, a profit with its sign) and, when that is not the file's own text, the file's
 * text as its tooltip, so a long or rounded number can always be read exactly as the file has it.
 */
export function cellShown(info: ColumnInfo | undefined, raw: string, colour: boolean): ShownCell {
  if (!info) return { text: raw };
  const shown = displayCell(info, raw, undefined, 'auto', colour);
  if (shown.title !== undefined || shown.text === raw) return shown;
  return { ...shown, title: raw };
}

/** "Showing 200 of 640 columns; Open as Table shows them all." when the inline table is cut. */
export function columnsNote(shown: number, total: number): string | undefined {
  return total > shown ? `Showing ${formatCount(shown)} of ${formatCount(total)} columns; Open as Table shows them all.` : undefined;
}
