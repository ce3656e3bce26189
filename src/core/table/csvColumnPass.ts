/**
 * One sequential pass over a CSV file that types the wanted columns, and the walk of every cell
 * of every row that builds the CellMap (and counts cells per row). Once the map is built, a pass
 * starts at the cell (few columns) or jumps to a mark and walks at most 31 cells (many); before,
 * it walks each row from its first cell to the wanted ones only. The walk that builds the map
 * runs in the background after the index and stops between two chunks when another pass is
 * waiting, going on later from where it stopped: the first sort waited for the whole walk (780 ms
 * of the 1.81 GB file's 1,623 ms first sort), though it needs only its own column's cells.
 * Numbers are parsed straight from bytes; text is decoded only for text cells, or for every cell
 * when `fullText` was asked.
 */
import { throwIfCancelled } from '../abort';
import { trimLineEnd } from './bytes';
import { CellMap } from './cellMap';
import { cellStart, CellSpan, cellText, spanCell } from './cells';
import { NOT_DECIMAL, type CellWalker } from './cellWalkWasm';
import { rowEnd, spanAt, type CsvFile } from './csvFile';
import { NumberScan, parsedDecimal, parsedNumber, parsedText, scanNumber } from './numbers';
import { readRowChunks } from './rowChunks';
import type { RowHeads } from './rowHeads';
import { readRowBytes } from './rowReads';
import { TypedColumnBuilder } from './typedColumn';
import type { ColumnNeed, TaskOptions, TypedColumn } from './types';

/** Rows whose cell count differs from the header's: how many, and the first. */
export interface RaggedRows {
  count: number;
  firstRow: number;
  firstCells: number;
}

interface ColumnPassResult {
  readonly columns: TypedColumn[];
  /** Set when this pass finished building the map. */
  readonly map: CellMap | undefined;
  readonly ragged: RaggedRows | undefined;
}

/** A cell map being built by walks that may stop between two chunks and go on later. */
export class MapBuild {
  readonly map: CellMap;
  readonly ragged: RaggedRows = { count: 0, firstRow: 0, firstCells: 0 };
  /** Data rows walked so far: the map holds rows [0, walked). */
  walked = 0;

  constructor(file: CsvFile) {
    this.map = new CellMap(file.rowCount, file.columnCount, { ...rowSizes(file), fileBytes: file.size }, file.delimiter);
  }
}

/** How a pass finds its cells: a map complete for its first `rows` data rows (all of them once built), or none. */
interface CellPlaces {
  readonly map: CellMap;
  readonly rows: number;
}

/** Bytes of the longest data row (line ending included), and whether nearly every row (all but 1 in 100) is shorter than 255 bytes. */
function rowSizes(file: CsvFile): { maxRowBytes: number; shortRows: boolean } {
  let max = 0;
  let long = 0;
  const offsets = file.offsets;
  for (let p = file.headerRows; p < file.headerRows + file.rowCount; p++) {
    const bytes = offsets.limit(p) - offsets.start(p);
    if (bytes > max) max = bytes;
    if (bytes >= 0xff) long++;
  }
  return { maxRowBytes: max, shortRows: long * 100 <= file.rowCount };
}

/** What typeRows() needs of a pass. */
interface RowsPass {
  readonly file: CsvFile;
  readonly builders: readonly TypedColumnBuilder[];
  readonly map: CellMap | undefined;
  /** Data rows [0, mapRows) have their places in `map`; the others are walked from their first cell. */
  readonly mapRows: number;
  readonly walking: boolean;
  /** The first data row the walk records (the rows before it are in the map already). */
  readonly walkFrom: number;
  readonly walker: CellWalker | undefined;
  readonly ragged: RaggedRows;
  readonly span: CellSpan;
  readonly first: number;
  /** The kernel that finds the builders' cells of a chunk's rows in one call each (seekCells), where no map holds them; and its scratch. */
  readonly seek: Seek | undefined;
}

interface Seek {
  readonly walker: CellWalker;
  bounds: Uint32Array;
  /** Per builder: where its cell starts in each row sought (buf positions, -1 past the row's end). */
  at: Int32Array[];
  /** Per builder: what its cell holds in each row sought, and a plain decimal's mantissa (CellWalker.seekNumbers). */
  kinds: Uint8Array[];
  mantissas: Float64Array[];
}

/** A Seek for `builders`, its scratch grown as chunks need. */
function newSeek(walker: CellWalker, builders: readonly TypedColumnBuilder[]): Seek {
  return { walker, bounds: new Uint32Array(0), at: builders.map(() => new Int32Array(0)), kinds: builders.map(() => new Uint8Array(0)), mantissas: builders.map(() => new Float64Array(0)) };
}

