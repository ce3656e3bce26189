/** The wording of what went wrong in a CSV file, with the row and line a person can go to. */
import type { RaggedRows } from './csvColumnPass';
import { COMMA } from './bytes';
import { delimiterName, type Dialect } from './csvDialect';
import type { ScanProblems } from './csvIndexer';
import { formatCount, place } from './notices';
import { MAX_ROW_BYTES, type RowOffsets } from './rowOffsets';
import type { TableNotice } from './types';
import { l10n } from '../l10n';

/** Turns physical rows (the header is row 0 of a CSV) into places a person can find. */
export class Places {
  constructor(
    private readonly offsets: RowOffsets,
    private readonly headerRows: number,
  ) {}

  /** "row 12 (line 13)", or "the header (line 1)". */
  where(p: number): string {
    if (p < this.headerRows) return `the header (line ${this.offsets.line(p)})`;
    return place(p - this.headerRows + 1, this.offsets.line(p));
  }

  /** The 1-based data row (absent for the header) and file line of physical row p. */
  rowAndLine(p: number): { row?: number; line: number } {
    const line = this.offsets.line(p);
    return p < this.headerRows ? { line } : { row: p - this.headerRows + 1, line };
  }
}

export const BOM_NOTICE: TableNotice = { code: 'bom', severity: 'info', message: 'The file starts with a byte-order mark (BOM); it was ignored.' };

/**
 * How the file was read when it is not comma-separated with LF or CRLF line endings: said once at
 * open, so a person knows why the columns are what they are. Undefined for an ordinary CSV.
 */
export function dialectNotice(dialect: Dialect, columns: number): TableNotice | undefined {
  const parts: string[] = [];
  if (dialect.delimiter !== COMMA) {
    const name = delimiterName(dialect.delimiter);
    parts.push(`Read as ${name}-separated (${dialect.because ?? `its cells are separated by ${name}s`}): ${formatCount(columns)} column${columns === 1 ? '' : 's'}.`);
  }
  if (dialect.crEnds) parts.push('Its lines end with CR (as old Mac files do), alone or mixed with LF and CRLF: each is read as the end of a row.');
  if (parts.length === 0) return undefined;
  return { code: 'dialect', severity: 'info', message: parts.join(' ') };
}

/** Notices for what the row scan found; `end` is where the file ended. */
export function scanNotices(problems: ScanProblems, offsets: RowOffsets, places: Places, delimited: boolean, end: number): TableNotice[] {
  const out: TableNotice[] = [];
  const rows = offsets.length;
  if (rows === 0) out.push({ code: 'emptyFile', severity: 'warning', message: l10n.t('The file is empty: it has no header and no rows.') });
  else if (delimited && rows === 1) out.push({ code: 'headerOnly', severity: 'info', message: l10n.t('The file has a header but no data rows.') });
  const { unterminatedQuote: open, malformedQuotes: bad, firstMalformedQuote: firstBad, firstInvalidUtf8: utf8 } = problems;
  if (open) {
    out.push({
      code: 'unterminatedQuote',
      severity: 'error',
      message: l10n.t('A quoted cell opened at {0} is never closed: everything after it, {1} bytes, is read as one cell.', places.where(open.row), formatCount(end - open.offset)),
      ...places.rowAndLine(open.row),
    });
  }
  if (bad > 0 && firstBad) {
    const one = bad === 1;
    out.push({
      code: 'malformedQuote',
      severity: 'warning',
      message: one
        ? l10n.t('{0} quote inside quoted cells is neither doubled nor closing the cell, first at {1}; kept as characters.', formatCount(bad), places.where(firstBad.row))
        : l10n.t('{0} quotes inside quoted cells are neither doubled nor closing the cell, first at {1}; kept as characters.', formatCount(bad), places.where(firstBad.row)),
      count: bad,
      ...places.rowAndLine(firstBad.row),
    });
  }
  if (utf8 !== undefined && rows > 0) {
    const p = offsets.rowAt(utf8);
    out.push({
      code: 'invalidUtf8',
      severity: 'warning',
      message: l10n.t('The file is not valid UTF-8 from {0} (byte {1}); such bytes are shown as �. Later places are not listed.', places.where(p), formatCount(utf8)),
      ...places.rowAndLine(p),
    });
  }
  const long = offsets.longRows();
  if (long.count > 0) {
    const one = long.count === 1;
    out.push({
      code: 'longRow',
      severity: 'warning',
      message: one
        ? l10n.t('{0} row is longer than {1} MiB, first {2}; only that much of each is read.', formatCount(long.count), MAX_ROW_BYTES >> 20, places.where(long.first))
        : l10n.t('{0} rows are longer than {1} MiB, first {2}; only that much of each is read.', formatCount(long.count), MAX_ROW_BYTES >> 20, places.where(long.first)),
      count: long.count,
      ...places.rowAndLine(long.first),
    });
  }
  return out;
}

/**
 * Rows whose cell count is not the header's. `complete` once every row was walked; before that
 * (only the first rows seen) the count is left out.
 */
export function raggedNotice(ragged: RaggedRows, columns: number, headerRows: number, places: Places, complete: boolean): TableNotice {
  const { count, firstRow, firstCells } = ragged;
  const p = firstRow + headerRows;
  const rows = !complete ? l10n.t('Some rows do') : count === 1 ? l10n.t('{0} row does', formatCount(count)) : l10n.t('{0} rows do', formatCount(count));
  return {
    code: 'raggedRows',
    severity: 'warning',
    message: l10n.t('{0} not have the header\'s {1} cells, first {2} with {3}; missing cells are shown empty and extra cells are dropped.', rows, formatCount(columns), places.where(p), formatCount(firstCells)),
    ...(complete ? { count } : {}),
    ...places.rowAndLine(p),
  };
}
