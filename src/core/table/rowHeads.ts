/**
 * The first bytes of every row of a file of long rows, kept by the index as it reads them, so a
 * pass over a column among a row's first cells reads memory, not the file. The 1.81 GB wallet
 * file's first sort (its 27th cell, ~390 bytes into a 7.2 KB row) copied the whole file once more
 * for it: ~600 ms of CPU on libuv's threads, issue 34's last first sort over 500 ms.
 *
 * A row's head is its first min(headBytes, row length) bytes (line ending included), in a slot of
 * headBytes in blocks of `blockBytes`: a block is the size of a read buffer, so a block's rows go
 * to the seek kernel in one copy. Kept only where rows are long (headBytesFor:
 * a head is at most 1/16 of a row) and the heads hold most cells or end near a cell's end
 * (headsReach); dropped if the file's rows turn out short after all.
 */
import { trimLineEnd } from './bytes';
import { skipCell } from './cells';
import type { Delimiter } from './csvDialect';
import type { RowOffsets } from './rowOffsets';

/** A head is at most this share of the mean row: heads cost at most 1/16 of the file in memory. */
const HEAD_SHARE = 16;
/** Heads shorter than this would hold too few cells to be worth keeping. */
const MIN_HEAD = 256;
const MAX_HEAD = 1024;

/** Bytes to keep of each row when the rows average `meanRowBytes` (0: keep none). */
export function headBytesFor(meanRowBytes: number): number {
  const bytes = Math.min(MAX_HEAD, Math.floor(meanRowBytes / HEAD_SHARE));
  return bytes >= MIN_HEAD ? bytes : 0;
}

/**
 * False when heads of `headBytes` would hold few of the cells a sort reads, judged on rows
 * [first, last) wholly in `buf` (the file's first bytes, from offset 0): when in most of them the
 * head holds whole fewer than half of the `columns` and ends inside a cell that runs on for more
 * than another head's length (a long text cell), every cell after it is out of the heads' reach.
 * The 548 MB long-cell file kept 37 MB of heads that only its first three columns could use, its
 * sort column (after the long cell) never (issue 34.2).
 */
export function headsReach(buf: Buffer, offsets: RowOffsets, first: number, last: number, headBytes: number, columns: number, delimiter: Delimiter): boolean {
  let far = 0;
  for (let p = first; p < last; p++) {
    const s = offsets.start(p);
    const e = trimLineEnd(buf, s, offsets.limit(p));
    const cut = s + headBytes;
    if (e <= cut) continue; // the whole row in its head
    // Read no further than another head's length past the cut: a cell still open there runs on far (a long cell's quotes cost a search each).
    const bound = Math.min(e, cut + headBytes + 1);
    let whole = 0;
    let at = s;
    for (;;) {
      const next = skipCell(buf, at, bound, delimiter);
      if (next >= cut) {
        if (next - cut > headBytes && whole * 2 < columns) far++;
        break;
      }
      whole++;
      at = next + 1;
    }
  }
  return far * 2 <= last - first;
}

export class RowHeads {
  /** Blocks of `perBlock` slots of headBytes, row p's at (p % perBlock) × headBytes of block ⌊p / perBlock⌋. */
  readonly blocks: Buffer[] = [];
  readonly perBlock: number;
  /** Rows registered so far; rows [0, complete) have every byte of their slot. */
  rows = 0;
  private complete = 0;

  /**
   * @param headBytes bytes kept of each row (at most blockBytes)
   * @param blockBytes size of a block
   * @param budget the most bytes the heads may take; past it feed() says to drop them
   */
  constructor(
    readonly headBytes: number,
    readonly blockBytes: number,
    private readonly budget: number,
  ) {
    this.perBlock = Math.max(1, Math.floor(blockBytes / headBytes));
  }

  /** Bytes held. */
  get heldBytes(): number {
    return this.blocks.length * this.blockBytes;
  }

  /** Bytes of physical row p's head: its first bytes, to its limit (line ending and blank lines after it included). */
  length(offsets: RowOffsets, p: number): number {
    return Math.min(this.headBytes, offsets.limit(p) - offsets.start(p));
  }

  /**
   * Copies what `chunk` (file offset `base`) holds of the slots of the rows registered and of the
   * row being read at `pending` (the file offset where the next row starts, its end not seen yet).
   * A slot holds the headBytes from its row's start, whatever they are: a row's limit grows when
   * blank lines follow it, so what its head is, is known only later. False once the heads are over
   * budget (drop them).
   */
  feed(chunk: Uint8Array, base: number, offsets: RowOffsets, pending: number): boolean {
    const end = base + chunk.length;
    const n = offsets.length;
    for (let p = this.complete; p < n; p++) this.copy(p, chunk, base, offsets.start(p));
    // The next row's bytes so far, in the next slot, whether or not it turns out a row (a blank line is not one: the next row's copy overwrites it).
    if (pending < end) this.copy(n, chunk, base, pending);
    this.rows = n;
    while (this.complete < n && offsets.start(this.complete) + this.headBytes <= end) this.complete++;
    return this.heldBytes <= this.budget;
  }

  /** The rows registered once the file ended (its last, when no line ending closes it): their bytes came with the last chunk. */
  finish(offsets: RowOffsets): void {
    this.rows = offsets.length;
    this.complete = offsets.length;
  }

  /** Copies the part of `chunk` in file bytes [rowStart, rowStart + headBytes) to row p's slot. */
  private copy(p: number, chunk: Uint8Array, base: number, rowStart: number): void {
    const b = Math.floor(p / this.perBlock);
    while (this.blocks.length <= b) this.blocks.push(Buffer.allocUnsafe(this.blockBytes));
    const from = Math.max(rowStart, base);
    const to = Math.min(rowStart + this.headBytes, base + chunk.length);
    if (from < to) (this.blocks[b] as Buffer).set(chunk.subarray(from - base, to - base), (p % this.perBlock) * this.headBytes + (from - rowStart));
  }
}
