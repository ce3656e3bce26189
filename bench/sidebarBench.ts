/**
 * Sidebar budget, measured (writes bench/RESULTS-sidebar.md):
 *   a history of 5,000 requests renders its first level in ≤ 100 ms of extension-host time.
 *
 * The history comes from a real sandbox (seedHistory(5000), GET /requests over loopback, parsed
 * by the extension's client), merged with 20 local jobs (5 pending). "Rendering the first level" is
 * what the Requests view does when it opens: merge server and local records, group them, list
 * the root (the groups) and the first page of every group that opens expanded, and compute
 * each of those rows (label, description, icon, context value) as getTreeItem does. Everything
 * but the TreeItem objects themselves runs here exactly as in the extension host (src/core/history).
 *
 *   npm run bench:sidebar    (node esbuild.mjs --tests && node out/bench/sidebarBench.js)
 */
import { writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { resolve } from 'node:path';
import { WalletAnalyticsApi } from '../src/core/transport/api';
import { mergeHistory } from '../src/core/history/merge';
import { GROUPS, HistoryModel, contextValueOf, rowIcon, rowText } from '../src/core/history/model';
import { isZipItem } from '../src/core/results/kinds';
import type { JobRecord } from '../src/core/jobs/job';
import type { RequestRecord } from '../src/core/spec/wire';
import { startSandbox } from '../src/sandbox';

const N = 5_000;
const BUDGET_MS = 100;
const RUNS = 30;

interface Row {
  label: string;
  description: string;
  icon: string;
  contextValue: string;
  collapsible: boolean;
}

/** What the Requests view computes when it opens: returns the rows it would hand to VS Code. */
function renderFirstLevel(records: readonly RequestRecord[], local: readonly JobRecord[], baseUrl: string): { groups: number; rows: Row[] } {
  const model = new HistoryModel();
  const now = Date.now();
  model.update(mergeHistory(records, local, baseUrl), now);
  const groups = model.groups();
  const rows: Row[] = [];
  for (const g of groups) {
    rows.push({ label: g.label, description: String(g.count), icon: '', contextValue: `group ${g.id}`, collapsible: true });
    if (!GROUPS.find((x) => x.id === g.id)?.expanded) continue;
    for (const item of model.page(g.id).items) {
      const t = rowText(item, g.id, now);
      rows.push({ label: t.label, description: t.description, icon: rowIcon(item), contextValue: contextValueOf(item), collapsible: isZipItem(item) });
    }
  }
  return { groups: groups.length, rows };
}

/** Wall time and CPU time (user + system, this process) of f, in ms. */
function timed(f: () => void): { wall: number; cpu: number } {
  const c0 = process.cpuUsage();
  const t0 = performance.now();
  f();
  const wall = performance.now() - t0;
  const c = process.cpuUsage(c0);
  return { wall, cpu: (c.user + c.system) / 1000 };
}

function stats(xs: number[]): { median: number; p95: number; max: number } {
  const s = [...xs].sort((a, b) => a - b);
  const at = (q: number) => s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? NaN;
  return { median: at(0.5), p95: at(0.95), max: s[s.length - 1] ?? NaN };
}

async function main(): Promise<void> {
  const sb = await startSandbox({ port: 0, wallets: 2_000, altWallets: 500 });
  try {
    sb.seedHistory(N);
    const api = new WalletAnalyticsApi({ baseUrl: sb.baseUrl, apiKey: () => Promise.resolve(sb.demoKey) });
    const t0 = performance.now();
    const records = await api.requests();
    const fetchMs = performance.now() - t0;
    const bytes = JSON.stringify(records).length;
    const local: JobRecord[] = records.slice(0, 20).map((r, i) => ({
      requestId: i < 15 ? r.requestId : `req_local${i}`,
      endpointId: r.endpoint ?? 'trending',
      inputs: r.inputs ?? {},
      cost: r.cost ?? 0,
      baseUrl: sb.baseUrl,
      profileId: 'default',
      submittedAt: new Date(Date.now() - i * 1000).toISOString(),
      state: i < 15 ? 'done' : 'pending',
      ...(i < 15 ? { url: r.url, resultPath: `/results/${r.requestId}` } : {}),
    }));
    let first = { groups: 0, rows: [] as Row[] };
    const cold = timed(() => (first = renderFirstLevel(records, local, sb.baseUrl)));
    const walls: number[] = [];
    const cpuTimes: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const t = timed(() => renderFirstLevel(records, local, sb.baseUrl));
      walls.push(t.wall);
      cpuTimes.push(t.cpu);
    }
    // An update with nothing changed (every poll while the view is open) and one job done.
    const model = new HistoryModel();
    model.update(mergeHistory(records, local, sb.baseUrl), Date.now());
    const u0 = performance.now();
    const same = model.update(mergeHistory(records, local, sb.baseUrl), Date.now());
    const updateMs = performance.now() - u0;
    const w = stats(walls);
    const c = stats(cpuTimes);
    // The budget is extension-host time: the CPU the host spends (other processes on the machine
    // stretch wall time, not the work). Wall time is reported beside it, with the load it ran under.
    const verdict = cold.cpu <= BUDGET_MS && c.p95 <= BUDGET_MS ? 'met' : 'NOT met';
    const load = loadavg()[0]?.toFixed(1) ?? '?';
    const date = new Date().toISOString().slice(0, 10);
    const cpu = cpus()[0]?.model.trim() ?? 'unknown CPU';
    const text = `# Sidebar benchmark

Measured ${date} on ${cpu} (${cpus().length} cores), Node ${process.version}, by \`npm run bench:sidebar\` (bench/sidebarBench.ts).

A history of ${N.toLocaleString('en-US')} requests from a sandbox (\`seedHistory(${N})\`, \`GET /requests\` over loopback), merged with 20 local jobs (5 still pending).
"First level" is what the Requests view computes when it opens: merge server and local records, group them, list the ${first.groups} groups and the first page (200) of each group that opens expanded, and every one of those rows (label, short inputs, time, cost, icon, context value) — ${first.rows.length} rows in all. Groups further down ("Earlier") are shown a page of 200 at a time, so a longer history adds no rows here.

| Budget | Measured | Verdict |
| --- | --- | --- |
| First level of ${N.toLocaleString('en-US')} requests ≤ ${BUDGET_MS} ms of extension-host time (CPU) | first (cold) ${cold.cpu.toFixed(1)} ms; then over ${RUNS} runs median ${c.median.toFixed(1)} ms, p95 ${c.p95.toFixed(1)} ms, max ${c.max.toFixed(1)} ms | ≤ ${BUDGET_MS}: ${verdict} |
| The same, wall clock (1-minute load average ${load} on ${cpus().length} cores) | first (cold) ${cold.wall.toFixed(1)} ms; median ${w.median.toFixed(1)} ms, p95 ${w.p95.toFixed(1)} ms, max ${w.max.toFixed(1)} ms | for reference |

Also measured: \`GET /requests\` of ${N.toLocaleString('en-US')} records (${(bytes / 1e6).toFixed(1)} MB of JSON) over loopback, parsed and validated by the client: ${fetchMs.toFixed(1)} ms, the sandbox serialising them in the same process included (before any rendering; at most once per interval, shared by every view and the poller). A poll that changes nothing: ${updateMs.toFixed(1)} ms, and it fires no tree change (${same.root || same.groups.length || same.items.length ? 'it did fire' : 'nothing fired'}).

In the extension host itself the integration test \`sidebar: …\` times the real provider on the same history (see its report line "first level of 5,000 requests").
`;
    process.stdout.write(text);
    writeFileSync(resolve(process.cwd(), 'bench/RESULTS-sidebar.md'), text);
    if (verdict !== 'met') process.exitCode = 1;
  } finally {
    await sb.close();
  }
}

void main();
