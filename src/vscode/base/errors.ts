/**
 * The one owner of telling the person something went wrong (or needs their attention): every
 * error and warning notification of the extension goes through showError, showErrorIn or
 * showWarning, so an API error always carries the action that fixes it (Set API Key, Reset Saved
 * IP Address, the base URL setting) wherever it surfaces, and its words come from errorText
 * (core/errors.ts). A test (test/unit/house/owners.test.ts) fails when another file calls
 * showErrorMessage/showWarningMessage itself; the price questions (calls/priceStep.ts) and the
 * person's yes/no questions (base/personQuestions.ts) are their own owners.
 */
import * as vscode from 'vscode';
import { commandIdOf, endpoint } from '../../core/spec/catalog';
import { IpMismatchError, KeyRefusedError, MissingKeyError, NetworkError, errorText } from '../../core/errors';
import { CommandIds } from './ids';
import { l10n } from '../../shared/l10n';
import { SettingIds } from '../../core/ids';

// The fixing actions' labels, in the person's language (a pick is compared with the same words).
const OPEN_SETTING = (): string => l10n.t('Open the Base URL Setting');
const TRY_SANDBOX = (): string => l10n.t('Try the Sandbox');
const SET_KEY = (): string => l10n.t('Set API Key');
const RESET_IP = (): string => l10n.t('Reset Saved IP Address');
const SHOW_LOG = (): string => l10n.t('Show Log');


/**
 * Why a call was not sent while the base URL is still the placeholder (a `.invalid` host, which
 * exists nowhere), in words, with the setting to change and the sandbox offered.
 */
export function placeholderUrlMessage(title: string, baseUrl: string, isDefaultProfile: boolean): string {
  const where = isDefaultProfile ? `${SettingIds.baseUrl} (user settings)` : 'this profile’s base URL (Edit Profile)';
  return `${title}: nothing was sent. The API’s address is still the placeholder ${baseUrl}, which exists nowhere. Set ${where} to the address that came with your API plan, or try the sandbox (no key, no credits).`;
}

/** The actions that fix an error of the API client, by its type (none for the others). */
function fixesFor(e: unknown): string[] {
  if (e instanceof KeyRefusedError || e instanceof MissingKeyError) return [SET_KEY(), TRY_SANDBOX()];
  if (e instanceof IpMismatchError) return [RESET_IP()];
  // Nothing left this machine: most often the address is wrong; say which setting holds it.
  if (e instanceof NetworkError && !e.sent && !e.viaProxy) return [OPEN_SETTING(), TRY_SANDBOX()];
  return [];
}

/** Runs one of fixesFor's actions. */
async function runFix(action: string): Promise<void> {
  if (action === SET_KEY()) await vscode.commands.executeCommand(CommandIds.setApiKey);
  else if (action === TRY_SANDBOX()) await vscode.commands.executeCommand(CommandIds.startSandbox);
  else if (action === RESET_IP()) await vscode.commands.executeCommand(commandIdOf(endpoint('reset_ip')));
  else if (action === OPEN_SETTING()) await vscode.commands.executeCommand('workbench.action.openSettings', SettingIds.baseUrl);
  else if (action === SHOW_LOG()) await vscode.commands.executeCommand(CommandIds.showLog);
}

async function show(level: 'error' | 'warning', message: string, problem: unknown, actions: readonly string[]): Promise<string | undefined> {
  const fixes = fixesFor(problem).filter((f) => !actions.includes(f));
  // An error with no action gets Show Log: a button keeps the toast open and whole (without one VS
  // Code shows a long message cut to one line, issue 23), and the log holds the request line and
  // what the service answered.
  if (level === 'error' && actions.length === 0 && fixes.length === 0) fixes.push(SHOW_LOG());
  const say = level === 'error' ? vscode.window.showErrorMessage : vscode.window.showWarningMessage;
  const picked = await say(message, ...actions, ...fixes);
  if (picked !== undefined && fixes.includes(picked)) {
    await runFix(picked);
    return undefined;
  }
  return picked;
}

/**
 * Shows an error (a thrown value, or the words of a problem) with the caller's actions, and the
 * action that fixes it when it is one of the API client's errors (that one is run here).
 * Resolves to the caller's action the person picked, if any.
 */
export function showError(problem: unknown, ...actions: string[]): Promise<string | undefined> {
  return show('error', errorText(problem), problem, actions);
}

/** showError, the message led by what failed: "Compare: …". */
export function showErrorIn(what: string, problem: unknown, ...actions: string[]): Promise<string | undefined> {
  return show('error', `${what}: ${errorText(problem)}`, problem, actions);
}

/** A warning (something the person should know or do, short of an error), with the caller's actions. */
export function showWarning(problem: unknown, ...actions: string[]): Promise<string | undefined> {
  return show('warning', errorText(problem), problem, actions);
}

/** The placeholder base URL's message, as a warning with the setting and the sandbox offered. */
export function showPlaceholderUrl(message: string): void {
  void vscode.window.showWarningMessage(message, OPEN_SETTING(), TRY_SANDBOX()).then((a) => (a ? runFix(a) : undefined));
}

