/**
 * The address column of a result as compare and address sets read it: the one classifier's pick
 * (src/core/table/columnKind.ts, which the table, the profile and "use as input" also follow) over a
 * source's first rows, and an address as compared.
 */
import type { Chain } from '../../spec/addresses';
import { pickAddressColumn, SAMPLE_ROWS, type AddressColumn } from '../columnKind';
import type { TableSource } from '../types';

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
