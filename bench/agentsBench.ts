/**
 * `npm run bench:agents`: an AI agent's tool's own time over the API's (issue 33), for the two
 * answers an agent asks most:
 *
 * - a price answer: the tool's own work (inputs checked, quoted, gated, its words; core/agents/
 *   priceFacts.ts and toolText.ts) against the API call the tool makes for it (the free GET
 *   /credits, for the balance after) on the sandbox over loopback;
 * - a result read on the 722 MB file: the tool's answer (core/agents/resultText.ts: open in the
 *   table worker, index, the top 10 rows by a column or a column's profile, bounded text) against
 *   the table engine doing the same reads alone (RemoteTable: open, index, the same sort and window).
 *
 * Budgets: the price tool's own work ≤ 0.25 × the API call's; the result read ≤ 1.05 × the engine's
 * (the tool adds only its text). Figures go to bench/RESULTS-agents.md.
 *
 *   npm run bench:agents                                  # generates bench/data/wallets-100000-seed1.csv on first use
 *   node out/bench/agentsBench.js --file some.csv         # another file
 */
import { existsSync, statSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { cpus, loadavg } from 'node:os';
import { dirname, join } from 'node:path';
import { agentPriceFacts } from '../src/core/agents/priceFacts';
import { readResultText } from '../src/core/agents/resultText';
import { toolAnswer } from '../src/core/agents/toolText';
import { allowanceState } from '../src/core/money/agentAllowance';
import { budgetStates } from '../src/core/money/budget';
import { endpoint } from '../src/core/spec/catalog';
import { sampleAddress } from '../src/core/spec/samples';
import { RemoteTable } from '../src/core/table/remoteTable';
import { WalletAnalyticsApi } from '../src/core/transport/api';
import { startSandbox } from '../src/sandbox';
import { generateWalletCsv } from './tableData';

const args = process.argv.slice(2);
const arg = (name: string, fallback: string): string => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? (args[i + 1] ?? fallback) : fallback;
};
const root = repoRoot();
const file = arg('file', join(root, 'bench', 'data', 'wallets-100000-seed1.csv'));
const rounds = Number(arg('rounds', '3'));
const workerFile = join(root, 'dist', 'tableWorker.js');
const BUDGET = { price: 0.25, read: 1.05 };

function repoRoot(): string {
  for (let d = __dirname; dirname(d) !== d; d = dirname(d)) if (existsSync(join(d, 'package.json'))) return d;
  throw new Error(`no package.json above ${__dirname}`);
}

const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? 0;
};

async function timed<T>(f: () => Promise<T>): Promise<[number, T]> {
  const t0 = performance.now();
  const v = await f();
  return [performance.now() - t0, v];
}

/** The price answer: the tool's own work per call, and the GET /credits it makes, each the median of many. */
async function priceBench(): Promise<{ own: number; api: number }> {
  const sb = await startSandbox({ port: 0 });
  try {
    const api = new WalletAnalyticsApi({ baseUrl: sb.baseUrl, apiKey: () => Promise.resolve(sb.demoKey) });
    const ep = endpoint('toptraders');
    const input = { tokens: Array.from({ length: 20 }, (_, i) => sampleAddress('main', i + 1)), output: 'txt' };
    const now = Date.now();
    const ledger = Array.from({ length: 2_000 }, (_, i) => ({ credits: 50, at: now - i * 60_000, scope: 's' }));
    const apiMs: number[] = [];
    const ownMs: number[] = [];
    for (let i = 0; i < 200; i++) {
      const [a, balance] = await timed(() => api.credits());
      apiMs.push(a);
      const t0 = performance.now();
      const budgets = budgetStates({ perDay: 1_000_000, perPeriod: 10_000_000 }, ledger, 's', now, undefined);
      const f = agentPriceFacts(ep, input, { balance, settings: { confirmAbove: 1_000, maxCreditsPerCall: 1_000_000 }, budgets, allowance: allowanceState(5_000, ledger, 's', now) });
      if ('problems' in f) throw new Error(f.problems.join(' '));
      toolAnswer(f.lines);
      ownMs.push(performance.now() - t0);
    }
    return { own: median(ownMs.slice(20)), api: median(apiMs.slice(20)) };
  } finally {
    await sb.close();
  }
}

