import * as vscode from 'vscode';
import { ContextKeys } from './commands/ids';

const KEY_NAME = 'walletAnalytics.apiKey';

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

  constructor(private readonly secrets: vscode.SecretStorage) {
    this.sub = secrets.onDidChange((e) => {
      if (e.key === KEY_NAME) void this.refresh();
    });
  }

  /** Reads the key from SecretStorage and updates the context key. */
  async refresh(): Promise<boolean> {
    this.cached = await this.secrets.get(KEY_NAME);
    const has = this.cached !== undefined && this.cached.length > 0;
    await vscode.commands.executeCommand('setContext', ContextKeys.hasKey, has);
    this.changed.fire(has);
    return has;
  }

  async get(): Promise<string | undefined> {
    return this.cached ?? (this.cached = await this.secrets.get(KEY_NAME));
  }

  /** The last value read, for redacting logs synchronously. */
  peek(): string | undefined {
    return this.cached;
  }

  async set(key: string): Promise<void> {
    await this.secrets.store(KEY_NAME, key);
    await this.refresh();
  }

  async clear(): Promise<void> {
    await this.secrets.delete(KEY_NAME);
    await this.refresh();
  }

  dispose(): void {
    this.sub.dispose();
    this.changed.dispose();
  }
}
