/**
 * How a value reaches the notebook's code (notebook.ts) as a literal, never raw: Python strings
 * (JSON syntax, with every line end Python or IPython knows escaped), SQL identifiers, and
 * Markdown text. A column named `x"; import os` stays data (issue 21). Pure.
 */

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

/** A quoted SQL identifier (DuckDB: double quotes, doubled inside). */
export function sqlIdent(s: string): string {
  return `"${s.replaceAll('"', '""')}"`;
}

/** Markdown text with its special characters escaped (a file name is shown, never interpreted). */
export function mdText(s: string): string {
  return rewriteUnsafe(s.replace(/[\\`*_[\]<>|~#]/gu, (c) => `\\${c}`), () => ' ');
}

