/** Writing cells as CSV or TSV text, with spreadsheet formula neutralisation. */
import { isNumberText } from './numbers';

/**
 * OWASP's list of characters that make a spreadsheet read a cell as a formula: `= + - @`, and TAB
 * and CR, which a spreadsheet drops before running what follows ("\t=cmd|...").
 */
const FORMULA_START = /^[=+\-@\t\r]/u;

/**
 * A cell a spreadsheet would run as a formula (it starts with `=`, `+`, `-`, `@`, TAB or CR and
 * is not a plain number) gets a leading `'`, which spreadsheets show as text. `-12.5` and `+3`
 * stay as they are; "\t-5" is not a number and is prefixed. The one rule for every export and copy.
 */
export function neutraliseFormula(cell: string): string {
  return FORMULA_START.test(cell) && !isNumberText(cell) ? `'${cell}` : cell;
}

/** The cell quoted when it holds the delimiter, a quote or a line break (quotes doubled). */
function quoteCell(cell: string, delimiter: ',' | '\t'): string {
  const needs = cell.includes(delimiter) || cell.includes('"') || cell.includes('\n') || cell.includes('\r');
  return needs ? `"${cell.replaceAll('"', '""')}"` : cell;
}

/**
 * One line of delimited text (without its line ending). A line that would be empty (one empty
 * cell) is written `""`: readers skip blank lines, so an empty cell alone on its line would vanish
 * and the rows after it move up (a one-column address list lost a row per empty cell).
 */
export function formatLine(cells: readonly string[], delimiter: ',' | '\t', neutralise: boolean): string {
  if (cells.length === 1 && cells[0] === '') return '""';
  let line = '';
  for (let i = 0; i < cells.length; i++) {
    const cell = cells[i] ?? '';
    if (i > 0) line += delimiter;
    line += quoteCell(neutralise ? neutraliseFormula(cell) : cell, delimiter);
  }
  return line;
}
