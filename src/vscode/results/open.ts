import * as vscode from 'vscode';
import { registerTextDocumentContentProvider } from '../base/handOver';
import * as fs from 'node:fs/promises';
import { openInTable } from '../table/tableEditor';
import { tableFilesIn } from '../../core/results/files';
import { l10n } from '../../shared/l10n';
import { showWarning } from '../base/errors';
import { RESULT_SCHEME } from '../base/ids';


/** Serves result files read-only under RESULT_SCHEME. */
export function registerResultScheme(context: vscode.ExtensionContext): void {
  context.subscriptions.push(
    registerTextDocumentContentProvider(RESULT_SCHEME, {
      provideTextDocumentContent: async (uri) => fs.readFile(uri.fsPath, 'utf8'),
    }),
  );
}

/**
 * Opens a result in the Wallet Analytics Table: a .csv, a .txt address list, a saved .json
 * direct result, or an extracted .zip folder (its first table file, with a switcher among the
 * others). A folder with no table file is revealed instead.
 */
export async function openResult(p: string): Promise<void> {
  const st = await fs.stat(p);
  if (st.isDirectory() && (await tableFilesIn(p)).length === 0) {
    await vscode.commands.executeCommand('revealFileInOS', vscode.Uri.file(p));
    return;
  }
  await openInTable(p);
}

/**
 * The actions a finished result offers: two, so a toast shows them and its source whole (four
 * squeezed the source to "S…", three to "Source: Wallet A…"). The raw file is the table's Raw File
 * button away, the path a right-click in the Explorer.
 */
export async function offerResult(message: string, p: string, severity: 'info' | 'warning' = 'info'): Promise<void> {
  const show = severity === 'warning' ? showWarning : (m: string, ...a: string[]) => vscode.window.showInformationMessage(m, ...a);
  const pick = await show(message, 'Open', 'Reveal in Explorer');
  if (pick === 'Open') await openResult(p);
  else if (pick === l10n.t('Reveal in Explorer')) await vscode.commands.executeCommand('revealInExplorer', vscode.Uri.file(p));
}
