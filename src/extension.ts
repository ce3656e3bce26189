import * as vscode from 'vscode';
import { registerApiKeyCommands } from './vscode/commands/apiKey';
import { ContextKeySetter } from './vscode/contextKeys';
import { Log } from './vscode/log';
import { ApiKeyStore } from './vscode/secrets';
import type { Services } from './vscode/services';

/** What activate() returns: a small surface for the integration tests. */
export interface ExtensionApi {
  readonly services: Services;
  readonly activationMs: number;
  /**
   * Only when VS Code runs the extension under its test runner (ExtensionMode.Test):
   * the context, so tests can reach this extension's SecretStorage, log and storage folders.
   * Never set for an installed extension, so other extensions cannot read the key through it.
   */
  readonly testing?: { readonly context: vscode.ExtensionContext };
}

export async function activate(context: vscode.ExtensionContext): Promise<ExtensionApi> {
  const started = performance.now();
  const contextKeys = new ContextKeySetter();
  const keys = new ApiKeyStore(context.secrets, contextKeys);
  const log = new Log(() => [keys.peek()]);
  context.subscriptions.push(keys, log);
  const services: Services = { contextKeys, keys, log };

  registerApiKeyCommands(context, services);

  await keys.refresh();
  const activationMs = performance.now() - started;
  log.info(`Activated in ${activationMs.toFixed(1)} ms.`);
  const testing = context.extensionMode === vscode.ExtensionMode.Test ? { context } : undefined;
  return { services, activationMs, testing };
}

export function deactivate(): void {
  // Everything is disposed through context.subscriptions.
}
