/**
 * The WebAssembly cell walk (cellWalk.wat) finds exactly the cells the JS walker (cells.ts)
 * finds, and every CellMap layout (marks, per-cell offsets, per-cell deltas, every second cell) places every cell
 * where a walk from the row's first cell finds it, quoted multi-line cells included. The row
 * scan kernel finds the rows and quote problems the JS scanner finds; the seek kernel finds one
 * cell of many rows where cellStart does, and reads it as scanNumber does.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CellMap, type CellMapLayout } from '../../../../src/core/table/cellMap';
import { trimLineEnd } from '../../../../src/core/table/bytes';
import { cellStart, CellSpan, countCells, spanCell } from '../../../../src/core/table/cells';
import { NumberScan, parsedDecimal, scanNumber } from '../../../../src/core/table/numbers';
import { RowOffsets } from '../../../../src/core/table/rowOffsets';
import { RowScanner } from '../../../../src/core/table/rowScanner';
import { CellWalker, NOT_DECIMAL } from '../../../../src/core/table/cellWalkWasm';
import { openCsvFile } from '../../../../src/core/table';
import { columnPass } from '../../../../src/core/table/csvColumnPass';
import type { CsvFile } from '../../../../src/core/table/csvFile';
import { randomTable, rng, tempDir, toCsv, writeTemp } from '../../tableFixtures';

/** Marks and cell count of one row, walked by JS (plain buffer) or by the kernel (walker buffer). */
function walk(row: Buffer, columns: number, walker?: CellWalker, layout?: CellMapLayout): { cells: number; marks: number[] } {
  const map = new CellMap(1, columns, { layout, maxRowBytes: row.length + 1 });
  let buf = row;
  if (walker) {
    buf = walker.buffers[1].subarray(0, row.length); // the second buffer: offsets inside memory are not 0
    row.copy(buf);
  }
  const cells = map.record(0, buf, 0, row.length, walker);
  const marks: number[] = [];
  for (let c = 0; c < columns; c += 32) {
    // A mark shows as where locate() finds that cell: the start, or -1 past the row's end.
    marks.push(map.locate(0, buf, 0, row.length, c));
  }
  return { cells, marks };
}

/** Where each cell of the row starts, walking from its first cell (-1 past the row's end). */
function starts(row: Buffer, columns: number): number[] {
  return Array.from({ length: columns }, (_, c) => cellStart(row, row.length, c, 0, 0));
}

/** Where a map of `layout` places each cell, walking the row with `walker` (or in JS). */
function located(row: Buffer, columns: number, layout: CellMapLayout, walker?: CellWalker, shortRows?: boolean): number[] {
  let buf = row;
  if (walker) {
    buf = walker.buffers[0].subarray(100, 100 + row.length); // not at offset 0 of the buffer either
    row.copy(buf);
  }
  const map = new CellMap(3, columns, { layout, maxRowBytes: row.length + 1, shortRows });
  map.record(1, buf, 0, row.length, walker);
  const expected = starts(row, columns);
  for (let c = 0; c < columns; c++) {
    // markBefore gives a cell at or before c, where a walk finds it (or nothing past the row's end).
    const mark = map.markBefore(1, c);
    if (mark) assert.equal(mark.offset, expected[mark.cell], `markBefore(${c}) → cell ${mark.cell}`);
    assert.ok(mark !== undefined || (expected[c] ?? -1) < 0, `markBefore(${c}) found nothing in the row`);
  }
  return Array.from({ length: columns }, (_, c) => map.locate(1, buf, 0, row.length, c));
}

/** Rows joined with their line endings (CRLF for about a third, by `rand`), and where each starts (then where the last ends). */
function layRows(rows: readonly string[], rand: () => number): { buf: Buffer; bounds: Uint32Array } {
  const starts: number[] = [];
  const lines: string[] = [];
  let bytes = 0; // counted row by row: the byte length of the text so far, measured each time, took 20 s for 17,000 rows
  for (const row of rows) {
    starts.push(bytes);
    const line = row + (rand() < 0.3 ? '\r\n' : '\n');
    lines.push(line);
    bytes += Buffer.byteLength(line);
  }
  starts.push(bytes);
  return { buf: Buffer.from(lines.join('')), bounds: Uint32Array.from(starts) };
}

