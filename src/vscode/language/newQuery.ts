import * as vscode from 'vscode';
import { EXAMPLE_QUERY } from '../../core/query/example';
import { l10n } from '../../shared/l10n';
import { showError } from '../base/errors';
import { askText } from '../base/personQuestions';
import { nthName } from '../../core/files/naming';
import { writeNewInside } from '../../core/files/writeInside';
import * as path from 'node:path';

const SUFFIX = '.waquery.json';

async function exists(uri: vscode.Uri): Promise<boolean> {
  try {
    await vscode.workspace.fs.stat(uri);
    return true;
  } catch {
    return false;
  }
}

/**
 * Creates an example `.waquery.json` (a working query whose comments explain the model) and
 * opens it: at the given Uri, else under a name asked for in the first workspace folder, else
 * as an untitled file named *.waquery.json (so the schema and the language still apply).
 */
export async function newQueryFile(target?: vscode.Uri): Promise<vscode.Uri | undefined> {
  let uri = target;
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  if (!uri && folder) {
    let n = 1;
    const nameFor = (i: number): string => nthName(`wallets${SUFFIX}`, i, SUFFIX);
    while (await exists(vscode.Uri.joinPath(folder, nameFor(n)))) n++;
    const suggested = nameFor(n);
    const name = await askText({
      title: l10n.t('New Wallet Database Query'),
      prompt: l10n.t('File name in {0}; it ends in {1}', vscode.workspace.asRelativePath(folder), SUFFIX),
      value: suggested,
      valueSelection: [0, suggested.length - SUFFIX.length],
      validateInput: (v) => (/^[^\\/:*?"<>|]+$/u.test(v.trim()) ? undefined : 'A file name, without folders or special characters.'),
    });
    if (name === undefined) return undefined;
    const file = name.trim().endsWith(SUFFIX) ? name.trim() : `${name.trim().replace(/\.json$/u, '')}${SUFFIX}`;
    uri = vscode.Uri.joinPath(folder, file);
    if (await exists(uri)) {
      void showError(l10n.t('{0} already exists; nothing was overwritten.', file));
      return undefined;
    }
  }
  if (uri) {
    // On disk: a new file only, never over one or through a link (files/writeInside.ts); elsewhere, VS Code's file system.
    if (uri.scheme === 'file') {
      if (!(await writeNewInside(path.dirname(uri.fsPath), path.basename(uri.fsPath), EXAMPLE_QUERY))) {
        void showError(l10n.t('{0} already exists; nothing was overwritten.', path.basename(uri.fsPath)));
        return undefined;
      }
    } else await vscode.workspace.fs.writeFile(uri, Buffer.from(EXAMPLE_QUERY, 'utf8'));
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri), { preview: false });
    return uri;
  }
  const untitled = vscode.Uri.from({ scheme: 'untitled', path: `wallets${SUFFIX}` });
  const editor = await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(untitled), { preview: false });
  await editor.edit((e) => e.insert(new vscode.Position(0, 0), EXAMPLE_QUERY));
  return untitled;
}
