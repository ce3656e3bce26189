/**
 * "Open in Notebook" (src/core/codegen/notebook.ts): the file is valid nbformat 4.5 (a structural check
 * against the schema's required fields everywhere, and nbformat's own validator where Python has
 * it), it never holds the key, names stay data, and its code gives the table's rows: the pandas
 * cell is RUN on small files and its rows compared, in order, with what TableView.apply gives for
 * the same query. That needs python3 with pandas and nbformat (Debian: python3-pandas,
 * python3-nbformat, installed for the unit tier by scripts/system-deps.js): a machine without them
 * fails here, it does not skip. Each runs with the first of WA_TEST_PYTHON (a venv, say),
 * /usr/bin/python3 (where Debian's packages go) and python3 on PATH that has its module.
 * The DuckDB cell needs Python's duckdb, which has no Debian package (and CI reaches no PyPI), so it
 * is checked in two real halves: its SQL (macros and query, over the file read as VARCHAR) runs on
 * DuckDB's npm build (@duckdb/node-api, a devDependency), and the cell itself runs in Python against
 * a stand-in duckdb module that records what the cell hands DuckDB (the file, read_csv's options,
 * the macros, the query), which then runs on that same npm DuckDB and must give the table's rows.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { DuckDBInstance } from '@duckdb/node-api';
import { buildNotebook, duckdbQuery, NAMED_COLUMNS, notebookText, writeNotebook } from '../../../../src/core/codegen/notebook';
import { pyString } from '../../../../src/core/codegen/notebookCode';
import type { Notebook, NotebookColumn, NotebookInput } from '../../../../src/core/codegen/notebookModel';
import { openTable, TableView, type ViewQuery } from '../../../../src/core/table';

/** Interpreters tried in order: a chosen one, the one on PATH (maybe pyenv's), Debian's (where python3-pandas goes). */
const PYTHONS = [...(process.env.WA_TEST_PYTHON ? [process.env.WA_TEST_PYTHON] : []), '/usr/bin/python3', 'python3'];
const pythonWith = (module: string): string | undefined =>
  PYTHONS.find((py) => spawnSync(py, ['-c', `import ${module}`], { stdio: 'ignore', timeout: 30_000 }).status === 0);
const PANDAS_PY = pythonWith('pandas');
const NBFORMAT_PY = pythonWith('nbformat');
const ANY_PY = pythonWith('json');
const NO_PANDAS = `no pandas in ${PYTHONS.join(' or ')} (Debian: apt-get install python3-pandas; scripts/system-deps.js installs it for the unit tier)`;

let dir = '';
before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'wa-notebook-'));
});
after(() => rm(dir, { recursive: true, force: true }));

// ------------------------------------------------------------------------------------------
// nbformat 4.5, structurally: the schema's required fields, types and closed property sets.

const ID = /^[a-zA-Z0-9_-]{1,64}$/u;
const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isSource = (v: unknown): boolean => typeof v === 'string' || (Array.isArray(v) && v.every((s) => typeof s === 'string'));

