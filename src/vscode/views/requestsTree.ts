import * as vscode from 'vscode';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { requestTooltipMarkdown } from '../../core/history/format';
import { mergeHistory, type HistoryItem } from '../../core/history/merge';
import { GROUPS, HistoryModel, contextValueOf, rowIcon, rowText, type GroupId, type ModelChange, type RowIcon } from '../../core/history/model';
import { isZipItem } from '../../core/results/kinds';
import { CommandIds } from '../base/ids';
import { l10n } from '../../shared/l10n';
import { errorText } from '../../core/errors';
import { fileSize, thousands } from '../../core/numberText';

export class GroupNode {
  readonly kind = 'group';
  constructor(readonly group: GroupId) {}
}
export class RequestNode {
  readonly kind = 'request';
  constructor(readonly requestId: string) {}
}
class MoreNode {
  readonly kind = 'more';
  constructor(readonly group: GroupId) {}
}
export class FileNode {
  readonly kind = 'file';
  constructor(
    readonly requestId: string,
    readonly file: string,
    readonly bytes: number,
  ) {}
}
class NoteNode {
  readonly kind = 'note';
  constructor(
    readonly requestId: string,
    readonly text: string,
    readonly error: boolean,
  ) {}
}
export type RequestsElement = GroupNode | RequestNode | MoreNode | FileNode | NoteNode;

const ICONS: Record<RowIcon, () => vscode.ThemeIcon> = {
  running: () => new vscode.ThemeIcon('loading~spin'),
  downloading: () => new vscode.ThemeIcon('sync~spin'),
  failed: () => new vscode.ThemeIcon('error', new vscode.ThemeColor('errorForeground')),
  downloadFailed: () => new vscode.ThemeIcon('warning', new vscode.ThemeColor('list.warningForeground')),
  onDisk: () => new vscode.ThemeIcon('pass', new vscode.ThemeColor('testing.iconPassed')),
  onServer: () => new vscode.ThemeIcon('cloud'),
};

const STATUS_WORDS: Record<RowIcon, string> = {
  running: 'running on the server',
  downloading: 'done; downloading its file',
  failed: 'failed on the server',
  downloadFailed: 'done, but its file could not be saved',
  onDisk: 'done; the result is on disk',
  onServer: 'done; the result is on the server (click to download it, free)',
};

interface RequestsSource {
  /** The profile scope whose history is shown. */
  scope(): string;
  /** The server's last answer for it, if any. */
  server(scope: string): Parameters<typeof mergeHistory>[0];
  /** The locally tracked jobs. */
  local(): Parameters<typeof mergeHistory>[1];
  /** Whether the tree should show items now (else it is empty and a welcome view shows). */
  showing(): boolean;
  /** Downloads a done item's result if needed; resolves to where it is. */
  ensureOnDisk(item: HistoryItem): Promise<string>;
}

/**
 * The Requests view's data: the merged history in a HistoryModel, nodes kept per id (the same
 * object for the same row, so VS Code can refresh just it), children of .zip results, paging.
 */
export class RequestsProvider implements vscode.TreeDataProvider<RequestsElement>, vscode.Disposable {
  readonly model = new HistoryModel();
  private readonly changed = new vscode.EventEmitter<RequestsElement | RequestsElement[] | undefined>();
  readonly onDidChangeTreeData = this.changed.event;
  private readonly groupNodes = new Map<GroupId, GroupNode>(GROUPS.map((g) => [g.id, new GroupNode(g.id)]));
  private readonly moreNodes = new Map<GroupId, MoreNode>(GROUPS.map((g) => [g.id, new MoreNode(g.id)]));
  private requestNodes = new Map<string, RequestNode>();
  /** The last change fired, for tests: 'root' or the ids of the nodes. */
  readonly fired: (string[] | 'root')[] = [];

  constructor(private readonly source: RequestsSource) {}

  node(requestId: string): RequestNode {
    let n = this.requestNodes.get(requestId);
    if (!n) this.requestNodes.set(requestId, (n = new RequestNode(requestId)));
    return n;
  }

  group(id: GroupId): GroupNode {
    return this.groupNodes.get(id) ?? new GroupNode(id);
  }

  /** Re-merges server and local records and fires only what changed. */
  rebuild(): ModelChange {
    const scope = this.source.scope();
    const items = mergeHistory(this.source.server(scope), this.source.local(), scope);
    const change = this.model.update(items, Date.now());
    if (this.requestNodes.size > items.length * 2 + 1_000) {
      // Forget nodes of requests no longer listed (a switch of profile, a trimmed history).
      const keep = new Map<string, RequestNode>();
      for (const i of items) {
        const n = this.requestNodes.get(i.requestId);
        if (n) keep.set(i.requestId, n);
      }
      this.requestNodes = keep;
    }
    this.fire(change);
    return change;
  }

  /** Fires a model change as the smallest set of nodes. */
  fire(change: ModelChange): void {
    if (change.root) {
      this.fired.push('root');
      this.changed.fire(undefined);
      return;
    }
    const nodes: RequestsElement[] = [...change.groups.map((g) => this.group(g)), ...change.items.map((id) => this.node(id))];
    if (nodes.length === 0) return;
    this.fired.push([...change.groups.map((g) => `group:${g}`), ...change.items]);
    if (this.fired.length > 100) this.fired.splice(0, this.fired.length - 100);
    this.changed.fire(nodes);
  }

  /** Redraws everything (filter changed, view shown again, state changed). */
  refreshAll(): void {
    this.fired.push('root');
    this.changed.fire(undefined);
  }

