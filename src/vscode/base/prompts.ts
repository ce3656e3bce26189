import * as vscode from 'vscode';
import { l10n } from '../../shared/l10n';
import { askText } from './personQuestions';

/**
 * The few things the table asks a person or hands to VS Code, behind one interface so the
 * integration tests (ExtensionMode.Test only) can answer them: a save path for an export or a chart, a
 * pick among items, a name, and the command a cell or column action runs.
 */
/** What a save dialog is for: by default an export of the view to CSV. */
interface SaveDialogKind {
  readonly filters: Record<string, string[]>;
  readonly title: string;
  readonly saveLabel: string;
}

const CSV_EXPORT: SaveDialogKind = { filters: { 'CSV files': ['csv'] }, title: l10n.t('Export the table view to CSV'), saveLabel: 'Export' };

export interface TablePrompts {
  savePath(defaultPath: string, kind?: SaveDialogKind): Promise<string | undefined>;
  pick<T extends vscode.QuickPickItem>(items: readonly T[], options: vscode.QuickPickOptions): Promise<T | undefined>;
  input(options: vscode.InputBoxOptions): Promise<string | undefined>;
  runCommand(id: string, args: unknown): Promise<unknown>;
}

export const windowPrompts: TablePrompts = {
  async savePath(defaultPath, kind = CSV_EXPORT) {
    const uri = await vscode.window.showSaveDialog({ defaultUri: vscode.Uri.file(defaultPath), ...kind });
    return uri?.fsPath;
  },
  pick: (items, options) => Promise.resolve(vscode.window.showQuickPick(items, options)),
  input: askText,
  runCommand: (id, args) => Promise.resolve(vscode.commands.executeCommand(id, args)),
};
