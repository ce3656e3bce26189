import * as vscode from 'vscode';
import { registerCommand } from '../base/handOver';
import { askApiKey } from './apiKey';
import { commandIdOf, endpoint } from '../../core/spec/catalog';
import { isLive } from '../../core/jobs/job';
import { checkProfileBaseUrl, checkProfileName, DEFAULT_PROFILE_ID, SANDBOX_PROFILE_ID, SANDBOX_PROFILE_NAME } from '../../core/transport/profiles';
import type { Services } from '../services';
import { CommandIds } from '../base/ids';
import type { PersonQuestions } from '../base/personQuestions';
import { l10n } from '../../shared/l10n';
import { showError, showErrorIn } from '../base/errors';

/**
 * What a caller may pass to Add Profile: values that pre-fill the boxes the person still answers.
 * A `key` is ignored: the person types it (a key another caller chose would send this person's
 * calls, and their history, to that key's account).
 */
interface AddArgs {
  readonly name?: unknown;
  readonly baseUrl?: unknown;
}

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/**
 * Add, Switch, Rename and Remove Profile (src/vscode/base/profiles.ts keeps them). Set/Clear API Key act
 * on the active profile's key. A profile with jobs still waiting for their file cannot be removed:
 * its key is what polls and downloads them, and no other key may.
 */
