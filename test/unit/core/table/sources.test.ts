/** Sources other than CSV behind the same interface: .txt address lists and JSON rows. */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { findRows, jsonRowsSource, openJsonFile, openTable, TableView, type TableSource } from '../../../../src/core/table';
import { canonicalDecimal, compareDecimalText, decimalValue, NumberScan, numberTextScan, parseNumberBytes, parseNumberText, parsedDecimal, parsedNumber, scanNumber, significantDigits } from '../../../../src/core/table/numbers';
import { rng, tempDir, writeTemp } from '../../tableFixtures';

let dir = '';
let cleanup: () => Promise<void> = () => Promise.resolve();
before(async () => ({ dir, cleanup } = await tempDir()));
after(() => cleanup());

async function cells(source: TableSource): Promise<string[][]> {
  await source.indexed;
  return source.readCells(Array.from({ length: source.rowCount }, (_, i) => i), source.columns.map((_, i) => i));
}

describe('table: .txt address lists', () => {
  it('reads one trimmed address per line, skipping blank lines, CRLF or LF', async () => {
    for (const reads of [undefined, { head: 4, chunk: 2 }]) {
      const source = await openTable(await writeTemp(dir, '  Abc1  \n\ndef2\r\n"ghi",3\r\nlast', '.txt'), { readSizes: reads });
      assert.equal(source.kind, 'txt');
      assert.deepEqual(source.columns, ['address']);
      assert.deepEqual(await cells(source), [['Abc1'], ['def2'], ['"ghi",3'], ['last']]);
      await source.close();
    }
  });

  it('takes a first line "address" as the header', async () => {
    const source = await openTable(await writeTemp(dir, 'Address\nabc\n', '.txt'));
    assert.deepEqual(await cells(source), [['abc']]);
    await source.close();
  });

  it('sorts, filters and searches like any table', async () => {
    const source = await openTable(await writeTemp(dir, 'w10\nW2\nabc\n w1 \n', '.txt'));
    const view = new TableView(source);
    await view.apply({ sort: [{ column: 0 }] });
    assert.deepEqual((await view.window(0, 9, [0])).cells.flat(), ['abc', 'w1', 'W2', 'w10']);
    await view.apply({ search: 'W1' });
    assert.deepEqual((await view.window(0, 9, [0])).cells.flat(), ['w10', 'w1']);
    await view.apply({ filters: [{ kind: 'contains', column: 0, text: ' w' }] });
    assert.equal(view.length, 0, 'the surrounding spaces were trimmed');
    await source.close();
  });
});

describe('table: JSON rows', () => {
  const rows = [{ address: 'a1', pnl: 12.5, token: { symbol: 'X', mint: 'm1' } }, { pnl: null, address: 'b2', tags: ['x', 'y'], ok: true }, 'stray'];

  it('has the union of keys in first-seen order, nested objects as dotted columns', async () => {
    const source = jsonRowsSource(rows);
    assert.deepEqual(source.columns, ['address', 'pnl', 'token.symbol', 'token.mint', 'tags', 'ok', 'value']);
    assert.deepEqual(await cells(source), [
      ['a1', '12.5', 'X', 'm1', '', '', ''],
      ['b2', '', '', '', '["x","y"]', 'true', ''],
      ['', '', '', '', '', '', 'stray'],
    ]);
  });

  it('types numbers, so they sort and filter as numbers', async () => {
    const source = jsonRowsSource([{ v: 10 }, { v: 9 }, { v: '1e2' }, { v: null }, { v: 'n/a' }]);
    const [col] = await source.typedColumns([{ column: 0 }]);
    assert.deepEqual(Array.from(col?.numbers ?? []), [10, 9, 100, NaN, NaN]);
    const view = new TableView(source);
    await view.apply({ sort: [{ column: 0 }], filters: [{ kind: 'nonEmpty', column: 0 }] });
    assert.deepEqual((await view.window(0, 9, [0])).cells.flat(), ['9', '10', '1e2', 'n/a']);
  });

  it('finds the rows of an API response', () => {
    const list = [{ a: 1 }];
    assert.equal(findRows(list), list);
    assert.equal(findRows({ total: 1, data: list }), list);
    assert.equal(findRows({ cursor: 'x', page: list }), list);
    assert.equal(findRows({ total: 1 }), undefined);
    assert.equal(findRows(42), undefined);
  });

  it('opens .json files, with a notice when they hold no rows', async () => {
    const source = await openTable(await writeTemp(dir, JSON.stringify({ total: 2, wallets: [{ a: 1 }, { a: 2 }] }), '.json'));
    assert.deepEqual(await cells(source), [['1'], ['2']]);
    const single = await openJsonFile(await writeTemp(dir, JSON.stringify({ credits: '5' }), '.json'));
    assert.deepEqual(single.columns, ['credits']);
    assert.equal(single.notices[0]?.code, 'notTabular');
  });

  it('refuses a zip: its CSV files are opened one by one', async () => {
    await assert.rejects(openTable(await writeTemp(dir, 'PK', '.zip')), /open each file/u);
  });
});

