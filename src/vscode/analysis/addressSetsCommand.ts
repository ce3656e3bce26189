/**
 * "Address Sets…": the addresses of two or more results intersected, joined or subtracted, in two
 * steps. First the results, each one's address count shown as it is read (once per result, cached
 * for the window) and the counts of every operation in the title as the person picks; then the
 * operation, each with its count. The list is written beside the results as a `.txt` (one address
 * per line, what every list endpoint takes) and offered to "Use as Input…" (the one input picker),
 * whose endpoint command runs without `yes`: its price is shown before anything is sent.
 */
import * as vscode from 'vscode';
import { registerCommand } from '../base/handOver';
import * as path from 'node:path';
import { AddressSetCache, checkChains, combine, countOf, listFileName, listText, readAddressSet, readInWorker, type AddressSet, type SetOperation } from '../../core/addressLists/addressSets';
import { CommandIds } from '../base/ids';
import { openInTable } from '../table/tableEditor';
import { windowPrompts } from '../base/prompts';
import { useAsInput } from '../table/tableActions';
import { addressRole } from '../../core/table/columnKind';
import { browseFiles, resultItems, targetPaths, type AnalysisDeps, type ResultItem } from './resultChoice';
import { l10n } from '../../shared/l10n';
import { showError, showErrorIn } from '../base/errors';
import { errorText } from '../../core/errors';
import { writeNewNamed } from '../../core/files/writeInside';
import { acceptResults, resultsPlaceholder } from '../../core/addressLists/pickWords';
import { thousands } from '../../core/numberText';

const addresses = (n: number): string => `${thousands(n)} address${n === 1 ? '' : 'es'}`;
const TITLE = 'Wallet Analytics: Address Sets';

/** What tests (or another command) pass instead of answering the two steps. */
interface AddressSetsArgs {
  readonly files: readonly string[];
  readonly op: SetOperation;
  /** For subtract: the result kept (the others are taken from it); the first file when absent. */
  readonly keep?: string;
}

interface AddressSetsOutcome {
  /** The list file written, or undefined when the operation gave no address. */
  readonly file: string | undefined;
  readonly count: number;
}

/** One chosen operation: subtract keeps `files[0]` and takes the others from it. */
interface Choice {
  readonly op: SetOperation;
  readonly files: readonly string[];
}

function isArgs(v: unknown): v is AddressSetsArgs {
  if (typeof v !== 'object' || v === null) return false;
  const o = v as Record<string, unknown>;
  return Array.isArray(o.files) && o.files.every((f) => typeof f === 'string') && (o.op === 'intersect' || o.op === 'union' || o.op === 'subtract');
}

/** The sets of `files`, in order, read with a progress notification when any is not read yet. */
async function setsOf(cache: AddressSetCache, files: readonly string[]): Promise<AddressSet[]> {
  if (files.every((f) => cache.has(f))) return Promise.all(files.map((f) => cache.get(f)));
  return vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: l10n.t('Reading the addresses of each result…') }, () =>
    Promise.all(files.map((f) => cache.get(f))),
  );
}

/** Writes the operation's list beside its first result and offers it onwards; returns the file and count. */
async function writeList(cache: AddressSetCache, choice: Choice, offer: boolean): Promise<AddressSetsOutcome> {
  const sets = await setsOf(cache, choice.files);
  const mixed = checkChains(sets);
  if (mixed) throw new Error(mixed);
  const list = combine(choice.op, sets);
  const names = choice.files.map((f) => path.basename(f)).join(choice.op === 'subtract' ? ' − ' : choice.op === 'union' ? ' ∪ ' : ' ∩ ');
  if (list.length === 0) {
    void vscode.window.showInformationMessage(l10n.t('{0}: no address, so no list was written.', names));
    return { file: undefined, count: 0 };
  }
  const first = choice.files[0] ?? '';
  // Beside its first result, never over a file there: "name.txt", else "name-2.txt"… (the one naming rule).
  const file = await writeNewNamed(path.dirname(first), '', listFileName(choice.op, choice.files), listText(list));
  if (offer) {
    // Short, so the toast's source and both buttons read whole (the count is in the message).
    const use = 'Use as Input…';
    void vscode.window.showInformationMessage(l10n.t('Wrote {0} ({1}) to {2}.', addresses(list.length), names, path.basename(file)), use, l10n.t('Open')).then(async (pick) => {
      try {
        if (pick === l10n.t('Open')) await openInTable(file);
        else if (pick === use) {
          // The endpoint's own command runs without `yes`: the price step comes before anything is sent.
          const message = await useAsInput(list, sets[0]?.chain ?? 'main', { column: path.basename(file), skipped: 0, role: addressRole(sets[0]?.column ?? '') }, windowPrompts);
          if (message) vscode.window.setStatusBarMessage(message, 8000);
        }
      } catch (e) {
        void showError(e);
      }
    });
  }
  return { file, count: list.length };
}