describe('table: cell map layouts', () => {
  it('holds 2 bytes a row for the 1,000,000-row quoted shape (12 columns, short rows): 2 MB, where every second cell took 5 (issue 34: memory growth 0.26 × the file, budget 0.25 ×)', () => {
    const map = new CellMap(1_000_000, 12, { maxRowBytes: 400, fileBytes: 206e6, shortRows: true });
    assert.equal(map.bytes, 2_000_000);
  });

  it('places every cell where a walk from the first cell finds it, in every layout, JS and kernel', () => {
    const walker = new CellWalker(1 << 16);
    const rand = rng(4321);
    const long = 'x'.repeat(300);
    const bits = ['a', '12.5', ',', ',', ' ', '"', '""', '\n', '"x,y"', '"a""b"', '"multi\nline, ""q"""', `"${long}"`, long, 'é'];
    for (let i = 0; i < 3000; i++) {
      const row = Buffer.from(Array.from({ length: Math.floor(rand() * 40) }, () => bits[Math.floor(rand() * bits.length)] ?? '').join(''));
      const columns = 1 + Math.floor(rand() * 64);
      const expected = starts(row, columns);
      for (const layout of ['marks', 'cells', 'deltas', 'pairs', 'quads'] as const) {
        const what = `row ${i}: ${JSON.stringify(row.toString())}, ${columns} columns, ${layout}`;
        assert.deepEqual(located(row, columns, layout), expected, `JS, ${what}`);
        assert.deepEqual(located(row, columns, layout, walker), expected, `kernel, ${what}`);
      }
      // One byte a cell with escapes: a cell at 255 bytes or more is walked to.
      const what = `row ${i}: ${JSON.stringify(row.toString())}, ${columns} columns, cells of one byte`;
      assert.deepEqual(located(row, columns, 'cells', undefined, true), expected, `JS, ${what}`);
      assert.deepEqual(located(row, columns, 'cells', walker, true), expected, `kernel, ${what}`);
    }
  });

  it('deltas: rows of one map, a cell of 255 bytes or more or the end of the row at every place of a 4-cell word', () => {
    for (const columns of [5, 8, 9, 12, 13, 17]) {
      const rows: Buffer[] = [];
      for (let k = 0; k < columns; k++) {
        rows.push(Buffer.from(Array.from({ length: columns }, (_, c) => (c === k ? 'y'.repeat(254 + (k % 3)) : 'ab'.slice(0, 1 + (c % 2)))).join(',')));
        rows.push(Buffer.from(Array.from({ length: k + 1 }, (_, c) => String(c * 7)).join(','))); // k + 1 cells only
      }
      const map = new CellMap(rows.length, columns, { layout: 'deltas' });
      rows.forEach((row, r) => map.record(r, row, 0, row.length));
      rows.forEach((row, r) => {
        const got = Array.from({ length: columns }, (_, c) => map.locate(r, row, 0, row.length, c));
        assert.deepEqual(got, starts(row, columns), `${columns} columns, row ${r}: ${row.toString().slice(0, 60)}`);
      });
    }
  });

  it('finds the first row whose cell count differs, in one call, as countCells does (quotes or not, CRLF, past a batch)', () => {
    const walker = new CellWalker(1 << 20);
    const rand = rng(2411);
    const bits = ['a', '12.5', ',', ',', ' ', '"', '""', '"x,y"', '"a""b"', '"multi\nline, ""q"""', 'é', 'x'.repeat(40)];
    const lay = (rows: readonly string[]): { buf: Buffer; bounds: Uint32Array } => layRows(rows, rand);
    for (let i = 0; i < 300; i++) {
      const rows = Array.from({ length: 1 + Math.floor(rand() * 30) }, () =>
        Array.from({ length: Math.floor(rand() * 12) }, () => bits[Math.floor(rand() * bits.length)] ?? '').join(''),
      );
      const { buf, bounds } = lay(rows);
      const staged = walker.stage(buf);
      assert.ok(staged);
      const counts = rows.map((_, k) => countCells(buf, bounds[k] ?? 0, trimLineEnd(buf, bounds[k] ?? 0, bounds[k + 1] ?? 0)));
      for (const expected of [counts[0] ?? 1, 1, 2, 3]) {
        const index = counts.findIndex((c) => c !== expected);
        const want = index === -1 ? undefined : { index, cells: counts[index] };
        assert.deepEqual(walker.firstRowNotOf(staged, bounds, expected), want, `${JSON.stringify(rows)}, expected ${expected}`);
      }
    }
    const many = Array.from({ length: 20_000 }, (_, k) => (k === 17_000 ? '"1","2"' : k % 2 === 0 ? '"1","x, y","3"' : '1,2,3'));
    const { buf, bounds } = lay(many);
    const staged = walker.stage(buf);
    assert.ok(staged);
    assert.deepEqual(walker.firstRowNotOf(staged, bounds, 3), { index: 17_000, cells: 2 });
    assert.equal(walker.firstRowNotOf(staged, bounds.subarray(0, 17_001), 3), undefined);
  });

  it('finds one cell of many rows in one call where cellStart finds it, or -1 past the row\'s end (quotes or not, CRLF, past a batch)', () => {
    const walker = new CellWalker(1 << 20);
    const rand = rng(977);
    const bits = ['a', '12.5', ',', ',', ' ', '"', '""', '"x,y"', '"a""b"', '"multi\nline, ""q"""', '"x" ,', 'é', 'x'.repeat(40)];
    const lay = (rows: readonly string[]): { buf: Buffer; bounds: Uint32Array } => layRows(rows, rand);
    const expected = (buf: Buffer, bounds: Uint32Array, index: number): number[] =>
      Array.from({ length: bounds.length - 1 }, (_, k) => cellStart(buf, trimLineEnd(buf, bounds[k] ?? 0, bounds[k + 1] ?? 0), index, 0, bounds[k] ?? 0));
    for (let i = 0; i < 300; i++) {
      const rows = Array.from({ length: 1 + Math.floor(rand() * 30) }, () =>
        Array.from({ length: Math.floor(rand() * 12) }, () => bits[Math.floor(rand() * bits.length)] ?? '').join(''),
      );
      const { buf, bounds } = lay(rows);
      const staged = walker.stage(buf);
      assert.ok(staged);
      for (const index of [0, 1, 2, 3, 5, 9]) {
        const out = new Int32Array(rows.length);
        walker.seekCells(staged, bounds, index, out);
        assert.deepEqual(Array.from(out), expected(buf, bounds, index), `${JSON.stringify(rows)}, cell ${index}`);
      }
    }
    // Rows of many unquoted cells (a wallet file's), which the kernel goes through 16 bytes at a
    // time: far cells, cells across blocks, quotes inside unquoted cells and quoted cells among them.
    const wide = ['1', '-12.25', '0.000123', 'abcdefghijklmnopqrstu', '', 'x"y', '"q"', '"a,b"', '"c""d"', ' ', '12345678901234567'];
    for (let i = 0; i < 200; i++) {
      const rows = Array.from({ length: 1 + Math.floor(rand() * 20) }, () =>
        Array.from({ length: Math.floor(rand() * 60) }, () => (rand() < 0.9 ? (wide[Math.floor(rand() * 5)] ?? '') : (wide[Math.floor(rand() * wide.length)] ?? ''))).join(','),
      );
      const { buf, bounds } = lay(rows);
      const staged = walker.stage(buf);
      assert.ok(staged);
      for (const index of [1, 7, 16, 26, 33, 58, 70]) {
        const out = new Int32Array(rows.length);
        walker.seekCells(staged, bounds, index, out);
        assert.deepEqual(Array.from(out), expected(buf, bounds, index), `${JSON.stringify(rows)}, cell ${index}`);
      }
    }
    const many = Array.from({ length: 20_000 }, (_, k) => (k % 3 === 0 ? '"1","x, y",3' : k % 3 === 1 ? '1,2' : 'a,"b""c",d,e'));
    const { buf, bounds } = lay(many);
    const staged = walker.stage(buf);
    assert.ok(staged);
    const out = new Int32Array(many.length);
    walker.seekCells(staged, bounds, 2, out);
    assert.deepEqual(Array.from(out), expected(buf, bounds, 2));
  });

  it('reads one cell of many rows as scanNumber reads it: empty, a plain decimal (its mantissa and places) or anything else, where cellStart and spanCell find it', () => {
    const walker = new CellWalker(1 << 20);
    const rand = rng(342);
    // Numbers quoted or not, and near misses: signs alone, exponents, 16 digits, spaces, a doubled or stray quote, a quote closed late.
    const cells = ['12.5', '-0', '-.5', '3.', '+7', '0', '-1.187955', '8893.276453', '123456789012345', '1234567890123456', '0.000000000000001', '1e5', '-', '+', '.', '-.', '1.2.3', ' 1', '1 ', '12a', 'x', '', 'é'];
    const quoted = (c: string): string[] => [`"${c}"`, `"${c}" `, `"${c}"\t`, `"${c}" x`, `"${c}""`, `""${c}"`, `"${c}`];
    const pieces = [...cells, ...cells.flatMap(quoted), '"a,b"', '"multi\nline"', '"1,5"', '"x""y"'];
    const expected = (buf: Buffer, bounds: Uint32Array, index: number): { at: number[]; kinds: number[]; mantissas: number[] } => {
      const want = { at: [] as number[], kinds: [] as number[], mantissas: [] as number[] };
      for (let k = 0; k + 1 < bounds.length; k++) {
        const e = trimLineEnd(buf, bounds[k] ?? 0, bounds[k + 1] ?? 0);
        const at = cellStart(buf, e, index, 0, bounds[k] ?? 0);
        const span = new CellSpan();
        if (at >= 0) spanCell(buf, at, e, span);
        const found = at < 0 || span.from === span.to ? undefined : scanNumber(buf, span.from, span.to);
        want.at.push(at);
        want.kinds.push(found === undefined ? 0 : found === NumberScan.Decimal ? 1 + (parsedDecimal[1] ?? 0) : NOT_DECIMAL);
        want.mantissas.push(found === NumberScan.Decimal ? (parsedDecimal[0] ?? NaN) : NaN);
      }
      return want;
    };
    const check = (rows: readonly string[], indexes: readonly number[]): void => {
      const { buf, bounds } = layRows(rows, rand);
      const staged = walker.stage(buf);
      assert.ok(staged);
      for (const index of indexes) {
        const n = rows.length;
        const [at, mantissas, kinds] = [new Int32Array(n), new Float64Array(n), new Uint8Array(n)];
        walker.seekNumbers(staged, bounds, index, at, mantissas, kinds);
        const want = expected(buf, bounds, index);
        const what = `${JSON.stringify(rows.slice(0, 40))}, cell ${index}`;
        assert.deepEqual(Array.from(at), want.at, what);
        assert.deepEqual(Array.from(kinds), want.kinds, what);
        // The mantissa only where a decimal was read (-0 for "-0", told from 0 by deepEqual's Object.is).
        assert.deepEqual(Array.from(mantissas, (m, k) => (kinds[k] === 0 || kinds[k] === NOT_DECIMAL ? NaN : m)), want.mantissas, what);
      }
    };
    for (let i = 0; i < 300; i++) {
      const rows = Array.from({ length: 1 + Math.floor(rand() * 30) }, () => Array.from({ length: Math.floor(rand() * 8) }, () => pieces[Math.floor(rand() * pieces.length)] ?? '').join(','));
      check(rows, [0, 1, 2, 4, 7]);
    }
    // The quoted file's rows (bench/tableData.ts): amounts quoted after four quoted cells, past a batch of 16,383 rows.
    const amount = (k: number): string => (k % 5 === 0 ? '' : k % 7 === 0 ? 'x' : String(((k * 7919) % 20000) / 1000 - 10));
    const many = Array.from({ length: 17_000 }, (_, k) => `"${k}","w","n ""q""","a,\nb","${amount(k)}","${k % 9}.5"`);
    check(many, [4, 5, 0]);
  });

  it('gives every cell (or every second or fourth, in a byte) its own place in a file of few columns, the marks layout to a wide one', () => {
    assert.equal(new CellMap(10, 12, { maxRowBytes: 200, fileBytes: 2000 }).layout, 'quads');
    assert.equal(new CellMap(10, 4, { maxRowBytes: 200, fileBytes: 2000 }).layout, 'pairs');
    assert.equal(new CellMap(10, 2, { maxRowBytes: 200, fileBytes: 2000 }).layout, 'cells');
    assert.equal(new CellMap(1_000_000, 12, { maxRowBytes: 400, fileBytes: 200e6 }).layout, 'deltas');
    // A few long rows among short ones: one byte every fourth cell, the long rows walked.
    assert.equal(new CellMap(1_000_000, 12, { maxRowBytes: 400, fileBytes: 200e6, shortRows: true }).layout, 'quads');
    assert.equal(new CellMap(100_000, 8, { maxRowBytes: 21_000, fileBytes: 1.3e9 }).layout, 'cells');
    assert.equal(new CellMap(100_000, 640, { maxRowBytes: 8000, fileBytes: 700e6 }).layout, 'marks');
  });
});