describe('table: numbers parsed from bytes', () => {
  it('gives what the text rule (a plain decimal, then Number) gives, for random cells', () => {
    const rand = rng(31);
    const bits = ['-', '+', '.', '0', '1', '7', '9', '12345', '98765432', 'e', 'E', '-', ' ', 'x', ',', '5'];
    const fixed = ['', '-', '+', '.', '3.', '.5', '-0', '-.5', '1.2.3', '1e-9', '00012.50', '9007199254740993', '123456789012345.6', '1.', '+.', '--1'];
    const cells = [...fixed, ...Array.from({ length: 20_000 }, () => Array.from({ length: 1 + Math.floor(rand() * 12) }, () => bits[Math.floor(rand() * bits.length)] ?? '').join(''))];
    for (const text of cells) {
      const buf = Buffer.from(`,${text},`);
      assert.ok(Object.is(parseNumberBytes(buf, 1, buf.length - 1), parseNumberText(text)), JSON.stringify(text));
    }
  });

  it('scans exactly what the text rule gives (a mantissa and places, or the number), for random signed decimals of 1 to 20 digits', () => {
    const rand = rng(32);
    const digits = (n: number): string => Array.from({ length: n }, () => String(Math.floor(rand() * 10))).join('');
    for (let k = 0; k < 50_000; k++) {
      const sign = ['', '-', '+'][Math.floor(rand() * 3)] ?? '';
      const whole = digits(Math.floor(rand() * 12));
      const fraction = rand() < 0.8 ? `.${digits(Math.floor(rand() * 10))}` : '';
      const exponent = rand() < 0.05 ? `e${sign}${digits(1 + Math.floor(rand() * 2))}` : '';
      const text = sign + whole + fraction + exponent;
      const buf = Buffer.from(`"${text}"`);
      const expected = parseNumberText(text);
      const found = scanNumber(buf, 1, buf.length - 1);
      const isNumber = found !== NumberScan.None && found !== NumberScan.OutOfRange;
      assert.equal(isNumber, !Number.isNaN(expected), JSON.stringify(text));
      assert.equal(found === NumberScan.Long, isNumber && significantDigits(text) > 15, `${JSON.stringify(text)}: long`);
      const got = found === NumberScan.Decimal ? decimalValue(parsedDecimal[0] ?? 0, parsedDecimal[1] ?? 0) : parsedNumber[0];
      if (isNumber) assert.ok(Object.is(got, expected), `${JSON.stringify(text)}: ${got} vs ${expected}`);
      assert.ok(Object.is(parseNumberBytes(buf, 1, buf.length - 1), expected), JSON.stringify(text));
    }
  });
});

describe('table: numbers by their decimal text (issue 22)', () => {
  it('compares and writes decimals by their exact value', () => {
    assert.equal(compareDecimalText('1000000000000000001', '999999999999999999'), 1);
    assert.equal(compareDecimalText('-1000000000000000001', '-999999999999999999'), -1);
    assert.equal(compareDecimalText('1e18', '1000000000000000000.000'), 0);
    assert.equal(compareDecimalText('-0', '0'), 0);
    assert.equal(compareDecimalText('0.19', '0.123'), 1);
    assert.equal(compareDecimalText('-0.5', '0.0001'), -1);
    assert.equal(canonicalDecimal('+0012.500'), '12.5');
    assert.equal(canonicalDecimal('1.5e-7'), '1.5e-7');
    assert.equal(canonicalDecimal('0.000001'), '0.000001');
    assert.equal(canonicalDecimal('123456789012345678901234'), '123456789012345678901234');
    assert.equal(canonicalDecimal('-1e60'), '-1e+60');
    assert.equal(numberTextScan('1e400'), NumberScan.OutOfRange);
    assert.equal(numberTextScan('1e-400'), NumberScan.OutOfRange);
    assert.equal(numberTextScan('1e308'), NumberScan.Other);
    assert.equal(numberTextScan('0e400'), NumberScan.Other, 'zero written with a big exponent is zero');
    assert.equal(numberTextScan('12345678901234567'), NumberScan.Long);
    assert.equal(numberTextScan('1234567890123450000000'), NumberScan.Other, 'trailing zeros are not significant');
    assert.equal(numberTextScan('1e-310'), NumberScan.Long, 'a subnormal double holds fewer digits');
    // A decimal of at most 15 significant digits reads as its double does.
    for (const t of ['0.1', '-2.5e-8', '123456789012345', '1e21', '7e-7', '3.14159']) assert.equal(canonicalDecimal(t), String(Number(t)).replace('1e+21', '1000000000000000000000'), t);
  });
});
