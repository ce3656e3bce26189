/**
 * The first line of the entry bundle to run (src/extension.ts imports it before `vscode`), so the
 * entry can tell how long its own loading took from here to its module's end: mostly the extension
 * host building this extension's `vscode` API object on the first require('vscode'), which VS Code's
 * own activation figure counts as code loading (bench/activationBench.ts prints it beside the figure).
 */
export const entryLoadStarted = performance.now();
