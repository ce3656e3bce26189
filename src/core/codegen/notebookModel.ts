/**
 * What "Open in Notebook" is built from (the table's file, columns, view) and what it writes (a
 * Jupyter notebook as nbformat 4.5 JSON holds it); notebook.ts writes the code between the two.
 */
import type { ViewQuery } from '../table/types';

/** How a column is typed in the notebook: addresses and text as strings, numbers as float64. */
type NotebookColumnKind = 'address' | 'text' | 'number';

export interface NotebookColumn {
  readonly name: string;
  readonly kind: NotebookColumnKind;
}

export interface NotebookInput {
  /** The result file (absolute path): .csv, .txt address list, or .json. */
  readonly file: string;
  /** Every column of the table, in file order (a ColumnFilter's or SortKey's column indexes this). */
  readonly columns: readonly NotebookColumn[];
  /** The table's view: sort, filters, search. */
  readonly query: ViewQuery;
  /** The chosen (shown) columns, in display order; every column when empty. */
  readonly shown: readonly number[];
  /** The endpoint that produced the result, when known (named in the first cell). */
  readonly endpoint?: string;
  /** When it was written (the first cell says so); now by default. */
  readonly date?: Date;
}

/** The notebook's typing of the table's columns (src/vscode/table/columnInfo.ts): an address column, a numeric one, or text. */
export function notebookColumns(columns: readonly { readonly name: string; readonly numeric: boolean; readonly address?: string }[]): NotebookColumn[] {
  return columns.map((c) => ({ name: c.name, kind: c.address !== undefined ? 'address' : c.numeric ? 'number' : 'text' }));
}

/** A Jupyter notebook as nbformat 4.5 JSON holds it. */
export interface Notebook {
  readonly nbformat: 4;
  readonly nbformat_minor: number;
  readonly metadata: Record<string, unknown>;
  readonly cells: readonly NotebookCell[];
}

type NotebookCell =
  | { readonly cell_type: 'markdown'; readonly id: string; readonly metadata: Record<string, unknown>; readonly source: string[] }
  | {
      readonly cell_type: 'code';
      readonly id: string;
      readonly metadata: Record<string, unknown>;
      readonly source: string[];
      readonly outputs: unknown[];
      readonly execution_count: null;
    };