/** Problems of a notebook against nbformat 4.5's schema (required fields, types, no extra properties); [] when valid. */
function nbformatProblems(nb: unknown): string[] {
  const p: string[] = [];
  if (!isRecord(nb)) return ['not an object'];
  for (const k of Object.keys(nb)) if (!['metadata', 'nbformat_minor', 'nbformat', 'cells'].includes(k)) p.push(`unknown top-level property ${k}`);
  if (nb.nbformat !== 4) p.push('nbformat is not 4');
  if (!Number.isInteger(nb.nbformat_minor) || (nb.nbformat_minor as number) < 5) p.push('nbformat_minor below 5 (cell ids need 4.5)');
  if (!isRecord(nb.metadata)) p.push('metadata is not an object');
  else {
    const ks = nb.metadata.kernelspec;
    if (ks !== undefined && (!isRecord(ks) || typeof ks.name !== 'string' || typeof ks.display_name !== 'string')) p.push('kernelspec needs name and display_name');
    const li = nb.metadata.language_info;
    if (li !== undefined && (!isRecord(li) || typeof li.name !== 'string')) p.push('language_info needs name');
  }
  if (!Array.isArray(nb.cells)) return [...p, 'cells is not an array'];
  const ids = new Set<string>();
  nb.cells.forEach((c: unknown, i) => {
    if (!isRecord(c)) return p.push(`cell ${i} is not an object`);
    if (typeof c.id !== 'string' || !ID.test(c.id)) p.push(`cell ${i} id is not 1-64 of [a-zA-Z0-9_-]`);
    else if (ids.has(c.id)) p.push(`cell ${i} id repeats`);
    else ids.add(c.id);
    if (!isRecord(c.metadata)) p.push(`cell ${i} metadata is not an object`);
    if (!isSource(c.source)) p.push(`cell ${i} source is not a string or a list of strings`);
    const allowed =
      c.cell_type === 'code'
        ? ['id', 'cell_type', 'metadata', 'source', 'outputs', 'execution_count']
        : c.cell_type === 'markdown' || c.cell_type === 'raw'
          ? ['id', 'cell_type', 'metadata', 'source', 'attachments']
          : undefined;
    if (!allowed) return p.push(`cell ${i} has cell_type ${String(c.cell_type)}`);
    for (const k of Object.keys(c)) if (!allowed.includes(k)) p.push(`cell ${i} has unknown property ${k}`);
    if (c.cell_type === 'code') {
      if (!Array.isArray(c.outputs)) p.push(`cell ${i} outputs is not an array`);
      if (!(c.execution_count === null || Number.isInteger(c.execution_count))) p.push(`cell ${i} execution_count is not null or an integer`);
      if (!('execution_count' in c)) p.push(`cell ${i} has no execution_count`);
    }
    return undefined;
  });
  return p;
}

// ------------------------------------------------------------------------------------------

const ADDRS = ['7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU', '0x1111111111111111111111111111111111111111', '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM', '0xabcdefabcdefabcdefabcdefabcdefabcdefabcd'];
const EVIL = 'x"; import os; open("pwned", "w")  #\'\'\' """ \\';

/** A small result: unique addresses, ties, empties, text among numbers, quoted commas, a hostile column name. */
function sampleCsv(rows = 40): string {
  const lines = [`address,label,pnl_usd,winrate_30d,"${EVIL.replaceAll('"', '""')}"`];
  for (let i = 0; i < rows; i++) {
    const addr = i < ADDRS.length ? (ADDRS[i] ?? '') : `W${(i * 7919).toString(36)}addr${i}`;
    const label = i % 5 === 0 ? '' : i % 3 === 0 ? `"Whale, ${i}"` : i % 2 === 0 ? `bot${i % 4}` : `Trader ${i % 7}`;
    const pnl = i % 9 === 0 ? '' : i % 11 === 0 ? 'n/a' : String(((i * 37) % 13) - 6) + (i % 4 === 0 ? '.5' : '');
    const win = i % 6 === 0 ? '' : (((i * 13) % 10) / 10).toString();
    lines.push(`${addr},${label},${pnl},${win},v${i % 3}`);
  }
  return `${lines.join('\n')}\n`;
}

const KINDS: readonly NotebookColumn['kind'][] = ['address', 'text', 'number', 'number', 'text'];

async function result(name: string, text: string): Promise<string> {
  const file = join(dir, name);
  await writeFile(file, text);
  return file;
}

function input(file: string, columns: readonly string[], query: ViewQuery, shown: readonly number[] = [], kinds = KINDS): NotebookInput {
  return { file, columns: columns.map((name, i) => ({ name, kind: kinds[i] ?? 'text' })), query, shown };
}

/** What the table shows for the query: its first column (the address) top to bottom. */
async function tableRows(file: string, query: ViewQuery): Promise<{ columns: string[]; addresses: string[] }> {
  const source = await openTable(file);
  await source.indexed;
  const view = new TableView(source);
  await view.apply(query);
  const cells = await source.readCells(view.rowIds(), [0]);
  await source.close();
  return { columns: [...source.columns], addresses: cells.map((r) => r[0] ?? '') };
}

function cellCode(nb: Notebook, index: number): string {
  const cell = nb.cells[index];
  assert.ok(cell && cell.cell_type === 'code', `cell ${index} is code`);
  return cell.source.join('');
}

