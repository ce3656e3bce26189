/**
 * The thin entry VS Code loads (issue 34 item 1): activate() registers a stand-in for every command
 * package.json declares and returns; the features (src/vscode/features.ts: the services, views,
 * languages, the table editor and every command's real handler) are a dynamic import, which esbuild
 * builds as their own bundle (dist/features.js, required on first use: esbuild.mjs), so VS Code loads
 * a few kilobytes at activation. They are asked for when a stand-in runs, and right after activate()
 * returns: whatever activated the extension (a query file, a view, an editor) needs them next. Under
 * the test runner activate() waits for them and returns its test surface.
 */
import * as vscode from 'vscode';
import { exportsFor } from './vscode/base/exports';
import type { Services } from './vscode/services';
import type { Sidebar } from './vscode/views/sidebar';
import type { TestSurface } from './vscode/features';

/** What activate() returns under the test runner; outside it, nothing (src/vscode/base/exports.ts). */
export interface ExtensionExports {
  readonly testing: TestSurface;
}

/** The integration suite's view of the exports (test/integration/support.ts api()): the services and sidebar up front. */
export interface ExtensionApi {
  readonly services: Services;
  readonly activationMs: number;
  readonly sidebar: Sidebar;
  readonly testing: TestSurface;
}

/** The command ids package.json declares (contributes.commands), read from the installed manifest. */
function declaredCommands(context: vscode.ExtensionContext): string[] {
  const manifest: unknown = context.extension.packageJSON;
  const commands: unknown = (manifest as { contributes?: { commands?: unknown } } | undefined)?.contributes?.commands;
  if (!Array.isArray(commands)) return [];
  return commands.flatMap((c: unknown) => {
    const id: unknown = (c as { command?: unknown } | null)?.command;
    return typeof id === 'string' ? [id] : [];
  });
}

export async function activate(context: vscode.ExtensionContext): Promise<ExtensionExports | undefined> {
  const started = performance.now();
  let features: Promise<TestSurface> | undefined;
  const standIns: vscode.Disposable[] = [];
  const load = (): Promise<TestSurface> =>
    (features ??= import('./vscode/features').then((f) => {
      // The real handlers take these ids next; VS Code refuses a second registration of an id.
      for (const d of standIns.splice(0)) d.dispose();
      return f.activateFeatures(context, started);
    }));
  // Every declared command exists from the first moment; the first run of one loads the features,
  // whose real handler then runs with the same arguments.
  for (const id of declaredCommands(context)) {
    standIns.push(
      vscode.commands.registerCommand(id, async (...args: unknown[]) => {
        await load();
        return vscode.commands.executeCommand(id, ...args);
      }),
    );
  }
  context.subscriptions.push({ dispose: () => standIns.splice(0).forEach((d) => d.dispose()) });
  if (context.extensionMode === vscode.ExtensionMode.Test) return exportsFor(context.extensionMode, { testing: await load() });
  // After activate() returns, so VS Code's activation of this extension is not held by the features.
  setTimeout(() => {
    load().catch((e: unknown) => console.error(`Wallet Analytics: the features did not load: ${String(e)}`));
  }, 0);
  return undefined;
}

export function deactivate(): void {
  // Everything is disposed through context.subscriptions.
}
