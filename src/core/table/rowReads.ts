/**
 * Reads of a few rows anywhere in a file, for windows and exports: rows close to each other are
 * read together, the rest one read each, all reads in flight at once.
 */
import type { FileHandle } from 'node:fs/promises';
import { MAX_ROW_BYTES } from './rowChunks';
import type { RowOffsets } from './rowOffsets';

/** Row reads closer than this are merged into one read (if the gap is no bigger than the rows read so far)… */
const MERGE_GAP = 64 << 10;
/** …as long as the merged read stays below this. */
const MERGE_MAX = 4 << 20;

/** Bytes that hold some rows; `base` is the file offset of buf[0]. */
export interface RowBytes {
  readonly buf: Buffer;
  readonly base: number;
}

/** Reads the given physical rows; the map gives, for each row, the bytes that hold it. */
export async function readRowBytes(fh: FileHandle, offsets: RowOffsets, rows: readonly number[], signal?: AbortSignal): Promise<Map<number, RowBytes>> {
  const sorted = [...new Set(rows)].sort((a, b) => a - b);
  const runs: { start: number; end: number; used: number; rows: number[] }[] = [];
  for (const p of sorted) {
    const start = offsets.start(p);
    const end = Math.min(offsets.limit(p), start + MAX_ROW_BYTES);
    const run = runs[runs.length - 1];
    // Bytes read between wanted rows stay below the wanted bytes: rows scattered over a file of
    // short rows (an export of a sorted view) must not read the whole file.
    const gap = start - (run?.end ?? 0);
    if (run && gap <= MERGE_GAP && gap <= run.used + end - start && end - run.start <= MERGE_MAX) {
      run.end = Math.max(run.end, end);
      run.used += end - start;
      run.rows.push(p);
    } else runs.push({ start, end, used: end - start, rows: [p] });
  }
  const out = new Map<number, RowBytes>();
  await Promise.all(
    runs.map(async (run) => {
      const buf = Buffer.allocUnsafe(run.end - run.start);
      const { bytesRead } = await fh.read(buf, 0, buf.length, run.start);
      signal?.throwIfAborted();
      const bytes = { buf: buf.subarray(0, bytesRead), base: run.start };
      for (const p of run.rows) out.set(p, bytes);
    }),
  );
  return out;
}
