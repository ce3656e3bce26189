/**
 * One classifier decides what a column holds (core/table/columnKind.ts, issue 22): numbers, addresses
 * of which chain, dates or text. Addresses are never numbers: the System Program address
 * (32 ones) reads as a decimal too. Each feature that asks is held to the rule here, and a scan
 * of the sources finds any second rule.
 */
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import ts from 'typescript';
import { classifyColumn, pickAddressColumn } from '../../../../src/core/table/columnKind';
import { numericColumns } from '../../../../src/core/table/compare/pairRows';
import { distinctAddresses } from '../../../../src/core/spec/addresses';
import { countingLookups } from '../../fixtures/countingLookups';
import { METRICS } from '../../../../src/core/spec/metrics';
import { notebookColumns } from '../../../../src/core/codegen/notebookModel';
import { compareText, jsonRowsSource, openCsvFile, TableView } from '../../../../src/core/table';
import { profileColumn } from '../../../../src/core/table/analysis';
// eslint-disable-next-line no-restricted-imports -- columnInfo.ts is pure (no vscode import)
import { columnInfo } from '../../../../src/vscode/table/columnInfo';
import { effectiveFormat } from '../../../../src/webview-ui/format';
import { tempDir, writeTemp } from '../../tableFixtures';

const SYSTEM = '11111111111111111111111111111111';
const A = '7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU';
const B = '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM';
const C = 'TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA';
const ADDRESSES = [A, SYSTEM, B, C];

let dir = '';
let cleanup: () => Promise<void> = () => Promise.resolve();
before(async () => ({ dir, cleanup } = await tempDir()));
after(() => cleanup());

describe('column kinds: the rule', () => {
  it('an all-digit address in an address column is an address, not a number', () => {
    assert.deepEqual(classifyColumn(ADDRESSES), { kind: 'address', chain: 'main' });
    assert.deepEqual(classifyColumn([SYSTEM, SYSTEM]), { kind: 'number' }, 'digits alone, with no name, are a number');
    assert.deepEqual(classifyColumn([SYSTEM], 'program'), { kind: 'address', chain: 'main' }, 'an address-like name decides');
    assert.deepEqual(classifyColumn(['0x52908400098527886e0f7030069857d2e4169ee7']), { kind: 'address', chain: 'alt' });
    assert.deepEqual(classifyColumn(['1', '2.5', 'n/a']), { kind: 'number' });
    assert.deepEqual(classifyColumn(['2024-05-01', '2024-05-02T10:00:00Z']), { kind: 'date' });
    assert.deepEqual(classifyColumn(['alpha', '1']), { kind: 'text' });
    assert.deepEqual(classifyColumn(['', ' ']), { kind: 'empty' });
    assert.deepEqual(classifyColumn([], `${METRICS[0]?.name ?? ''}_7d`), { kind: 'number' }, 'a known metric with no cells');
  });
});

describe('column kinds: every feature follows the rule', () => {
  const sample = ADDRESSES.map((a, i) => [a, String(i)]);

  it('the table (column types, formats, the notebook)', () => {
    const info = columnInfo(['wallet', 'n'], sample);
    assert.equal(info[0]?.address, 'main');
    assert.equal(info[0]?.numeric, false);
    assert.equal(info[1]?.numeric, true);
    assert.equal(effectiveFormat(info[0], undefined, 'auto'), 'raw');
    assert.deepEqual(
      notebookColumns(info).map((c) => c.kind),
      ['address', 'number'],
    );
  });

  it('the engine: the System Program sorts among the addresses as text, both sources', async () => {
    const csv = await openCsvFile(await writeTemp(dir, `wallet,n\n${sample.map((r) => r.join(',')).join('\n')}\n`));
    await csv.indexed;
    for (const source of [csv, jsonRowsSource(sample.map(([wallet, n]) => ({ wallet, n })))]) {
      const view = new TableView(source);
      await view.apply({ sort: [{ column: 0 }] });
      const w = await view.window(0, view.length, [0]);
      assert.deepEqual(
        w.cells.map((r) => r[0]),
        [...ADDRESSES].sort(compareText),
      );
      const [col] = await source.typedColumns([{ column: 0 }]);
      assert.equal(col?.numberCount, 0);
    }
  });

  it('the profile', async () => {
    const source = jsonRowsSource(ADDRESSES.map((wallet) => ({ wallet })));
    const [col] = await source.typedColumns([{ column: 0 }]);
    assert.ok(col);
    const p = profileColumn(col, Uint32Array.from([0, 1, 2, 3]), 'wallet');
    assert.equal(p.type, 'address');
    assert.ok(p.top.some((t) => t.value === SYSTEM));
    assert.equal(p.min, undefined);
  });

  it('compare and address sets; "use as input"; numbers for compare’s deltas', () => {
    assert.deepEqual(pickAddressColumn(['n', 'program'], sample.map(([a, n]) => [n ?? '', a ?? ''])), { column: 1, name: 'program', chain: 'main' });
    assert.deepEqual(distinctAddresses(sample.map(([a]) => a ?? ''), 'main').addresses, ADDRESSES);
    assert.deepEqual([...numericColumns(['wallet', 'n'], sample)], [1]);
  });
});

