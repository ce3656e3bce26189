/**
 * What a cell or a column of the table hands to the rest of the extension: an address to the
 * wallet activity command, addresses to a list file, a column's addresses to another endpoint.
 * Every paid command is run WITHOUT `yes`, so the person sees the price first through the usual flow.
 */
import * as vscode from 'vscode';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { ENDPOINTS, commandIdOf, shortTitle } from '../../core/spec/catalog';
import { addressRole, type AddressRole } from '../../core/table/columnKind';
import { roleText, type ListOffer } from '../../core/addressLists/inputTargets';
import { appendToList, listAddress } from '../../core/addressLists/addressSets';
import { pickInputTarget, targetInputs } from '../flows/inputPicker';
import type { TablePrompts } from '../base/prompts';
import { KNOWN_EXPLORERS, explorerLink, explorerSetting } from '../../core/spec/explorer';
import { readSettings } from '../base/settings';
import { l10n } from '../../shared/l10n';
import { showErrorIn, showWarning } from '../base/errors';
import { errorText } from '../../core/errors';
import { folderInside } from '../../core/files/writeInside';
import { thousands } from '../../core/numberText';

/** The endpoint that reads an address's swaps, per chain. */
export function activityCommand(chain: 'main' | 'alt'): string {
  const ep = ENDPOINTS.find((e) => e.id === (chain === 'alt' ? 'altchain_wallet_activity' : 'wallet_activity'));
  if (!ep) throw new Error(`No wallet activity endpoint for the ${chain} chain in the catalog.`);
  return commandIdOf(ep);
}

/** Address lists live in `<results folder>/lists/<name>.txt`, one address per line. */
function listsFolder(resultsFolder: string): string {
  return path.join(resultsFolder, 'lists');
}

async function readLines(file: string): Promise<string[]> {
  const text = await fs.readFile(file, 'utf8').catch(() => '');
  return text.split(/\r?\n/u).map((l) => l.trim()).filter((l) => l.length > 0);
}

/** Asks which list (or a new one) and appends the addresses it does not hold yet (values that are not addresses are skipped, and said); returns a message, or undefined if cancelled. */
export async function addToList(addresses: readonly string[], resultsFolder: string, prompts: TablePrompts): Promise<string | undefined> {
  const valid = addresses.filter((a) => listAddress(a) !== undefined);
  if (valid.length === 0) return `Nothing to add: ${addresses.length === 1 ? `${shownValue(addresses[0] ?? '')} is not an address` : 'none of these values is an address'}.`;
  const dir = await folderInside(resultsFolder, path.basename(listsFolder(resultsFolder)));
  const names = (await fs.readdir(dir)).filter((n) => /\.txt$/iu.test(n)).sort();
  type Item = vscode.QuickPickItem & { file?: string };
  const items: Item[] = [{ label: l10n.t('$(add) New list…'), description: l10n.t('in {0}', dir) }];
  for (const n of names) {
    const count = (await readLines(path.join(dir, n))).length;
    items.push({ label: n.replace(/\.txt$/iu, ''), description: l10n.t('{0} address{1}', thousands(count), count === 1 ? '' : 'es'), file: path.join(dir, n) });
  }
  const what = valid.length === 1 ? (listAddress(valid[0] ?? '') ?? '') : `${thousands(valid.length)} addresses`;
  const pick = await prompts.pick(items, { title: l10n.t('Add {0} to an address list', what), placeHolder: l10n.t('Pick a list, or make a new one') });
  if (!pick) return undefined;
  let file = pick.file;
  if (!file) {
    const name = await prompts.input({
      title: l10n.t('New address list'),
      prompt: l10n.t('A name for the list (saved as a .txt in {0})', dir),
      validateInput: (v) => (/^[\w .-]{1,80}$/u.test(v.trim()) ? undefined : 'Letters, digits, spaces, dots, dashes and underscores; at most 80.'),
    });
    if (!name) return undefined;
    file = path.join(dir, `${name.trim().replace(/\.txt$/iu, '')}.txt`);
  }
  const r = await appendToList(file, addresses);
  const listName = path.basename(file, '.txt');
  const refused =
    r.skipped.length === 0
      ? ''
      : ` Skipped ${r.skipped.length === 1 ? `${shownValue(r.skipped[0] ?? '')}, which is not an address` : `${thousands(r.skipped.length)} values that are not addresses (${shownValue(r.skipped[0] ?? '')}…)`}.`;
  if (r.added.length === 0) return r.already > 0 ? `List “${listName}” already holds ${what}.${refused}` : `Nothing added to list “${listName}”.${refused}`;
  return `Added ${r.added.length === 1 ? r.added[0] : `${thousands(r.added.length)} addresses`} to list “${listName}” (${thousands(r.total)} in all).${refused}`;
}

