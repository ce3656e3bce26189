/**
 * One palette command per catalog endpoint, and "Run an Endpoint…" to pick among them. Each runs
 * the one call flow (calls/callService.ts); arguments from any caller can pre-fill inputs but
 * never approve the price.
 */
import * as vscode from 'vscode';
import { registerCommand } from '../base/handOver';
import { ENDPOINTS, commandIdOf, type Endpoint } from '../../core/spec/catalog';
import { describeRule } from '../../core/money/pricing';
import type { CallService } from '../calls/callService';
import { CommandIds } from '../base/ids';
import { l10n } from '../../shared/l10n';

const FAMILY_LABEL: Record<string, string> = { queued: 'Queued jobs (a file)', direct: 'Direct (JSON now)', account: 'Account (free)' };

/** Registers one palette command per catalog endpoint, and "Run an Endpoint…" to pick among them. */
export function registerEndpointCommands(context: vscode.ExtensionContext, calls: CallService): void {
  for (const ep of ENDPOINTS) {
    context.subscriptions.push(
      registerCommand(commandIdOf(ep), (args?: unknown) => calls.run(ep, args)),
    );
  }
  context.subscriptions.push(
    registerCommand(CommandIds.runEndpoint, async () => {
      const items: (vscode.QuickPickItem & { ep?: Endpoint })[] = [];
      for (const chain of ['main', 'alt'] as const) {
        for (const family of ['queued', 'direct', 'account'] as const) {
          const eps = ENDPOINTS.filter((e) => e.chain === chain && e.family === family);
          if (eps.length === 0) continue;
          items.push({ label: `${chain === 'alt' ? 'Second chain · ' : ''}${FAMILY_LABEL[family]}`, kind: vscode.QuickPickItemKind.Separator });
          for (const ep of eps) {
            items.push({
              label: ep.title,
              description: describeRule(ep),
              detail: `${ep.bot ? `${ep.bot} · ` : ''}${ep.method} ${ep.path} · ${ep.summary}`,
              ep,
            });
          }
        }
      }
      const pick = await vscode.window.showQuickPick(items, { title: l10n.t('Wallet Analytics: Run an Endpoint'), placeHolder: l10n.t('Type a name, a bot command (/pnlplus) or a path'), matchOnDetail: true, matchOnDescription: true });
      if (pick?.ep) return calls.run(pick.ep);
      return undefined;
    }),
  );
}
