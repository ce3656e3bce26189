/**
 * The CSV source reads exactly what papaparse's full parse reads: the row index, the header and
 * every cell, on hand-written tricky files and on random files, with reads cut at every size.
 */
import assert from 'node:assert/strict';
import { truncateSync } from 'node:fs';
import { writeFile, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { openAddressList, openCsvFile, TableView, type TableSource } from '../../../../src/core/table';
import { CsvIndexer } from '../../../../src/core/table/csvIndexer';
import { RowOffsets } from '../../../../src/core/table/rowOffsets';
import { RowScanner } from '../../../../src/core/table/rowScanner';
import { papaRows, randomTable, referenceFilter, referenceSort, rng, tempDir, tinyReads, toCsv, writeTemp } from '../../tableFixtures';

let dir = '';
let cleanup: () => Promise<void> = () => Promise.resolve();
before(async () => ({ dir, cleanup } = await tempDir()));
after(() => cleanup());

/** Every cell of every row of an opened, fully indexed source. */
async function allCells(source: TableSource): Promise<string[][]> {
  await source.indexed;
  const ids = Array.from({ length: source.rowCount }, (_, i) => i);
  return source.readCells(ids, source.columns.map((_, i) => i));
}

/** Opens `text` and checks header and cells against papaparse; `mapped`: read again once the cell map is built. */
async function expectSameAsPapa(text: string, reads?: { head: number; chunk: number }, mapped = false): Promise<void> {
  const path = await writeTemp(dir, text);
  const source = await openCsvFile(path, { readSizes: reads, prepareColumns: mapped });
  try {
    const [header = [], ...rows] = papaRows(text);
    assert.deepEqual(source.columns, header);
    assert.deepEqual(await allCells(source), rows);
    assert.equal(source.rowCount, rows.length);
    if (mapped && rows.length > 0) {
      await source.typedColumns([{ column: 0 }]); // typed while the walk that builds the map is under way: it stops for the pass, and goes on after
      await source.whenMapped();
      assert.deepEqual(await allCells(source), rows, 'read through the cell map');
      const last = source.columns.length - 1;
      const cells = await source.readCells(rows.map((_, i) => i), [last, 0]);
      assert.deepEqual(cells, rows.map((r) => [r[last] ?? '', r[0] ?? '']), 'columns out of order');
    }
  } finally {
    await source.close();
  }
}

const TRICKY: Record<string, string> = {
  'quoted commas': 'a,b,c\n"1,5",x,"y,z"\n2,"",3\n',
  'newlines inside quotes': 'a,b\n"line1\nline2",x\n"cr\r\nlf",y\n"\n",z\n',
  'doubled quotes': 'a,b\n"say ""hi""",""""\n"""",x\n',
  BOM: '\ufeffaddress,value\nabc,1\n',
  CRLF: 'a,b\r\n1,2\r\n"x\r\ny",3\r\n',
  'empty cells': 'a,b,c\n,,\n1,,\n,,3\n',
  'missing final newline': 'a,b\n1,2\n3,"4"',
  'blank lines': 'a,b\n\n1,2\n\n\n3,4\n\n',
  'blank lines, CRLF': 'a,b\r\n\r\n1,2\r\n\r\n3,4\r\n\r\n',
  'quote not at cell start': 'a,b\n5" screen,x\nab"c,"d"\n',
  'unicode': 'name,v\nnaïve,€1\n"ÉTÉ, hiver",日本\n',
};

describe('table: CSV source against papaparse', () => {
  for (const [name, text] of Object.entries(TRICKY)) {
    it(`reads ${name} as papaparse does`, () => expectSameAsPapa(text));
    it(`reads ${name} as papaparse does, 1-byte reads`, () => expectSameAsPapa(text, { head: 1, chunk: 1 }));
  }

  it('strips the BOM from the first column name', async () => {
    const path = await writeTemp(dir, '\ufeffaddress,value\nabc,1\n');
    const source = await openCsvFile(path);
    assert.deepEqual(source.columns, ['address', 'value']);
    assert.equal(source.notices[0]?.code, 'bom');
    await source.close();
  });

  it('skips a CRLF blank line in an LF file too (papaparse would read a cell "\\r")', async () => {
    const source = await openCsvFile(await writeTemp(dir, 'a,b\n1,2\n\r\n3,4\n'));
    assert.deepEqual(await allCells(source), [['1', '2'], ['3', '4']]);
    await source.close();
  });

  it('reads CR-only, and CR, LF and CRLF mixed in one file, as rows, wherever reads are cut', async () => {
    const cases: [string, string[], string[][]][] = [
      ['a,b\r1,2\r3,4\r', ['a', 'b'], [['1', '2'], ['3', '4']]],
      ['a,b\r1,2\n3,"x\ry"\r\n4,5\r\r6,"7"\r8,9', ['a', 'b'], [['1', '2'], ['3', 'x\ry'], ['4', '5'], ['6', '7'], ['8', '9']]],
      ['a,b\n1,2\n3,4\r5,6\n', ['a', 'b'], [['1', '2'], ['3', '4'], ['5', '6']]],
    ];
    for (const [text, header, rows] of cases) {
      for (const reads of [undefined, { head: 1, chunk: 1 }, { head: 7, chunk: 3 }]) {
        const source = await openCsvFile(await writeTemp(dir, text), { readSizes: reads });
        const what = `${JSON.stringify(text)} ${JSON.stringify(reads)}`;
        assert.deepEqual(source.columns, header, what);
        assert.deepEqual(await allCells(source), rows, what);
        await source.close();
      }
    }
  });

  it('counts lines of a CR file for notices: a ragged row is placed at its line', async () => {
    const source = await openCsvFile(await writeTemp(dir, 'a,b\r1,2\r\n3,"x\ry"\r4\r5,6\r'));
    await source.indexed;
    await source.typedColumns([{ column: 0 }]);
    const ragged = source.notices.find((n) => n.code === 'raggedRows');
    assert.deepEqual([ragged?.row, ragged?.line], [3, 5]);
    await source.close();
  });

  it('reads a CR-only address list as one address a line', async () => {
    const source = await openAddressList(await writeTemp(dir, 'address\rA1\rB2\r'));
    assert.deepEqual(await allCells(source), [['A1'], ['B2']]);
    await source.close();
  });

  it('reads a tab- or semicolon-separated file with its own delimiter, and says so', async () => {
    const cases: [string, string, string[], string[][], RegExp | undefined][] = [
      ['t.csv', 'a\tb\tc\n1\t"x\ty"\t3\n4\t5\t"6" \t\n', ['a', 'b', 'c'], [['1', 'x\ty', '3'], ['4', '5', '6', '']], /tab-separated/u],
      ['s.csv', 'name;value\n"a;b";1,5\nc;2\n', ['name', 'value'], [['a;b', '1,5'], ['c', '2']], /semicolon-separated/u],
      ['n.tsv', 'a,b\tc\n1,2\t3\n', ['a,b', 'c'], [['1,2', '3']], /tab-separated/u],
      ['c.csv', 'a;x,b\n1;2,3\n', ['a;x', 'b'], [['1;2', '3']], undefined],
      ['one.csv', 'address\nA1\n', ['address'], [['A1']], undefined],
    ];
    for (const [name, text, header, rows, said] of cases) {
      for (const reads of [undefined, { head: 1, chunk: 1 }]) {
        const path = join(dir, name);
        await writeFile(path, text);
        const source = await openCsvFile(path, { readSizes: reads });
        const what = `${name} ${JSON.stringify(reads)}`;
        assert.deepEqual(source.columns, header, what);
        const cells = await allCells(source);
        assert.deepEqual(cells, rows.map((r) => r.slice(0, header.length).concat(Array(Math.max(0, header.length - r.length)).fill(''))), what);
        const notice = source.notices.find((n) => n.code === 'dialect');
        if (said) assert.match(notice?.message ?? '', said, what);
        else assert.equal(notice, undefined, what);
        await source.close();
      }
    }
  });

  it('reads random tab- and semicolon-separated files as written: cells, the cell map, sorts and search', async () => {
    const rand = rng(22);
    for (let i = 0; i < 60; i++) {
      const t = randomTable(rand);
      const d = i % 2 === 0 ? '\t' : ';';
      const header = t.header.map((_, c) => `c${c}`);
      const quote = (v: string): string => (v.includes(d) || /["\r\n]/u.test(v) ? `"${v.replaceAll('"', '""')}"` : v);
      const text = [header, ...t.rows].map((r) => r.map(quote).join(d)).join(t.eol) + (t.finalNewline ? t.eol : '');
      const reads = i % 3 === 0 ? undefined : tinyReads(rand);
      const source = await openCsvFile(await writeTemp(dir, text), { readSizes: reads });
      const what = `file ${i} (${JSON.stringify(d)}, reads ${JSON.stringify(reads)}): ${JSON.stringify(text)}`;
      assert.deepEqual(source.columns, header, what);
      assert.deepEqual(await allCells(source), t.rows, what);
      const view = new TableView(source);
      await view.apply({ sort: [{ column: 1 }], search: 'a' });
      const ids = [...view.rowIds(0, view.length)];
      assert.deepEqual(ids, referenceSort(t.rows, referenceFilter(t.rows, [], 'a'), [{ column: 1 }]), what);
      assert.deepEqual(await allCells(source), t.rows, `${what}: through the cell map`);
      await source.close();
    }
  });

  it('reads CRLF and LF files to the same cells', async () => {
    const lf = 'a,b\n1,"x\ny"\n2,3\n';
    const a = await openCsvFile(await writeTemp(dir, lf));
    const b = await openCsvFile(await writeTemp(dir, lf.replaceAll('\n', '\r\n').replace('x\r\ny', 'x\ny')));
    assert.deepEqual(await allCells(a), await allCells(b));
    await Promise.all([a.close(), b.close()]);
  });

  it('matches papaparse on 300 random files, with reads cut at random sizes', async () => {
    const rand = rng(20261121);
    for (let i = 0; i < 300; i++) {
      const table = randomTable(rand);
      const text = toCsv(table, rand);
      const reads = i % 3 === 0 ? undefined : tinyReads(rand);
      await expectSameAsPapa(text, reads, i % 2 === 0).catch((e: unknown) => {
        throw new Error(`random file ${i} (reads ${JSON.stringify(reads)}):\n${JSON.stringify(text)}\n${String(e)}`);
      });
    }
  });

  it('matches papaparse on quoted files longer than the head, head and rest scanned by the kernel', async () => {
    const rand = rng(20261124);
    for (let i = 0; i < 6; i++) {
      const table = randomTable(rand);
      const rows = Array.from({ length: 600 }, (_, r) => table.rows[r % Math.max(1, table.rows.length)] ?? table.header);
      // Every cell quoted: 64 quotes in a chunk's first 64 KiB choose the kernel, for the head too.
      const quoted = (r: readonly string[]): string => r.map((v) => `"${v.replaceAll('"', '""')}"`).join(',');
      const text = (i % 2 === 0 ? '\ufeff' : '') + [table.header, ...rows].map(quoted).join(table.eol) + table.eol;
      const reads = { head: 2048 + 512 * i, chunk: 8192 };
      await expectSameAsPapa(text, reads, i % 3 === 0).catch((e: unknown) => {
        throw new Error(`quoted file ${i}: ${String(e)}`);
      });
    }
  });

  it('answers the first rows before the index is complete', async () => {
    const lines = ['id,name'];
    for (let i = 0; i < 5000; i++) lines.push(`${i},name ${i}`);
    const path = await writeTemp(dir, lines.join('\n') + '\n');
    const source = await openCsvFile(path, { readSizes: { head: 256, chunk: 64 } });
    assert.equal(source.complete, false);
    assert.ok(source.rowCount > 0 && source.rowCount < 5000, `head rows: ${source.rowCount}`);
    assert.deepEqual(await source.readCells([0, 1], [1]), [['name 0'], ['name 1']]);
    // A row past the head waits for the index instead of failing.
    assert.deepEqual(await source.readCells([4999], [0, 1]), [['4999', 'name 4999']]);
    await source.indexed;
    assert.equal(source.rowCount, 5000);
    await source.close();
  });

  /** A file with quoted cells (doubled quotes, CRLF inside), CRLF rows, a BOM and some ragged rows; `columns` wide. */
  function trickyFile(columns: number, seed: number): { text: string; header: string[]; rows: string[][] } {
    const rand = rng(seed);
    const header = ['id', 'note', 'amount', ...Array.from({ length: columns - 3 }, (_, c) => `c${c + 3}`)];
    const lines = Array.from({ length: 3000 }, (_, i) => {
      const note = rand() < 0.3 ? '"say ""hi""\r\nand, on"' : rand() < 0.5 ? '' : `n${i}`;
      const rest = header.slice(3, rand() < 0.05 ? -1 : undefined).map((_, c) => (c % 7 === 0 ? `"q,${i}"` : `${c}`)); // some rows a cell short
      return [String(i), note, (rand() * 1000).toFixed(2), ...rest].join(',');
    });
    const text = `\ufeff${header.join(',')}\r\n${lines.join('\r\n')}\r\n`;
    const rows = papaRows(text.slice(1)).slice(1).map((row) => header.map((_, c) => row[c] ?? ''));
    return { text, header, rows };
  }

  it('types a near column of a wide file asked once the index is done without waiting for the walk that builds the cell map, which goes on to the same map', async () => {
    const { text, rows } = trickyFile(70, 34);
    const source = await openCsvFile(await writeTemp(dir, text), { readSizes: { head: 2048, chunk: 4096 } });
    try {
      await source.indexed;
      let mapped = false;
      void source.whenMapped().then(() => (mapped = true));
      const [amount] = await source.typedColumns([{ column: 2, text: true }]);
      assert.equal(mapped, false, "the sort's column came first: the walk had rows left");
      assert.deepEqual(amount?.fullText, rows.map((row) => row[2]));
      await source.whenMapped();
      assert.deepEqual(await allCells(source), rows, 'read through the map built in several walks');
      assert.ok(source.notices.find((n) => n.code === 'raggedRows'), 'the finished walk counts the ragged rows');
    } finally {
      await source.close();
    }
  });

  it('finishes the cell walk in the pass that types a far column of a wide file asked while the walk is under way', async () => {
    const { text, rows } = trickyFile(70, 35);
    const source = await openCsvFile(await writeTemp(dir, text), { readSizes: { head: 2048, chunk: 4096 } });
    try {
      await source.indexed;
      let mapped = false;
      void source.whenMapped().then(() => (mapped = true));
      const [far, note] = await source.typedColumns([{ column: 66, text: true }, { column: 1, text: true }]);
      assert.equal(mapped, true, 'one pass typed the columns and walked the rest of the rows');
      assert.deepEqual(far?.fullText, rows.map((row) => row[66]));
      assert.deepEqual(note?.fullText, rows.map((row) => row[1]));
      assert.deepEqual(await allCells(source), rows, 'read through the map');
      assert.ok(source.notices.find((n) => n.code === 'raggedRows'));
    } finally {
      await source.close();
    }
  });

  it("types a column of a file of few columns asked while the walk is under way from each row's first cell, and the walk goes on after", async () => {
    const { text, rows } = trickyFile(6, 36);
    const source = await openCsvFile(await writeTemp(dir, text), { readSizes: { head: 512, chunk: 700 } });
    try {
      await source.indexed;
      let mapped = false;
      void source.whenMapped().then(() => (mapped = true));
      const [amount, tail] = await source.typedColumns([{ column: 2, text: true }, { column: 5, text: true }]);
      assert.equal(mapped, false);
      assert.deepEqual(amount?.fullText, rows.map((row) => row[2]));
      assert.deepEqual(tail?.fullText, rows.map((row) => row[5]));
      await source.whenMapped();
      assert.deepEqual(await allCells(source), rows, 'read through the map');
    } finally {
      await source.close();
    }
  });

  it('stops the background walk while windows are read, and goes on once they have been quiet', async () => {
    const { text, rows } = trickyFile(6, 37);
    // A clock the test moves: a pause is a timer asked for, resumed by hand.
    let now = 0;
    const asked: { ms: number; run: () => void }[] = [];
    let onAsk: () => void = () => undefined;
    const clock = { now: () => now, after: (ms: number, run: () => void) => (asked.push({ ms, run }), onAsk(), () => undefined) };
    const paused = (n: number): Promise<'paused'> => new Promise((resolve) => (onAsk = () => asked.length >= n && resolve('paused')));
    const source = await openCsvFile(await writeTemp(dir, text), { readSizes: { head: 512, chunk: 700 }, clock });
    try {
      await source.indexed;
      const mapped = source.whenMapped().then(() => 'mapped' as const);
      const firstPause = paused(1);
      assert.deepEqual(await source.readCells([5, 0], [2, 0]), [[rows[5]?.[2], rows[5]?.[0]], [rows[0]?.[2], rows[0]?.[0]]]);
      assert.equal(await Promise.race([firstPause, mapped]), 'paused', 'the walk waits while windows are read');
      assert.equal(asked[0]?.ms, 150);
      // Another window before the pause is over: the walk, due again, waits for the quiet after it.
      now = 100;
      await source.readCells([7], [1]);
      const secondPause = paused(2);
      asked[0]?.run();
      assert.equal(await Promise.race([secondPause, mapped]), 'paused');
      assert.equal(asked[1]?.ms, 150);
      now = 400;
      asked[1]?.run();
      assert.equal(await mapped, 'mapped');
      assert.deepEqual(await allCells(source), rows, 'read through the map');
    } finally {
      await source.close();
    }
  });

  it('reports index progress and stops when cancelled', async () => {
    const lines = ['id'];
    for (let i = 0; i < 2000; i++) lines.push(String(i));
    const path = await writeTemp(dir, lines.join('\n'));
    const seen: number[] = [];
    const done = await openCsvFile(path, { readSizes: { head: 16, chunk: 512 }, onProgress: (p) => seen.push(p.done) });
    await done.indexed;
    assert.ok(seen.length > 3, 'several progress reports');
    assert.deepEqual(seen, [...seen].sort((a, b) => a - b));
    assert.equal(seen[seen.length - 1], lines.join('\n').length);
    await done.close();

    const controller = new AbortController();
    const cancelled = await openCsvFile(path, { readSizes: { head: 16, chunk: 64 }, signal: controller.signal, onProgress: () => controller.abort() });
    await assert.rejects(cancelled.indexed);
    assert.equal(cancelled.complete, false);
    await cancelled.close();
  });

  it('indexes a file that shrinks while it is read: only whole rows of the bytes read, at their real places', async () => {
    const lines = ['id'];
    for (let i = 0; i < 3000; i++) lines.push(String(i));
    const text = lines.join('\n') + '\n';
    const lineStarts = new Set<number>();
    for (let at = 0; at < text.length; at = text.indexOf('\n', at) + 1) lineStarts.add(at);
    for (const keep of [0, 700, 5000]) {
      const path = await writeTemp(dir, text);
      let cut = false;
      const source = await openCsvFile(path, {
        prepareColumns: false,
        readSizes: { head: 16, chunk: 256 },
        onProgress: () => {
          if (!cut) truncateSync(path, keep);
          cut = true;
        },
      });
      await source.indexed;
      assert.equal(source.complete, true);
      assert.ok(source.rowCount > 0 && source.rowCount <= 3000, `rows: ${source.rowCount}`);
      for (let p = 0; p < source.offsets.length; p++) assert.ok(lineStarts.has(source.offsets.start(p)), `row ${p} starts at ${source.offsets.start(p)}, not a line start (keep ${keep})`);
      await source.close();
    }
  });

  it('refuses rows and columns that do not exist', async () => {
    const source = await openCsvFile(await writeTemp(dir, 'a,b\n1,2\n'));
    await assert.rejects(source.readCells([1], [0]), RangeError);
    await assert.rejects(source.readCells([0], [2]), RangeError);
    await source.close();
  });
});

describe('table: index reads', () => {
  it('keeps two reads in flight while a chunk is scanned, and finds the same rows when reads finish out of order', async () => {
    const lines = Array.from({ length: 500 }, (_, i) => (i % 5 === 0 ? `${i},"a\nb, ""c"""` : `${i},x${'y'.repeat(i % 23)}`));
    const bytes = Buffer.from(`id,v\n${lines.join('\n')}\n`);
    let inFlight = 0;
    let issued = 0;
    const turns = (n: number): Promise<void> => (n <= 0 ? Promise.resolve() : new Promise<void>((done) => setImmediate(done)).then(() => turns(n - 1)));
    const fh = {
      read: async (buf: Buffer, offset: number, length: number, position: number) => {
        inFlight++;
        await turns(9 - 3 * (issued++ % 3)); // later reads finish first
        const bytesRead = bytes.copy(buf, offset, position, position + length);
        inFlight--;
        return { bytesRead, buffer: buf };
      },
    } as unknown as FileHandle;
    const indexer = new CsvIndexer(fh, bytes.length, true);
    await indexer.readHead(64, true);
    let mostWhileScanning = 0;
    const buffers = [Buffer.alloc(300), Buffer.alloc(300), Buffer.alloc(300)];
    await indexer.readRest(buffers, new AbortController().signal, () => (mostWhileScanning = Math.max(mostWhileScanning, inFlight)));
    assert.equal(mostWhileScanning, 2, 'two reads in flight while the third buffer is scanned');
    const expected = papaRows(bytes.toString());
    assert.equal(indexer.offsets.length, expected.length);
    let at = 0;
    for (let r = 0; r < expected.length; r++) {
      assert.equal(indexer.offsets.start(r), at, `row ${r}`);
      at = indexer.offsets.limit(r);
    }
  });
});

describe('table: row scanner', () => {
  /** Row starts the scanner finds when fed `bytes` cut at `cuts`. */
  function scan(bytes: Buffer, cuts: number[]): { starts: number[]; lines: number[] } {
    const offsets = new RowOffsets();
    const scanner = new RowScanner(offsets, true, 0);
    let from = 0;
    for (const cut of [...cuts, bytes.length]) {
      scanner.feed(bytes.subarray(from, cut), from);
      from = cut;
    }
    scanner.finish(bytes.length);
    const starts: number[] = [];
    const lines: number[] = [];
    for (let r = 0; r < offsets.length; r++) {
      starts.push(offsets.start(r));
      lines.push(offsets.line(r));
    }
    return { starts, lines };
  }

  it('finds the same rows wherever the chunks are cut', () => {
    const text = Buffer.from('h1,h2\n"a\n""b""\n",1\n\n"x"  ,2\r\n3,"y\r\nz"\n');
    const whole = scan(text, []);
    assert.deepEqual(whole.starts, [0, 6, 20, 29]);
    assert.deepEqual(whole.lines, [1, 2, 6, 7]);
    for (let cut = 1; cut < text.length; cut++) assert.deepEqual(scan(text, [cut]), whole, `cut at ${cut}`);
    const everyByte = Array.from({ length: text.length - 1 }, (_, i) => i + 1);
    assert.deepEqual(scan(text, everyByte), whole);
  });
});
