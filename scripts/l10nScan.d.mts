/** Types of scripts/l10nScan.mjs, for the unit test that checks the code's user-facing strings. */
export interface Sink {
  readonly start: number;
  readonly end: number;
  readonly line: number;
  readonly text: string;
}
export function scanSource(fileName: string, text: string): Sink[];
export function messagesIn(fileName: string, text: string): string[];
export const L10N_ROOTS: readonly string[];
export function untranslatedComparisons(fileName: string, text: string): Sink[];
