/**
 * "Any cell contains this text", over a whole CSV file in one streamed pass.
 *
 * A needle with no quote, comma or line break cannot straddle two cells nor a doubled quote, so
 * a match anywhere in a row's raw bytes is a match in one of its cells. Then:
 * - an ASCII needle is matched, with a case-insensitive RegExp, in each row decoded as latin1
 *   (cheap: one byte per char; a non-ASCII byte never folds to an ASCII letter in a RegExp
 *   without the u flag);
 * - another needle is searched in each row decoded as UTF-8 and lower-cased.
 * Rows, not whole chunks, are decoded: strings of a few KB die young, 8 MB ones do not.
 * A needle with a quote, comma or line break is checked against each decoded cell.
 */
import { CellSpan, cellText, spanCell } from './cells';
import { rowEnd, spanLine, type CsvFile } from './csvFile';
import { readRowChunks, type RowChunk } from './rowChunks';
import type { TaskOptions } from './types';

/** A mask by data row id: 1 where some cell contains `needle` (case-insensitive). */
export async function searchFile(file: CsvFile, needle: string, options: TaskOptions): Promise<Uint8Array> {
  const rows = file.rowCount;
  const mask = new Uint8Array(rows);
  const lower = needle.toLowerCase();
  if (lower === '') return mask.fill(1);
  const rawSafe = !/["\r\n]/u.test(lower) && !(file.delimited ? lower.includes(',') : /^\s|\s$/u.test(lower));
  const ascii = /^[\x20-\x7e\t]*$/u.test(lower);
  const pattern = new RegExp(lower.replace(/[.*+?^${}()|[\]\\]/gu, '\\$&'), 'i');
  const match = rawSafe ? (ascii ? matchLatin1(pattern) : matchRowText) : matchCells;
  const first = file.headerRows;
  const total = rows > 0 ? file.offsets.limit(first + rows - 1) - file.offsets.start(first) : 0;
  let done = 0;
  for await (const chunk of readRowChunks(file.fh, file.offsets, first, first + rows, file.chunkBuffers(), options.signal)) {
    match(file, chunk, lower, mask);
    done += chunk.buf.length;
    options.onProgress?.({ task: 'search', done, total });
  }
  return mask;
}

function matchLatin1(pattern: RegExp): typeof matchRowText {
  return (file, chunk, _needle, mask) => {
    const { buf, base } = chunk;
    for (let p = chunk.first; p < chunk.last; p++) {
      const s = file.offsets.start(p) - base;
      if (pattern.test(buf.toString('latin1', s, rowEnd(buf, s, file.offsets.limit(p) - base)))) mask[p - file.headerRows] = 1;
    }
  };
}

function matchRowText(file: CsvFile, chunk: RowChunk, needle: string, mask: Uint8Array): void {
  const { buf, base } = chunk;
  for (let p = chunk.first; p < chunk.last; p++) {
    const s = file.offsets.start(p) - base;
    const text = buf.toString('utf8', s, rowEnd(buf, s, file.offsets.limit(p) - base));
    if (text.toLowerCase().includes(needle)) mask[p - file.headerRows] = 1;
  }
}

function matchCells(file: CsvFile, chunk: RowChunk, needle: string, mask: Uint8Array): void {
  const { buf, base } = chunk;
  const span = new CellSpan();
  for (let p = chunk.first; p < chunk.last; p++) {
    const s = file.offsets.start(p) - base;
    const e = rowEnd(buf, s, file.offsets.limit(p) - base);
    let at = s;
    for (let c = 0; c < file.columnCount; c++) {
      if (file.delimited) spanCell(buf, at, e, span);
      else spanLine(buf, s, e, span);
      if (cellText(buf, span).toLowerCase().includes(needle)) {
        mask[p - file.headerRows] = 1;
        break;
      }
      if (span.next >= e) break;
      at = span.next + 1;
    }
  }
}
