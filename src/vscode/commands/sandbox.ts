import * as vscode from 'vscode';
import { registerCommand } from '../base/handOver';
import type { Connection } from '../base/connection';
import type { JobService } from '../jobs/jobService';
import { openResult } from '../results/open';
import { CommandIds } from '../base/ids';
import { l10n } from '../../shared/l10n';

/** Start/Stop Sandbox, Show Log, and the result commands views and notifications call. */
export function registerSandboxAndResultCommands(
  context: vscode.ExtensionContext,
  deps: { connection: Connection; jobs: JobService; showLog: () => void },
): void {
  context.subscriptions.push(
    registerCommand(CommandIds.startSandbox, async () => {
      const s = await vscode.window.withProgress(
        { location: vscode.ProgressLocation.Window, title: l10n.t('Starting the Wallet Analytics sandbox…') },
        () => deps.connection.startSandbox(),
      );
      // With a button: a toast without one shows collapsed, on one line, cut before "Your API key is
      // untouched" (issue 23). The button is the next step, a first call (free here; its price shows first).
      const first = l10n.t('Run an Endpoint…');
      void vscode.window
        .showInformationMessage(
          l10n.t('Sandbox running at {0}: every command now works on synthetic data, with no key, no credits and no network. Your API key is untouched.', s.baseUrl),
          first,
        )
        .then((a) => {
          if (a === first) void vscode.commands.executeCommand(CommandIds.runEndpoint);
        });
      return s.baseUrl;
    }),
    registerCommand(CommandIds.stopSandbox, async () => {
      await deps.connection.stopSandbox();
      void vscode.window.showInformationMessage(l10n.t('Sandbox stopped. Calls go to {0} again.', deps.connection.baseUrl()));
    }),
    registerCommand(CommandIds.showLog, () => deps.showLog()),
    registerCommand(CommandIds.retryDownload, async (requestId?: unknown) => {
      if (typeof requestId !== 'string') return;
      await deps.jobs.poller.retryDownload(requestId);
      const j = deps.jobs.store.get(requestId);
      if (j) await deps.jobs.announce(j);
    }),
    registerCommand(CommandIds.openResult, async (target?: unknown) => {
      const job = typeof target === 'string' ? deps.jobs.store.get(target) : undefined;
      const p = job?.resultPath ?? (typeof target === 'string' ? target : undefined);
      if (p) await openResult(p);
    }),
  );
}
