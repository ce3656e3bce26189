/**
 * One sequential pass over a CSV file that types the wanted columns. The first pass also walks
 * every cell of every row to build the CellMap (and count cells per row); later passes start at
 * the cell (few columns) or jump to a mark and walk at most 31 cells (many). Numbers are parsed straight from bytes; text is decoded only
 * for text cells, or for every cell when `fullText` was asked.
 */
import { CellMap } from './cellMap';
import { CellSpan, cellText } from './cells';
import type { CellWalker } from './cellWalkWasm';
import { rowEnd, spanAt, type CsvFile } from './csvFile';
import { NumberScan, parsedDecimal, parsedNumber, parsedText, scanNumber } from './numbers';
import { readRowChunks } from './rowChunks';
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
  /** Set when this pass built the map. */
  readonly map: CellMap | undefined;
  readonly ragged: RaggedRows | undefined;
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
  readonly walking: boolean;
  readonly walker: CellWalker | undefined;
  readonly ragged: RaggedRows;
  readonly span: CellSpan;
  readonly first: number;
}

/**
 * Types (and walks, when the pass builds the map) physical rows [from, to) of a chunk held in
 * `buf` from file offset `base`. A function of its own, called once a chunk: V8 optimises it
 * as a whole and keeps that code from one pass to the next, where a loop inside columnPass was
 * compiled on the stack, dropped where the loop ended, and interpreted again at the next pass.
 */
function typeRows(pass: RowsPass, buf: Buffer, base: number, from: number, to: number): void {
  const { file, builders, map, walking, walker, ragged, span, first } = pass;
  for (let p = from; p < to; p++) {
    const r = p - first;
    const s = file.offsets.start(p) - base;
    const e = rowEnd(file.offsets, p, buf, s, file.offsets.limit(p) - base);
    if (walking && map) {
      const cells = map.record(r, buf, s, e, walker);
      if (cells !== file.columnCount && ragged.count++ === 0) {
        ragged.firstRow = r;
        ragged.firstCells = cells;
      }
    }
    for (const b of builders) {
      const at = map ? map.locate(r, buf, s, e, b.column) : s;
      if (!spanAt(file, buf, s, e, at, span) || span.from === span.to) {
        b.empty(r);
        continue;
      }
      const found = scanNumber(buf, span.from, span.to);
      if (found === NumberScan.None) b.text(r, cellText(buf, span));
      else if (found === NumberScan.Decimal) b.decimal(r, parsedDecimal[0] ?? 0, parsedDecimal[1] ?? 0, b.wantsFullText ? cellText(buf, span) : undefined);
      else if (found === NumberScan.Other) b.number(r, parsedNumber[0] ?? NaN, b.wantsFullText ? cellText(buf, span) : undefined);
      else if (found === NumberScan.Long) b.long(r, parsedNumber[0] ?? NaN, parsedText.value);
      else b.outOfRange(r, cellText(buf, span));
    }
  }
}

/** Types `needs` in one pass; builds the cell map when `map` is undefined (delimited files only). */
export async function columnPass(
  file: CsvFile,
  needs: readonly ColumnNeed[],
  existingMap: CellMap | undefined,
  options: TaskOptions,
): Promise<ColumnPassResult> {
  const { signal, onProgress } = options;
  const rows = file.rowCount;
  const builders = needs.map((n) => new TypedColumnBuilder(n.column, rows, n.text === true));
  const map = existingMap ?? (file.delimited ? new CellMap(rows, file.columnCount, { ...rowSizes(file), fileBytes: file.size }, file.delimiter) : undefined);
  const walking = map !== existingMap;
  const ragged: RaggedRows = { count: 0, firstRow: 0, firstCells: 0 };
  const span = new CellSpan();
  const walker = walking ? file.cellWalker() : undefined;
  const first = file.headerRows;
  const total = rows > 0 ? file.offsets.limit(first + rows - 1) - file.offsets.start(first) : 0;
  let done = 0;

  const pass: RowsPass = { file, builders, map, walking, walker, ragged, span, first };
  for await (const chunk of readRowChunks(file.fh, file.offsets, first, first + rows, file.chunkBuffers(), signal)) {
    typeRows(pass, chunk.buf, chunk.base, chunk.first, chunk.last);
    done += chunk.buf.length;
    onProgress?.({ task: 'columns', done, total });
  }
  return {
    columns: builders.map((b) => b.finish()),
    map: walking ? map : undefined,
    ragged: walking && ragged.count > 0 ? ragged : undefined,
  };
}