/**
 * Fills seek.at for physical rows [from, to) of a chunk held in `buf` from file offset `base`,
 * one kernel call per builder; returns the first row they hold (`to` when none: buf not the walker's).
 */
function seekRows(seek: Seek, file: CsvFile, builders: readonly TypedColumnBuilder[], buf: Buffer, base: number, from: number, to: number): number {
  if (from >= to || !seek.walker.holds(buf)) return to;
  const n = to - from;
  if (seek.bounds.length < n + 1) {
    const size = Math.max(n + 1, seek.bounds.length * 2);
    seek.bounds = new Uint32Array(size);
    seek.at = builders.map(() => new Int32Array(size));
    seek.kinds = builders.map(() => new Uint8Array(size));
    seek.mantissas = builders.map(() => new Float64Array(size));
  }
  const bounds = seek.bounds.subarray(0, n + 1);
  for (let p = from; p < to; p++) bounds[p - from] = file.offsets.start(p) - base;
  bounds[n] = Math.min(file.offsets.limit(to - 1) - base, buf.length);
  for (let i = 0; i < builders.length; i++) {
    seek.walker.seekNumbers(buf, bounds, builders[i]?.column ?? 0, seek.at[i] as Int32Array, seek.mantissas[i] as Float64Array, seek.kinds[i] as Uint8Array);
  }
  return from;
}

/**
 * Types rows [sought, to) of a chunk from what seekNumbers found: an empty cell or a plain decimal
 * goes to its builder with no look at the row; any other cell (and the row never closed, whose
 * line breaks the kernel trimmed) is spanned and read from where its cell starts.
 */
function typeSought(pass: RowsPass, seek: Seek, buf: Buffer, base: number, sought: number, to: number): void {
  const { file, builders, span, first } = pass;
  const openRow = file.offsets.openRow;
  for (let i = 0; i < builders.length; i++) {
    const b = builders[i] as TypedColumnBuilder;
    const kinds = seek.kinds[i] as Uint8Array;
    const mantissas = seek.mantissas[i] as Float64Array;
    const at = seek.at[i] as Int32Array;
    // A builder that keeps every cell's text reads each one (its decimals' texts too).
    const decimals = b.wantsFullText ? 0 : NOT_DECIMAL;
    for (let p = sought; p < to; p++) {
      const k = p - sought;
      const kind = kinds[k] ?? NOT_DECIMAL;
      if (p === openRow || kind >= decimals) {
        const s = file.offsets.start(p) - base;
        const e = rowEnd(file.offsets, p, buf, s, file.offsets.limit(p) - base);
        const c = p === openRow ? cellStart(buf, e, b.column, 0, s, file.delimiter) : (at[k] ?? -1);
        if (!spanAt(file, buf, s, e, c, span)) b.empty(p - first);
        else typeCell(b, p - first, buf, span);
      } else if (kind === 0) b.empty(p - first);
      else b.decimal(p - first, mantissas[k] ?? 0, kind - 1);
    }
  }
}

/**
 * Types (and walks, when the pass builds the map) physical rows [from, to) of a chunk held in
 * `buf` from file offset `base`. A function of its own, called once a chunk: V8 optimises it
 * as a whole and keeps that code from one pass to the next, where a loop inside columnPass was
 * compiled on the stack, dropped where the loop ended, and interpreted again at the next pass.
 */
function typeRows(pass: RowsPass, buf: Buffer, base: number, from: number, to: number): void {
  const { file, builders, map, mapRows, walking, walkFrom, walker, ragged, span, first, seek } = pass;
  const delimited = file.delimited;
  // Rows [sought, to) are typed from the kernel's seek (typeSought); the rows before, from the map or from their first cell.
  const sought = seek && !walking && delimited ? seekRows(seek, file, builders, buf, base, Math.max(from, first + (map ? mapRows : 0)), to) : to;
  if (seek && sought < to) typeSought(pass, seek, buf, base, sought, to);
  for (let p = from; p < sought; p++) {
    const r = p - first;
    const s = file.offsets.start(p) - base;
    const e = rowEnd(file.offsets, p, buf, s, file.offsets.limit(p) - base);
    if (walking && map && r >= walkFrom) {
      const cells = map.record(r, buf, s, e, walker);
      if (cells !== file.columnCount && ragged.count++ === 0) {
        ragged.firstRow = r;
        ragged.firstCells = cells;
      }
    }
    for (let i = 0; i < builders.length; i++) {
      const b = builders[i] as TypedColumnBuilder;
      const at = map && r < mapRows ? map.locate(r, buf, s, e, b.column) : delimited ? cellStart(buf, e, b.column, 0, s, file.delimiter) : s;
      if (!spanAt(file, buf, s, e, at, span)) b.empty(r);
      else typeCell(b, r, buf, span);
    }
  }
}

