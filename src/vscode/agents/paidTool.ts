/**
 * A paid endpoint as a language-model tool (issue 33): the VS Code half of the agents' money path.
 * Nothing here decides money: the call goes through the one call flow (CallService.run) with an
 * approval from the one owner (core/money/approval.ts agentApproval), so the price, the ceiling,
 * the budgets, reconciliation and the ledger are the palette's.
 *
 * How the chat's confirmation and the price step share the work, so the person sees one price
 * question, never two, and never none outside the allowance:
 * - prepareInvocation prices the call. When the agent allowance covers it, it returns the chat's
 *   confirmation (exact price, balance after, ceiling, each budget and the allowance left): that is
 *   the one question, and invoke goes on. Otherwise it returns no confirmation, only a line saying
 *   the price step will ask; invoke then asks there (Cancel the default).
 * - invoke decides again whatever the chat showed (the dialog may be auto-approved, or no chat may
 *   be behind the call): only a call with a chat's invocation token may spend the allowance, held
 *   in the agent ledger before the flow runs; any other caller is asked in the price step.
 * A queued call's tool waits for its file; cancelling the chat stops the wait, never the paid job
 * (the job service follows and downloads it as always).
 */
import * as vscode from 'vscode';
import { shortTitle, validateInput, type Endpoint } from '../../core/spec/catalog';
import { checkListsSliced } from '../../core/spec/listCheck';
import { agentApproval } from '../../core/money/approval';
import type { QuoteContext } from '../../core/money/pricing';
import { agentPriceFacts, askedWords, type PriceFacts } from '../../core/agents/priceFacts';
import type { QueryBody } from '../../core/spec/queryModel';
import type { QueryRunCache } from '../../core/query/runCache';
import { toolAnswer } from '../../core/agents/toolText';
import { CancelledError } from '../../core/errors';
import type { JobRecord } from '../../core/jobs/job';
import type { AgentAllowance } from '../base/agentAllowance';
import type { Connection } from '../base/connection';
import type { CreditsService } from '../base/credits';
import { readSettings } from '../base/settings';
import type { CallService, RunOutcome } from '../calls/callService';
import type { JobService } from '../jobs/jobService';
import { l10n } from '../../shared/l10n';
import { thousands } from '../../core/numberText';
import { declinedForAgent } from '../../core/calls/outcome';

export interface PaidToolDeps {
  readonly calls: CallService;
  readonly credits: CreditsService;
  readonly connection: Connection;
  readonly allowance: AgentAllowance;
  readonly jobs: JobService;
  readonly queryRuns?: Pick<QueryRunCache, 'lookup'>;
  /** A result file's first rows as tool text (the free read tool's answer). */
  readonly summarise: (path: string, signal: AbortSignal) => Promise<string>;
}

/** Prices a call as the call flow will (one page of a paged read, a query's count from this hour), from this window's balance, budgets and allowance. */
export async function priceFacts(ep: Endpoint, given: unknown, deps: Pick<PaidToolDeps, 'credits' | 'connection' | 'allowance' | 'queryRuns'>): Promise<PriceFacts | { readonly problems: readonly string[] }> {
  // An agent's list of 100,000 checked a slice at a time, once: the checks below then take it as it is (issue 34 item 4).
  const raw = await checkListsSliced(ep, given);
  const scope = deps.connection.scope();
  let ctx: QuoteContext | undefined = ep.paged === true ? { pages: 1 } : undefined;
  // The same body the call flow looks up (validated: its defaults filled in).
  const v = validateInput(ep, raw);
  const body = v.ok ? (v.input.query as QueryBody | undefined) : undefined;
  if (ep.price.kind === 'perMatch' && body && deps.queryRuns) {
    const known = await deps.queryRuns.lookup(scope, ep.chain, body).catch(() => undefined);
    if (known) ctx = { knownMatches: known.total, matchesAt: known.at, now: Date.now() };
  }
  let balance: number | undefined;
  try {
    balance = await deps.credits.get(60_000, scope);
  } catch {
    balance = deps.credits.peek(scope)?.value;
  }
  const settings = readSettings();
  const reset = deps.credits.nextReset(scope);
  const allowance = deps.allowance.state(scope);
  return agentPriceFacts(ep, raw, {
    settings, budgets: deps.credits.budgets(settings.budgets, scope),
    ...(ctx ? { ctx } : {}), ...(balance !== undefined ? { balance } : {}), ...(reset ? { reset } : {}), ...(allowance ? { allowance } : {}),
  });
}