/** Runs code in dir with the test's Python and returns the JSON it printed last. */
function runPython(py: string | undefined, code: string, cwd: string): unknown {
  assert.ok(py, 'an interpreter');
  const script = join(cwd, `run-${Math.random().toString(36).slice(2)}.py`);
  writeFileSync(script, code);
  const r = spawnSync(py, [script], { cwd, encoding: 'utf8', timeout: 120_000 });
  assert.equal(r.status, 0, `python failed:\n${r.stderr}\n--- code ---\n${code}`);
  const last = r.stdout.trim().split('\n').pop() ?? '';
  return JSON.parse(last);
}

const PANDAS_OUT = '\nimport json as _j\nprint(_j.dumps({"columns": [str(c) for c in df.columns], "dtypes": [str(t) for t in df.dtypes], "first": [str(v) for v in df.iloc[:, 0].tolist()]}))\n';

const QUERIES: readonly { readonly name: string; readonly query: ViewQuery; readonly shown?: readonly number[]; readonly textSort?: boolean }[] = [
  { name: 'the whole file', query: {} },
  { name: 'a numeric sort, descending: text then numbers, empties last, ties in file order', query: { sort: [{ column: 2, descending: true }] } },
  { name: 'two keys', query: { sort: [{ column: 3 }, { column: 2, descending: true }] }, shown: [0, 3, 2] },
  { name: 'a range filter and a contains filter', query: { filters: [{ kind: 'range', column: 2, min: -2, max: 4.5 }, { kind: 'contains', column: 1, text: 'TRADER' }] } },
  { name: 'open ranges, empty and non-empty', query: { filters: [{ kind: 'range', column: 3, min: 0.3 }, { kind: 'nonEmpty', column: 1 }, { kind: 'range', column: 2, max: 3 }], sort: [{ column: 2 }] } },
  { name: 'empty cells only', query: { filters: [{ kind: 'empty', column: 2 }] } },
  { name: 'a search, sorted', query: { search: 'WHALE', sort: [{ column: 3, descending: true }] }, shown: [0, 1] },
  { name: 'a filter on the hostile column', query: { filters: [{ kind: 'contains', column: 4, text: 'v1' }], sort: [{ column: 4 }] }, shown: [0, 4] },
  { name: 'a text sort (natural order, any case)', query: { sort: [{ column: 1 }, { column: 0, descending: true }] }, textSort: true },
];

