/**
 * Address sets: the addresses of two or more results intersected, joined or subtracted, written
 * as a list file (`.txt`, one address per line: what every list endpoint takes, see
 * resultAddresses.ts). Each result's set is read once through the table engine (its address
 * column, as the table finds it) and cached, so the counts of every operation can be shown live
 * while a person picks. Main-chain addresses are base58 and compared as they are (case matters);
 * second-chain ones ignore case and are lower-cased.
 */
import { readdir, readFile, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { distinctAddresses as distinctOf, normaliseAddress, type Chain } from '../spec/addresses';
import { addressChain } from '../table/columnKind';
import { findAddressColumn } from '../table/compare/addressColumn';
import { openTable, type TableSource } from '../table';
import { withResultReader } from '../results/readResult';
import { l10n } from '../l10n';
import { replaceInside } from '../files/writeInside';

export type SetOperation = 'intersect' | 'union' | 'subtract';

/** The distinct addresses of one result. */
export interface AddressSet {
  readonly file: string;
  readonly chain: Chain;
  /** The column they were read from ('address' for a list). */
  readonly column: string;
  /** Distinct, normalised, in first-seen order. */
  readonly addresses: readonly string[];
  readonly set: ReadonlySet<string>;
  /** Non-empty cells that were not addresses of the chain. */
  readonly skipped: number;
}

/** The distinct addresses among some cells (the one rule: addresses.ts), without a limit. */
export function distinctAddresses(cells: Iterable<string>, chain: Chain): { addresses: string[]; skipped: number } {
  const { addresses, skipped } = distinctOf(cells, chain);
  return { addresses, skipped };
}

/** The distinct addresses of some cells as one result's set (see distinctAddresses). */
export function addressSetOf(file: string, column: string, chain: Chain, cells: Iterable<string>): AddressSet {
  const { addresses, skipped } = distinctAddresses(cells, chain);
  return { file, chain, column, addresses, set: new Set(addresses), skipped };
}

/** The addresses of a result's address column, read through the table engine (no full cell walk). */
/** One file's address column: its name, chain and every cell's text, in file order. */
interface AddressColumnCells {
  readonly column: string;
  readonly chain: Chain;
  readonly cells: readonly string[];
  /** Set when the reader already took the distinct addresses (in its worker): `cells` are they, and this many cells were not addresses. */
  readonly skipped?: number;
}

/** Reads one table file's address column (undefined when it has none). */
export type AddressColumnReader = (file: string, signal?: AbortSignal) => Promise<AddressColumnCells | undefined>;

/** In this thread, through the table engine (tests, benchmarks, tools). */
export const readInThread: AddressColumnReader = async (file, signal) => {
  const source: TableSource = await openTable(file, { signal, prepareColumns: false });
  try {
    await source.indexed;
    const col = await findAddressColumn(source, signal);
    if (!col) return undefined;
    const [typed] = await source.typedColumns([{ column: col.column, text: true }], { signal });
    return { column: col.name, chain: col.chain, cells: typed?.fullText ?? [] };
  } finally {
    await source.close();
  }
};

/**
 * In a table worker (src/core/table/tableWorker.ts): the extension host's thread only sends and
 * receives, so reading a 722 MB result never stalls it. The window's code uses this one.
 */
export function readInWorker(workerFile?: string, onThread?: (threadId: number) => void): AddressColumnReader {
  return async (file, signal) =>
    withResultReader(
      file,
      async (reader) => {
        const col = reader.addressColumn();
        if (!col) return undefined;
        // The worker takes the distinct addresses (addresses.ts): only they cross to this thread.
        const { addresses, skipped } = await reader.addresses(col.column, col.chain, { signal });
        return { column: col.name, chain: col.chain, cells: addresses, skipped };
      },
      { signal, ...(workerFile ? { workerFile } : {}), ...(onThread ? { onThread } : {}) },
    );
}

/** A result's address set: its file's address column, or a result folder's files' merged. */
export async function readAddressSet(file: string, signal?: AbortSignal, read: AddressColumnReader = readInThread): Promise<AddressSet> {
  const files = await tableFiles(file);
  const parts: AddressSet[] = [];
  for (const f of files) {
    const col = await read(f, signal);
    if (col?.skipped !== undefined) parts.push({ file: f, chain: col.chain, column: col.column, addresses: col.cells, set: new Set(col.cells), skipped: col.skipped });
    else if (col) parts.push(addressSetOf(f, col.column, col.chain, col.cells));
  }
  const first = parts[0];
  if (!first) throw new Error(l10n.t('{0} has no address column.', basename(file)));
  if (parts.length === 1) return first;
  // A result folder (an extracted .zip): its files' addresses of the first file's chain, merged.
  const same = parts.filter((p) => p.chain === first.chain);
  const all = same.flatMap((p) => p.addresses);
  return { ...addressSetOf(file, first.column, first.chain, all), skipped: same.reduce((n, p) => n + p.skipped, 0) };
}

/** A file, or the .csv and .txt files of a result folder. */
async function tableFiles(p: string): Promise<string[]> {
  if (!(await stat(p)).isDirectory()) return [p];
  const names = (await readdir(p)).filter((n) => /\.(csv|txt)$/iu.test(n)).sort();
  if (names.length === 0) throw new Error(l10n.t('{0} holds no .csv or .txt file.', basename(p)));
  return names.map((n) => join(p, n));
}

/** Each result's set, read once (a result file does not change once written). */
export class AddressSetCache {
  private readonly sets = new Map<string, Promise<AddressSet>>();

  constructor(private readonly read: (file: string) => Promise<AddressSet> = (f) => readAddressSet(f)) {}

  get(file: string): Promise<AddressSet> {
    let p = this.sets.get(file);
    if (!p) {
      p = this.read(file);
      this.sets.set(file, p);
      // A failure may be retried (the file may be written later).
      p.catch(() => this.sets.delete(file));
    }
    return p;
  }

  /** The set of `file` if already read, else undefined (for counts shown without waiting). */
  has(file: string): boolean {
    return this.sets.has(file);
  }
}

/** Sets must be of one chain to be combined; the message says which ones differ. */
export function checkChains(sets: readonly AddressSet[]): string | undefined {
  const chains = new Set(sets.map((s) => s.chain));
  if (chains.size <= 1) return undefined;
  const names = (c: Chain): string => sets.filter((s) => s.chain === c).map((s) => basename(s.file)).join(', ');
  return `These results hold addresses of two chains (main: ${names('main')}; second chain: ${names('alt')}); combine results of one chain.`;
}

/**
 * The addresses of an operation, in first-seen order: intersect (in every set), union (in any)
 * or subtract (in the first and in none of the others). Sets are taken in the order given.
 */
export function combine(op: SetOperation, sets: readonly Pick<AddressSet, 'addresses' | 'set'>[]): string[] {
  const [first, ...rest] = sets;
  if (!first) return [];
  switch (op) {
    case 'union': {
      const out = new Set<string>(first.addresses);
      for (const s of rest) for (const a of s.addresses) out.add(a);
      return [...out];
    }
    case 'intersect':
      return first.addresses.filter((a) => rest.every((s) => s.set.has(a)));
    case 'subtract':
      return first.addresses.filter((a) => !rest.some((s) => s.set.has(a)));
  }
}

/** How many addresses an operation gives, without building the list or any set (cheap enough to run on every pick). */
export function countOf(op: SetOperation, sets: readonly Pick<AddressSet, 'addresses' | 'set'>[]): number {
  const first = sets[0];
  if (!first) return 0;
  let n = 0;
  if (op === 'union') {
    // Each address counted in the first set that holds it.
    for (let i = 0; i < sets.length; i++) {
      const list = (sets[i] as Pick<AddressSet, 'addresses'>).addresses;
      for (let k = 0; k < list.length; k++) {
        const a = list[k] as string;
        let earlier = false;
        for (let j = 0; j < i && !earlier; j++) earlier = (sets[j] as Pick<AddressSet, 'set'>).set.has(a);
        if (!earlier) n++;
      }
    }
    return n;
  }
  // Intersect walks the smallest set (the count does not depend on order); subtract walks the first.
  let at = 0;
  if (op === 'intersect') sets.forEach((s, i) => (at = s.set.size < (sets[at] as Pick<AddressSet, 'set'>).set.size ? i : at));
  const walk = sets[at] as Pick<AddressSet, 'addresses'>;
  const others = sets.filter((_, i) => i !== at);
  const want = op === 'intersect';
  for (const a of walk.addresses) {
    let all = true;
    let any = false;
    for (let j = 0; j < others.length; j++) {
      const has = (others[j] as Pick<AddressSet, 'set'>).set.has(a);
      all &&= has;
      any ||= has;
      if (want ? !all : any) break;
    }
    if (want ? all : !any) n++;
  }
  return n;
}

/** A list file's text: one address per line, ending with a newline ('' for no address). */
export function listText(addresses: readonly string[]): string {
  return addresses.length === 0 ? '' : `${addresses.join('\n')}\n`;
}

/** A short name for an operation over some files, for a list file: "intersect a + b.txt", "subtract a - b - c.txt". */
export function listFileName(op: SetOperation, files: readonly string[]): string {
  const stems = files.map((f) => basename(f).replace(/\.(csv|txt|json)$/iu, '').replace(/[^\w .@+-]+/gu, '_').slice(0, 40));
  const joined = stems.join(op === 'subtract' ? ' - ' : op === 'union' ? ' + ' : ' & ').slice(0, 160);
  return `${op} ${joined}.txt`;
}

/** What "Add to an Address List" did: the addresses appended, the values refused, and the list's size after. */
interface ListAppend {
  readonly added: readonly string[];
  /** Values that are not an address of either chain (addresses.ts rules), as they came. */
  readonly skipped: readonly string[];
  /** Addresses the list held already. */
  readonly already: number;
  readonly total: number;
}

/** A value as a list file holds it: an address of either chain (trimmed; second-chain ones lower-cased), or undefined when it is none. */
export function listAddress(value: string): string | undefined {
  const v = value.trim();
  const chain = addressChain(v);
  return chain === undefined ? undefined : normaliseAddress(v, chain);
}

/**
 * Appends to a list file (one address per line) the values that are addresses of either chain and
 * not in it yet (second-chain ones lower-cased, as every list here is written). Anything else, a
 * line break included, is never written: a list holds addresses only (issue 21).
 */
export async function appendToList(file: string, values: readonly string[]): Promise<ListAppend> {
  const text = await readFile(file, 'utf8').catch(() => '');
  const have = text.split(/\r?\n/u).map((l) => l.trim()).filter((l) => l !== '');
  const known = new Set(have);
  const added: string[] = [];
  const skipped: string[] = [];
  let already = 0;
  for (const raw of values) {
    const a = listAddress(raw);
    if (a === undefined) {
      skipped.push(raw);
      continue;
    }
    if (known.has(a)) already++;
    else {
      known.add(a);
      added.push(a);
    }
  }
  // The whole list written again beside itself and moved in: never appended through a link planted at its name (issue 30).
  if (added.length > 0) await replaceInside(dirname(file), basename(file), `${text}${text.length > 0 && !text.endsWith('\n') ? '\n' : ''}${listText(added)}`);
  return { added, skipped, already, total: have.length + added.length };
}
