import * as vscode from 'vscode';

import { WAQUERY_LANGUAGE } from '../base/ids';

/** The language id of `.waquery.json` files (package.json contributes.languages); the entry needs it too, so it lives in base/ids.ts. */
export { WAQUERY_LANGUAGE };
export const WAQUERY_SELECTOR: vscode.DocumentSelector = { language: WAQUERY_LANGUAGE };

export function isQueryDocument(doc: vscode.TextDocument): boolean {
  return doc.languageId === WAQUERY_LANGUAGE;
}

/** A text span (offset, length) as an editor range. */
export function rangeOf(doc: vscode.TextDocument, span: { offset: number; length: number }): vscode.Range {
  return new vscode.Range(doc.positionAt(span.offset), doc.positionAt(span.offset + span.length));
}

/** The query document a command acts on: its argument (a Uri or its string), else the active editor's. */
export async function queryDocument(arg: unknown): Promise<vscode.TextDocument | undefined> {
  const uri = arg instanceof vscode.Uri ? arg : typeof arg === 'string' ? vscode.Uri.parse(arg) : undefined;
  if (uri) return vscode.workspace.openTextDocument(uri);
  const active = vscode.window.activeTextEditor?.document;
  return active && isQueryDocument(active) ? active : undefined;
}
