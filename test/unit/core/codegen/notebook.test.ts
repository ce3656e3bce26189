/**
 * "Open in Notebook" (src/core/codegen/notebook.ts): the table engine exports the view (the very
 * exportView the table's worker runs) and the notebook only loads that file. The notebook is valid
 * nbformat 4.5 (a structural check against the schema's required fields everywhere, and nbformat's
 * own validator where Python has it), it never holds the key, names stay data, no file is written
 * over and a cancelled export leaves none, and what its cells LOAD is the table's view: the pandas
 * cell is RUN and its rows compared, in order, with what TableView.apply gives for the same query.
 * That needs python3 with pandas and nbformat (Debian: python3-pandas, python3-nbformat, installed
 * for the unit tier by scripts/system-deps.js): a machine without them fails here, it does not
 * skip. Each runs with the first of WA_TEST_PYTHON (a venv, say), /usr/bin/python3 (where Debian's
 * packages go) and python3 on PATH that has its module.
 * The DuckDB cell needs Python's duckdb, which has no Debian package (and CI reaches no PyPI): the
 * cell runs in Python against a stand-in duckdb module that records what the cell hands DuckDB (the
 * file, read_csv's options with their types and blanks, the projection), which then runs on
 * DuckDB's npm build (@duckdb/node-api, a devDependency) and must give the table's rows, typed.
 * Each cell is one load typed by read_csv's own parameters (no branch, no conversion after it):
 * a number column holding text other than the blanks stops the load with pandas' own error.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { DuckDBInstance } from '@duckdb/node-api';
import { BLANKS, buildNotebook, NAMED_COLUMNS, viewIsResult, writeNotebook, type WrittenNotebook } from '../../../../src/core/codegen/notebook';
import { pyString } from '../../../../src/core/codegen/notebookCode';
import type { Notebook, NotebookColumn, NotebookInput, NotebookTable } from '../../../../src/core/codegen/notebookModel';
import { CancelledError, isCancelled } from '../../../../src/core/errors';
import { exportView, openTable, TableView, type ViewQuery } from '../../../../src/core/table';
import type { Progress } from '../../../../src/core/table/types';

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


const ADDRS = ['7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU', '0x1111111111111111111111111111111111111111', '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM', '0xabcdefabcdefabcdefabcdefabcdefabcdefabcd'];
const EVIL = 'x"; import os; open("pwned", "w")  #\'\'\' """ \\';

/** A small result: unique addresses, ties, empties, text among numbers, quoted commas, a formula-like cell, a hostile column name. */
function sampleCsv(rows = 40): string {
  const lines = [`address,label,pnl_usd,winrate_30d,"${EVIL.replaceAll('"', '""')}"`];
  for (let i = 0; i < rows; i++) {
    const addr = i < ADDRS.length ? (ADDRS[i] ?? '') : `W${(i * 7919).toString(36)}addr${i}`;
    const label = i % 5 === 0 ? '' : i % 3 === 0 ? `"Whale, ${i}"` : i % 7 === 1 ? `=cmd${i}` : i % 2 === 0 ? `bot${i % 4}` : `Trader ${i % 7}`;
    const pnl = i % 9 === 0 ? '' : i % 11 === 0 ? 'n/a' : String(((i * 37) % 13) - 6) + (i % 4 === 0 ? '.5' : '');
    const win = i % 6 === 0 ? '' : (((i * 13) % 10) / 10).toString();
    lines.push(`${addr},${label},${pnl},${win},v${i % 3}`);
  }
  return `${lines.join('\n')}\n`;
}

const NAMES = ['address', 'label', 'pnl_usd', 'winrate_30d', EVIL];
const KINDS: readonly NotebookColumn['kind'][] = ['address', 'text', 'number', 'number', 'text'];

async function result(name: string, text: string): Promise<string> {
  const file = join(dir, name);
  await writeFile(file, text);
  return file;
}

