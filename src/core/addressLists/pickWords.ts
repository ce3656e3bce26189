/**
 * The Address Sets results step's words and its Enter (issue 35 item 16): its placeholder was cut
 * ("Pick two or more results with an address column (Space to pick, Enter to go…"), and Enter with
 * one result picked did nothing. Each placeholder fits PLACEHOLDER_MAX characters, what a quick
 * pick's box shows whole at the workbench's default width; Enter with fewer than two picked takes
 * the highlighted result too, and with still one, goes on to ask for the second. Pure.
 */
import { l10n } from '../l10n';
import { thousands } from '../numberText';

/** The most characters a placeholder may have and still read whole. */
export const PLACEHOLDER_MAX = 68;

/** The results step's placeholder: what to do, the reading, or every operation's count. */
export function resultsPlaceholder(s: { readonly picked: number; readonly reading: number; readonly counts?: { readonly all: number; readonly any: number; readonly onlyFirst: number } }): string {
  if (s.picked < 2) return l10n.t('Space picks a result; Enter goes on');
  if (s.reading > 0 || !s.counts) return l10n.t('Reading the addresses of {0} result{1}…', s.reading, s.reading === 1 ? '' : 's');
  return l10n.t('{0} in all · {1} in any · {2} only in the first', thousands(s.counts.all), thousands(s.counts.any), thousands(s.counts.onlyFirst));
}

/** What Enter does on the results step: go on with two or more, ask for the second with one, nothing with none. */
export function acceptResults(picked: readonly string[], highlighted: readonly string[]): { readonly kind: 'go'; readonly files: string[] } | { readonly kind: 'second'; readonly first: string } | { readonly kind: 'none' } {
  const files = [...picked, ...highlighted.filter((f) => !picked.includes(f))];
  if (files.length >= 2) return { kind: 'go', files };
  const first = files[0];
  return first === undefined ? { kind: 'none' } : { kind: 'second', first };
}