describe('table: cell walk kernel', () => {
  it('agrees with the JS walker on random rows, with and without quotes, both kernels', () => {
    const simd = new CellWalker(1 << 16);
    const scalar = new CellWalker(1 << 16, false);
    const rand = rng(1234);
    const plain = ['a', 'bc', '12.5', ',', ',', ',', ' ', '\t', '\r', 'é', ',,,,,,,,,,,,,,,,,', '0123456789abcdef'];
    const quoted = [...plain, '"', '""', '\n', '"x,y"', '"a""b"', '" ,"'];
    for (let i = 0; i < 4000; i++) {
      const bits = i % 2 === 0 ? plain : quoted;
      const row = Buffer.from(Array.from({ length: Math.floor(rand() * 200) }, () => bits[Math.floor(rand() * bits.length)] ?? '').join(''));
      const columns = 1 + Math.floor(rand() * 130);
      const expected = walk(row, columns);
      const what = `row ${i}: ${JSON.stringify(row.toString())}, ${columns} columns`;
      assert.deepEqual(walk(row, columns, simd), expected, `SIMD walker, ${what}`);
      assert.deepEqual(walk(row, columns, scalar), expected, `scalar walker, ${what}`);
    }
  });

  it('records every 32nd cell of a long row', () => {
    const walker = new CellWalker(1 << 16);
    const row = Buffer.from(Array.from({ length: 100 }, (_, i) => (i === 40 ? '"4,0"' : String(i))).join(','));
    const { cells, marks } = walk(row, 100, walker);
    assert.equal(cells, 100);
    const text = row.toString();
    assert.deepEqual(marks, [0, text.indexOf(',32,') + 1, text.indexOf(',64,') + 1, text.indexOf(',96,') + 1]);
  });
});

