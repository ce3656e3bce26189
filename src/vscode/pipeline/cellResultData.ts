/**
 * The output item of a pipeline cell's result (shared/cellResultProtocol.ts CellResult), from what
 * the table engine read of it: its header, row count and first rows. Pure (no vscode import), so a
 * node test holds its bounds: at most PAGE_ROWS rows and MAX_COLUMNS columns, each cell cut at
 * MAX_CELL_CHARS, and the column information by the table's own rule (vscode/table/columnInfo.ts).
 */
import { clipCell, MAX_COLUMNS, PAGE_ROWS, type CellResult } from '../../shared/cellResultProtocol';
import { columnInfo } from '../table/columnInfo';

/** What the engine read of a result (sample: its first rows, every column). */
export interface ReadSummary {
  readonly rows: number;
  readonly columns: readonly string[];
  readonly sample: readonly (readonly string[])[];
}

/** Cuts a page of rows to what crosses: the first `width` cells of each, each cut at MAX_CELL_CHARS. */
export function pageCells(rows: readonly (readonly string[])[], width: number): string[][] {
  return rows.slice(0, PAGE_ROWS).map((r) => r.slice(0, width).map(clipCell));
}

/** The output item's JSON for a cell's result. */
export function cellResultOf(cell: string, status: string, credits: number, file: string, read: ReadSummary, colorGainsAndLosses: boolean): CellResult {
  // The kinds are judged on every sampled row (the table's first look), before any cell is cut.
  const info = columnInfo(read.columns, read.sample)
    .slice(0, MAX_COLUMNS)
    .map((c) => ({ ...c, name: clipCell(c.name) }));
  return {
    version: 1,
    cell,
    status,
    credits,
    rows: read.rows,
    file,
    columns: info,
    columnCount: read.columns.length,
    first: pageCells(read.sample, info.length),
    colorGainsAndLosses,
  };
}
