/**
 * The editor's help in pipeline cells (issue 24 item 1), for the cells of our notebook type only
 * (a document selector with `notebookType`): diagnostics at the part of a cell they are about,
 * completions and hovers. Everything comes from the owners a single call and a `.waquery.json`
 * use: a call's inputs from the catalog's own fields and rules; a Wallet Database cell's query
 * from the query language itself (QueryCompletions, QueryHovers, analyzeQuery's fixes, and the
 * server's field list in QueryFieldService), handed the query in place (core/pipeline/cellChecks.ts
 * queryView), so the cell and the file cannot disagree. The plan runs the same checks
 * (core/pipeline/cellChecks.ts firstCellError) and refuses a cell with the message shown here.
 */
import * as vscode from 'vscode';
import { ENDPOINTS, shortTitle } from '../../core/spec/catalog';
import type { FieldSpec } from '../../core/spec/fields';
import { cellCompletionAt, inputFieldAt } from '../../core/pipeline/cellCompletion';
import { checkCells, type CellDiagnostic } from '../../core/pipeline/cellChecks';
import { cellFromText } from '../../core/pipeline/format';
import { describeRule } from '../../core/money/pricing';
import { DIAGNOSTIC_SOURCE } from '../language/diagnostics';
import { rangeOf } from '../language/documents';
import type { QueryFieldService } from '../language/fieldService';
import { QueryCompletions, QueryHovers } from '../language/providers';
import { DiagnosticIds, PIPELINE_NOTEBOOK } from '../base/ids';

/** The cells of pipeline notebooks: JSON text in a notebook of our type. */
const PIPELINE_CELL_SELECTOR: vscode.DocumentSelector = { notebookType: PIPELINE_NOTEBOOK, language: 'json' };

/** The pipeline notebook a cell's document belongs to, with the cell's index among its code cells. */
function cellOf(doc: vscode.TextDocument): { nb: vscode.NotebookDocument; index: number; cells: vscode.NotebookCell[] } | undefined {
  for (const nb of vscode.workspace.notebookDocuments) {
    if (nb.notebookType !== PIPELINE_NOTEBOOK) continue;
    const cells = codeCells(nb);
    const index = cells.findIndex((c) => c.document === doc || c.document.uri.toString() === doc.uri.toString());
    if (index >= 0) return { nb, index, cells };
  }
  return undefined;
}

function codeCells(nb: vscode.NotebookDocument): vscode.NotebookCell[] {
  return nb.getCells().filter((c) => c.kind === vscode.NotebookCellKind.Code);
}

function fieldMarkdown(f: FieldSpec): vscode.MarkdownString {
  const md = new vscode.MarkdownString();
  md.appendMarkdown(`**${f.label}**${f.optional ? ' (optional)' : ''}\n\n`);
  md.appendText(`${f.description}\n\n${f.rule}`);
  if (f.kind === 'addressList' || f.kind === 'textList') md.appendMarkdown('\n\nOr an earlier cell\'s result: `{"from": "<cell>", "top": 100}`.');
  return md;
}

/** Keeps the diagnostics of every open pipeline notebook's cells current: on open, edit, and new field lists. */
class PipelineDiagnostics implements vscode.Disposable {
  private readonly collection = vscode.languages.createDiagnosticCollection(DiagnosticIds.pipeline);
  private readonly pending = new Map<string, ReturnType<typeof setTimeout>>();
  private readonly subs: vscode.Disposable[] = [];

  constructor(private readonly fields: QueryFieldService) {
    this.subs.push(
      vscode.workspace.onDidOpenNotebookDocument((nb) => this.update(nb)),
      vscode.workspace.onDidChangeNotebookDocument((e) => this.schedule(e.notebook)),
      vscode.workspace.onDidChangeTextDocument((e) => {
        const at = e.document.uri.scheme === 'vscode-notebook-cell' ? cellOf(e.document) : undefined;
        if (at) this.schedule(at.nb);
      }),
      vscode.workspace.onDidCloseNotebookDocument((nb) => {
        for (const c of nb.getCells()) this.collection.delete(c.document.uri);
      }),
      fields.onDidChange(() => this.updateAll()),
    );
    this.updateAll();
  }

  updateAll(): void {
    for (const nb of vscode.workspace.notebookDocuments) this.update(nb);
  }

  private schedule(nb: vscode.NotebookDocument): void {
    const key = nb.uri.toString();
    clearTimeout(this.pending.get(key));
    this.pending.set(key, setTimeout(() => {
      this.pending.delete(key);
      this.update(nb);
    }, 150));
  }

  /** The diagnostics of one notebook, now. */
  update(nb: vscode.NotebookDocument): void {
    if (nb.notebookType !== PIPELINE_NOTEBOOK || nb.isClosed) return;
    const cells = codeCells(nb);
    const found = checkCells(cells.map((c) => c.document.getText()), this.fields.peek());
    cells.forEach((cell, i) => {
      const doc = cell.document;
      this.collection.set(doc.uri, found.filter((d) => d.index === i).map((d) => toDiagnostic(doc, d)));
    });
  }

  /** The diagnostics shown for a cell (tests). */
  get(uri: vscode.Uri): readonly vscode.Diagnostic[] {
    return this.collection.get(uri) ?? [];
  }

  dispose(): void {
    for (const t of this.pending.values()) clearTimeout(t);
    for (const s of this.subs) s.dispose();
    this.collection.dispose();
  }
}

