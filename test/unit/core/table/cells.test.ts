/**
 * Reading a row's cells (cells.ts), as a window does: the cells papaparse reads, whatever the
 * distance between quotes inside a quoted cell, and a long quoted cell scanned once. A window of
 * 60 rows of 5–20 KB notes (a doubled quote every few words) scanned each shown cell twice, to
 * step over it and then to read it. (Looking for the next quote byte by byte in JavaScript instead
 * of Buffer.indexOf was tried: 1.3–1.5× slower on both the quoted and the long-cell files.)
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { cellStart, readRowCells } from '../../../../src/core/table/cells';
import { papaRows, rng } from '../../tableFixtures';

/** A CSV cell of `text`, quoted, its quotes doubled. */
const quoted = (text: string): string => `"${text.replaceAll('"', '""')}"`;

/** `row` in a Buffer whose indexOf calls are counted. */
function counted(row: string): { buf: Buffer; calls: () => number } {
  const buf = Buffer.from(row);
  let calls = 0;
  const own = buf.indexOf.bind(buf);
  Object.defineProperty(buf, 'indexOf', { value: (...args: Parameters<Buffer['indexOf']>) => (calls++, own(...args)) });
  return { buf, calls: () => calls };
}

/** Text of `length` characters with a quote every `gap` characters (none when gap is 0). */
function textWithQuotes(length: number, gap: number): string {
  let s = '';
  for (let i = 0; s.length < length; i++) s += gap > 0 && i % gap === gap - 1 ? '"' : String.fromCharCode(97 + (i % 26));
  return s;
}

describe('table: reading a row\'s cells', () => {
  it('reads what papaparse reads, quotes at every distance in long cells, columns in any order, from a mark or the first cell', () => {
    const rand = rng(34);
    for (let k = 0; k < 300; k++) {
      const cells = Array.from({ length: 1 + Math.floor(rand() * 6) }, () => {
        const kind = rand();
        const text = kind < 0.2 ? '' : kind < 0.4 ? 'x,y' : textWithQuotes(Math.floor(rand() * 3000), Math.floor(rand() * 80));
        return kind < 0.3 ? text.replaceAll('"', '').replaceAll(',', ';') : quoted(text);
      });
      const row = cells.join(',');
      const expected = papaRows(row)[0] ?? [];
      const buf = Buffer.from(row);
      const columns = Array.from({ length: 1 + Math.floor(rand() * 8) }, () => Math.floor(rand() * (cells.length + 2)));
      const from = Math.min(...columns, Math.floor(rand() * cells.length));
      const fromPos = cellStart(buf, buf.length, from, 0, 0);
      const out: string[] = [];
      if (fromPos < 0) readRowCells(buf, 0, buf.length, columns, out);
      else readRowCells(buf, 0, buf.length, columns, out, from, fromPos);
      assert.deepEqual(out, columns.map((c) => expected[c] ?? ''), `row ${k}: ${row.slice(0, 120)}`);
    }
  });

  it('scans a shown cell once, not once to step over it and again to read it', () => {
    const notes = textWithQuotes(9_500, 1_000); // quotes far apart, none at the end: each found by one indexOf call
    const { buf, calls } = counted(['7', quoted(notes), '1.5'].join(','));
    const out: string[] = [];
    readRowCells(buf, 0, buf.length, [1, 2], out);
    assert.deepEqual(out, [notes, '1.5']);
    // One call per doubled quote (9 of them) and one for the closing quote, each once.
    assert.equal(calls(), 10);
  });
});