/** What the table shows for the query: its column names, and its first column (the address) top to bottom. */
async function tableRows(file: string, query: ViewQuery): Promise<{ columns: string[]; addresses: string[] }> {
  const source = await openTable(file);
  await source.indexed;
  const view = new TableView(source);
  await view.apply(query);
  const cells = await source.readCells(view.rowIds(), [0]);
  await source.close();
  return { columns: [...source.columns], addresses: cells.map((r) => r[0] ?? '') };
}

/**
 * Open in Notebook on `file` through the table engine, as the table's worker runs it (its
 * exportView over the view the query gives); `run` gets the table before the source closes.
 */
async function withTable<T>(file: string, query: ViewQuery, shown: readonly number[], run: (t: NotebookTable) => Promise<T>, kinds = KINDS): Promise<T> {
  const source = await openTable(file);
  await source.indexed;
  const view = new TableView(source);
  await view.apply(query);
  try {
    return await run({
      file,
      columns: source.columns.map((name, i) => ({ name, kind: kinds[i] ?? 'text' })),
      query,
      shown,
      rows: view.length,
      notices: source.notices,
      exportView: (target, options) => exportView(view, target, options),
    });
  } finally {
    await source.close();
  }
}

const open = (file: string, query: ViewQuery = {}, shown: readonly number[] = [], kinds = KINDS): Promise<WrittenNotebook> =>
  withTable(file, query, shown, (t) => writeNotebook(t), kinds);

const readNotebook = (file: string): Notebook => JSON.parse(readFileSync(file, 'utf8')) as Notebook;

function cellCode(nb: Notebook, index: number): string {
  const cell = nb.cells[index];
  assert.ok(cell && cell.cell_type === 'code', `cell ${index} is code`);
  return cell.source.join('');
}

