import * as vscode from 'vscode';
import { DEFAULT_PROFILE_ID, secretNameFor } from '../../core/transport/profiles';
import { ContextKeys } from './ids';
import type { ContextKeySetter } from './contextKeys';

/** The SecretStorage entry holding the Default profile's key (core/transport/profiles.ts secretNameFor). */
export const API_KEY_SECRET = secretNameFor(DEFAULT_PROFILE_ID);

/**
 * The API keys, one per profile (core/transport/profiles.ts secretNameFor), held in SecretStorage only.
 * This wrapper never logs or exposes a value except through get()/getFor(), and keeps the
 * `walletAnalytics.hasKey` context key in step with the key of the profile in use, including
 * changes made in other windows. get/set/clear/peek act on that profile (`keyProfile()`).
 */
export class ApiKeyStore implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<boolean>();
  /** Fires with whether a key is now stored for the profile in use, after any change in any window or a switch. */
  readonly onDidChange = this.changed.event;
  private readonly sub: vscode.Disposable;
  /** Keys read so far, by profile id (undefined: read, none stored). */
  private readonly cached = new Map<string, string | undefined>();

  constructor(
    private readonly secrets: vscode.SecretStorage,
    private readonly contextKeys: ContextKeySetter,
    /** The profile whose key get/set/clear act on (ProfileService.keyProfileId); Default without profiles. */
    private readonly keyProfile: () => string = () => DEFAULT_PROFILE_ID,
  ) {
    this.sub = secrets.onDidChange((e) => {
      for (const id of [...this.cached.keys()]) if (secretNameFor(id) === e.key) this.cached.delete(id);
      if (e.key === secretNameFor(this.keyProfile())) void this.refresh();
    });
  }

  /** Reads the key of the profile in use from SecretStorage and updates the context key. */
  async refresh(): Promise<boolean> {
    const id = this.keyProfile();
    const v = await this.secrets.get(secretNameFor(id));
    this.cached.set(id, v);
    const has = v !== undefined && v.length > 0;
    await this.contextKeys.set(ContextKeys.hasKey, has);
    this.changed.fire(has);
    return has;
  }

  async get(): Promise<string | undefined> {
    return this.getFor(this.keyProfile());
  }

  /** The key of one profile: only ever handed to that profile's client (Connection). */
  async getFor(profileId: string): Promise<string | undefined> {
    if (this.cached.has(profileId)) return this.cached.get(profileId);
    const v = await this.secrets.get(secretNameFor(profileId));
    this.cached.set(profileId, v);
    return v;
  }

  /** The last value read for the profile in use, for the key state shown. */
  peek(): string | undefined {
    return this.cached.get(this.keyProfile());
  }

  /** Every key read so far, for redacting logs synchronously. */
  peekAll(): string[] {
    return [...this.cached.values()].filter((v): v is string => v !== undefined && v.length > 0);
  }

  async set(key: string): Promise<void> {
    await this.setFor(this.keyProfile(), key);
  }

  async setFor(profileId: string, key: string): Promise<void> {
    await this.secrets.store(secretNameFor(profileId), key);
    this.cached.set(profileId, key);
    if (profileId === this.keyProfile()) await this.refresh();
  }

  async clear(): Promise<void> {
    await this.deleteFor(this.keyProfile());
  }

  /** Deletes one profile's key (Clear API Key, or the profile removed). */
  async deleteFor(profileId: string): Promise<void> {
    await this.secrets.delete(secretNameFor(profileId));
    this.cached.set(profileId, undefined);
    if (profileId === this.keyProfile()) await this.refresh();
  }

  dispose(): void {
    this.sub.dispose();
    this.changed.dispose();
  }
}
