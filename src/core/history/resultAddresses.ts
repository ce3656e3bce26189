/**
 * The addresses a result holds, for "Use Result as Input to…": a .txt is a list of addresses;
 * in a .csv the column is the one classifier's address column of the chain (columnKind.ts), a
 * wallet-like or token-like header first, as the next call wants. Pure: texts in, addresses out.
 */
import Papa from 'papaparse';
import { addressProblem, normaliseAddress, parseAddressList, type Chain } from '../addresses';
import { pickAddressColumn, SAMPLE_ROWS, type ListWant } from '../columnKind';

export type { ListWant } from '../columnKind';

/** The column of a CSV to read addresses from, or undefined when none holds addresses: the one classifier's pick (columnKind.ts) over the first rows. */
export function addressColumn(header: readonly string[], rows: readonly string[][], chain: Chain, want: ListWant): number | undefined {
  return pickAddressColumn(header, rows.slice(0, SAMPLE_ROWS), { chain, want })?.column;
}

/** The addresses of one result file's text, in order, without duplicates. */
export function addressesInFile(fileName: string, text: string, chain: Chain, want: ListWant): string[] {
  if (!/\.csv$/iu.test(fileName)) return parseAddressList(text, chain).valid;
  const parsed = Papa.parse<string[]>(text.replace(/^\uFEFF/u, ''), { skipEmptyLines: true });
  const [header, ...rows] = parsed.data;
  if (!header) return [];
  const col = addressColumn(header, rows, chain, want);
  if (col === undefined) return [];
  const seen = new Set<string>();
  for (const r of rows) {
    const v = (r[col] ?? '').trim();
    if (v && addressProblem(v, chain) === undefined) seen.add(normaliseAddress(v, chain));
  }
  return [...seen];
}

/** The addresses of several files (an extracted .zip), merged in order without duplicates. */
export function addressesInFiles(files: readonly { name: string; text: string }[], chain: Chain, want: ListWant): string[] {
  const seen = new Set<string>();
  for (const f of files) for (const a of addressesInFile(f.name, f.text, chain, want)) seen.add(a);
  return [...seen];
}
