/**
 * Which column of a table holds its addresses, for comparing two results and for address sets.
 * The same evidence the table uses for its address columns (src/vscode/table/columnInfo.ts): most
 * non-empty cells of the first rows are addresses of one chain. A wallet-like header wins among
 * several such columns (a token result also holds mint addresses), and a column named like an
 * address column is taken even when its first cells are empty.
 */
import { addressProblem, type Chain } from '../addresses';
import type { TableSource } from '../table/types';

/** Rows read to judge a column (as the table does). */
export const SAMPLE_ROWS = 50;
/** Share of the non-empty sample cells that must be addresses of one chain. */
const AGREE = 0.9;
/** Headers of an address column, best first. */
const NAMES = ['address', 'wallet', 'wallet_address', 'trader', 'owner', 'holder', 'buyer', 'maker'];
const WALLET_HINT = /wallet|trader|buyer|holder|owner|maker|address/iu;

export interface AddressColumn {
  readonly column: number;
  readonly name: string;
  readonly chain: Chain;
}

/** The chain most sample cells of one column are addresses of, or undefined. */
export function columnChain(cells: readonly string[]): Chain | undefined {
  let filled = 0;
  let main = 0;
  let alt = 0;
  for (const raw of cells) {
    const v = raw.trim();
    if (v === '') continue;
    filled++;
    if (addressProblem(v, 'main') === undefined) main++;
    else if (addressProblem(v, 'alt') === undefined) alt++;
  }
  if (filled === 0) return undefined;
  if (main >= AGREE * filled) return 'main';
  if (alt >= AGREE * filled) return 'alt';
  return undefined;
}

/**
 * The address column of a table from its header and first rows (`sample[r][c]` over every
 * column), or undefined when it has none.
 */
export function pickAddressColumn(names: readonly string[], sample: readonly (readonly string[])[]): AddressColumn | undefined {
  const found: AddressColumn[] = [];
  names.forEach((name, column) => {
    const chain = columnChain(sample.map((row) => row[column] ?? ''));
    if (chain) found.push({ column, name, chain });
  });
  const rank = (name: string): number => {
    const i = NAMES.indexOf(name.trim().toLowerCase());
    return i >= 0 ? i : WALLET_HINT.test(name) ? NAMES.length : NAMES.length + 1;
  };
  if (found.length > 0) return found.reduce((best, c) => (rank(c.name) < rank(best.name) ? c : best));
  // No cell to judge (an empty result): a column named like an address column still counts.
  const byName = names.findIndex((n) => NAMES.includes(n.trim().toLowerCase()));
  const name = names[byName];
  return name === undefined ? undefined : { column: byName, name, chain: 'main' };
}

/** The address column of a source, judged on its first rows. */
export async function findAddressColumn(source: TableSource, signal?: AbortSignal): Promise<AddressColumn | undefined> {
  const rows = Math.min(source.rowCount, SAMPLE_ROWS);
  const ids = Array.from({ length: rows }, (_, i) => i);
  const sample = rows > 0 ? await source.readCells(ids, source.columns.map((_, i) => i), signal) : [];
  return pickAddressColumn(source.columns, sample);
}

/** An address as compared: trimmed, and lower case on the second chain (its addresses ignore case). */
export function addressKey(value: string, chain: Chain): string {
  const v = value.trim();
  return chain === 'alt' ? v.toLowerCase() : v;
}
