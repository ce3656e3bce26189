/**
 * Reads of a few rows anywhere in a file, for windows and exports: rows close to each other are
 * read together, the rest one read each.
 *
 * The reads are synchronous. The table engine runs in a worker thread (remoteTable.ts), so they
 * stall no one, and a read of rows in the page cache takes a few µs. An async read per row cost
 * a promise and a thread-pool round trip each: an export of 52,666 sorted rows of the 1,000,000-row
 * benchmark file took 400–700 ms that way against ~230 ms, and the pending reads (a thousand a
 * batch) survived the young generation's collections, so V8 grew it by 10–20 MB.
 */
import { readSync } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { MAX_ROW_BYTES } from './rowChunks';
import type { RowOffsets } from './rowOffsets';
import { throwIfCancelled } from '../abort';

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
export function readRowBytes(fh: FileHandle, offsets: RowOffsets, rows: readonly number[], signal?: AbortSignal): Map<number, RowBytes> {
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
  for (const run of runs) {
    throwIfCancelled(signal);
    const buf = Buffer.allocUnsafe(run.end - run.start);
    const bytesRead = readSync(fh.fd, buf, 0, buf.length, run.start);
    const bytes = { buf: buf.subarray(0, bytesRead), base: run.start };
    for (const p of run.rows) out.set(p, bytes);
  }
  return out;
}
