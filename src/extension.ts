import * as vscode from 'vscode';
import { registerApiKeyCommands } from './vscode/commands/apiKey';
import { Log } from './vscode/log';
import { ApiKeyStore } from './vscode/secrets';
import type { Services } from './vscode/services';

/** What activate() returns: a small surface for the integration tests. */
export interface ExtensionApi {
  readonly services: Services;
  readonly activationMs: number;
}

export async function activate(context: vscode.ExtensionContext): Promise<ExtensionApi> {
  const started = performance.now();
  const keys = new ApiKeyStore(context.secrets);
  const log = new Log(() => [keys.peek()]);
  context.subscriptions.push(keys, log);
  const services: Services = { keys, log };

  registerApiKeyCommands(context, services);

  await keys.refresh();
  const activationMs = performance.now() - started;
  log.info(`Activated in ${activationMs.toFixed(1)} ms.`);
  return { services, activationMs };
}

export function deactivate(): void {
  // Everything is disposed through context.subscriptions.
}
