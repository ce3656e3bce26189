/**
 * The query file's snippets as completions, so each brings the commas of the place it lands in
 * (core/query/snippetText.ts): a static snippets file cannot see that "cond" is typed in the
 * middle of a list. Not offered inside a string or a property name.
 */
import * as vscode from 'vscode';
import { getLocation } from 'jsonc-parser';
import { QUERY_SNIPPETS, snippetInPlace } from '../../core/query/snippetText';

export class QuerySnippets implements vscode.CompletionItemProvider {
  provideCompletionItems(doc: vscode.TextDocument, pos: vscode.Position): vscode.CompletionItem[] | undefined {
    const text = doc.getText();
    const offset = doc.offsetAt(pos);
    const loc = getLocation(text, offset);
    const prev = loc.previousNode;
    if (loc.isAtPropertyKey || (prev?.type === 'string' && offset > prev.offset && offset < prev.offset + prev.length)) return undefined;
    const word = doc.getWordRangeAtPosition(pos, /[A-Za-z][\w-]*/u) ?? new vscode.Range(pos, pos);
    const start = doc.offsetAt(word.start);
    const end = doc.offsetAt(word.end);
    return QUERY_SNIPPETS.flatMap((s) =>
      s.prefixes.map((prefix) => {
        const item = new vscode.CompletionItem(prefix, vscode.CompletionItemKind.Snippet);
        item.detail = s.description;
        item.insertText = new vscode.SnippetString(snippetInPlace(text, start, end, s.body));
        item.range = word;
        return item;
      }),
    );
  }
}
