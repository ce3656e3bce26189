/**
 * Saved views of the table (src/core/table/savedViews.ts holds the rules): "Save View As…",
 * "Apply Saved View…" and "Delete Saved View…" for the active table, kept per endpoint in
 * globalState (savedViewStore.ts).
 */
import * as vscode from 'vscode';
import { registerCommand } from '../base/handOver';
import {
  captureView,
  chooseView,
  cleanViewName,
  deleteView,
  lastView,
  sameName,
  saveView,
  viewQuery,
  viewsOf,
  type SavedView,
  type SavedViewsState,
} from '../../core/table/savedViews';
import { CommandIds } from '../base/ids';
import type { Log } from '../base/log';
import type { TablePrompts } from '../base/prompts';
import { modifySavedViews, readSavedViews as read } from './savedViewStore';
import { TableSession, type TableSnapshot } from './tableSession';
import { l10n } from '../../shared/l10n';
import { showWarning } from '../base/errors';
import type { Storage } from '../../core/storage';

/** "results of pnl" or "tables with these columns". */
function whose(snap: TableSnapshot): string {
  return snap.endpoint ? `${snap.endpoint} results` : 'tables with these columns';
}

/** A view in a few words, for a quick pick. */
function summary(v: SavedView): string {
  const parts: string[] = [];
  if (v.sort.length > 0) parts.push(`sorted by ${v.sort.map((k) => `${k.column} ${k.descending ? '↓' : '↑'}`).join(', ')}`);
  if (v.filters.length > 0) parts.push(`${v.filters.length} filter${v.filters.length === 1 ? '' : 's'}`);
  if (v.search !== '') parts.push(`search "${v.search}"`);
  if (v.hidden.length > 0) parts.push(`${v.hidden.length} column${v.hidden.length === 1 ? '' : 's'} hidden`);
  if (v.defaultFormat !== 'auto' || Object.keys(v.formats).length > 0) parts.push('number formats');
  return parts.length > 0 ? parts.join(' · ') : 'file order, every column';
}

interface Deps {
  readonly storage: Storage;
  readonly log: Log;
  /** The table in the active editor, if any. */
  readonly active: () => TableSession | undefined;
  readonly prompts: () => TablePrompts;
}

