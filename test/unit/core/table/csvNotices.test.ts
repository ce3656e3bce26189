/** Malformed CSV opens, says what was wrong and where, and never hangs. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { isUtf8 } from 'node:buffer';
import { openCsvFile, TableView, type NoticeCode, type TableNotice, type TableSource } from '../../../../src/core/table';
import { firstInvalidByte, Utf8Check } from '../../../../src/core/table/utf8Check';
import { rng, tempDir, writeTemp } from '../../tableFixtures';

let dir = '';
let cleanup: () => Promise<void> = () => Promise.resolve();
before(async () => ({ dir, cleanup } = await tempDir()));
after(() => cleanup());

async function open(content: string | Buffer, reads?: { head: number; chunk: number }): Promise<TableSource> {
  const source = await openCsvFile(await writeTemp(dir, content), { readSizes: reads });
  await source.indexed;
  // A column pass queues behind the background walk, so its notices are in once this resolves.
  if (source.columns.length > 0 && source.rowCount > 0) await source.typedColumns([{ column: 0 }]);
  return source;
}

function notice(source: TableSource, code: NoticeCode): TableNotice {
  const n = source.notices.find((x) => x.code === code);
  assert.ok(n, `expected a ${code} notice, got ${JSON.stringify(source.notices)}`);
  return n;
}

async function cells(source: TableSource): Promise<string[][]> {
  return source.readCells(Array.from({ length: source.rowCount }, (_, i) => i), source.columns.map((_, i) => i));
}

describe('table: notices for malformed files', () => {
  it('opens an empty file', async () => {
    for (const content of ['', '\ufeff', '\n\n\r\n']) {
      const source = await open(content);
      assert.deepEqual(source.columns, []);
      assert.equal(source.rowCount, 0);
      assert.equal(notice(source, 'emptyFile').severity, 'warning');
      assert.equal(new TableView(source).countLabel(), '0 rows');
      await source.close();
    }
  });

  it('opens a header-only file, with or without a final newline', async () => {
    for (const content of ['a,b\n', 'a,b']) {
      const source = await open(content);
      assert.deepEqual(source.columns, ['a', 'b']);
      assert.equal(source.rowCount, 0);
      notice(source, 'headerOnly');
      await source.close();
    }
  });

  it('pads short rows, cuts long ones, and counts them with row and line', async () => {
    const source = await open('a,b,c\n"multi\nline",2,3\n1,2\n3,4,5,6\n7,8,9\n');
    assert.deepEqual(await cells(source), [['multi\nline', '2', '3'], ['1', '2', ''], ['3', '4', '5'], ['7', '8', '9']]);
    const n = notice(source, 'raggedRows');
    assert.equal(n.count, 2);
    assert.equal(n.row, 2);
    assert.equal(n.line, 4, 'the quoted line break moves the file line on');
    assert.match(n.message, /2 rows do not have the header's 3 cells, first row 2 \(line 4\) with 2/u);
    await source.close();
  });

  it('reports a ragged row among the first rows at once, before any full pass', async () => {
    const source = await openCsvFile(await writeTemp(dir, 'a,b\n1\n2,3\n'), { prepareColumns: false });
    assert.equal(notice(source, 'raggedRows').row, 1);
    await source.close();
  });

  it('reports a ragged row among the first rows of a quoted file longer than the head (cells counted by the kernel)', async () => {
    const row = (i: number): string => `"${i}","x, ""y""","line\nbreak"\n`;
    const rows = Array.from({ length: 400 }, (_, i) => (i === 7 ? `"${i}","short"\n` : row(i)));
    const text = `"a","b","c"\n${rows.join('')}`;
    const source = await openCsvFile(await writeTemp(dir, text), { prepareColumns: false, readSizes: { head: 4096, chunk: 8192 } });
    assert.equal(source.complete, false, 'the head is not the whole file');
    const n = notice(source, 'raggedRows');
    assert.equal(n.row, 8);
    assert.equal(n.line, 16, 'line breaks inside quoted cells move the line on');
    await source.close();
  });

  it('reports an unterminated quote at the end and reads the rest as one cell', async () => {
    const source = await open('a,b\n1,2\n3,"open\n4,5\n6,7\n');
    assert.equal(source.rowCount, 2);
    assert.deepEqual(await cells(source), [['1', '2'], ['3', 'open\n4,5\n6,7\n']]);
    const n = notice(source, 'unterminatedQuote');
    assert.equal(n.severity, 'error');
    assert.equal(n.row, 2);
    assert.equal(n.line, 3);
    await source.close();
  });

  it('keeps every byte of a cell left open at the end, its last line breaks included, however the file is read', async () => {
    const text = 'a,b\n1,2\n3,"open\r\n4,5\n\n';
    for (const reads of [undefined, { head: 5, chunk: 3 }]) {
      const source = await open(text, reads);
      assert.deepEqual(await cells(source), [['1', '2'], ['3', 'open\r\n4,5\n\n']], JSON.stringify(reads));
      notice(source, 'unterminatedQuote');
      // Search reads the same text.
      assert.deepEqual([...(await source.searchRows('5\n\n'))], [0, 1]);
      await source.close();
    }
  });

  it('reports a stray quote inside a quoted cell and keeps it as a character', async () => {
    const source = await open('a,b\n1,2\n"ab"c",1\n2,3\n');
    assert.deepEqual(await cells(source), [['1', '2'], ['ab"c', '1'], ['2', '3']]);
    const n = notice(source, 'malformedQuote');
    assert.equal(n.row, 2);
    assert.equal(n.line, 3);
    assert.equal(source.notices.some((x) => x.code === 'unterminatedQuote'), false);
    await source.close();
  });

  it('reports invalid UTF-8 with its row and shows the bytes as replacement characters', async () => {
    const bytes = Buffer.concat([Buffer.from('a,b\n1,2\n"two\nlines",ok\nx'), Buffer.from([0xff, 0xc3]), Buffer.from(',3\n')]);
    for (const reads of [undefined, { head: 5, chunk: 3 }]) {
      const source = await open(bytes, reads);
      assert.deepEqual((await cells(source))[2], ['x\ufffd\ufffd', '3']);
      const n = notice(source, 'invalidUtf8');
      assert.equal(n.row, 3);
      assert.equal(n.line, 5);
      await source.close();
    }
  });

  it('accepts a multi-byte character cut by every chunk boundary', async () => {
    const source = await open('a\n€日本\n', { head: 3, chunk: 1 });
    assert.equal(source.notices.length, 0, JSON.stringify(source.notices));
    assert.deepEqual(await cells(source), [['€日本']]);
    await source.close();
  });

  it('finds the first invalid UTF-8 byte wherever the chunks are cut', () => {
    const rand = rng(11);
    const valid = ['a', ',', '\n', 'é', '€', '日', '😀'].map((t) => Buffer.from(t));
    // A stray byte, cut sequences, a surrogate, an overlong form.
    const invalid = [[0xff], [0xc3], [0xe2, 0x82], [0xed, 0xa0, 0x80], [0xc0, 0xaf]].map((b) => Buffer.from(b));
    for (let i = 0; i < 500; i++) {
      const pieces = i % 2 === 0 ? valid : [...valid, ...invalid];
      const bytes = Buffer.concat(Array.from({ length: Math.floor(rand() * 30) }, () => pieces[Math.floor(rand() * pieces.length)] ?? valid[0] ?? Buffer.alloc(0)));
      const check = new Utf8Check();
      let from = 0;
      while (from < bytes.length) {
        const to = Math.min(bytes.length, from + 1 + Math.floor(rand() * 6));
        check.feed(bytes.subarray(from, to), from);
        from = to;
      }
      check.finish();
      const expected = isUtf8(bytes) ? undefined : firstInvalidByte(bytes);
      assert.equal(check.firstInvalid, expected, `case ${i}: ${bytes.toString('hex')}`);
    }
  });

  it('never hangs on random bytes', { timeout: 20_000 }, async () => {
    const rand = rng(3);
    const alphabet = [0x22, 0x2c, 0x0a, 0x0d, 0x20, 0x61, 0x31, 0xff, 0xc3, 0xa9, 0x00, 0x09];
    for (let i = 0; i < 40; i++) {
      const bytes = Buffer.from(Array.from({ length: Math.floor(rand() * 400) }, () => alphabet[Math.floor(rand() * alphabet.length)] ?? 0));
      const source = await open(bytes, i % 2 === 0 ? { head: 7, chunk: 5 } : undefined);
      const view = new TableView(source);
      if (source.columns.length > 0) {
        await view.apply({ sort: [{ column: source.columns.length - 1 }], search: 'a' });
        await view.window(0, view.length, source.columns.map((_, c) => c));
      }
      await source.close();
    }
  });
});