/** Gives builder `b` row r's cell, spanned in `buf`: empty, a number parsed straight from its bytes, or text. */
function typeCell(b: TypedColumnBuilder, r: number, buf: Buffer, span: CellSpan): void {
  if (span.from === span.to) {
    b.empty(r);
    return;
  }
  const found = scanNumber(buf, span.from, span.to);
  if (found === NumberScan.None) b.text(r, cellText(buf, span));
  else if (found === NumberScan.Decimal) b.decimal(r, parsedDecimal[0] ?? 0, parsedDecimal[1] ?? 0, b.wantsFullText ? cellText(buf, span) : undefined);
  else if (found === NumberScan.Other) b.number(r, parsedNumber[0] ?? NaN, b.wantsFullText ? cellText(buf, span) : undefined);
  else if (found === NumberScan.Long) b.long(r, parsedNumber[0] ?? NaN, parsedText.value);
  else b.outOfRange(r, cellText(buf, span));
}

/**
 * Types `needs` in one pass over the data rows (from the rows' heads instead when the file has
 * them and the cells are there: headsPass). With `build`, the pass also walks every cell of
 * the rows from `build.walked` on (the rows before it are walked already, and in the map) and
 * records them in build.map; a pass with no `needs` reads only those rows, and stops after a
 * chunk when `options.stop()` says another pass waits (the walk goes on later from build.walked).
 * Without `build`, cells are found through `places` where it has them, else from the row's first cell.
 */
export async function columnPass(
  file: CsvFile,
  needs: readonly ColumnNeed[],
  source: { readonly build: MapBuild } | { readonly places: CellPlaces | undefined },
  options: TaskOptions & { readonly stop?: () => boolean },
): Promise<ColumnPassResult> {
  if (file.rowHeads && needs.length > 0 && 'places' in source) {
    const columns = await headsPass(file, file.rowHeads, needs, options);
    if (columns) return { columns, map: undefined, ragged: undefined };
  }
  const { signal, onProgress } = options;
  const rows = file.rowCount;
  const builders = needs.map((n) => new TypedColumnBuilder(n.column, rows, n.text === true));
  const build = 'build' in source ? source.build : undefined;
  const places = 'places' in source ? source.places : undefined;
  const map = build?.map ?? places?.map;
  const walking = build !== undefined && file.delimited;
  const ragged = build?.ragged ?? { count: 0, firstRow: 0, firstCells: 0 };
  const span = new CellSpan();
  const walker = walking ? file.cellWalker() : undefined;
  const first = file.headerRows;
  const walkFrom = build?.walked ?? rows;
  const from = needs.length === 0 ? Math.min(walkFrom, rows) : 0;
  const total = rows > 0 ? file.offsets.limit(first + rows - 1) - file.offsets.start(first + Math.min(from, rows - 1)) : 0;
  let done = 0;

  const seeker = walking || !file.delimited ? undefined : file.cellWalker();
  const seek = seeker ? newSeek(seeker, builders) : undefined;
  const pass: RowsPass = { file, builders, map, mapRows: walking ? rows : (places?.rows ?? 0), walking, walkFrom, walker, ragged, span, first, seek };
  for await (const chunk of readRowChunks(file.fh, file.offsets, first + from, first + rows, file.chunkBuffers(), signal)) {
    typeRows(pass, chunk.buf, chunk.base, chunk.first, chunk.last);
    if (build) build.walked = Math.max(build.walked, chunk.last - first);
    done += chunk.buf.length;
    onProgress?.({ task: 'columns', done, total });
    if (build && needs.length === 0 && build.walked < rows && options.stop?.() === true) break;
  }
  const built = build !== undefined && build.walked >= rows;
  return {
    columns: builders.map((b) => b.finish()),
    map: built && walking ? build.map : undefined,
    ragged: built && walking && ragged.count > 0 ? ragged : undefined,
  };
}

/** A pass from the heads gives up (for the pass over the file) past this share of rows whose cell is not in their head. */
const HEAD_MISS_SHARE = 32;
const HEAD_MISS_SLACK = 16;

/**
 * Types `needs` from the rows' heads (RowHeads, kept by the index) instead of the file, when their
 * cells lie there: each block of heads goes to the seek kernel in one copy, and a row whose cell
 * runs past its head (a long quoted cell before it, say) is read from the file alone. Undefined
 * once more than 1 row in HEAD_MISS_SHARE so far is such a row (the column is past the heads): the pass
 * over the file is the way then. The cells found are the ones typeRows finds: a head is a prefix of
 * its row, and a cell is taken from it only when the delimiter after it lies in the head too.
 */