function toDiagnostic(doc: vscode.TextDocument, d: CellDiagnostic): vscode.Diagnostic {
  const diag = new vscode.Diagnostic(rangeOf(doc, d), d.message, d.severity === 'error' ? vscode.DiagnosticSeverity.Error : vscode.DiagnosticSeverity.Warning);
  diag.source = DIAGNOSTIC_SOURCE;
  if (d.query) diag.code = d.query.code;
  return diag;
}

/** Endpoints at "call", earlier cells at "from", a call's inputs and their values, and inside a query what a .waquery.json completes. */
class PipelineCompletions implements vscode.CompletionItemProvider {
  constructor(private readonly query: QueryCompletions) {}

  provideCompletionItems(doc: vscode.TextDocument, pos: vscode.Position): vscode.CompletionItem[] | undefined {
    const text = doc.getText();
    const offset = doc.offsetAt(pos);
    const ctx = cellCompletionAt(text, offset);
    if (!ctx) return undefined;
    if (ctx.kind === 'query') return this.query.complete(doc, ctx.view.text, offset, ctx.view.chain);
    const range = ctx.replace ? rangeOf(doc, ctx.replace) : undefined;
    const item = (label: string, kind: vscode.CompletionItemKind, detail: string, insert: string, doc?: vscode.MarkdownString): vscode.CompletionItem => {
      const it = new vscode.CompletionItem({ label, description: detail }, kind);
      it.detail = detail;
      it.insertText = insert;
      it.filterText = insert;
      if (doc) it.documentation = doc;
      if (range) it.range = range;
      return it;
    };
    switch (ctx.kind) {
      case 'endpoint':
        return ENDPOINTS.map((ep) => item(ep.id, vscode.CompletionItemKind.Function, `${shortTitle(ep)} · ${describeRule(ep)}`, JSON.stringify(ep.id), new vscode.MarkdownString().appendText(ep.summary)));
      case 'cell': {
        const at = cellOf(doc);
        const names = at ? at.cells.slice(0, at.index).flatMap((c) => {
          const cell = cellFromText(c.document.getText());
          return typeof cell === 'string' ? [] : [cell.name];
        }) : [];
        return names.map((n) => item(n, vscode.CompletionItemKind.Reference, 'an earlier cell', JSON.stringify(n)));
      }
      case 'inputKey':
        return ctx.endpoint.fields
          .filter((f) => !ctx.present.includes(f.key))
          .map((f) => item(f.key, vscode.CompletionItemKind.Property, `${f.label}${f.optional ? ' (optional)' : ''}`, JSON.stringify(f.key), fieldMarkdown(f)));
      case 'inputValue':
        return (ctx.field.options ?? []).map((o) => item(JSON.stringify(o), vscode.CompletionItemKind.EnumMember, `a value of ${ctx.field.label}`, JSON.stringify(o)));
    }
  }
}

/** A call input's description and rule; inside a query, the query language's hover. */
class PipelineHovers implements vscode.HoverProvider {
  constructor(private readonly query: QueryHovers) {}

  provideHover(doc: vscode.TextDocument, pos: vscode.Position): vscode.Hover | undefined {
    const text = doc.getText();
    const offset = doc.offsetAt(pos);
    const ctx = cellCompletionAt(text, offset);
    if (ctx?.kind === 'query') return this.query.hover(doc, ctx.view.text, offset, ctx.view.chain);
    const f = inputFieldAt(text, offset);
    return f ? new vscode.Hover(fieldMarkdown(f)) : undefined;
  }
}

/** The query language's quick fixes for a Wallet Database cell's query, from the same checks. */
class PipelineQuickFixes implements vscode.CodeActionProvider {
  static readonly kinds = [vscode.CodeActionKind.QuickFix];

  constructor(private readonly fields: QueryFieldService) {}

  provideCodeActions(doc: vscode.TextDocument, _range: vscode.Range, context: vscode.CodeActionContext): vscode.CodeAction[] {
    const ours = context.diagnostics.filter((d) => d.source === DIAGNOSTIC_SOURCE && d.code !== undefined);
    const at = ours.length > 0 ? cellOf(doc) : undefined;
    if (!at) return [];
    const found = checkCells(at.cells.map((c) => c.document.getText()), this.fields.peek()).filter((d) => d.index === at.index && d.query);
    const actions: vscode.CodeAction[] = [];
    for (const diag of ours) {
      const match = found.find((d) => d.query?.code === diag.code && rangeOf(doc, d).isEqual(diag.range));
      for (const [i, fix] of (match?.query?.fixes ?? []).entries()) {
        const a = new vscode.CodeAction(fix.title, vscode.CodeActionKind.QuickFix);
        a.edit = new vscode.WorkspaceEdit();
        for (const e of fix.edits) a.edit.replace(doc.uri, rangeOf(doc, e), e.content);
        a.diagnostics = [diag];
        a.isPreferred = i === 0;
        actions.push(a);
      }
    }
    return actions;
  }
}

/** Registers the pipeline cells' diagnostics, completions, hovers and quick fixes; returns the diagnostics (tests read them). */
export function registerPipelineLanguage(context: vscode.ExtensionContext, fields: QueryFieldService): PipelineDiagnostics {
  const diagnostics = new PipelineDiagnostics(fields);
  context.subscriptions.push(
    diagnostics,
    vscode.languages.registerCompletionItemProvider(PIPELINE_CELL_SELECTOR, new PipelineCompletions(new QueryCompletions(fields)), '"'),
    vscode.languages.registerHoverProvider(PIPELINE_CELL_SELECTOR, new PipelineHovers(new QueryHovers(fields))),
    vscode.languages.registerCodeActionsProvider(PIPELINE_CELL_SELECTOR, new PipelineQuickFixes(fields), { providedCodeActionKinds: PipelineQuickFixes.kinds }),
  );
  return diagnostics;
}
