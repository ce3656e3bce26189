/**
 * A reference's values (`{"from": "traders", "column": "wallet", "top": 5000, "by": "pnl_usd"}`),
 * read from the earlier cell's result on disk through the one result reader (a table worker:
 * src/core/results/readResult.ts), so a 700 MB result is never held whole on the host. The
 * default column is the result's address column as the one classifier finds it (columnKind.ts);
 * address columns give their distinct addresses, in file order (or in `by` order).
 */
import { stat } from 'node:fs/promises';
import { distinctAddresses, SpreadSet, type Chain } from '../spec/addresses';
import { classifyColumn, pickAddressColumn } from '../table/columnKind';
import { addressFilesOf } from '../results/files';
import { withResultReader, type ReadOptions } from '../results/readResult';
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

/** The values a reference names in `resultPath` (a file, or an extracted .zip folder: its files in order). */
export async function resolveReference(ref: Reference, resultPath: string, options: ReadOptions = {}): Promise<Resolved> {
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
        const a = pickAddressColumn(names, reader.sample);
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
        const k = classifyColumn(reader.sample.map((r) => r[col] ?? ''), ref.column);
        colChain = k.kind === 'address' ? k.chain : undefined;
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
      if (colChain) return { name, chain: colChain, cells: (await reader.addresses(col, colChain, { signal: options.signal, limit: want })).addresses, counted: true };
      const rows = await reader.topRows([col], want, [], { signal: options.signal });
      return { name, chain: colChain, cells: rows.map((r) => r[0] ?? ''), counted: false };
    }, options);
    chain ??= got.chain;
    column ||= got.name;
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