describe('column kinds: which columns hold addresses, on a wide result (issue 34 item 4)', () => {
  const W = 'So11111111111111111111111111111111111111112';
  const E = '0x52908400098527886e0f7030069857d2e4169ee7';
  // Columns of every shape: numbers, addresses (both chains), mixed near the 90 % line, blanks, dates.
  const shapes: ((r: number) => string)[] = [
    (r) => String(r * 1.5),
    () => W,
    () => E,
    (r) => (r < 45 ? W : String(r)),
    (r) => (r < 44 ? W : String(r)),
    (r) => (r % 2 ? '' : W),
    (r) => (r < 5 ? 'note' : W),
    (r) => (r < 6 ? 'note' : W),
    (r) => (r < 45 ? E : 'x'),
    () => '',
    () => '2026-11-28',
    (r) => (r < 40 ? '' : r < 45 ? 'x' : W),
  ];
  const names = Array.from({ length: 640 }, (_, c) => (c % 13 === 0 ? 'wallet' : `m${c}`));
  const rows = Array.from({ length: 50 }, (_, r) => names.map((_, c) => (c % 37 === 5 ? W : (shapes[c % shapes.length] ?? (() => ''))(r))));

  it('the same columns as the whole classifier, reading a number column only until it cannot hold addresses', () => {
    let reads = 0;
    const counted = rows.map((row) => new Proxy(row, { get: (t, k, rc) => (typeof k === 'string' && /^\d+$/u.test(k) ? (reads++, Reflect.get(t, k, rc) as unknown) : (Reflect.get(t, k, rc) as unknown)) }));
    const chains = names.map((name, c) => {
      const k = classifyColumn(rows.map((r) => r[c] ?? ''), name);
      return k.kind === 'address' ? k.chain : undefined;
    });
    for (const want of ['wallets', 'tokens'] as const) {
      for (const chain of [undefined, 'main', 'alt'] as const) {
        const found = names.flatMap((name, column) => (chains[column] && (chain === undefined || chains[column] === chain) ? [{ column, name, chain: chains[column] }] : []));
        const got = pickAddressColumn(names, rows, { want, ...(chain ? { chain } : {}) });
        assert.ok(got === undefined ? found.length === 0 : found.some((f) => f.column === got.column && f.chain === got.chain), `${want} ${String(chain)}`);
      }
    }
    reads = 0;
    pickAddressColumn(names, counted);
    assert.ok(reads < 640 * 50, `${reads} cells read for 640 columns`);
  });

  it('a wallet and 639 metric columns (the 722 MB result): a number column is read up to its sixth cell, not its fiftieth', () => {
    let reads = 0;
    const metrics = Array.from({ length: 50 }, (_, r) => {
      const row = names.map((_, c) => (c === 0 ? W : String((r + c) * 0.37)));
      return new Proxy(row, { get: (t, k, rc) => (typeof k === 'string' && /^\d+$/u.test(k) ? (reads++, Reflect.get(t, k, rc) as unknown) : (Reflect.get(t, k, rc) as unknown)) });
    });
    assert.deepEqual(pickAddressColumn(names, metrics), { column: 0, name: 'wallet', chain: 'main' });
    // Whole, it was every cell: 32,000.
    assert.ok(reads <= 50 + 639 * 6, `${reads} cells read for 640 columns`);
  });
});

