/**
 * Running a pipeline file for an AI agent (issue 33, paid tools: "running a pipeline file"), the
 * part every host shares, so the MCP server (src/runner/mcpPipeline.ts) and VS Code's tool
 * (src/vscode/agents/pipelineTool.ts) cannot disagree on it: which file an agent may name, the
 * refusal of a plan with a step above the per-call ceiling (before anything is priced for the
 * person or sent), the plan as the person's question shows it, the facts the chat's confirmation
 * shows, and each step's outcome as the agent reads it. The plan and the run themselves are
 * core/pipeline (planOnDisk, runPipeline) and the approvals the one owner's (core/money/approval.ts
 * planApprovals); how the person is asked is each host's. Step names and messages come from the
 * file or the service: the answer fences them as data (toolText.ts).
 */
import { realpath, stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { inside, PIPELINE_MAX_BYTES } from './freeTools';
import { clip } from './toolText';
import { planText, type Plan } from '../pipeline/plan';
import type { CellEvent } from '../pipeline/run';
import { resetWords, type BudgetState } from '../money/budget';
import { allowanceWords, type AllowanceState } from '../money/agentAllowance';
import { l10n } from '../l10n';
import { fmtCredits, thousands } from '../numberText';

/**
 * The file's real path when it is a .wapipe.json inside one of `folders`, else the refusal (`say`:
 * which folders, in the host's words). Checked as written, then again once links are resolved: a
 * link inside cannot lead outside. Nothing is read but the file's size.
 */
export async function pipelineFileInside(given: string, folders: readonly string[], say: string): Promise<{ readonly path: string } | { readonly refused: string }> {
  if (!given.endsWith('.wapipe.json')) return { refused: say };
  if (!folders.some((f) => inside(f, resolve(given)))) return { refused: say };
  const path = await realpath(given).catch(() => undefined);
  if (path === undefined) return { refused: l10n.t('No such pipeline file: {0}', clip(given, 300)) };
  if (!folders.some((f) => inside(f, path))) return { refused: say };
  if ((await stat(path)).size > PIPELINE_MAX_BYTES) return { refused: l10n.t('{0} is larger than a pipeline file can be.', clip(given, 300)) };
  return { path };
}

/** Why a plan is refused whole (a step that may cost more than the per-call ceiling), or undefined. `setting`: the ceiling's name in the host's words. */
export function planCeilingRefusal(plan: Plan, ceiling: number, setting: string): string | undefined {
  const over = plan.lines.find((l) => !l.reused && l.bounded && l.credits > ceiling);
  if (!over) return undefined;
  return l10n.t('Refused: a step may cost {0}{1}, above the per-call ceiling of {2} ({3}).', over.exact ? '' : l10n.t('up to '), fmtCredits(over.credits), fmtCredits(ceiling), setting);
}

/** The most plan lines a question shows (a longer plan says how many more). */
const QUESTION_LINES = 40;

/** The plan's lines and its total as a question shows them, cut to QUESTION_LINES. */
export function planQuestionLines(plan: Plan): string[] {
  const lines = planText(plan);
  if (lines.length <= QUESTION_LINES + 1) return lines;
  return [...lines.slice(0, QUESTION_LINES), l10n.t('… and {0} more steps', lines.length - QUESTION_LINES - 1), lines[lines.length - 1] ?? ''];
}

/** What the host knows when it shows a plan's price: the balance, the ceiling, the budgets, the allowance. */
interface PlanFactsContext {
  readonly balance?: number;
  readonly ceiling: number;
  readonly budgets: readonly BudgetState[];
  readonly allowance?: AllowanceState;
}

/**
 * A plan's price as the chat's confirmation (and the person's question) shows it: its lines and
 * total, the balance after (at worst), the ceiling, each budget and the allowance; `covered` when
 * the allowance leaves the whole total and every line has a bound.
 */
export function planPriceFacts(plan: Plan, p: PlanFactsContext): { readonly lines: readonly string[]; readonly covered: boolean } {
  const covered = plan.unbounded.length === 0 && plan.total > 0 && p.allowance !== undefined && plan.total <= p.allowance.left;
  const lines = [
    ...planQuestionLines(plan),
    p.balance === undefined ? l10n.t('Balance unknown.') : l10n.t('Balance after: {0} at worst.', thousands(p.balance - plan.total)),
    l10n.t('The per-call ceiling: {0}.', fmtCredits(p.ceiling)),
    ...p.budgets.map((b) => l10n.t('{0} budget: {1} left of {2} (resets {3}).', b.kind === 'day' ? l10n.t('Daily') : l10n.t('30-day'), thousands(b.left), thousands(b.budget), resetWords(b))),
    allowanceWords(p.allowance),
  ];
  return { lines, covered };
}

/** One step of a run as an agent is told it (the runner's StepReport, runner/junit.ts, adds its time). */
export interface StepOutcome {
  readonly name: string;
  readonly outcome: 'passed' | 'failed' | 'skipped';
  readonly text: string;
  readonly reused?: true;
  readonly credits?: number;
  readonly resultPath?: string;
  /** Refused before sending: nothing was sent for it. */
  readonly notSent?: true;
}

/** A run's event for a step that ended (done or stopped) as its outcome; `notSent` when its call was refused before sending. */
export function stepOf(e: Extract<CellEvent, { kind: 'done' | 'stopped' }>, notSent: boolean): StepOutcome {
  if (e.kind === 'done') return { name: e.cell, outcome: 'passed', text: `${fmtCredits(e.record.credits)} → ${e.record.resultPath}`, ...(e.reused ? { reused: true as const } : {}), credits: e.record.credits, resultPath: e.record.resultPath };
  return { name: e.cell, outcome: 'failed', text: e.message, ...(notSent ? { notSent: true as const } : {}) };
}

/** One step as the tool says it: its name, what it came to, its file or why not (the name is the file's: shown as data). */
export function stepLine(s: StepOutcome, plan: Plan | undefined): string {
  if (s.outcome === 'skipped') return `${s.name}\tnot run`;
  if (s.outcome === 'failed') return `${s.name}\t${s.notSent ? 'refused, nothing sent' : 'failed'}\t${s.text}`;
  const paid = plan?.lines.some((l) => l.cell === s.name) === true;
  const what = s.reused ? 'reused, free' : paid ? `charged ${fmtCredits(s.credits ?? 0)}` : 'local step, free';
  return `${s.name}\t${what}\t${s.resultPath ?? ''}`;
}
