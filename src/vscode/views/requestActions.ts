import * as vscode from 'vscode';
import { registerCommand } from '../base/handOver';
import * as path from 'node:path';
import { commandIdOf, findEndpoint } from '../../core/spec/catalog';
import { endpointTitle, hasShortenedList } from '../../core/history/format';
import type { HistoryItem } from '../../core/history/merge';
import type { GroupId } from '../../core/history/model';
import { listFields, resultRole } from '../../core/addressLists/inputTargets';
import { exists } from '../../core/results/files';
import { readResultLists } from '../../core/results/readResult';
import type { RunOutcome } from '../calls/callService';
import type { RunArgs } from '../calls/runArgs';
import { CommandIds } from '../base/ids';
import { pickInputTarget, targetInputs } from '../flows/inputPicker';
import { openResult } from '../results/open';
import { FileNode, RequestNode } from './requestsTree';
import type { RequestsView } from './requestsView';
import { l10n } from '../../shared/l10n';
import { showError, showWarning } from '../base/errors';
import { thousands } from '../../core/numberText';

/** What tests (and other commands) may pass instead of answering prompts; a person never needs them. */
interface ActionArgs extends Pick<RunArgs, 'notify' | 'wait'> {
  /** Use Result as Input to…: the endpoint to run, instead of picking it. */
  readonly target?: string;
}

/** Only the run options a caller may pass on; VS Code hands menu commands extra arguments (the selection) that are not ours. */
function runOptions(a: unknown): ActionArgs {
  if (typeof a !== 'object' || a === null || Array.isArray(a)) return {};
  const o = a as Record<string, unknown>;
  const out: { notify?: boolean; wait?: boolean; target?: string } = {};
  if (typeof o.notify === 'boolean') out.notify = o.notify;
  if (typeof o.wait === 'boolean') out.wait = o.wait;
  if (typeof o.target === 'string') out.target = o.target;
  return out;
}

