/**
 * The snippets of a `.waquery.json` file (a condition, an AND or OR group, between, in), written
 * with the commas their place needs (issue 35.15): a static snippet cannot see that it lands in
 * the middle of a list, so "cond" typed before another condition left the file with "1 problem"
 * at once. Pure: the text around the typed word in, the snippet's body out.
 */

/** One snippet: what is typed to get it, what it says, its body in VS Code's snippet syntax. */
interface QuerySnippet {
  readonly prefixes: readonly string[];
  readonly description: string;
  readonly body: string;
}

const COND = '{ "field": "${1:winrate_30d}", "op": "${2|>=,>,=,!=,<,<=|}", "value": ${3:0.5} }';
const group = (op: 'and' | 'or'): string => `{\n\t"${op}": [\n\t\t${COND.replace(/\$\{3:0\.5\} \}$/u, '${3:0.5} }$0')}\n\t]\n}`;

export const QUERY_SNIPPETS: readonly QuerySnippet[] = [
  { prefixes: ['cond', 'condition'], description: 'A condition: a field, an operator and a value', body: COND },
  { prefixes: ['and', 'group-and'], description: 'A group whose conditions must all hold', body: group('and') },
  { prefixes: ['or', 'group-or'], description: 'A group of which at least one condition must hold', body: group('or') },
  {
    prefixes: ['between', 'range'],
    description: 'A condition with a value from min to max (inclusive)',
    body: '{ "field": "${1:total_pnl_usd_30d}", "op": "between", "value": [${2:1000}, ${3:100000}] }',
  },
  {
    prefixes: ['in', 'one-of'],
    description: 'A condition whose value is one of a list',
    body: '{ "field": "${1:main_dex}", "op": "in", "value": ["${2:raydium_amm}", "${3:pumpswap}"] }',
  },
];

/** The first character that is not white space before `from` (going back) or at/after it. */
function neighbour(text: string, from: number, step: 1 | -1): string | undefined {
  for (let i = step === 1 ? from : from - 1; i >= 0 && i < text.length; i += step) {
    const c = text[i]!;
    if (!/\s/u.test(c)) return c;
  }
  return undefined;
}

/**
 * `body` as it is inserted in place of the word at [start, end) of `text`: with a comma after it
 * when another element follows (a `{`, a `"` or a `[`), and one before it when the element before
 * it ends there with none (`}`, `]`, a string's `"` or a number).
 */
export function snippetInPlace(text: string, start: number, end: number, body: string): string {
  const next = neighbour(text, end, 1);
  const prev = neighbour(text, start, -1);
  const after = next === '{' || next === '"' || next === '[' ? ',' : '';
  const before = prev !== undefined && /[}\]"\d]/u.test(prev) ? ', ' : '';
  return `${before}${body}${after}`;
}
