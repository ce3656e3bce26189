/** Types of scripts/l10n.mjs, for the unit test that checks the English bundle is current. */
export const BUNDLE: string;
export function sourceFiles(): string[];
export function bundleText(files: readonly string[]): string;
export function localise(): number;