/** The commands on the Requests view's rows and title bar. */
export function registerRequestActions(context: vscode.ExtensionContext, view: RequestsView, baseUrl: () => string): void {
  const model = view.provider.model;

  const itemOf = (target: unknown): HistoryItem => {
    const id = target instanceof RequestNode ? target.requestId : typeof target === 'string' ? target : undefined;
    const item = id ? model.get(id) : undefined;
    if (!item) throw new Error('That request is no longer in the history.');
    return item;
  };

  /** Downloads when needed, with a progress notification; resolves to the result's path. */
  const onDisk = (item: HistoryItem, again = false): Thenable<string> => {
    const local = item.resultPath;
    if (!again && local) return exists(local).then((yes) => (yes ? local : download()));
    return download();
    function download(): Thenable<string> {
      return vscode.window.withProgress(
        { location: vscode.ProgressLocation.Notification, title: l10n.t('{0}: downloading the result (free)…', endpointTitle(item.endpointId)) },
        () => view.files.ensure(item, baseUrl(), { again }),
      );
    }
  };

  const guard =
    <A extends unknown[], R>(f: (...a: A) => Promise<R>) =>
    async (...a: A): Promise<R | undefined> => {
      try {
        return await f(...a);
      } catch (e) {
        void showError(e);
        return undefined;
      }
    };

  const rerun = async (target: unknown, extra?: unknown): Promise<RunOutcome | undefined> => {
    const item = itemOf(target);
    const ep = findEndpoint(item.endpointId);
    if (!ep || ep.family !== 'queued') throw new Error(`${endpointTitle(item.endpointId)} cannot be re-run from here.`);
    const inputs = await view.wholeInputs(item);
    if (hasShortenedList(inputs)) {
      throw new Error(
        `The history keeps only the first entries of this request’s long list, so it cannot be re-run as it was. Run “${ep.title}” from the palette with the full list.`,
      );
    }
    // No `yes`: the price is shown again, as the last step or in a dialog (runEndpoint decides).
    return vscode.commands.executeCommand<RunOutcome>(commandIdOf(ep), { inputs, ...runOptions(extra) });
  };

  const useAsInput = async (target: unknown, extra?: unknown): Promise<RunOutcome | undefined> => {
    const item = itemOf(target);
    if (item.status !== 'done') throw new Error('Only a finished request has a result to use.');
    const opts = runOptions(extra);
    const p = await onDisk(item);
    // Read in a table worker (core/results/readResult.ts), never on this thread: every address
    // column's distinct addresses, at most the most a request takes.
    const most = Math.max(...listFields().map((t) => t.field.max ?? 0));
    const lists = await vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title: l10n.t('{0}: reading the addresses of the result (free)…', endpointTitle(item.endpointId)) },
      () => readResultLists(p, { limit: most, hint: resultRole(item.endpointId) }),
    );
    if (lists.every((l) => l.addresses.length === 0)) throw new Error(`The result of ${endpointTitle(item.endpointId)} holds no addresses to use as input.`);
    const chosen = await pickInputTarget(lists, { pick: (items, o) => Promise.resolve(vscode.window.showQuickPick(items, o)) }, {
      title: l10n.t('Use the result of {0} as input to…', endpointTitle(item.endpointId)),
      preset: opts.target,
    });
    if (!chosen) return { status: 'cancelled' };
    if (chosen.cut) {
      void showWarning(
        l10n.t('First {2} of {0} {1} used.', thousands(chosen.offer.distinct), chosen.wants, thousands(chosen.count)),
      );
    }
    const { target: _t, ...run } = opts;
    return vscode.commands.executeCommand<RunOutcome>(commandIdOf(chosen.ep), { inputs: targetInputs(chosen), ...run });
  };

  const reveal = async (p: string) => {
    const uri = vscode.Uri.file(p);
    const inWorkspace = vscode.workspace.getWorkspaceFolder(uri) !== undefined;
    await vscode.commands.executeCommand(inWorkspace ? 'revealInExplorer' : 'revealFileInOS', uri);
  };

  context.subscriptions.push(
    registerCommand(
      CommandIds.openRequest,
      guard(async (target: unknown) => {
        const item = itemOf(target);
        const title = endpointTitle(item.endpointId);
        if (item.status === 'running') {
          void vscode.window.showInformationMessage(l10n.t('{0} is still running; it opens when done.', title));
          return undefined;
        }
        if (item.status === 'failed') {
          const a = await showError(
            l10n.t('{0} failed on the server: {1}. It was accepted, so it was charged.', title, item.error ?? 'no reason given'),
            l10n.t('Re-run with the Same Inputs'),
            l10n.t('Copy requestId'),
          );
          if (a === l10n.t('Copy requestId')) await vscode.env.clipboard.writeText(item.requestId);
          else if (a) await rerun(item.requestId);
          return undefined;
        }
        const p = await onDisk(item);
        await openResult(p);
        return p;
      }),
    ),
    registerCommand(
      CommandIds.revealRequest,
      guard(async (target: unknown) => {
        const p = await onDisk(itemOf(target));
        await reveal(p);
        return p;
      }),
    ),
    registerCommand(
      CommandIds.downloadRequestAgain,
      guard(async (target: unknown) => {
        const item = itemOf(target);
        const p = await onDisk(item, true);
        void vscode.window.showInformationMessage(l10n.t('{0}: downloaded again to {1}.', endpointTitle(item.endpointId), path.basename(p)), l10n.t('Open')).then((a) => {
          if (a) void openResult(p);
        });
        return p;
      }),
    ),
    registerCommand(
      CommandIds.copyRequestId,
      guard(async (target: unknown) => {
        const item = itemOf(target);
        await vscode.env.clipboard.writeText(item.requestId);
        vscode.window.setStatusBarMessage(`Copied ${item.requestId}`, 3000);
        return item.requestId;
      }),
    ),
    registerCommand(CommandIds.rerunRequest, guard(rerun)),
    registerCommand(CommandIds.useResultAsInput, guard(useAsInput)),
    registerCommand(CommandIds.showMoreRequests, (group: unknown) => {
      if (typeof group === 'string') view.provider.fire(model.showMore(group as GroupId));
    }),
    registerCommand(
      CommandIds.openRequestFile,
      guard(async (target: unknown) => {
        const file = target instanceof FileNode ? target.file : typeof target === 'string' ? target : undefined;
        if (file) await openResult(file);
      }),
    ),
    registerCommand(CommandIds.filterRequests, async (endpointId?: unknown) => {
      if (typeof endpointId === 'string') return view.setFilter({ ...model.filter, endpointId });
      const counts = model.endpointsInHistory();
      const items: (vscode.QuickPickItem & { id?: string })[] = [
        { label: l10n.t('$(list-flat) All endpoints'), description: l10n.t('{0} requests', thousands(model.size)), id: '' },
        ...counts.map((c) => ({ label: endpointTitle(c.endpointId), description: l10n.t('{0} request{1}', thousands(c.count), c.count === 1 ? '' : 's'), id: c.endpointId, picked: c.endpointId === model.filter.endpointId })),
      ];
      const pick = await vscode.window.showQuickPick(items, { title: l10n.t('Wallet Analytics: Filter Requests by Endpoint'), placeHolder: l10n.t('Show only the requests of…') });
      if (pick) await view.setFilter({ ...model.filter, endpointId: pick.id || undefined });
      return undefined;
    }),
    registerCommand(CommandIds.searchRequests, async (text?: unknown) => {
      if (typeof text === 'string') return view.setFilter({ ...model.filter, search: text });
      const before = model.filter;
      const box = vscode.window.createInputBox();
      box.title = l10n.t('Wallet Analytics: Search Requests');
      box.placeholder = l10n.t('Words in the title, inputs (an address), requestId or status; Enter keeps the filter, Escape undoes it');
      box.value = before.search ?? '';
      let timer: ReturnType<typeof setTimeout> | undefined;
      let accepted = false;
      box.onDidChangeValue((v) => {
        if (timer) clearTimeout(timer);
        timer = setTimeout(() => void view.setFilter({ ...model.filter, search: v }), 150);
      });
      box.onDidAccept(() => {
        accepted = true;
        if (timer) clearTimeout(timer);
        void view.setFilter({ ...model.filter, search: box.value });
        box.hide();
      });
      box.onDidHide(() => {
        if (timer) clearTimeout(timer);
        if (!accepted) void view.setFilter(before);
        box.dispose();
      });
      box.show();
      return undefined;
    }),
    registerCommand(CommandIds.clearRequestsFilter, () => view.setFilter({})),
  );
}
