/**
 * The cell walk (CellMap.record) as a WebAssembly kernel: the one pass that looks at every byte
 * of the file. Measured on the 722 MB benchmark file, a JS byte loop costs ~1.5 ns a byte and
 * this ~0.5. The kernel follows cells.ts to the letter (quotes open a cell only at its start;
 * `""` is a quote; a quote, optional spaces or tabs, then a comma or the row's end closes it;
 * any other quote is a character), and a property test runs both walkers on random rows.
 *
 * Rows without a quote (most rows) take a SIMD kernel that finds the commas of 16 bytes at once
 * and so has no branch per byte or per cell to mispredict; rows with a quote take a scalar one.
 *
 * Memory: [marks scratch, 64 KiB][read buffer A][read buffer B][16 bytes of slack for the last
 * SIMD load]. Passes read the file straight into the two buffers, so the kernel walks the bytes
 * where they landed, with no copy.
 */
import { FunctionBody, moduleBytes } from './wasmAsm';

const SCRATCH = 64 << 10;
const SLACK = 16;
const PAGE = 64 << 10;
const QUOTE = 34;
const COMMA = 44;

// Locals: parameters first.
const S = 0; // row start (memory offset)
const E = 1; // row end
const SLOTS = 2; // marks to write (every 32nd cell)
const P = 3; // position
const C = 4; // cell index
const I = 5; // quote search
const J = 6; // after a quote
const B = 7; // a byte
const K = 8; // slot

/** walk(start, end, slots) → cell count; marks[k] = start of cell 32k − start, or 0xFFFFFFFF past the row. */
function walkFunction(): FunctionBody {
  const f = new FunctionBody(3, 6);
  const byteAt = (local: number): FunctionBody => f.localGet(local).load8();
  const inc = (local: number): FunctionBody => f.localGet(local).const(1).add().localSet(local);
  f.localGet(S).localSet(P);
  f.block('row').loop('cell');
  {
    // Mark every 32nd cell.
    f.localGet(C).const(31).and().eqz().if();
    f.localGet(C).const(5).shrU().localTee(K).localGet(SLOTS).ltU().if();
    f.localGet(K).const(2).shl().localGet(P).localGet(S).sub().store();
    f.end().end();

    f.block('delimiter'); // leave with P at the comma after the cell, or at E
    f.localGet(P).localGet(E).ltU().if();
    byteAt(P).const(QUOTE).eq().if();
    {
      f.localGet(P).const(1).add().localSet(I);
      f.loop('quoted');
      // Next quote at or after I; none before E: the rest of the row is the cell.
      f.block('found').loop('scan');
      f.localGet(I).localGet(E).geU().if().localGet(E).localSet(P).br('delimiter').end();
      byteAt(I).const(QUOTE).eq().brIf('found');
      inc(I);
      f.br('scan').end().end();
      // "" is a quote inside the cell.
      f.localGet(I).const(1).add().localTee(J).localGet(E).ltU().if();
      byteAt(J).const(QUOTE).eq().if().localGet(J).const(1).add().localSet(I).br('quoted').end();
      f.end();
      // Spaces or tabs, then a comma or the row's end: the cell is closed.
      f.block('spaces').loop('space');
      f.localGet(J).localGet(E).geU().brIf('spaces');
      byteAt(J).localTee(B).const(32).eq().localGet(B).const(9).eq().or().eqz().brIf('spaces');
      inc(J);
      f.br('space').end().end();
      f.localGet(J).localGet(E).geU().if().localGet(E).localSet(P).br('delimiter').end();
      byteAt(J).const(COMMA).eq().if().localGet(J).localSet(P).br('delimiter').end();
      // Any other quote is a character: search on after it.
      inc(I);
      f.br('quoted').end();
    }
    f.end().end();
    // An unquoted cell runs to the next comma.
    f.block('plain').loop('byte');
    f.localGet(P).localGet(E).geU().brIf('plain');
    byteAt(P).const(COMMA).eq().brIf('plain');
    inc(P);
    f.br('byte').end().end();
    f.end(); // delimiter

    f.localGet(P).localGet(E).geU().brIf('row');
    inc(P);
    inc(C);
    f.br('cell');
  }
  f.end().end();
  // Slots past the row's last cell: none.
  f.localGet(C).const(5).shrU().const(1).add().localSet(K);
  f.block('fill').loop('slot');
  f.localGet(K).localGet(SLOTS).geU().brIf('fill');
  f.localGet(K).const(2).shl().const(-1).store();
  inc(K);
  f.br('slot').end().end();
  f.localGet(C).const(1).add();
  return f;
}

// Locals of the SIMD kernel, after the same three parameters.
const M = 3; // comma bits of 16 bytes
const N = 4; // how many
const NEXT = 5; // the comma count at which the next mark falls
const PP = 6; // position
const CC = 7; // commas so far
const KK = 8; // slot

