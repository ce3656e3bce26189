/**
 * What this extension hands other extensions through `vscode.extensions.getExtension(…).exports`:
 * nothing. Its services hold the API key and can send paid calls; an extension that could reach
 * them could read the key or spend the person's credits without the price step. Another extension
 * that wants a call runs our commands, which always ask the person for the price (command
 * arguments only pre-fill). Only under VS Code's test runner does activate() return its test
 * surface, so the integration suite can drive what a person would.
 */
import type * as vscode from 'vscode';
import { vscodeApi } from './vscodeLater';

/** activate()'s return value: `surface` under the test runner (ExtensionMode.Test), else nothing. */
export function exportsFor<T>(mode: vscode.ExtensionMode, surface: T): T | undefined {
  return mode === vscodeApi().ExtensionMode.Test ? surface : undefined;
}
