/**
 * `wallet-analytics run` and `watch` (issue 32): a pipeline run with the editor's own code, the
 * plan and its total printed first. The plan is the approval: its total must be within
 * --max-credits before anything is sent, and then the one owner of approval
 * (core/money/approval.ts planApprovals) issues each line's approval, exactly as the notebook does
 * after the person's click on the plan. Nothing here decides a price again: the run is
 * core/pipeline/run.ts, each call goes through the headless host (src/runner/host.ts), and the
 * results are kept beside the pipeline as the editor keeps them, so either reuses the other's.
 */
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { mayHaveBeenCharged, refusedBeforeSending, toldOutcome } from '../core/calls/outcome';
import { errorText } from '../core/errors';
import { planApprovals } from '../core/money/approval';
import { checkPipeline, parsePipeline, type PipelineFile } from '../core/pipeline/format';
import { planText, type Plan } from '../core/pipeline/plan';
import { planOnDisk, resultsDirOf, runPipeline, type LastAnswer } from '../core/pipeline/run';
import { checkUrl } from '../core/transport/http';
import type { Command } from './args';
import { EXIT, type ExitCode } from './exitCodes';
import { RunnerHost, type Print } from './host';
import type { StepReport } from './junit';
import { fmtCredits, thousands } from '../core/numberText';
import { stepOf } from '../core/agents/pipelineRun';

type RunCommand = Extract<Command, { kind: 'run' | 'watch' }>;

/** What a run came to, for the last line, the exit code, the JUnit report and a watch's summary. */
export interface RunReport {
  readonly code: ExitCode;
  readonly charged: number;
  readonly steps: readonly StepReport[];
  readonly lastLine: string;
  readonly plan?: Plan;
}

/** The environment the runner reads: the key, and the acknowledgement window. */
export interface RunEnv {
  readonly key: string | undefined;
  readonly baseUrl: string | undefined;
  readonly ackTimeoutMs: number;
  readonly pollIntervalMs: number;
  /** The table worker's file: the runner's own bundle, which is also the worker. */
  readonly workerFile: string;
}

/** A bad argument, file or environment, found before anything is sent: the message for exit 2. */
export class BadInput extends Error {}

/** The key (WA_API_KEY only) and the base URL (--base-url, else WA_BASE_URL), checked before anything is sent; throws BadInput. */
export function connectionOf(given: string | undefined, env: RunEnv): { baseUrl: string; key: string } {
  const key = env.key?.trim();
  if (!key) throw new BadInput('WA_API_KEY is not set: the key is read from that environment variable only (never from a file or an argument).');
  const baseUrl = given ?? env.baseUrl;
  if (!baseUrl) throw new BadInput('No base URL: give --base-url URL (the exported workflow passes it), or set WA_BASE_URL.');
  try {
    checkUrl(baseUrl, 'base URL');
  } catch (e) {
    throw new BadInput(errorText(e));
  }
  return { baseUrl, key };
}

/** Reads and checks everything a run needs before anything is sent; throws BadInput. */
export function prepare(cmd: RunCommand, env: RunEnv): { file: PipelineFile; path: string; baseUrl: string; key: string } {
  const { baseUrl, key } = connectionOf(cmd.baseUrl, env);
  const path = resolve(cmd.file);
  if (!existsSync(path)) throw new BadInput(`No such pipeline file: ${path}`);
  let file: PipelineFile;
  try {
    file = parsePipeline(readFileSync(path, 'utf8'));
  } catch (e) {
    throw new BadInput(`${path}: ${errorText(e)}`);
  }
  const problems = checkPipeline(file);
  if (problems.length > 0) throw new BadInput(`${path}: ${toldOutcome({ status: 'invalid', errors: problems.map((p) => `${p.name ?? `cell ${p.index + 1}`}: ${p.message}`) }, 'commandLine').message}`);
  if (!file.cells.some((c) => typeof c !== 'string')) throw new BadInput(`${path} has no steps. Nothing was sent.`);
  return { file, path, baseUrl, key };
}

/** Runs the pipeline under its plan; prints the plan, each step and request, and the last line. */
export async function runCommand(cmd: RunCommand, env: RunEnv, print: Print): Promise<RunReport> {
  const { file, path, baseUrl, key } = prepare(cmd, env);
  const dir = resultsDirOf(path);
  const host = new RunnerHost({ baseUrl, key, resultsDir: dir, maxCreditsPerCall: cmd.maxCredits, chargeAgain: cmd.chargeAgain, ackTimeoutMs: env.ackTimeoutMs, pollIntervalMs: env.pollIntervalMs, print });
  try {
    return await runWith(cmd, env, print, { file, path, dir, host, baseUrl });
  } finally {
    await host.close();
  }
}

