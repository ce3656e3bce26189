/** Export of a view to CSV and copy of a selection: formula neutralisation, exact round trip, atomic file. */
import assert from 'node:assert/strict';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import {
  copySelection,
  exportView,
  jsonRowsSource,
  neutraliseFormula,
  openCsvFile,
  TableView,
} from '../../../../src/core/table';
import { papaRows, randomTable, rng, tempDir, toCsv, writeTemp } from '../../tableFixtures';

let dir = '';
let cleanup: () => Promise<void> = () => Promise.resolve();
before(async () => ({ dir, cleanup } = await tempDir()));
after(() => cleanup());

describe('table: formula neutralisation', () => {
  it('prefixes cells a spreadsheet would run, and leaves numbers alone', () => {
    const cases: [string, string][] = [
      ['=1+2', "'=1+2"],
      ['+SUM(A1)', "'+SUM(A1)"],
      ['-x', "'-x"],
      ['@cmd', "'@cmd"],
      ['-', "'-"],
      ['-12.5', '-12.5'],
      ['+3', '+3'],
      ['-1e-9', '-1e-9'],
      ['a=b', 'a=b'],
      ['', ''],
      ["'=x", "'=x"],
    ];
    for (const [cell, expected] of cases) assert.equal(neutraliseFormula(cell), expected, cell);
  });

  it('prefixes a cell that starts with TAB or CR too (OWASP), whatever follows', () => {
    // A spreadsheet drops a leading TAB or CR and runs what follows; "\t-5" is not a number.
    const cases: [string, string][] = [
      ['\t=1+2', "'\t=1+2"],
      ['\r=1+2', "'\r=1+2"],
      ['\tcmd', "'\tcmd"],
      ['\r', "'\r"],
      ['\t-5', "'\t-5"],
      ['\r\n@x', "'\r\n@x"],
      ['a\t=b', 'a\t=b'],
      [' =1', ' =1'],
    ];
    for (const [cell, expected] of cases) assert.equal(neutraliseFormula(cell), expected, JSON.stringify(cell));
  });
});

