/**
 * The sidebar's first answer before the features load (issue 34 item 1): a person with no key, or in
 * a folder that is not trusted, is told so by the Requests view's welcome at once, without waiting
 * for dist/features.js (a second or more on a loaded machine); a person with a key stored sees the
 * Account view's first rows (profile, key, base URL, the connection being checked, the balance not
 * read yet) and the Requests view's "checking" welcome at once, as the features draw them before
 * their first answer, while the features load to check. Bundled into the thin entry, so it
 * imports only vscode, the ids, the storage keys, the Account view's words and the context-key setter.
 *
 * It answers only what is plain from three reads (SecretStorage, the remembered profile in Storage,
 * the base URL setting) and never anything it could get wrong: "no key" only when no key is stored
 * where the features would look first and the sandbox does not start with the extension;
 * "checking" only when a key is stored there and the base URL is a real one, which is what the
 * features' ConnectionStatus (src/vscode/base/status.ts) starts from before its free GET /credits.
 * Everything else (a profile of its own, the placeholder base URL, the sandbox) is left to the
 * features, which answer the same way when they load. A person with a key is never told to set one,
 * and nothing here calls the network: no figure is shown that the features have not read.
 */
import type * as vscode from 'vscode';
import { vscodeApi } from './vscodeLater';
import { API_KEY_SECRET, DEFAULT_PROFILE_ID, SettingIds } from '../../core/ids';
import { readStored, StorageKeys } from '../../core/storage';
import { isPlaceholderUrl } from '../../core/transport/placeholder';
import { ContextKeySetter } from './contextKeys';
import { ACCOUNT_VIEW, ContextKeys, REQUESTS_VIEW } from './ids';
import { ACCOUNT_LABELS, BALANCE_NOT_READ, CONNECTION_CHECKING, hostOf, KEY_SET, keyTip, profileTip, settingBaseUrlTip } from './accountWords';

/** What the sidebar can say before the features load; the same names as status.ts's SidebarState. */
export type EarlyState = 'noKey' | 'untrusted' | 'checking';

/** The Default profile's name (core/transport/profiles.ts DEFAULT_PROFILE_NAME; that module brings the transport, so the entry names it here and a test holds the two equal). */
export const EARLY_PROFILE_NAME = 'Default';

/** The base URL setting's own value (user-only, as settings.ts reads it: the user's value alone), normalised as profiles keep it; undefined when unset or not a string. */
function configuredBaseUrl(): string | undefined {
  const v: unknown = vscodeApi().workspace.getConfiguration().inspect(SettingIds.baseUrl)?.globalValue;
  return typeof v === 'string' ? v.trim().replace(/\/+$/u, '') : undefined;
}

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
  // The one read the entry makes of SecretStorage: only whether a key is there is kept.
  const stored = await context.secrets.get(API_KEY_SECRET);
  if (stored === undefined) return 'noKey';
  // An empty key is "no key" to the status and a key to canCall: left to the features.
  if (stored.length === 0) return undefined;
  const baseUrl = configuredBaseUrl();
  return baseUrl !== undefined && !isPlaceholderUrl(baseUrl) ? 'checking' : undefined;
}

/**
 * A view's root answered before the features load (src/vscode/base/standIns.ts TreeProxy): its
 * rows (none: its welcome content shows, package.json viewsWelcome), each row's item, and whether
 * the features are to load now (to check what the rows say is being checked).
 */
export interface EarlyTree {
  readonly roots: readonly object[];
  item(row: object): vscode.TreeItem;
  readonly loadNow: boolean;
}

/** One of the Account view's early rows. */
class EarlyRow {
  constructor(readonly item: vscode.TreeItem) {}
}

/**
 * The Account view's first rows with a key stored, as AccountProvider draws them while its status
 * is "checking" and no balance is read (src/vscode/views/accountView.ts, the same words): the Default
 * profile, its key set, its base URL, the connection being checked, the balance not read yet. The
 * rows after them (quota, budgets, spend…) need the ledger, so they come with the features. Ids of
 * their own (`early:…`), so the features' rows replace them and never clash.
 */