/** The language-model tool of one paid endpoint. */
export function paidTool(ep: Endpoint, deps: PaidToolDeps): vscode.LanguageModelTool<Record<string, unknown>> {
  return {
    async prepareInvocation(options) {
      const f = await priceFacts(ep, options.input, deps);
      if ('problems' in f) return { invocationMessage: l10n.t('{0}: checking the inputs', shortTitle(ep)) };
      if (f.covered && f.refusal === undefined) {
        const message = new vscode.MarkdownString([...f.lines, '', askedWords(f)].join('\n\n'));
        return { invocationMessage: l10n.t('Running {0} for {1}', shortTitle(ep), f.quote.text), confirmationMessages: { title: l10n.t('Run {0} for {1}?', shortTitle(ep), f.quote.text), message } };
      }
      return { invocationMessage: `${f.lines[0] ?? ''} ${askedWords(f)}` };
    },

    async invoke(options, token) {
      const answer = (text: string): vscode.LanguageModelToolResult => new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(text)]);
      const f = await priceFacts(ep, options.input, deps);
      if ('problems' in f) return answer(toolAnswer([l10n.t('Not sent, nothing charged: the inputs are not valid.'), ...f.problems]));
      const scope = deps.connection.scope();
      const fromChat = options.toolInvocationToken !== undefined;
      // The allowance is spent only by a call from a chat, and held before the flow runs.
      const hold = fromChat && f.covered && f.worst !== undefined ? await deps.allowance.hold(ep.id, f.worst, scope) : undefined;
      const approval = agentApproval({ endpointId: ep.id, fromChat, held: hold !== undefined ? f.worst ?? 0 : 0 });
      let out: RunOutcome;
      try {
        out = await deps.calls.run(ep, { inputs: f.input, pages: 1, wait: false, open: false }, approval);
        const charged = out.status === 'done' || out.status === 'queued' ? out.credits : 0;
        if (hold !== undefined && charged > 0) await deps.allowance.record(ep.id, charged, scope);
      } finally {
        if (hold !== undefined) await deps.allowance.release(hold);
      }
      return answer(await outcomeText(ep, out, deps, token));
    },
  };
}

/** What the call did, for the model: its status and charge, and the result's place and first rows (as data). */
async function outcomeText(ep: Endpoint, out: RunOutcome, deps: PaidToolDeps, token: vscode.CancellationToken): Promise<string> {
  const title = shortTitle(ep);
  switch (out.status) {
    case 'cancelled':
      return toolAnswer([declinedForAgent(title, 'price')]);
    case 'invalid':
      return toolAnswer([l10n.t('{0}: not sent, nothing charged: the inputs are not valid.', title), ...out.errors]);
    case 'refused':
      return toolAnswer([l10n.t('{0}: not sent, nothing charged.', title), out.message]);
    case 'failed':
      return toolAnswer([out.charged === 'no' ? l10n.t('{0} failed; nothing was charged.', title) : l10n.t('{0} failed, and it may have been charged: check the credits before running it again.', title), out.message]);
    case 'done': {
      const own = [l10n.t('{0} done: charged {1} credits.', title, thousands(out.credits))];
      if (out.resultPath !== undefined) return `${own.join('\n')}\n${await deps.summarise(out.resultPath, abortOn(token))}`;
      return toolAnswer(own, [JSON.stringify(out.value, null, 1)]);
    }
    case 'queued': {
      const job = out.job && SETTLED.has(out.job.state) ? out.job : await waitForJob(deps.jobs, out.requestId, title, token);
      const own = l10n.t('{0}: request {1} charged {2} credits.', title, out.requestId, thousands(out.credits));
      if (!job) return toolAnswer([own, l10n.t('Stopped waiting; the job still runs and its file will be downloaded to {0} and listed under Requests when it is done.', deps.jobs.folder())]);
      if (job.state === 'done' && job.resultPath !== undefined) return `${own}\n${await deps.summarise(job.resultPath, abortOn(token))}`;
      return toolAnswer([own, l10n.t('The job ended as {0}.', job.state)], job.error !== undefined ? [job.error] : []);
    }
  }
}

/** The chat's cancellation as a signal for the table worker's read. */
export function abortOn(token: vscode.CancellationToken): AbortSignal {
  const c = new AbortController();
  if (token.isCancellationRequested) c.abort(new CancelledError());
  else token.onCancellationRequested(() => c.abort(new CancelledError()));
  return c.signal;
}

const SETTLED = new Set(['done', 'failed', 'stalled']);

/** Waits for a job to settle, with progress in the window; undefined when the chat cancelled the wait (the job goes on). */
async function waitForJob(jobs: JobService, requestId: string, title: string, token: vscode.CancellationToken): Promise<JobRecord | undefined> {
  const settled = (): JobRecord | undefined => jobs.store.all().find((j) => j.requestId === requestId && SETTLED.has(j.state));
  return vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title: l10n.t('{0}: waiting for the result', title) }, () =>
    new Promise<JobRecord | undefined>((resolve) => {
      const now = settled();
      if (now) return resolve(now);
      const subs: vscode.Disposable[] = [];
      const done = (j: JobRecord | undefined): void => {
        for (const s of subs) s.dispose();
        resolve(j);
      };
      const off = jobs.store.onDidChange(() => {
        const j = settled();
        if (j) done(j);
      });
      subs.push({ dispose: off }, token.onCancellationRequested(() => done(undefined)));
    }),
  );
}
