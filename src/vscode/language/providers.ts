import * as vscode from 'vscode';
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
    const ctx = completionContextAt(text, doc.offsetAt(pos));
    if (!ctx) return undefined;
    const chain = outlineQuery(text).chain;
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
    const outline = outlineQuery(doc.getText());
    const offset = doc.offsetAt(pos);
    const f = outline.fields.find((x) => offset >= x.span.offset && offset < x.span.offset + x.span.length);
    if (!f) return undefined;
    const index = FieldIndex.of(this.fields.peek(), outline.chain);
    const col = index?.get(f.name);
    if (col) return new vscode.Hover(new vscode.MarkdownString(fieldHoverMarkdown(col, outline.chain)), rangeOf(doc, f.span));
    const other = index?.onOtherChainOnly(f.name);
    if (other) {
      const to = otherChain(outline.chain);
      return new vscode.Hover(
        new vscode.MarkdownString(`${fieldHoverMarkdown(other, to)}\n\n**Only on the ${CHAIN_LABEL[to]}**: this query runs on the ${CHAIN_LABEL[outline.chain]}.`),
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
