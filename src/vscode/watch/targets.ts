/**
 * What a watch re-runs, in the window: a past request (the same endpoint and inputs), a query file
 * (read afresh), or a pipeline (every call cell sent again). Two questions per target: its price
 * per run (asked once, when the watch is created) and one run through the one call flow
 * (CallService.run and its price gate). The approval stored in the watch is only a record: the
 * owner of approval (core/money/approval.ts) issues a run's approval only for the very request
 * approved (the query's body, each pipeline cell as written), so each run is priced and held under
 * the budgets, the per-call ceiling and that approval; a run that differs or would pass any of
 * them is skipped, told, and nothing is sent.
 */
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { findEndpoint, type Endpoint } from '../../core/spec/catalog';
import { endpointTitle } from '../../core/history/format';
import { parsePipeline, type CallCell, type PipelineFile } from '../../core/pipeline/format';
import type { Plan } from '../../core/pipeline/plan';
import { isApproval, watchCellApprovals, watchRunApproval } from '../../core/money/approval';
import { planOnDisk, readRecord, resultsDirOf, runPipeline } from '../../core/pipeline/run';
import { quote, type Quote } from '../../core/money/pricing';
import { parseQueryFile } from '../../core/query/file';
import type { QueryBody } from '../../core/spec/queryModel';
import type { ExecOutcome } from '../../core/watch/runner';
import { noResultFile, toldOutcome } from '../../core/calls/outcome';
import type { WatchRecord, WatchTarget } from '../../core/watch/model';
import type { Connection } from '../base/connection';
import type { CallService, RunOutcome } from '../calls/callService';
import { queryEndpoint } from '../language/runner';
import { callCell, type PipelineDeps } from '../pipeline/pipelineNotebook';
import { l10n } from '../../shared/l10n';
import { fmtCredits } from '../../core/numberText';
import { isPackedList } from '../../core/spec/packedList';

export interface TargetDeps extends Pick<PipelineDeps, 'calls' | 'store'> {
  readonly calls: CallService;
  readonly connection: Connection;
  /** The window's results folder: a pipeline's record may name a call's result there, and nowhere else outside its own folder. */
  readonly resultsFolder: () => string;
}

/** The price of one run, as the person approves it when creating the watch; `request`: what they approve (bound to the approval). */
type RunPrice =
  /** Known before it runs: exact, or its bound (`credits` is the most a run may cost). `cells`: a pipeline's cells and lines. */
  | { readonly kind: 'bounded'; readonly credits: number; readonly exact: boolean; readonly text: string; readonly request?: unknown; readonly cells?: readonly (CallCell & { readonly credits: number })[] }
  /** A Wallet Database query, billed per match: at least `min`, at most what the person accepts. */
  | { readonly kind: 'perMatch'; readonly min: number; readonly perMatch: number; readonly text: string; readonly request: unknown }
  | { readonly kind: 'unwatchable'; readonly message: string };

/** A target's name in the view and the notification: "Trending tokens (hours 2)", "whales.waquery.json". */
export function targetName(t: WatchTarget): string {
  if (t.kind !== 'request') return path.basename(t.file);
  const inputs = Object.entries(t.inputs).map(([k, v]) => `${k} ${Array.isArray(v) || isPackedList(v) ? `${v.length} items` : typeof v === 'object' ? '…' : String(v)}`).join(', ');
  const text = `${endpointTitle(t.endpointId)}${inputs ? ` (${inputs})` : ''}`;
  return text.length > 60 ? `${text.slice(0, 59)}…` : text;
}

async function readQuery(file: string): Promise<{ ep: Endpoint; body: QueryBody } | { problem: string }> {
  const parsed = parseQueryFile(await fs.readFile(file, 'utf8'));
  if (!parsed.ok) return { problem: `${path.basename(file)}: ${parsed.errors.join(' ')}` };
  return { ep: queryEndpoint(parsed.chain ?? 'main'), body: parsed.body };
}

/** A watched pipeline as it is on disk now (also what Export Watch writes out). */
export async function readPipeline(file: string): Promise<PipelineFile> {
  return parsePipeline(await fs.readFile(file, 'utf8'));
}

/** A pipeline's call cells, as written: what a watch's approval binds, one by one. */
function callCells(p: PipelineFile): CallCell[] {
  return p.cells.flatMap((c) => (typeof c !== 'string' && 'call' in c ? [c] : []));
}

/** Every call cell sent again: a watch wants fresh results, not the ones on disk. */
async function freshPlan(file: string, p: PipelineFile): Promise<Plan> {
  const calls = new Set(p.cells.flatMap((c) => (typeof c !== 'string' && 'call' in c ? [c.name] : [])));
  return planOnDisk(p, resultsDirOf(file), calls);
}

