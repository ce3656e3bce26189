/**
 * "Any cell contains this text", over a whole CSV file in one streamed pass.
 *
 * Rows are first tested on their raw bytes, which is cheap: an ASCII needle with a
 * case-insensitive RegExp on the row decoded as latin1 (one byte per char; without the u flag a
 * non-ASCII char never folds to an ASCII one), any other needle on the row decoded as UTF-8 and
 * lower-cased. Rows, not whole chunks, are decoded: strings of a few KB die young, 8 MB ones do not.
 *
 * A needle without a quote, comma or line break cannot straddle two cells or a doubled quote,
 * so the raw test is the answer. Otherwise a cell that contains the needle shows it in the raw
 * bytes as it is or with its quotes doubled, so the raw test picks candidate rows and their
 * decoded cells decide; in a file with malformed quotes that does not hold, and every cell is
 * checked.
 */
import { CellSpan, cellText, spanCell } from './cells';
import { delimiterChar } from './csvDialect';
import { rowEnd, spanLine, type CsvFile } from './csvFile';
import { readRowChunks } from './rowChunks';
import type { TaskOptions } from './types';

type RawTest = (buf: Buffer, start: number, end: number) => boolean;

/**
 * A mask by data row id: 1 where some cell contains `needle` (case-insensitive).
 * `quotesWellFormed`: the scan found no malformed quote in the file.
 */
export async function searchFile(file: CsvFile, needle: string, quotesWellFormed: boolean, options: TaskOptions): Promise<Uint8Array> {
  const rows = file.rowCount;
  const mask = new Uint8Array(rows);
  const lower = needle.toLowerCase();
  if (lower === '') return mask.fill(1);
  const special = /["\r\n]/u.test(lower) || (file.delimited ? lower.includes(delimiterChar(file.delimiter)) : /^\s|\s$/u.test(lower));
  const raw = special && !quotesWellFormed ? undefined : rawTest(special ? [lower, lower.replaceAll('"', '""')] : [lower]);
  const first = file.headerRows;
  const total = rows > 0 ? file.offsets.limit(first + rows - 1) - file.offsets.start(first) : 0;
  const span = new CellSpan();
  let done = 0;
  for await (const { buf, base, first: r0, last: r1 } of readRowChunks(file.fh, file.offsets, first, first + rows, file.chunkBuffers(), options.signal)) {
    for (let p = r0; p < r1; p++) {
      const s = file.offsets.start(p) - base;
      const e = rowEnd(file.offsets, p, buf, s, file.offsets.limit(p) - base);
      const hit = raw ? raw(buf, s, e) && (!special || anyCell(file, buf, s, e, lower, span)) : anyCell(file, buf, s, e, lower, span);
      if (hit) mask[p - first] = 1;
    }
    done += buf.length;
    options.onProgress?.({ task: 'search', done, total });
  }
  return mask;
}

/** A test that a row's raw bytes contain one of `forms` (lower-case), ignoring case. */
function rawTest(forms: readonly string[]): RawTest {
  if (forms.every((f) => /^[\x20-\x7e\t\r\n]*$/u.test(f))) {
    const pattern = new RegExp(forms.map((f) => f.replace(/[.*+?^${}()|[\]\\]/gu, '\\$&')).join('|'), 'i');
    return (buf, s, e) => pattern.test(buf.toString('latin1', s, e));
  }
  return (buf, s, e) => {
    const text = buf.toString('utf8', s, e).toLowerCase();
    return forms.some((f) => text.includes(f));
  };
}

/** True when a decoded cell of the row [start, end) contains `needle` (lower-case). */
function anyCell(file: CsvFile, buf: Buffer, start: number, end: number, needle: string, span: CellSpan): boolean {
  if (!file.delimited) {
    spanLine(buf, start, end, span);
    return cellText(buf, span).toLowerCase().includes(needle);
  }
  let at = start;
  for (let c = 0; c < file.columnCount; c++) {
    spanCell(buf, at, end, span, file.delimiter);
    if (cellText(buf, span).toLowerCase().includes(needle)) return true;
    if (span.next >= end) return false;
    at = span.next + 1;
  }
  return false;
}
