/**
 * The paid tool "run a pipeline file" in VS Code (issue 33 item 1): a `.wapipe.json` inside the
 * workspace run outside the notebook, as its Run All would run it. Nothing here prices a call,
 * decides an approval or sends: the plan is core/pipeline's (planOnDisk: results beside the file
 * reused, this hour's Wallet Database answers free), the plan's approvals the one owner's
 * (core/money/approval.ts planApprovals), the run core/pipeline/run.ts with every call through the
 * notebook's own cell call (callCell → CallService.run: the price step, the ceiling and budgets per
 * step, reconciliation, the ledger, the results folder). What the MCP server's pipeline tool does
 * too (the file's place, the ceiling refusal, the plan's facts, each step's line) is
 * core/agents/pipelineRun.ts.
 *
 * The person sees one price question, never two, and never none outside the allowance, as for a
 * paid endpoint's tool (paidTool.ts):
 * - prepareInvocation: when the agent allowance leaves the plan's whole total (every line bounded,
 *   none above the ceiling) it returns the chat's confirmation with the plan's price, the balance
 *   after, the ceiling, each budget and the allowance; otherwise only a line that the price step asks.
 * - invoke decides again: only a call with a chat's token may spend the allowance (held before
 *   anything is sent, then what was charged recorded); otherwise the extension asks the person the
 *   plan, Cancel the default. A Wallet Database step of unknown count is never covered: its own
 *   price step asks in the palette's words when it comes to run.
 * Only a file inside the workspace is read, and a step above the ceiling refuses the whole run,
 * before anything is priced for the person or sent.
 *
 * Progress: VS Code 1.100's stable tool API gives invoke no progress in the chat
 * (LanguageModelToolInvocationOptions holds input, toolInvocationToken and tokenizationOptions
 * only), so a run's steps show in the window's status bar while the chat shows the tool's
 * invocationMessage.
 */
import { readFile, realpath } from 'node:fs/promises';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { findEndpoint } from '../../core/spec/catalog';
import { parsePipeline, checkPipeline, type PipelineFile } from '../../core/pipeline/format';
import type { Plan } from '../../core/pipeline/plan';
import { planOnDisk, resultsDirOf, runPipeline, type LastAnswer } from '../../core/pipeline/run';
import { planApprovals } from '../../core/money/approval';
import { pipelineFileInside, planCeilingRefusal, planPriceFacts, stepLine, stepOf, type StepOutcome } from '../../core/agents/pipelineRun';
import { toolAnswer } from '../../core/agents/toolText';
import { errorText } from '../../core/errors';
import { SettingIds } from '../../core/ids';
import { fmtCredits } from '../../core/numberText';
import type { JobStore } from '../../core/jobs/store';
import { CommandIds } from '../base/ids';
import { readSettings } from '../base/settings';
import type { PriceQuestions } from '../calls/priceStep';
import { adoptJob, callCell } from '../pipeline/pipelineNotebook';
import { abortOn, type PaidToolDeps } from './paidTool';
import { l10n } from '../../shared/l10n';
import { declinedForAgent } from '../../core/calls/outcome';

type Input = Record<string, unknown>;

export interface PipelineToolDeps extends PaidToolDeps {
  /** The price step's questions: the person's answer when the allowance does not cover the plan. */
  readonly questions: PriceQuestions;
  /** The job store as it is now (a queued step's file is waited for there). */
  readonly store: () => JobStore;
}

/** A refusal before anything is sent: the tool's own words, and what came from the file (data). */
interface Refusal {
  readonly own: readonly string[];
  readonly data?: readonly string[];
}

/** A pipeline file read and planned as it stands on disk, ready to run. */
interface Planned {
  readonly path: string;
  readonly name: string;
  readonly file: PipelineFile;
  readonly dir: string;
  readonly roots: readonly string[];
  readonly plan: Plan;
  readonly refresh?: ReadonlySet<string>;
  readonly lastAnswer?: LastAnswer;
  /** Wallet Database steps of unknown count: never covered, their own price step asks. */
  readonly askAlone: ReadonlySet<string>;
  readonly lines: readonly string[];
  readonly covered: boolean;
}

/** The workspace's folders as real paths: the only place an agent's pipeline file is read from. */
async function workspaceFolders(): Promise<string[]> {
  const folders = (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => f.uri.fsPath);
  return Promise.all(folders.map((f) => realpath(f).catch(() => path.resolve(f))));
}

