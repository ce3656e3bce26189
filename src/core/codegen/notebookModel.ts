/**
 * What "Open in Notebook" is built from (the table's file, columns, view, and the worker that
 * exports that view) and what it writes (a Jupyter notebook as nbformat 4.5 JSON holds it);
 * notebook.ts writes the notebook between the two.
 */
import type { ExportOptions, ExportResult } from '../table/exportView';
import type { TableNotice, ViewQuery } from '../table/types';

/** How a column is typed in the notebook: addresses and text as strings, numbers as float64. */
type NotebookColumnKind = 'address' | 'text' | 'number';

export interface NotebookColumn {
  readonly name: string;
  readonly kind: NotebookColumnKind;
}

/**
 * The table as Open in Notebook needs it. The host hands its table (the worker's proxy): the
 * notebook never sorts or filters, it loads what the table engine exported.
 */
export interface NotebookTable {
  /** The result file (absolute path): .csv, .txt address list, or .json. */
  readonly file: string;
  /** Every column of the table, in file order (a ColumnFilter's or SortKey's column indexes this). */
  readonly columns: readonly NotebookColumn[];
  /** The table's view: sort, filters, search. */
  readonly query: ViewQuery;
  /** The chosen (shown) columns, in display order; every column when empty. */
  readonly shown: readonly number[];
  /** Rows in the view. */
  readonly rows: number;
  /** What the table said about the file (a delimiter other than comma, ragged rows…): any means the file is not plain CSV. */
  readonly notices: readonly TableNotice[];
  /** The endpoint that produced the result, when known (named in the first cell). */
  readonly endpoint?: string;
  /** Writes the view's rows, in its order, to `target` as CSV (exportView's options), in the table's worker. */
  exportView(target: string, options: ExportOptions): Promise<ExportResult>;
}

/** What the notebook holds: the table's view described, and the CSV file its cells load. */
export interface NotebookInput {
  /** The result file (absolute path). */
  readonly file: string;
  /** The CSV file the cells load (absolute path, beside the notebook): the exported view, or the result itself. */
  readonly data: string;
  /** Every column of the table, in file order. */
  readonly columns: readonly NotebookColumn[];
  readonly query: ViewQuery;
  /** The chosen (shown) columns, in display order; every column when empty. */
  readonly shown: readonly number[];
  /** Rows in the view (and so in the file loaded). */
  readonly rows: number;
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