describe('column kinds: one owner', () => {
  const root = resolve(__dirname, '../../../../..');
  const files = (d: string): string[] => readdirSync(d).flatMap((n) => (statSync(join(d, n)).isDirectory() ? files(join(d, n)) : n.endsWith('.ts') ? [join(d, n)] : []));
  const src = files(join(root, 'src')).map((f) => relative(root, f));
  const imports = (f: string): string[] => ts.preProcessFile(readFileSync(join(root, f), 'utf8'), true, true).importedFiles.map((i) => i.fileName);

  it('each feature that decides what a column holds calls core/table/columnKind.ts', () => {
    const callers = [
      'src/vscode/table/columnInfo.ts', // table typing, formats, the notebook, the analysis panel's address column
      'src/core/table/analysis.ts', // the profile
      'src/core/table/typedColumn.ts', // the engine's typed columns
      'src/core/table/compare/compareSource.ts', // compare
      'src/core/table/compare/addressColumn.ts', // compare and address sets
      'src/core/addressLists/addressSets.ts',
      'src/core/results/readResult.ts', // "Use Result as Input to…", the list source ("from a previous result") and a take step: ResultReader.addressColumn
      'src/core/table/workerTable.ts', // the same readers' first rows, judged in the table worker (columnChains)
      'src/core/addressLists/inputTargets.ts', // the picker's ranking: what the column holds
    ];
    for (const f of callers) assert.ok(imports(f).some((i) => /columnKind$/u.test(i)), `${f} imports core/table/columnKind`);
  });

  it('no other file holds a rule: an address-header pattern, a share of agreeing cells, or addresses and numbers told apart', () => {
    const owner = 'src/core/table/columnKind.ts';
    for (const f of src) {
      if (f === owner) continue;
      const text = readFileSync(join(root, f), 'utf8');
      assert.doesNotMatch(text, /(?:address|wallet|token|mint)\|(?:address|wallet|token|mint|trader)/u, `${f}: a header rule`);
      assert.doesNotMatch(text, /\bAGREE\s*=|>= 0\.[89]\b|0\.[89] \* (?:filled|cells)/u, `${f}: a share of agreeing cells`);
      assert.ok(!(text.includes('isNumberText(') && /addressProblem\(|addressChain\(/u.test(text)), `${f}: numbers and addresses told apart`);
    }
  });

  /** The regular expressions a file writes (a TypeScript scan: comments and strings do not count). */
  const regexes = (f: string): string[] => {
    const out: string[] = [];
    const visit = (n: ts.Node): void => {
      if (ts.isRegularExpressionLiteral(n)) out.push(n.text);
      ts.forEachChild(n, visit);
    };
    visit(ts.createSourceFile(f, readFileSync(join(root, f), 'utf8'), ts.ScriptTarget.Latest, true));
    return out;
  };

  it('no other file tells a profit or a return by its name (issue 26: metrics.ts had its own /pnl|roi/ rule beside isSignedColumn’s)', () => {
    // The sandbox stands in for the server: its recipes say how to make up each metric's values, not what a column holds.
    const found = src.filter((f) => f !== 'src/core/table/columnKind.ts' && !f.startsWith(join('src', 'sandbox'))).flatMap((f) => regexes(f).filter((r) => /pnl|roi|profit/iu.test(r)).map((r) => `${f}: ${r}`));
    assert.deepEqual(found, []);
  });

  it('no other file tells which chain a value is an address of by trying both (issue 26: addressSets.ts had its own)', () => {
    const owners = new Set(['src/core/table/columnKind.ts', 'src/core/spec/addresses.ts']);
    const found = src.filter((f) => !owners.has(f)).filter((f) => {
      const text = readFileSync(join(root, f), 'utf8');
      return /addressProblem\([^)]*'main'\)/u.test(text) && /addressProblem\([^)]*'alt'\)/u.test(text);
    });
    assert.deepEqual(found, [], 'ask core/table/columnKind.ts addressChain()');
  });
});

describe('column kinds: a cell is tested, not explained (issue 34: no message built per cell)', () => {
  it('classifying a column and counting its addresses looks up no translated message, however many cells are not addresses', () => {
    const { lookups } = countingLookups(() => {
      const cells = Array.from({ length: 2_000 }, (_, i) => (i % 2 === 0 ? `not an address ${i}` : `0x${i}`));
      assert.deepEqual(classifyColumn(cells, 'wallet'), { kind: 'text' });
      assert.equal(pickAddressColumn(['wallet', 'note'], cells.map((c) => [c, c])), undefined);
      assert.equal(distinctAddresses(cells, 'main').skipped, 2_000);
      assert.equal(distinctAddresses(cells, 'alt').skipped, 2_000);
    });
    assert.equal(lookups, 0, `${lookups} messages built for cells that are not addresses`);
  });
});
