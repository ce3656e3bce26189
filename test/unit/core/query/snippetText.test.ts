/**
 * Issue 35.15: a query snippet typed in the middle of a list brings the comma its place needs, so
 * the file has no problem at once; at the end of a list or alone it brings none.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseTree, type ParseError } from 'jsonc-parser';
import { QUERY_SNIPPETS, snippetInPlace } from '../../../../src/core/query/snippetText';

/** The snippet as inserted with its placeholders at their defaults (what Escape leaves). */
function expand(body: string): string {
  return body
    .replace(/\$\{\d+:([^}]*)\}/gu, '$1')
    .replace(/\$\{\d+\|([^,|]*)[^}]*\}/gu, '$1')
    .replace(/\$\d+/gu, '');
}

/** `text` with `word` (at its `|`) replaced by the snippet, and the parse errors of the result. */
function typed(template: string, word: string, body: string): { text: string; errors: ParseError[] } {
  const at = template.indexOf('|');
  const text = template.replace('|', word);
  const inserted = snippetInPlace(text, at, at + word.length, body);
  const out = `${text.slice(0, at)}${expand(inserted)}${text.slice(at + word.length)}`;
  const errors: ParseError[] = [];
  parseTree(out, errors, { allowTrailingComma: false, disallowComments: false });
  return { text: out, errors };
}

const A = '{ "field": "winrate_7d", "op": ">", "value": 0.5 }';
const PLACES: Record<string, string> = {
  'before another condition': `{ "where": { "and": [\n  |\n  ${A}\n] } }`,
  'between two conditions': `{ "where": { "and": [\n  ${A},\n  |\n  ${A}\n] } }`,
  'after the last condition (no comma typed)': `{ "where": { "and": [\n  ${A}\n  |\n] } }`,
  'after the last condition (comma typed)': `{ "where": { "and": [\n  ${A},\n  |\n] } }`,
  'alone in the list': '{ "where": { "and": [\n  |\n] } }',
};

describe('query snippets bring the commas of their place (issue 35.15)', () => {
  for (const s of QUERY_SNIPPETS) {
    for (const [place, template] of Object.entries(PLACES)) {
      it(`${s.prefixes[0] ?? ''} ${place}: no problem`, () => {
        const { text, errors } = typed(template, s.prefixes[0] ?? '', s.body);
        assert.deepEqual(errors, [], text);
      });
    }
  }

  it('the plain body, as the static snippet inserted it mid-list, was a problem', () => {
    const cond = QUERY_SNIPPETS[0]!;
    const template = PLACES['before another condition']!;
    const at = template.indexOf('|');
    const errors: ParseError[] = [];
    parseTree(`${template.slice(0, at)}${expand(cond.body)}${template.slice(at + 1)}`, errors, { allowTrailingComma: false });
    assert.ok(errors.length > 0);
  });
});
