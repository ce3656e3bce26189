/**
 * "Open in Notebook": a Jupyter notebook (nbformat 4.5) that takes a result further where the
 * table stops. The table engine owns what the view is (its filters, search, sort and columns,
 * src/core/table/): its worker exports the view to a CSV file beside the notebook, and the
 * notebook only LOADS that file, with pandas and with DuckDB for views too large for memory, typed
 * (addresses and other text as strings, never numbers). No sort, filter or row-finding of its own
 * is written in Python or SQL, so nothing here can drift from the table (the house rule of
 * test/unit/house/oneLanguage.test.ts). When the view is the whole of a plain CSV result, the
 * notebook loads the result itself instead of a copy of it (a 1.81 GB file is not written twice).
 *
 * Each cell is one declared load and nothing else: no branch, no conversion after loading. The
 * file is named by its name alone, since it is always written beside the notebook and Jupyter and
 * VS Code start a notebook's kernel in its folder (so the two can be moved or shared together);
 * the columns are typed by read_csv's own parameters (pandas' dtype and per-column na_values,
 * DuckDB's dtype and na_values). A number column that holds some other text than the blanks
 * listed then stops the load with the library's own error naming it, where converting after
 * loading would have turned it into NaN in silence; the cell's comment says what to do.
 *
 * Every file name and column name reaches the code as a quoted literal (a JSON string is a valid
 * Python string; SQL identifiers are doubled-quote escaped), so a column named `x"; import os`
 * stays data; no name stands raw in the code, comments included: a name holding U+2028 or NEL
 * would otherwise end a comment where IPython splits lines (pyString, issue 21). The notebook reads
 * a local file and nothing else: it has no API call, so it has no key to hold.
 */
import { randomBytes } from 'node:crypto';
import { unlink } from 'node:fs/promises';
import * as path from 'node:path';
import { mdText, pyString, rewriteUnsafe, sqlIdent } from './notebookCode';
import type { Notebook, NotebookColumn, NotebookInput, NotebookTable } from './notebookModel';
import type { ColumnFilter, TaskOptions } from '../table/types';
import { l10n } from '../l10n';
import { thousands } from '../numberText';
import { writeNewNamed } from '../files/writeInside';

function columnName(columns: readonly NotebookColumn[], c: number): string {
  const col = columns[c];
  if (!col) throw new RangeError(l10n.t('The view names column {0}; the table has {1}.', c, columns.length));
  return col.name;
}

function describeFilter(columns: readonly NotebookColumn[], f: ColumnFilter): string {
  const name = columnName(columns, f.column);
  switch (f.kind) {
    case 'range':
      return f.min !== undefined && f.max !== undefined
        ? l10n.t('{0} from {1} to {2}', name, f.min, f.max)
        : f.min !== undefined
          ? `${name} ≥ ${f.min}`
          : f.max !== undefined
            ? `${name} ≤ ${f.max}`
            : l10n.t('{0} is a number', name);
    case 'contains':
      return l10n.t('{0} contains "{1}"', name, f.text);
    case 'empty':
      return l10n.t('{0} is empty', name);
    case 'nonEmpty':
      return l10n.t('{0} is not empty', name);
  }
}

/** Chosen columns named in the first cell; the rest are counted. */
export const NAMED_COLUMNS = 12;

/** The chosen columns, in display order (every column when none is chosen). */
function shownColumns(columns: readonly NotebookColumn[], shown: readonly number[]): number[] {
  const valid = shown.filter((c) => c >= 0 && c < columns.length);
  return valid.length > 0 ? [...new Set(valid)] : columns.map((_, i) => i);
}

/** What the view is, in words, for the first cell. */
function describeView(input: NotebookInput): string[] {
  const q = input.query;
  const out: string[] = [];
  const filters = q.filters ?? [];
  if (filters.length > 0) out.push(`Filters (all hold): ${filters.map((f) => mdText(describeFilter(input.columns, f))).join('; ')}.`);
  if ((q.search ?? '') !== '') out.push(`Search: rows where some cell contains ${mdText(`"${q.search ?? ''}"`)} (any case).`);
  const sort = q.sort ?? [];
  if (sort.length > 0) out.push(`Sorted by ${sort.map((k) => `${mdText(columnName(input.columns, k.column))} ${k.descending ? 'descending' : 'ascending'}`).join(', then ')}; empty cells last, ties in file order.`);
  const shown = shownColumns(input.columns, input.shown);
  if (shown.length < input.columns.length) {
    // A wide result shows hundreds: the first few name the choice, the code and the file hold them all (and the cell stays above the fold).
    const named = shown.slice(0, NAMED_COLUMNS).map((c) => mdText(columnName(input.columns, c)));
    const more = shown.length - named.length;
    out.push(`Columns: ${shown.length} of ${input.columns.length} (${named.join(', ')}${more > 0 ? `, and ${more} more` : ''}).`);
  }
  if (out.length === 0) out.push('The whole result, in file order, every column.');
  out.push(`Rows: ${thousands(input.rows)}.`);
  return out;
}

