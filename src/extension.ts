/**
 * The thin entry VS Code loads (issue 34 item 1): the features (src/vscode/features.ts: the
 * services, views, languages, the table editor and every command's handler) are a dynamic import,
 * which esbuild builds as their own bundle (dist/features.js, esbuild.mjs), so the entry is a few
 * kilobytes. Loading each feature on its first use is the next step (issue 34); today activate()
 * loads them all. Under the test runner activate() returns its test surface.
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

export async function activate(context: vscode.ExtensionContext): Promise<ExtensionExports | undefined> {
  const started = performance.now();
  // activate() waits for the features: a command must exist once activation ends (VS Code holds a
  // command's run until then). Handing over from stand-ins after activate() returned left a gap in
  // which the commands registered after the key is read were "not found" (the e2e compare walk).
  const f = await import('./vscode/features');
  const testing = await f.activateFeatures(context, started);
  return context.extensionMode === vscode.ExtensionMode.Test ? exportsFor(context.extensionMode, { testing }) : undefined;
}

export function deactivate(): void {
  // Everything is disposed through context.subscriptions.
}
