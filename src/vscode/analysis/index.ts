/**
 * Analysis on results, beyond showing their rows: "Compare Results…" / "Compare with…" (two
 * results by address, in the table) and "Address Sets…" (lists from several results). The data
 * work is in src/core/compare/ and src/core/addressLists/addressSets.ts; this folder asks and shows.
 */
import type * as vscode from 'vscode';
import { registerAddressSetsCommand } from './addressSetsCommand';
import { registerCompareCommands } from './compareCommand';
import type { AnalysisDeps } from './resultChoice';


export function registerAnalysisCommands(context: vscode.ExtensionContext, deps: AnalysisDeps): void {
  registerCompareCommands(context, deps);
  registerAddressSetsCommand(context, deps);
}
