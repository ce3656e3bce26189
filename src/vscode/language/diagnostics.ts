import * as vscode from 'vscode';
import { analyzeQuery, type QueryDiagnostic } from '../../core/query/analyze';
import { isQueryDocument, rangeOf } from './documents';
import type { QueryFieldService } from './fieldService';
import { DiagnosticIds } from '../base/ids';

/**
 * The `source` of our diagnostics. Not "waquery": the JSON language service reports a syntax error
 * with the document's language id as its source, and its schema errors with no source at all.
 */
export const DIAGNOSTIC_SOURCE = 'Wallet Analytics';

function toDiagnostic(doc: vscode.TextDocument, d: QueryDiagnostic): vscode.Diagnostic {
  const diag = new vscode.Diagnostic(rangeOf(doc, d), d.message, d.severity === 'error' ? vscode.DiagnosticSeverity.Error : vscode.DiagnosticSeverity.Warning);
  diag.source = DIAGNOSTIC_SOURCE;
  diag.code = d.code;
  if (d.related?.length) diag.relatedInformation = d.related.map((r) => new vscode.DiagnosticRelatedInformation(new vscode.Location(doc.uri, rangeOf(doc, r)), r.message));
  return diag;
}

/** Keeps the query diagnostics of every open `.waquery.json` current: on open, edit, and new field lists. */
export class QueryDiagnostics implements vscode.Disposable {
  private readonly collection = vscode.languages.createDiagnosticCollection(DiagnosticIds.query);
  private readonly pending = new Map<string, ReturnType<typeof setTimeout>>();
  private readonly subs: vscode.Disposable[] = [];

  constructor(private readonly fields: QueryFieldService) {
    this.subs.push(
      vscode.workspace.onDidOpenTextDocument((d) => this.update(d)),
      vscode.workspace.onDidChangeTextDocument((e) => this.schedule(e.document)),
      vscode.workspace.onDidCloseTextDocument((d) => this.collection.delete(d.uri)),
      fields.onDidChange(() => this.updateAll()),
    );
    this.updateAll();
  }

  updateAll(): void {
    for (const d of vscode.workspace.textDocuments) this.update(d);
  }

  private schedule(doc: vscode.TextDocument): void {
    if (!isQueryDocument(doc)) return;
    const key = doc.uri.toString();
    clearTimeout(this.pending.get(key));
    this.pending.set(key, setTimeout(() => {
      this.pending.delete(key);
      this.update(doc);
    }, 150));
  }

  /** Analyses one document now (a document whose language changed away from waquery is cleared). */
  update(doc: vscode.TextDocument): void {
    if (!isQueryDocument(doc)) {
      this.collection.delete(doc.uri);
      return;
    }
    this.collection.set(doc.uri, analyzeQuery(doc.getText(), this.fields.peek()).map((d) => toDiagnostic(doc, d)));
  }

  dispose(): void {
    for (const t of this.pending.values()) clearTimeout(t);
    for (const s of this.subs) s.dispose();
    this.collection.dispose();
  }
}