describe('notebook: the file', () => {
  it('is valid nbformat 4.5 for a CSV, a .txt list and a JSON result, with cells in order', async () => {
    const csv = await result('wallets.csv', sampleCsv(10));
    const txt = await result('list.txt', `address\n${ADDRS.join('\n')}\n`);
    const json = await result('answer.json', JSON.stringify({ rows: [{ wallet: ADDRS[0], stats: { pnl: 1.5 } }] }));
    for (const [file, columns, kinds] of [
      [csv, ['address', 'label', 'pnl_usd', 'winrate_30d', EVIL], KINDS],
      [txt, ['address'], ['address']],
      [json, ['wallet', 'stats.pnl'], ['address', 'number']],
    ] as const) {
      const nb: unknown = JSON.parse(notebookText(input(file, columns, { sort: [{ column: 0 }] }, [], kinds)));
      assert.deepEqual(nbformatProblems(nb), [], file);
      const cells = (nb as Notebook).cells;
      assert.deepEqual(
        cells.map((c) => c.cell_type),
        ['markdown', 'code', 'code'],
      );
      assert.match(cellCode(nb as Notebook, 1), /import pandas as pd/u);
      assert.match(cellCode(nb as Notebook, 2), /import duckdb/u);
    }
  });

  it('the structural check refuses what nbformat 4.5 refuses (it can fail)', () => {
    const good = buildNotebook(input('/r/a.csv', ['address'], {}, [], ['address']));
    assert.deepEqual(nbformatProblems(good), []);
    const bad = (f: (nb: Record<string, unknown> & { cells: Record<string, unknown>[] }) => void): string[] => {
      const nb = JSON.parse(JSON.stringify(good)) as Record<string, unknown> & { cells: Record<string, unknown>[] };
      f(nb);
      return nbformatProblems(nb);
    };
    assert.notDeepEqual(bad((nb) => delete nb.cells[0]?.id), []);
    assert.notDeepEqual(bad((nb) => ((nb.cells[1] as Record<string, unknown>).id = 'has space')), []);
    assert.notDeepEqual(bad((nb) => ((nb.cells[2] as Record<string, unknown>).id = nb.cells[1]?.id)), []);
    assert.notDeepEqual(bad((nb) => delete nb.cells[1]?.execution_count), []);
    assert.notDeepEqual(bad((nb) => delete nb.cells[1]?.outputs), []);
    assert.notDeepEqual(bad((nb) => ((nb.cells[0] as Record<string, unknown>).outputs = [])), []);
    assert.notDeepEqual(bad((nb) => (nb.nbformat = 3)), []);
    assert.notDeepEqual(bad((nb) => (nb.nbformat_minor = 4)), []);
    assert.notDeepEqual(bad((nb) => (nb.extra = 1)), []);
  });

  it('passes nbformat.validate', async () => {
    assert.ok(NBFORMAT_PY, `nbformat in ${PYTHONS.join(' or ')} (Debian: python3-nbformat; scripts/system-deps.js installs it for the unit tier)`);
    const file = await result('valid.csv', sampleCsv(5));
    const nbFile = await writeNotebook(input(file, ['address', 'label', 'pnl_usd', 'winrate_30d', EVIL], { sort: [{ column: 2 }], search: 'a' }));
    const r = spawnSync(NBFORMAT_PY ?? 'python3', ['-c', 'import sys, nbformat; nb = nbformat.read(sys.argv[1], as_version=4); nbformat.validate(nb); print("ok", nb.nbformat, nb.nbformat_minor)', nbFile], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /^ok 4 5/u);
  });

  it('never holds the key, and calls nothing: it reads the local file only', async () => {
    const key = 'wa_live_NOTEBOOK_FAKE_KEY_3f9c2d81';
    const saved = process.env.WA_API_KEY;
    process.env.WA_API_KEY = key;
    try {
      const file = await result('keyless.csv', sampleCsv(5));
      const text = readFileSync(await writeNotebook(input(file, ['address', 'label', 'pnl_usd', 'winrate_30d', EVIL], { search: 'x' })), 'utf8');
      assert.ok(!text.includes(key), 'the key is not in the notebook');
      assert.doesNotMatch(text, /api[_-]?key|https?:\/\/|requests|urllib|WA_API_KEY/iu);
    } finally {
      if (saved === undefined) delete process.env.WA_API_KEY;
      else process.env.WA_API_KEY = saved;
    }
  });

  it('is written beside the result, never over a file: a numbered name when taken', async () => {
    const file = await result('numbered.csv', sampleCsv(3));
    const q = input(file, ['address', 'label', 'pnl_usd', 'winrate_30d', EVIL], {});
    await writeFile(join(dir, 'numbered.ipynb'), 'mine');
    const first = await writeNotebook(q);
    const second = await writeNotebook(q);
    assert.equal(first, join(dir, 'numbered-2.ipynb'));
    assert.equal(second, join(dir, 'numbered-3.ipynb'));
    assert.equal(readFileSync(join(dir, 'numbered.ipynb'), 'utf8'), 'mine');
  });

  it('names the first 12 chosen columns in its first cell and counts the rest, so the code stays near the top', () => {
    const names = Array.from({ length: 640 }, (_, i) => (i === 0 ? 'address' : `metric_${i}`));
    const shown = Array.from({ length: 166 }, (_, i) => i * 3);
    const nb = buildNotebook(input('/r/wide.csv', names, {}, shown, ['address']));
    const intro = nb.cells[0]?.source.join('') ?? '';
    const line = intro.split('\n').find((l) => l.startsWith('- Columns:')) ?? '';
    assert.equal(line, `- Columns: 166 of 640 (address, ${shown.slice(1, NAMED_COLUMNS).map((c) => `metric\\_${c}`).join(', ')}, and 154 more, listed in the code).`);
    assert.ok(intro.length < 1500, `the first cell is short (${intro.length} characters)`);
    assert.ok(cellCode(nb, 1).includes('"metric_495"'), 'the code still names the last chosen column');
    const few = buildNotebook(input('/r/few.csv', ['address', 'a', 'b'], {}, [0, 2])).cells[0]?.source.join('') ?? '';
    assert.ok(few.includes('- Columns: 2 of 3 (address, b).'), few);
  });

  it('names every column by a quoted literal and types addresses as strings', () => {
    const nb = buildNotebook(input('/r/it\'s "x".csv', ['address', 'label', 'pnl_usd', 'winrate_30d', EVIL], { sort: [{ column: 4 }] }));
    const pandas = cellCode(nb, 1);
    assert.ok(pandas.includes(`${JSON.stringify(EVIL)}: "string",  # text`));
    assert.ok(pandas.includes('"address": "string",  # address'));
    assert.ok(pandas.includes('"pnl_usd": "float64",  # number'));
    assert.ok(cellCode(nb, 2).includes(JSON.stringify(`"x""; import os; open(""pwned"", ""w"")`).slice(1, -1)), 'a SQL identifier with its quotes doubled, in a JSON string');
    const plain = cellCode(buildNotebook(input('/r/a.csv', ['address', 'y"; import os'], { sort: [{ column: 1 }] })), 2);
    assert.ok(plain.includes(`wa_number("y""; import os")`) && plain.includes("SQL = r'''"), 'a SQL identifier with its quotes doubled, in a raw string');
    assert.ok(!nb.cells.some((c) => c.source.join('').split('\n').some((l) => l.startsWith('import os;'))));
  });
});

