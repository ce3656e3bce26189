/**
 * Set API Key and Clear API Key. Setting a key the first time, while walletAnalytics.baseUrl is
 * still the placeholder (a `.invalid` host that exists nowhere), asks where the API is, with the
 * sandbox offered instead: a key without an address would make "Check It (Free)" fail on DNS.
 */
import * as vscode from 'vscode';
import { registerCommand } from '../base/handOver';
import { checkApiKey, clearedKeyMessage } from '../../core/transport/apiKey';
import { commandIdOf, endpoint } from '../../core/spec/catalog';
import { checkProfileBaseUrl, DEFAULT_PROFILE_ID, normalizeBaseUrl } from '../../core/transport/profiles';
import { SETTINGS_SECTION } from '../../core/manifest/userOnlySettings';
import type { Services } from '../services';
import { CommandIds } from '../base/ids';
import type { PersonQuestions } from '../base/personQuestions';
import { isPlaceholderUrl } from '../../core/transport/placeholder';
import { l10n } from '../../shared/l10n';
import { showError, showWarning } from '../base/errors';

/** The ways on offered when the key has no address to go to (their labels are the answers). */
export const WHERE_IS_THE_API = {
  enter: 'Enter the API’s Address…',
  sandbox: 'Try the Sandbox Instead',
  later: 'Later',
} as const;

/** " (profile Work)" when the key acted on is an added profile's; nothing for Default, the profile most people only ever have. */
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
    void showError(c.message);
    return undefined;
  }
  return c.key;
}

/**
 * Asks where the Default profile's API is, when its base URL is still the placeholder; writes the
 * answer to the user settings (walletAnalytics.baseUrl is application-scope). Resolves with what
 * the person chose: an address set, the sandbox started, or nothing.
 */
async function askWhereTheApiIs(s: Services, questions: PersonQuestions): Promise<'set' | 'sandbox' | 'none'> {
  const way = await questions.choose(
    'whereIsTheApi',
    [
      { label: WHERE_IS_THE_API.enter, detail: l10n.t('The https:// address of your API plan; your key goes there only') },
      { label: WHERE_IS_THE_API.sandbox, detail: l10n.t('Synthetic data, no credits; your key stays saved') },
      { label: WHERE_IS_THE_API.later, detail: l10n.t('Nothing is called until you set walletAnalytics.baseUrl') },
    ],
    { title: l10n.t('Where Is the Wallet Analytics API?'), placeHolder: l10n.t('Your key is saved. Where should it be sent?'), ignoreFocusOut: true },
  );
  if (way === WHERE_IS_THE_API.sandbox) {
    await vscode.commands.executeCommand(CommandIds.startSandbox);
    return 'sandbox';
  }
  if (way !== WHERE_IS_THE_API.enter) return 'none';
  const typed = await questions.input('baseUrl', {
    title: l10n.t('Wallet Analytics: the API’s Address (walletAnalytics.baseUrl)'),
    prompt: l10n.t('The base URL of the Wallet Analytics API, e.g. https://api.example.com. Saved in your user settings; your key is sent there only.'),
    placeHolder: l10n.t('https://api.example.com'),
    ignoreFocusOut: true,
    validateInput: (v) => checkProfileBaseUrl(v) ?? (isPlaceholderUrl(normalizeBaseUrl(v)) ? 'A .invalid address exists nowhere: enter the API’s real address.' : undefined),
  });
  if (typed === undefined) return 'none';
  await vscode.workspace.getConfiguration(SETTINGS_SECTION).update('baseUrl', normalizeBaseUrl(typed), vscode.ConfigurationTarget.Global);
  return 'set';
}

/** "Set API Key" and "Clear API Key": they act on the key of the profile in use (src/vscode/base/profiles.ts). */
export function registerApiKeyCommands(context: vscode.ExtensionContext, s: Services, questions: PersonQuestions): void {
  context.subscriptions.push(
    // Arguments are ignored: only the person's own entry in the password box stores a key.
    registerCommand(CommandIds.setApiKey, async () => {
      const key = await askApiKey(questions, {
        title: l10n.t('Wallet Analytics: Set API Key{0}', profileNote(s)),
        prompt: l10n.t('Paste the API key issued with your API plan. It is kept in VS Code’s SecretStorage only.'),
      });
      if (key === undefined) return false;
      await s.keys.set(key);
      s.log.info(`API key stored in SecretStorage${profileNote(s)}.`);
      const first = s.connection.profiles.keyProfileId() === DEFAULT_PROFILE_ID && isPlaceholderUrl(s.connection.profiles.defaultProfile().baseUrl);
      const where = first ? await askWhereTheApiIs(s, questions) : 'set';
      if (where === 'sandbox') {
        void vscode.window.showInformationMessage(l10n.t('Key saved. The sandbox is in use until stopped.'));
        return true;
      }
      if (where === 'none') {
        void showWarning(l10n.t('API key saved, but walletAnalytics.baseUrl is still the placeholder: nothing can be called with it until you set the API’s address.'), l10n.t('Open Settings')).then((a) => {
          if (a) void vscode.commands.executeCommand('workbench.action.openSettings', `${SETTINGS_SECTION}.baseUrl`);
        });
        return true;
      }
      // Checking the key costs nothing (§5.4), so the one action offered is that check.
      void vscode.window.showInformationMessage(l10n.t('API key saved{0}: calls go to {1}.', profileNote(s), s.connection.profiles.get(s.connection.profiles.keyProfileId())?.baseUrl ?? 'its base URL'), l10n.t('Check It (Free)')).then((a) => {
        if (a) void vscode.commands.executeCommand(commandIdOf(endpoint('credits')));
      });
      return true;
    }),
    registerCommand(CommandIds.clearApiKey, async () => {
      const hadKey = (await s.keys.get()) !== undefined;
      const profile = s.connection.profiles.get(s.connection.profiles.keyProfileId())?.name ?? 'this profile';
      // Deleting the key is asked first, whoever runs the command (the palette, a link, another
      // extension): only the person's click deletes it, and the dialog's default keeps it (issue 30 item 6).
      if (hadKey) {
        const yes = l10n.t('Clear API Key');
        const ok = await questions.confirm(l10n.t('Clear the API key of “{0}”?', profile), l10n.t('It is deleted from SecretStorage: calls with it stop until you run Set API Key again, and you will need the key to set it again.'), yes, l10n.t('Keep the Key'));
        if (!ok) return false;
      }
      await s.keys.clear();
      s.log.info(`API key removed from SecretStorage${profileNote(s)}.`);
      void vscode.window.showInformationMessage(clearedKeyMessage({ hadKey, profile: `“${profile}”`, sandboxInUse: s.connection.mode === 'sandbox' }));
      return true;
    }),
  );
}
