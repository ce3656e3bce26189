/**
 * Where saved views live (one globalState value for every endpoint's views; the rules are in
 * src/core/table/savedViews.ts), and the view a new result opens in. A file of its own so the
 * table session reads it without importing the commands that take the session.
 */
import type * as vscode from 'vscode';
import { lastView, parseSavedViews, viewQuery, type SavedViewsState } from '../../core/table/savedViews';
import type { ViewQuery } from '../../shared/tableProtocol';

export const SAVED_VIEWS_KEY = 'walletAnalytics.table.savedViews';

/** Every endpoint's views, as far as the stored value is well-formed. */
export const readSavedViews = (state: vscode.Memento): SavedViewsState => parseSavedViews(state.get<unknown>(SAVED_VIEWS_KEY));

export const writeSavedViews = (state: vscode.Memento, views: SavedViewsState): Thenable<void> => state.update(SAVED_VIEWS_KEY, views);

/** The query of the view last chosen for a scope, over these columns, if any. */
export function lastViewFor(state: vscode.Memento, scope: string, columns: readonly string[]): { name: string; query: ViewQuery } | undefined {
  const view = lastView(readSavedViews(state), scope);
  return view ? { name: view.name, query: viewQuery(view, columns).query } : undefined;
}