/** A notebook built directly (no table), for what its text holds. */
function input(file: string, columns: readonly string[], query: ViewQuery, shown: readonly number[] = [], kinds = KINDS, data = file.replace(/\.\w+$/u, '-view.csv')): NotebookInput {
  return { file, data, rows: 3, columns: columns.map((name, i) => ({ name, kind: kinds[i] ?? 'text' })), query, shown };
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

const PANDAS_OUT =
  '\nimport json as _j\nprint(_j.dumps({"columns": [str(c) for c in df.columns], "dtypes": [str(t) for t in df.dtypes], "first": [str(v) for v in df.iloc[:, 0].tolist()], "labels": [str(v) for v in df["label"].tolist()] if "label" in df.columns else []}))\n';

const QUERIES: readonly { readonly name: string; readonly query: ViewQuery; readonly shown?: readonly number[] }[] = [
  { name: 'the whole file', query: {} },
  { name: 'the whole file, chosen columns in another order', query: {}, shown: [0, 3, 1] },
  { name: 'a numeric sort, descending: text then numbers, empties last, ties in file order', query: { sort: [{ column: 2, descending: true }] } },
  { name: 'two keys', query: { sort: [{ column: 3 }, { column: 2, descending: true }] }, shown: [0, 3, 2] },
  { name: 'a range filter and a contains filter', query: { filters: [{ kind: 'range', column: 2, min: -2, max: 4.5 }, { kind: 'contains', column: 1, text: 'TRADER' }] } },
  { name: 'open ranges, empty and non-empty', query: { filters: [{ kind: 'range', column: 3, min: 0.3 }, { kind: 'nonEmpty', column: 1 }, { kind: 'range', column: 2, max: 3 }], sort: [{ column: 2 }] } },
  { name: 'empty cells only', query: { filters: [{ kind: 'empty', column: 2 }] } },
  { name: 'a search, sorted', query: { search: 'WHALE', sort: [{ column: 3, descending: true }] }, shown: [0, 1] },
  { name: 'a filter on the hostile column', query: { filters: [{ kind: 'contains', column: 4, text: 'v1' }], sort: [{ column: 4 }] }, shown: [0, 4] },
  { name: 'a text sort (natural order, any case)', query: { sort: [{ column: 1 }, { column: 0, descending: true }] } },
  { name: 'no row at all', query: { search: 'no such text anywhere' }, shown: [0, 2] },
];

describe('notebook: the files', () => {
  it('is valid nbformat 4.5 for a CSV, a .txt list and a JSON result, with cells in order', async () => {
    const csv = await result('wallets.csv', sampleCsv(10));
    const txt = await result('list.txt', `address\n${ADDRS.join('\n')}\n`);
    const json = await result('answer.json', JSON.stringify({ rows: [{ wallet: ADDRS[0], stats: { pnl: 1.5 } }] }));
    for (const [file, kinds] of [
      [csv, KINDS],
      [txt, ['address']],
      [json, ['address', 'number']],
    ] as const) {
      const w = await open(file, { sort: [{ column: 0 }] }, [], kinds);
      const nb: unknown = JSON.parse(readFileSync(w.notebook, 'utf8'));
      assert.deepEqual(nbformatProblems(nb), [], file);
      assert.deepEqual(
        (nb as Notebook).cells.map((c) => c.cell_type),
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
    const { notebook } = await open(file, { sort: [{ column: 2 }], search: 'a' });
    const r = spawnSync(NBFORMAT_PY ?? 'python3', ['-c', 'import sys, nbformat; nb = nbformat.read(sys.argv[1], as_version=4); nbformat.validate(nb); print("ok", nb.nbformat, nb.nbformat_minor)', notebook], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /^ok 4 5/u);
  });

  it('never holds the key, and calls nothing: it reads the local file only', async () => {
    const key = 'wa_live_NOTEBOOK_FAKE_KEY_3f9c2d81';
    const saved = process.env.WA_API_KEY;
    process.env.WA_API_KEY = key;
    try {
      const file = await result('keyless.csv', sampleCsv(5));
      const text = readFileSync((await open(file, { search: 'x' })).notebook, 'utf8');
      assert.ok(!text.includes(key), 'the key is not in the notebook');
      assert.doesNotMatch(text, /api[_-]?key|https?:\/\/|requests|urllib|WA_API_KEY/iu);
    } finally {
      if (saved === undefined) delete process.env.WA_API_KEY;
      else process.env.WA_API_KEY = saved;
    }
  });

  it('holds no sort, filter or search of its own, whatever the view: its cells only load the file', async () => {
    const file = await result('plain.csv', sampleCsv(8));
    for (const q of QUERIES) {
      const { notebook } = await open(file, q.query, q.shown ?? []);
      for (const i of [1, 2]) {
        const code = cellCode(readNotebook(notebook), i);
        assert.doesNotMatch(code, /sort|order by|where|contains|filter|search|\.loc\[|\.query\(|\bdef\b|\bfor\s+\w+\s+in\b|lambda|\bre\b\.|rank|between/iu, `${q.name}, cell ${i}:\n${code}`);
      }
    }
  });

  it('writes the view beside the result and the notebook after it, never over a file: numbered names when taken', async () => {
    const file = await result('numbered.csv', sampleCsv(3));
    await writeFile(join(dir, 'numbered.ipynb'), 'mine');
    await writeFile(join(dir, 'numbered-view.csv'), 'mine too');
    const q: ViewQuery = { sort: [{ column: 2 }] };
    const first = await open(file, q);
    const second = await open(file, q);
    assert.deepEqual([first.notebook, first.data], [join(dir, 'numbered-2.ipynb'), join(dir, 'numbered-view-2.csv')]);
    assert.deepEqual([second.notebook, second.data], [join(dir, 'numbered-3.ipynb'), join(dir, 'numbered-view-3.csv')]);
    assert.equal(readFileSync(join(dir, 'numbered.ipynb'), 'utf8'), 'mine');
    assert.equal(readFileSync(join(dir, 'numbered-view.csv'), 'utf8'), 'mine too');
    assert.ok(cellCode(readNotebook(second.notebook), 1).includes('PATH = "numbered-view-3.csv"'), 'each notebook loads its own view');
    assert.deepEqual(readdirSync(dir).filter((f) => f.endsWith('.tmp')), [], 'no temp file left');
  });

  it('the view is the whole plain CSV: the notebook loads the result itself, and writes no copy', async () => {
    const sub = await mkdtemp(join(dir, 'whole-'));
    const file = join(sub, 'big.csv');
    await writeFile(file, sampleCsv(6));
    const w = await open(file, {}, [3, 0]);
    assert.deepEqual([w.data, w.exported, w.rows], [file, false, 6]);
    assert.deepEqual(readdirSync(sub).sort(), ['big.csv', 'big.ipynb']);
    assert.ok(cellCode(readNotebook(w.notebook), 1).includes('PATH = "big.csv"'));
    // Anything the table reads otherwise than plain comma CSV, or a view that is not all of it, is exported.
    const semi = join(sub, 'semi.csv');
    await writeFile(semi, 'address;n\nA1;1\nA2;2\n');
    assert.equal((await open(semi, {}, [], ['address', 'number'])).exported, true, 'a semicolon file (a dialect notice)');
    const ragged = join(sub, 'ragged.csv');
    await writeFile(ragged, 'address,n\nA1,1,extra\nA2,2\n');
    assert.equal((await open(ragged, {}, [], ['address', 'number'])).exported, true, 'ragged rows');
    const list = join(sub, 'list.txt');
    await writeFile(list, `${ADDRS.join('\n')}\n`);
    assert.equal((await open(list, {}, [], ['address'])).exported, true, 'an address list');
    assert.equal(viewIsResult({ file, notices: [], columns: [{ name: 'a', kind: 'text' }, { name: 'a', kind: 'text' }], query: {} }), false, 'two columns of one name');
    assert.equal(viewIsResult({ file, notices: [], columns: [{ name: 'a', kind: 'text' }], query: { filters: [{ kind: 'empty', column: 0 }] } }), false, 'a filter');
  });

  it('says how far the export is, and a cancelled export leaves no file at all', async () => {
    const sub = await mkdtemp(join(dir, 'cancel-'));
    const file = join(sub, 'many.csv');
    await writeFile(file, sampleCsv(3000));
    const seen: Progress[] = [];
    await withTable(file, { sort: [{ column: 2 }] }, [], (t) => writeNotebook(t, { onProgress: (p) => seen.push(p) }));
    assert.ok(seen.length > 1 && seen.every((p) => p.task === 'export' && p.total === 3000), JSON.stringify(seen.slice(0, 3)));
    assert.equal(seen.at(-1)?.done, 3000);
    const before = readdirSync(sub).sort();
    const controller = new AbortController();
    const failed = await withTable(file, { sort: [{ column: 2 }] }, [], (t) =>
      writeNotebook(t, { signal: controller.signal, onProgress: () => controller.abort(new CancelledError()) }).then(
        () => undefined,
        (e: unknown) => e,
      ),
    );
    assert.ok(isCancelled(failed), String(failed));
    assert.deepEqual(readdirSync(sub).sort(), before, 'no view, no notebook, no temp file');
  });

  it('names the first 12 chosen columns in its first cell and counts the rest, so the code stays near the top', () => {
    const names = Array.from({ length: 640 }, (_, i) => (i === 0 ? 'address' : `metric_${i}`));
    const shown = Array.from({ length: 166 }, (_, i) => i * 3);
    const nb = buildNotebook(input('/r/wide.csv', names, { sort: [{ column: 3 }] }, shown, ['address']));
    const intro = nb.cells[0]?.source.join('') ?? '';
    const line = intro.split('\n').find((l) => l.startsWith('- Columns:')) ?? '';
    assert.equal(line, `- Columns: 166 of 640 (address, ${shown.slice(1, NAMED_COLUMNS).map((c) => `metric\\_${c}`).join(', ')}, and 154 more).`);
    assert.ok(intro.includes('- Rows: 3.'), intro);
    assert.ok(intro.includes('`wide-view.csv`'), 'it names the file it loads');
    assert.ok(intro.length < 1600, `the first cell is short (${intro.length} characters)`);
    const few = buildNotebook(input('/r/few.csv', ['address', 'a', 'b'], {}, [0, 2])).cells[0]?.source.join('') ?? '';
    assert.ok(few.includes('- Columns: 2 of 3 (address, b).'), few);
  });

  it('names every column and file by a quoted literal', () => {
    const nb = buildNotebook(input('/r/it\'s "x".csv', NAMES, {}, [], ['address', 'text', 'number', 'number', 'number'], '/r/it\'s "x".csv'));
    assert.ok(cellCode(nb, 1).includes(`NA = {"pnl_usd": BLANKS, "winrate_30d": BLANKS, ${JSON.stringify(EVIL)}: BLANKS}`), cellCode(nb, 1));
    assert.ok(cellCode(nb, 1).includes(`DTYPES = {"address": "string", "label": "string", "pnl_usd": "float64", "winrate_30d": "float64", ${JSON.stringify(EVIL)}: "float64"}`), cellCode(nb, 1));
    assert.ok(cellCode(nb, 1).includes(`PATH = ${JSON.stringify('it\'s "x".csv')}`));
    const duck = cellCode(nb, 2);
    assert.ok(duck.includes(`TYPES = {"pnl_usd": "DOUBLE", "winrate_30d": "DOUBLE", ${JSON.stringify(EVIL)}: "DOUBLE"}`), duck);
    assert.ok(duck.includes(JSON.stringify(`"x""; import os; open(""pwned"", ""w"")`).slice(1, -1)), 'a SQL identifier with its quotes doubled, in a JSON string');
    assert.ok(!nb.cells.some((c) => c.source.join('').split('\n').some((l) => l.startsWith('import os;'))));
  });
});

/**
 * Runs each job's code in Python, all in one interpreter: pandas is imported once for the lot, not
 * once a job (0.6 CPU-s each; the pandas cells' 16 runs were most of this file's CPU). Each job runs
 * as a script would, in its own folder, its own fresh globals, its stdout its own; an exception ends
 * that job only, its traceback kept (`error`, as a failed script's stderr ends).
 */
function runPythonBatch(py: string | undefined, jobs: readonly { readonly code: string; readonly cwd: string }[], cwd: string): { stdout: string; error: string | null }[] {
  assert.ok(py, 'an interpreter');
  const jobsFile = join(cwd, `jobs-${Math.random().toString(36).slice(2)}.json`);
  const outFile = `${jobsFile}.out`;
  writeFileSync(jobsFile, JSON.stringify(jobs));
  const driver = [
    'import contextlib, io, json, os, sys, traceback',
    'jobs = json.load(open(sys.argv[1], encoding="utf-8"))',
    'out = []',
    'for i, job in enumerate(jobs):',
    '    os.chdir(job["cwd"])',
    '    buf = io.StringIO()',
    '    error = None',
    '    path = os.path.join(job["cwd"], "job-%d.py" % i)',
    '    try:',
    '        with contextlib.redirect_stdout(buf):',
    '            exec(compile(job["code"], path, "exec"), {"__name__": "__main__", "__file__": path})',
    '    except BaseException:',
    '        error = traceback.format_exc()',
    '    out.append({"stdout": buf.getvalue(), "error": error})',
    'json.dump(out, open(sys.argv[2], "w", encoding="utf-8"))',
  ].join('\n');
  const r = spawnSync(py, ['-c', driver, jobsFile, outFile], { cwd, encoding: 'utf8', timeout: 300_000 });
  assert.equal(r.status, 0, `python failed:\n${r.stderr}`);
  return JSON.parse(readFileSync(outFile, 'utf8')) as { stdout: string; error: string | null }[];
}

/** A batch job's answer as runPython gives it: no exception, and the JSON it printed last. */
function lastJson(job: { stdout: string; error: string | null } | undefined, code: string): unknown {
  assert.ok(job, 'the job ran');
  assert.equal(job.error, null, `python failed:\n${job.error ?? ''}\n--- code ---\n${code}`);
  return JSON.parse(job.stdout.trim().split('\n').pop() ?? '');
}

describe('notebook: its pandas cell loads the table rows', () => {
  /** Each test's notebooks are written and its pandas cells queued first; then one Python runs every cell (runPythonBatch). */
  const jobs: { code: string; cwd: string }[] = [];
  const queue = (code: string, cwd: string): number => jobs.push({ code, cwd }) - 1;
  let ran: { stdout: string; error: string | null }[] = [];
  const answer = (i: number): unknown => lastJson(ran[i], jobs[i]?.code ?? '');

  /** Each test's first half: writes its files and queues its cells; what it returns asserts once the batch ran. */
  const makers = new Map<string, () => Promise<() => void>>();
  const prepare = (name: string, make: () => Promise<() => void>): void => void makers.set(name, make);
  const prepared = new Map<string, () => void>();
  /** A test's second half; an error in its first half is its own, not the others'. */
  const check = (name: string): void => {
    const assertAll = prepared.get(name);
    assert.ok(assertAll, name);
    assertAll();
  };

  for (const q of QUERIES) {
    prepare(q.name, async () => {
      const sub = await mkdtemp(join(dir, 'pandas-'));
      const file = join(sub, `it's "q" ${q.name.replace(/[^a-z]/giu, '')}.csv`);
      await writeFile(file, sampleCsv());
      const expected = await tableRows(file, q.query);
      const w = await open(file, q.query, q.shown ?? []);
      const job = queue(cellCode(readNotebook(w.notebook), 1) + PANDAS_OUT, sub);
      return () => {
        assert.equal(w.exported, !(q.query.sort === undefined && q.query.search === undefined && q.query.filters === undefined));
        assert.equal(w.rows, expected.addresses.length);
        const got = answer(job) as { columns: string[]; dtypes: string[]; first: string[]; labels: string[] };
        assert.deepEqual(got.first, expected.addresses);
        const shown = q.shown ?? expected.columns.map((_, i) => i);
        assert.deepEqual(got.columns, shown.map((c) => expected.columns[c]));
        assert.deepEqual(
          got.dtypes,
          shown.map((c) => (KINDS[c] === 'number' ? 'float64' : 'string')),
        );
        // A formula-like cell is the result's own text (pandas is no spreadsheet: no `'` added).
        if (got.labels.length > 0) assert.ok(got.labels.every((l) => !l.startsWith("'")), got.labels.join(' '));
        assert.ok(!existsSync(join(sub, 'pwned')), 'a column name ran as code');
      };
    });
  }

  prepare('numbers', async () => {
    const file = await result('numbers.csv', 'address,n\nA1,1.5\nA2,\nA3,n/a\nA4,-2e3\n');
    const w = await open(file, { sort: [{ column: 0 }] }, [], ['address', 'number']);
    const job = queue(`${cellCode(readNotebook(w.notebook), 1)}\nimport json as _j\nprint(_j.dumps([None if v != v else v for v in df["n"].tolist()]))\n`, dir);
    return () => assert.deepEqual(answer(job), [1.5, null, null, -2000]);
  });

  prepare('stray', async () => {
    const sub = await mkdtemp(join(dir, 'stray-'));
    const file = join(sub, 'stray.csv');
    await writeFile(file, 'address,n\nA1,1.5\nA2,pending\nA3,n/a\n');
    const w = await open(file, { sort: [{ column: 0 }] }, [], ['address', 'number']);
    const code = cellCode(readNotebook(w.notebook), 1);
    const refused = queue(code, sub);
    const added = code.replace('BLANKS = [', 'BLANKS = ["pending", ');
    const loaded = queue(`${added}\nimport json as _j\nprint(_j.dumps([None if v != v else v for v in df["n"].tolist()]))\n`, sub);
    return () => {
      assert.match(code, /other text in a number column stops read_csv with its error naming it: add it here/u);
      assert.notEqual(ran[refused]?.error ?? null, null, 'it does not load');
      assert.match(ran[refused]?.error ?? '', /ValueError: could not convert string to float: 'pending'/u);
      assert.deepEqual(answer(loaded), [1.5, null, null]);
    };
  });

  prepare('txt and json', async () => {
    const txt = await result('list2.txt', `Address\r\n${ADDRS.join('\r\n')}\r\n`);
    const q: ViewQuery = { sort: [{ column: 0, descending: true }] };
    const t = await tableRows(txt, q);
    const wt = await open(txt, q, [], ['address']);
    const fromTxt = queue(cellCode(readNotebook(wt.notebook), 1) + PANDAS_OUT, dir);
    const rows = ADDRS.map((a, i) => ({ wallet: a, stats: { pnl: i % 2 ? i * 1.5 : -i, tags: ['a', i] }, note: i === 2 ? null : `n${i}` }));
    const json = await result('answer2.json', JSON.stringify({ total: 4, data: rows }));
    const jq: ViewQuery = { sort: [{ column: 1, descending: true }], filters: [{ kind: 'nonEmpty', column: 3 }] };
    const j = await tableRows(json, jq);
    const wj = await open(json, jq, [], ['address', 'number', 'text', 'text']);
    const fromJson = queue(cellCode(readNotebook(wj.notebook), 1) + PANDAS_OUT, dir);
    return () => {
      assert.deepEqual((answer(fromTxt) as { first: string[] }).first, t.addresses);
      assert.deepEqual(j.columns, ['wallet', 'stats.pnl', 'stats.tags', 'note']);
      const got = answer(fromJson) as { first: string[]; columns: string[]; dtypes: string[] };
      assert.deepEqual(got.first, j.addresses);
      assert.deepEqual(got.columns, j.columns);
      assert.deepEqual(got.dtypes, ['string', 'float64', 'string', 'string']);
    };
  });

  before(async () => {
    for (const [name, make] of makers)
      prepared.set(
        name,
        await make().catch((e: unknown) => () => {
          throw e;
        }),
      );
    assert.ok(PANDAS_PY, NO_PANDAS);
    ran = runPythonBatch(PANDAS_PY, jobs, dir);
  });

  for (const q of QUERIES) {
    it(q.name, () => {
      assert.ok(PANDAS_PY, NO_PANDAS);
      check(q.name);
    });
  }

  it('the numbers are the table\'s: NaN where a cell is empty or text', () => {
    assert.ok(PANDAS_PY, NO_PANDAS);
    check('numbers');
  });

  it('a number column holding other text stops the load with pandas\' error naming it, and loads once that text is added to BLANKS, as the cell says', () => {
    assert.ok(PANDAS_PY, NO_PANDAS);
    check('stray');
  });

  it('a .txt address list and a JSON answer (the table reads them; the notebook loads its export)', () => {
    assert.ok(PANDAS_PY, NO_PANDAS);
    check('txt and json');
  });
});

/** A stand-in for Python's duckdb module: records what the cell hands DuckDB, in order. */
const DUCKDB_STANDIN = `
calls = []
class Relation:
    def project(self, columns):
        calls.append({"project": columns})
        return self
def read_csv(path, **options):
    calls.append({"read_csv": path, "options": options})
    return Relation()
`;
const DUCKDB_CALLS = '\nimport json as _j, duckdb as _d\nprint(_j.dumps(_d.calls))\n';

describe('notebook: its DuckDB cell, run in Python, hands DuckDB what loads the table rows', () => {
  for (const q of QUERIES) {
    it(q.name, async () => {
      assert.ok(ANY_PY, `python3 in ${PYTHONS.join(' or ')}`);
      const runDir = await mkdtemp(join(tmpdir(), 'wa-notebook-duckdb-'));
      try {
        const file = join(runDir, `duck '${q.name.replace(/[^a-z]/giu, '')}'.csv`);
        await writeFile(file, sampleCsv());
        const expected = await tableRows(file, q.query);
        const w = await open(file, q.query, q.shown ?? []);
        writeFileSync(join(runDir, 'duckdb.py'), DUCKDB_STANDIN);
        const calls = runPython(ANY_PY, cellCode(readNotebook(w.notebook), 2) + DUCKDB_CALLS, runDir) as { read_csv?: string; options?: Record<string, unknown>; project?: string }[];
        const [read, project] = calls;
        assert.equal(calls.length, 2, JSON.stringify(calls));
        assert.equal(resolve(runDir, read?.read_csv ?? ''), w.data, 'the cell reads the file the notebook loads (by its name, beside the notebook)');
        const options = read?.options ?? {};
        const shownNumbers = (q.shown ?? expected.columns.map((_, i) => i)).filter((i) => KINDS[i] === 'number').map((i) => expected.columns[i] ?? '');
        assert.deepEqual(
          options,
          shownNumbers.length > 0
            ? { header: true, all_varchar: true, dtype: Object.fromEntries(shownNumbers.map((n) => [n, 'DOUBLE'])), na_values: [...BLANKS] }
            : { header: true, all_varchar: true },
          'every column as VARCHAR with its header, but the number columns, DOUBLE, with the blanks NULL',
        );
        const db = await DuckDBInstance.create(':memory:');
        const c = await db.connect();
        try {
          // Python's duckdb.read_csv hands dtype on as read_csv's types and na_values as its nullstr.
          const sql = (v: string): string => `'${v.replaceAll("'", "''")}'`;
          const types = options.dtype === undefined ? '' : `, types = {${Object.entries(options.dtype as Record<string, string>).map(([k, v]) => `${sql(k)}: ${sql(v)}`).join(', ')}}`;
          const nullstr = options.na_values === undefined ? '' : `, nullstr = [${(options.na_values as string[]).map(sql).join(', ')}]`;
          const r = await c.runAndReadAll(`SELECT ${project?.project ?? ''} FROM read_csv(${sql(w.data)}, header = true, all_varchar = true${types}${nullstr})`);
          const shown = q.shown ?? expected.columns.map((_, i) => i);
          assert.deepEqual(r.columnNames(), shown.map((i) => expected.columns[i]));
          assert.deepEqual(r.columnTypes().map(String), shown.map((i) => (KINDS[i] === 'number' ? 'DOUBLE' : 'VARCHAR')));
          assert.deepEqual(r.getRows().map((row) => String(row[0])), expected.addresses);
        } finally {
          c.closeSync();
          db.closeSync();
        }
        assert.ok(!existsSync(join(runDir, 'pwned')), 'a column name ran as code');
      } finally {
        await rm(runDir, { recursive: true, force: true });
      }
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
        for (const data of [file, `/r/${name}-view.csv`]) {
          const nb = buildNotebook({
            file,
            data,
            rows: 2,
            columns: [{ name, kind: 'address' }, { name: `n${name}`, kind: 'number' }, { name: 'x', kind: 'text' }],
            query: { filters: [{ kind: 'contains', column: 0, text: name }], search: name, sort: [{ column: 1 }] },
            shown: [1, 0],
          });
          for (const i of [1, 2]) {
            const code = cellCode(nb, i);
            for (const c of PY_BREAKS.filter((b) => b !== '\r\n')) assert.ok(!code.includes(c), `cell ${i} of ${JSON.stringify(data)} holds ${JSON.stringify(c)}`);
          }
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
        const file = join(runDir, `${name}.csv`);
        for (const data of [file, join(runDir, `${name}-view.csv`)]) {
          const nb = buildNotebook({ file, data, rows: 1, columns: [{ name, kind: 'text' }, { name: `n${name}`, kind: 'number' }, { name: 'x', kind: 'text' }], query: { search: name }, shown: [1, 0] });
          cells.push(cellCode(nb, 1), cellCode(nb, 2));
        }
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