  getChildren(element?: RequestsElement): RequestsElement[] | Promise<RequestsElement[]> {
    if (!element) {
      if (!this.source.showing()) return [];
      return this.model.groups().map((g) => this.group(g.id));
    }
    if (element instanceof GroupNode) {
      const { items, more } = this.model.page(element.group);
      const nodes: RequestsElement[] = items.map((i) => this.node(i.requestId));
      if (more > 0) nodes.push(this.moreNodes.get(element.group) ?? new MoreNode(element.group));
      return nodes;
    }
    if (element instanceof RequestNode) return this.filesOf(element);
    return [];
  }

  /** The files of a done .zip result, downloading it first when it is not on disk. */
  private async filesOf(node: RequestNode): Promise<RequestsElement[]> {
    const item = this.model.get(node.requestId);
    if (!item || !isZipItem(item)) return [];
    try {
      const dir = await this.source.ensureOnDisk(item);
      const st = await fs.stat(dir);
      if (!st.isDirectory()) return [new FileNode(node.requestId, dir, st.size)];
      const names = (await fs.readdir(dir)).sort((a, b) => a.localeCompare(b, 'en', { numeric: true }));
      const out: RequestsElement[] = [];
      for (const n of names) {
        const p = path.join(dir, n);
        const s = await fs.stat(p).catch(() => undefined);
        if (s?.isFile()) out.push(new FileNode(node.requestId, p, s.size));
      }
      return out.length ? out : [new NoteNode(node.requestId, 'The archive holds no files.', false)];
    } catch (e) {
      return [new NoteNode(node.requestId, `Could not get the result: ${errorText(e)}`, true)];
    }
  }

  getParent(element: RequestsElement): RequestsElement | undefined {
    if (element instanceof RequestNode) {
      const g = this.model.groupOfItem(element.requestId);
      return g ? this.group(g) : undefined;
    }
    if (element instanceof MoreNode) return this.group(element.group);
    if (element instanceof FileNode || element instanceof NoteNode) return this.node(element.requestId);
    return undefined;
  }

  getTreeItem(element: RequestsElement): vscode.TreeItem {
    if (element instanceof GroupNode) {
      const g = GROUPS.find((x) => x.id === element.group);
      const count = this.model.groups().find((x) => x.id === element.group)?.count ?? 0;
      const item = new vscode.TreeItem(g?.label ?? element.group, g?.expanded ? vscode.TreeItemCollapsibleState.Expanded : vscode.TreeItemCollapsibleState.Collapsed);
      item.id = `group:${element.group}`;
      item.description = thousands(count);
      item.contextValue = `group ${element.group}`;
      return item;
    }
    if (element instanceof MoreNode) {
      const { more } = this.model.page(element.group);
      const next = Math.min(more, this.model.pageSize);
      const item = new vscode.TreeItem(l10n.t('Show {0} more…', thousands(next)));
      item.id = `more:${element.group}`;
      item.description = l10n.t('{0} not shown', thousands(more));
      item.iconPath = new vscode.ThemeIcon('ellipsis');
      item.command = { command: CommandIds.showMoreRequests, title: l10n.t('Show More'), arguments: [element.group] };
      return item;
    }
    if (element instanceof FileNode) {
      const item = new vscode.TreeItem(path.basename(element.file));
      item.id = `file:${element.requestId}:${element.file}`;
      item.description = fileSize(element.bytes);
      item.resourceUri = vscode.Uri.file(element.file);
      item.tooltip = element.file;
      item.contextValue = 'requestFile';
      item.command = { command: CommandIds.openRequestFile, title: l10n.t('Open'), arguments: [element] };
      return item;
    }
    if (element instanceof NoteNode) {
      const item = new vscode.TreeItem(element.text);
      item.id = `note:${element.requestId}`;
      item.iconPath = new vscode.ThemeIcon(element.error ? 'error' : 'info', element.error ? new vscode.ThemeColor('errorForeground') : undefined);
      item.tooltip = element.text;
      return item;
    }
    const it = this.model.get(element.requestId);
    if (!it) {
      const gone = new vscode.TreeItem(element.requestId);
      gone.id = `request:${element.requestId}`;
      return gone;
    }
    const group = this.model.groupOfItem(it.requestId) ?? 'earlier';
    const text = rowText(it, group, Date.now());
    const item = new vscode.TreeItem(text.label, isZipItem(it) ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None);
    item.id = `request:${it.requestId}`;
    item.description = text.description;
    const icon = rowIcon(it);
    item.iconPath = ICONS[icon]();
    item.contextValue = contextValueOf(it);
    item.accessibilityInformation = { label: `${text.label}, ${text.description}, ${STATUS_WORDS[icon]}` };
    if (it.status !== 'running') item.command = { command: CommandIds.openRequest, title: l10n.t('Open'), arguments: [element] };
    return item;
  }

  /** The tooltip, built only when a row is hovered: the full inputs and the requestId. */
  resolveTreeItem(item: vscode.TreeItem, element: RequestsElement): vscode.TreeItem {
    if (!(element instanceof RequestNode)) return item;
    const it = this.model.get(element.requestId);
    if (it) item.tooltip = tooltipOf(it);
    return item;
  }

  dispose(): void {
    this.changed.dispose();
  }
}

/** A row's tooltip: what ran, its state, cost, times, requestId and every input (server strings as literal text). */
function tooltipOf(it: HistoryItem): vscode.MarkdownString {
  // Not trusted, no HTML, no theme icons: the text holds the server's strings.
  return new vscode.MarkdownString(requestTooltipMarkdown(it, STATUS_WORDS[rowIcon(it)]));
}