describe('notebook: its pandas code gives the table rows', () => {
  for (const q of QUERIES) {
    it(q.name, async () => {
      assert.ok(PANDAS_PY, NO_PANDAS);
      const name = `it's "q" ${q.name.replace(/[^a-z]/giu, '')}.csv`;
      const file = await result(name, sampleCsv());
      const expected = await tableRows(file, q.query);
      const nb = buildNotebook(input(file, expected.columns, q.query, q.shown ?? []));
      const got = runPython(PANDAS_PY, cellCode(nb, 1) + PANDAS_OUT, dir) as { columns: string[]; dtypes: string[]; first: string[] };
      assert.deepEqual(got.first, expected.addresses);
      const shown = q.shown ?? expected.columns.map((_, i) => i);
      assert.deepEqual(got.columns, shown.map((c) => expected.columns[c]));
      assert.deepEqual(
        got.dtypes,
        shown.map((c) => (KINDS[c] === 'number' ? 'float64' : 'string')),
      );
      assert.ok(!existsSync(join(dir, 'pwned')), 'a column name ran as code');
    });
  }

  it('a .txt address list and a JSON answer', async () => {
    assert.ok(PANDAS_PY, NO_PANDAS);
    const txt = await result('list2.txt', `Address\r\n${ADDRS.join('\r\n')}\r\n`);
    const q: ViewQuery = { sort: [{ column: 0, descending: true }] };
    const t = await tableRows(txt, q);
    const gotTxt = runPython(PANDAS_PY, cellCode(buildNotebook(input(txt, t.columns, q, [], ['address'])), 1) + PANDAS_OUT, dir) as { first: string[] };
    assert.deepEqual(gotTxt.first, t.addresses);
    const rows = ADDRS.map((a, i) => ({ wallet: a, stats: { pnl: i % 2 ? i * 1.5 : -i, tags: ['a', i] }, note: i === 2 ? null : `n${i}` }));
    const json = await result('answer2.json', JSON.stringify({ total: 4, data: rows }));
    const jq: ViewQuery = { sort: [{ column: 1, descending: true }], filters: [{ kind: 'nonEmpty', column: 3 }] };
    const j = await tableRows(json, jq);
    assert.deepEqual(j.columns, ['wallet', 'stats.pnl', 'stats.tags', 'note']);
    const got = runPython(PANDAS_PY, cellCode(buildNotebook(input(json, j.columns, jq, [], ['address', 'number', 'text', 'text'])), 1) + PANDAS_OUT, dir) as { first: string[] };
    assert.deepEqual(got.first, j.addresses);
  });
});

/** A stand-in for Python's duckdb module: records what the cell hands DuckDB, in order. */
const DUCKDB_STANDIN = `
calls = []
def read_csv(path, **options):
    calls.append({"read_csv": path, "options": options})
    return "raw"
def sql(text):
    calls.append({"sql": text})
    return text
`;
const DUCKDB_CALLS = '\nimport json as _j, duckdb as _d\nprint(_j.dumps(_d.calls))\n';

