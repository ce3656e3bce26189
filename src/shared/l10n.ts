/**
 * The strings owner (src/core/l10n.ts), as the extension host and the webviews reach it: shared
 * re-exports it rather than owning a second copy, since core may not import shared. What only the
 * webview page needs (the meta element carrying the bundle) is here.
 */
export { l10n, useBundle } from '../core/l10n';

/** The page's meta element that carries the bundle into a webview. */
export const L10N_META = 'wa-l10n';
