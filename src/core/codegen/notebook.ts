/**
 * "Open in Notebook": a Jupyter notebook (nbformat 4.5) that takes a result further where the
 * table stops. It loads the local result file with pandas, and with DuckDB for files too large
 * for memory, with typed columns (addresses and other text as strings, never numbers) and the
 * table's current filters, search, sort and chosen columns written out as code, with the same
 * meaning as in the table (src/core/table/filterRows.ts, sortRows.ts).
 *
 * Every file name, column name and filter text reaches the code as a quoted literal (a JSON
 * string is a valid Python string; SQL identifiers and strings are doubled-quote escaped), so a
 * column named `x"; import os` stays data. No name stands raw in the code, comments included: a
 * file named with U+2028 or NEL would otherwise end a comment where IPython splits lines (pyString,
 * issue 21). The notebook reads a local file and nothing else: it
 * has no API call, so it has no key to hold. Pure apart from writeNotebook's file write.
 */
import { randomBytes } from 'node:crypto';
import * as path from 'node:path';
import { DECIMAL, mdText, num, pyString, pySqlLiteral, rewriteUnsafe, sqlIdent, sqlString } from './notebookCode';
import type { Notebook, NotebookColumn, NotebookInput } from './notebookModel';
import type { ColumnFilter, SortKey } from '../table/types';
import { l10n } from '../l10n';
import { writeNewNamed } from '../files/writeInside';

function columnName(input: NotebookInput, c: number): string {
  const col = input.columns[c];
  if (!col) throw new RangeError(l10n.t('The view names column {0}; the table has {1}.', c, input.columns.length));
  return col.name;
}

