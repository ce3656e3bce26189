/**
 * How the features register what VS Code calls (issue 34 item 1): through these, in place of
 * vscode.commands.registerCommand and its kin, so that an id the thin entry already holds a
 * stand-in for (src/vscode/base/standIns.ts) is handed to that stand-in instead of registered a
 * second time (VS Code refuses a second registration of an id, and disposing the stand-in first
 * would leave a moment in which the id is "not found"). Without stand-ins (a test host, an id the
 * manifest does not declare) each is VS Code's own registration.
 */
import * as vscode from 'vscode';
import type { StandInSink } from './standIns';

let sink: StandInSink | undefined;

/** The entry's stand-ins, set once by the features before they register anything (src/vscode/features.ts). */
export function useStandIns(s: StandInSink | undefined): void {
  sink = s;
}

export const registerCommand: typeof vscode.commands.registerCommand = (id, callback, thisArg) =>
  sink?.command(id, thisArg === undefined ? callback : callback.bind(thisArg)) ?? vscode.commands.registerCommand(id, callback, thisArg);

export function registerTool<T>(name: string, tool: vscode.LanguageModelTool<T>): vscode.Disposable {
  return sink?.tool(name, tool as vscode.LanguageModelTool<object>) ?? vscode.lm.registerTool(name, tool);
}

export function createTreeView<T>(viewId: string, options: vscode.TreeViewOptions<T>): vscode.TreeView<T> {
  const view = sink?.treeView(viewId, options.treeDataProvider as vscode.TreeDataProvider<unknown>);
  return view ? (view as vscode.TreeView<T>) : vscode.window.createTreeView(viewId, options);
}

export const registerNotebookSerializer: typeof vscode.workspace.registerNotebookSerializer = (type, serializer, options) =>
  sink?.notebookSerializer(type, serializer) ?? vscode.workspace.registerNotebookSerializer(type, serializer, options);

export function registerCustomEditorProvider(
  viewType: string,
  provider: vscode.CustomReadonlyEditorProvider,
  options: Parameters<typeof vscode.window.registerCustomEditorProvider>[2],
): vscode.Disposable {
  return sink?.customEditor(viewType, provider) ?? vscode.window.registerCustomEditorProvider(viewType, provider, options);
}

export const registerTextDocumentContentProvider: typeof vscode.workspace.registerTextDocumentContentProvider = (scheme, provider) =>
  sink?.contentProvider(scheme, provider) ?? vscode.workspace.registerTextDocumentContentProvider(scheme, provider);
