/**
 * Big sequential reads of whole rows, for passes over the whole file (typed columns, search).
 * Chunks end on row boundaries, so no row is ever split, and the next chunk is read while the
 * caller works on the current one (two buffers, alternating).
 */
import type { FileHandle } from 'node:fs/promises';
import type { RowOffsets } from './rowOffsets';
import { throwIfCancelled } from '../abort';

/** 1 MiB: reads of 1, 2 and 4 MiB index at the same speed (bench:table), and the two buffers of a source are its biggest fixed cost. */
export const CHUNK_BYTES = 1 << 20;
/** A longer row is read only this far (a file ending inside an open quote is one such row). */
export const MAX_ROW_BYTES = 64 << 20;

/** Rows [first, last) of the file, read together; `base` is the file offset of buf[0]. */
export interface RowChunk {
  readonly buf: Buffer;
  readonly base: number;
  readonly first: number;
  readonly last: number;
}

/**
 * Yields rows [first, last) of `offsets` (physical rows) in row-aligned chunks, reading into the
 * two `buffers` by turns (a row longer than a buffer gets one of its own).
 */
export async function* readRowChunks(
  fh: FileHandle,
  offsets: RowOffsets,
  first: number,
  last: number,
  buffers: readonly [Buffer, Buffer],
  signal?: AbortSignal,
): AsyncGenerator<RowChunk> {
  const chunkBytes = buffers[0].length;
  let which = 0;
  let r = first;
  let pending = r < last ? prefetch() : undefined;
  while (pending) {
    const chunk = await pending;
    throwIfCancelled(signal);
    pending = r < last ? prefetch() : undefined;
    yield chunk;
  }

  // A read still in flight when the caller stops early must not become an unhandled rejection.
  function prefetch(): Promise<RowChunk> {
    const p = readNext();
    p.catch(() => undefined);
    return p;
  }

  async function readNext(): Promise<RowChunk> {
    const r0 = r;
    const start = offsets.start(r0);
    const r1 = chunkEnd(offsets, r0, last, start + chunkBytes);
    r = r1;
    const want = Math.min(offsets.limit(r1 - 1) - start, MAX_ROW_BYTES);
    let buf = which === 0 ? buffers[0] : buffers[1];
    which = 1 - which;
    if (want > buf.length) buf = Buffer.allocUnsafe(want); // one long row
    const { bytesRead } = await fh.read(buf, 0, want, start);
    return { buf: buf.subarray(0, bytesRead), base: start, first: r0, last: r1 };
  }
}

/**
 * The end of a chunk that starts at row r0 (before `last`): past the last row that ends by
 * file offset `limit`, and past r0 at least. A binary search: a loop over a chunk's thousands of
 * rows was optimised mid-loop and thrown away again on every chunk (~50 times a pass).
 */
export function chunkEnd(offsets: RowOffsets, r0: number, last: number, limit: number): number {
  let lo = r0 + 1; // rows [r0, lo) fit (r0 always goes in)
  let hi = last;
  while (lo < hi) {
    const mid = (lo + hi + 1) >>> 1;
    if (offsets.limit(mid - 1) <= limit) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}