/** walkPlain(start, end, slots): as walk(), for a row with no quote in it. */
function walkPlainFunction(): FunctionBody {
  const f = new FunctionBody(3, 6);
  f.localGet(SLOTS).if().const(0).const(0).store().end(); // cell 0 starts at the start
  f.localGet(S).localSet(PP);
  f.const(32).localSet(NEXT);
  f.block('row').loop('block16');
  {
    f.localGet(PP).localGet(E).geU().brIf('row');
    f.localGet(PP).v128Load().const(COMMA).i8x16Splat().i8x16Eq().i8x16Bitmask().localSet(M);
    // The last block of the row: drop the bits past its end.
    f.localGet(E).localGet(PP).sub().const(16).ltU().if();
    f.localGet(M).const(1).localGet(E).localGet(PP).sub().shl().const(1).sub().and().localSet(M);
    f.end();
    f.localGet(M).popcnt().localSet(N);
    f.localGet(CC).localGet(N).add().localGet(NEXT).geU().if();
    {
      // A mark falls in this block (once in ~32 cells): go through its commas one by one.
      f.block('bitsDone').loop('bits');
      f.localGet(M).eqz().brIf('bitsDone');
      f.localGet(CC).const(1).add().localTee(CC).localGet(NEXT).eq().if();
      f.localGet(CC).const(5).shrU().localTee(KK).localGet(SLOTS).ltU().if();
      f.localGet(KK).const(2).shl().localGet(PP).localGet(M).ctz().add().const(1).add().localGet(S).sub().store();
      f.end();
      f.localGet(NEXT).const(32).add().localSet(NEXT);
      f.end();
      f.localGet(M).localGet(M).const(1).sub().and().localSet(M);
      f.br('bits').end().end();
    }
    f.else();
    f.localGet(CC).localGet(N).add().localSet(CC);
    f.end();
    f.localGet(PP).const(16).add().localSet(PP);
    f.br('block16');
  }
  f.end().end();
  f.localGet(CC).const(5).shrU().const(1).add().localSet(KK);
  f.block('fill').loop('slot');
  f.localGet(KK).localGet(SLOTS).geU().brIf('fill');
  f.localGet(KK).const(2).shl().const(-1).store();
  f.localGet(KK).const(1).add().localSet(KK);
  f.br('slot').end().end();
  f.localGet(CC).const(1).add();
  return f;
}

// The tsconfig's lib (ES2022, no DOM) declares no WebAssembly; these are the parts used here.
interface WasmApi {
  Memory: new (size: { initial: number; maximum: number }) => { readonly buffer: ArrayBuffer };
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: Record<string, Record<string, unknown>>) => { readonly exports: Record<string, unknown> };
}
const wasm = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;

/** Wasm memory holding the two read buffers of a source, and the walk kernels over them. */
export class CellWalker {
  readonly buffers: readonly [Buffer, Buffer];
  /** The marks the last walk wrote. */
  readonly marks: Uint32Array;
  private readonly memory: ArrayBuffer;
  private readonly walkQuoted: Kernel;
  private readonly walkPlain: Kernel | undefined;
  // Where the next quote is in the chunk being walked (rows come in order): one search per quote.
  private quoteChunk: Buffer | undefined;
  private quoteFrom = 0;
  private quoteAt = -1;

  /** @param plain false to use the scalar kernel only (tests) */
  constructor(bufferBytes: number, plain = true) {
    const pages = Math.ceil((SCRATCH + 2 * bufferBytes + SLACK) / PAGE);
    const memory = new wasm.Memory({ initial: pages, maximum: pages });
    const kernel = (fn: FunctionBody, name: string): Kernel => {
      const instance = new wasm.Instance(new wasm.Module(moduleBytes(fn, name, pages)), { env: { memory } });
      return instance.exports[name] as Kernel;
    };
    this.walkQuoted = kernel(walkFunction(), 'walk');
    try {
      this.walkPlain = plain ? kernel(walkPlainFunction(), 'walkPlain') : undefined;
    } catch {
      this.walkPlain = undefined; // no wasm SIMD here: the scalar kernel walks every row
    }
    this.memory = memory.buffer;
    this.marks = new Uint32Array(this.memory, 0, SCRATCH / 4);
    this.buffers = [Buffer.from(this.memory, SCRATCH, bufferBytes), Buffer.from(this.memory, SCRATCH + bufferBytes, bufferBytes)];
  }

  /** The largest number of marks one walk can write. */
  get maxSlots(): number {
    return this.marks.length;
  }

  /** True when `buf` lies in this walker's memory, so walk() can read it in place. */
  holds(buf: Buffer): boolean {
    return buf.buffer === this.memory;
  }

  /**
   * Walks the row buf[start, end) (buf held by this walker; rows of one chunk in order);
   * returns its cell count, with the marks in `marks`.
   */
  walk(buf: Buffer, start: number, end: number, slots: number): number {
    const at = buf.byteOffset;
    const plain = this.walkPlain && !this.hasQuote(buf, start, end);
    return (plain && this.walkPlain ? this.walkPlain : this.walkQuoted)(at + start, at + end, slots) >>> 0;
  }

  private hasQuote(buf: Buffer, start: number, end: number): boolean {
    if (buf !== this.quoteChunk || start < this.quoteFrom || (this.quoteAt !== -1 && this.quoteAt < start)) {
      this.quoteChunk = buf;
      this.quoteFrom = start;
      this.quoteAt = buf.indexOf(QUOTE, start);
    }
    return this.quoteAt !== -1 && this.quoteAt < end;
  }
}

type Kernel = (start: number, end: number, slots: number) => number;
