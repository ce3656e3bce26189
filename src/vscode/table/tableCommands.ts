/**
 * The table toolbar's More menu (Open in Notebook, Save View As…, Apply Saved View…, Compare with…)
 * runs the same commands as the editor title bar and the palette, so there is one flow for each.
 * This maps the webview's request to that command and its argument; kept free of `vscode` so a
 * unit test checks the mapping.
 */
import type { TableCommand } from '../../shared/tableUiProtocol';
import { CommandIds } from '../base/ids';

/** What each is called in the menu and in an error message. */
export const TABLE_COMMAND_TITLES: Readonly<Record<TableCommand, string>> = {
  openInNotebook: 'Open in Notebook',
  saveView: 'Save View As',
  applyView: 'Apply Saved View',
  compareWith: 'Compare with',
};

/** The command a toolbar request runs on the table showing `file`, with its argument. */
export function tableCommandCall(command: TableCommand, file: string): { readonly id: string; readonly arg: unknown } {
  switch (command) {
    case 'openInNotebook':
      // These act on the active table, which is the one whose toolbar was used.
      return { id: CommandIds.openInNotebook, arg: undefined };
    case 'saveView':
      return { id: CommandIds.saveTableView, arg: undefined };
    case 'applyView':
      return { id: CommandIds.applyTableView, arg: undefined };
    case 'compareWith':
      // As from the title bar, which hands over the editor's file: A is this table, only B is asked.
      return { id: CommandIds.compareWith, arg: file };
  }
}
