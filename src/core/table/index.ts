/**
 * Results as tables: the data path, with no VS Code in it. The webview grid and the custom
 * editor sit on top of this API.
 *
 * Open
 *   openTable(path, {signal?, onProgress?, prepareColumns?}) → TableSource   by extension:
 *     .csv  openCsvFile      resolves in a few ms with the header and the first rows (it reads
 *                            1 MiB); the row index is built in the background (progress via
 *                            onProgress / onDidChange, cancel via signal or close()).
 *     .txt  openAddressList  one column, `address`; a first line "address" is taken as header.
 *     .json openJsonFile     rows of objects → columns = union of keys (first-seen order).
 *   jsonRowsSource(rows) for JSON rows already in memory (direct API results; see findRows).
 *
 * TableSource (types.ts): columns, rowCount (grows while indexing), complete, indexed (promise),
 *   notices (what was wrong with the file and where), onDidChange(listener),
 *   readCells(rowIds, columnIndexes), typedColumns(needs), searchRows(text), close().
 *   A row id is a 0-based data row in file order (the header is not a row).
 *
 * TableView (tableView.ts): new TableView(source)
 *   apply({sort?: SortKey[], filters?: ColumnFilter[], search?}, {signal?, onProgress?})
 *     sort: numbers by value, then text in natural order, empty cells last in both directions;
 *     filters: {kind:'range', min?, max?} | {kind:'contains', text} | {kind:'empty'} | {kind:'nonEmpty'};
 *     search: rows where any cell contains the text, ignoring case (one streamed pass, cached).
 *     A new apply() cancels one still running. The rows are a Uint32Array of row ids.
 *   window(first, last, columnIndexes) → TableWindow {version, start, rowIds, columns, cells: string[][]}
 *     Only the asked cells, row-major, as strings: a 60 × 40 window is 2,400 short strings,
 *     cheap to post to a webview (JSON objects keyed by column name would repeat every name
 *     in every row; raw CSV bytes would make the webview parse CSV).
 *   length, total, countLabel() ("12,345 of 100,000 rows"), rowIds(first, last), version.
 *
 * Out
 *   exportView(view, path, {columns?, neutraliseFormulas = true, header = true, lineEnding = CRLF})
 *     streams the view to a temp file beside `path`, then renames it over `path`.
 *   copySelection(view, first, last, columns, {format: 'tsv' | 'csv', header = true})
 *   neutraliseFormula(cell): `=`, `+`, `-`, `@` first and not a number → a leading `'`.
 *
 * Costs on a 722 MB, 100,000 × 640 file: see bench/RESULTS-table.md.
 */
export { abortable } from './abort';
export { neutraliseFormula, quoteCell, formatLine } from './csvFormat';
export { CsvSource, openAddressList, openCsvFile, type OpenCsvOptions } from './csvSource';
export { copySelection, exportView, COPY_MAX_CELLS, type CopyOptions, type ExportOptions, type ExportResult } from './exportView';
export { filterRows } from './filterRows';
export { findRows, jsonRowsSource, openJsonFile } from './jsonSource';
export { isNumberText, parseNumberText } from './numbers';
export { openTable } from './openTable';
export { compareText, sortRows } from './sortRows';
export { TableView } from './tableView';
export * from './types';
