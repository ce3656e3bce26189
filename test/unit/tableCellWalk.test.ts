/** The WebAssembly cell walk (cellWalk.wat, compiled at build time) finds exactly the cells the JS walker (cells.ts) finds. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CellMap } from '../../src/core/table/cellMap';
import { CellWalker } from '../../src/core/table/cellWalkWasm';
import { rng } from './tableFixtures';

/** Marks and cell count of one row, walked by JS (plain buffer) or by the kernel (walker buffer). */
function walk(row: Buffer, columns: number, walker?: CellWalker): { cells: number; marks: number[] } {
  const map = new CellMap(1, columns);
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
