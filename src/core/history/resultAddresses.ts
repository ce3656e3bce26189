/**
 * The addresses a result holds, for "Use Result as Input to…": a .txt is a list of addresses;
 * in a .csv the column is chosen by its header (wallet-like or token-like, as the next call
 * wants) among the columns that hold addresses of the chain. Pure: texts in, addresses out.
 */
import Papa from 'papaparse';
import { addressProblem, normaliseAddress, parseAddressList, type Chain } from '../addresses';

export type ListWant = 'wallets' | 'tokens';

const HEADER_HINT: Record<ListWant, RegExp> = {
  wallets: /wallet|trader|buyer|holder|owner|address/iu,
  tokens: /token|mint/iu,
};

/** Whether most non-empty cells of a column are addresses of the chain. */
function addressShare(rows: readonly string[][], col: number, chain: Chain): number {
  let cells = 0;
  let ok = 0;
  for (const r of rows.slice(0, 200)) {
    const v = (r[col] ?? '').trim();
    if (!v) continue;
    cells++;
    if (addressProblem(v, chain) === undefined) ok++;
  }
  return cells === 0 ? 0 : ok / cells;
}

/** The column of a CSV to read addresses from, or undefined when none holds addresses. */
export function addressColumn(header: readonly string[], rows: readonly string[][], chain: Chain, want: ListWant): number | undefined {
  const candidates = header.map((h, i) => ({ h, i, share: addressShare(rows, i, chain) })).filter((c) => c.share >= 0.8);
  const hinted = candidates.find((c) => HEADER_HINT[want].test(c.h));
  return (hinted ?? candidates[0])?.i;
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