describe('table: row scan kernel', () => {
  /** Rows, lines and problems the scanner finds in `text` fed in chunks cut at `cuts`, with or without the kernel. */
  function scanAll(text: Buffer, cuts: number[], walker?: CellWalker): unknown {
    const offsets = new RowOffsets();
    const scanner = new RowScanner(offsets, true, 0);
    let from = 0;
    for (const to of [...cuts, text.length]) {
      let chunk = text.subarray(from, to);
      if (walker) {
        const buf = walker.buffers[1].subarray(7, 7 + chunk.length);
        chunk.copy(buf);
        chunk = buf;
      }
      scanner.feed(chunk, from, walker, 'always');
      from = to;
    }
    scanner.finish(text.length);
    const rows = Array.from({ length: offsets.length }, (_, r) => [offsets.start(r), offsets.limit(r), offsets.line(r)]);
    return { rows, malformed: scanner.malformedQuotes, first: scanner.firstMalformedQuote, open: scanner.unterminatedQuote };
  }

  it('finds the rows, lines and quote problems the JS scanner finds, chunks cut anywhere', () => {
    const walker = new CellWalker(1 << 16);
    const rand = rng(77);
    const bits = ['a', 'bc', ',', ',', '"', '""', '\n', '\n', '\r\n', '\r', ' ', '\t', '"x,y"', '"a""b"', '"l1\nl2"', '" "x', 'é', '0123456789abcdef0123'];
    for (let i = 0; i < 3000; i++) {
      const text = Buffer.from(Array.from({ length: Math.floor(rand() * 120) }, () => bits[Math.floor(rand() * bits.length)] ?? '').join(''));
      const cuts = Array.from({ length: Math.floor(rand() * 4) }, () => Math.floor(rand() * (text.length + 1))).sort((a, b) => a - b);
      assert.deepEqual(scanAll(text, cuts, walker), scanAll(text, cuts), `text ${i}: ${JSON.stringify(text.toString())}, cuts ${cuts.join(',')}`);
    }
  });

  it('agrees on long, mostly well-formed quoted text (the 64-byte parity path), chunks cut anywhere', () => {
    const walker = new CellWalker(1 << 16);
    const rand = rng(78);
    const inner = ['a', 'bc d', ',', '""', '\n', '\r\n', 'é', '0123456789abcdef', ' '];
    const cell = (): string => {
      const x = rand();
      if (x < 0.3) return ['12', 'abc', '', 'x y'][Math.floor(rand() * 4)] ?? '';
      const body = Array.from({ length: Math.floor(rand() * 12) }, () => inner[Math.floor(rand() * inner.length)] ?? '').join('');
      // Now and then a flaw: a stray quote, text after the closing quote, spaces before the comma, no closing quote.
      const flaw = rand() < 0.04 ? ['"', 'x', ' ', ''][Math.floor(rand() * 4)] ?? '' : '';
      return `"${body}"${flaw}`;
    };
    for (let i = 0; i < 300; i++) {
      const rows = Array.from({ length: 1 + Math.floor(rand() * 30) }, () => Array.from({ length: 1 + Math.floor(rand() * 6) }, cell).join(','));
      const text = Buffer.from(rows.join(rand() < 0.5 ? '\n' : '\r\n') + (rand() < 0.5 ? '\n' : ''));
      const cuts = Array.from({ length: Math.floor(rand() * 4) }, () => Math.floor(rand() * (text.length + 1))).sort((a, b) => a - b);
      assert.deepEqual(scanAll(text, cuts, walker), scanAll(text, cuts), `text ${i}: ${JSON.stringify(text.toString())}, cuts ${cuts.join(',')}`);
    }
  });

  it('registers a kernel call\'s rows in one call into the index, not one a row (issue 34: a million calls were a quarter of the quoted file\'s index)', () => {
    const walker = new CellWalker(1 << 17);
    const text = Buffer.from('"a\nb",1\n\n"c",""""\r\n'.repeat(2000));
    const offsets = new RowOffsets();
    const calls = { push: 0, pushEnds: 0 };
    for (const name of ['push', 'pushEnds'] as const) {
      const own = offsets[name].bind(offsets) as (...a: unknown[]) => void;
      Object.defineProperty(offsets, name, { value: (...a: unknown[]) => (calls[name]++, own(...a)) });
    }
    const scanner = new RowScanner(offsets, true, 0);
    const buf = walker.buffers[0].subarray(0, text.length);
    text.copy(buf);
    scanner.feed(buf, 0, walker, 'always');
    scanner.finish(text.length);
    assert.equal(offsets.length, 4000);
    assert.equal(calls.push, 0, 'no call a row');
    assert.ok(calls.pushEnds >= 1 && calls.pushEnds <= 2, `${calls.pushEnds} calls`);
    assert.deepEqual(scanAll(text, [], walker), scanAll(text, []));
  });

  it('finds the same rows and lines near and past 4 GiB', () => {
    const walker = new CellWalker(1 << 16);
    const text = Buffer.from('"x\ny",1\n\n2,"z"\n'.repeat(400));
    const scan = (base: number, kernel: boolean): number[][] => {
      const offsets = new RowOffsets();
      const scanner = new RowScanner(offsets, true, base);
      let chunk: Buffer = text;
      if (kernel) {
        chunk = walker.buffers[1].subarray(0, text.length);
        text.copy(chunk);
      }
      scanner.feed(chunk, base, kernel ? walker : undefined, 'always');
      scanner.finish(base + text.length);
      return Array.from({ length: offsets.length }, (_, r) => [offsets.start(r), offsets.limit(r), offsets.line(r)]);
    };
    for (const base of [2 ** 31 + 5, 2 ** 32 - 3000, 2 ** 32 + 11]) assert.deepEqual(scan(base, true), scan(base, false), `base ${base}`);
  });

  it('gives the same line numbers when rows hold 255 line breaks or more, or none, or some, mixed (the index\'s steps, written for every row once one has one)', () => {
    const walker = new CellWalker(1 << 17);
    const rand = rng(80);
    const rows = Array.from({ length: 3000 }, (_, r) => {
      const x = rand();
      const cell = x < 0.4 ? 'plain' : x < 0.97 ? `a\nb${'\n'.repeat(Math.floor(rand() * 4))}` : '\n'.repeat(250 + Math.floor(rand() * 20));
      return `"${r}","${cell}"\n${rand() < 0.01 ? '\n'.repeat(300) : ''}`;
    });
    const text = Buffer.from(rows.join(''));
    assert.deepEqual(scanAll(text, [], walker), scanAll(text, []));
    assert.deepEqual(scanAll(text, [70_000, 70_001, 100_000], walker), scanAll(text, [70_000, 70_001, 100_000]));
  });

  it('stops at 8,184 row ends a call and goes on', () => {
    const walker = new CellWalker(1 << 17);
    const text = Buffer.from('"a\nb",1\n'.repeat(10_000));
    assert.deepEqual(scanAll(text, [], walker), scanAll(text, []));
  });

  it('stops in time when every byte of a 64-byte step ends a row (runs of blank lines between quoted rows)', () => {
    const walker = new CellWalker(1 << 17);
    const text = Buffer.from(('"a","b"\n' + '\n'.repeat(200)).repeat(300));
    assert.deepEqual(scanAll(text, [], walker), scanAll(text, []));
    assert.deepEqual(scanAll(text, [1000, 50_001], walker), scanAll(text, [1000, 50_001]));
  });
});

