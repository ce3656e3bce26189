import * as vscode from 'vscode';
import { ContextKeys } from './commands/ids';
import type { ContextKeySetter } from './contextKeys';

/** The SecretStorage entry holding the key. */
export const API_KEY_SECRET = 'walletAnalytics.apiKey';

/**
 * The API key, held in SecretStorage only. This wrapper never logs or exposes the value
 * except through get(), and keeps the `walletAnalytics.hasKey` context key in step,
 * including changes made in other windows.
 */
export class ApiKeyStore implements vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<boolean>();
  /** Fires with whether a key is now stored, after any change in any window. */
  readonly onDidChange = this.changed.event;
  private readonly sub: vscode.Disposable;
  private cached: string | undefined;

  constructor(
    private readonly secrets: vscode.SecretStorage,
    private readonly contextKeys: ContextKeySetter,
  ) {
    this.sub = secrets.onDidChange((e) => {
      if (e.key === API_KEY_SECRET) void this.refresh();
    });
  }

  /** Reads the key from SecretStorage and updates the context key. */
  async refresh(): Promise<boolean> {
    this.cached = await this.secrets.get(API_KEY_SECRET);
    const has = this.cached !== undefined && this.cached.length > 0;
    await this.contextKeys.set(ContextKeys.hasKey, has);
    this.changed.fire(has);
    return has;
  }

  async get(): Promise<string | undefined> {
    return this.cached ?? (this.cached = await this.secrets.get(API_KEY_SECRET));
  }

  /** The last value read, for redacting logs synchronously. */
  peek(): string | undefined {
    return this.cached;
  }

  async set(key: string): Promise<void> {
    await this.secrets.store(API_KEY_SECRET, key);
    await this.refresh();
  }

  async clear(): Promise<void> {
    await this.secrets.delete(API_KEY_SECRET);
    await this.refresh();
  }

  dispose(): void {
    this.sub.dispose();
    this.changed.dispose();
  }
}