describe('table: export', () => {
  it('writes the filtered, sorted view with chosen columns, neutralised, and re-parses to exactly the view', async () => {
    const source = await openCsvFile(
      await writeTemp(dir, 'addr,pnl,label\nA1,100,"=HYPERLINK(""x"")"\nB2,-5,"a,b"\nC3,,"line\nbreak"\nD4,7,@me\n'),
    );
    const view = new TableView(source);
    await view.apply({ sort: [{ column: 1, descending: true }], filters: [{ kind: 'nonEmpty', column: 1 }] });
    const target = join(dir, 'out.csv');
    const result = await exportView(view, target, { columns: [2, 0] });
    const text = await readFile(target, 'utf8');
    assert.equal(result.rows, 3);
    assert.equal(result.bytes, Buffer.byteLength(text));
    assert.deepEqual(papaRows(text, '\r\n'), [
      ['label', 'addr'],
      ['\'=HYPERLINK("x")', 'A1'],
      ["'@me", 'D4'],
      ['a,b', 'B2'],
    ]);
    await source.close();
  });

  it('neutralises cells and headers that start with TAB or CR in the exported file, and not when off', async () => {
    const view = new TableView(jsonRowsSource([{ '\tcol': '\t=HYPERLINK("http://x")', b: '\r+1', c: '-5' }]));
    const on = join(dir, 'tabcr-on.csv');
    await exportView(view, on, { lineEnding: '\n' });
    assert.deepEqual(papaRows(await readFile(on, 'utf8'), '\n'), [["'\tcol", 'b', 'c'], ["'\t=HYPERLINK(\"http://x\")", "'\r+1", '-5']]);
    const off = join(dir, 'tabcr-off.csv');
    await exportView(view, off, { lineEnding: '\n', neutraliseFormulas: false });
    assert.deepEqual(papaRows(await readFile(off, 'utf8'), '\n'), [['\tcol', 'b', 'c'], ['\t=HYPERLINK("http://x")', '\r+1', '-5']]);
  });

  it('writes cells exactly as read when neutralisation is off', async () => {
    const rand = rng(5);
    for (let i = 0; i < 40; i++) {
      const text = toCsv(randomTable(rand), rand);
      const source = await openCsvFile(await writeTemp(dir, text));
      await source.indexed;
      const view = new TableView(source);
      if (source.columns.length > 0) await view.apply({ sort: [{ column: 0, descending: true }] });
      const target = join(dir, `random${i}.csv`);
      await exportView(view, target, { neutraliseFormulas: false, lineEnding: '\n' });
      const all = source.columns.map((_, c) => c);
      const expected = [[...source.columns], ...(await view.window(0, view.length, all)).cells];
      assert.deepEqual(papaRows(await readFile(target, 'utf8'), '\n'), expected, `file ${i}`);
      await source.close();
    }
  });

  it('exports every row of a file still being indexed', async () => {
    const lines = ['n', ...Array.from({ length: 3000 }, (_, i) => String(i))];
    const source = await openCsvFile(await writeTemp(dir, lines.join('\n')), { readSizes: { head: 64, chunk: 256 } });
    const view = new TableView(source);
    assert.equal(source.complete, false);
    assert.match(view.countLabel(), /^\d+\+ rows$/u);
    const target = join(dir, 'early.csv');
    await exportView(view, target, { lineEnding: '\n' });
    assert.equal(await readFile(target, 'utf8'), lines.join('\n') + '\n');
    await source.close();
  });

  it('writes an empty cell alone on its line as "", so a one-column export reopens with every row', async () => {
    const source = await openCsvFile(await writeTemp(dir, 'addr\n""\nx\n""\n'));
    await source.indexed;
    assert.equal(source.rowCount, 3);
    const view = new TableView(source);
    const target = join(dir, 'one-column.csv');
    await exportView(view, target);
    assert.equal(await readFile(target, 'utf8'), 'addr\r\n""\r\nx\r\n""\r\n');
    const again = await openCsvFile(target);
    await again.indexed;
    assert.equal(again.rowCount, 3);
    assert.deepEqual(await again.readCells([0, 1, 2], [0]), [[''], ['x'], ['']]);
    await again.close();
    // A copy of the same column pastes back as three rows too.
    assert.equal(await copySelection(view, 0, 3, [0], { format: 'csv', header: false }), '""\nx\n""\n');
    await source.close();
  });

  it('replaces an existing file only when done, and leaves nothing behind when cancelled', async () => {
    const source = jsonRowsSource(Array.from({ length: 5000 }, (_, i) => ({ i, s: `row ${i}` })));
    const view = new TableView(source);
    const target = join(dir, 'keep.csv');
    await writeFile(target, 'old\n');
    const controller = new AbortController();
    const exporting = exportView(view, target, {
      signal: controller.signal,
      onProgress: (p) => {
        if (p.done > 0) controller.abort();
      },
    });
    await assert.rejects(exporting);
    assert.equal(await readFile(target, 'utf8'), 'old\n');
    assert.deepEqual((await readdir(dir)).filter((f) => f.includes('keep.csv')), ['keep.csv']);

    await exportView(view, target, { columns: [1] });
    const rows = papaRows(await readFile(target, 'utf8'), '\r\n');
    assert.equal(rows.length, 5001);
    assert.deepEqual(rows[5000], ['row 4999']);
  });
});

describe('table: copy', () => {
  it('copies a rectangle as TSV with headers, quoting tabs, quotes and line breaks', async () => {
    const view = new TableView(jsonRowsSource([
      { a: 'x\ty', b: 1, c: '=2' },
      { a: 'say "hi"', b: 2, c: 'two\nlines' },
      { a: 'z', b: 3, c: '' },
    ]));
    assert.equal(await copySelection(view, 0, 2, [2, 0], { format: 'tsv' }), `c\ta\n'=2\t"x\ty"\n"two\nlines"\t"say ""hi"""\n`);
    assert.equal(await copySelection(view, 1, 3, [1], { format: 'csv', header: false }), '2\n3\n');
    assert.equal(await copySelection(view, 0, 1, [2], { format: 'csv', header: false, neutraliseFormulas: false }), '=2\n');
  });

  it('neutralises a leading TAB or CR in a copy and in its header, and keeps them raw when off', async () => {
    const view = new TableView(jsonRowsSource([{ '\tname': '\t=cmd', n: '\r@x' }]));
    assert.equal(await copySelection(view, 0, 1, [0, 1], { format: 'tsv' }), `"'\tname"\tn\n"'\t=cmd"\t"'\r@x"\n`);
    assert.equal(await copySelection(view, 0, 1, [0, 1], { format: 'csv' }), `'\tname,n\n'\t=cmd,"'\r@x"\n`);
    assert.equal(await copySelection(view, 0, 1, [0, 1], { format: 'tsv', neutraliseFormulas: false }), `"\tname"\tn\n"\t=cmd"\t"\r@x"\n`);
  });

  it('refuses a selection too big for the clipboard', async () => {
    const view = new TableView(jsonRowsSource(Array.from({ length: 10 }, () => ({ a: 1 }))));
    await assert.rejects(copySelection(view, 0, 10, Array.from({ length: 200_000 }, () => 0), { format: 'tsv' }), /export/u);
  });
});
