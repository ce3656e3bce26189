/**
 * "Export Pipeline as Script" (issue 24 item 3): the generator (what it refuses, names as data,
 * the catalog's checks carried over) and the exported script RUN with python3 against the sandbox
 * in this process: the same files and the same charges (the sandbox's ledger) as the core run the
 * editor makes, --max-credits below the plan refusing with nothing sent, a failing job and a
 * submit with no answer (reconciled from the request history, never paid twice).
 */
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { WalletAnalyticsApi } from '../../../../src/core/transport/api';
import { ENDPOINTS, validateInput } from '../../../../src/core/spec/catalog';
import { pipelineScript } from '../../../../src/core/pipeline/exportScript';
import { examplePipeline, type PipelineCell, type PipelineFile } from '../../../../src/core/pipeline/format';
import { planPipeline, planText } from '../../../../src/core/pipeline/plan';
import { resolveReference } from '../../../../src/core/pipeline/resolve';
import { planOnDisk, readRecord, resultsDirOf, runPipeline, type CallCellFn } from '../../../../src/core/pipeline/run';
import { sampleInput } from '../../../../src/core/spec/samples';
import { extractZip } from '../../../../src/core/results/unzip';
import type { Sandbox } from '../../../../src/sandbox/index';
import { approvalsOf, queuedCall, startPipelineSandbox, stopPipelineSandbox } from '../../pipelineSupport';

const workerFile = resolve(__dirname, '../../../../../dist/tableWorker.js');
const PYTHON = spawnSync('python3', ['-c', 'import requests'], { stdio: 'ignore', timeout: 20_000 }).status === 0;
const NO_PYTHON = PYTHON ? false : 'python3 with requests is not installed (apt-get install python3-requests)';

interface Ran {
  readonly status: number | null;
  readonly out: string;
}

/**
 * Runs a script with python3 asynchronously (the sandbox answers from this process). The wait
 * follows the script's progress: it is stopped only when it has printed nothing for idleMs (it
 * prints each step as it goes), never for taking long in all: on a loaded machine this file ran past
 * a fixed 120 s while every script was still working (issue 31.7).
 */