/** A value as a message may quote it: on one line (JSON escapes), and short. */
function shownValue(v: string): string {
  return JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}…` : v);
}

/**
 * "Use these N addresses as input to…": the one picker (flows/inputPicker.ts), ranked by what the
 * column holds and priced for this list; the chosen endpoint's command runs with the addresses as
 * input and without `yes`, so its price step shows before anything is sent.
 */
export async function useAsInput(
  addresses: readonly string[],
  chain: 'main' | 'alt',
  about: { column: string; skipped: number; role?: AddressRole },
  prompts: TablePrompts,
): Promise<string | undefined> {
  if (addresses.length === 0) return `Column “${about.column}” holds no ${chain === 'alt' ? 'second-chain ' : ''}addresses in the rows shown.`;
  const role = about.role ?? addressRole(about.column);
  const offer: ListOffer = { column: about.column, chain, role, addresses, distinct: addresses.length };
  const skipped = about.skipped > 0 ? `; ${thousands(about.skipped)} cells that are not addresses left out` : '';
  let target;
  try {
    target = await pickInputTarget([offer], prompts, { title: l10n.t('Use {0} {1} from “{2}” as input to…{3}', thousands(addresses.length), roleText(role), about.column, skipped) });
  } catch (e) {
    return errorText(e);
  }
  if (!target) return undefined;
  const { ep, field } = target;
  prompts.runCommand(commandIdOf(ep), { inputs: targetInputs(target) }).then(undefined, (e: unknown) => {
    void showErrorIn(shortTitle(ep), e);
  });
  const cut = target.cut ? ` (the first ${thousands(target.count)} of ${thousands(addresses.length)}, the most per request)` : '';
  return `${shortTitle(ep)}: ${thousands(target.count)} addresses given as ${field.label}${cut}; the price shows next.`;
}

/** The template of the explorer the person picks for `chain` (saved in the user settings), or undefined. */
async function pickExplorer(chain: 'main' | 'alt'): Promise<string | undefined> {
  type Item = vscode.QuickPickItem & { readonly template?: string };
  const own = l10n.t('Another Explorer… (set its address page in Settings)');
  const items: Item[] = [...KNOWN_EXPLORERS[chain].map((e) => ({ label: e.name, detail: e.template, template: e.template })), { label: own }];
  const pick = await vscode.window.showQuickPick(items, {
    title: chain === 'alt' ? l10n.t('Open in Explorer: which explorer for second-chain addresses?') : l10n.t('Open in Explorer: which explorer for main-chain addresses?'),
    placeHolder: l10n.t('Kept in your user settings; change it there any time'),
  });
  if (!pick) return undefined;
  if (pick.template === undefined) {
    void vscode.commands.executeCommand('workbench.action.openSettings', explorerSetting(chain));
    return undefined;
  }
  await vscode.workspace.getConfiguration('walletAnalytics').update(chain === 'alt' ? 'explorer.altUrl' : 'explorer.mainUrl', pick.template, vscode.ConfigurationTarget.Global);
  return pick.template;
}

/**
 * Opens an address's explorer page with VS Code's openExternal (which asks before leaving for a
 * new site); with no template set, or a bad one, says so and offers the setting. Returns the status line.
 */
export async function openInExplorer(address: string, chain: 'main' | 'alt'): Promise<string> {
  let template = readSettings().explorerUrls[chain];
  if (template.trim() === '') {
    // First use: the known explorers of the chain to pick from, kept in the user settings.
    const picked = await pickExplorer(chain);
    if (picked === undefined) return l10n.t('No block explorer was chosen.');
    template = picked;
  }
  const link = explorerLink(template, address, chain);
  if ('problem' in link) {
    const setting = explorerSetting(chain);
    void showWarning(link.problem, l10n.t('Open Settings')).then((choice) => {
      if (choice) void vscode.commands.executeCommand('workbench.action.openSettings', setting);
    });
    // The status line is short; the notification says how to set it.
    return link.unset ? `No block explorer is set for this chain: ${setting}.` : link.problem;
  }
  const opened = await vscode.env.openExternal(vscode.Uri.parse(link.url, true));
  return opened ? `Opened ${address} in the explorer.` : `The explorer page of ${address} was not opened.`;
}
