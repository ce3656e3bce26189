/**
 * Every string a person reads goes through `l10n.t` (issue 26: localisable), here, in one owner for
 * the core, the extension host and the webviews alike. It lives in core, the lowest floor, because
 * core's own messages (typed errors, input checks, prices, plans, watches…) reach people too, and
 * core imports no other floor; shared/l10n.ts re-exports it for the host and the webviews. It is
 * Microsoft's `@vscode/l10n`, which formats `{0}` arguments and looks a message up in a bundle
 * exactly as `vscode.l10n.t` does, and runs where `vscode` cannot be imported (core/, webview-ui/,
 * the table worker). The extension host hands it `vscode.l10n.bundle` at activation; a webview
 * reads the same bundle from its page (tableHtml.ts); the table worker gets it with its start
 * (remoteTable.ts). With no bundle (English), `t` formats the message as written. A message is
 * looked up when it is made, never at load: a module-level constant would be English before any
 * bundle arrives. scripts/l10n.mjs keeps l10n/bundle.l10n.json (the English source) current.
 */
import * as l10n from '@vscode/l10n';

export { l10n };

let current: Record<string, string> | undefined;

/** Uses a translation bundle (message → translation); none, or an empty one, is English. */
export function useBundle(contents: Record<string, string> | undefined): void {
  current = contents && Object.keys(contents).length > 0 ? contents : undefined;
  l10n.config({ contents: current ?? {} });
}

/** The bundle in use (for a thread that starts with its own copy of this module), or undefined for English. */
export function bundleInUse(): Record<string, string> | undefined {
  return current;
}
