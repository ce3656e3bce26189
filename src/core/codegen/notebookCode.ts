import { l10n } from '../l10n';
/**
 * How a value reaches the notebook's code (notebook.ts) as a literal, never raw: Python strings
 * (JSON syntax, with every line end Python or IPython knows escaped), SQL strings and identifiers,
 * numbers, the SQL as one Python literal, and Markdown text. A column named `x"; import os` stays
 * data (issue 21). Pure.
 */

/** The table's rule for a number (src/core/table/numbers.ts), shared by the pandas and SQL code. */
// Written without backslashes, so the SQL that holds it stays a raw Python string.
export const DECIMAL = '[+-]?(?:[0-9]+[.]?[0-9]*|[.][0-9]+)(?:[eE][+-]?[0-9]+)?';

/**
 * What must never stand raw in generated code: every character Python's str.splitlines ends a line
 * at (\n, \r, VT, FF, FS, GS, RS, NEL, U+2028, U+2029), which IPython and Jupyter split a cell at
 * before Python reads it, and every other control character. A name that carried one into a
 * comment or a string could end it, and what followed would run (issue 21).
 */
function unsafeInCode(c: number): boolean {
  return c < 0x20 || (c >= 0x7f && c < 0xa0) || c === 0x2028 || c === 0x2029;
}

/** s with each character unsafeInCode rewritten by f. */
export function rewriteUnsafe(s: string, f: (c: number) => string): string {
  let out = '';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    out += unsafeInCode(c) ? f(c) : s[i];
  }
  return out;
}

/**
 * A Python string literal for any text, the one way a name reaches the code (comments included):
 * JSON string syntax is valid Python, and what JSON leaves raw but Python or IPython would read as
 * a line end (NEL, U+2028, U+2029) or a control (DEL, C1) is written as a \u escape.
 */
export function pyString(s: string): string {
  return rewriteUnsafe(JSON.stringify(s), (c) => `\\u${c.toString(16).padStart(4, '0')}`);
}

/** Whether text may stand raw in generated code (no line end of any kind, no control character). */
function safeInCode(s: string): boolean {
  for (let i = 0; i < s.length; i++) if (unsafeInCode(s.charCodeAt(i))) return false;
  return true;
}

/** A SQL string literal. */
export function sqlString(s: string): string {
  return `'${s.replaceAll("'", "''")}'`;
}

/** A quoted SQL identifier (DuckDB: double quotes, doubled inside). */
export function sqlIdent(s: string): string {
  return `"${s.replaceAll('"', '""')}"`;
}

/** A number as Python and SQL read it (finite only; the protocol refuses others). */
export function num(n: number): string {
  if (!Number.isFinite(n)) throw new RangeError(l10n.t('A filter bound must be a finite number, not {0}.', n));
  return String(n);
}

/** Text of the whole SQL as a Python literal: raw triple-quoted when that is safe, else a JSON string. */
export function pySqlLiteral(sql: string): string {
  const body = `\n${sql}\n`;
  // The SQL's own line ends are \n; any other break or control (from a name) goes through pyString's escapes.
  if (!sql.includes('\\') && safeInCode(sql.replaceAll('\n', ' '))) {
    if (!body.includes("'''")) return `r'''${body}'''`;
    if (!body.includes('"""')) return `r"""${body}"""`;
  }
  return pyString(sql);
}

/** Markdown text with its special characters escaped (a file name is shown, never interpreted). */
export function mdText(s: string): string {
  return rewriteUnsafe(s.replace(/[\\`*_[\]<>|~#]/gu, (c) => `\\${c}`), () => ' ');
}

