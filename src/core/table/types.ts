/**
 * The contract every table source fills (CSV file, address list, JSON rows), and the plain data
 * it hands out. No imports: the webview bundle reads these types through src/shared/tableProtocol.ts.
 */

/** What a cell holds once a column is typed. Numbers are finite decimals (see numbers.ts); anything else non-empty is text. */
export const CellKind = { Empty: 0, Number: 1, Text: 2 } as const;
export type CellKind = (typeof CellKind)[keyof typeof CellKind];

/**
 * A column of numbers (and empty cells) kept as integers at one decimal scale (typedColumn.ts).
 * Row r's stored form is bits[r] (32 bits), or high[r] × 2^32 + bits[r] (40 bits) when `high`
 * is set: 0 when the cell is empty, else its integer plus 2^31 (2^39), so the stored forms, as
 * unsigned integers, order the rows as their values do. The value is the integer / divisor,
 * exactly the double the cell parsed to.
 */
export interface ScaledInts {
  readonly bits: Uint32Array;
  readonly high?: Uint8Array | undefined;
  /** Places after the decimal point (0–9). */
  readonly scale: number;
  /** 10^scale. */
  readonly divisor: number;
}

/**
 * A column typed for sorting and filtering, built once per source and cached.
 * `numbers` and `kinds` are indexed by source row id.
 */
export interface TypedColumn {
  readonly column: number;
  /** The cell's value when it is a number, NaN otherwise (empty or text). Made on first read when `scaled` is set. */
  readonly numbers: Float64Array;
  /** CellKind per row. Made on first read when `scaled` is set. */
  readonly kinds: Uint8Array;
  /**
   * Set when the column holds only numbers and empty cells that fit ScaledInts (4 or 5 bytes a
   * row instead of 9): hot paths (sort, filter) read these and leave `numbers` and `kinds` unmade.
   */
  readonly scaled?: ScaledInts;
  readonly emptyCount: number;
  readonly numberCount: number;
  readonly textCount: number;
  /** The text of the Text cells ('' for the others); undefined when the column has no text cell. */
  readonly texts: readonly string[] | undefined;
  /** The text of every cell: present when asked for (a text filter needs it) or when the column has no numbers. */
  readonly fullText: readonly string[] | undefined;
  /**
   * Row → decimal text of the number cells whose double does not order them exactly (more than
   * 15 significant digits: numbers.ts); sorts, filters and the profile break ties on the double
   * with it. Absent when the column has none (then the doubles are exact in order).
   */
  readonly exact?: ReadonlyMap<number, string>;
  /** Text cells that are decimals out of a double's range (1e400): shown by the profile. */
  readonly outOfRangeCount?: number;
}

/** A column wanted from `typedColumns`; `text: true` also fills `fullText`. */
export interface ColumnNeed {
  readonly column: number;
  readonly text?: boolean;
}

/** How far a long task is: bytes for passes over the file (index, columns, search), rows for export. */
export interface Progress {
  readonly task: 'index' | 'columns' | 'search' | 'export';
  readonly done: number;
  readonly total: number;
}

/** Cancellation and progress for a long task. */
export interface TaskOptions {
  readonly signal?: AbortSignal;
  readonly onProgress?: (p: Progress) => void;
}

export type NoticeCode =
  | 'bom'
  | 'dialect'
  | 'emptyFile'
  | 'headerOnly'
  | 'raggedRows'
  | 'malformedQuote'
  | 'unterminatedQuote'
  | 'invalidUtf8'
  | 'longRow'
  | 'notTabular'
  | 'compared';

/**
 * Something about the file a person should know: what was wrong, where (1-based data row and
 * file line when known) and what the table did about it. One notice per code; counts aggregate.
 */
export interface TableNotice {
  readonly code: NoticeCode;
  readonly severity: 'info' | 'warning' | 'error';
  readonly message: string;
  /** 1-based data row (the header is not counted) of the first occurrence. */
  readonly row?: number;
  /** 1-based line of the file of the first occurrence. */
  readonly line?: number;
  /** How many rows or places are affected, when more than one may be. */
  readonly count?: number;
}

/** What changed on a source: rows were indexed, notices were added, or indexing finished. */
export type SourceChange =
  | { readonly type: 'progress'; readonly rowCount: number; readonly bytesDone: number; readonly bytesTotal: number }
  | { readonly type: 'notices' }
  | { readonly type: 'complete'; readonly rowCount: number };

