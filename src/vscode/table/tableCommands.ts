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

/**
 * The command a toolbar request runs on `table` (the session whose toolbar was used), with its
 * argument: the table itself, so the command acts on it rather than on whichever editor is active.
 */
export function tableCommandCall<T extends { readonly file: string }>(command: TableCommand, table: T): { readonly id: string; readonly arg: T | string } {
  switch (command) {
    case 'openInNotebook':
      return { id: CommandIds.openInNotebook, arg: table };
    case 'saveView':
      return { id: CommandIds.saveTableView, arg: table };
    case 'applyView':
      return { id: CommandIds.applyTableView, arg: table };
    case 'compareWith':
      // As from the title bar, which hands over the editor's file: A is this table, only B is asked.
      return { id: CommandIds.compareWith, arg: table.file };
  }
}