export function registerProfileCommands(context: vscode.ExtensionContext, s: Services, questions: PersonQuestions): void {
  const profiles = s.connection.profiles;
  /** Jobs still waiting for their file under a profile. */
  const liveJobs = (id: string): number => s.jobs.store.all().filter((j) => isLive(j) && (j.profileId ?? DEFAULT_PROFILE_ID) === id).length;

  context.subscriptions.push(
    registerCommand(CommandIds.addProfile, async (preset?: AddArgs): Promise<string | undefined> => {
      const title = (n: number) => `Wallet Analytics: Add Profile (${n}/3)`;
      // Arguments only pre-fill: the person reads each box and presses Enter (or Escape).
      const name = await questions.input('profileName', {
        title: title(1),
        prompt: l10n.t('A name for this connection, e.g. “Work account”.'),
        value: str(preset?.name),
        ignoreFocusOut: true,
        validateInput: (v) => checkProfileName(v, profiles.added()),
      });
      if (name === undefined) return undefined;
      const baseUrl = await questions.input('profileBaseUrl', {
        title: title(2),
        prompt: l10n.t('The API’s base URL: https:// (http:// only for this machine). This profile’s key is sent there and nowhere else.'),
        placeHolder: l10n.t('https://api.example.com'),
        value: str(preset?.baseUrl),
        ignoreFocusOut: true,
        validateInput: (v) => checkProfileBaseUrl(v),
      });
      if (baseUrl === undefined) return undefined;
      const key = await askApiKey(questions, {
        title: title(3),
        prompt: l10n.t('The API key for “{0}”. It is kept in VS Code’s SecretStorage only and sent only to {1}.', name.trim(), baseUrl.trim()),
      });
      if (key === undefined) return undefined;
      let id: string;
      try {
        id = (await profiles.add({ name, baseUrl })).id;
      } catch (e) {
        void showErrorIn(l10n.t('Add Profile'), e);
        return undefined;
      }
      await s.keys.setFor(id, key);
      await s.connection.switchProfile(id);
      s.log.info(`Profile “${name.trim()}” added (${s.connection.baseUrl()}); its key is in SecretStorage. It is active in this window.`);
      void vscode.window.showInformationMessage(l10n.t('Profile “{0}” added and in use. Calls go to {1}.', name.trim(), s.connection.baseUrl()), l10n.t('Check Its Key (Free)')).then((a) => {
        if (a) void vscode.commands.executeCommand(commandIdOf(endpoint('credits')));
      });
      return id;
    }),

    registerCommand(CommandIds.switchProfile, async (preset?: unknown): Promise<string | undefined> => {
      let id = str(preset);
      if (id === undefined) {
        const active = s.connection.activeProfile().id;
        type Item = vscode.QuickPickItem & { id: string };
        const items: Item[] = [
          ...profiles.keyed().map((p) => ({ id: p.id, label: p.name, description: p.baseUrl, detail: p.id === active ? l10n.t('In use in this window') : undefined })),
          { id: SANDBOX_PROFILE_ID, label: SANDBOX_PROFILE_NAME, description: l10n.t('built in: synthetic data, no key, no credits'), detail: active === SANDBOX_PROFILE_ID ? l10n.t('In use in this window') : undefined },
          { id: '', label: l10n.t('$(add) Add Profile…'), alwaysShow: true },
        ];
        const picked = await vscode.window.showQuickPick(items, {
          title: l10n.t('Wallet Analytics: Switch Profile'),
          placeHolder: l10n.t('In use: {0}. Jobs already sent stay with the profile they were sent under.', s.connection.activeProfile().name),
        });
        if (!picked) return undefined;
        if (picked.id === '') return vscode.commands.executeCommand<string | undefined>(CommandIds.addProfile);
        id = picked.id;
      }
      if (id !== SANDBOX_PROFILE_ID && !profiles.get(id)) {
        void showError(l10n.t('Switch Profile: that profile no longer exists.'));
        return undefined;
      }
      await s.connection.switchProfile(id);
      s.log.info(`Profile “${s.connection.activeProfile().name}” in use in this window (${s.connection.baseUrl()}).`);
      return id;
    }),

    registerCommand(CommandIds.renameProfile, async (presetId?: unknown, presetName?: unknown): Promise<boolean> => {
      const id = str(presetId) ?? (await pickAdded(s, 'Rename Profile'));
      if (id === undefined) return false;
      const p = profiles.get(id);
      if (!p || id === DEFAULT_PROFILE_ID) return false;
      const name = await questions.input('profileRename', {
        title: l10n.t('Wallet Analytics: Rename “{0}”', p.name),
        value: str(presetName) ?? p.name,
        validateInput: (v) => checkProfileName(v, profiles.added(), id),
      });
      if (name === undefined) return false;
      try {
        await profiles.rename(id, name);
      } catch (e) {
        void showErrorIn(l10n.t('Rename Profile'), e);
        return false;
      }
      return true;
    }),

    // An id only chooses which profile the question names; the person always confirms (no argument skips it).
    registerCommand(CommandIds.removeProfile, async (presetId?: unknown): Promise<boolean> => {
      const id = str(presetId) ?? (await pickAdded(s, 'Remove Profile'));
      if (id === undefined) return false;
      const p = profiles.get(id);
      if (!p || id === DEFAULT_PROFILE_ID) {
        void showError(l10n.t('Remove Profile: only a profile you added can be removed (Default is walletAnalytics.baseUrl; clear its key with Clear API Key).'));
        return false;
      }
      const waiting = liveJobs(id);
      if (waiting > 0) {
        // Its key is the only one that may poll and download them; removing it would strand paid jobs.
        void showError(
          l10n.t('“{0}” has {1} job{2} still waiting for {3}, polled with this profile’s key. Remove it once they are done (or stopped tracking); nothing was removed.', p.name, waiting, waiting === 1 ? '' : 's', waiting === 1 ? 'its file' : 'their files'),
        );
        return false;
      }
      const confirmed = await questions.confirm(
        `Remove the profile “${p.name}” (${p.baseUrl}) and delete its API key from SecretStorage?`,
        'Its past requests stay on the server; this window forgets its history, ledger and caches.',
        'Remove',
      );
      if (!confirmed) return false;
      await s.keys.deleteFor(id);
      await profiles.remove(id);
      s.log.info(`Profile “${p.name}” removed; its key was deleted from SecretStorage.`);
      void vscode.window.showInformationMessage(l10n.t('Removed “{0}” and its key; now {1}.', p.name, s.connection.activeProfile().name));
      return true;
    }),
  );
}

async function pickAdded(s: Services, what: string): Promise<string | undefined> {
  const added = s.connection.profiles.added();
  if (added.length === 0) {
    // With the next step as a button: a toast without one showed one line, cut before it (issue 23).
    const add = l10n.t('Add Profile…');
    void vscode.window.showInformationMessage(l10n.t('{0}: there are no added profiles (Default and Sandbox are built in).', what), add).then((a) => {
      if (a === add) void vscode.commands.executeCommand(CommandIds.addProfile);
    });
    return undefined;
  }
  const picked = await vscode.window.showQuickPick(
    added.map((p) => ({ id: p.id, label: p.name, description: p.baseUrl })),
    { title: l10n.t('Wallet Analytics: {0}', what) },
  );
  return picked?.id;
}
