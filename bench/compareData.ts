/**
 * A second wide wallet file for comparing (bench:compare and the e2e compare test): another seed's
 * rows, the first `shared` share of them carrying the first file's addresses in a shuffled order,
 * the rest new, so a comparison has rows in both, only in A and only in B.
 */
import { createWriteStream } from 'node:fs';
import { rename, stat } from 'node:fs/promises';
import { openCsvFile } from '../src/core/table';
import { metricKinds, seededRandom, walletColumns, walletRow } from './tableData';

/**
 * Writes `rows` rows to `fileB` from `seed`, with `shared` (0–1) of them on addresses of `fileA`'s
 * first column; skips the work when `fileB` exists. Writes to a temporary name first.
 */
export async function generateSharedCsv(fileA: string, fileB: string, rows: number, seed: number, shared: number): Promise<{ reused: boolean }> {
  if (await stat(fileB).catch(() => undefined)) return { reused: true };
  const a = await openCsvFile(fileA, { prepareColumns: false });
  await a.indexed;
  const [typed] = await a.typedColumns([{ column: 0, text: true }]);
  await a.close();
  const addresses = typed?.fullText ?? [];
  const rand = seededRandom(seed);
  const order = Array.from({ length: addresses.length }, (_, i) => i);
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [order[i], order[j]] = [order[j] ?? 0, order[i] ?? 0];
  }
  const keep = Math.min(addresses.length, Math.round(shared * rows));
  const kinds = metricKinds();
  const tmp = `${fileB}.partial`;
  const out = createWriteStream(tmp);
  out.write(walletColumns().join(',') + '\n');
  const batch: string[] = [];
  for (let r = 0; r < rows; r++) {
    const row = walletRow(rand, kinds);
    // A row starts with its 44-character address.
    batch.push(r < keep ? (addresses[order[r] ?? 0] ?? '') + row.slice(44) : row);
    if (batch.length === 500 || r === rows - 1) {
      if (!out.write(batch.join('\n') + '\n')) await new Promise<void>((resolve) => out.once('drain', resolve));
      batch.length = 0;
    }
  }
  await new Promise<void>((resolve, reject) => out.end((err?: Error | null) => (err ? reject(err) : resolve())));
  await rename(tmp, fileB);
  return { reused: false };
}