function runPython(file: string, args: readonly string[], env: NodeJS.ProcessEnv, idleMs = 120_000): Promise<Ran> {
  return new Promise((done, fail) => {
    const child = spawn('python3', [file, ...args], { cwd: tmpdir(), env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let timer = setTimeout(() => child.kill('SIGKILL'), idleMs);
    const take = (s: string): void => {
      out += s;
      clearTimeout(timer);
      timer = setTimeout(() => child.kill('SIGKILL'), idleMs);
    };
    child.stdout.setEncoding('utf8').on('data', take);
    child.stderr.setEncoding('utf8').on('data', take);
    child.on('error', fail);
    child.on('close', (status) => {
      clearTimeout(timer);
      done({ status, out });
    });
  });
}

function exported(file: PipelineFile, name: string, baseUrl = 'https://api.example.com/v1'): string {
  const s = pipelineScript(file, { name, baseUrl, resultsDir: 'example.results' });
  assert.ok(s.ok, s.ok ? '' : s.problems.join('\n'));
  return s.text;
}

describe('pipeline script generator', () => {
  it('writes the plan of plan.ts, the key only as WA_API_KEY, and refuses to start above --max-credits', { skip: NO_PYTHON }, async () => {
    const text = exported(examplePipeline(), 'example.wapipe.json');
    assert.ok(!/api_key"?\s*[:=]\s*"[^"]/u.test(text), 'no key value in the script');
    assert.match(text, /os\.environ\.get\("WA_API_KEY"/u);
    const dir = mkdtempSync(join(tmpdir(), 'wa-export-'));
    const file = join(dir, 'example.py');
    writeFileSync(file, text);
    const plan = await runPython(file, ['--plan'], { PATH: process.env.PATH ?? '' });
    assert.equal(plan.status, 0, plan.out);
    const want = planText(planPipeline(examplePipeline()));
    for (const line of want) assert.ok(plan.out.includes(line), `${line}\n--- printed ---\n${plan.out}`);
    assert.ok(plan.out.includes('Total: up to 26,050 credits'), plan.out);
    const refused = await runPython(file, ['--max-credits', '26049'], { PATH: process.env.PATH ?? '', WA_API_KEY: 'k', WA_BASE_URL: 'http://127.0.0.1:9' });
    assert.equal(refused.status, 2, refused.out);
    assert.match(refused.out, /Refused: the plan costs up to 26,050 credits, more than --max-credits 26,049\. Nothing was sent\./u);
    const none = await runPython(file, [], { PATH: process.env.PATH ?? '', WA_API_KEY: 'k', WA_BASE_URL: 'http://127.0.0.1:9' });
    assert.equal(none.status, 2, none.out);
    assert.match(none.out, /give --max-credits/u);
    rmSync(dir, { recursive: true, force: true });
  });

  it('refuses what the editor would not run: an unbounded line, a problem at a cell, a step kind it has no generator for', () => {
    const unbounded = pipelineScript({ version: 1, cells: [{ name: 't', call: 'trending', inputs: {} }, { name: 'p', call: 'pnl', inputs: { wallets: { from: 't' } } }] }, { name: 'x', baseUrl: 'https://a.example', resultsDir: 'x.results' });
    assert.ok(!unbounded.ok && unbounded.problems.some((p) => p.includes('no bound')), JSON.stringify(unbounded));
    const bad = pipelineScript({ version: 1, cells: [{ name: 't', call: 'trending', inputs: { hours: 99 } }] }, { name: 'x', baseUrl: 'https://a.example', resultsDir: 'x.results' });
    assert.ok(!bad.ok && bad.problems.some((p) => p.includes('Hours must be a whole number from 1 to 24.')), JSON.stringify(bad));
    // A kind added to the format later is named, not exported half-done.
    const later = { name: 'f', pivot: { from: 't' } } as unknown as PipelineCell;
    const unknown = pipelineScript({ version: 1, cells: [{ name: 't', call: 'trending', inputs: {} }, later] }, { name: 'x', baseUrl: 'https://a.example', resultsDir: 'x.results' });
    assert.ok(!unknown.ok && unknown.problems.some((p) => p.includes('“f” is a kind of step the exported script cannot run yet')), JSON.stringify(unknown));
  });

  it('writes every name and value as data: line breaks of every kind, quotes and triple quotes never become code', { skip: NO_PYTHON }, async () => {
    const name = 'evil\nimport os; os.system("echo PWN" "ED")\u2028x\u0085y\r"""\'\'\' # \\';
    const f: PipelineFile = { version: 1, cells: [{ name: 'find', call: 'findaddress', inputs: { fragment: 'abc"""\n__import__("os")' } }] };
    // The fragment is refused by the catalog at export, so a hostile value cannot reach the script through an input…
    assert.equal(pipelineScript(f, { name, baseUrl: 'https://a.example', resultsDir: 'x.results' }).ok, false);
    // …and a hostile name (and base URL) is carried as data.
    const text = exported(examplePipeline(), name, 'https://a.example/v1?x="""\n');
    for (const bad of ['\u2028', '\u0085', '\r', 'import os; os.system']) {
      const lines = text.split('\n').filter((l) => l.includes(bad));
      assert.ok(lines.every((l) => !l.startsWith('import os; os.system')), `a raw ${JSON.stringify(bad)} in: ${lines.join(' | ')}`);
    }
    assert.ok(!text.includes('\u2028') && !text.includes('\u0085') && !text.includes('\r'), 'no raw line terminator other than \\n');
    const dir = mkdtempSync(join(tmpdir(), 'wa-export-'));
    const file = join(dir, 'x.py');
    writeFileSync(file, text);
    const r = await runPython(file, ['--plan'], { PATH: process.env.PATH ?? '' });
    assert.equal(r.status, 0, r.out);
    assert.ok(r.out.includes('Plan of evil') && r.out.includes('os.system("echo PWN" "ED")'), r.out);
    assert.ok(!r.out.includes('PWNED'), r.out);
    rmSync(dir, { recursive: true, force: true });
  });

  it('checks inputs as the catalog does: the script accepts and refuses what validateInput accepts and refuses, for every endpoint it can run', { skip: NO_PYTHON }, async () => {
    const eps = ENDPOINTS.filter((ep) => ep.price.kind !== 'perMatch' && ep.family !== 'account');
    const file: PipelineFile = { version: 1, cells: eps.map((ep) => ({ name: `c_${ep.id}`, call: ep.id, inputs: sampleInput(ep) })) };
    const text = exported(file, 'all');
    const cases: { ep: string; raw: Record<string, unknown> }[] = [];
    const wrongs: unknown[] = ['', 'x', -1, 0, 1.5, 25, 1e12, true, null, [], ['x'], {}, '   ', 1_700_000_000];
    for (const ep of eps) {
      const good = sampleInput(ep);
      cases.push({ ep: ep.id, raw: good }, { ep: ep.id, raw: { ...good, nope: 1 } });
      for (const f of ep.fields) {
        const { [f.key]: _, ...rest } = good;
        cases.push({ ep: ep.id, raw: rest });
        for (const w of wrongs) cases.push({ ep: ep.id, raw: { ...good, [f.key]: w } });
      }
    }
    const dir = mkdtempSync(join(tmpdir(), 'wa-export-'));
    writeFileSync(join(dir, 'all.py'), text);
    writeFileSync(join(dir, 'cases.json'), JSON.stringify(cases));
    writeFileSync(
      join(dir, 'check.py'),
      ['import importlib.util, json, sys', 'spec = importlib.util.spec_from_file_location("s", sys.argv[1])', 'm = importlib.util.module_from_spec(spec)', 'spec.loader.exec_module(m)',
        'out = []', 'for c in json.load(open(sys.argv[2])):', '    inp, errors = m.validate(m.DATA["endpoints"][c["ep"]], c["raw"])', '    out.append({"ok": not errors, "input": inp if not errors else None})', 'print(json.dumps(out))'].join('\n'),
    );
    const r = spawnSync('python3', [join(dir, 'check.py'), join(dir, 'all.py'), join(dir, 'cases.json')], { encoding: 'utf8', timeout: 60_000 });
    assert.equal(r.status, 0, r.stderr);
    const got = JSON.parse(r.stdout) as { ok: boolean; input: Record<string, unknown> | null }[];
    const differ: string[] = [];
    cases.forEach((c, i) => {
      const ep = eps.find((e) => e.id === c.ep);
      if (!ep) return;
      const v = validateInput(ep, c.raw);
      const g = got[i];
      if (!g || g.ok !== v.ok) differ.push(`${c.ep} ${JSON.stringify(c.raw)}: catalog ${v.ok ? 'accepts' : 'refuses'}, script ${g?.ok ? 'accepts' : 'refuses'}`);
      else if (v.ok && JSON.stringify(g.input) !== JSON.stringify(v.input)) differ.push(`${c.ep}: sent ${JSON.stringify(g.input)} vs ${JSON.stringify(v.input)}`);
    });
    assert.deepEqual(differ, [], differ.slice(0, 20).join('\n'));
    rmSync(dir, { recursive: true, force: true });
  });
});

describe('exported pipeline script against the sandbox', { skip: NO_PYTHON }, () => {
  let sb: Sandbox;
  let api: WalletAnalyticsApi;
  let dir: string;
  before(async () => {
    ({ sb, api, dir } = await startPipelineSandbox('wa-pipe-export-'));
  });
  after(() => stopPipelineSandbox({ sb, api, dir }));

  /** The editor's run: the core runPipeline with the real client (as pipeline.test.ts). */
  const call: CallCellFn = (_cell, ep, input) =>
    // As the window's result writer does: a .zip is extracted into a folder of its own.
    queuedCall(api, ep.id, input, join(dir, 'editor-files'), async (f) => (f.endsWith('.zip') ? (await extractZip(f)).dir : f));
  /** Where the editor run's calls put their results: the one folder besides a pipeline's own its records may name. */
  const callsFolder = (): string[] => [join(dir, 'editor-files')];
  const env = (): NodeJS.ProcessEnv => ({ PATH: process.env.PATH ?? '', WA_API_KEY: sb.demoKey, WA_BASE_URL: sb.baseUrl, WA_POLL_SECONDS: '0.05', WA_HISTORY_WAIT_SECONDS: '2' });
  const charges = (from: number): [string, number][] => sb.ledger().slice(from).map((e) => [e.endpoint, e.credits]);
  const values = async (p: string): Promise<readonly string[]> => (await resolveReference({ from: '' }, p, { workerFile })).values;

  function scriptIn(sub: string, file: PipelineFile): string {
    const d = join(dir, sub);
    rmSync(d, { recursive: true, force: true });
    mkdirSync(d, { recursive: true });
    const s = pipelineScript(file, { name: 'example.wapipe.json', baseUrl: 'https://api.example.com', resultsDir: 'example.results' });
    assert.ok(s.ok);
    const p = join(d, 'example.py');
    writeFileSync(p, s.text);
    return p;
  }

  /** The pipeline run by the core (the editor's run) and by its exported script: the charges of each, in order, and the results folders. */
  async function both(sub: string, file: PipelineFile): Promise<{ editor: [string, number][]; script: [string, number][]; editorDir: string; scriptDir: string; log: string; total: number }> {
    const editorDir = resultsDirOf(join(dir, `${sub}-editor`, 'example.wapipe.json'));
    const plan = await planOnDisk(file, editorDir, undefined, undefined, Date.now, callsFolder());
    const l0 = sb.ledger().length;
    const summary = await runPipeline(file, { roots: callsFolder(), dir: editorDir, plan, approvals: approvalsOf(plan, file), call, read: { workerFile } });
    assert.equal(summary.stopped, undefined, summary.stopped?.message);
    const editor = charges(l0);
    const script = scriptIn(sub, file);
    const l1 = sb.ledger().length;
    const r = await runPython(script, ['--max-credits', String(plan.total)], env());
    assert.equal(r.status, 0, r.out);
    const scriptCharges = charges(l1);
    console.log(`--- ${sub}: the exported script's run log ---\n${r.out}--- ${sub}: plan ${plan.totalText}; charged by the editor run ${JSON.stringify(editor)}, by the script ${JSON.stringify(scriptCharges)} ---`);
    return { editor, script: scriptCharges, editorDir, scriptDir: join(dir, sub, 'example.results'), log: r.out, total: plan.total };
  }

  /** The same record files, charges, sizes and values per cell; local steps' lists byte for byte. */
  async function sameResults(editorDir: string, scriptDir: string, cells: readonly PipelineCell[]): Promise<void> {
    const records = (d: string): string[] => readdirSync(d).filter((n) => n.endsWith('.json') && !n.includes('.result')).sort();
    assert.deepEqual(records(scriptDir), records(editorDir));
    for (const c of cells) {
      const a = await readRecord(editorDir, c.name, callsFolder());
      const b = await readRecord(scriptDir, c.name, callsFolder());
      assert.ok(a && b, c.name);
      assert.deepEqual([b.cell, b.endpointId, b.credits, b.size], [a.cell, a.endpointId, a.credits, a.size], c.name);
      assert.deepEqual(await values(b.resultPath), await values(a.resultPath), `the values of ${c.name}`);
      if (!('call' in c)) assert.equal(readFileSync(b.resultPath, 'utf8'), readFileSync(a.resultPath, 'utf8'), `${c.name}.txt`);
    }
  }

  it('the script charges what the editor run charges and writes the same results (the §8.4 example)', async () => {
    const file = examplePipeline();
    const r = await both('example', file);
    assert.deepEqual(r.script, r.editor);
    const traders = await readRecord(r.editorDir, 'traders', callsFolder());
    assert.ok(traders);
    const wallets = Math.min(traders.size, 5_000);
    assert.deepEqual(r.editor, [['trending', 50], ['toptraders', 1_000], ['pnl', 5 * wallets]]);
    assert.match(r.log, new RegExp(`Charged in this run: ${(1_050 + 5 * wallets).toLocaleString('en-US')} credits\\.`, 'u'));
    assert.ok(1_050 + 5 * wallets <= r.total);
    await sameResults(r.editorDir, r.scriptDir, file.cells.filter((c): c is PipelineCell => typeof c !== 'string'));
    const pnl = await readRecord(r.scriptDir, 'pnl', callsFolder());
    assert.ok(pnl && readFileSync(pnl.resultPath, 'utf8').split('\n')[0]?.includes(','), 'the pnl result is the CSV');
  });

  it('the same for a chain with local steps, a .zip of CSVs, a set operation, a sort ("by") and a filter', async () => {
    const file: PipelineFile = {
      version: 1,
      cells: [
        { name: 'trending', call: 'trending', inputs: { hours: 2 } },
        { name: 'first', take: { from: 'trending', top: 3 } },
        { name: 'traders', call: 'toptraders', inputs: { tokens: { from: 'first' }, output: 'txt' } },
        { name: 'early', call: 'earlybuyers', inputs: { tokens: { from: 'first' }, buyers: 50 } },
        { name: 'both', sets: { op: 'union', of: ['traders', { from: 'early', top: 100 }] } },
        { name: 'pnl', call: 'pnl', inputs: { wallets: { from: 'both', top: 120 } } },
        { name: 'best', take: { from: 'pnl', top: 10, by: 'realized_pnl_usd_30d' } },
        // The table's own filters in the editor, the script's port of them: the same rows, byte for byte.
        { name: 'winners', filter: { from: 'pnl', where: [{ column: 'realized_pnl_usd_30d', op: '>=', value: '0' }, { column: 'winrate_30d', op: 'between', value: [0.2, '0.9'] }] } },
        { name: 'winnerList', take: { from: 'winners' } },
      ],
    };
    const r = await both('chain', file);
    assert.deepEqual(r.script, r.editor);
    assert.deepEqual(r.editor.map(([e]) => e), ['trending', 'toptraders', 'earlybuyers', 'pnl']);
    assert.ok(r.editor.reduce((t, [, c]) => t + c, 0) <= r.total, 'within the plan');
    await sameResults(r.editorDir, r.scriptDir, file.cells.filter((c): c is PipelineCell => typeof c !== 'string'));
  });

  it('--max-credits below the plan refuses: exit 2, nothing sent, nothing charged', async () => {
    const script = scriptIn('refuse', examplePipeline());
    const l0 = sb.ledger().length;
    const n0 = sb.received().length;
    const r = await runPython(script, ['--max-credits', '26049'], env());
    assert.equal(r.status, 2, r.out);
    assert.equal(sb.ledger().length, l0);
    assert.equal(sb.received().length, n0, 'no request at all');
  });

  it('a failing job stops the run with a non-zero exit; what was charged is said', async () => {
    const script = scriptIn('fail', { version: 1, cells: [{ name: 'trending', call: 'trending', inputs: { hours: 1 } }, { name: 'more', call: 'trending', inputs: { hours: 2 } }] });
    const l0 = sb.ledger().length;
    sb.setFaults({ jobFailRate: 1 });
    try {
      const r = await runPython(script, ['--max-credits', '100'], env());
      assert.equal(r.status, 1, r.out);
      assert.match(r.out, /Stopped: The job \S+ failed on the server/u);
      assert.match(r.out, /Charged in this run: 50 credits\./u);
      assert.deepEqual(charges(l0), [['trending', 50]], 'the second step was not sent');
    } finally {
      sb.setFaults({ jobFailRate: 0 });
    }
  });

  it('no call spends past its plan line: a line lowered after the plan stops the run before that call is sent', async () => {
    const script = scriptIn('line', examplePipeline());
    // The script's own main, with the traders line lowered to 300 (as if its input had grown since the plan).
    const harness = join(dir, 'line', 'lower.py');
    writeFileSync(harness, ['import importlib.util, sys', 'spec = importlib.util.spec_from_file_location("s", sys.argv[1])', 'm = importlib.util.module_from_spec(spec)', 'spec.loader.exec_module(m)',
      'm.DATA["plan"]["lines"][1]["credits"] = 300', 'sys.exit(m.main(["--max-credits", "26050"]))'].join('\n'));
    const l0 = sb.ledger().length;
    const r = await runPython(harness, [script], env());
    assert.equal(r.status, 1, r.out);
    assert.match(r.out, /"traders" would cost 1,000 credits, more than its line in the plan \(300 credits\)\. Nothing was sent for it\./u);
    assert.deepEqual(charges(l0), [['trending', 50]]);
  });

  it('a submit with no answer is found in the request history and followed: charged once, never twice', async () => {
    const file: PipelineFile = { version: 1, cells: [{ name: 'trending', call: 'trending', inputs: { hours: 3 } }, { name: 'traders', call: 'toptraders', inputs: { tokens: { from: 'trending', top: 2 }, output: 'txt' } }] };
    const script = scriptIn('ambiguous', file);
    const l0 = sb.ledger().length;
    sb.setFaults({ dropAfterChargeRate: 1 });
    try {
      const r = await runPython(script, ['--max-credits', '250'], env());
      assert.equal(r.status, 0, r.out);
      assert.match(r.out, /It was accepted after all/u);
      assert.deepEqual(charges(l0), [['trending', 50], ['toptraders', 200]]);
    } finally {
      sb.setFaults({ dropAfterChargeRate: 0 });
    }
  });
});
