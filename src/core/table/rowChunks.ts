/**
 * Big sequential reads of whole rows, for passes over the whole file (typed columns, search).
 * Chunks end on row boundaries, so no row is ever split, and the next chunks are read while the
 * caller works on the current one: with n buffers, n − 1 reads are in flight while the caller
 * holds a chunk (with one in flight, the 1.81 GB file's first sort waited 407 ms on reads: a read
 * from the page cache is a copy on one of libuv's threads, and two at once use both cores).
 */
import type { FileHandle } from 'node:fs/promises';
import { MAX_ROW_BYTES, type RowOffsets } from './rowOffsets';
import { throwIfCancelled } from '../abort';

/** 1 MiB: reads of 1, 2 and 4 MiB index at the same speed (bench:table), and the buffers of a source are its biggest fixed cost. */
export const CHUNK_BYTES = 1 << 20;
/** Buffers a source reads into by turns: two reads in flight while a third chunk is worked on. */
export const READ_BUFFERS = 3;

/** Rows [first, last) of the file, read together; `base` is the file offset of buf[0]. */
interface RowChunk {
  readonly buf: Buffer;
  readonly base: number;
  readonly first: number;
  readonly last: number;
}

/**
 * Yields rows [first, last) of `offsets` (physical rows) in row-aligned chunks, in file order,
 * reading into `buffers` by turns (a row longer than a buffer gets one of its own). A buffer is
 * read into again only once the caller has asked for the chunk after the one it held.
 */
export async function* readRowChunks(
  fh: FileHandle,
  offsets: RowOffsets,
  first: number,
  last: number,
  buffers: readonly Buffer[],
  signal?: AbortSignal,
): AsyncGenerator<RowChunk> {
  const chunkBytes = buffers[0]?.length ?? CHUNK_BYTES;
  let which = 0;
  let r = first;
  const inFlight: Promise<RowChunk>[] = [];
  const fill = (reads: number): void => {
    while (inFlight.length < reads && r < last) inFlight.push(prefetch());
  };
  fill(buffers.length);
  try {
    for (let next = inFlight.shift(); next; next = inFlight.shift()) {
      const chunk = await next;
      throwIfCancelled(signal);
      fill(buffers.length - 1); // every buffer but the one this chunk is in
      yield chunk;
    }
  } finally {
    // A caller that stops early (a walk giving way to another pass) hands the buffers to the next
    // pass: no read of this one may still land in them.
    await Promise.all(inFlight.splice(0).map((p) => p.catch(() => undefined)));
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
    let buf = buffers[which] ?? Buffer.allocUnsafe(chunkBytes);
    which = (which + 1) % buffers.length;
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