export async function headsPass(file: CsvFile, heads: RowHeads, needs: readonly ColumnNeed[], options: TaskOptions): Promise<TypedColumn[] | undefined> {
  const { signal, onProgress } = options;
  const rows = file.rowCount;
  const first = file.headerRows;
  const offsets = file.offsets;
  const builders = needs.map((n) => new TypedColumnBuilder(n.column, rows, n.text === true));
  const span = new CellSpan();
  const walker = file.cellWalker();
  const total = rows > 0 ? offsets.limit(first + rows - 1) - offsets.start(first) : 0;
  let misses = 0;
  let bounds = new Uint32Array(0);
  let at = builders.map(() => new Int32Array(0));
  const size = heads.headBytes;
  for (let b = 0; b < heads.blocks.length; b++) {
    throwIfCancelled(signal);
    const p0 = b * heads.perBlock;
    const p1 = Math.min(p0 + heads.perBlock, heads.rows, first + rows);
    const n = p1 - p0;
    if (n <= 0) continue;
    if (bounds.length < n + 1) {
      bounds = new Uint32Array(n + 1);
      at = builders.map(() => new Int32Array(n + 1));
    }
    for (let k = 0; k <= n; k++) bounds[k] = k * size;
    const block = heads.blocks[b] as Buffer;
    // The kernel sees each slot whole: right for the heads that fill theirs; a shorter one (a whole row, the next bytes after it) is walked in JS.
    const staged = walker?.stage(block.subarray(0, n * size));
    const buf = staged ?? block;
    if (staged && walker) for (let i = 0; i < builders.length; i++) walker.seekCells(staged, bounds.subarray(0, n + 1), builders[i]?.column ?? 0, at[i] ?? new Int32Array(0));
    for (let p = Math.max(p0, first); p < p1; p++) {
      const k = p - p0;
      const s = k * size;
      const length = heads.length(offsets, p);
      const whole = length === offsets.limit(p) - offsets.start(p);
      const kernel = staged !== undefined && length === size && p !== offsets.openRow;
      // A head that is not the whole row ends at its cut (the kernel's view of it: trailing CR/LF bytes left out).
      const e = whole ? rowEnd(offsets, p, buf, s, s + length) : trimLineEnd(buf, s, s + length);
      let inHead = true;
      for (let i = 0; i < builders.length && inHead; i++) {
        const c = kernel ? (at[i]?.[k] ?? -1) : cellStart(buf, e, builders[i]?.column ?? 0, 0, s, file.delimiter);
        inHead = whole || (c >= 0 && spanCell(buf, c, e, span, file.delimiter) < e);
      }
      if (!inHead) {
        // Given up as soon as the misses so far pass the share (and a few): a column past the heads costs a few rows, not half a pass.
        if (++misses > HEAD_MISS_SLACK + (p - first) / HEAD_MISS_SHARE) return undefined;
        typeFromFile(file, builders, p, span);
        continue;
      }
      for (let i = 0; i < builders.length; i++) {
        const bi = builders[i] as TypedColumnBuilder;
        const c = kernel ? (at[i]?.[k] ?? -1) : cellStart(buf, e, bi.column, 0, s, file.delimiter);
        if (c < 0) bi.empty(p - first);
        else {
          spanCell(buf, c, e, span, file.delimiter);
          typeCell(bi, p - first, buf, span);
        }
      }
    }
    onProgress?.({ task: 'columns', done: offsets.limit(p1 - 1) - offsets.start(first), total });
    await new Promise<void>((resolve) => setImmediate(resolve)); // windows asked meanwhile are answered between blocks
  }
  return builders.map((b) => b.finish());
}

/** Types physical row p's cells read from the file (a row whose head does not hold them). */
function typeFromFile(file: CsvFile, builders: readonly TypedColumnBuilder[], p: number, span: CellSpan): void {
  const { buf, base } = readRowBytes(file.fh, file.offsets, [p]).get(p) ?? { buf: Buffer.alloc(0), base: 0 };
  const s = file.offsets.start(p) - base;
  const e = rowEnd(file.offsets, p, buf, s, file.offsets.limit(p) - base);
  for (const b of builders) {
    if (!spanAt(file, buf, s, e, cellStart(buf, e, b.column, 0, s, file.delimiter), span)) b.empty(p - file.headerRows);
    else typeCell(b, p - file.headerRows, buf, span);
  }
}