export function earlyAccountRows(context: vscode.ExtensionContext, baseUrl: string): EarlyRow[] {
  const v = vscodeApi();
  const icon = (id: string): vscode.ThemeIcon => new v.ThemeIcon(id);
  // No click commands: the command-id map would bring a hundred ids into the entry, and the rows are
  // replaced by the features' (which have them) as soon as they load; the context values keep the rows' menus.
  const row = (id: string, label: string, description: string, iconPath: vscode.TreeItem['iconPath'], tooltip: string | undefined): EarlyRow => {
    const item = new v.TreeItem(label);
    item.id = `early:account:${id}`;
    item.description = description;
    item.iconPath = iconPath;
    item.tooltip = tooltip;
    return new EarlyRow(item);
  };
  const brand = { light: v.Uri.joinPath(context.extensionUri, 'media', 'icons', 'wallet-analytics-light.svg'), dark: v.Uri.joinPath(context.extensionUri, 'media', 'icons', 'wallet-analytics-dark.svg') };
  const profile = row('profile', ACCOUNT_LABELS.profile, EARLY_PROFILE_NAME, icon('account'), profileTip(EARLY_PROFILE_NAME, baseUrl));
  profile.item.contextValue = 'account.profile';
  const key = row('key', ACCOUNT_LABELS.key, KEY_SET.shown, icon('key'), keyTip(KEY_SET.tip, EARLY_PROFILE_NAME, baseUrl));
  key.item.contextValue = 'account.key.set';
  const base = row('baseUrl', ACCOUNT_LABELS.baseUrl, hostOf(baseUrl), icon('globe'), settingBaseUrlTip(baseUrl, SettingIds.baseUrl));
  base.item.contextValue = 'account.baseUrl.configured';
  return [
    profile,
    key,
    base,
    row('connection', ACCOUNT_LABELS.connection, CONNECTION_CHECKING, icon('loading~spin'), undefined),
    row('balance', ACCOUNT_LABELS.balance, BALANCE_NOT_READ.shown, brand, BALANCE_NOT_READ.tip),
  ];
}

/** A view's early tree in a state, or undefined when the view waits for the features. */
function earlyTreeOf(context: vscode.ExtensionContext, viewId: string, state: EarlyState | undefined): EarlyTree | undefined {
  if (state === undefined) return undefined;
  if (viewId === REQUESTS_VIEW) return { roots: [], item: () => new (vscodeApi().TreeItem)(''), loadNow: state === 'checking' };
  if (viewId !== ACCOUNT_VIEW || state !== 'checking') return undefined;
  const rows = earlyAccountRows(context, configuredBaseUrl() ?? '');
  return { roots: rows, item: (r) => (r instanceof EarlyRow ? r.item : new (vscodeApi().TreeItem)('')), loadNow: true };
}

/**
 * Starts the early answer: reads the state and, while the features have not set the status
 * themselves (`begun()`), sets the sidebar's context keys to it, so the welcome views follow.
 * Resolves with the state.
 */
export function answerEarly(context: vscode.ExtensionContext, begun: () => boolean): Promise<EarlyState | undefined> {
  return sendEarly(earlySidebarState(context), begun);
}

/** answerEarly's second half: the context keys for a state read. */
function sendEarly(read: Promise<EarlyState | undefined>, begun: () => boolean): Promise<EarlyState | undefined> {
  return read.then(
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
  /** A view's rows before the features ([]: its welcome content shows), or undefined when it waits for them. */
  earlyTree(viewId: string): Promise<EarlyTree | undefined>;
  /**
   * Called by the features as their ConnectionStatus first sets the status (src/vscode/features.ts
   * hands it to their ContextKeySetter): from then on theirs is the answer. Not when they begin to
   * load: opening the sidebar asks the Account view first, which loads them, and until their status
   * is set (seconds on a busy machine) the early "no key" is still the one to show.
   */
  statusSet(): void;
  /**
   * Resolves when no early rows are on their way out to VS Code: the entry loads the features only
   * then (src/extension.ts). Their bundle's require holds the extension host's thread for a few
   * hundred milliseconds, and VS Code's reply with a view's rows (a chain of microtasks after the
   * rows are answered, then a write in a timer, then the socket's) waited behind it: with a key
   * stored the Account view's early rows were drawn with the features, not before (bench:activation;
   * the Watches view, which has no early answer, asks in the same turn and started the load at once).
   * A timer from the call, every view answered in that turn has its reply queued; a round trip to
   * the workbench sent after the rows (a context key set) has come back once they have left.
   */
  rowsOut(): Promise<void>;
}

export function startEarlyAnswer(context: vscode.ExtensionContext): EarlyAnswer {
  let owned = false;
  const read = earlySidebarState(context).catch(() => undefined);
  const state = sendEarly(read, () => owned);
  const aTimer = (): Promise<void> => new Promise((r) => setTimeout(r, 0));
  /** The round trip sent after the last early rows answered (none yet: settled). */
  let out: Promise<void> = Promise.resolve();
  const tree = (viewId: string, s: EarlyState | undefined): EarlyTree | undefined => {
    const t = earlyTreeOf(context, viewId, s);
    if (t && t.roots.length > 0) {
      out = aTimer()
        .then(() => new ContextKeySetter().set(ContextKeys.earlyRowsHanded, viewId))
        .catch(() => undefined);
    }
    return t;
  };
  return {
    state,
    // The views are answered once the state is read, not once its context keys have come back (a
    // round trip to the workbench): the keys were sent first, in the turn the read ended, and VS
    // Code's messages keep their order, so the Requests view's welcome sees them before its answer.
    earlyTree: (viewId) => read.then((s) => tree(viewId, s)),
    rowsOut: () => aTimer().then(() => out),
    statusSet: () => {
      owned = true;
    },
  };
}