/** The price of one run of a target, for the person to approve when creating the watch. */
export async function priceOfRun(t: WatchTarget): Promise<RunPrice> {
  if (t.kind === 'request') {
    const ep = findEndpoint(t.endpointId);
    if (!ep) return { kind: 'unwatchable', message: `“${t.endpointId}” is not an endpoint of the service.` };
    const q: Quote = quote(ep, t.inputs, ep.paged ? { pages: 1 } : {});
    return { kind: 'bounded', credits: q.atMost ?? q.credits, exact: q.exact, text: q.text, request: t.inputs };
  }
  if (t.kind === 'query') {
    const r = await readQuery(t.file);
    if ('problem' in r) return { kind: 'unwatchable', message: r.problem };
    const q = quote(r.ep, { query: r.body });
    const perMatch = r.ep.price.kind === 'perMatch' ? r.ep.price.credits : q.credits;
    return { kind: 'perMatch', min: q.credits, perMatch, text: l10n.t('{0} per matching wallet, at least {1}', fmtCredits(perMatch), fmtCredits(q.credits)), request: { query: r.body } };
  }
  const p = await readPipeline(t.file);
  const plan = await freshPlan(t.file, p);
  if (plan.unbounded.length > 0) {
    return { kind: 'unwatchable', message: `${path.basename(t.file)}: no bound on the price of ${plan.unbounded.join(', ')} (add "top" to its reference, or watch that query on its own).` };
  }
  const cells = plan.lines.filter((l) => !l.reused).flatMap((l) => {
    const c = callCells(p).find((x) => x.name === l.cell);
    return c ? [{ ...c, credits: l.credits }] : [];
  });
  return { kind: 'bounded', credits: plan.total, exact: plan.exact, text: plan.totalText, cells };
}

/** A call flow's outcome as a watch's run: a result, a skip (nothing sent), or a failure. */
function outcomeOf(out: RunOutcome): ExecOutcome {
  switch (out.status) {
    case 'done':
      return out.resultPath ? { kind: 'done', credits: out.credits, resultPath: out.resultPath } : { kind: 'failed', message: noResultFile(), credits: out.credits };
    case 'queued': {
      const j = out.job;
      if (j?.state === 'done' && j.resultPath) return { kind: 'done', credits: out.credits, resultPath: j.resultPath };
      return { kind: 'failed', message: j?.error ?? `the job ended ${j?.state ?? 'without an answer'}`, credits: out.credits };
    }
    case 'refused':
    case 'cancelled':
      return { kind: 'skipped', message: toldOutcome(out).message };
    case 'invalid':
    case 'failed':
      return { kind: 'failed', message: toldOutcome(out).message, credits: 0 };
  }
}

/**
 * One run of a watch through the call flow, with the price approved when it was created. Nothing
 * is sent when the window cannot call unattended (no key, Restricted Mode), when it now uses
 * another connection than the one the price was approved for, or when the price went above it.
 */
export async function runWatch(w: WatchRecord, deps: TargetDeps, signal: AbortSignal): Promise<ExecOutcome> {
  const { connection } = deps;
  if (connection.keyWithheld()) return { kind: 'skipped', message: 'This folder is in Restricted Mode: no call is sent with your key.' };
  if (!(await connection.canCall())) return { kind: 'skipped', message: 'No API key is set (or the sandbox is not running).' };
  if (connection.scope() !== w.approval.scope) {
    return { kind: 'skipped', message: `its price was approved for another connection than this window’s (${connection.label()}); nothing was sent.` };
  }
  const t = w.target;
  if (t.kind === 'request') {
    const ep = findEndpoint(t.endpointId);
    if (!ep) return { kind: 'failed', message: `“${t.endpointId}” is not an endpoint of the service.`, credits: 0 };
    const approval = watchRunApproval(w.approval, ep.id, t.inputs);
    if (!isApproval(approval)) return { kind: 'skipped', message: approval.refused, approveAgain: true };
    const out = await deps.calls.run(ep, { inputs: t.inputs, notify: false, wait: true, open: false, ...(ep.paged ? { pages: 1 } : {}) }, approval);
    return outcomeOf(out);
  }
  if (t.kind === 'query') {
    const r = await readQuery(t.file);
    if ('problem' in r) return { kind: 'failed', message: r.problem, credits: 0 };
    // The file as read now, sent only if it is the very query approved (issue 30 item 1).
    const request = { query: r.body };
    const approval = watchRunApproval(w.approval, r.ep.id, request);
    if (!isApproval(approval)) return { kind: 'skipped', message: approval.refused, approveAgain: true };
    const out = await deps.calls.run(r.ep, { inputs: request, notify: false, wait: true, open: false }, approval);
    return outcomeOf(out);
  }
  const p = await readPipeline(t.file);
  const plan = await freshPlan(t.file, p);
  // Each cell as written now, sent only if that very cell was approved within its line (issue 30 item 2).
  const approvals = watchCellApprovals(w.approval, plan.lines, callCells(p));
  if ('refused' in approvals) return { kind: 'skipped', message: approvals.refused, approveAgain: true };
  let notSent = false;
  const summary = await runPipeline(p, {
    dir: resultsDirOf(t.file), roots: [deps.resultsFolder()], plan, approvals, signal,
    refresh: new Set(plan.lines.map((l) => l.cell)),
    call: async (_cell, ep, input, approval) => {
      const r = await callCell(deps, ep, input, approval, signal);
      notSent = r.status === 'stopped' && r.notSent === true;
      return r;
    },
  });
  if (summary.stopped) {
    // Skipped when the call flow sent nothing in this run (a budget, the ceiling, the approval); failed once anything was paid.
    return notSent && summary.charged === 0 ? { kind: 'skipped', message: `“${summary.stopped.cell}”: ${summary.stopped.message}` } : { kind: 'failed', message: `“${summary.stopped.cell}”: ${summary.stopped.message}`, credits: summary.charged };
  }
  // The watched result: the last cell's.
  const last = [...p.cells].reverse().find((c) => typeof c !== 'string');
  const rec = last && typeof last !== 'string' ? await readRecord(resultsDirOf(t.file), last.name, [deps.resultsFolder()]) : undefined;
  if (!rec) return { kind: 'failed', message: 'The pipeline left no result to compare.', credits: summary.charged };
  return { kind: 'done', credits: summary.charged, resultPath: rec.resultPath };
}
