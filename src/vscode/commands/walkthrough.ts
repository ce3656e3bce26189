/**
 * "Get Started": opens the Getting Started walkthrough (package.json contributes.walkthroughs), so a
 * newcomer can find it from the palette again after closing the Welcome page. Its steps tick off by
 * themselves, through their completion events; nothing here tracks them.
 */
import * as vscode from 'vscode';
import { CommandIds, WALKTHROUGH_ID } from '../base/ids';

export function registerGetStartedCommand(context: vscode.ExtensionContext): void {
  context.subscriptions.push(
    vscode.commands.registerCommand(CommandIds.getStarted, () =>
      // The walkthrough is addressed as `publisher.name#id`; context.extension.id is `publisher.name`.
      vscode.commands.executeCommand('workbench.action.openWalkthrough', `${context.extension.id}#${WALKTHROUGH_ID}`, false),
    ),
  );
}