describe('table: a column pass through the seek kernel', () => {
  let dir = '';
  let cleanup: () => Promise<void> = () => Promise.resolve();
  before(async () => ({ dir, cleanup } = await tempDir()));
  after(() => cleanup());

  /** A cell of a column of numbers as files hold them: quoted or not, signs, places, and the near misses among them. */
  function numberCell(rand: () => number): string {
    const k = rand();
    const places = Math.floor(rand() * 10);
    const n = ((rand() - 0.5) * 10 ** Math.floor(rand() * 9)).toFixed(places);
    const text = k < 0.6 ? n : (['', '-0', '3.', '.5', '-.25', '+7', '1e5', '12345678901234567', '-', 'x', ' 1', '1 ', '1,5', 'a""b'][Math.floor(rand() * 14)] ?? '');
    const q = rand();
    if (/[",]/u.test(text) || q < 0.5) return `"${text.replaceAll('"', '""')}"${q < 0.05 ? ' ' : ''}`;
    return text;
  }

  it('types every column as the pass without the kernel does, on random files: numbers quoted or not, ragged rows, a row never closed, chunks cut anywhere', async () => {
    const rand = rng(3420);
    let decimals = 0;
    for (let i = 0; i < 40; i++) {
      let text: string;
      if (i % 3 === 0) text = toCsv(randomTable(rand), rand);
      else {
        const cols = 2 + Math.floor(rand() * 5);
        const lines = [Array.from({ length: cols }, (_, c) => `c${c}`).join(',')];
        for (let r = 0, rows = 20 + Math.floor(rand() * 300); r < rows; r++) {
          const width = rand() < 0.05 ? Math.floor(rand() * cols) + 1 : cols;
          lines.push(Array.from({ length: width }, () => numberCell(rand)).join(','));
          if (rand() < 0.02) lines.push('');
        }
        const eol = rand() < 0.3 ? '\r\n' : '\n';
        // At times the last row's quote is never closed: its line breaks at the file's end are its text.
        text = lines.join(eol) + (rand() < 0.3 ? `${eol}"12${rand() < 0.7 ? eol : ''}` : rand() < 0.5 ? eol : '');
      }
      const path = await writeTemp(dir, text);
      const reads = { head: 16 + Math.floor(rand() * 200), chunk: 64 + Math.floor(rand() * 2000) };
      const source = await openCsvFile(path, { readSizes: reads, prepareColumns: false });
      try {
        await source.indexed;
        // The same file with no kernel: every cell found from its row's first cell and read in JS.
        const plain = Object.create(source, { cellWalker: { value: () => undefined } }) as CsvFile;
        assert.ok(source.cellWalker(), 'the kernel is there to be tried');
        for (let c = 0; c < source.columnCount; c++) {
          for (const needs of [[{ column: c }], [{ column: c, text: true }, { column: 0 }]]) {
            const what = `file ${i} (reads ${JSON.stringify(reads)}), ${JSON.stringify(needs)}: ${JSON.stringify(text.slice(0, 300))}…`;
            const { columns } = await columnPass(source, needs, { places: undefined }, {});
            const { columns: want } = await columnPass(plain, needs, { places: undefined }, {});
            assert.deepEqual(columns, want, what);
            decimals += columns[0]?.numberCount ?? 0;
          }
        }
      } finally {
        await source.close();
      }
    }
    assert.ok(decimals > 5000, `${decimals} number cells: the test must reach them`);
  });
});
