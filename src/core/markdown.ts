/**
 * Server strings (a column's description, a job's error, a request id, a field's allowed values)
 * go into Markdown hovers and tooltips. Written as they come, `[x](command:…)` makes a link,
 * `<img …>` a tag, `**x**` bold and `$(icon)` an icon. These helpers make such a string literal
 * text in Markdown, so only our own text decides what a tooltip shows or links to.
 */

/** Every ASCII punctuation character: CommonMark lets each be backslash-escaped, and then it is literal. */
const PUNCTUATION = /[!-/:-@[-`{-~]/gu;
/** Line breaks and other control characters: a line break could end a paragraph and start a heading or list. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const CONTROL = /[\u0000-\u001f\u007f]+/gu;

/**
 * `s` as literal Markdown text: every ASCII punctuation character backslash-escaped (links,
 * emphasis, code, HTML tags, entities, `$(icon)` and autolinks lose their meaning) and runs of
 * control characters, line breaks included, written as one space.
 */
export function escapeMarkdown(s: string): string {
  return s.replace(CONTROL, ' ').replace(PUNCTUATION, '\\$&');
}

/** `s` as an inline code span whose fence is longer than any run of backticks inside it. */
export function markdownCode(s: string): string {
  const text = s.replace(CONTROL, ' ');
  const fence = '`'.repeat(longestRun(text) + 1);
  // A space on each side keeps a leading or trailing backtick inside the span (CommonMark strips one each side).
  const pad = text.startsWith('`') || text.endsWith('`') ? ' ' : '';
  return `${fence}${pad}${text}${pad}${fence}`;
}

/** A fenced code block whose fence is longer than any run of backticks in `code`. */
export function markdownCodeBlock(code: string, language = ''): string {
  const fence = '`'.repeat(Math.max(3, longestRun(code) + 1));
  return `${fence}${language}\n${code}\n${fence}\n`;
}

function longestRun(s: string): number {
  let longest = 0;
  for (const m of s.matchAll(/`+/gu)) longest = Math.max(longest, m[0].length);
  return longest;
}
