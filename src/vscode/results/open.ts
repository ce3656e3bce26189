import * as vscode from 'vscode';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { openInTable } from '../table/tableEditor';
import { tableFilesIn } from '../../core/results/files';
import { l10n } from '../../shared/l10n';
import { showWarning } from '../base/errors';

/** The read-only scheme for a result's raw text, so a result is never edited by accident. */
export const RESULT_SCHEME = 'wallet-analytics-result';

/** Serves result files read-only under RESULT_SCHEME. */
export function registerResultScheme(context: vscode.ExtensionContext): void {
  context.subscriptions.push(
    vscode.workspace.registerTextDocumentContentProvider(RESULT_SCHEME, {
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

/** Largest file opened as raw text: above it VS Code's text editor is slow or refuses, and the table is the way. */
const RAW_MAX_BYTES = 50 * 1024 * 1024;

/** Opens a result's raw file read-only in a text editor (a folder: its first table file). */
export async function openResultRaw(p: string): Promise<void> {
  const st = await fs.stat(p);
  if (st.isDirectory()) {
    const first = (await tableFilesIn(p))[0];
    if (!first) {
      await vscode.commands.executeCommand('revealFileInOS', vscode.Uri.file(p));
      return;
    }
    return openResultRaw(first);
  }
  if (st.size > RAW_MAX_BYTES) {
    const pick = await showWarning(
      l10n.t('{0} is {1} MB: too large to read as text comfortably. Open it in the table instead?', path.basename(p), (st.size / 1024 / 1024).toFixed(0)),
      l10n.t('Open in Table'),
      l10n.t('Reveal in Explorer'),
    );
    if (pick === l10n.t('Open in Table')) await openInTable(p);
    else if (pick === l10n.t('Reveal in Explorer')) await vscode.commands.executeCommand('revealInExplorer', vscode.Uri.file(p));
    return;
  }
  const uri = vscode.Uri.file(p).with({ scheme: RESULT_SCHEME });
  const doc = await vscode.workspace.openTextDocument(uri);
  if (/\.json$/iu.test(p)) await vscode.languages.setTextDocumentLanguage(doc, 'json');
  await vscode.window.showTextDocument(doc, { preview: false });
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