/** The engine alone: open, index, the same sort and a window of 10 rows × 8 columns (or the profile). */
async function engineRead(sortColumn: number, profile: boolean): Promise<number> {
  const [ms] = await timed(async () => {
    const t = await RemoteTable.open(file, { prepareColumns: false, workerFile });
    try {
      await t.indexed;
      if (profile) await t.profile(sortColumn);
      else {
        await t.apply({ sort: [{ column: sortColumn, descending: true }] });
        await t.window(0, 10, t.columns.slice(0, 8).map((_, i) => i));
      }
    } finally {
      await t.close();
    }
  });
  return ms;
}

async function main(): Promise<void> {
  await generateWalletCsv(file, 100_000, 1);
  const bytes = statSync(file).size;
  const header = await RemoteTable.open(file, { prepareColumns: false, workerFile });
  const columns = header.columns;
  await header.close();
  const sortBy = columns.find((c) => /pnl/iu.test(c)) ?? columns[1] ?? columns[0] ?? '';
  const sortColumn = columns.indexOf(sortBy);
  const price = await priceBench();
  const rows: { what: string; tool: number; engine: number }[] = [];
  for (const profile of [false, true]) {
    const tool: number[] = [];
    const engine: number[] = [];
    for (let r = 0; r < rounds; r++) {
      // Turn about, so neither always reads after the other (the page cache, the worker pool).
      const readTool = async () => tool.push((await timed(() => readResultText(profile ? { path: file, profile: sortBy } : { path: file, rows: 10, sortBy }, { workerFile, openHint: (p) => p })))[0]);
      if (r % 2 === 0) {
        engine.push(await engineRead(sortColumn, profile));
        await readTool();
      } else {
        await readTool();
        engine.push(await engineRead(sortColumn, profile));
      }
    }
    rows.push({ what: profile ? `profile of “${sortBy}”` : `top 10 rows by “${sortBy}”`, tool: median(tool), engine: median(engine) });
  }
  const verdict = (ok: boolean): string => (ok ? 'PASS' : 'FAIL');
  const priceRatio = price.own / price.api;
  const lines = [
    `# Agents' tools: their own time over the API's (npm run bench:agents)`,
    '',
    `${new Date().toISOString()} · node ${process.version} · ${cpus().length} cores · load ${loadavg().map((l) => l.toFixed(1)).join(' ')} · ${(bytes / 1e6).toFixed(0)} MB file, ${rounds} rounds (medians)`,
    '',
    '| Answer | Tool | API / engine | Tool ÷ API | Budget | |',
    '| --- | --- | --- | --- | --- | --- |',
    `| Price of a call (20 tokens): own work vs GET /credits | ${price.own.toFixed(3)} ms | ${price.api.toFixed(2)} ms | ${priceRatio.toFixed(3)} | ≤ ${BUDGET.price} | ${verdict(priceRatio <= BUDGET.price)} |`,
    ...rows.map((r) => `| Read ${r.what} on the ${(bytes / 1e6).toFixed(0)} MB file | ${(r.tool / 1000).toFixed(2)} s | ${(r.engine / 1000).toFixed(2)} s | ${(r.tool / r.engine).toFixed(3)} | ≤ ${BUDGET.read} | ${verdict(r.tool / r.engine <= BUDGET.read)} |`),
    '',
  ];
  const text = lines.join('\n');
  console.log(text);
  for (const r of rows) console.log(`${verdict(r.tool / r.engine <= BUDGET.read)}  Agent read, ${r.what}: ${(r.tool / r.engine).toFixed(3)} × the engine (budget ≤ ${BUDGET.read})`);
  console.log(`${verdict(priceRatio <= BUDGET.price)}  Agent price: own work ${(priceRatio).toFixed(3)} × the API call (budget ≤ ${BUDGET.price})`);
  await writeFile(join(root, 'bench', 'RESULTS-agents.md'), text);
}

void main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
