import * as vscode from 'vscode';
import { commandIdOf, endpoint } from '../../core/catalog';
import { BASE_URL_SETTING, IpMismatchError, KeyRefusedError, MissingKeyError, NetworkError, isWalletApiError } from '../../core/errors';
import { CommandIds } from './ids';
import { l10n } from '../../shared/l10n';

const OPEN_SETTING = 'Open the Base URL Setting';
const TRY_SANDBOX = 'Try the Sandbox';

/** The two ways on from an address that leads nowhere: the setting to change, or the sandbox. */
async function offerBaseUrl(message: string, show: typeof vscode.window.showErrorMessage): Promise<void> {
  const a = await show(message, OPEN_SETTING, TRY_SANDBOX);
  if (a === OPEN_SETTING) await vscode.commands.executeCommand('workbench.action.openSettings', BASE_URL_SETTING);
  if (a === TRY_SANDBOX) await vscode.commands.executeCommand(CommandIds.startSandbox);
}

/**
 * Why a call was not sent while the base URL is still the placeholder (a `.invalid` host, which
 * exists nowhere), in words, with the setting to change and the sandbox offered.
 */
export function placeholderUrlMessage(title: string, baseUrl: string, isDefaultProfile: boolean): string {
  const where = isDefaultProfile ? `${BASE_URL_SETTING} (user settings)` : 'this profile’s base URL (Edit Profile)';
  return `${title}: nothing was sent. The API’s address is still the placeholder ${baseUrl}, which exists nowhere. Set ${where} to the address that came with your API plan, or try the sandbox (no key, no credits).`;
}

export function showPlaceholderUrl(message: string): void {
  void offerBaseUrl(message, vscode.window.showWarningMessage);
}

/** Shows an error with the action that fixes it, when there is one. */
export async function showApiError(e: unknown, prefix = ''): Promise<void> {
  const message = `${prefix}${e instanceof Error ? e.message : String(e)}`;
  if (e instanceof KeyRefusedError || e instanceof MissingKeyError) {
    const a = await vscode.window.showErrorMessage(message, l10n.t('Set API Key'), l10n.t('Try the Sandbox'));
    if (a === 'Set API Key') await vscode.commands.executeCommand(CommandIds.setApiKey);
    if (a === 'Try the Sandbox') await vscode.commands.executeCommand(CommandIds.startSandbox);
  } else if (e instanceof IpMismatchError) {
    const a = await vscode.window.showErrorMessage(message, l10n.t('Reset Saved IP Address'));
    if (a) await vscode.commands.executeCommand(commandIdOf(endpoint('reset_ip')));
  } else if (e instanceof NetworkError && !e.sent && !e.viaProxy) {
    // Nothing left this machine: most often the address is wrong; say which setting holds it.
    await offerBaseUrl(message, vscode.window.showErrorMessage);
  } else if (isWalletApiError(e)) {
    await vscode.window.showErrorMessage(message);
  } else {
    await vscode.window.showErrorMessage(message);
  }
}
