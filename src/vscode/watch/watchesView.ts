/**
 * The Watches view: each watch with its next run, its last result (a click opens it, or shows the
 * new price of a watch whose query changed) and its spend this period. Its rows are the only
 * objects Run Now and Resume take as the person's own click (watchCommands.ts `clicked`).
 */
import * as vscode from 'vscode';
import { lastRun } from '../../core/watch/model';
import { nextSlot, scheduleText } from '../../core/watch/schedule';
import { sinceText } from '../../core/watch/changes';
import { CommandIds } from '../base/ids';
import type { WatchService } from './watchService';
import { l10n } from '../../shared/l10n';
import { fmtCredits } from '../../core/numberText';


export class WatchNode {
  constructor(readonly id: string) {}
}
export class DetailNode {
  constructor(readonly watchId: string, readonly row: 'next' | 'last' | 'spent') {}
}
type Node = WatchNode | DetailNode;

export function idOfTarget(t: unknown): string | undefined {
  if (t instanceof WatchNode) return t.id;
  if (t instanceof DetailNode) return t.watchId;
  return typeof t === 'string' ? t : undefined;
}

export class WatchesProvider implements vscode.TreeDataProvider<Node>, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<Node | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly sub: vscode.Disposable;
  private readonly nodes = new Map<string, WatchNode>();

  constructor(private readonly watches: WatchService) {
    this.sub = watches.onDidChange(() => this.changed.fire(undefined));
  }

  getChildren(n?: Node): Node[] {
    if (!n) {
      return this.watches.list().map((w) => {
        let node = this.nodes.get(w.id);
        if (!node) this.nodes.set(w.id, (node = new WatchNode(w.id)));
        return node;
      });
    }
    return n instanceof WatchNode ? [new DetailNode(n.id, 'next'), new DetailNode(n.id, 'last'), new DetailNode(n.id, 'spent')] : [];
  }

  getParent(n: Node): Node | undefined {
    return n instanceof DetailNode ? this.nodes.get(n.watchId) : undefined;
  }

  getTreeItem(n: Node): vscode.TreeItem {
    const w = this.watches.list().find((x) => x.id === (n instanceof WatchNode ? n.id : n.watchId));
    if (!w) return new vscode.TreeItem(l10n.t('(removed)'));
    const now = Date.now();
    if (n instanceof WatchNode) {
      const item = new vscode.TreeItem(w.name, vscode.TreeItemCollapsibleState.Expanded);
      item.id = `watch:${w.id}`;
      item.description = w.paused ? l10n.t('paused') : scheduleText(w.schedule);
      item.iconPath = new vscode.ThemeIcon(w.paused ? 'debug-pause' : 'eye');
      item.contextValue = w.paused ? 'watch paused' : 'watch active';
      item.tooltip = l10n.t('{0}\n{1}; approved: {2}{3} per run{4}', w.name, scheduleText(w.schedule), w.approval.risk ? 'up to ' : '', fmtCredits(w.approval.credits), w.threshold ? `\nCounts: new and gone wallets, and ${w.threshold.column} moving more than ${w.threshold.percent}%` : '\nCounts: new and gone wallets');
      return item;
    }
    const last = lastRun(w);
    const row = n.row;
    const label = row === 'next' ? 'Next run' : row === 'last' ? 'Last result' : 'Spent this period';
    const item = new vscode.TreeItem(label, vscode.TreeItemCollapsibleState.None);
    item.id = `watch:${w.id}:${row}`;
    item.contextValue = `watchDetail ${row}`;
    if (row === 'next') item.description = w.paused ? l10n.t('paused') : sinceText(nextSlot(w.schedule, Math.max(now, w.lastSlot)), now);
    else if (row === 'spent') item.description = fmtCredits(this.watches.spentThisPeriod(w));
    else {
      item.description = last ? `${last.text} · ${sinceText(last.at, now)}` : l10n.t('not run yet');
      item.tooltip = last ? `${last.text}\n${new Date(last.at).toISOString()}` : undefined;
      const open = last?.comparePath ?? last?.resultPath;
      if (open) item.command = { command: CommandIds.openWatchResult, title: last?.comparePath ? l10n.t('Open Changes') : l10n.t('Open Result'), arguments: [w.id] };
      if (last?.approveAgain) {
        // Skipped because what it would send changed: the row says what to do in words that fit the
        // sidebar's width (the reason and the time on hover), and a click shows the new price.
        item.description = l10n.t('New price to approve');
        item.tooltip = `${last.text}\n${new Date(last.at).toISOString()}\n\n${l10n.t('Click to see and approve the new price.')}`;
        item.command = { command: CommandIds.approveWatchAgain, title: l10n.t('Approve the New Price…'), arguments: [w.id] };
        item.contextValue = `watchDetail ${row} approveAgain`;
      }
      item.iconPath = new vscode.ThemeIcon(!last ? 'circle-outline' : last.status === 'changed' ? 'diff' : last.status === 'skipped' || last.status === 'failed' ? 'warning' : last.status === 'missed' ? 'history' : 'check');
    }
    return item;
  }

  dispose(): void {
    this.sub.dispose();
    this.changed.dispose();
  }
}