/** Step 1: the results, with each one's count and every operation's count shown live. */
function pickResults(items: readonly ResultItem[], cache: AddressSetCache, preselected: readonly string[]): Promise<string[] | undefined> {
  return new Promise((resolve) => {
    const qp = vscode.window.createQuickPick<ResultItem>();
    qp.title = l10n.t('{0}: results', TITLE);
    qp.step = 1;
    qp.totalSteps = 2;
    qp.canSelectMany = true;
    qp.matchOnDescription = true;
    qp.matchOnDetail = true;
    qp.ignoreFocusOut = true;
    const addFiles: vscode.QuickInputButton = { iconPath: new vscode.ThemeIcon('folder-opened'), tooltip: l10n.t('Add files…') };
    qp.buttons = [addFiles];
    let list = items.filter((i) => i.file !== undefined);
    const about = new Map(list.map((i) => [i.file ?? '', i.description ?? '']));
    const notes = new Map<string, string>();
    let rendering = false;
    const chosen = (): string[] => qp.selectedItems.map((i) => i.file ?? '').filter((f) => f !== '');

    const render = (): void => {
      rendering = true;
      const selected = new Set(chosen());
      const next = list.map((i) => {
        const note = notes.get(i.file ?? '');
        return { ...i, description: note ? `${note} · ${about.get(i.file ?? '') ?? ''}` : about.get(i.file ?? '') };
      });
      qp.items = next;
      qp.selectedItems = next.filter((i) => selected.has(i.file ?? ''));
      rendering = false;
      const files = [...selected];
      const ready = files.filter((f) => cache.has(f) && notes.has(f) && !notes.get(f)?.startsWith('$(loading'));
      // Short enough to read whole (core/addressLists/pickWords.ts): the long version was cut (issue 35 item 16).
      if (files.length < 2 || ready.length < files.length) qp.placeholder = resultsPlaceholder({ picked: files.length, reading: files.length - ready.length });
      else void counts(files);
    };
    const counts = async (files: string[]): Promise<void> => {
      const sets = await Promise.all(files.map((f) => cache.get(f))).catch(() => undefined);
      if (!sets || chosen().join('\n') !== files.join('\n')) return;
      const mixed = checkChains(sets);
      qp.placeholder = mixed ?? resultsPlaceholder({ picked: files.length, reading: 0, counts: { all: countOf('intersect', sets), any: countOf('union', sets), onlyFirst: countOf('subtract', sets) } });
    };
    const read = (file: string): void => {
      if (notes.has(file)) return;
      notes.set(file, '$(loading~spin) reading…');
      cache.get(file).then(
        (s) => notes.set(file, `${addresses(s.addresses.length)} in “${s.column}”`),
        (e: unknown) => notes.set(file, `$(warning) ${errorText(e)}`),
      ).finally(() => {
        if (!closed) render();
      });
    };
    let closed = false;
    qp.onDidChangeSelection((sel) => {
      if (rendering) return;
      for (const i of sel) if (i.file) read(i.file);
      render();
    });
    qp.onDidTriggerButton(async (b) => {
      if (b !== addFiles) return;
      const more = await browseFiles(`${TITLE}: add results`, true);
      const known = new Set(list.map((i) => i.file));
      const selected = chosen();
      list = [...more.filter((f) => !known.has(f)).map((f) => ({ label: path.basename(f), description: path.dirname(f), file: f })), ...list];
      for (const f of more) about.set(f, about.get(f) ?? path.dirname(f));
      rendering = true;
      qp.items = list;
      qp.selectedItems = list.filter((i) => selected.includes(i.file ?? '') || more.includes(i.file ?? ''));
      rendering = false;
      for (const f of more) read(f);
      render();
    });
    qp.onDidAccept(() => {
      // Enter goes on with one result picked too (issue 35 item 16): the highlighted one joins it, or the second is asked next.
      const next = acceptResults(chosen(), qp.activeItems.map((i) => i.file ?? '').filter((f) => f !== ''));
      if (next.kind === 'none') {
        qp.placeholder = resultsPlaceholder({ picked: 0, reading: 0 });
        return;
      }
      closed = true;
      qp.hide();
      if (next.kind === 'go') return resolve(next.files);
      void pickSecond(list, next.first).then((second) => resolve(second === undefined ? undefined : [next.first, second]));
    });
    qp.onDidHide(() => {
      if (!closed) resolve(undefined);
      closed = true;
      qp.dispose();
    });
    qp.items = list;
    qp.selectedItems = list.filter((i) => preselected.includes(i.file ?? ''));
    for (const f of preselected) read(f);
    render();
    qp.show();
  });
}

