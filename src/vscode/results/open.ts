import * as vscode from 'vscode';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';

/** The read-only scheme for JSON results (until the table view shows them). */
export const RESULT_SCHEME = 'wallet-analytics-result';

/** Serves result files read-only under RESULT_SCHEME, so a result is never edited by accident. */
export function registerResultScheme(context: vscode.ExtensionContext): void {
  context.subscriptions.push(
    vscode.workspace.registerTextDocumentContentProvider(RESULT_SCHEME, {
      provideTextDocumentContent: async (uri) => fs.readFile(uri.fsPath, 'utf8'),
    }),
  );
}

/** Opens a result: a folder (extracted .zip) is revealed, a file is shown read-only. */
export async function openResult(p: string): Promise<void> {
  const st = await fs.stat(p);
  if (st.isDirectory()) {
    const first = (await fs.readdir(p)).filter((n) => /\.(csv|txt)$/iu.test(n)).sort()[0];
    if (!first) {
      await vscode.commands.executeCommand('revealFileInOS', vscode.Uri.file(p));
      return;
    }
    p = path.join(p, first);
  }
  const uri = vscode.Uri.file(p).with({ scheme: RESULT_SCHEME });
  const doc = await vscode.workspace.openTextDocument(uri);
  if (/\.json$/iu.test(p)) await vscode.languages.setTextDocumentLanguage(doc, 'json');
  await vscode.window.showTextDocument(doc, { preview: false });
}

/** The three actions a finished result offers. */
export async function offerResult(message: string, p: string): Promise<void> {
  const pick = await vscode.window.showInformationMessage(message, 'Open', 'Reveal in Explorer', 'Copy Path');
  if (pick === 'Open') await openResult(p);
  else if (pick === 'Reveal in Explorer') await vscode.commands.executeCommand('revealInExplorer', vscode.Uri.file(p));
  else if (pick === 'Copy Path') await vscode.env.clipboard.writeText(p);
}