/** Reads, checks and plans the file an agent named, or says why not (nothing priced for the person, nothing sent). */
async function planFile(input: Input, deps: PipelineToolDeps): Promise<Planned | Refusal> {
  const folders = await workspaceFolders();
  const given = typeof input.path === 'string' ? input.path : '';
  const allowed = await pipelineFileInside(given, folders, l10n.t('Only a .wapipe.json pipeline file inside the workspace ({0}) can be run.', folders.length > 0 ? folders.join(', ') : l10n.t('no folder is open')));
  if ('refused' in allowed) return { own: [allowed.refused] };
  const file = allowed.path;
  const name = path.basename(file);
  let pipeline: PipelineFile;
  try {
    pipeline = parsePipeline(await readFile(file, 'utf8'));
  } catch (e) {
    return { own: [l10n.t('{0} is not a pipeline the extension can run.', name)], data: [errorText(e)] };
  }
  const problems = checkPipeline(pipeline);
  // Its words quote the file's cells: data, not the tool's own.
  if (problems.length > 0) return { own: [l10n.t('{0} cannot be run: a step does not pass the checks.', name)], data: [problems.map((p) => `${p.name ?? `cell ${p.index + 1}`}: ${p.message}`).join('\n')] };
  const scope = deps.connection.scope();
  const runs = deps.queryRuns;
  const lastAnswer: LastAnswer | undefined = runs ? (ep, body) => runs.lookup(scope, ep.chain, body) : undefined;
  const refresh = input.refresh === true ? new Set(pipeline.cells.flatMap((c) => (typeof c === 'string' ? [] : [c.name]))) : undefined;
  const dir = resultsDirOf(file);
  const roots = [deps.jobs.folder()];
  const plan = await planOnDisk(pipeline, dir, refresh, lastAnswer, Date.now, roots);
  const askAlone = new Set<string>();
  for (const l of plan.lines.filter((x) => !x.bounded)) {
    if (findEndpoint(l.endpointId)?.price.kind !== 'perMatch') return { own: [l10n.t('{0} cannot be run: a step has no bound on its price.', name)], data: [`${l.cell}: ${l.text}`] };
    askAlone.add(l.cell);
  }
  const s = readSettings();
  const over = planCeilingRefusal(plan, s.maxCreditsPerCall, SettingIds.maxCreditsPerCall);
  if (over !== undefined) return { own: [l10n.t('Pipeline {0}: {1}', name, over)] };
  let balance: number | undefined;
  try {
    balance = await deps.credits.get(60_000, scope);
  } catch {
    balance = deps.credits.peek(scope)?.value;
  }
  const allowance = deps.allowance.state(scope);
  const facts = planPriceFacts(plan, { ceiling: s.maxCreditsPerCall, budgets: deps.credits.budgets(s.budgets, scope), ...(balance !== undefined ? { balance } : {}), ...(allowance ? { allowance } : {}) });
  return { path: file, name, file: pipeline, dir, roots, plan, askAlone, lines: facts.lines, covered: facts.covered, ...(refresh ? { refresh } : {}), ...(lastAnswer ? { lastAnswer } : {}) };
}

const answer = (text: string): vscode.LanguageModelToolResult => new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(text)]);
const nothing = (): string => l10n.t('Nothing was sent and nothing was charged.');