describe('notebook: its DuckDB cell, run in Python, hands DuckDB what gives the table rows', () => {
  for (const q of QUERIES.filter((x) => !x.textSort)) {
    it(q.name, async () => {
      assert.ok(ANY_PY, `python3 in ${PYTHONS.join(' or ')}`);
      const file = await result(`duck '${q.name.replace(/[^a-z]/giu, '')}'.csv`, sampleCsv());
      const expected = await tableRows(file, q.query);
      const nb = buildNotebook(input(file, expected.columns, q.query, q.shown ?? []));
      const runDir = await mkdtemp(join(tmpdir(), 'wa-notebook-duckdb-'));
      try {
        writeFileSync(join(runDir, 'duckdb.py'), DUCKDB_STANDIN);
        const calls = runPython(ANY_PY, cellCode(nb, 2) + DUCKDB_CALLS, runDir) as { read_csv?: string; options?: Record<string, unknown>; sql?: string }[];
        const [read, macros, query] = calls;
        assert.equal(calls.length, 3, JSON.stringify(calls));
        assert.equal(read?.read_csv, file, 'the cell reads the result file');
        assert.deepEqual(read?.options, { header: true, all_varchar: true }, 'every column as VARCHAR, with its header');
        const db = await DuckDBInstance.create(':memory:');
        const c = await db.connect();
        try {
          await c.run(`CREATE TEMP VIEW raw AS SELECT * FROM read_csv('${file.replaceAll("'", "''")}', header = true, all_varchar = true)`);
          await c.run(macros?.sql ?? '');
          const r = await c.runAndReadAll(query?.sql ?? '');
          assert.deepEqual(r.columnNames(), (q.shown ?? expected.columns.map((_, i) => i)).map((i) => expected.columns[i]));
          assert.deepEqual(r.getRows().map((row) => String(row[0])), expected.addresses);
        } finally {
          c.closeSync();
          db.closeSync();
        }
      } finally {
        await rm(runDir, { recursive: true, force: true });
      }
      assert.ok(!existsSync(join(dir, 'pwned')), 'a column name ran as code');
    });
  }
});

describe('notebook: its DuckDB SQL gives the table rows (DuckDB from npm, no Python needed)', () => {
  for (const q of QUERIES.filter((x) => !x.textSort)) {
    it(q.name, async () => {
      const file = await result(`duckdb-node '${q.name.replace(/[^a-z]/giu, '')}'.csv`, sampleCsv());
      const expected = await tableRows(file, q.query);
      const { macros, sql } = duckdbQuery(input(file, expected.columns, q.query, q.shown ?? []));
      const db = await DuckDBInstance.create(':memory:');
      const c = await db.connect();
      try {
        // What the cell's `duckdb.read_csv(PATH, header=True, all_varchar=True)` gives, as `raw`.
        await c.run(`CREATE TEMP VIEW raw AS SELECT * FROM read_csv('${file.replaceAll("'", "''")}', header = true, all_varchar = true)`);
        await c.run(macros);
        const r = await c.runAndReadAll(sql);
        assert.deepEqual(r.columnNames(), (q.shown ?? expected.columns.map((_, i) => i)).map((i) => expected.columns[i]));
        assert.deepEqual(
          r.getRows().map((row) => String(row[0])),
          expected.addresses,
        );
      } finally {
        c.closeSync();
        db.closeSync();
      }
      assert.ok(!existsSync(join(dir, 'pwned')), 'a column name ran as code');
    });
  }
});

// ------------------------------------------------------------------------------------------
// Issue 21: IPython and Jupyter split a cell at every line end Python's str.splitlines knows,
// not only \n, and an escaped command (`%x`, `!x`) on such a "line" becomes a call that ends in a
// real \n: a file named `a<U+2028>%x<U+2028>code#.csv` in a comment ran `code`. A hostile server
// can deliver that name (a zip entry) or such a column name (a CSV header).

