/**
 * Where connection profiles are kept, and which one this window uses.
 *
 * The choice, in one place:
 * - The list of added profiles (id, name, base URL) is in the extension's globalState under
 *   `walletAnalytics.profiles`: shared by every window, never synced (no setKeysForSync), and out of
 *   reach of any workspace. It is not a setting on purpose: a setting can be written by a folder's
 *   `.vscode/settings.json` or a `.code-workspace` file, and a profile says where a key is sent.
 * - Each profile's key is in SecretStorage under `walletAnalytics.apiKey.<profileId>`; the Default
 *   profile (base URL from the user-only `walletAnalytics.baseUrl`) keeps `walletAnalytics.apiKey`.
 * - The Sandbox profile is built in (no key, no credits); it is the sandbox the Connection runs.
 * - The active profile is per window (in memory); the last one chosen (not the sandbox, which has its
 *   own `sandbox.autoStart`) is remembered in globalState `walletAnalytics.activeProfile` for new windows.
 */
import * as vscode from 'vscode';
import type { MergedList } from '../../core/mergedList';
import { StorageKeys, type Storage } from '../../core/storage';
import {
  addProfile,
  DEFAULT_PROFILE_ID,
  DEFAULT_PROFILE_NAME,
  newProfileId,
  normalizeBaseUrl,
  parseProfiles,
  renameProfile,
  SANDBOX_PROFILE_ID,
  type Profile,
} from '../../core/transport/profiles';
import { readSettings } from './settings';


export class ProfileService implements vscode.Disposable {
  private active: string;
  /** The profile to return to when the sandbox stops, and whose key Set/Clear API Key act on meanwhile. */
  private beforeSandbox: string = DEFAULT_PROFILE_ID;
  private readonly changed = new vscode.EventEmitter<void>();
  /** Fires when the list or this window's active profile changes. */
  readonly onDidChange = this.changed.event;

  /**
   * The added profiles in globalState, merged with this window's own changes: a stale read of
   * globalState (core/mergedList.ts) never loses a profile, whose jobs would then go unpolled.
   * Kept in the saved order (a stable sort with every item equal), this window's additions last.
   */
  private readonly list: MergedList<Profile>;

  constructor(private readonly storage: Storage) {
    this.list = storage.list<Profile>(StorageKeys.profiles, {
      parse: (raw) => parseProfiles(raw ?? []),
      id: (p) => p.id,
      order: () => 0,
      max: 1_000,
    });
    const remembered = storage.get(StorageKeys.activeProfile) ?? DEFAULT_PROFILE_ID;
    this.active = this.get(remembered) ? remembered : DEFAULT_PROFILE_ID;
  }

  /** The profiles added by the person (read afresh: another window may have changed them). */
  added(): Profile[] {
    return this.list.all();
  }

  /** The Default profile, from `walletAnalytics.baseUrl` (user settings only). */
  defaultProfile(): Profile {
    return { id: DEFAULT_PROFILE_ID, name: DEFAULT_PROFILE_NAME, baseUrl: normalizeBaseUrl(readSettings().baseUrl) };
  }

  /** Default and the added profiles (the sandbox is the Connection's). */
  keyed(): Profile[] {
    return [this.defaultProfile(), ...this.added()];
  }

  /** A profile that holds a key (Default or added), or undefined (the sandbox, or one removed). */
  get(id: string): Profile | undefined {
    return id === DEFAULT_PROFILE_ID ? this.defaultProfile() : this.added().find((p) => p.id === id);
  }

  /** This window's active profile id; one removed meanwhile (in another window) falls back to Default. */
  activeId(): string {
    if (this.active !== SANDBOX_PROFILE_ID && !this.get(this.active)) this.active = DEFAULT_PROFILE_ID;
    return this.active;
  }

  /** The profile whose key Set/Clear API Key act on: the active one, or while in the sandbox the one to return to. */
  keyProfileId(): string {
    const id = this.activeId();
    if (id !== SANDBOX_PROFILE_ID) return id;
    return this.get(this.beforeSandbox) ? this.beforeSandbox : DEFAULT_PROFILE_ID;
  }

  /** The profile to return to when the sandbox stops. */
  returnId(): string {
    return this.get(this.beforeSandbox) ? this.beforeSandbox : DEFAULT_PROFILE_ID;
  }

  /** Makes a profile active in this window (the Connection calls this; it starts the sandbox for the Sandbox profile). */
  async setActive(id: string): Promise<void> {
    if (id !== SANDBOX_PROFILE_ID && !this.get(id)) throw new Error('That profile no longer exists.');
    if (id === this.active) return;
    if (id === SANDBOX_PROFILE_ID) this.beforeSandbox = this.activeId();
    this.active = id;
    if (id !== SANDBOX_PROFILE_ID) await this.storage.set(StorageKeys.activeProfile, id);
    this.changed.fire();
  }

  async add(input: { name: string; baseUrl: string }): Promise<Profile> {
    const list = this.added();
    const id = newProfileId(list.map((p) => p.id));
    const made = addProfile(list, input, id).find((p) => p.id === id);
    if (!made) throw new Error('The profile was not saved.');
    await this.list.put(made);
    this.changed.fire();
    return made;
  }

  async rename(id: string, name: string): Promise<void> {
    const renamed = renameProfile(this.added(), id, name).find((p) => p.id === id);
    if (renamed) await this.list.put(renamed);
    this.changed.fire();
  }

  /** Removes an added profile from the list (the caller deletes its key). */
  async remove(id: string): Promise<void> {
    await this.list.remove(id);
    if (this.storage.get(StorageKeys.activeProfile) === id) await this.storage.set(StorageKeys.activeProfile, DEFAULT_PROFILE_ID);
    if (this.active === id) this.active = DEFAULT_PROFILE_ID;
    if (this.beforeSandbox === id) this.beforeSandbox = DEFAULT_PROFILE_ID;
    this.changed.fire();
  }

  dispose(): void {
    this.changed.dispose();
  }
}
