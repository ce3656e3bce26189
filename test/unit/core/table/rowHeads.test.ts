/**
 * The rows' heads the index keeps (rowHeads.ts): each is the first bytes of its row as the file
 * holds them, whatever the reads' sizes; and a column typed from them is the column the pass over
 * the file types, cell for cell, on rows whose cell is quoted, empty, short, or past the head.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { after, before, describe, it } from 'node:test';
import { openCsvFile, TableView } from '../../../../src/core/table';
import { CellWalker } from '../../../../src/core/table/cellWalkWasm';
import { columnPass, headsPass } from '../../../../src/core/table/csvColumnPass';
import { CsvIndexer } from '../../../../src/core/table/csvIndexer';
import { headBytesFor, type RowHeads } from '../../../../src/core/table/rowHeads';
import type { RowOffsets } from '../../../../src/core/table/rowOffsets';
import { randomCell, rng, tempDir, writeTemp } from '../../tableFixtures';

let dir = '';
let cleanup: () => Promise<void> = () => Promise.resolve();
before(async () => ({ dir, cleanup } = await tempDir()));
after(() => cleanup());

/** A CSV of long rows: random cells (quoted, empty, numbers, line breaks in cells) around a long cell at `longAt`. */
function longRows(rand: () => number, rows: number, cols: number, longAt: number, eol: string, delimiter = ','): string {
  const quote = (v: string): string => (v.includes(delimiter) || /["\r\n]/u.test(v) || (v !== '' && rand() < 0.1) ? `"${v.replaceAll('"', '""')}"` : v);
  const filler = (): string => Array.from({ length: 20 + Math.floor(rand() * 40) }, () => randomCell(rand) || 'x').join(' ');
  const lines = [Array.from({ length: cols }, (_, c) => `c${c}`).join(delimiter)];
  for (let r = 0; r < rows; r++) {
    // A few rows are short: fewer cells, or a long cell near their start (their cells past the head).
    const width = rand() < 0.05 ? 1 + Math.floor(rand() * cols) : cols;
    lines.push(Array.from({ length: width }, (_, c) => quote(c === longAt || (c === 0 && rand() < 0.03) ? filler() : randomCell(rand))).join(delimiter));
    if (rand() < 0.03) lines.push(''); // a blank line
  }
  return lines.join(eol) + (rand() < 0.5 ? eol : '');
}

/** Every head's bytes against the file's: row p's first min(headBytes, its length) bytes, in its slot. */
function checkHeads(heads: RowHeads, offsets: RowOffsets, bytes: Buffer, what: string): void {
  assert.equal(heads.rows, offsets.length, `${what}: every row placed`);
  for (let p = 0; p < offsets.length; p++) {
    const len = heads.length(offsets, p);
    const at = (p % heads.perBlock) * heads.headBytes;
    const want = bytes.subarray(offsets.start(p), offsets.start(p) + len);
    assert.deepEqual(heads.blocks[Math.floor(p / heads.perBlock)]?.subarray(at, at + len), want, `${what}: row ${p}'s head`);
  }
}

describe('row heads', () => {
  it('keeps each row its first bytes as the file holds them, reads cut anywhere, through the JS scan and the kernel', async () => {
    const rand = rng(34_2);
    for (let i = 0; i < 30; i++) {
      const text = longRows(rand, 5 + Math.floor(rand() * 60), 3 + Math.floor(rand() * 6), Math.floor(rand() * 4), i % 3 === 0 ? '\r\n' : '\n');
      const path = await writeTemp(dir, (i % 5 === 0 ? '\ufeff' : '') + text);
      const bytes = readFileSync(path);
      const headBytes = 8 + Math.floor(rand() * 90);
      const chunk = headBytes + Math.floor(rand() * 300);
      const what = `file ${i} (head bytes ${headBytes}, chunks ${chunk}): ${JSON.stringify(text.slice(0, 200))}…`;
      const fh = await open(path, 'r');
      try {
        const indexer = new CsvIndexer(fh, bytes.length, true);
        // Half the files through the kernel's scan: the chunks read into its memory.
        const walker = i % 2 === 0 ? new CellWalker(chunk) : undefined;
        await indexer.readHead(1 + Math.floor(rand() * 200), true, () => walker);
        indexer.keepHeads(1, chunk, headBytes);
        const buffers = walker?.buffers ?? [Buffer.alloc(chunk), Buffer.alloc(chunk), Buffer.alloc(chunk)];
        await indexer.readRest(buffers, new AbortController().signal, () => undefined, walker);
        if (indexer.heads) checkHeads(indexer.heads, indexer.offsets, bytes, what);
        else assert.ok(indexer.offsets.limit(indexer.offsets.length - 1) <= indexer.head.length, `${what}: no heads only when the head held the whole file`);
      } finally {
        await fh.close();
      }
    }
  });

  it('keeps heads when the first rows are long, and drops them once the rows further on make them pass 1/12 of the file', async () => {
    const long = `1,${'x'.repeat(6997)}\n`.repeat(3); // 3 rows of 7,000 bytes
    const path = await writeTemp(dir, `a,b\n${long}${'1,2\n'.repeat(20_000)}`);
    const fh = await open(path, 'r');
    try {
      const indexer = new CsvIndexer(fh, (await fh.stat()).size, true);
      await indexer.readHead(4 + 21_000, true); // the header and the long rows
      indexer.keepHeads(1, 4096);
      assert.equal(indexer.heads?.headBytes, 437, 'rows of 7,000 bytes: 1/16 of them');
      await indexer.readRest([Buffer.alloc(4096), Buffer.alloc(4096), Buffer.alloc(4096)], new AbortController().signal, () => undefined);
      assert.equal(indexer.heads, undefined, '437 bytes for each of 20,000 rows of 4: far past 1/12 of the file');
      assert.equal(indexer.offsets.length, 20_004, 'the index itself is whole');
    } finally {
      await fh.close();
    }
  });

  it('keeps no heads where they end inside a long cell that most columns follow, as in the long-cell file; keeps them where they hold most cells or end near a cell\'s end', async () => {
    const rand = rng(34_23);
    const note = (): string => `"${Array.from({ length: 800 + Math.floor(rand() * 1500) }, () => (rand() < 0.1 ? '""q""' : 'word')).join(' ')}"`;
    const num = (): string => ((rand() - 0.5) * 1e5).toFixed(2);
    const shapes = [
      // The long-cell file's columns: three short cells, the long note, then the numbers a sort would use.
      { name: 'long cell fourth', keeps: false, header: 'id,wallet,opened_at,notes,amount,pnl_usd,score,trades', row: (r: number) => `${r},w${r},2024-01-01,${note()},${num()},${num()},${num()},${r % 9}` },
      { name: 'long cell last', keeps: true, header: 'id,wallet,opened_at,amount,pnl_usd,score,trades,notes', row: (r: number) => `${r},w${r},2024-01-01,${num()},${num()},${num()},${r % 9},${note()}` },
      // A wallet file: hundreds of short cells, the head ending near one's end.
      { name: 'many short cells', keeps: true, header: Array.from({ length: 600 }, (_, c) => `m${c}`).join(','), row: () => Array.from({ length: 600 }, num).join(',') },
    ];
    for (const shape of shapes) {
      const rows = Array.from({ length: 120 }, (_, r) => shape.row(r));
      const path = await writeTemp(dir, `${shape.header}\n${rows.join('\n')}\n`);
      const source = await openCsvFile(path, { readSizes: { head: 64 << 10, chunk: 16 << 10 }, prepareColumns: false });
      try {
        await source.indexed;
        assert.equal(source.rowHeads !== undefined, shape.keeps, shape.name);
        const column = source.columns.indexOf('amount') >= 0 ? source.columns.indexOf('amount') : 3;
        const view = new TableView(source);
        await view.apply({ sort: [{ column, descending: true }] });
        const values = (await source.readCells([...view.rowIds(0, view.length)], [column])).map((r) => Number(r[0]));
        assert.deepEqual(values, [...values].sort((a, b) => b - a), `${shape.name}: sorted`);
      } finally {
        await source.close();
      }
    }
  });

  it('keeps heads only of long rows, and at most 1 KiB of each', () => {
    assert.equal(headBytesFor(206), 0, 'the quoted file: 206-byte rows');
    assert.equal(headBytesFor(4095), 0);
    assert.equal(headBytesFor(4096), 256);
    assert.equal(headBytesFor(7224), 451, 'the wallet files: the 27th cell ends by ~430 bytes');
    assert.equal(headBytesFor(1 << 20), 1024);
  });

  it('types every column from the heads as the pass over the file does, and sorts the same', async () => {
    const rand = rng(34_22);
    let fromHeads = 0;
    let tried = 0;
    for (let i = 0; i < 16; i++) {
      const cols = 3 + Math.floor(rand() * 5);
      const delimiter = i % 4 === 3 ? ';' : ','; // the kernel knows only the comma: the JS walk finds the cells
      const text = longRows(rand, 30 + Math.floor(rand() * 200), cols, cols - 1 - Math.floor(rand() * 2), i % 3 === 0 ? '\r\n' : '\n', delimiter);
      const headBytes = 16 + Math.floor(rand() * 64);
      const reads = { head: 64 + Math.floor(rand() * 400), chunk: headBytes * (1 + Math.floor(rand() * 8)) };
      const path = await writeTemp(dir, text);
      const what = `file ${i} (head bytes ${headBytes}, reads ${JSON.stringify(reads)}): ${JSON.stringify(text.slice(0, 300))}…`;
      const source = await openCsvFile(path, { readSizes: reads, rowHeads: headBytes, prepareColumns: false });
      const plain = await openCsvFile(path, { readSizes: reads, rowHeads: 0, prepareColumns: false });
      try {
        await Promise.all([source.indexed, plain.indexed]);
        const heads = source.rowHeads;
        assert.ok(heads, what);
        checkHeads(heads, source.offsets, readFileSync(path), what);
        for (let c = 0; c < cols; c++) {
          const needs = [{ column: c, text: true }, { column: 0 }];
          tried++;
          const typed = await headsPass(source, heads, needs, {});
          if (!typed) continue; // more cells past the heads than the pass takes from the file one row at a time
          fromHeads++;
          const { columns } = await columnPass(plain, needs, { places: undefined }, {});
          assert.deepEqual(typed, columns, `${what}: column ${c}`);
        }
      } finally {
        await Promise.all([source.close(), plain.close()]);
      }
      // Through the product's path (the heads first, the file where they give up): the order the pass over the file gives.
      const sorted = await openCsvFile(path, { readSizes: reads, rowHeads: headBytes });
      const fromFile = await openCsvFile(path, { readSizes: reads, rowHeads: 0 });
      try {
        assert.ok(sorted.rowHeads && !fromFile.rowHeads, what);
        for (const column of [0, 1]) {
          const order = async (source: typeof fromFile): Promise<number[]> => {
            const view = new TableView(source);
            await view.apply({ sort: [{ column, descending: column === 1 }] });
            return [...view.rowIds(0, view.length)];
          };
          assert.deepEqual(await order(sorted), await order(fromFile), `${what}: sorted by ${column}`);
        }
      } finally {
        await Promise.all([sorted.close(), fromFile.close()]);
      }
    }
    assert.ok(fromHeads >= tried / 3, `${fromHeads} of ${tried} columns typed from the heads: the test must reach them`);
  });

  it('reads from the file only the rows whose cell runs past their head', async () => {
    // Cell 1 of every row is in the first 40 bytes but in rows 5 and 17, where a long quoted cell 0 pushes it past them.
    const long = `"${'a, ""quoted"" note\n'.repeat(6)}"`;
    const lines = ['note,amount,tail'];
    for (let r = 0; r < 40; r++) lines.push(`${r === 5 || r === 17 ? long : `n${r}`},${r % 7 === 0 ? '' : r % 9 === 0 ? '"1,5"' : String((r * 37) % 11)},${'x'.repeat(300)}`);
    const path = await writeTemp(dir, `${lines.join('\n')}\n`);
    const source = await openCsvFile(path, { readSizes: { head: 100, chunk: 512 }, rowHeads: 40, prepareColumns: false });
    const plain = await openCsvFile(path, { readSizes: { head: 100, chunk: 512 }, rowHeads: 0, prepareColumns: false });
    try {
      await Promise.all([source.indexed, plain.indexed]);
      const heads = source.rowHeads;
      assert.ok(heads);
      const typed = await headsPass(source, heads, [{ column: 1, text: true }], {});
      assert.ok(typed, 'two rows past their heads: read from the file, not a pass');
      const { columns } = await columnPass(plain, [{ column: 1, text: true }], { places: undefined }, {});
      assert.deepEqual(typed, columns);
      assert.equal(typed[0]?.fullText?.[5], '9'); // (5 × 37) mod 11, read from the file
      assert.equal(typed[0]?.fullText?.[9], '1,5');
      assert.equal(typed[0]?.emptyCount, 6);
      assert.equal(await headsPass(source, heads, [{ column: 2 }], {}), undefined, 'a column past every head: the pass over the file');
      const [tail] = (await columnPass(source, [{ column: 2, text: true }], { places: undefined }, {})).columns;
      assert.equal(tail?.fullText?.[39], 'x'.repeat(300), 'which columnPass then makes');
    } finally {
      await Promise.all([source.close(), plain.close()]);
    }
  });
});
