/**
 * A cell's and a column's actions: copy a cell, a wallet's activity, an address on its block
 * explorer, addresses added to a list, a column's addresses as the input of another endpoint
 * (its price shown first, as everywhere). The flows themselves are in tableActions.ts.
 */
import * as vscode from 'vscode';
import { addressRole } from '../../core/table/columnKind';
import { resultRole } from '../../core/addressLists/inputTargets';
import { neutraliseFormula } from '../../core/table';
import { l10n } from '../../shared/l10n';
import { showErrorIn } from '../base/errors';
import { readSettings } from '../base/settings';
import type { TablePrompts } from '../base/prompts';
import { activityCommand, addToList, openInExplorer, useAsInput } from './tableActions';
import { type Handlers, type Opened, type TableContext } from './tableContext';

export const CELL_ACTION_HANDLERS: Handlers<'copyText' | 'walletActivity' | 'openExplorer' | 'addToList' | 'useAsInput'> = {
  async copyText(ctx, _o, req) {
    // A single cell (or an address) pasted into a spreadsheet runs as a formula as readily as a selection.
    const text = readSettings().tableNeutralizeFormulas ? neutraliseFormula(req.text) : req.text;
    await vscode.env.clipboard.writeText(text);
    const note = text === req.text ? '' : ` with a ' first, so a spreadsheet shows it as text (walletAnalytics.table.neutralizeFormulas)`;
    ctx.post({ type: 'done', requestId: req.requestId, message: `Copied ${req.what}${note}.` });
  },
  async walletActivity(ctx, _o, req) {
    const prompts = ctx.deps.prompts();
    // Not awaited: the command asks for pages and shows the price; this reply only says it started.
    prompts.runCommand(activityCommand(req.chain), { inputs: { address: req.address } }).then(undefined, (e: unknown) => {
      void showErrorIn(l10n.t('Wallet activity'), e);
    });
    ctx.post({ type: 'done', requestId: req.requestId, message: `Wallet activity of ${req.address}: choose the pages; the price shows before anything is sent.` });
  },
  async openExplorer(ctx, _o, req) {
    ctx.post({ type: 'done', requestId: req.requestId, message: await openInExplorer(req.address, req.chain) });
  },
  async addToList(ctx, _o, req) {
    const prompts = ctx.deps.prompts();
    const msg = await addToList(req.addresses, ctx.deps.resultsFolder(), prompts);
    ctx.post({ type: 'done', requestId: req.requestId, message: msg });
  },
  async useAsInput(ctx, o, req) {
    await useColumnAsInput(ctx, o, req.requestId, req.column, ctx.deps.prompts());
  },
};

async function useColumnAsInput(ctx: TableContext, o: Opened, requestId: number, column: number, prompts: TablePrompts): Promise<void> {
  const info = o.columns[column];
  if (!info) throw new RangeError(`There is no column ${column}.`);
  const signal = ctx.controller(requestId);
  // One pass for the whole column in the worker (cached there): it counts the distinct addresses
  // there too (addresses.ts), so only the list crosses to this thread.
  const chain = info.address ?? 'main';
  const { addresses, skipped } = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Window, title: l10n.t('Reading the addresses of {0}', info.name) },
    () => o.table.addresses(column, chain, { signal, onProgress: (progress) => ctx.post({ type: 'progress', requestId, progress }) }),
  );
  const msg = await useAsInput(addresses, chain, { column: info.name, skipped, role: addressRole(info.name, resultRole(o.endpoint)) }, prompts);
  ctx.post({ type: 'done', requestId, message: msg });
}
