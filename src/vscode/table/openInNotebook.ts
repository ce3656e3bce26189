/**
 * "Open in Notebook": where a person who outgrows the table goes next. Writes a Jupyter notebook
 * beside the active table's result (src/core/codegen/notebook.ts: pandas and DuckDB, typed columns, the
 * table's filters, search, sort and shown columns as code) under a name never taken, and opens it.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { registerCommand } from '../base/handOver';
import { writeNotebook } from '../../core/codegen/notebook';
import { notebookColumns } from '../../core/codegen/notebookModel';
import { CommandIds } from '../base/ids';
import type { Log } from '../base/log';
import { TableSession } from './tableSession';
import { l10n } from '../../shared/l10n';
import { showErrorIn } from '../base/errors';

/** Registers the command: on the table given (its toolbar's More menu hands its session), else on the one in the active editor. */
export function registerOpenInNotebook(context: vscode.ExtensionContext, active: () => TableSession | undefined, log: Log): void {
  context.subscriptions.push(
    registerCommand(CommandIds.openInNotebook, async (given?: unknown): Promise<string | undefined> => {
      const session = given instanceof TableSession ? given : active();
      if (!session) {
        void vscode.window.showInformationMessage(l10n.t('Open a result in the Wallet Analytics Table first: Open in Notebook writes a notebook of the view it shows.'));
        return undefined;
      }
      try {
        const snap = await session.snapshot();
        const target = await writeNotebook({ file: snap.file, columns: notebookColumns(snap.columns), query: snap.query, shown: snap.shown, endpoint: snap.endpoint });
        log.info(`Table: wrote ${path.basename(target)} beside ${path.basename(snap.file)}.`);
        const uri = vscode.Uri.file(target);
        // 'jupyter-notebook' is VS Code's own .ipynb notebook type; a plain open is the fallback.
        await Promise.resolve(vscode.commands.executeCommand('vscode.openWith', uri, 'jupyter-notebook')).catch(() => vscode.commands.executeCommand('vscode.open', uri));
        return target;
      } catch (e) {
        void showErrorIn(l10n.t('Open in Notebook'), e);
        return undefined;
      }
    }),
  );
}
