/**
 * A parsed list of addresses (spec/listParse.ts: the parser, there so that the table worker parses a
 * list source's column with it) in words: its bad entries with their lines, its duplicates' count.
 */
import { l10n } from '../l10n';
import { thousands } from '../numberText';
import type { ParsedList } from '../spec/listParse';

export { parseAddressList, parseAddressListSliced, PARSE_SLICE, type ParsedList } from '../spec/listParse';

/**
 * The bad entries of a list in words, each with its line: every one up to `max`, then how many
 * more ("line 2 “abc” (too short); line 5 “x” (…); and 3 more"); undefined when there is none.
 */
export function badEntriesText(parsed: ParsedList, max = 5): string | undefined {
  const n = parsed.invalid.length;
  if (n === 0) return undefined;
  const shown = parsed.invalid.slice(0, max).map((b) => l10n.t('line {0} “{1}” ({2})', b.line, b.value.length > 24 ? `${b.value.slice(0, 24)}…` : b.value, b.reason));
  const more = n > max ? l10n.t('; and {0} more', thousands(n - max)) : '';
  return n === 1 ? l10n.t('{0} entry is not an address: {1}{2}.', thousands(n), shown.join('; '), more) : l10n.t('{0} entries are not addresses: {1}{2}.', thousands(n), shown.join('; '), more);
}

/** "2 duplicates removed." (or undefined): a list never loses entries without saying so. */
export function duplicatesText(parsed: ParsedList): string | undefined {
  const d = parsed.duplicates;
  return d === 0 ? undefined : d === 1 ? l10n.t('{0} duplicate removed.', thousands(d)) : l10n.t('{0} duplicates removed.', thousands(d));
}