function describeFilter(input: NotebookInput, f: ColumnFilter): string {
  const name = columnName(input, f.column);
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

/** What the view does, in words, for the first cell. */
function describeView(input: NotebookInput): string[] {
  const q = input.query;
  const out: string[] = [];
  const filters = q.filters ?? [];
  if (filters.length > 0) out.push(`Filters (all hold): ${filters.map((f) => mdText(describeFilter(input, f))).join('; ')}.`);
  if ((q.search ?? '') !== '') out.push(`Search: rows where some cell contains ${mdText(`"${q.search ?? ''}"`)} (any case).`);
  const sort = q.sort ?? [];
  if (sort.length > 0) out.push(`Sorted by ${sort.map((k) => `${mdText(columnName(input, k.column))} ${k.descending ? 'descending' : 'ascending'}`).join(', then ')}; empty cells last, ties in file order.`);
  const shown = shownColumns(input);
  if (shown.length < input.columns.length) {
    // A wide result shows hundreds: the first few name the choice, the code's list holds them all (and the cell stays above the fold).
    const named = shown.slice(0, NAMED_COLUMNS).map((c) => mdText(columnName(input, c)));
    const more = shown.length - named.length;
    out.push(`Columns: ${shown.length} of ${input.columns.length} (${named.join(', ')}${more > 0 ? `, and ${more} more, listed in the code` : ''}).`);
  }
  if (out.length === 0) out.push('The whole result, in file order, every column.');
  return out;
}

function shownColumns(input: NotebookInput): number[] {
  const shown = input.shown.filter((c) => c >= 0 && c < input.columns.length);
  return shown.length > 0 ? [...new Set(shown)] : input.columns.map((_, i) => i);
}

// ---------------------------------------------------------------------------------------------
// pandas

function pyList(names: readonly string[]): string {
  return names.length === 0 ? '[]' : `[${names.map(pyString).join(', ')}]`;
}

function pandasFilter(input: NotebookInput, f: ColumnFilter): string {
  const col = `view[${pyString(columnName(input, f.column))}]`;
  switch (f.kind) {
    case 'range': {
      const n = `number(${col})`;
      if (f.min !== undefined && f.max !== undefined) return `view = view[${n}.between(${num(f.min)}, ${num(f.max)})]  # range, both ends included`;
      if (f.min !== undefined) return `view = view[${n} >= ${num(f.min)}]`;
      if (f.max !== undefined) return `view = view[${n} <= ${num(f.max)}]`;
      return `view = view[${n}.notna()]  # a number`;
    }
    case 'contains':
      return `view = view[${col}.str.lower().str.contains(${pyString(f.text.toLowerCase())}, regex=False)]  # contains, any case`;
    case 'empty':
      return `view = view[${col} == ""]  # empty`;
    case 'nonEmpty':
      return `view = view[${col} != ""]  # not empty`;
  }
}

function loadPandas(input: NotebookInput, format: string): string[] {
  if (format === 'txt') {
    return [
      '# An address list: one address a line; a first line "address" is a header.',
      'with open(PATH, encoding="utf-8-sig") as f:',
      '    lines = f.read().splitlines()',
      'if lines and lines[0].strip().lower() == "address":',
      '    lines = lines[1:]',
      'raw = pd.DataFrame({"address": pd.array(lines, dtype="string")})',
    ];
  }
  if (format === 'json') {
    return [
      '# A JSON answer: its rows are the value itself, a known property, or the first array in it.',
      '# Nested objects become dotted columns; arrays and other values become JSON text.',
      'ROW_KEYS = ["rows", "data", "results", "items", "wallets", "creators", "swaps", "tokens"]',
      '',
      'def find_rows(value):',
      '    if isinstance(value, list):',
      '        return value',
      '    if isinstance(value, dict):',
      '        for key in ROW_KEYS:',
      '            if isinstance(value.get(key), list):',
      '                return value[key]',
      '        return next((v for v in value.values() if isinstance(v, list)), [value])',
      '    return [value]',
      '',
      'def cell_text(v):',
      '    if v is None:',
      '        return ""',
      '    if isinstance(v, str):',
      '        return v',
      '    if isinstance(v, bool):',
      '        return "true" if v else "false"',
      '    if isinstance(v, (int, float)):',
      '        return repr(int(v)) if isinstance(v, float) and v.is_integer() and abs(v) < 1e21 else repr(v)',
      '    return json.dumps(v, separators=(",", ":"), ensure_ascii=False)',
      '',
      'def flat(row, prefix=""):',
      '    if not isinstance(row, dict):',
      '        return {"value": cell_text(row)}',
      '    out = {}',
      '    for key, v in row.items():',
      '        if isinstance(v, dict) and v:',
      '            out.update(flat(v, prefix + key + "."))',
      '        else:',
      '            out[prefix + key] = cell_text(v)',
      '    return out',
      '',
      'with open(PATH, encoding="utf-8") as f:',
      '    rows = find_rows(json.load(f))',
      'raw = pd.DataFrame([flat(r) for r in rows], columns=COLUMNS, dtype="string").fillna("")',
    ];
  }
  return [
    '# Every cell is read as text first (an address must never become a number; an empty cell stays ""),',
    '# then each column gets its type from DTYPES below.',
    'raw = pd.read_csv(PATH, usecols=READ, dtype={c: "string" for c in READ}, keep_default_na=False, na_filter=False)',
  ];
}

/** Both cells read the result beside the notebook, or where it was when the notebook was written. */
function pathLines(relative: string, file: string): string[] {
  return [`PATH = ${pyString(relative)}  # beside this notebook`, 'if not os.path.exists(PATH):', `    PATH = ${pyString(file)}`];
}

function pandasCell(input: NotebookInput, format: string, relative: string): string[] {
  const q = input.query;
  const names = input.columns.map((c) => c.name);
  const search = q.search ?? '';
  const used = new Set<number>([...shownColumns(input), ...(q.filters ?? []).map((f) => f.column), ...(q.sort ?? []).map((k) => k.column)]);
  const read = search !== '' ? names : names.filter((_, i) => used.has(i));
  const dtypes = shownColumns(input).map((c) => {
    const col = input.columns[c] as NotebookColumn;
    return `    ${pyString(col.name)}: ${col.kind === 'number' ? '"float64"' : '"string"'},  # ${col.kind}`;
  });
  const lines = [
    `# Loads ${pyString(relative)} with pandas (the whole file in memory), then applies the table's view.`,
    ...(format === 'json' ? ['import json'] : []),
    'import os',
    'import re',
    '',
    'import pandas as pd',
    '',
    ...pathLines(relative, input.file),
    `COLUMNS = ${pyList(names)}`,
    ...(format === 'csv' ? [`READ = ${pyList(read)}  # the columns the view uses`] : []),
    '# The type of each chosen column: addresses and text as strings, never numbers; numbers as float64.',
    'DTYPES = {',
    ...dtypes,
    '}',
    '',
    ...loadPandas(input, format),
    '',
    '# A number is a plain decimal, as in the table ("1,000", "n/a" and "" are not numbers: NaN).',
    `DECIMAL = ${pyString(DECIMAL)}`,
    '',
    'def number(s):',
    '    return pd.to_numeric(s.astype(object).where(s.str.fullmatch(DECIMAL).fillna(False).astype(bool)), errors="coerce").astype("float64")',
    '',
    'def natural(text):',
    '    # Text order: case ignored, digit runs compared by value ("w2" before "w10").',
    '    parts = re.split(r"(\\d+)", text)',
    '    return [(len(p.lstrip("0")), p.lstrip("0")) if i % 2 else p.casefold() for i, p in enumerate(parts)], text.swapcase()',
    '',
    'def order_key(s):',
    '    # As the table sorts a column: numbers by value, then text in natural order, empty cells last (NaN).',
    '    n = number(s)',
    '    texts = sorted(set(s[n.isna() & (s != "")]), key=natural)',
    '    text_rank = s.map({t: i for i, t in enumerate(texts)}).astype("float64")',
    '    base = n.rank(method="dense").max() if n.notna().any() else 0.0',
    '    return n.rank(method="dense").fillna(base + 1 + text_rank)',
    '',
    'view = raw',
  ];
  const filters = q.filters ?? [];
  if (filters.length > 0) {
    lines.push('# The filters, all of which hold:');
    for (const f of filters) lines.push(pandasFilter(input, f));
  }
  if (search !== '') {
    lines.push('# The search: rows where some cell contains the text, any case.');
    lines.push(`SEARCH = ${pyString(search.toLowerCase())}`);
    lines.push('view = view[view.apply(lambda col: col.str.lower().str.contains(SEARCH, regex=False)).any(axis=1)]');
  }
  const sort = q.sort ?? [];
  if (sort.length > 0) {
    const keyNames = sort.map((_, i) => `k${i}`);
    lines.push('# The sort: empty cells last in either direction; ties keep file order (a stable sort).');
    lines.push('keys = pd.DataFrame({');
    sort.forEach((k, i) => lines.push(`    ${pyString(keyNames[i] ?? '')}: order_key(view[${pyString(columnName(input, k.column))}]),`));
    lines.push('}, index=view.index)');
    lines.push(
      `view = view.loc[keys.sort_values(${pyList(keyNames)}, ascending=[${sort.map((k: SortKey) => (k.descending ? 'False' : 'True')).join(', ')}], na_position="last", kind="stable").index]`,
    );
  }
  lines.push(
    '',
    '# The chosen columns, typed.',
    'df = pd.DataFrame({c: number(view[c]) if t == "float64" else view[c].astype("string") for c, t in DTYPES.items()}, index=view.index)',
    'df',
  );
  return lines;
}

// ---------------------------------------------------------------------------------------------
// DuckDB

function sqlFilter(input: NotebookInput, f: ColumnFilter): string {
  const col = sqlIdent(columnName(input, f.column));
  switch (f.kind) {
    case 'range':
      if (f.min !== undefined && f.max !== undefined) return `wa_number(${col}) BETWEEN ${num(f.min)} AND ${num(f.max)}`;
      if (f.min !== undefined) return `wa_number(${col}) >= ${num(f.min)}`;
      if (f.max !== undefined) return `wa_number(${col}) <= ${num(f.max)}`;
      return `wa_number(${col}) IS NOT NULL`;
    case 'contains':
      return `contains(lower(coalesce(${col}, '')), ${sqlString(f.text.toLowerCase())})`;
    case 'empty':
      return `coalesce(${col}, '') = ''`;
    case 'nonEmpty':
      return `coalesce(${col}, '') <> ''`;
  }
}

function duckdbSql(input: NotebookInput): string {
  const q = input.query;
  const select = shownColumns(input).map((c) => {
    const col = input.columns[c] as NotebookColumn;
    const id = sqlIdent(col.name);
    return col.kind === 'number' ? `wa_number(${id}) AS ${id}` : `coalesce(${id}, '') AS ${id}`;
  });
  const where = (q.filters ?? []).map((f) => sqlFilter(input, f));
  const search = q.search ?? '';
  if (search !== '') {
    const needle = sqlString(search.toLowerCase());
    where.push(`(${input.columns.map((c) => `contains(lower(coalesce(${sqlIdent(c.name)}, '')), ${needle})`).join('\n    OR ')})`);
  }
  const order: string[] = [];
  for (const k of q.sort ?? []) {
    const col = sqlIdent(columnName(input, k.column));
    const dir = k.descending ? 'DESC' : 'ASC';
    // Numbers, then text, then empty cells (last in either direction), as in the table.
    order.push(`wa_group(${col}) ${dir} NULLS LAST`, `wa_number(${col}) ${dir} NULLS LAST`, `wa_text(${col}) COLLATE NOCASE ${dir} NULLS LAST`);
  }
  order.push('wa_row');
  return [
    `SELECT ${select.join(',\n       ')}`,
    'FROM (SELECT *, row_number() OVER () AS wa_row FROM raw)',
    ...(where.length > 0 ? [`WHERE ${where.join('\n  AND ')}`] : []),
    `ORDER BY ${order.join(',\n         ')}`,
  ].join('\n');
}

/**
 * The DuckDB cell's SQL: the macros it defines, then the query over the relation `raw` (every
 * column VARCHAR). Exported so the unit tier runs this very SQL on DuckDB (its npm build) where
 * DuckDB for Python is missing.
 */
export function duckdbQuery(input: NotebookInput): { readonly macros: string; readonly sql: string } {
  const macros = [
    `CREATE OR REPLACE TEMP MACRO wa_number(x) AS CAST(CASE WHEN regexp_full_match(x, ${sqlString(DECIMAL)}) THEN x END AS DOUBLE);`,
    "CREATE OR REPLACE TEMP MACRO wa_group(x) AS CASE WHEN wa_number(x) IS NOT NULL THEN 0 WHEN coalesce(x, '') <> '' THEN 1 END;",
    "CREATE OR REPLACE TEMP MACRO wa_text(x) AS CASE WHEN wa_group(x) = 1 THEN x END;",
  ].join('\n');
  return { macros, sql: duckdbSql(input) };
}

function duckdbCell(input: NotebookInput, format: string, relative: string): string[] {
  const { macros, sql } = duckdbQuery(input);
  const load =
    format === 'csv'
      ? [
          '# Every column is read as VARCHAR (addresses stay text); numbers are typed in the query with wa_number.',
          'raw = duckdb.read_csv(PATH, header=True, all_varchar=True)',
        ]
      : [
          format === 'txt'
            ? '# An address list is small: read it as the pandas cell does, then query that frame.'
            : '# A JSON answer is small: read it as the pandas cell does (run that cell first), then query that frame.',
          ...(format === 'txt'
            ? [
                'with open(PATH, encoding="utf-8-sig") as f:',
                '    lines = f.read().splitlines()',
                'if lines and lines[0].strip().lower() == "address":',
                '    lines = lines[1:]',
                'import pandas as pd',
                'raw = pd.DataFrame({"address": pd.Series(lines, dtype=object)})',
              ]
            : []),
        ];
  return [
    `# For results too large for memory: DuckDB streams ${pyString(relative)} and keeps only the view.`,
    '# The same filters, search and sort as the table (text order here: case ignored; digits inside text compare as characters).',
    'import os',
    '',
    'import duckdb',
    '',
    ...pathLines(relative, input.file),
    ...load,
    `duckdb.sql(${pySqlLiteral(macros)})`,
    `SQL = ${pySqlLiteral(sql)}`,
    'result = duckdb.sql(SQL)  # result.df() for pandas, result.write_csv("view.csv") to save it',
    'result',
  ];
}

// ---------------------------------------------------------------------------------------------

function formatOf(file: string): 'csv' | 'txt' | 'json' {
  const ext = path.extname(file).toLowerCase();
  return ext === '.txt' ? 'txt' : ext === '.json' ? 'json' : 'csv';
}

/** Lines as nbformat stores a cell's source: each line but the last ends with "\n". */
function source(lines: readonly string[]): string[] {
  return lines.map((l, i) => (i < lines.length - 1 ? `${l}\n` : l));
}

const cellId = (): string => randomBytes(6).toString('hex');

/** The notebook for a result and its table view. */
export function buildNotebook(input: NotebookInput): Notebook {
  const format = formatOf(input.file);
  const base = path.basename(input.file);
  const date = (input.date ?? new Date()).toISOString().replace(/\.\d+Z$/u, 'Z');
  const intro = [
    `# ${mdText(base)}`,
    '',
    `Written by Wallet Analytics for VS Code on ${date} from the table of \`${rewriteUnsafe(base.replaceAll('`', "'"), () => ' ')}\`${input.endpoint ? ` (${mdText(input.endpoint)})` : ''}, which sits beside this notebook.`,
    '',
    ...describeView(input).map((l) => `- ${l}`),
    '',
    'The first code cell loads the file with **pandas** (the whole file in memory). The second asks **DuckDB**, which streams the file, for results too large for memory; it needs `pip install duckdb`.',
    'Addresses and other text columns are strings, never numbers; numbers are float64. Both cells read only this local file: no API call, and no key.',
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
      { cell_type: 'code', id: cellId(), metadata: {}, source: source(pandasCell(input, format, base)), outputs: [], execution_count: null },
      { cell_type: 'code', id: cellId(), metadata: {}, source: source(duckdbCell(input, format, base)), outputs: [], execution_count: null },
    ],
  };
}

/** The notebook file's text. */
export function notebookText(input: NotebookInput): string {
  return `${JSON.stringify(buildNotebook(input), null, 1)}\n`;
}

/**
 * Writes the notebook beside the result as `<result>.ipynb`, or `<result>-2.ipynb`, `-3`, … when
 * that name is taken (never over an existing file); returns the path written.
 */
export async function writeNotebook(input: NotebookInput): Promise<string> {
  const stem = path.basename(input.file).replace(/\.(csv|txt|json)$/iu, '');
  return writeNewNamed(path.dirname(input.file), '', `${stem}.ipynb`, notebookText(input));
}
