/**
 * The command-line runner (issue 32) spawned as a child process (dist/cli.js, the very file the
 * export copies) against the sandbox in this process, whose ledger is the proof:
 * - §8.4's chain, and a chain through take, filter and sets, charge exactly what the editor's run
 *   of the same pipeline charges (core/pipeline/run.ts, as the notebook runs it) on a fresh sandbox
 *   of the same seed and clock, and every step's file is identical, byte for byte;
 * - --max-credits below the plan sends nothing at all;
 * - under faults (a lost answer after the charge, a history without dates, a dropped download,
 *   5xx) there is never a second charge, and the exit code and the last line say "may have been
 *   charged" where that is the truth (the fault table is printed at the end);
 * - the JUnit report is what the JUnit schema describes (checked structurally);
 * - --help and bad arguments: exit 2, and nothing reaches the sandbox.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { examplePipeline, type PipelineFile } from '../../../src/core/pipeline/format';
import { planOnDisk, readRecord, resultsDirOf, runPipeline } from '../../../src/core/pipeline/run';
import { WalletAnalyticsApi } from '../../../src/core/transport/api';
import { NO_FAULTS } from '../../../src/sandbox/faults';
import { startSandbox, type Faults, type Sandbox } from '../../../src/sandbox/index';
import { approvalsOf, queuedCall } from '../pipelineSupport';
import { parseXml, runCli, type CliRun, type XmlElement } from './cliSupport';

const workerFile = resolve(__dirname, '../../../../dist/tableWorker.js');
const HOUR = 3_600_000;
/** One clock for every sandbox here: the same data, the same hour. */
const NOW = Math.floor(Date.now() / HOUR) * HOUR + 20 * 60_000;
const SEED = { seed: 32, wallets: 2_000, altWallets: 200, delayScale: 0.001, now: () => NOW };

/** A chain through every kind of local step (take, filter, sets) between calls. */
const LOCAL_CHAIN: PipelineFile = {
  version: 1,
  cells: [
    { name: 'trending', call: 'trending', inputs: { hours: 1 } },
    { name: 'traders', call: 'toptraders', inputs: { tokens: { from: 'trending', top: 3 }, output: 'txt' } },
    { name: 'wide', call: 'toptraders', inputs: { tokens: { from: 'trending', top: 5 }, output: 'txt' } },
    { name: 'fresh', sets: { op: 'subtract', of: ['wide', 'traders'] } },
    { name: 'pnl', call: 'pnl', inputs: { wallets: { from: 'fresh', top: 300 } } },
    { name: 'winners', filter: { from: 'pnl', where: [{ column: 'realized_pnl_usd_30d', op: '>=', value: 0 }] } },
    { name: 'best', take: { from: 'winners', column: 'address', top: 40, by: 'realized_pnl_usd_30d' } },
    { name: 'again', call: 'pnl', inputs: { wallets: { from: 'best' } } },
  ],
};

const charged = (sb: Sandbox, since = 0): number => sb.ledger().slice(since).reduce((s, e) => s + e.credits, 0);
const byEndpoint = (sb: Sandbox): string[] => sb.ledger().map((e) => `${e.endpoint} ${e.credits}`);

function writePipeline(dir: string, name: string, file: PipelineFile): string {
  const path = join(dir, `${name}.wapipe.json`);
  writeFileSync(path, `${JSON.stringify(file, null, 2)}\n`);
  return path;
}

/** The editor's run of a pipeline (core's runPipeline under its approved plan, calls sent and followed as the notebook's are). */
async function editorRun(sb: Sandbox, path: string, file: PipelineFile): Promise<number> {
  const api = new WalletAnalyticsApi({ baseUrl: sb.baseUrl, apiKey: () => Promise.resolve(sb.demoKey) });
  const dir = resultsDirOf(path);
  const calls = join(dir, 'calls');
  const plan = await planOnDisk(file, dir, undefined, undefined, () => NOW, [calls]);
  const summary = await runPipeline(file, { dir, roots: [calls], plan, approvals: approvalsOf(plan, file), read: { workerFile }, call: (_c, ep, input) => queuedCall(api, ep.id, input, calls) });
  assert.equal(summary.stopped, undefined, summary.stopped?.message);
  return summary.charged;
}