/**
 * How a run's plan is approved when not by --max-credits (the MCP server's pipeline tool: the
 * session's allowance, else the person's answer): undefined to go on, or the refusal's words.
 * Called once, with the plan as it will run, before anything is sent.
 */
type PlanGate = (plan: Plan) => Promise<string | undefined>;

/** A pipeline run under its plan, once the file is read and the host built: `run`'s, `watch`'s, and the MCP server's pipeline tool's. */
export async function runWith(cmd: Pick<RunCommand, 'maxCredits' | 'refresh'>, env: Pick<RunEnv, 'workerFile'>, print: Print, o: { file: PipelineFile; path: string; dir: string; host: RunnerHost; baseUrl: string; gate?: PlanGate }): Promise<RunReport> {
  const { file, dir, host } = o;
  const names = file.cells.flatMap((c) => (typeof c === 'string' ? [] : [c.name]));
  const refresh = cmd.refresh ? new Set(names) : undefined;
  const lastAnswer: LastAnswer = (ep, body) => host.queryRuns.lookup(host.scope, ep.chain, body);
  const roots = [host.callsDir];
  const plan = await planOnDisk(file, dir, refresh, lastAnswer, Date.now, roots);
  print(`Plan for ${o.path} (${o.baseUrl}):`);
  for (const line of planText(plan)) print(`  ${line}`);
  const steps: StepReport[] = [];
  if (plan.unbounded.length > 0) {
    const last = refusedBeforeSending(`Refused: ${plan.unbounded.join(', ')} has no bound before it runs (a Wallet Database query whose match count is not known this hour).`);
    return { code: EXIT.refused, charged: 0, steps, lastLine: last, plan };
  }
  const refusal = o.gate ? await o.gate(plan) : plan.total > cmd.maxCredits ? `Refused: the plan's total (${plan.totalText}) is above --max-credits ${thousands(cmd.maxCredits)}.` : undefined;
  if (refusal !== undefined) return { code: EXIT.refused, charged: 0, steps, lastLine: refusedBeforeSending(refusal), plan };
  if (!o.gate) print(`Approved by --max-credits ${thousands(cmd.maxCredits)}: each step may spend up to its line.`);
  // The person's approval, given up front: the owner issues each line's approval, bound to its cell as written.
  const approvals = planApprovals(plan.lines, file.cells.flatMap((c) => (typeof c !== 'string' && 'call' in c ? [c] : [])));
  const started = new Map<string, number>();
  let refused = false;
  const notSent = new Set<string>();
  const summary = await runPipeline(file, {
    dir, roots, plan, approvals, lastAnswer,
    call: async (cell, ep, input, approval) => {
      const r = await host.call(cell, ep, input, approval);
      if (r.status === 'stopped' && r.notSent) {
        refused = true;
        notSent.add(cell.name);
      }
      return r;
    },
    adopt: (requestId) => host.adopt(requestId),
    read: { workerFile: env.workerFile },
    ...(refresh ? { refresh } : {}),
    onEvent: (e) => {
      if (e.kind === 'running') {
        started.set(e.cell, Date.now());
        const line = plan.lines.find((l) => l.cell === e.cell);
        print(`▶ ${e.cell}${line ? ` (${line.endpointId}: ${line.text})` : ''}`);
        return;
      }
      const ms = Date.now() - (started.get(e.cell) ?? Date.now());
      if (e.kind === 'done') {
        print(`${e.reused ? '↺' : '✓'} ${e.cell}: ${e.reused ? 'reused, free' : fmtCredits(e.record.credits)}, ${thousands(e.record.size)} values → ${e.record.resultPath}`);
      } else print(`✗ ${e.cell}: ${e.message}`);
      steps.push({ ...stepOf(e, notSent.has(e.cell)), ms });
    },
  });
  for (const n of names) if (!steps.some((s) => s.name === n)) steps.push({ name: n, ms: 0, outcome: 'skipped', text: 'Not run: the run stopped before this step.' });
  const charged = fmtCredits(summary.charged);
  if (host.mayBeCharged.length > 0) {
    return { code: EXIT.mayBeCharged, charged: summary.charged, steps, plan, lastLine: `Stopped at “${summary.stopped?.cell ?? host.mayBeCharged[0]}”. Charged: ${charged} known, and ${mayHaveBeenCharged(host.mayBeCharged)}` };
  }
  if (summary.stopped) {
    return { code: refused ? EXIT.refused : EXIT.failed, charged: summary.charged, steps, plan, lastLine: `Stopped at “${summary.stopped.cell}”: ${refused ? 'refused, nothing was sent for it' : 'failed'}. Charged: ${charged}.` };
  }
  return { code: EXIT.done, charged: summary.charged, steps, plan, lastLine: `Done: ${names.length} step${names.length === 1 ? '' : 's'}. Charged: ${charged}.` };
}
