/**
 * The cell walk (CellMap.record) as a WebAssembly kernel: the one pass that looks at every byte
 * of the file. Measured on the 722 MB benchmark file, a JS byte loop costs ~1.5 ns a byte and
 * this ~0.5. The kernel's source is cellWalk.wat (readable WebAssembly text, compiled at build
 * time); it follows cells.ts to the letter, and a property test runs both walkers on random rows.
 *
 * Rows without a quote (most rows) take a SIMD kernel that finds the commas of 16 bytes at once
 * and so has no branch per byte or per cell to mispredict; rows with a quote take a scalar one.
 *
 * The same module scans for row ends while indexing (`scan`, the row scanner's state machine),
 * 16 bytes at a time where there is no quote or line feed, and finds one cell of many rows in one
 * call (`seekRows`) for a pass over a column before the map is built.
 *
 * Memory: [marks scratch, 64 KiB][scan results, 64 KiB][seekNumbers' mantissas, 128 KiB, and kinds,
 * 16 KiB][read buffers, READ_BUFFERS of them][16 bytes of slack for the last SIMD load]. Passes read the file straight into the buffers, so the kernel walks the bytes
 * where they landed, with no copy.
 */
import kernelBytes from './cellWalk.wat';
import { READ_BUFFERS } from './rowChunks';

const SCAN_STATE = 64 << 10;
const SCAN_ROWS = SCAN_STATE + 64;
const SCAN_END = 128 << 10;
/** seekNumbers' output besides the marks: a mantissa (8 bytes) and a kind (1 byte) for each of up to 16,384 rows. */
const MANTISSAS = SCAN_END;
const KINDS = MANTISSAS + (128 << 10);
const SCRATCH = KINDS + (16 << 10); // marks (64 KiB), the row scan's state and row ends (64 KiB), seekNumbers' mantissas and kinds
const SLACK = 16;
const PAGE = 64 << 10;
const QUOTE = 34;
/** seekNumbers' kind of a cell that is not empty and not a plain decimal of 1 to 15 digits. */
export const NOT_DECIMAL = 255;

// The tsconfig's lib (ES2022, no DOM) declares no WebAssembly; these are the parts used here.
interface WasmApi {
  Memory: new (size: { initial: number; maximum: number }) => { readonly buffer: ArrayBuffer };
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: Record<string, Record<string, unknown>>) => { readonly exports: Record<string, unknown> };
}
const wasm = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;

/** The kernels compiled once per thread: every source's walker instantiates the same module. */
let compiled: object | undefined;
/** A walker kept for the next source that reads in buffers of its size (keepSpareWalker). */
let spare: CellWalker | undefined;

/**
 * Keeps `walker` for the next source whose reads are of its size: the worker's index warm-up
 * (indexWarmup.ts) hands its walker on, so the first table finds its wasm memory mapped and
 * touched, and allocates none of its own.
 */
export function keepSpareWalker(walker: CellWalker): void {
  spare = walker;
}

/** The walker kept by keepSpareWalker, still untaken, or undefined: it may be used only until a source takes it. */
export function spareWalker(): CellWalker | undefined {
  return spare;
}

/** A walker with read buffers of `bufferBytes`: the spare one when it has that size, else a new one. */
export function takeWalker(bufferBytes: number): CellWalker {
  const kept = spare;
  if (kept && kept.bufferBytes === bufferBytes) {
    spare = undefined;
    return kept;
  }
  return new CellWalker(bufferBytes);
}

