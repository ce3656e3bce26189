/**
 * "Compare Results…" (palette, two files selected in the Explorer) and "Compare with…" (a
 * Requests item, a table's title bar): two results with an address column, compared by address
 * and shown in the Wallet Analytics Table. The comparison is saved as a small `.compare.json` in
 * the results folder's `compares/` and opened like any result, so the table editor, its session
 * and its worker show it (src/core/compare/), and it can be opened again from the Explorer.
 */
import * as vscode from 'vscode';
import { registerCommand } from '../base/handOver';
import * as path from 'node:path';
import { saveComparison } from '../../core/table/compare/compareFile';
import { CommandIds } from '../base/ids';
import { openInTable } from '../table/tableEditor';
import { pickOneResult, resultItems, tableFile, targetPaths, type AnalysisDeps } from './resultChoice';
import { l10n } from '../../shared/l10n';
import { showErrorIn } from '../base/errors';

/** Saves the comparison of two results (table files or result folders) and opens it; returns the comparison file, undefined when a file pick was dismissed. */
async function compareResults(deps: AnalysisDeps, a: string, b: string): Promise<string | undefined> {
  // One after the other: a result folder of several files asks which one, and two picks never overlap.
  const fa = await tableFile(deps, a, 'A');
  if (!fa) return undefined;
  const fb = await tableFile(deps, b, 'B');
  if (!fb) return undefined;
  if (path.resolve(fa) === path.resolve(fb)) throw new Error(`Pick two different results: both are ${path.basename(fa)}.`);
  const file = await saveComparison(deps.resultsFolder(), fa, fb);
  await openInTable(file);
  return file;
}

export function registerCompareCommands(context: vscode.ExtensionContext, deps: AnalysisDeps): void {
  /** Asks for what is missing of A and B, then compares. */
  const run = async (given: readonly string[]): Promise<string | undefined> => {
    let [a, b] = given;
    if (given.length > 2) {
      void vscode.window.showInformationMessage(l10n.t('{0} selected; comparing the first two.', given.length));
    }
    if (!a) {
      a = await pickOneResult(await resultItems(deps), { title: l10n.t('Compare Results (1/2): A'), placeHolder: l10n.t('The first result (A): rows only in A, only in B and in both; Δ = B − A') });
      if (!a) return undefined;
    }
    if (!b) {
      const first = a;
      const items = (await resultItems(deps)).filter((i) => i.file !== first);
      b = await pickOneResult(items, { title: l10n.t('Compare {0} (A) with… (B)', path.basename(first)), placeHolder: l10n.t('The second result (B), for example a later run of the same endpoint') });
      if (!b) return undefined;
    }
    return compareResults(deps, a, b);
  };
  const command = async (target?: unknown, selection?: unknown): Promise<string | undefined> => {
    try {
      return await run(await targetPaths(deps, target, selection));
    } catch (e) {
      void showErrorIn(l10n.t('Compare'), e);
      return undefined;
    }
  };
  context.subscriptions.push(
    registerCommand(CommandIds.compareResults, command),
    // The same flow with A given (a Requests item, a table): only B is asked.
    registerCommand(CommandIds.compareWith, command),
  );
}