/** Whether the cells load the result itself (the view is all of it) rather than the view the table exported. */
const loadsResult = (input: NotebookInput): boolean => input.data === input.file;

/** The columns the loaded file is read with, in the view's order: all of the exported view's, or the chosen ones of the result. */
function loadedColumns(input: NotebookInput): NotebookColumn[] {
  return shownColumns(input.columns, input.shown).map((c) => input.columns[c] as NotebookColumn);
}

/** Both cells read the file by its name: it is beside the notebook, and the kernel starts in the notebook's folder. */
function pathLine(input: NotebookInput): string {
  return `PATH = ${pyString(path.basename(input.data))}  # beside this notebook (the kernel starts in the notebook's folder)`;
}

/**
 * What a number column may hold that is no number, read as missing (NaN, NULL): the empty cell and
 * the usual marks of a missing value. The table reads any other text in a number column as text;
 * read_csv has no way to say "whatever is not a number", so such a cell stops the load, by name.
 */
export const BLANKS: readonly string[] = ['', 'n/a', 'N/A', 'NA', 'NaN', 'nan', 'null', 'NULL', 'None', '-'];

/** BLANKS as a line of the cell, saying what `reads` them as. */
function blanksLine(reads: string): string {
  return `BLANKS = ${pyList(BLANKS)}  # ${reads}; other text in a number column stops read_csv with its error naming it: add it here`;
}

/** A Python dict literal of names to values (each already a Python literal). */
function pyDict(entries: readonly (readonly [string, string])[]): string {
  return `{${entries.map(([k, v]) => `${pyString(k)}: ${v}`).join(', ')}}`;
}

function pyList(names: readonly string[]): string {
  return `[${names.map(pyString).join(', ')}]`;
}

function pandasCell(input: NotebookInput): string[] {
  const loaded = loadedColumns(input);
  const names = loaded.map((c) => c.name);
  const numbers = loaded.filter((c) => c.kind === 'number').map((c) => c.name);
  // The result itself holds every column: read the chosen ones, then put them in the table's order.
  const subset = loadsResult(input) && loaded.length < input.columns.length;
  const options = [...(subset ? ['usecols=COLUMNS'] : []), 'dtype=DTYPES', ...(numbers.length > 0 ? ['na_values=NA'] : []), 'keep_default_na=False'];
  return [
    `# Loads ${pyString(path.basename(input.data))} with pandas (the whole file in memory): the table's view, its rows in the table's order.`,
    'import pandas as pd',
    '',
    pathLine(input),
    ...(subset ? [`COLUMNS = ${pyList(names)}  # the table's chosen columns, in its order`] : []),
    '# Addresses and other text as strings, never numbers (an empty cell stays ""); the table\'s number columns as float64.',
    `DTYPES = ${pyDict(loaded.map((c) => [c.name, c.kind === 'number' ? '"float64"' : '"string"'] as const))}`,
    ...(numbers.length > 0 ? [blanksLine('NaN in a number column'), `NA = ${pyDict(numbers.map((n) => [n, 'BLANKS'] as const))}`] : []),
    `df = pd.read_csv(PATH, ${options.join(', ')})${subset ? '[COLUMNS]' : ''}`,
    'df',
  ];
}

/** The DuckDB cell's projection: the loaded columns, by name, in the view's order. */
function duckdbColumns(input: NotebookInput): string {
  return loadedColumns(input)
    .map((c) => sqlIdent(c.name))
    .join(', ');
}

function duckdbCell(input: NotebookInput): string[] {
  const numbers = loadedColumns(input).filter((c) => c.kind === 'number');
  const options = ['header=True', 'all_varchar=True', ...(numbers.length > 0 ? ['dtype=TYPES', 'na_values=BLANKS'] : [])];
  return [
    `# For a view too large for memory: DuckDB streams ${pyString(path.basename(input.data))} (pip install duckdb).`,
    'import duckdb',
    '',
    pathLine(input),
    `COLUMNS = ${pyString(duckdbColumns(input))}  # the table's columns, in its order`,
    ...(numbers.length > 0
      ? [
          '# Every column is read as text (addresses stay text) but the table\'s number columns, as DOUBLE.',
          `TYPES = ${pyDict(numbers.map((c) => [c.name, '"DOUBLE"'] as const))}`,
          blanksLine('NULL in every column'),
        ]
      : ['# Every column is read as text (addresses stay text).']),
    `view = duckdb.read_csv(PATH, ${options.join(', ')}).project(COLUMNS)`,
    'view  # view.df() for pandas; view.write_csv("out.csv") to save it',
  ];
}

/** Lines as nbformat stores a cell's source: each line but the last ends with "\n". */
function source(lines: readonly string[]): string[] {
  return lines.map((l, i) => (i < lines.length - 1 ? `${l}\n` : l));
}

const cellId = (): string => randomBytes(6).toString('hex');

