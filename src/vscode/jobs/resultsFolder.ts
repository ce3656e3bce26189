import * as vscode from 'vscode';
import * as path from 'node:path';
import { readSettings } from '../config';

/**
 * Where results are written: `walletAnalytics.resultsFolder` if set (absolute, or relative to the
 * first workspace folder), else `.wallet-analytics/results/` in the first workspace folder, else
 * the extension's global storage when no folder on disk is open (a virtual folder, such as a
 * remote repository opened without a clone, has no path to write to).
 */
export function resultsFolder(globalStorage: vscode.Uri): string {
  const setting = readSettings().resultsFolder.trim();
  const ws = vscode.workspace.workspaceFolders?.find((f) => f.uri.scheme === 'file')?.uri.fsPath;
  if (setting) return path.isAbsolute(setting) || !ws ? path.resolve(setting) : path.join(ws, setting);
  if (ws) return path.join(ws, '.wallet-analytics', 'results');
  return path.join(globalStorage.fsPath, 'results');
}
