/** Byte values the CSV code looks for, and small helpers over byte ranges. */

export const LF = 10;
export const CR = 13;
export const QUOTE = 34;
export const COMMA = 44;
export const SEMICOLON = 59;
export const SPACE = 32;
export const TAB = 9;

/** End of a row's content: `end` with trailing CR/LF bytes (terminator, blank lines) removed. */
export function trimLineEnd(buf: Uint8Array, start: number, end: number): number {
  let e = end;
  while (e > start) {
    const b = buf[e - 1];
    if (b !== LF && b !== CR) break;
    e--;
  }
  return e;
}

/** True when the three bytes at `at` are the UTF-8 byte-order mark. */
export function hasBom(buf: Uint8Array, at = 0): boolean {
  return buf[at] === 0xef && buf[at + 1] === 0xbb && buf[at + 2] === 0xbf;
}
