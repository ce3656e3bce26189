/**
 * What a cell or a column of the table hands to the rest of the extension: an address to the
 * wallet activity command, addresses to a list file, a column's addresses to another endpoint.
 * Every paid command is run WITHOUT `yes`, so the person sees the price first through the usual flow.
 */
import * as vscode from 'vscode';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { ENDPOINTS, commandIdOf, shortTitle, validateInput, type Endpoint } from '../../core/catalog';
import type { FieldSpec } from '../../core/fields';
import { appendToList, listAddress } from '../../core/addressSets';
import type { TablePrompts } from './prompts';

const fmt = (n: number): string => n.toLocaleString('en-US');

/** The endpoint that reads an address's swaps, per chain. */
export function activityCommand(chain: 'main' | 'alt'): string {
  const ep = ENDPOINTS.find((e) => e.id === (chain === 'alt' ? 'altchain_wallet_activity' : 'wallet_activity'));
  if (!ep) throw new Error(`No wallet activity endpoint for the ${chain} chain in the catalog.`);
  return commandIdOf(ep);
}

/** Address lists live in `<results folder>/lists/<name>.txt`, one address per line. */
export function listsFolder(resultsFolder: string): string {
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
  const dir = listsFolder(resultsFolder);
  await fs.mkdir(dir, { recursive: true });
  const names = (await fs.readdir(dir)).filter((n) => /\.txt$/iu.test(n)).sort();
  type Item = vscode.QuickPickItem & { file?: string };
  const items: Item[] = [{ label: '$(add) New list…', description: `in ${dir}` }];
  for (const n of names) {
    const count = (await readLines(path.join(dir, n))).length;
    items.push({ label: n.replace(/\.txt$/iu, ''), description: `${fmt(count)} address${count === 1 ? '' : 'es'}`, file: path.join(dir, n) });
  }
  const what = valid.length === 1 ? (listAddress(valid[0] ?? '') ?? '') : `${fmt(valid.length)} addresses`;
  const pick = await prompts.pick(items, { title: `Add ${what} to an address list`, placeHolder: 'Pick a list, or make a new one' });
  if (!pick) return undefined;
  let file = pick.file;
  if (!file) {
    const name = await prompts.input({
      title: 'New address list',
      prompt: `A name for the list (saved as a .txt in ${dir})`,
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
      : ` Skipped ${r.skipped.length === 1 ? `${shownValue(r.skipped[0] ?? '')}, which is not an address` : `${fmt(r.skipped.length)} values that are not addresses (${shownValue(r.skipped[0] ?? '')}…)`}.`;
  if (r.added.length === 0) return r.already > 0 ? `List “${listName}” already holds ${what}.${refused}` : `Nothing added to list “${listName}”.${refused}`;
  return `Added ${r.added.length === 1 ? r.added[0] : `${fmt(r.added.length)} addresses`} to list “${listName}” (${fmt(r.total)} in all).${refused}`;
}

/** A value as a message may quote it: on one line (JSON escapes), and short. */
function shownValue(v: string): string {
  return JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}…` : v);
}

/** An endpoint field that takes a list of addresses of the chain. */
interface Target {
  readonly ep: Endpoint;
  readonly field: FieldSpec;
}

/** Endpoints that accept these addresses as their only required input (others would need more than a column). */
export function inputTargets(addresses: readonly string[], chain: 'main' | 'alt'): { fits: Target[]; tooMany: Target[] } {
  const fits: Target[] = [];
  const tooMany: Target[] = [];
  for (const ep of ENDPOINTS) {
    for (const field of ep.fields) {
      if (field.kind !== 'addressList' || field.chain !== chain) continue;
      // A short sample proves the other fields are optional or defaulted; the length is checked on its own.
      if (!validateInput(ep, { [field.key]: addresses.slice(0, Math.max(1, field.min ?? 1)) }).ok) continue;
      if (addresses.length > (field.max ?? Infinity) || addresses.length < (field.min ?? 1)) tooMany.push({ ep, field });
      else fits.push({ ep, field });
    }
  }
  return { fits, tooMany };
}

/**
 * "Use these N addresses as input to…": the person picks an endpoint, and its command runs with the
 * addresses as input and without `yes`, so its price step shows before anything is sent.
 */
export async function useAsInput(
  addresses: readonly string[],
  chain: 'main' | 'alt',
  about: { column: string; skipped: number },
  prompts: TablePrompts,
): Promise<string | undefined> {
  if (addresses.length === 0) return `Column “${about.column}” holds no ${chain === 'alt' ? 'second-chain ' : ''}addresses in the rows shown.`;
  const { fits, tooMany } = inputTargets(addresses, chain);
  if (fits.length === 0) {
    return `No endpoint takes ${fmt(addresses.length)} addresses at once${tooMany.length ? ` (${tooMany.map((t) => `${shortTitle(t.ep)}: at most ${fmt(t.field.max ?? 0)}`).join('; ')})` : ''}. Filter the table to fewer rows first.`;
  }
  type Item = vscode.QuickPickItem & { target: Target };
  const items: Item[] = fits.map((t) => ({
    label: t.ep.title,
    description: `as ${t.field.label} · ${t.ep.bot ?? t.ep.path}`,
    detail: t.ep.summary,
    target: t,
  }));
  const skipped = about.skipped > 0 ? `; ${fmt(about.skipped)} cells that are not addresses left out` : '';
  const left = tooMany.length > 0 ? ` ${tooMany.length} endpoint${tooMany.length === 1 ? ' takes' : 's take'} fewer and ${tooMany.length === 1 ? 'is' : 'are'} not listed.` : '';
  const pick = await prompts.pick(items, {
    title: `Use ${fmt(addresses.length)} addresses from “${about.column}” as input to…${skipped}`,
    placeHolder: `The endpoint's price is shown before anything is sent.${left}`,
    matchOnDescription: true,
    matchOnDetail: true,
  });
  if (!pick) return undefined;
  const { ep, field } = pick.target;
  prompts.runCommand(commandIdOf(ep), { inputs: { [field.key]: [...addresses] } }).then(undefined, (e: unknown) => {
    void vscode.window.showErrorMessage(`${shortTitle(ep)}: ${e instanceof Error ? e.message : String(e)}`);
  });
  return `${shortTitle(ep)}: ${fmt(addresses.length)} addresses given as ${field.label}; the price shows next.`;
}
