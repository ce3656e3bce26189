import * as vscode from 'vscode';
import type { Chain } from '../../core/spec/addresses';
import { analyzeQuery, type QueryFix } from '../../core/query/analyze';
import { completionContextAt } from '../../core/query/completion';
import { FieldIndex, allowedValues, fieldDetail, fieldHoverMarkdown, CHAIN_LABEL, otherChain } from '../../core/query/fields';
import { outlineQuery, type Span } from '../../core/query/outline';
import { CommandIds } from '../base/ids';
import { rangeOf } from './documents';
import { DIAGNOSTIC_SOURCE } from './diagnostics';
import type { QueryFieldService } from './fieldService';
import { l10n } from '../../shared/l10n';

/** Field names (with timeframe and type) at a field position; a categorical field's names at its value. */
export class QueryCompletions implements vscode.CompletionItemProvider {
  constructor(private readonly fields: QueryFieldService) {}

  provideCompletionItems(doc: vscode.TextDocument, pos: vscode.Position): vscode.CompletionItem[] | undefined {
    const text = doc.getText();
    return this.complete(doc, text, doc.offsetAt(pos), outlineQuery(text).chain);
  }

  /**
   * The completions at `offset` of a query `text` on `chain`. `text` may be a query held inside a
   * larger document (a pipeline cell: the cell's text with all but the query blanked, core/pipeline/cellChecks.ts
   * queryView), so its offsets are the document's.
   */
  complete(doc: vscode.TextDocument, text: string, offset: number, chain: Chain): vscode.CompletionItem[] | undefined {
    const ctx = completionContextAt(text, offset);
    if (!ctx) return undefined;
    const index = FieldIndex.of(this.fields.peek(), chain);
    if (!index) {
      const item = new vscode.CompletionItem('Refresh Query Fields', vscode.CompletionItemKind.Event);
      item.detail = `The ${CHAIN_LABEL[chain]}'s fields are not loaded${this.fields.problem() ? `: ${this.fields.problem() ?? ''}` : ''}`;
      item.insertText = '';
      item.command = { title: l10n.t('Refresh Query Fields'), command: CommandIds.refreshQueryFields };
      return [item];
    }
    const range = (span: Span | undefined): vscode.Range | undefined => (span ? rangeOf(doc, span) : undefined);
    if (ctx.kind === 'field') {
      return index.columns.map((c) => {
        const item = new vscode.CompletionItem({ label: c.name, description: fieldDetail(c) }, vscode.CompletionItemKind.Field);
        item.detail = fieldDetail(c);
        item.documentation = new vscode.MarkdownString(fieldHoverMarkdown(c, chain));
        item.insertText = JSON.stringify(c.name);
        item.filterText = JSON.stringify(c.name);
        const r = range(ctx.replace);
        if (r) item.range = r;
        return item;
      });
    }
    const col = index.get(ctx.field);
    const values = col ? allowedValues(col) : undefined;
    if (!col || !values) return undefined;
    return values.map((v) => {
      const item = new vscode.CompletionItem(JSON.stringify(v), vscode.CompletionItemKind.EnumMember);
      item.detail = `a value of ${col.name}`;
      item.insertText = JSON.stringify(v);
      const r = range(ctx.replace);
      if (r) item.range = r;
      return item;
    });
  }
}

/** A field's description, timeframe and value type, on hover. */
export class QueryHovers implements vscode.HoverProvider {
  constructor(private readonly fields: QueryFieldService) {}

  provideHover(doc: vscode.TextDocument, pos: vscode.Position): vscode.Hover | undefined {
    const text = doc.getText();
    return this.hover(doc, text, doc.offsetAt(pos), outlineQuery(text).chain);
  }

  /** The hover at `offset` of a query `text` on `chain` (a whole file, or a query held in a pipeline cell: see QueryCompletions.complete). */
  hover(doc: vscode.TextDocument, text: string, offset: number, chain: Chain): vscode.Hover | undefined {
    const outline = outlineQuery(text);
    const f = outline.fields.find((x) => offset >= x.span.offset && offset < x.span.offset + x.span.length);
    if (!f) return undefined;
    const index = FieldIndex.of(this.fields.peek(), chain);
    const col = index?.get(f.name);
    if (col) return new vscode.Hover(new vscode.MarkdownString(fieldHoverMarkdown(col, chain)), rangeOf(doc, f.span));
    const other = index?.onOtherChainOnly(f.name);
    if (other) {
      const to = otherChain(chain);
      return new vscode.Hover(
        new vscode.MarkdownString(`${fieldHoverMarkdown(other, to)}\n\n**Only on the ${CHAIN_LABEL[to]}**: this query runs on the ${CHAIN_LABEL[chain]}.`),
        rangeOf(doc, f.span),
      );
    }
    return undefined;
  }
}

/** The fixes our diagnostics carry, and "Refresh Query Fields" where a newer list could help. */
export class QueryQuickFixes implements vscode.CodeActionProvider {
  static readonly kinds = [vscode.CodeActionKind.QuickFix];

  constructor(private readonly fields: QueryFieldService) {}

  provideCodeActions(doc: vscode.TextDocument, _range: vscode.Range, context: vscode.CodeActionContext): vscode.CodeAction[] {
    const ours = context.diagnostics.filter((d) => d.source === DIAGNOSTIC_SOURCE);
    if (ours.length === 0) return [];
    const analysed = analyzeQuery(doc.getText(), this.fields.peek());
    const actions: vscode.CodeAction[] = [];
    let refreshOffered = false;
    for (const diag of ours) {
      const match = analysed.find((a) => a.code === diag.code && rangeOf(doc, a).isEqual(diag.range));
      if (!match) continue;
      for (const [i, fix] of (match.fixes ?? []).entries()) actions.push(this.editAction(doc, fix, diag, i === 0));
      if (match.refreshMayFix && !refreshOffered) {
        refreshOffered = true;
        const a = new vscode.CodeAction('Refresh Query Fields (read the field list from the server again, free)', vscode.CodeActionKind.QuickFix);
        a.command = { title: l10n.t('Refresh Query Fields'), command: CommandIds.refreshQueryFields };
        a.diagnostics = [diag];
        actions.push(a);
      }
    }
    return actions;
  }

  private editAction(doc: vscode.TextDocument, fix: QueryFix, diag: vscode.Diagnostic, preferred: boolean): vscode.CodeAction {
    const a = new vscode.CodeAction(fix.title, vscode.CodeActionKind.QuickFix);
    a.edit = new vscode.WorkspaceEdit();
    for (const e of fix.edits) a.edit.replace(doc.uri, rangeOf(doc, e), e.content);
    a.diagnostics = [diag];
    a.isPreferred = preferred;
    return a;
  }
}
