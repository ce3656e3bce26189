/**
 * The sidebar's first answer before the features load (issue 34 item 1): a person with no key, or in
 * a folder that is not trusted, is told so by the Requests view's welcome at once, without waiting
 * for dist/features.js (a second or more on a loaded machine). Bundled into the thin entry, so it
 * imports only vscode, the ids, the storage keys and the context-key setter.
 *
 * It answers only what is plain from two reads (SecretStorage, and the remembered profile in Storage) and never anything
 * it could get wrong: "no key" only when no key is stored where the features would look first and
 * the sandbox does not start with the extension; everything else ("checking", a profile of its own,
 * the base URL) is left to the features' ConnectionStatus (src/vscode/base/status.ts), which
 * answers the same way when they load. A person with a key is never told to set one.
 */
import type * as vscode from 'vscode';
import { vscodeApi } from './vscodeLater';
import { API_KEY_SECRET, DEFAULT_PROFILE_ID, SettingIds } from '../../core/ids';
import { readStored, StorageKeys } from '../../core/storage';
import { ContextKeySetter } from './contextKeys';
import { ContextKeys, REQUESTS_VIEW } from './ids';

/** What the sidebar can say before the features load; the same names as status.ts's SidebarState. */
export type EarlyState = 'noKey' | 'untrusted';

/**
 * The state ConnectionStatus's quickState would give, or undefined when only the features can tell.
 * The sandbox started with the extension (its setting, or the environment the tests use) changes
 * the answer, so then there is none here. The window's profile is the remembered one; another than
 * the Default profile (its key under its own name, the profile maybe removed since) is left to the
 * features.
 */
export async function earlySidebarState(context: vscode.ExtensionContext): Promise<EarlyState | undefined> {
  // The settings' reader (src/vscode/base/settings.ts) brings package.json's schema into the entry:
  // one get is enough here, and only `true` starts the sandbox there too (a wrong type is the default, false).
  const sandboxStarts = vscodeApi().workspace.getConfiguration().get<unknown>(SettingIds.sandboxAutoStart) === true || process.env.WALLET_ANALYTICS_SANDBOX === '1';
  if (sandboxStarts) return undefined;
  if (!vscodeApi().workspace.isTrusted) return 'untrusted';
  const remembered = readStored(context, StorageKeys.activeProfile);
  if (remembered !== undefined && remembered !== DEFAULT_PROFILE_ID) return undefined;
  return (await context.secrets.get(API_KEY_SECRET)) === undefined ? 'noKey' : undefined;
}

/** The views whose first answer is "nothing to list" in an early state: their welcome content shows (package.json viewsWelcome). */
export const EARLY_EMPTY_VIEWS: readonly string[] = [REQUESTS_VIEW];

/**
 * Starts the early answer: reads the state and, while the features have not set the status
 * themselves (`begun()`), sets the sidebar's context keys to it, so the welcome views follow.
 * Resolves with the state.
 */
export function answerEarly(context: vscode.ExtensionContext, begun: () => boolean): Promise<EarlyState | undefined> {
  return earlySidebarState(context).then(
    async (state) => {
      // Once the features' ConnectionStatus has set the status, it owns these keys: nothing set here after it.
      if (state === undefined || begun()) return state;
      const keys = new ContextKeySetter();
      // The kind first, as ConnectionStatus does: a `when` clause never sees a new status with an old
      // kind. Both are sent in this turn (VS Code runs the sends in order), not one round trip apart.
      const kind = keys.set(ContextKeys.errorKind, '');
      await Promise.all([kind, begun() ? undefined : keys.set(ContextKeys.status, state)]);
      return state;
    },
    () => undefined,
  );
}

/** The entry's side of the early answer (src/extension.ts): what its views ask, and the features' hand-over. */
export interface EarlyAnswer {
  /** The state read, or undefined when only the features can tell. */
  readonly state: Promise<EarlyState | undefined>;
  /** Whether a view answers "nothing to list" before the features (its welcome content shows). */
  emptyEarly(viewId: string): Promise<boolean>;
  /**
   * Called by the features as their ConnectionStatus first sets the status (src/vscode/features.ts
   * hands it to their ContextKeySetter): from then on theirs is the answer. Not when they begin to
   * load: opening the sidebar asks the Account view first, which loads them, and until their status
   * is set (seconds on a busy machine) the early "no key" is still the one to show.
   */
  statusSet(): void;
}

export function startEarlyAnswer(context: vscode.ExtensionContext): EarlyAnswer {
  let owned = false;
  const state = answerEarly(context, () => owned);
  return {
    state,
    emptyEarly: (viewId) => (EARLY_EMPTY_VIEWS.includes(viewId) ? state.then((s) => s !== undefined) : Promise.resolve(false)),
    statusSet: () => {
      owned = true;
    },
  };
}