/** Wasm memory holding the read buffers of a source, and the walk kernels over them. */
export class CellWalker {
  readonly buffers: readonly [Buffer, Buffer, ...Buffer[]];
  /** The marks the last walk wrote. */
  readonly marks: Uint32Array;
  private readonly memory: ArrayBuffer;
  private readonly walkQuoted: Kernel;
  private readonly walkPlain: Kernel | undefined;
  private readonly scanKernel: ScanKernel;
  private readonly countRowsKernel: CountRowsKernel;
  private readonly seekRowsKernel: CountRowsKernel;
  private readonly seekNumbersKernel: SeekNumbersKernel;
  private readonly mantissas: Float64Array;
  private readonly kinds: Uint8Array;
  /** The marks as signed: seekRows writes -1 for a row without the cell. */
  private readonly seeks: Int32Array;
  /** What the last scan() left: state, line feeds, row ends, malformed quotes, first malformed, last opening quote. */
  readonly scanState: Int32Array;
  /** Row ends of the last scan(): (line feed's place, line feeds before it) pairs. */
  readonly scanRows: Uint32Array;
  // Where the next quote is in the chunk being walked (rows come in order): one search per quote.
  private quoteChunk: Buffer | undefined;
  private quoteFrom = 0;
  private quoteAt = -1;