/**
 * Rows and columns of one result, whatever its format. Row ids are 0-based data rows in file order
 * (the header is not a row). A CSV source knows its first rows at once and the rest after indexing.
 */
export interface TableSource {
  readonly kind: 'csv' | 'txt' | 'json';
  /** Column names, in order; a column is addressed by its index here. */
  readonly columns: readonly string[];
  /** Data rows known so far; final once `complete`. */
  readonly rowCount: number;
  readonly complete: boolean;
  /** Resolves when every row is known; rejects if indexing failed or was cancelled. */
  readonly indexed: Promise<void>;
  readonly notices: readonly TableNotice[];
  /** Subscribes to changes; returns the unsubscribe function. */
  onDidChange(listener: (change: SourceChange) => void): () => void;
  /**
   * Cells of `rows` (row ids) × `columns`, row-major; waits for rows not indexed yet. With
   * `cellChars`, a source may return only a cell's first `cellChars` + 1 characters (enough for
   * the caller to see it is longer and cut it: windowCells.ts), sparing the decoding of the rest.
   */
  readCells(rows: ArrayLike<number>, columns: readonly number[], signal?: AbortSignal, cellChars?: number): Promise<string[][]>;
  /** Bytes of row `row` in the file, where a source reads rows from one (exports batch reads by it). */
  rowBytes?(row: number): number;
  /** Typed columns, built on first use (one pass for all missing ones) and cached. */
  typedColumns(needs: readonly ColumnNeed[], options?: TaskOptions): Promise<TypedColumn[]>;
  /** A mask by row id: 1 where some cell contains `text`, case-insensitive. */
  searchRows(text: string, options?: TaskOptions): Promise<Uint8Array>;
  /** Stops background work and releases the file. */
  close(): Promise<void>;
}

/** A sort key; keys are applied most significant first. */
export interface SortKey {
  readonly column: number;
  readonly descending?: boolean;
}

/**
 * A column filter; all filters of a view must hold.
 * range: the cell is a number within [min, max] (either bound optional); `minText`/`maxText`, the
 * bound as typed (a plain decimal), make it exact past 15 significant digits; contains: the cell's
 * text contains `text`, ignoring case; empty / nonEmpty: the cell is (not) empty.
 */
export type ColumnFilter =
  | { readonly kind: 'range'; readonly column: number; readonly min?: number; readonly max?: number; readonly minText?: string; readonly maxText?: string }
  | { readonly kind: 'contains'; readonly column: number; readonly text: string }
  | { readonly kind: 'empty'; readonly column: number }
  | { readonly kind: 'nonEmpty'; readonly column: number };

export interface ViewQuery {
  /** Sort keys, most significant first; none keeps file order. */
  readonly sort?: readonly SortKey[];
  /** Filters, all of which must hold. */
  readonly filters?: readonly ColumnFilter[];
  /** Rows where any cell contains this text (ignoring case); '' or absent for all rows. */
  readonly search?: string;
}

/**
 * Cells of view rows [start, start + cells.length) for `columns`, row-major:
 * `cells[i][j]` is view row start + i, column columns[j]. Only what was asked is sent: a window
 * of 60 × 40 is 2,400 short strings, which structured clone posts to a webview cheaply.
 */
export interface TableWindow {
  /** The view version the window was read from (see TableView.version). */
  readonly version: number;
  readonly start: number;
  /** Source row id of each row (stable across sorts; e.g. to keep a selection). */
  readonly rowIds: readonly number[];
  readonly columns: readonly number[];
  readonly cells: readonly (readonly string[])[];
  /**
   * Cells cut to the window's `cellChars` (the grid's windows: windowCells.ts), by place
   * i × columns.length + j; absent when none was. A cut cell is not its value: read it whole.
   */
  readonly cut?: readonly number[];
}

/** The view without its cells, as the host and the webview's grid need it (the worker sends it). */
export interface ViewSnapshot {
  readonly version: number;
  /** Rows in the view. */
  readonly length: number;
  /** Rows in the source (so far, while `complete` is false). */
  readonly total: number;
  readonly complete: boolean;
  /** "12,345 of 100,000 rows". */
  readonly countLabel: string;
  readonly query: ViewQuery;
}
