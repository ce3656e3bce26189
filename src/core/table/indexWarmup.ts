/**
 * A table worker's first index ran its per-row JavaScript cold: the row scanner's registerRows and
 * RowOffsets.push run once per row (a million times on the 1,000,000-row quoted file), and in a
 * fresh worker V8 interpreted them until its compiler thread, on a loaded machine 200 ms late,
 * swapped in optimised code: 47 ms of the quoted file's ~190 ms index went there (the worker's
 * own profile, issue 34), against a read of the whole file of 90 ms. The worker runs these steps
 * while it waits for its first table, one a turn of its event loop as the sort's warm-up does
 * (sortWarmup.ts): rows of quoted text through the kernel's scan, rows without quotes through the
 * JS scan, both into a RowOffsets, with line breaks inside cells so the line bookkeeping's branch
 * is taken too; then a column of the quoted rows through the column pass's kernel (seekOnce). Its walker (wasm memory of READ_BUFFERS × CHUNK_BYTES, already mapped and touched)
 * is then kept for the first table's source (keepSpareWalker), so the warm-up costs no memory the
 * table would not have taken anyway, and the table compiles and maps nothing at open.
 */
import { keepSpareWalker, NOT_DECIMAL, spareWalker, takeWalker, type CellWalker } from './cellWalkWasm';
import { CHUNK_BYTES } from './rowChunks';
import { RowOffsets } from './rowOffsets';
import { RowScanner } from './rowScanner';
import { Utf8Check } from './utf8Check';

/** Rows scanned by each step: enough loop iterations for V8 to optimise, few enough to cost a ms or two. */
const ROWS = 6000;
/** Steps of each kind (quoted through the kernel, plain through JS). */
const ROUNDS = 3;

/** Three rows of 12 cells: quoted text (a doubled quote, a line break in a cell) when `quoted`, else plain numbers. */
function rowPattern(quoted: boolean): Buffer {
  const row = (r: number): string =>
    Array.from({ length: 12 }, (_, c) => (quoted ? `"${r === 0 && c === 3 ? 'gm\nwhale' : c === 4 ? `say ""hi"" ${r}` : `${r * 7 + c}.25`}"` : `${r * 7 + c}.25`)).join(',');
  return Buffer.from(`${row(0)}\n${row(1)}\n${row(2)}\n`);
}

/**
 * `rows` CSV rows (a multiple of 3) written into `into` when it is long enough (a walker's buffer),
 * else into a new buffer: copies of three rows, so the warm-up leaves next to no garbage (strings
 * built per row grew the worker's young generation, and its RSS, by 10 MB).
 */
export function warmupCsv(rows: number, quoted: boolean, into?: Buffer): Buffer {
  const pattern = rowPattern(quoted);
  const length = (pattern.length * rows) / 3;
  const out = into && into.length >= length ? into.subarray(0, length) : Buffer.allocUnsafe(length);
  for (let at = 0; at < length; at += pattern.length) pattern.copy(out, at);
  return out;
}

/**
 * Scans warm-up rows as if at file offset `base` (in `walker`'s buffer when it has one); returns the
 * rows found. Bases past 2^30 give the row code offsets that are not small integers, as the
 * rest of a file past its first GiB does: with only small ones seen, V8 would throw its code away there.
 */
function scanOnce(quoted: boolean, base: number, walker: CellWalker | undefined): number {
  return scanned(quoted, base, walker).offsets.length;
}

/** scanOnce's rows and the offsets it found. */
function scanned(quoted: boolean, base: number, walker: CellWalker | undefined): { chunk: Buffer; offsets: RowOffsets } {
  const offsets = new RowOffsets();
  const scanner = new RowScanner(offsets, true, base);
  const chunk = warmupCsv(ROWS, quoted, walker?.buffers[0]);
  scanner.feed(chunk, base, walker?.holds(chunk) ? walker : undefined);
  new Utf8Check().feed(chunk, base);
  scanner.finish(base + chunk.length);
  return { chunk, offsets };
}

/**
 * The column pass's kernel (seekNumbers) over the quoted warm-up rows' sixth cells (decimals);
 * returns how many it read as decimals. A fresh worker's first sort ran its first calls as V8's
 * baseline code: 10–30 ms each for a chunk of the quoted file's 5,146 rows, where a call once the
 * optimising tier has it takes 0.4–0.6 ms (load 12, one process).
 */
function seekOnce(walker: CellWalker | undefined): number {
  if (!walker) return 0;
  const { chunk, offsets } = scanned(true, 0, walker);
  if (!walker.holds(chunk)) return 0;
  const rows = offsets.length;
  const [at, mantissas, kinds] = [new Int32Array(rows), new Float64Array(rows), new Uint8Array(rows)];
  walker.seekNumbers(chunk, offsets.bounds(0, rows), 5, at, mantissas, kinds);
  let decimals = 0;
  for (const kind of kinds) if (kind !== 0 && kind !== NOT_DECIMAL) decimals++;
  return decimals;
}

/** An offset past 2^30 (see scanOnce). */
const FAR_BASE = 3 * 2 ** 30;

/**
 * The warm-up as steps of one scan each (each returns the rows it found, so a test can check them),
 * after a first that makes the walker the first source will take (none where WebAssembly is off).
 */
export function indexWarmupSteps(): (() => number)[] {
  const steps: (() => number)[] = [
    () => {
      try {
        // Kept at once: a table opened between two steps takes it, and the steps then scan in JS
        // only (its buffers are the table's from then on).
        const walker = takeWalker(CHUNK_BYTES);
        // Its pages touched now, while the worker waits: a page's first touch is a fault, paid by
        // the index otherwise (touching 4 MB of new memory took 20–28 ms of CPU at load 10–12 on
        // the bench machine; writing the quoted file's row index was most of its registerRows time).
        for (const b of walker.buffers) b.fill(0);
        keepSpareWalker(walker);
      } catch {
        // No WebAssembly (e.g. --jitless): the JS scan does the work, and is what gets warm.
      }
      return 0;
    },
  ];
  for (let round = 0; round < ROUNDS; round++) {
    const base = round % 2 === 0 ? 0 : FAR_BASE;
    steps.push(() => scanOnce(true, base, spareWalker()));
    steps.push(() => scanOnce(false, base, spareWalker()));
    steps.push(() => seekOnce(spareWalker()));
  }
  return steps;
}
