import * as vscode from 'vscode';
import { checkApiKey } from '../../core/apiKey';
import { commandIdOf, endpoint } from '../../core/catalog';
import { DEFAULT_PROFILE_ID } from '../../core/profiles';
import type { Services } from '../services';
import { CommandIds } from '../base/ids';
import type { PersonQuestions } from '../base/personQuestions';

/** " (profile Work)" when the key acted on is an added profile's; nothing for Default, as before profiles. */
function profileNote(s: Services): string {
  const id = s.connection.profiles.keyProfileId();
  return id === DEFAULT_PROFILE_ID ? '' : ` (profile “${s.connection.profiles.get(id)?.name ?? id}”)`;
}

/**
 * The key the person types (or pastes) in a password box that checks it as it is typed; undefined
 * when cancelled or refused (the refusal is shown). Never a key from command arguments: a key
 * another caller chose would send the person's calls, and their history, to that key's account.
 * One place for Set API Key and Add Profile, so both ask and check a key the same way.
 */
export async function askApiKey(questions: PersonQuestions, box: { title: string; prompt: string }): Promise<string | undefined> {
  const input = await questions.input('apiKey', {
    ...box,
    password: true,
    ignoreFocusOut: true,
    validateInput: (v) => {
      const c = checkApiKey(v);
      return c.ok ? undefined : c.message;
    },
  });
  if (input === undefined) return undefined;
  const c = checkApiKey(input);
  if (!c.ok) {
    void vscode.window.showErrorMessage(c.message);
    return undefined;
  }
  return c.key;
}

/** "Set API Key" and "Clear API Key": they act on the key of the profile in use (src/vscode/base/profiles.ts). */
export function registerApiKeyCommands(context: vscode.ExtensionContext, s: Services, questions: PersonQuestions): void {
  context.subscriptions.push(
    // Arguments are ignored: only the person's own entry in the password box stores a key.
    vscode.commands.registerCommand(CommandIds.setApiKey, async () => {
      const key = await askApiKey(questions, {
        title: `Wallet Analytics: Set API Key${profileNote(s)}`,
        prompt: 'Paste the API key issued with your API plan. It is kept in VS Code’s SecretStorage only.',
      });
      if (key === undefined) return false;
      await s.keys.set(key);
      s.log.info(`API key stored in SecretStorage${profileNote(s)}.`);
      // Checking the key costs nothing (§5.4), so the one action offered is that check.
      void vscode.window.showInformationMessage(`API key saved${profileNote(s)}.`, 'Check It (Free)').then((a) => {
        if (a) void vscode.commands.executeCommand(commandIdOf(endpoint('credits')));
      });
      return true;
    }),
    vscode.commands.registerCommand(CommandIds.clearApiKey, async () => {
      await s.keys.clear();
      s.log.info(`API key removed from SecretStorage${profileNote(s)}.`);
      void vscode.window.showInformationMessage(`API key cleared${profileNote(s)}.`);
      return true;
    }),
  );
}
