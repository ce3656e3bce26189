/**
 * The table's own commands: the toolbar's More menu (Open in Notebook, saved views, Compare
 * with…) run on this session, which is handed to the command (tableCommands.ts), so no command
 * looks for its table again through the active editor; the file switcher of a .zip result; the
 * raw file; the column layout remembered per endpoint.
 */
import * as vscode from 'vscode';
import { showErrorIn } from '../base/errors';
import { TABLE_COMMAND_TITLES, tableCommandCall } from './tableCommands';
import { type Handlers } from './tableContext';

export const COMMAND_HANDLERS: Handlers<'tableCommand' | 'switchFile' | 'openRaw' | 'saveLayout'> = {
  async tableCommand(ctx, _o, req) {
    const prompts = ctx.deps.prompts();
    // Not awaited: the command asks its own questions (a name, a view, the result B); this reply only says it started.
    const call = tableCommandCall(req.command, ctx.session);
    prompts.runCommand(call.id, call.arg).then(undefined, (e: unknown) => {
      void showErrorIn(TABLE_COMMAND_TITLES[req.command], e);
    });
    ctx.post({ type: 'done', requestId: req.requestId });
  },
  async switchFile(ctx, o, req) {
    await ctx.switchTo(o, req.file);
    ctx.post({ type: 'done', requestId: req.requestId });
  },
  async openRaw(_ctx, o) {
    await vscode.commands.executeCommand('vscode.openWith', vscode.Uri.file(o.file), 'default', { preview: false });
  },
  async saveLayout(ctx, o, req) {
    await ctx.deps.storage.set(o.layoutKey, req.layout);
  },
};
