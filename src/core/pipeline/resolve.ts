/**
 * A reference's values (`{"from": "traders", "column": "wallet", "top": 5000, "by": "pnl_usd"}`),
 * read from the earlier cell's result on disk through the one result reader (a table worker:
 * src/core/results/readResult.ts), so a 700 MB result is never held whole on the host. The
 * default column is the result's address column as the one classifier finds it (columnKind.ts);
 * address columns give their distinct addresses, in file order (or in `by` order).
 */
import { stat } from 'node:fs/promises';
import { distinctAddresses, SpreadSet, type Chain } from '../spec/addresses';
import { addressFilesOf } from '../results/files';
import { withResultReader, type ReadOptions } from '../results/readResult';
import { packedLinesFile, unpackLines, type PackedLines } from '../table/packedLines';
import { listText } from '../addressLists/addressSets';
import type { Reference } from './format';
import { l10n } from '../l10n';

export interface Resolved {
  readonly values: readonly string[];
  /** Set when the values are addresses of one chain. */
  readonly chain?: Chain;
  readonly column: string;
}

/** Values merged between two turns of the host's loop (issue 34 item 4: no pass over a whole list in one turn). */
const SLICE = 4_096;

const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** A set of `values`, filled a slice at a time (spread: one Set of 100,000 rehashes 65,536 of them in one turn as it grows). */
async function setOf(values: readonly string[]): Promise<SpreadSet> {
  const set = new SpreadSet();
  for (let at = 0; at < values.length; at += SLICE) {
    if (at > 0) await nextTurn();
    for (let i = at; i < Math.min(at + SLICE, values.length); i++) set.add(values[i] ?? '');
  }
  return set;
}

/**
 * A reference's values for a step that only writes them to a list file or counts them (a take
 * step, a result's size): left packed as they crossed when one file's worker counted them, so the
 * host makes no string per address (100,000 strings kept alive were the longest garbage collection
 * of its loop: issue 34 item 4); other references are resolved as resolveReference does.
 */
export interface ResolvedList {
  readonly column: string;
  readonly chain?: Chain;
  /** How many values. */
  readonly count: number;
  /** The values as a list file's bytes, one a line (addressSets.ts listText's text, UTF-8). */
  file(): Promise<Uint8Array>;
}

/** The values a reference names in `resultPath` (a file, or an extracted .zip folder: its files in order). */
export async function resolveReference(ref: Reference, resultPath: string, options: ReadOptions = {}): Promise<Resolved> {
  const r = await resolveIn(ref, resultPath, options, false);
  return 'packed' in r ? { values: await unpackLines(r.packed), column: r.column, ...(r.chain ? { chain: r.chain } : {}) } : r;
}

/** The values a reference names, for a step that writes or counts them (ResolvedList). */
export async function resolveReferenceList(ref: Reference, resultPath: string, options: ReadOptions = {}): Promise<ResolvedList> {
  const r = await resolveIn(ref, resultPath, options, true);
  const chain = r.chain ? { chain: r.chain } : {};
  if ('packed' in r) {
    const packed = r.packed;
    return { column: r.column, ...chain, count: packed.lengths.length, file: () => packedLinesFile(packed) };
  }
  const values = r.values;
  return { column: r.column, ...chain, count: values.length, file: () => Promise.resolve(new TextEncoder().encode(listText(values))) };
}

/** resolveReference's work; with `keepPacked`, one file's counted addresses are handed back as they crossed. */
async function resolveIn(ref: Reference, resultPath: string, options: ReadOptions, keepPacked: boolean): Promise<Resolved | { readonly packed: PackedLines; readonly column: string; readonly chain?: Chain }> {
  const files = (await stat(resultPath)).isDirectory() ? await addressFilesOf(resultPath) : [resultPath];
  const top = ref.top ?? Infinity;
  let chain: Chain | undefined;
  let column = ref.column ?? '';
  // The values so far, and the Set of them: built only when a second file (or cells the worker did
  // not count) must be merged in; a Set of 100,000 addresses is one long turn of the host's loop.
  let values: string[] = [];
  let seen: SpreadSet | undefined;
  for (const f of files) {
    if (values.length >= top) break;
    const got = await withResultReader(f, async (reader) => {
      const names = reader.columns;
      let col: number;
      let colChain: Chain | undefined;
      if (ref.column === undefined) {
        const a = reader.addressColumn();
        if (!a) {
          if (names.length !== 1) throw new Error(l10n.t('“{0}” has no address column; name one with "column" (its columns: {1}).', ref.from, names.join(', ')));
          col = 0;
        } else {
          col = a.column;
          colChain = a.chain;
        }
      } else {
        col = names.indexOf(ref.column);
        if (col < 0) throw new Error(l10n.t('“{0}” has no column “{1}” (its columns: {2}).', ref.from, ref.column, names.join(', ')));
        colChain = reader.chains[col] ?? undefined;
      }
      const name = names[col] ?? '';
      // Each file's first `top`, not `top` less the values so far: a later file's first ones may all be
      // repeats of an earlier file's (they are merged below, up to `top`).
      const want = top;
      if (ref.by !== undefined) {
        const by = names.indexOf(ref.by);
        if (by < 0) throw new Error(l10n.t('“{0}” has no column “{1}” to sort by (its columns: {2}).', ref.from, ref.by, names.join(', ')));
        // Sorted in the worker; duplicates may cut the list short, so a few more rows are read.
        const rows = await reader.topRows([col], Math.min(reader.rowCount, want * 2 + 16), [{ column: by, descending: true }], { signal: options.signal });
        return { name, chain: colChain, cells: rows.map((r) => r[0] ?? ''), counted: false };
      }
      if (colChain && keepPacked && files.length === 1) return { name, chain: colChain, cells: [], packed: (await reader.packedAddresses(col, colChain, { signal: options.signal, limit: want })).addresses, counted: true };
      if (colChain) return { name, chain: colChain, cells: (await reader.addresses(col, colChain, { signal: options.signal, limit: want })).addresses, counted: true };
      const rows = await reader.topRows([col], want, [], { signal: options.signal });
      return { name, chain: colChain, cells: rows.map((r) => r[0] ?? ''), counted: false };
    }, options);
    chain ??= got.chain;
    column ||= got.name;
    // One file's worker counted them (at most `top`): handed back as they crossed.
    if ('packed' in got && got.packed) return { packed: got.packed, column, ...(chain ? { chain } : {}) };
    if (got.counted && values.length === 0) {
      // The worker's distinct addresses (trimmed, checked, normalised, in order, at most `want`): used as they came.
      values = got.cells.length > top ? got.cells.slice(0, top) : got.cells;
      continue;
    }
    seen ??= await setOf(values);
    for (let at = 0; at < got.cells.length && values.length < top; at += SLICE) {
      if (at > 0) await nextTurn();
      const slice = got.cells.slice(at, at + SLICE);
      const cells = got.counted ? slice : got.chain ? distinctAddresses(slice, got.chain).addresses : slice.filter((c) => c !== '');
      for (const c of cells) {
        if (values.length >= top) break;
        if (!seen.add(c)) continue;
        values.push(c);
      }
    }
  }
  return { values, column, ...(chain ? { chain } : {}) };
}
