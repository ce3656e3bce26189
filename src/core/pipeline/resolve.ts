/**
 * A reference's values (`{"from": "traders", "column": "wallet", "top": 5000, "by": "pnl_usd"}`),
 * read from the earlier cell's result on disk through the one result reader (a table worker:
 * src/core/results/readResult.ts), so a 700 MB result is never held whole on the host. The
 * default column is the result's address column as the one classifier finds it (columnKind.ts);
 * address columns give their distinct addresses, in file order (or in `by` order).
 */
import { stat } from 'node:fs/promises';
import type { Chain } from '../spec/addresses';
import { distinctAddresses } from '../spec/addresses';
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

/** The values a reference names in `resultPath` (a file, or an extracted .zip folder: its files in order). */
export async function resolveReference(ref: Reference, resultPath: string, options: ReadOptions = {}): Promise<Resolved> {
  const files = (await stat(resultPath)).isDirectory() ? await addressFilesOf(resultPath) : [resultPath];
  const top = ref.top ?? Infinity;
  let chain: Chain | undefined;
  let column = ref.column ?? '';
  const seen = new Set<string>();
  const values: string[] = [];
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
      const want = top - values.length;
      if (ref.by !== undefined) {
        const by = names.indexOf(ref.by);
        if (by < 0) throw new Error(l10n.t('“{0}” has no column “{1}” to sort by (its columns: {2}).', ref.from, ref.by, names.join(', ')));
        // Sorted in the worker; duplicates may cut the list short, so a few more rows are read.
        const rows = await reader.topRows([col], Math.min(reader.rowCount, want * 2 + 16), [{ column: by, descending: true }], { signal: options.signal });
        return { name, chain: colChain, cells: rows.map((r) => r[0] ?? '') };
      }
      if (colChain) return { name, chain: colChain, cells: (await reader.addresses(col, colChain, { signal: options.signal, limit: want })).addresses };
      const rows = await reader.topRows([col], want, [], { signal: options.signal });
      return { name, chain: colChain, cells: rows.map((r) => r[0] ?? '') };
    }, options);
    chain ??= got.chain;
    column ||= got.name;
    const cells = got.chain ? distinctAddresses(got.cells, got.chain).addresses : got.cells.filter((c) => c !== '');
    for (const c of cells) {
      if (values.length >= top) break;
      if (seen.has(c)) continue;
      seen.add(c);
      values.push(c);
    }
  }
  return { values, column, ...(chain ? { chain } : {}) };
}
