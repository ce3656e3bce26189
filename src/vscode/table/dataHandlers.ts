/**
 * The table's data requests: a window of cells as the person scrolls, a query (sort, filters,
 * search) applied, a selection copied, the view exported to CSV. Each answers its request id.
 */
import * as vscode from 'vscode';
import * as path from 'node:path';
import { CancelledError } from '../../core/errors';
import { COPY_MAX_CELLS, WINDOW_CELL_CHARS } from '../../core/table';
import { l10n } from '../../shared/l10n';
import { readSettings } from '../base/settings';
import type { TablePrompts } from '../base/prompts';
import { queryKey, type Handlers, type Opened, type TableContext } from './tableContext';
import { thousands } from '../../core/numberText';
import { TABLE_VIEW_TYPE } from '../base/ids';

/** Sessions with an export running: one at a time per table. */
const exporting = new WeakSet<TableContext>();

export const DATA_HANDLERS: Handlers<'getWindow' | 'setQuery' | 'copy' | 'export'> = {
  async getWindow(ctx, o, req) {
    const signal = ctx.controller(req.requestId);
    const last = Math.min(req.last, o.table.view.length);
    const window = await o.table.window(Math.min(req.first, last), last, req.columns, signal, req.cut === true ? WINDOW_CELL_CHARS : undefined);
    ctx.post({ type: 'window', requestId: req.requestId, window });
    ctx.firstWindowSent(o);
  },
  async setQuery(ctx, o, req) {
    const signal = ctx.controller(req.requestId);
    const t0 = performance.now();
    const state = await o.table.apply(req.query, {
      signal,
      onProgress: (progress) => ctx.post({ type: 'progress', requestId: req.requestId, progress }),
    });
    const saved = ctx.viewShown.get(o);
    if (saved && saved.key !== queryKey(state.query)) {
      // The person changed the rows' shape (or chose Show all): the table no longer shows the view.
      ctx.viewShown.delete(o);
      ctx.post({ type: 'savedView' });
    }
    ctx.post({ type: 'queryApplied', requestId: req.requestId, view: state });
    // Pushed too, so a webview that did not ask (another request path, a test) shows the new rows.
    ctx.post({ type: 'view', view: state });
    ctx.deps.log.info(`Table: query applied in ${Math.round(performance.now() - t0)} ms: ${state.countLabel}.`);
  },
  async copy(ctx, o, req) {
    const rows = Math.max(0, Math.min(req.last, o.table.view.length) - req.first);
    if (rows * req.columns.length > COPY_MAX_CELLS) {
      ctx.post({ type: 'failed', requestId: req.requestId, message: `That is ${thousands(rows * req.columns.length)} cells; copy at most ${thousands(COPY_MAX_CELLS)}, or export the view to CSV.` });
      return;
    }
    const neutraliseFormulas = readSettings().tableNeutralizeFormulas;
    const text = await o.table.copy(req.first, req.last, req.columns, { format: req.format, header: req.header, neutraliseFormulas }, ctx.controller(req.requestId));
    await vscode.env.clipboard.writeText(text);
    const what = `${thousands(rows)} row${rows === 1 ? '' : 's'} × ${thousands(req.columns.length)} column${req.columns.length === 1 ? '' : 's'}`;
    ctx.post({ type: 'done', requestId: req.requestId, message: `Copied ${what}${req.header ? ' with headers' : ''}.` });
  },
  async export(ctx, o, req) {
    await exportView(ctx, o, req.requestId, req.columns, ctx.deps.prompts());
  },
};

async function exportView(ctx: TableContext, o: Opened, requestId: number, columns: readonly number[] | undefined, prompts: TablePrompts): Promise<void> {
  if (exporting.has(ctx)) {
    ctx.post({ type: 'failed', requestId, message: 'An export of this table is already running.' });
    return;
  }
  exporting.add(ctx);
  try {
    await exportTo(ctx, o, requestId, columns, prompts);
  } finally {
    exporting.delete(ctx);
  }
}

async function exportTo(ctx: TableContext, o: Opened, requestId: number, columns: readonly number[] | undefined, prompts: TablePrompts): Promise<void> {
  const base = path.basename(o.file).replace(/\.(csv|txt|json)$/iu, '');
  const target = await prompts.savePath(path.join(path.dirname(o.file), `${base}-view.csv`));
  if (!target) {
    ctx.post({ type: 'failed', requestId, message: 'Export cancelled.', cancelled: true });
    return;
  }
  const signal = ctx.controller(requestId);
  const rows = o.table.view.length;
  const neutraliseFormulas = readSettings().tableNeutralizeFormulas;
  const result = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: l10n.t('Exporting {0} rows to {1}', thousands(rows), path.basename(target)), cancellable: true },
    (progress, token) => {
      const c = ctx.requestController(requestId);
      token.onCancellationRequested(() => c?.abort(new CancelledError()));
      let last = 0;
      return o.table.export(target, {
        columns,
        neutraliseFormulas,
        signal,
        onProgress: (p) => {
          ctx.post({ type: 'progress', requestId, progress: p });
          const pct = p.total > 0 ? (100 * p.done) / p.total : 100;
          progress.report({ increment: pct - last, message: `${thousands(p.done)} of ${thousands(p.total)} rows` });
          last = pct;
        },
      });
    },
  );
  ctx.post({
    type: 'done',
    requestId,
    message: `Exported ${thousands(result.rows)} rows × ${thousands(columns?.length ?? o.table.columns.length)} columns to ${target}${neutraliseFormulas ? ' (formulas neutralised)' : ''}.`,
  });
  void vscode.window.showInformationMessage(l10n.t('Exported {0} rows to {1}.', thousands(result.rows), path.basename(target)), l10n.t('Open in Table'), l10n.t('Reveal')).then((pick) => {
    if (pick === l10n.t('Open in Table')) void vscode.commands.executeCommand('vscode.openWith', vscode.Uri.file(target), TABLE_VIEW_TYPE);
    else if (pick === l10n.t('Reveal')) void vscode.commands.executeCommand('revealFileInOS', vscode.Uri.file(target));
  });
}