/** `name` as Markdown inline code (a backtick or a line end in it would end the span or the line). */
const mdCode = (name: string): string => `\`${rewriteUnsafe(name.replaceAll('`', "'"), () => ' ')}\``;

/** The notebook for a result, its table view and the CSV file that holds it. */
export function buildNotebook(input: NotebookInput): Notebook {
  const base = path.basename(input.file);
  const date = (input.date ?? new Date()).toISOString().replace(/\.\d+Z$/u, 'Z');
  const loads = loadsResult(input)
    ? `The view is the whole result, so the cells load ${mdCode(base)} itself.`
    : `The table exported this view to ${mdCode(path.basename(input.data))}, beside this notebook; the cells load that file, with no sort or filter of their own.`;
  const intro = [
    `# ${mdText(base)}`,
    '',
    `Written by Wallet Analytics for VS Code on ${date} from the table of ${mdCode(base)}${input.endpoint ? ` (${mdText(input.endpoint)})` : ''}, which sits beside this notebook.`,
    '',
    ...describeView(input).map((l) => `- ${l}`),
    '',
    loads,
    'The first code cell loads it with **pandas** (the whole file in memory). The second asks **DuckDB**, which streams the file, for views too large for memory; it needs `pip install duckdb`.',
    'Addresses and other text columns are strings, never numbers; numbers are float64. Both cells read only this local file: no API call, and no key.',
    `The cells name the file alone: Jupyter and VS Code start the kernel in the notebook's folder. It was written at ${mdCode(input.data)}.`,
  ];
  return {
    nbformat: 4,
    nbformat_minor: 5,
    metadata: {
      kernelspec: { name: 'python3', display_name: 'Python 3', language: 'python' },
      language_info: { name: 'python' },
    },
    cells: [
      { cell_type: 'markdown', id: cellId(), metadata: {}, source: source(intro) },
      { cell_type: 'code', id: cellId(), metadata: {}, source: source(pandasCell(input)), outputs: [], execution_count: null },
      { cell_type: 'code', id: cellId(), metadata: {}, source: source(duckdbCell(input)), outputs: [], execution_count: null },
    ],
  };
}

/** The notebook file's text. */
function notebookText(input: NotebookInput): string {
  return `${JSON.stringify(buildNotebook(input), null, 1)}\n`;
}

/**
 * Whether the notebook may load the result file itself: a .csv the table read as plain comma CSV
 * (no notice: no other delimiter, no ragged rows, no BOM…), the view all of its rows in file order,
 * and its column names distinct (pandas reads a chosen column by its name).
 */
export function viewIsResult(table: Pick<NotebookTable, 'file' | 'query' | 'notices' | 'columns'>): boolean {
  const q = table.query;
  const names = table.columns.map((c) => c.name);
  return (
    path.extname(table.file).toLowerCase() === '.csv' &&
    table.notices.length === 0 &&
    (q.filters ?? []).length === 0 &&
    (q.search ?? '') === '' &&
    (q.sort ?? []).length === 0 &&
    new Set(names).size === names.length
  );
}

/** What Open in Notebook wrote. */
export interface WrittenNotebook {
  readonly notebook: string;
  /** The CSV file the notebook loads. */
  readonly data: string;
  /** Whether `data` is the view the table exported for it (else the result itself). */
  readonly exported: boolean;
  readonly rows: number;
}

/**
 * Writes the notebook beside the result: first the table's view, exported by the table's worker
 * to `<result>-view.csv` (`-view-2.csv`… when taken), unless the view is the whole result; then
 * `<result>.ipynb` (`-2`, `-3`… when taken), never over an existing file. Cancelled (the signal),
 * it leaves no file.
 */
export async function writeNotebook(table: NotebookTable, options: TaskOptions & { readonly date?: Date } = {}): Promise<WrittenNotebook> {
  const dir = path.dirname(table.file);
  const stem = path.basename(table.file).replace(/\.(csv|txt|json)$/iu, '');
  const whole = viewIsResult(table);
  let rows = table.rows;
  let data = table.file;
  if (!whole) {
    const columns = shownColumns(table.columns, table.shown);
    data = await writeNewNamed(dir, '', `${stem}-view.csv`, {
      writtenBy: async (temp) => {
        // Its reader is pandas, not a spreadsheet: the cells exactly as the result holds them, no formula mark added.
        rows = (await table.exportView(temp, { columns, neutraliseFormulas: false, lineEnding: '\n', signal: options.signal, onProgress: options.onProgress })).rows;
      },
    });
  }
  try {
    const input: NotebookInput = { file: table.file, data, columns: table.columns, query: table.query, shown: table.shown, rows, endpoint: table.endpoint, date: options.date };
    const notebook = await writeNewNamed(dir, '', `${stem}.ipynb`, notebookText(input));
    return { notebook, data, exported: !whole, rows };
  } catch (e) {
    // The view's file is ours, just written, and no notebook loads it.
    if (!whole) await unlink(data).catch(() => undefined);
    throw e;
  }
}
