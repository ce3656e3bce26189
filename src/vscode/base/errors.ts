import * as vscode from 'vscode';
import { commandIdOf, endpoint } from '../../core/catalog';
import { IpMismatchError, KeyRefusedError, MissingKeyError, isWalletApiError } from '../../core/errors';
import { CommandIds } from './ids';

/** Shows an error with the action that fixes it, when there is one. */
export async function showApiError(e: unknown, prefix = ''): Promise<void> {
  const message = `${prefix}${e instanceof Error ? e.message : String(e)}`;
  if (e instanceof KeyRefusedError || e instanceof MissingKeyError) {
    const a = await vscode.window.showErrorMessage(message, 'Set API Key', 'Try the Sandbox');
    if (a === 'Set API Key') await vscode.commands.executeCommand(CommandIds.setApiKey);
    if (a === 'Try the Sandbox') await vscode.commands.executeCommand(CommandIds.startSandbox);
  } else if (e instanceof IpMismatchError) {
    const a = await vscode.window.showErrorMessage(message, 'Reset Saved IP Address');
    if (a) await vscode.commands.executeCommand(commandIdOf(endpoint('reset_ip')));
  } else if (isWalletApiError(e)) {
    await vscode.window.showErrorMessage(message);
  } else {
    await vscode.window.showErrorMessage(message);
  }
}
