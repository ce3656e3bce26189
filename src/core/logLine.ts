/**
 * One logged call is one log line: every character that could end a line (CR, LF, VT, FF, NEL,
 * U+2028, U+2029) or act on a terminal (other C0 and C1 controls, DEL) is written as a visible
 * escape, so a value from a server, a file or a webview (an error text, a file name, a request id)
 * cannot start a line of its own that reads like one the extension wrote (issue 21). Tabs stay.
 * The log channel (src/vscode/base/log.ts) passes every line through here; core code logs through
 * callbacks that end there.
 *
 * A log is plain text: the icon syntax of a picker's label ("$(play) Run — 50 credits", logged as
 * the price shown) is dropped, so the line reads as the words the person saw (issue 35.18).
 */

/** `$(name)` or `$(name~spin)` with the space after it: only an icon's name, so `$(cat "a b")` stays. */
const ICON = /\$\([a-z][a-z0-9-]*(?:~[a-z]+)?\) ?/gu;

const NAMED: Readonly<Record<number, string>> = { 0x0a: '\\n', 0x0d: '\\r' };

function escaped(c: number): string | undefined {
  if (c === 0x09) return undefined;
  if (c < 0x20 || (c >= 0x7f && c < 0xa0) || c === 0x2028 || c === 0x2029) return NAMED[c] ?? `\\u${c.toString(16).padStart(4, '0')}`;
  return undefined;
}

/** text as one line: line ends and control characters written as \n, \r or \uXXXX, icon syntax dropped. */
export function logLine(raw: string): string {
  const text = raw.replace(ICON, '');
  let out = '';
  let from = 0;
  for (let i = 0; i < text.length; i++) {
    const e = escaped(text.charCodeAt(i));
    if (e === undefined) continue;
    out += text.slice(from, i) + e;
    from = i + 1;
  }
  return from === 0 ? text : out + text.slice(from);
}