/** The language-model tool that runs a pipeline file. */
export function pipelineTool(deps: PipelineToolDeps): vscode.LanguageModelTool<Input> {
  return {
    async prepareInvocation(options) {
      const p = await planFile(options.input ?? {}, deps);
      if (!('plan' in p)) return { invocationMessage: p.own.join(' ') };
      const unbounded = p.askAlone.size > 0 ? ` ${l10n.t('A Wallet Database step has no bound: its price step asks the person when it runs.')}` : '';
      if (p.covered && p.askAlone.size === 0) {
        const message = new vscode.MarkdownString([...p.lines, '', l10n.t('Within the agent allowance: this is the only question. Each step may spend up to its line; the ceiling and the budgets hold for each.')].join('\n\n'));
        return { invocationMessage: l10n.t('Running the pipeline {0} for {1}', p.name, p.plan.totalText), confirmationMessages: { title: l10n.t('Run the pipeline {0} for {1}?', p.name, p.plan.totalText), message } };
      }
      if (p.plan.total === 0) return { invocationMessage: l10n.t('Running the pipeline {0}: nothing to pay for the steps planned.{1}', p.name, unbounded) };
      return { invocationMessage: l10n.t('The pipeline {0}: {1}. Beyond the agent allowance: the extension’s price step asks the person (Cancel is the default).{2}', p.name, p.plan.totalText, unbounded) };
    },

    async invoke(options, token) {
      const p = await planFile(options.input ?? {}, deps);
      if (!('plan' in p)) return answer(toolAnswer([...p.own, nothing()], p.data ?? []));
      const scope = deps.connection.scope();
      const fromChat = options.toolInvocationToken !== undefined;
      let hold: string | undefined;
      let approvedBy: string | undefined;
      if (p.plan.total > 0) {
        // The allowance is spent only by a call from a chat, held before anything is sent.
        if (fromChat && p.covered) hold = await deps.allowance.hold('pipeline', p.plan.total, scope);
        if (hold !== undefined) approvedBy = l10n.t('the agent allowance ({0} held)', p.plan.totalText);
        else {
          const ok = await deps.questions.ask({
            kind: 'modal', why: 'confirm', endpointId: 'pipeline', to: deps.connection.label(),
            message: l10n.t('An AI agent asks to run the pipeline {0}: {1}', p.name, p.plan.totalText),
            detail: l10n.t('{0}\n\nEach step may spend up to its line; one that would cost more stops the run. Charged to {1}.', p.lines.join('\n'), deps.connection.label()),
            yes: l10n.t('Approve Plan and Run'),
            pick: { label: l10n.t('Approve Plan and Run ({0})', p.plan.totalText), description: l10n.t('an AI agent asks'), detail: p.lines.join(' · ') },
          });
          if (!ok) return answer(toolAnswer([declinedForAgent(l10n.t('Pipeline {0} ({1})', p.name, p.plan.totalText), 'plan')]));
          approvedBy = l10n.t('the person ({0})', p.plan.totalText);
        }
      }
      try {
        return answer(await runPlanned(p, { approvedBy, byAllowance: hold !== undefined }, deps, token));
      } finally {
        if (hold !== undefined) await deps.allowance.release(hold);
      }
    },
  };
}

/** Runs the planned file under its approvals; the tool's bounded answer. Records what the allowance paid. */
async function runPlanned(p: Planned, by: { readonly approvedBy: string | undefined; readonly byAllowance: boolean }, deps: PipelineToolDeps, token: vscode.CancellationToken): Promise<string> {
  const { approvedBy } = by;
  const cells = p.file.cells.flatMap((c) => (typeof c !== 'string' && 'call' in c ? [c] : []));
  // The person's (or the allowance's) approval of the plan: the owner issues each bounded line's, bound to its cell as written.
  const approvals = planApprovals(p.plan.lines.filter((l) => l.bounded), cells);
  const signal = abortOn(token);
  const steps: StepOutcome[] = [];
  const notSent = new Set<string>();
  const summary = await vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title: l10n.t('Pipeline {0}', p.name) }, (progress) =>
    runPipeline(p.file, {
      dir: p.dir, roots: p.roots, plan: p.plan, approvals, signal,
      ...(p.refresh ? { refresh: p.refresh } : {}),
      ...(p.lastAnswer ? { lastAnswer: p.lastAnswer } : {}),
      ...(p.askAlone.size > 0 ? { askAlone: p.askAlone } : {}),
      adopt: (requestId, s) => adoptJob(deps.store(), requestId, s ?? signal),
      call: async (cell, ep, input, approval) => {
        const r = await callCell(deps, ep, input, approval, signal);
        if (r.status === 'stopped' && r.notSent) notSent.add(cell.name);
        return r;
      },
      onEvent: (e) => {
        if (e.kind === 'running') progress.report({ message: e.cell });
        else steps.push(stepOf(e, notSent.has(e.cell)));
      },
    }),
  );
  if (by.byAllowance && summary.charged > 0) await deps.allowance.record('pipeline', summary.charged, deps.connection.scope());
  for (const c of p.file.cells) if (typeof c !== 'string' && !steps.some((s) => s.name === c.name)) steps.push({ name: c.name, outcome: 'skipped', text: '' });
  const own = [
    l10n.t('Pipeline {0}: charged {1} in all{2}.', p.name, fmtCredits(summary.charged), approvedBy ? l10n.t(', approved by {0}', approvedBy) : ''),
    ...(summary.stopped ? [l10n.t('The run stopped at a step (below); what was paid before it is kept, and its results are reused, free, by the next run.')] : []),
    l10n.t('Each step below: its name, what it came to (charged, reused, refused), its result’s file. The person can open any of them in the Table: “Wallet Analytics: Open in Table” ({0}) with the file.', CommandIds.openInTable),
  ];
  return toolAnswer(own, [[...steps.map((s) => stepLine(s, p.plan)), ...(summary.stopped ? [`stopped at ${summary.stopped.cell}: ${summary.stopped.message}`] : [])].join('\n')]);
}
