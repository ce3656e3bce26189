/**
 * Results as tables: the data path, with no VS Code in it. The webview grid and the custom
 * editor sit on top of this API; src/shared/tableProtocol.ts carries it to the webview.
 *
 * Open                                                           → TableSource (types.ts)
 *   openTable(path, {signal?, onProgress?})   by extension:
 *     .csv   openCsvFile       resolves in a few ms with the header and the first rows (reads
 *                              1 MiB); indexes the rest in the background (onProgress /
 *                              onDidChange; cancel with signal or close()); then walks every
 *                              cell once (prepareColumns, default on) so later passes are fast
 *                              and ragged rows are counted. How the file is read is decided
 *                              from its first 64 KiB (csvDialect.ts): cells separated by comma,
 *                              or by tab (.tsv, or a first line of tabs and no comma) or
 *                              semicolon; rows ending at LF and CRLF, and at a lone CR too when
 *                              one is there. Anything but comma + LF/CRLF is said in a notice.
 *     .txt   openAddressList   one column, `address`; a first line "address" is the header.
 *     .json  openJsonFile      rows of objects → columns = union of keys, first-seen order.
 *     .zip   refused: open each CSV inside it.
 *   jsonRowsSource(rows)      JSON rows already in memory (direct API results; findRows(body)
 *                             finds the array in a response).
 *
 * TableSource: columns, rowCount (grows while indexing), complete, indexed (promise),
 *   notices (what was wrong with the file, where: row and line), onDidChange(listener),
 *   readCells(rowIds, columns), typedColumns(needs), searchRows(text), rowBytes?(rowId), close().
 *   A row id is a 0-based data row in file order (the header is not a row); a column is its
 *   index in `columns`. Never the whole file in memory: about 4 bytes a row for the index; for
 *   the cell map, 4 bytes a row per 32 columns (wide files) or a place for every cell (64 columns
 *   or fewer: 1, 2 or 4 bytes a cell, see cellMap.ts); typed columns only once sorted or filtered on.
 *   The index scan and the cell walk run as WebAssembly (cellWalk.wat, compiled at build time).
 *   What a column holds (numbers, addresses, dates, text) is decided by src/core/table/columnKind.ts,
 *   for the engine's typed columns as for every other feature.
 *
 * TableView (tableView.ts): new TableView(source)
 *   apply({sort?, filters?, search?}, {signal?, onProgress?})      (ViewQuery, types.ts)
 *     sort: SortKey[] — numbers by exact value (past 15 digits by their decimal text: numbers.ts),
 *       then text in natural order, empty cells last in both directions, ties in file order (a
 *       radix sort of cached dense ranks, no comparator);
 *     filters: ColumnFilter[] — range {min?, max?, minText?, maxText?} (inclusive, exact) | contains {text} (any case) |
 *       empty | nonEmpty; all must hold;
 *     search: rows where any cell contains the text, any case (one streamed pass, cached).
 *     A newer apply() cancels one still running. The rows are a Uint32Array of row ids.
 *   window(first, last, columns, signal?, cellChars?) → TableWindow {version, start, rowIds, columns, cells, cut?}
 *     With cellChars (the grid's windows: WINDOW_CELL_CHARS, windowCells.ts) a longer cell comes as
 *     its first characters and is listed in `cut`; whatever acts on a value asks without it.
 *     Only the asked cells, as string[][] row-major: a 60 × 40 window is 2,400 short strings,
 *     cheap to post to a webview. (Objects keyed by column name repeat every name in every
 *     row; raw CSV bytes would make the webview parse CSV and could not carry JSON sources.)
 *   length, total, isFiltered, version, rowIds(first, last), countLabel() ("12,345 of 100,000 rows").
 *
 * Out
 *   exportView(view, path, {columns?, neutraliseFormulas = true, header = true, lineEnding = CRLF})
 *     streams the view in its order to a temp file beside `path`, then renames it over `path`.
 *     What is written reopens as the same table: a line of one empty cell is written `""`.
 *   copySelection(view, first, last, columns, {format: 'tsv' | 'csv', header = true})
 *   neutraliseFormula(cell): starts with `=`, `+`, `-`, `@`, TAB or CR and is not a number → `'` first.
 *
 * Off the main thread (the extension host uses this; the calls above run inside the worker)
 *   RemoteTable.open(path, {signal?, workerFile?})  starts a worker thread (dist/tableWorker.js,
 *     tableWorker.ts → workerTable.ts) and opens the file in it; the host keeps a mirror of
 *     columns, notices and the view's counts (`view`: a ViewSnapshot) that the worker's pushes
 *     refresh. window, apply (sort, filters, search), export, copy, columnText, profile, histogram,
 *     scatter (analysis.ts: exact statistics over the view's rows, for the analysis panel), close: async,
 *     cancelled by AbortSignal; onDidChange and `indexed` as on a TableSource. Errors come back
 *     typed: CancelledError, RangeError, else TableWorkerError {remoteName, code}.
 *   Messages: workerProtocol.ts, one union each way, validated on entry on both sides.
 *
 * Measured costs on three shapes (100,000 × 640 numbers, 723 MB; 1,000,000 × 12 quoted text,
 * 206 MB; 100,000 rows with a 5–20 KB cell, 1.35 GB): bench/RESULTS-table.md (npm run bench:table).
 */
export { neutraliseFormula } from './csvFormat';
export { openAddressList, openCsvFile } from './csvSource';
export { COPY_MAX_CELLS, copySelection, exportView } from './exportView';
export { findRows, jsonRowsSource, openJsonFile } from './jsonSource';
export { parseNumberText } from './numbers';
export { openTable } from './openTable';
export { compareText } from './sortRows';
export { TableView } from './tableView';
export { prestartTableWorker, RemoteTable, startTableLauncher, TABLE_WORKER_YOUNG_GENERATION_MB, TableWorkerError, tableWorkerOptions } from './remoteTable';
export * from './types';
export { WINDOW_CELL_CHARS } from './windowCells';
