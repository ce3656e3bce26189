/**
 * Where saved views live (one stored record of every table scope's views, merged entry by entry
 * with this window's writes: core/storage.ts; the rules are in src/core/table/savedViews.ts), and
 * the view a new result opens in. A file of its own so the table session reads it without
 * importing the commands that take the session.
 */
import { StorageKeys, type Storage } from '../../core/storage';
import { lastView, parseSavedViews, viewQuery, type SavedViewsState } from '../../core/table/savedViews';
import type { ViewQuery } from '../../shared/tableProtocol';

/** Every scope's views, as far as the stored value is well-formed. */
export const readSavedViews = (storage: Storage): SavedViewsState => parseSavedViews(storage.record(StorageKeys.savedViews).all());

/** A read-modify-write of the saved views: only the scopes `change` changes are written as this window's. */
export const modifySavedViews = (storage: Storage, change: (views: SavedViewsState) => SavedViewsState): Promise<void> =>
  storage.record(StorageKeys.savedViews).modify((all) => change(parseSavedViews(all)));

/** The query of the view last chosen for a scope, over these columns, if any. */
export function lastViewFor(storage: Storage, scope: string, columns: readonly string[]): { name: string; query: ViewQuery } | undefined {
  const view = lastView(readSavedViews(storage), scope);
  return view ? { name: view.name, query: viewQuery(view, columns).query } : undefined;
}