describe('the command-line runner against the sandbox', () => {
  const sandboxes: Sandbox[] = [];
  let dir: string;
  /** A fresh sandbox; `real`: on the real clock (the history search matches a record by its time against ours). */
  const fresh = async (real = false): Promise<Sandbox> => {
    const { now, ...seed } = SEED;
    const sb = await startSandbox({ ...seed, ...(real ? {} : { now }), ackTimeoutMs: 300 });
    sandboxes.push(sb);
    return sb;
  };
  // Jobs are read every 50 ms, not every 5 s: the sandbox's jobs take milliseconds (delayScale), and
  // the default interval left the runner idle for most of this file (71 s in a full run).
  // An answer is waited for 5 s (a lost one, the faults', costs that much): at 0.5 s a loaded
  // machine's ordinary answer came too late and a run that was charged read as "no clear answer".
  const env = (sb: Sandbox): Record<string, string> => ({ WA_API_KEY: sb.demoKey, WA_ACK_TIMEOUT_S: '5', WA_POLL_INTERVAL_S: '0.05' });
  /** The fault table of the note: fault, charges on the ledger, exit code, last line. */
  const table: string[] = ['| Fault | Charges on the sandbox ledger | Exit | Last line |', '| --- | --- | --- | --- |'];
  const logs: string[] = [];

  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'wa-runner-'));
  });
  after(async () => {
    await Promise.all(sandboxes.map((s) => s.close()));
    rmSync(dir, { recursive: true, force: true });
    console.log(['', ...logs, '', 'Fault table:', ...table].join('\n'));
  });

  for (const [name, file] of [['§8.4', examplePipeline()], ['local steps', LOCAL_CHAIN]] as const) {
    it(`${name}: the runner charges exactly what the editor's run charges, and every step's file is identical byte for byte`, async () => {
      const [a, b] = [await fresh(), await fresh()];
      const byEditor = writePipeline(mkdtempSync(join(dir, 'editor-')), 'chain', file);
      const byRunner = writePipeline(mkdtempSync(join(dir, 'runner-')), 'chain', file);
      const editorCharged = await editorRun(a, byEditor, file);
      const run = await runCli(['run', byRunner, '--max-credits', '30000', '--base-url', b.baseUrl], env(b));
      assert.equal(run.code, 0, run.stdout + run.stderr);
      if (name === '§8.4') logs.push(`$ wallet-analytics run chain.wapipe.json --max-credits 30000 --base-url ${b.baseUrl}`, run.stdout.trimEnd());
      assert.equal(charged(b), editorCharged, 'the same charge');
      assert.deepEqual(byEndpoint(b), byEndpoint(a), 'the same calls, in the same order, for the same credits');
      assert.equal(run.last, `Done: ${file.cells.length} steps. Charged: ${editorCharged.toLocaleString('en-US')} credits.`);
      for (const c of file.cells) {
        if (typeof c === 'string') continue;
        const [ra, rb] = [await readRecord(resultsDirOf(byEditor), c.name, [join(resultsDirOf(byEditor), 'calls')]), await readRecord(resultsDirOf(byRunner), c.name, [join(resultsDirOf(byRunner), 'calls')])];
        assert.ok(ra && rb, c.name);
        assert.ok(readFileSync(rb.resultPath).equals(readFileSync(ra.resultPath)), `${c.name}: ${rb.resultPath} is byte for byte ${ra.resultPath}`);
        assert.equal(rb.credits, ra.credits);
      }
      // A second run reuses every result, as the editor does: nothing sent, nothing charged.
      const since = b.ledger().length;
      const again = await runCli(['run', byRunner, '--max-credits', '0', '--base-url', b.baseUrl], env(b));
      assert.equal(again.code, 0, again.stdout);
      assert.equal(b.ledger().length, since);
      assert.match(again.last, /Charged: 0 credits\.$/u);
    });
  }

  it('--max-credits below the plan: refused with exit 3, and nothing at all is sent', async () => {
    const sb = await fresh();
    const path = writePipeline(mkdtempSync(join(dir, 'max-')), 'example', examplePipeline());
    const run = await runCli(['run', path, '--max-credits', '26049', '--base-url', sb.baseUrl], env(sb));
    assert.equal(run.code, 3);
    assert.match(run.stdout, /Total: up to 26,050 credits/u);
    assert.equal(run.last, "Refused: the plan's total (up to 26,050 credits) is above --max-credits 26,049. Nothing was sent. Charged: 0 credits.");
    assert.equal(sb.received().length, 0, 'not one request');
    table.push(`| --max-credits 26,049 under a plan of up to 26,050 | 0 (no request at all) | ${run.code} | ${run.last} |`);
  });

  /** One paid call (100 credits) under a fault; then the same run again with the fault gone. */
  async function underFault(label: string, faults: Partial<Faults>, expect: { code: number; last: RegExp; charges: number; then: { code: number; last: RegExp } }): Promise<{ first: CliRun; second: CliRun }> {
    const sb = await fresh(true);
    const token = sb.addresses('token', 1)[0] ?? '';
    const path = writePipeline(mkdtempSync(join(dir, 'fault-')), 'one', { version: 1, cells: [{ name: 'traders', call: 'toptraders', inputs: { tokens: [token], output: 'txt' } }] });
    const junit = join(dir, `${label.replace(/\W+/gu, '-')}.xml`);
    sb.setFaults(faults);
    const first = await runCli(['run', path, '--max-credits', '100', '--base-url', sb.baseUrl, '--junit', junit], env(sb));
    await sb.settled();
    assert.equal(first.code, expect.code, first.stdout + first.stderr);
    assert.match(first.last, expect.last);
    assert.equal(sb.ledger().length, expect.charges, `${expect.charges} charge(s) on the ledger`);
    table.push(`| ${label} | ${sb.ledger().length} (${charged(sb)} credits) | ${first.code} | ${first.last} |`);
    checkJunit(readFileSync(junit, 'utf8'), expect.code === 0 ? 0 : 1);
    sb.setFaults(NO_FAULTS);
    const second = await runCli(['run', path, '--max-credits', '100', '--base-url', sb.baseUrl], env(sb));
    assert.equal(second.code, expect.then.code, second.stdout + second.stderr);
    assert.match(second.last, expect.then.last);
    assert.ok(sb.ledger().length <= Math.max(1, expect.charges), 'never a second charge');
    table.push(`| ${label}, then run again without it | ${sb.ledger().length} (${charged(sb)} credits) | ${second.code} | ${second.last} |`);
    return { first, second };
  }

  it('a lost answer after the charge: found in the history, followed, one charge, exit 0', async () => {
    await underFault('answer lost after the charge', { dropAfterChargeRate: 1 }, { code: 0, last: /^Done: 1 step\. Charged: 100 credits\.$/u, charges: 1, then: { code: 0, last: /Charged: 0 credits\.$/u } });
  });

  it('a lost answer and a history without dates (only requestId and url): "may have been charged", exit 4, and the next run sends nothing', async () => {
    const { second } = await underFault('answer lost after the charge, history of requestId and url only', { dropAfterChargeRate: 1, minimalHistory: true }, {
      code: 4, last: /Charged: 0 credits known, and traders may have been charged/u, charges: 1, then: { code: 3, last: /refused, nothing was sent for it\. Charged: 0 credits\.$/u },
    });
    assert.match(second.stdout, /may already have been charged/u);
  });

  it('a dropped download: the charge is known (exit 1, "Charged: 100 credits"); the next run adopts the paid job, never sends it again', async () => {
    await underFault('download cut short', { truncateDownloads: true }, { code: 1, last: /failed\. Charged: 100 credits\.$/u, charges: 1, then: { code: 0, last: /Charged: 0 credits\.$/u } });
  });

  it('5xx on every request: the submit may have been charged as far as the client can know (exit 4); nothing is sent again', async () => {
    await underFault('5xx on every request', { errorRate: 1 }, { code: 4, last: /may have been charged/u, charges: 0, then: { code: 3, last: /refused, nothing was sent for it/u } });
  });

  it('watch: one run of a watch, its change summary posted to a webhook on a local server, which never receives the key', async () => {
    const sb = await fresh(true);
    const heard: { headers: Record<string, string | string[] | undefined>; body: string }[] = [];
    const server = createServer((req, res) => {
      let body = '';
      req.on('data', (d: Buffer) => (body += d.toString('utf8')));
      req.on('end', () => {
        heard.push({ headers: req.headers, body });
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const port = (server.address() as AddressInfo).port;
      const file: PipelineFile = { version: 1, cells: [{ name: 'trending', call: 'trending', inputs: { hours: 1 } }, { name: 'traders', call: 'toptraders', inputs: { tokens: { from: 'trending', top: 2 }, output: 'txt' } }] };
      const path = writePipeline(mkdtempSync(join(dir, 'watch-')), 'watched', file);
      const args = ['watch', path, '--max-credits', '250', '--base-url', sb.baseUrl, '--notify-url', `http://127.0.0.1:${port}/hook`];
      const first = await runCli(args, env(sb));
      assert.equal(first.code, 0, first.stdout + first.stderr);
      assert.match(first.last, /^watched\.wapipe\.json: first run, \d+ values in “traders”.*Charged: 250 credits\.$/u);
      const second = await runCli(args, env(sb));
      assert.equal(second.code, 0, second.stdout + second.stderr);
      assert.match(second.last, /^watched\.wapipe\.json: (no change|.*new wallet.*|.*gone.*) since \d\d:\d\d UTC\. Done: 2 steps\. Charged: 250 credits\.$/u);
      assert.equal(charged(sb), 500, 'a watch sends every call again');
      assert.equal(heard.length, 2);
      for (const h of heard) {
        assert.equal(h.headers.api_key, undefined, 'no key header');
        assert.ok(!h.body.includes(sb.demoKey) && !JSON.stringify(h.headers).includes(sb.demoKey), 'the key never reaches the webhook');
        assert.equal(h.headers['content-type'], 'application/json');
      }
      const body = JSON.parse(heard[1]?.body ?? '{}') as { text?: string; pipeline?: string; charged?: number };
      assert.equal(body.text, second.last);
      assert.equal(body.pipeline, 'watched.wapipe.json');
      assert.equal(body.charged, 250);
      logs.push('', `$ wallet-analytics watch watched.wapipe.json --max-credits 250 --notify-url http://127.0.0.1:${port}/hook (second run)`, `webhook body: ${heard[1]?.body ?? ''}`);
    } finally {
      server.close();
    }
  });

  it('--help on every command, and bad arguments or files: a clear message, exit 2, nothing sent', async () => {
    const sb = await fresh();
    for (const args of [['--help'], ['run', '--help'], ['watch', '--help']]) {
      const r = await runCli(args);
      assert.equal(r.code, 0);
      assert.match(r.stdout, /wallet-analytics (run|watch)/u);
    }
    const path = writePipeline(mkdtempSync(join(dir, 'bad-')), 'ok', examplePipeline());
    const broken = join(dir, 'broken.wapipe.json');
    writeFileSync(broken, '{"version": 1, "cells": [{"name": "x", "call": "nope", "inputs": {}}]}');
    const cases: [readonly string[], Record<string, string>, RegExp][] = [
      [['fly'], env(sb), /Unknown command/u],
      [['run', path, '--base-url', sb.baseUrl], env(sb), /needs --max-credits/u],
      [['run', path, '--max-credits', 'lots', '--base-url', sb.baseUrl], env(sb), /whole number/u],
      [['run', path, '--max-credits', '10', '--base-url', sb.baseUrl, '--retry'], env(sb), /Unknown option/u],
      [['run', path, '--max-credits', '10', '--base-url', sb.baseUrl], {}, /WA_API_KEY is not set/u],
      [['run', path, '--max-credits', '10', '--base-url', 'http://example.com'], env(sb), /loopback/u],
      [['run', join(dir, 'missing.wapipe.json'), '--max-credits', '10', '--base-url', sb.baseUrl], env(sb), /No such pipeline file/u],
      [['run', broken, '--max-credits', '10', '--base-url', sb.baseUrl], env(sb), /Nothing was sent/u],
      [['watch', path, '--max-credits', '10', '--base-url', sb.baseUrl, '--notify-url', 'http://example.com/hook'], env(sb), /loopback/u],
    ];
    for (const [args, e, message] of cases) {
      const r = await runCli(args, e);
      assert.equal(r.code, 2, `${args.join(' ')}: ${r.stdout}${r.stderr}`);
      assert.match(r.stderr, message);
    }
    assert.equal(sb.received().length, 0, 'nothing reached the sandbox');
  });
});

/** The JUnit report as the JUnit XSD (Jenkins' junit-10) describes it: element order, attribute types, counts that add up. */
function checkJunit(text: string, failures: number): void {
  const root = parseXml(text);
  assert.equal(root.name, 'testsuites');
  const count = (e: XmlElement, a: string): number => {
    assert.match(e.attrs[a] ?? '', /^\d+$/u, `${e.name}@${a} is a count`);
    return Number(e.attrs[a]);
  };
  for (const suite of root.children) {
    assert.equal(suite.name, 'testsuite');
    assert.ok(suite.attrs.name, 'testsuite@name is required');
    assert.match(suite.attrs.time ?? '', /^\d+(\.\d+)?$/u);
    assert.match(suite.attrs.timestamp ?? '', /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$/u, 'an ISO 8601 date and time with no zone');
    // properties?, testcase*, system-out?, system-err?
    const order = suite.children.map((c) => c.name).join(' ');
    assert.match(order, /^(properties )?(testcase ?)*(system-out ?)?(system-err)?$/u, order);
    const cases = suite.children.filter((c) => c.name === 'testcase');
    assert.equal(count(suite, 'tests'), cases.length);
    assert.equal(count(suite, 'failures'), cases.filter((c) => c.children.some((k) => k.name === 'failure')).length);
    assert.equal(count(suite, 'failures'), failures);
    assert.equal(count(suite, 'skipped'), cases.filter((c) => c.children.some((k) => k.name === 'skipped')).length);
    count(suite, 'errors');
    for (const c of cases) {
      assert.ok(c.attrs.name && c.attrs.classname, 'testcase@name and @classname');
      assert.match(c.attrs.time ?? '', /^\d+(\.\d+)?$/u);
      for (const k of c.children) assert.ok(['skipped', 'error', 'failure', 'system-out', 'system-err'].includes(k.name), k.name);
      for (const f of c.children.filter((k) => k.name === 'failure')) assert.ok(f.attrs.message !== undefined && f.attrs.type !== undefined);
    }
    const props = suite.children.find((c) => c.name === 'properties');
    for (const p of props?.children ?? []) assert.ok(p.name === 'property' && p.attrs.name !== undefined && p.attrs.value !== undefined);
  }
  assert.equal(count(root, 'tests'), root.children.reduce((s, x) => s + count(x, 'tests'), 0));
}
