import * as vscode from 'vscode';
import { createTreeView, registerCommand } from '../base/handOver';
import { ACCOUNT_VIEW, CommandIds } from '../base/ids';
import type { Services } from '../services';
import { AccountProvider } from './accountView';
import { CreditsStatus } from './creditsStatus';
import type { HistoryService } from '../base/history';
import { registerRequestActions } from './requestActions';
import { RequestsView } from './requestsView';
import { ConnectionStatus, type SidebarState } from '../base/status';

/** The sidebar's parts, returned to activate() (and, through ExtensionApi, to the tests). */
export interface Sidebar {
  readonly history: HistoryService;
  readonly status: ConnectionStatus;
  readonly account: AccountProvider;
  readonly accountView: vscode.TreeView<unknown>;
  readonly requests: RequestsView;
  readonly credits: CreditsStatus;
}

/**
 * The "Wallet Analytics" view container: the Account view, the Requests view, their welcome
 * views (driven by `walletAnalytics.status`), the credits status bar item and their commands.
 */
export function registerSidebar(context: vscode.ExtensionContext, s: Services, history: HistoryService): Sidebar {
  const status = new ConnectionStatus(s.connection, s.keys, s.credits, s.contextKeys);
  const account = new AccountProvider(s.connection, s.keys, s.credits, status, context.extensionUri, s.allowance);
  const accountView = createTreeView(ACCOUNT_VIEW, { treeDataProvider: account });
  const requests = new RequestsView({ connection: s.connection, jobs: s.jobs, history, status, contextKeys: s.contextKeys });
  const credits = new CreditsStatus(s.connection, s.keys, s.credits, status, history, s.storage);
  context.subscriptions.push(status, account, accountView, requests, credits);
  // A glance at the Account view reads a balance older than a minute (free).
  context.subscriptions.push(
    accountView.onDidChangeVisibility((e) => {
      const b = s.credits.peek();
      if (e.visible && status.canPoll && (!b || Date.now() - b.at > 60_000)) void credits.refresh();
    }),
  );

  // Another key may be another account: its history is read afresh, never shown from the last key's answer.
  context.subscriptions.push(
    s.keys.onDidChange(() => {
      history.fetcher.forget(s.connection.scope());
      requests.rebuild();
    }),
  );

  registerRequestActions(context, requests, () => s.connection.scope());
  context.subscriptions.push(
    registerCommand(CommandIds.showAccount, async () => {
      await vscode.commands.executeCommand(`${ACCOUNT_VIEW}.focus`);
    }),
    registerCommand(CommandIds.refreshAccount, async (): Promise<SidebarState> => {
      const state = await status.recheck();
      account.refresh();
      return state;
    }),
    registerCommand(CommandIds.refreshRequests, async (): Promise<SidebarState> => {
      // Also the welcome view's Retry: check the connection again, then read the history.
      if (status.state !== 'ok') await status.recheck();
      await requests.refresh(true);
      return status.state;
    }),
  );
  return { history, status, account, accountView, requests, credits };
}