  /** @param plain false to use the scalar kernel only (tests) */
  constructor(
    readonly bufferBytes: number,
    plain = true,
  ) {
    const pages = Math.ceil((SCRATCH + READ_BUFFERS * bufferBytes + SLACK) / PAGE);
    const memory = new wasm.Memory({ initial: pages, maximum: pages });
    // Without wasm SIMD the module does not compile at all, and the JS walk does the work.
    compiled ??= new wasm.Module(kernelBytes);
    const exports = new wasm.Instance(compiled, { env: { memory } }).exports;
    this.walkQuoted = exports.walk as Kernel;
    this.walkPlain = plain ? (exports.walkPlain as Kernel) : undefined;
    this.scanKernel = exports.scan as ScanKernel;
    this.countRowsKernel = exports.countRows as CountRowsKernel;
    this.seekRowsKernel = exports.seekRows as CountRowsKernel;
    this.seekNumbersKernel = exports.seekNumbers as SeekNumbersKernel;
    this.memory = memory.buffer;
    this.marks = new Uint32Array(this.memory, 0, SCAN_STATE / 4);
    this.seeks = new Int32Array(this.memory, 0, SCAN_STATE / 4);
    this.scanState = new Int32Array(this.memory, SCAN_STATE, 6);
    this.scanRows = new Uint32Array(this.memory, SCAN_ROWS, (SCAN_END - SCAN_ROWS) / 4);
    this.mantissas = new Float64Array(this.memory, MANTISSAS, SCAN_STATE / 4);
    this.kinds = new Uint8Array(this.memory, KINDS, SCAN_STATE / 4);
    const buffer = (i: number): Buffer => Buffer.from(this.memory, SCRATCH + i * bufferBytes, bufferBytes);
    this.buffers = [buffer(0), buffer(1), ...Array.from({ length: READ_BUFFERS - 2 }, (_, i) => buffer(i + 2))];
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
   * `bytes` copied into the first read buffer, so the kernels can read them (the head, scanned
   * before any read of the rest needs that buffer); undefined when they do not fit.
   */
  stage(bytes: Buffer): Buffer | undefined {
    const buf = this.buffers[0];
    if (bytes.length > buf.length) return undefined;
    bytes.copy(buf);
    return buf.subarray(0, bytes.length);
  }

  /**
   * Walks the row buf[start, end) (buf held by this walker; rows of one chunk in order);
   * returns its cell count, with the marks of every (1 << shift)th cell in `marks`.
   */
  walk(buf: Buffer, start: number, end: number, slots: number, shift: number): number {
    const at = buf.byteOffset;
    const plain = this.walkPlain && !this.hasQuote(buf, start, end);
    return (plain && this.walkPlain ? this.walkPlain : this.walkQuoted)(at + start, at + end, slots, shift) >>> 0;
  }

  /**
   * The first of the rows of `buf` (held by this walker) whose cell count is not `expected`: row
   * k runs from bounds[k] to bounds[k + 1] (buf positions), its line ending left out as rowEnd()
   * does. Its index and cell count, or undefined when every row has `expected` cells. One kernel
   * call for up to 16,383 rows (a MiB of head has ~5,000): three calls a row from JS, while V8
   * still interprets them, cost more than the walks.
   */
  firstRowNotOf(buf: Buffer, bounds: Uint32Array, expected: number): { index: number; cells: number } | undefined {
    const batch = this.marks.length - 1;
    for (let k0 = 0; k0 + 1 < bounds.length; k0 += batch) {
      const n = Math.min(batch, bounds.length - 1 - k0);
      this.marks.set(bounds.subarray(k0, k0 + n + 1));
      const k = this.countRowsKernel(0, n, expected, buf.byteOffset);
      if (k >= 0) return { index: k0 + k, cells: (this.marks[0] ?? 0) >>> 0 };
    }
    return undefined;
  }

  /**
   * Where cell `index` starts in each row of `buf` (held by this walker): row k runs from bounds[k]
   * to bounds[k + 1] (buf positions), its line ending left out as in firstRowNotOf. Into
   * out[0, bounds.length − 1): the buf position, as cellStart() gives it, or -1 when the row has
   * fewer cells. One kernel call for up to 16,383 rows: a sort's pass over a column no map holds
   * yet found its cells in JS with a call (and a Buffer.indexOf per quoted cell) for every cell before it.
   */
  seekCells(buf: Buffer, bounds: Uint32Array, index: number, out: Int32Array): void {
    const batch = this.marks.length - 1;
    for (let k0 = 0; k0 + 1 < bounds.length; k0 += batch) {
      const n = Math.min(batch, bounds.length - 1 - k0);
      this.marks.set(bounds.subarray(k0, k0 + n + 1));
      this.seekRowsKernel(0, n, index, buf.byteOffset);
      out.set(this.seeks.subarray(0, n), k0);
    }
  }

  /**
   * seekCells, and what each row's cell holds, as scanNumber reads it: into kinds[k], 0 for an empty
   * cell (or none), 1 + places for a plain decimal of 1 to 15 digits whose signed mantissa is
   * mantissas[k] (scanNumber's NumberScan.Decimal and parsedDecimal), NOT_DECIMAL for any other
   * cell (text, an exponent, more digits: read by JS from its start, at[k]). One kernel call for up
   * to 16,383 rows: the 1,000,000-row quoted file's sort column took ~300 ns a row in JS, spanned,
   * scanned and trimmed a call at a time.
   */
  seekNumbers(buf: Buffer, bounds: Uint32Array, index: number, at: Int32Array, mantissas: Float64Array, kinds: Uint8Array): void {
    const batch = this.marks.length - 1;
    for (let k0 = 0; k0 + 1 < bounds.length; k0 += batch) {
      const n = Math.min(batch, bounds.length - 1 - k0);
      this.marks.set(bounds.subarray(k0, k0 + n + 1));
      this.seekNumbersKernel(0, n, index, buf.byteOffset, MANTISSAS, KINDS);
      at.set(this.seeks.subarray(0, n), k0);
      mantissas.set(this.mantissas.subarray(0, n), k0);
      kinds.set(this.kinds.subarray(0, n), k0);
    }
  }

  /**
   * Scans buf[from, to) (buf held by this walker) from scanner state `state`, `prev` being the
   * byte before `from`; returns where it stopped (a buf position). Results in scanState and
   * scanRows, places as buf positions.
   */
  scan(buf: Buffer, from: number, to: number, state: number, prev: number, stopOnMalformed: boolean): number {
    const at = buf.byteOffset;
    const stop = this.scanKernel(at + from, at + to, state, prev, stopOnMalformed ? 1 : 0) - at;
    const s = this.scanState;
    if ((s[4] ?? -1) !== -1) s[4] = (s[4] ?? 0) - at;
    if ((s[5] ?? -1) !== -1) s[5] = (s[5] ?? 0) - at;
    const rows = this.scanRows;
    for (let i = 0, n = s[2] ?? 0; i < n; i++) rows[2 * i] = (rows[2 * i] ?? 0) - at;
    return stop;
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

type Kernel = (start: number, end: number, slots: number, shift: number) => number;
type CountRowsKernel = (starts: number, n: number, expected: number, base: number) => number;
type SeekNumbersKernel = (starts: number, n: number, index: number, base: number, mantissas: number, kinds: number) => void;
type ScanKernel = (start: number, end: number, state: number, prev: number, stopOnMalformed: number) => number;