/** Registers the three commands. Each resolves with the view's name (undefined when nothing was done), for tests. */
export function registerSavedViews(context: vscode.ExtensionContext, deps: Deps): void {
  const { storage: state, log } = deps;
  const modify = (change: (s: SavedViewsState) => SavedViewsState): Promise<void> => modifySavedViews(state, change);

  /** The table given (its toolbar hands its session; a string is a view's name), else the one in the active editor. */
  const activeSnapshot = async (given: unknown): Promise<{ session: TableSession; snap: TableSnapshot } | undefined> => {
    const session = given instanceof TableSession ? given : deps.active();
    if (!session) {
      void vscode.window.showInformationMessage(l10n.t('Open a result in the Wallet Analytics Table first.'));
      return undefined;
    }
    return { session, snap: await session.snapshot() };
  };

  const pickView = async (snap: TableSnapshot, title: string, extra: vscode.QuickPickItem[] = []): Promise<{ view?: SavedView; item: vscode.QuickPickItem } | undefined> => {
    const all = read(state);
    const views = viewsOf(all, snap.scope);
    if (views.length === 0) {
      // With a button, the step it names: a toast without one showed one line, cut before it said
      // how to make a view (issue 23).
      const save = l10n.t('Save View As…');
      void vscode.window.showInformationMessage(l10n.t('No saved views for {0} yet: sort, filter and choose columns, then run "Save View As…".', whose(snap)), save).then((a) => {
        if (a === save) void vscode.commands.executeCommand(CommandIds.saveTableView);
      });
      return undefined;
    }
    const last = lastView(all, snap.scope)?.name;
    const items = [...views.map((v) => ({ label: v.name, description: v.name === last ? l10n.t('opens new results') : undefined, detail: summary(v), view: v })), ...extra.map((i) => ({ ...i, view: undefined }))];
    const picked = await deps.prompts().pick(items, { title, placeHolder: l10n.t('Saved views of {0}', whose(snap)), matchOnDetail: true });
    return picked ? { view: picked.view, item: picked } : undefined;
  };

  context.subscriptions.push(
    registerCommand(CommandIds.saveTableView, async (given?: unknown): Promise<string | undefined> => {
      const active = await activeSnapshot(given);
      if (!active) return undefined;
      const { session, snap } = active;
      const all = read(state);
      const existing = viewsOf(all, snap.scope);
      const raw =
        typeof given === 'string'
          ? given
          : await deps.prompts().input({
              title: l10n.t('Save View As (for {0})', whose(snap)),
              prompt: l10n.t('A name for this table\'s sort, filters, chosen columns and number formats. New results open in the view chosen last.'),
              value: lastView(all, snap.scope)?.name ?? '',
              // Kept when the focus leaves: asked from a notification's button over the table, the
              // box showed, then closed as the table's webview took the focus back (e2e table, 1 run of 3).
              ignoreFocusOut: true,
              validateInput: (v) => {
                const name = cleanViewName(v);
                if (name === undefined) return 'Type a name.';
                const same = existing.find((e) => sameName(e.name, name));
                return same ? { message: `Saving replaces the view "${same.name}".`, severity: vscode.InputBoxValidationSeverity.Warning } : undefined;
              },
            });
      const name = raw === undefined ? undefined : cleanViewName(raw);
      if (name === undefined) return undefined;
      const view = captureView(name, snap.query, snap.columns.map((c) => c.name), snap.layout);
      await modify((s) => saveView(s, snap.scope, view));
      await session.viewSaved(name);
      log.info(`Table: saved the view "${name}" for ${whose(snap)}.`);
      // The toast says only what was saved, so it reads whole at a toast's width; where new results open is in the log line above.
      void vscode.window.showInformationMessage(l10n.t('Saved the view "{0}".', name));
      return name;
    }),

    registerCommand(CommandIds.applyTableView, async (given?: unknown): Promise<string | undefined> => {
      const active = await activeSnapshot(given);
      if (!active) return undefined;
      const { session, snap } = active;
      const NONE = { label: l10n.t('No saved view'), detail: l10n.t('File order, no filters; new results open as the file is') };
      let view: SavedView | undefined;
      if (typeof given === 'string') {
        view = viewsOf(read(state), snap.scope).find((v) => sameName(v.name, given));
        if (!view) throw new Error(`There is no saved view named "${given}" for ${whose(snap)}.`);
      } else {
        const picked = await pickView(snap, 'Apply Saved View', [NONE]);
        if (!picked) return undefined;
        view = picked.view;
      }
      if (!view) {
        await session.applyView({}, undefined);
        await modify((s) => chooseView(s, snap.scope, undefined));
        return undefined;
      }
      const { query, layout, missing } = viewQuery(view, snap.columns.map((c) => c.name), snap.layout);
      const count = await session.applyView(query, layout, view.name);
      await modify((s) => chooseView(s, snap.scope, view.name));
      log.info(`Table: applied the view "${view.name}": ${count}.`);
      if (missing.length > 0) void showWarning(l10n.t('Columns not in this result: {0}.', missing.join(', ')));
      return view.name;
    }),

    registerCommand(CommandIds.deleteTableView, async (given?: unknown): Promise<string | undefined> => {
      const active = await activeSnapshot(given);
      if (!active) return undefined;
      const { snap } = active;
      const name = typeof given === 'string' ? viewsOf(read(state), snap.scope).find((v) => sameName(v.name, given))?.name : (await pickView(snap, 'Delete Saved View'))?.view?.name;
      if (name === undefined) return undefined;
      await modify((s) => deleteView(s, snap.scope, name));
      log.info(`Table: deleted the view "${name}" of ${whose(snap)}.`);
      void vscode.window.showInformationMessage(l10n.t('Deleted the view "{0}".', name));
      return name;
    }),
  );
}
