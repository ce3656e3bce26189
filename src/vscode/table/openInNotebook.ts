/**
 * "Open in Notebook": where a person who outgrows the table goes next. The table's worker exports
 * the view it shows (its filters, search, sort and shown columns) to a CSV file beside the result,
 * with progress and a Cancel, and a Jupyter notebook that loads that file (pandas and DuckDB, typed
 * columns; src/core/codegen/notebook.ts) is written beside it under a name never taken, and opened.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { registerCommand } from '../base/handOver';
import { writeNotebook } from '../../core/codegen/notebook';
import { notebookColumns } from '../../core/codegen/notebookModel';
import { CancelledError, isCancelled } from '../../core/errors';
import { thousands } from '../../core/numberText';
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
        void vscode.window.showInformationMessage(l10n.t('Open a result in the Wallet Analytics Table first.'));
        return undefined;
      }
      try {
        const written = await vscode.window.withProgress(
          { location: vscode.ProgressLocation.Notification, title: l10n.t('Open in Notebook'), cancellable: true },
          async (progress, token) => {
            const controller = new AbortController();
            token.onCancellationRequested(() => controller.abort(new CancelledError()));
            progress.report({ message: l10n.t('Reading the table…') });
            const view = await session.settledView(controller.signal);
            let last = 0;
            return writeNotebook(
              { ...view, columns: notebookColumns(view.columns) },
              {
                signal: controller.signal,
                onProgress: (p) => {
                  const pct = p.total > 0 ? (100 * p.done) / p.total : 100;
                  progress.report({ increment: pct - last, message: l10n.t('Exporting the view: {0} of {1} rows', thousands(p.done), thousands(p.total)) });
                  last = pct;
                },
              },
            );
          },
        );
        log.info(
          `Table: wrote ${path.basename(written.notebook)} beside ${path.basename(written.data)}` +
            (written.exported ? `, which holds the view the table exported (${written.rows} rows).` : `, the whole result (${written.rows} rows).`),
        );
        const uri = vscode.Uri.file(written.notebook);
        // 'jupyter-notebook' is VS Code's own .ipynb notebook type; a plain open is the fallback.
        await Promise.resolve(vscode.commands.executeCommand('vscode.openWith', uri, 'jupyter-notebook')).catch(() => vscode.commands.executeCommand('vscode.open', uri));
        return written.notebook;
      } catch (e) {
        // Cancelled: the export left no file and no notebook was written; nothing to say.
        if (!isCancelled(e)) void showErrorIn(l10n.t('Open in Notebook'), e);
        return undefined;
      }
    }),
  );
}
