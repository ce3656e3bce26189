import * as vscode from 'vscode';
import * as path from 'node:path';
import { sweepLeftovers } from '../../core/results/sweep';
import { readSettings } from '../base/settings';
import type { Log } from '../base/log';
import { errorText } from '../../core/errors';

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

/**
 * Removes what a crash left in the results folder (src/core/results/sweep.ts), in the background: called
 * once at activation and never awaited there, so a slow disk cannot delay start-up. It never
 * throws; what it did goes to the log.
 */
export function sweepResultsFolderInBackground(folder: () => string, log: Pick<Log, 'info' | 'warn'>): void {
  void (async () => {
    try {
      const dir = folder();
      const r = await sweepLeftovers(dir);
      if (r.removed.length > 0) log.info(`Removed ${r.removed.length} leftover(s) of an interrupted download or extraction from ${dir}: ${r.removed.join(', ')}.`);
      for (const f of r.failed) log.warn(`Could not remove the leftover ${path.join(dir, f.name)}: ${f.error}`);
    } catch (e) {
      log.warn(`The results folder was not swept for leftovers: ${errorText(e)}`);
    }
  })();
}
