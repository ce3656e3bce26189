/**
 * The MCP server's "run a pipeline file" tool (issue 33: paid tools, running a pipeline file). It
 * is `wallet-analytics run` with another approver: the file is read and checked by the runner's
 * `prepare`, the run is the runner's `runWith` (core/pipeline/run.ts, the plan first, each line's
 * approval issued by the one owner, planApprovals, results beside the file reused unless refresh),
 * sent through a headless host over the file's results folder as `run` builds it. Nothing here
 * sends, prices a call or issues an approval: it only answers runWith's gate, once, with the plan
 * as it will run, before anything is sent:
 * - the plan's total fits what is left of the session's allowance (--max-credits): held there
 *   before anything is sent (so two runs in flight cannot both spend it), then settled to what the
 *   run charged (all of the total when a call may have been charged: never handed back);
 * - beyond it, one question through the client (MCP elicitation): the plan's lines, its total, the
 *   balance after, a box unticked by default; declined, cancelled or unanswered, nothing is sent;
 * - a client that cannot ask is refused, with the total.
 * An agent names the file, so only a .wapipe.json inside the server's working folder or --out's
 * parent is read (symbolic links resolved first): never an arbitrary path.
 */
import { realpath } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import type { ElicitRequestFormParams, ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import { pipelineFileInside, planCeilingRefusal, planQuestionLines, stepLine } from '../core/agents/pipelineRun';
import { toolAnswer } from '../core/agents/toolText';
import { errorText } from '../core/errors';
import { fmtCredits } from '../core/numberText';
import type { Plan } from '../core/pipeline/plan';
import { resultsDirOf } from '../core/pipeline/run';
import { EXIT } from './exitCodes';
import { RunnerHost, type Print } from './host';
import type { PaidDeps, ToolReply } from './mcpPaid';
import { BadInput, prepare, runWith, type RunEnv, type RunReport } from './runCommand';
import { declinedForAgent } from '../core/calls/outcome';

/** What the pipeline tool needs besides a paid call's deps: the connection a run's own host is built with, and where logs go. */
export interface PipelineDeps {
  readonly baseUrl: string;
  readonly env: RunEnv;
  readonly log: Print;
}

/** The files being run now: a second run of the same file waits for no one, it is refused. */
const running = new Set<string>();

/** The real path of a folder, or the folder as given when it does not exist yet. */
const real = (p: string): Promise<string> => realpath(p).catch(() => resolve(p));

/** The file's real path when it is a .wapipe.json inside the working folder or --out's parent (core/agents/pipelineRun.ts); else the refusal's words. */
async function allowedPath(given: string, out: string): Promise<{ path: string } | { refused: string }> {
  const folders = [await real(process.cwd()), await real(dirname(out))];
  return pipelineFileInside(given, folders, `Only a .wapipe.json pipeline file inside the server's working folder (${folders[0] ?? ''}) or the results folder's parent (${folders[1] ?? ''}) can be run.`);
}

/** The person's question: the plan as it will run, its total, the balance after; the box unticked by default. */
function question(path: string, plan: Plan, balance: number | undefined, deps: PaidDeps): ElicitRequestFormParams {
  const shown = planQuestionLines(plan);
  return {
    mode: 'form',
    message: [
      `An AI agent asks to run the pipeline ${path}: ${plan.totalText} in all, the most it can cost (steps whose results are on disk are reused, free).`,
      ...shown,
      balance === undefined ? 'Balance: unknown (the free balance call failed).' : `Balance: ${fmtCredits(balance)}. Balance after: ${fmtCredits(balance - plan.total)} or more.`,
      `The per-call ceiling: ${fmtCredits(deps.ceiling)}. Charged to the key in WA_API_KEY, at ${deps.origin}.`,
    ].join('\n'),
    requestedSchema: { type: 'object', properties: { approve: { type: 'boolean', title: `Run it for ${plan.totalText}`, description: 'Leave unticked, decline or cancel: nothing is sent, nothing is charged.', default: false } }, required: ['approve'] },
  };
}

/** Runs the pipeline file an agent named, under the gate above; the tool's bounded answer. */
export async function runPipelineTool(args: Record<string, unknown>, progress: ((p: number, message: string) => void) | undefined, deps: PaidDeps, p: PipelineDeps): Promise<ToolReply> {
  const refuse = (lines: readonly string[]): ToolReply => ({ text: toolAnswer([...lines, 'Nothing was sent and nothing was charged.']), isError: true });
  const given = typeof args.path === 'string' ? args.path : '';
  const allowed = await allowedPath(given, deps.out);
  if ('refused' in allowed) return refuse([allowed.refused]);
  const path = allowed.path;
  if (running.has(path)) return refuse([`${path} is already running in this session: wait for its answer.`]);
  let read: ReturnType<typeof prepare>;
  try {
    read = prepare({ kind: 'run', file: path, maxCredits: 0, refresh: false, chargeAgain: false, baseUrl: p.baseUrl }, p.env);
  } catch (e) {
    // Its words quote the file's cells: data, not the tool's own.
    if (e instanceof BadInput) return { text: toolAnswer([`${path} cannot be run: Nothing was sent and nothing was charged.`], [e.message]), isError: true };
    throw e;
  }
  const dir = resultsDirOf(path);
  let step = 0;
  const print: Print = (line) => {
    p.log(line);
    progress?.(++step, line);
  };
  const host = new RunnerHost({ baseUrl: read.baseUrl, key: read.key, resultsDir: dir, maxCreditsPerCall: deps.ceiling, chargeAgain: 'never', ackTimeoutMs: p.env.ackTimeoutMs, pollIntervalMs: p.env.pollIntervalMs, print });
  let hold: number | undefined;
  let held = 0;
  let approvedBy: string | undefined;
  /** `whole`: the words already say what was sent and charged (the person declined). */
  let gateRefusal: { readonly words: string; readonly isError: boolean; readonly whole?: boolean } | undefined;
  running.add(path);
  let report: RunReport | undefined;
  try {
    report = await runWith({ maxCredits: 0, refresh: args.refresh === true }, p.env, print, {
      file: read.file, path, dir, host, baseUrl: read.baseUrl,
      gate: async (plan) => {
        const over = planCeilingRefusal(plan, deps.ceiling, '--max-credits-per-call');
        if (over !== undefined) {
          gateRefusal = { words: over, isError: true };
          return gateRefusal.words;
        }
        hold = deps.allowance.hold(plan.total);
        if (hold !== undefined) {
          held = plan.total;
          approvedBy = `this session's allowance (${plan.totalText} held)`;
          return undefined;
        }
        if (!deps.ask) {
          gateRefusal = { words: `Refused: the plan's total (${plan.totalText}) is beyond this session's allowance, and this MCP client cannot ask the person (it has no elicitation), so only runs within --max-credits go on. Ask the person to approve it, or to restart the server with a larger --max-credits.`, isError: true };
          return gateRefusal.words;
        }
        const balance = await host.api.credits().catch(() => undefined);
        const answer = await deps.ask(question(path, plan, balance, deps)).catch((): ElicitResult => ({ action: 'cancel' }));
        if (answer.action !== 'accept' || answer.content?.approve !== true) {
          gateRefusal = { words: declinedForAgent(`Pipeline ${path} (${plan.totalText})`, 'plan'), isError: false, whole: true };
          return gateRefusal.words;
        }
        // Approved by the person, not by the allowance: it spends none of it.
        approvedBy = `the person (${plan.totalText})`;
        return undefined;
      },
    });
  } catch (e) {
    return { text: toolAnswer([`The run of ${path} failed before its answer; it may have charged some steps: check walletAnalytics_history and walletAnalytics_credits (both free) before running it again.`], [errorText(e)]), isError: true };
  } finally {
    running.delete(path);
    // What may have been charged is spent: a run that ended with no clear answer keeps the whole hold.
    if (hold !== undefined) deps.allowance.settle(hold, report === undefined || report.code === EXIT.mayBeCharged ? held : report.charged);
    await host.close();
  }
  const data = [[report.lastLine, ...report.steps.map((s) => stepLine(s, report.plan))].join('\n')];
  if (gateRefusal) return { text: toolAnswer(gateRefusal.whole ? [gateRefusal.words] : [`Pipeline ${path}: ${gateRefusal.words}`, 'Nothing was sent and nothing was charged.']), isError: gateRefusal.isError };
  if (report.steps.length === 0 && report.charged === 0 && report.code === EXIT.refused) return { text: toolAnswer([`Pipeline ${path}: refused before anything was sent (a step has no bound). Nothing was sent and nothing was charged.`], data), isError: true };
  const own = [
    `Pipeline ${path}: charged ${fmtCredits(report.charged)} in all${approvedBy ? `, approved by ${approvedBy}` : ''}.`,
    ...(report.code === EXIT.mayBeCharged ? ['A step may have been charged beyond that: this server never sends it again by itself. Check walletAnalytics_history and walletAnalytics_credits (both free), and tell the person, before anything else.'] : []),
    'Each step below: its name, what it came to (charged, reused, refused), its result’s file.',
  ];
  return { text: toolAnswer(own, data), isError: report.code !== EXIT.done };
}
