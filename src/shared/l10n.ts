/**
 * Every string a person reads goes through `l10n.t` (issue 26: localisable), here, in one owner for
 * the extension host, the core and the webviews alike. It is Microsoft's `@vscode/l10n`, which
 * formats `{0}` arguments and looks a message up in a bundle exactly as `vscode.l10n.t` does, and
 * runs where `vscode` cannot be imported (core/, webview-ui/). The extension host hands it
 * `vscode.l10n.bundle` at activation; a webview reads the same bundle from its page (tableHtml.ts).
 * With no bundle (English), `t` formats the message as written. `@vscode/l10n-dev export` finds the
 * calls, and scripts/l10n.mjs keeps l10n/bundle.l10n.json (the English source) current.
 */
import * as l10n from '@vscode/l10n';

export { l10n };

/** The page's meta element that carries the bundle into a webview. */
export const L10N_META = 'wa-l10n';

/** Uses a translation bundle (message → translation), if there is one. */
export function useBundle(contents: Record<string, string> | undefined): void {
  if (contents && Object.keys(contents).length > 0) l10n.config({ contents });
}