/** After Enter with one result picked: the result to combine it with, one pick. */
async function pickSecond(items: readonly ResultItem[], first: string): Promise<string | undefined> {
  const pick = await vscode.window.showQuickPick(items.filter((i) => i.file !== first), {
    title: l10n.t('{0}: results', TITLE),
    placeHolder: l10n.t('The result to combine with {0}', path.basename(first)),
    matchOnDescription: true,
    ignoreFocusOut: true,
  });
  return pick?.file;
}

/** Step 2: the operation, each with its count. */
async function pickOperation(cache: AddressSetCache, files: readonly string[]): Promise<Choice | undefined> {
  const sets = await setsOf(cache, files);
  const mixed = checkChains(sets);
  if (mixed) throw new Error(mixed);
  type Item = vscode.QuickPickItem & { choice: Choice };
  const short = (f: string): string => path.basename(f);
  const items: Item[] = [
    { label: l10n.t('$(filter) Intersect'), description: l10n.t('{0} in all {1}', addresses(countOf('intersect', sets)), files.length), choice: { op: 'intersect', files } },
    { label: l10n.t('$(layers) Union'), description: l10n.t('{0} in any of them', addresses(countOf('union', sets))), choice: { op: 'union', files } },
    ...files.map((f, i) => {
      const ordered = [f, ...files.filter((_, j) => j !== i)];
      const n = countOf('subtract', [sets[i] as AddressSet, ...sets.filter((_, j) => j !== i)]);
      return { label: l10n.t('$(remove) Only in {0}', short(f)), description: l10n.t('{0}: {1} minus the other{2}', addresses(n), short(f), files.length > 2 ? 's' : ''), choice: { op: 'subtract' as const, files: ordered } };
    }),
  ];
  const pick = await vscode.window.showQuickPick(items, {
    title: l10n.t('{0}: operation (2/2)', TITLE),
    placeHolder: l10n.t('The list is written beside the results as a .txt, one address per line; nothing is sent'),
    ignoreFocusOut: true,
  });
  return pick?.choice;
}

export function registerAddressSetsCommand(context: vscode.ExtensionContext, deps: AnalysisDeps): void {
  // A result does not change once written: its set is read once for the window, in a table
  // worker, so a 722 MB result never stalls the extension host.
  const cache = new AddressSetCache((f) => readAddressSet(f, undefined, readInWorker()));
  context.subscriptions.push(
    registerCommand(CommandIds.addressSets, async (target?: unknown, selection?: unknown): Promise<AddressSetsOutcome | undefined> => {
      try {
        if (isArgs(target)) {
          const keep = target.op === 'subtract' && target.keep ? target.keep : undefined;
          const files = keep ? [keep, ...target.files.filter((f) => f !== keep)] : target.files;
          return await writeList(cache, { op: target.op, files }, false);
        }
        const given = await targetPaths(deps, target, selection);
        const items = await resultItems(deps, given);
        const files = items.filter((i) => i.file).length >= 2 || given.length >= 2 ? await pickResults(items, cache, given) : await browseFiles(`${TITLE}: pick two or more results`, true);
        if (!files || files.length === 0) return undefined;
        if (files.length < 2) throw new Error('Pick at least two results.');
        const choice = await pickOperation(cache, files);
        return choice ? await writeList(cache, choice, true) : undefined;
      } catch (e) {
        void showErrorIn(l10n.t('Address Sets'), e);
        return undefined;
      }
    }),
  );
}