/** Every line end of Python's str.splitlines besides \n, and other controls. */
const PY_BREAKS = ['\r', '\v', '\f', '\x1c', '\x1d', '\x1e', '\x85', '\u2028', '\u2029', '\r\n', '\x00', '\x7f', '\x9b'];
const payload = (sep: string): string => `a${sep}%x${sep}__import__('os').system('touch PWNED')#`;

/** Runs code cells as IPython does (its own input transformer when installed, else the same rule); prints, per cell, whether PWNED appeared. */
const IPYTHON_RUN = `
import json, os, sys
try:
    from IPython.core.inputtransformer2 import TransformerManager
    transform = TransformerManager().transform_cell
except ImportError:
    # IPython's rule: the cell is split with str.splitlines, and an escaped command on a line becomes
    # a call ending in a real new line.
    def transform(cell):
        return "".join("get_ipython()\\n" if line.lstrip()[:1] in ("%", "!") else line for line in cell.splitlines(keepends=True))
class _Shell:
    def __getattr__(self, name):
        return lambda *a, **k: None
pwned = []
for cell in json.load(open(sys.argv[1], encoding="utf-8")):
    try:
        exec(compile(transform(cell), "<cell>", "exec"), {"get_ipython": lambda: _Shell()})
    except BaseException:
        pass  # the result file is not there; only what ran before matters
    pwned.append(os.path.exists("PWNED"))
    if pwned[-1]:
        os.remove("PWNED")
print(json.dumps(pwned))
`;
const IPYTHON_PY = pythonWith('IPython') ?? ANY_PY;

describe('notebook: names with line breaks stay data (issue 21)', () => {
  it('pyString writes every line end and control as an escape, and Python reads the text back', () => {
    assert.ok(ANY_PY, `python3 in ${PYTHONS.join(' or ')}`);
    const text = `x${PY_BREAKS.join('y')}z"'\\`;
    const literal = pyString(text);
    for (const c of PY_BREAKS) assert.ok(!literal.includes(c), `${JSON.stringify(c)} stands raw in ${literal}`);
    const got = runPython(ANY_PY, `import json\nprint(json.dumps(${literal}))\n`, dir);
    assert.equal(got, text);
  });

  it('no code cell holds a line end other than \\n, whatever the file, column, filter and search', () => {
    for (const sep of PY_BREAKS) {
      const name = payload(sep);
      for (const file of [`/r/${name}.csv`, `/r/${name}.txt`, `/r/${name}.json`]) {
        const nb = buildNotebook({
          file,
          columns: [{ name, kind: 'address' }, { name: `n${name}`, kind: 'number' }],
          query: { filters: [{ kind: 'contains', column: 0, text: name }], search: name, sort: [{ column: 1 }] },
          shown: [],
        });
        for (const i of [1, 2]) {
          const code = cellCode(nb, i);
          for (const c of PY_BREAKS.filter((b) => b !== '\r\n')) assert.ok(!code.includes(c), `cell ${i} of ${JSON.stringify(file)} holds ${JSON.stringify(c)}`);
        }
      }
    }
  });

  it('running each code cell as IPython does runs nothing a name holds', async () => {
    assert.ok(IPYTHON_PY, `python3 in ${PYTHONS.join(' or ')}`);
    const runDir = await mkdtemp(join(tmpdir(), 'wa-notebook-ipython-'));
    try {
      const cells: string[] = [];
      for (const sep of ['\u2028', '\u2029', '\x85', '\x0b', '\x0c', '\x1c', '\r']) {
        const name = payload(sep);
        const nb = buildNotebook({ file: join(runDir, `${name}.csv`), columns: [{ name, kind: 'text' }], query: { search: name }, shown: [] });
        cells.push(cellCode(nb, 1), cellCode(nb, 2));
      }
      writeFileSync(join(runDir, 'cells.json'), JSON.stringify(cells));
      writeFileSync(join(runDir, 'run.py'), IPYTHON_RUN);
      const r = spawnSync(IPYTHON_PY ?? 'python3', ['run.py', 'cells.json'], { cwd: runDir, encoding: 'utf8', timeout: 60_000 });
      assert.equal(r.status, 0, r.stderr);
      assert.deepEqual(JSON.parse(r.stdout.trim().split('\n').pop() ?? ''), cells.map(() => false), 'a cell ran code from a name');
    } finally {
      await rm(runDir, { recursive: true, force: true });
    }
  });
});
