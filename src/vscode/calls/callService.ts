/**
 * The one flow every call takes, whoever starts it (a palette command, a query file's CodeLens,
 * a Requests re-run, "use as input" from a result or a table): inputs → checks → price → send
 * → what follows (a job followed to its file, a JSON result, a message).
 *
 * Command arguments from outside (another extension, a `command:` link, a re-run) can pre-fill
 * inputs and say how to follow the call, but never approve a price: the price step asks the
 * person (calls/priceStep.ts). A paid call whose outcome is unknown is never guessed at: a
 * queued submit is looked up in the free request history (core/jobs/reconcile.ts), and any paid
 * call that stays unsettled asks "may charge again" before it is run again.
 *
 * The connection (profile, base URL, client) is bound once, before the inputs are asked
 * (Connection.bind): the price names it, and the send, the ledger, the ambiguous-call memory,
 * the reconciliation, the job and the credits refresh all use it, never "the active one now".
 * If the window's connection changes before the send, nothing is sent.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { shortTitle, type Endpoint } from '../../core/spec/catalog';
import { validateInputSliced } from '../../core/spec/listCheck';
import { BadInputError, errorText } from '../../core/errors';
import { RECONCILE_MESSAGES } from '../../core/jobs/reconcile';
import type { JobRecord } from '../../core/jobs/job';
import { failedSend, sendCall, type CallHost, type Sent } from '../../core/calls/send';
import type { Reconciled } from '../../core/calls/reconcile';
import { directResultName } from '../../core/results/names';
import { saveNewResult } from '../../core/results/newResult';
import { isPaid, quote, type QuoteContext } from '../../core/money/pricing';
import { matchedSummary } from '../../core/money/riskAmount';
import type { QueryBody } from '../../core/spec/queryModel';
import type { QueryRun, QueryRunCache } from '../../core/query/runCache';
import { RESTRICTED_MODE, type BoundConnection, type Connection } from '../base/connection';
import type { CreditsService } from '../base/credits';
import { readSettings } from '../base/settings';
import { placeholderUrlMessage, showError, showErrorIn, showPlaceholderUrl, showWarning } from '../base/errors';
import { isPlaceholderUrl } from '../../core/transport/placeholder';
import { DEFAULT_PROFILE_ID } from '../../core/transport/profiles';
import { ACCOUNT_VIEW, CommandIds } from '../base/ids';
import { collectInputs, promptedFields } from '../flows/inputFlow';
import type { JobService } from '../jobs/jobService';
import type { Log } from '../base/log';
import { offerResult, openResult } from '../results/open';
import { AmbiguousCalls } from '../../core/money/ambiguousCalls';
import { callRefusal, type Approval } from '../../core/money/approval';
import type { Storage } from '../../core/storage';
import { askPages, readPages } from './pages';
import { approvePrice, chargedTo, connectionChanged, type CopyAsCode, type CountEstimate, type PriceDecision, type PriceQuestions } from './priceStep';
import { l10n } from '../../shared/l10n';
import { runArgsFrom, type RunArgs } from './runArgs';
import { fmtCredits, thousands } from '../../core/numberText';
import { isPackedList } from '../../core/spec/packedList';

export type RunOutcome =
  | { readonly status: 'cancelled' }
  | { readonly status: 'invalid'; readonly errors: readonly string[] }
  | { readonly status: 'refused'; readonly message: string }
  | { readonly status: 'failed'; readonly message: string; readonly charged: 'no' | 'unknown' }
  | { readonly status: 'queued'; readonly requestId: string; readonly credits: number; readonly shown: string; readonly job?: JobRecord; readonly reconciled?: boolean }
  | {
      readonly status: 'done';
      readonly credits: number;
      readonly shown: string;
      readonly value: unknown;
      readonly resultPath?: string;
      /** A Wallet Database answer, as recorded in the query-run cache (its match count prices the same query exactly). */
      readonly run?: QueryRun;
    };

/** A submit that ended without a clear answer, and the connection it was sent with. */
interface ReconcileQuery {
  readonly via: BoundConnection;
  readonly ep: Endpoint;
  readonly input: Record<string, unknown>;
  readonly sentAt: number;
  readonly progress: (message: string) => void;
}

interface CallDeps {
  readonly connection: Connection;
  readonly credits: CreditsService;
  readonly jobs: JobService;
  readonly log: Log;
  readonly storage: Storage;
  readonly questions: PriceQuestions;
  /**
   * Wallet Database answers of the current refresh period (core/query/runCache.ts): every answer,
   * whatever path sent it, is recorded, and the match count of the same query prices it exactly.
   */
  readonly queryRuns?: Pick<QueryRunCache, 'lookup' | 'record' | 'lastCount'>;
  /** Looks an ambiguous submit up in the request history of the connection it went to, for a bounded time. */
  readonly reconcile: (q: ReconcileQuery) => Promise<Reconciled>;
  /** Offers "Copy as Code…" at the price step; choosing it ends the flow as cancelled (nothing sent). */
  readonly copyAsCode?: CopyAsCode;
}

const RECENT_MAX_LIST = 10_000;

const MAY_CHARGE_AGAIN = 'Run Again (May Charge Again)';

export class CallService {
  private readonly ambiguous: AmbiguousCalls;
  private readonly recorded = new vscode.EventEmitter<QueryRun>();
  /** A Wallet Database answer was recorded in the query-run cache, whatever path sent it (CodeLenses follow). */
  readonly onDidRecordRun = this.recorded.event;

  constructor(private readonly deps: CallDeps) {
    this.ambiguous = new AmbiguousCalls(deps.storage);
  }

  /**
   * The whole flow of one call. `raw` are command arguments from any caller: see RunArgs.
   * `approval` is what the person approved before for this call (a pipeline plan's line, a watch's
   * run), passed only by the pipeline and watch runners, never from command arguments: the one
   * owner of approval (core/money/approval.ts) issued it and alone decides whether the call is
   * within it (only an object it issued counts). The ceiling and the budgets still apply; a price
   * past the approval is refused, nothing sent.
   */
  async run(ep: Endpoint, raw?: unknown, approval?: Approval): Promise<RunOutcome> {
    const args = runArgsFrom(raw);
    const { connection } = this.deps;
    if (connection.keyWithheld()) {
      const manage = 'Manage Workspace Trust';
      void showWarning(`${shortTitle(ep)}: ${RESTRICTED_MODE}`, manage).then((a) => {
        if (a === manage) void vscode.commands.executeCommand('workbench.trust.manage');
      });
      return { status: 'refused', message: RESTRICTED_MODE };
    }
    if (!(await connection.canCall())) {
      const a = await showWarning(
        l10n.t('No API key is set. Set the key issued with your API plan, or try every feature in the built-in sandbox (no key, no credits, no network).'),
        l10n.t('Set API Key'),
        l10n.t('Try the Sandbox'),
      );
      if (a === l10n.t('Set API Key')) await vscode.commands.executeCommand(CommandIds.setApiKey);
      else if (a === l10n.t('Try the Sandbox')) await vscode.commands.executeCommand(CommandIds.startSandbox);
      if (!(await connection.canCall())) return { status: 'cancelled' };
    }
    // Bound once: the price is shown for this connection, and only this one is sent to.
    const via = connection.bind();
    if (connection.mode === 'configured' && isPlaceholderUrl(via.baseUrl)) {
      // A `.invalid` host exists nowhere (RFC 2606): say so in words instead of a DNS error.
      const message = placeholderUrlMessage(shortTitle(ep), via.baseUrl, via.profileId === DEFAULT_PROFILE_ID);
      showPlaceholderUrl(message);
      return { status: 'refused', message };
    }

    // 1. Inputs: given or asked, and validated before anything is sent.
    let input: Record<string, unknown>;
    const paged = ep.paged === true;
    const extra = ep.price.kind === 'free' ? 0 : 1 + (paged ? 1 : 0);
    if (args.inputs) {
      // A list of 100,000 checked a slice at a time (issue 34 item 4); marked, the later checks take it as it is.
      const v = await validateInputSliced(ep, args.inputs);
      if (!v.ok) return this.invalid(ep, v.errors);
      input = v.input;
    } else {
      const asked = await collectInputs(ep, {
        recent: await this.deps.storage.recentInputs(ep.id),
        doneJobs: () => this.deps.jobs.store.all().filter((j) => j.state === 'done'),
        columns: (chain) => via.api.columns(chain),
      }, extra);
      if (!asked) return { status: 'cancelled' };
      input = asked;
    }
    // The same checks the send makes (a query's fields against the server's list), before the price.
    try {
      input = await via.api.preflight(ep.id, input);
    } catch (e) {
      if (e instanceof BadInputError && e.source === 'client') return this.invalid(ep, e.problems);
      throw e;
    }
    await this.remember(ep, input);

    // 2. Pages to read, for cursor-paged endpoints (each page is billed).
    let pages = 1;
    if (paged) {
      const budget = readSettings().activityPageBudget;
      const want = args.pages ?? (await askPages(ep, input, promptedFields(ep).length + 1, promptedFields(ep).length + extra, budget));
      if (want === undefined) return { status: 'cancelled' };
      pages = want === 'all' ? budget : Math.min(want, budget);
    }

    // 3. A paid call that may already have been charged asks before it can charge again.
    if (isPaid(ep)) {
      const at = await this.ambiguous.lastAt(via.scope, ep.id, input);
      if (at !== undefined && !(await this.confirmChargeAgain(ep, via, at))) return { status: 'cancelled' };
    }

    // 4. The price, shown before anything is sent, for the connection bound above.
    const before = this.moved(ep, via, 'the inputs were asked');
    if (before) return before;
    const known = paged ? undefined : await this.knownCount(ep, via, input, args.queryFile);
    const ctx: QuoteContext | undefined = paged ? { pages } : known?.ctx;
    // The price, computed once for this call and carried to the approval and the price step.
    const q = quote(ep, input, ctx);
    if (approval !== undefined) {
      const message = callRefusal(approval, ep.id, q);
      if (message !== undefined) {
        this.deps.log.warn(`${ep.id}: ${message}`);
        return { status: 'refused', message };
      }
    }
    const decision: PriceDecision = await approvePrice(ep, input, this.deps, {
      step: promptedFields(ep).length + extra,
      total: promptedFields(ep).length + extra,
      ctx,
      via,
      quote: q,
      ...(approval !== undefined ? { approval } : {}),
      ...(known?.estimate ? { estimate: known.estimate } : {}),
    });
    if (decision.kind === 'refused') return { status: 'refused', message: decision.message };
    if (decision.kind === 'cancelled') return { status: 'cancelled' };
    try {
      return await this.send(ep, via, input, decision, pages, args);
    } finally {
      // The budgets' hold on this call ends once it settled (its charges are in the ledger by then).
      await this.deps.credits.release(decision.hold);
    }
  }

  /** After the price was approved: sends the call (unless the connection moved) and follows it. */
  private async send(ep: Endpoint, via: BoundConnection, input: Record<string, unknown>, decision: Extract<PriceDecision, { kind: 'approved' }>, pages: number, args: RunArgs): Promise<RunOutcome> {
    const { log } = this.deps;
    // The price was approved for `via`: if the window now uses another connection, send to neither.
    const after = this.moved(ep, via, 'the price was shown');
    if (after) return after;
    if (decision.credits > 0) log.info(`${ep.id}: price shown before sending (${via.label}): ${decision.shown}`);

    // 5. Send: the one send every host shares (core/calls/send.ts); paged reads keep each page as it comes.
    const host = this.host(via);
    if (ep.paged === true) {
      const sentAt = Date.now();
      try {
        const out = await readPages(ep, input, pages, this.deps, via, decision.shown, args);
        await this.ambiguous.forget(via.scope, ep.id, input);
        return out;
      } catch (e) {
        return this.settle(ep, via, await failedSend(ep, input, e, sentAt, host), decision, args, input);
      }
    }
    return this.settle(ep, via, await sendCall(ep, input, host), decision, args, input);
  }

  /** The connection, ledger, memory and history search the shared send uses for this call. */
  private host(via: BoundConnection): CallHost {
    return {
      api: via.api, scope: via.scope, profileId: via.profileId, baseUrl: via.baseUrl, ambiguous: this.ambiguous,
      record: (endpointId, credits, requestId) => this.deps.credits.record(endpointId, credits, via.scope, requestId),
      reconcile: async (ep, input, sentAt, message) => {
        this.deps.log.warn(`${ep.id}: outcome unknown (${message}); looking it up in the request history.`);
        const r = await vscode.window.withProgress(
          { location: vscode.ProgressLocation.Notification, title: `${shortTitle(ep)}: ${RECONCILE_MESSAGES.looking()}` },
          (progress) => this.deps.reconcile({ via, ep, input, sentAt, progress: (m) => progress.report({ message: m }) }),
        );
        this.deps.log.info(`${ep.id}: ${r.message}`);
        if (r.kind === 'found') void vscode.window.showInformationMessage(`${shortTitle(ep)}: ${r.message}`);
        return r;
      },
    };
  }

  /** What the window does with a send's outcome: follows a job, saves an answer, or says what failed (and whether it was charged). */
  private async settle(ep: Endpoint, via: BoundConnection, sent: Sent, decision: Extract<PriceDecision, { kind: 'approved' }>, args: RunArgs, input: Record<string, unknown>): Promise<RunOutcome> {
    const title = shortTitle(ep);
    const { shown } = decision;
    switch (sent.kind) {
      case 'queued': {
        if (!sent.reconciled) this.deps.log.info(`${ep.id}: accepted as ${sent.job.requestId}, ${fmtCredits(sent.credits)} charged.`);
        const settled = await this.deps.jobs.track(sent.job, { notify: args.notify !== false, wait: args.wait !== false });
        void this.deps.credits.refresh(via.scope).catch(() => undefined);
        return { status: 'queued', requestId: sent.job.requestId, credits: sent.credits, shown: sent.reconciled ?? shown, job: settled, ...(sent.reconciled ? { reconciled: true } : {}) };
      }
      case 'direct':
        return this.direct(ep, via, input, sent, shown, args, decision.accepted);
      case 'invalid':
        return this.invalid(ep, sent.errors);
      case 'failed': {
        if (isPaid(ep)) void this.deps.credits.refresh(via.scope).catch(() => undefined);
        const r = sent.reconciled;
        if (r?.kind === 'notFound') {
          const retry = 'Retry…';
          void showWarning(`${title}: ${r.message}`, retry).then((a) => {
            // Retry runs the whole flow again: the price is shown again before anything is sent.
            if (a === retry) void this.run(ep, { inputs: input });
          });
          return { status: 'failed', message: `${sent.message} ${r.message}`, charged: 'unknown' };
        }
        if (r) void showError(`${title}: ${sent.message} ${r.message}`);
        else void showErrorIn(title, sent.error);
        return { status: 'failed', message: sent.message, charged: sent.charged };
      }
    }
  }

  /** A refusal when the window's connection is no longer the flow's; nothing is sent. */
  private moved(ep: Endpoint, via: BoundConnection, during: string): RunOutcome | undefined {
    const message = connectionChanged(this.deps.connection, via, during);
    if (message === undefined) return undefined;
    this.deps.log.warn(`${ep.id}: ${message}`);
    void showError(`${shortTitle(ep)}: ${message}`);
    return { status: 'refused', message };
  }

  private invalid(ep: Endpoint, errors: readonly string[]): RunOutcome {
    void showError(l10n.t('{0}: {1} Nothing was sent; nothing was charged.', shortTitle(ep), errors.join(' ')));
    return { status: 'invalid', errors };
  }

  /**
   * The match count of the same query inside its refresh period, for an exact Wallet Database
   * price; else the last count of this query or its file from an earlier hour, an estimate.
   */
  private async knownCount(ep: Endpoint, via: BoundConnection, input: Record<string, unknown>, file?: string): Promise<{ ctx?: QuoteContext; estimate?: CountEstimate } | undefined> {
    if (ep.price.kind !== 'perMatch' || !this.deps.queryRuns) return undefined;
    const body = input.query as QueryBody | undefined;
    if (!body) return undefined;
    const known = await this.deps.queryRuns.lookup(via.scope, ep.chain, body);
    // Exact only while the clock is in the same refresh period as that run (src/core/spec/refresh.ts).
    if (known !== undefined) return { ctx: { knownMatches: known.total, matchesAt: known.at, now: Date.now() } };
    const estimate = await this.deps.queryRuns.lastCount(via.scope, ep.chain, body, file);
    return estimate ? { estimate } : undefined;
  }

  private async confirmChargeAgain(ep: Endpoint, via: BoundConnection, at: number): Promise<boolean> {
    const when = new Date(at).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
    return this.deps.questions.ask({
      kind: 'modal',
      why: 'mayChargeAgain',
      endpointId: ep.id,
      to: via.label,
      message: `${shortTitle(ep)} with these inputs may already have been charged: at ${when} it ended without a clear answer.`,
      detail: l10n.t('Running it again may charge again. Check your credits and Request History (both free) first if you are not sure. The price is shown next. {0}', chargedTo(via)),
      yes: MAY_CHARGE_AGAIN,
    });
  }

  private async remember(ep: Endpoint, input: Record<string, unknown>): Promise<void> {
    // Huge lists are not kept: globalState is not a file store, and the result sidecar has them.
    if (Object.values(input).some((v) => (Array.isArray(v) || isPackedList(v)) && v.length > RECENT_MAX_LIST)) return;
    await this.deps.storage.rememberInput(ep.id, input);
  }

  private async saveJson(ep: Endpoint, value: unknown): Promise<string> {
    const dir = this.deps.jobs.folder();
    // Never over an earlier result: two calls of one endpoint in the same second get `-2`, `-3`… (both paid).
    const now = new Date();
    return saveNewResult(dir, (i) => directResultName(ep.id, now, i), `${JSON.stringify(value, null, 2)}\n`);
  }

  /** A direct call's answer: the balance, a reset, or a result saved and offered. */
  private async direct(ep: Endpoint, via: BoundConnection, input: Record<string, unknown>, result: Extract<Sent, { kind: 'direct' }>, shown: string, args: RunArgs, accepted?: number): Promise<RunOutcome> {
    // `accepted`: the credits the person typed to lift the ceiling, when they did; a bill past it is said.
    const { sentAt } = result;
    const title = shortTitle(ep);
    if (ep.accountCall === 'balance') {
      const balance = await this.deps.credits.refresh(via.scope);
      const reset = this.deps.credits.nextReset(via.scope);
      // With a button, so the toast opens whole (a toast without one showed a line cut at "…(estimated)."):
      // the Account view has the balance's context (budgets, forecast, spend).
      const showAccount = l10n.t('Show Account');
      void vscode.window.showInformationMessage(
        l10n.t('Credits: {0} left{1}. Checking them is free.', thousands(balance), reset ? l10n.t('; next reset {0}{1}', reset.date.toISOString().slice(0, 10), reset.estimated ? l10n.t(' (estimated)') : '') : ''),
        showAccount,
      ).then((a) => {
        if (a === showAccount) void vscode.commands.executeCommand(`${ACCOUNT_VIEW}.focus`);
      });
      return { status: 'done', credits: 0, shown, value: balance };
    }
    if (ep.accountCall === 'resetIp') {
      void vscode.window.showInformationMessage(l10n.t('IP binding reset (free); the next call sets it.'));
      return { status: 'done', credits: 0, shown, value: null };
    }
    const file = await this.saveJson(ep, result.value);
    if (result.charged > 0) void this.deps.credits.refresh(via.scope).catch(() => undefined);
    const run = await this.recordRun(ep, via, input, result, file, sentAt, args.queryFile);
    // A Wallet Database answer is listed under Requests like a queued job's result (issue 35 item 14):
    // a done record of this window's jobs, named by its file (the service gives a direct call no id).
    if (run) await this.deps.jobs.store.put({ requestId: `direct-${path.basename(file, '.json')}`, endpointId: ep.id, inputs: input, cost: result.charged, baseUrl: via.baseUrl, profileId: via.profileId, submittedAt: new Date(sentAt).toISOString(), completedAt: new Date().toISOString(), state: 'done', resultPath: file });
    if (args.open !== false) await openResult(file);
    const { total, wallets } = result.value as { total?: unknown; wallets?: unknown };
    // A Wallet Database answer says how many matched, what that cost and how many rows came back.
    const summary = typeof total === 'number'
      ? matchedSummary(total, result.charged, Array.isArray(wallets) ? wallets.length : total, accepted)
      : result.charged > 0 ? `${fmtCredits(result.charged)} charged` : '';
    // A bill past the amount accepted is said even to a caller that asked for no notification (a watch, a pipeline).
    const over = accepted !== undefined && result.charged > accepted;
    if (args.notify !== false || over) void offerResult(`${title}: done${summary ? `: ${summary}` : ''}.`, file, over ? 'warning' : 'info');
    return { status: 'done', credits: result.charged, shown, value: result.value, resultPath: file, run };
  }

  /**
   * Keeps a Wallet Database answer's match count (and a copy of the answer) for the rest of its
   * refresh period, whatever path sent it (palette, query file, re-run), so the same query is
   * priced exactly next time. Dated when it was sent: an answer that arrives after the top of the
   * hour may have been computed before the refresh.
   */
  private async recordRun(ep: Endpoint, via: BoundConnection, input: Record<string, unknown>, result: { value: unknown; charged: number }, file: string, sentAt: number, queryFile?: string): Promise<QueryRun | undefined> {
    const body = input.query as QueryBody | undefined;
    const total = (result.value as { total?: unknown } | null)?.total;
    if (ep.price.kind !== 'perMatch' || !this.deps.queryRuns || !body || typeof total !== 'number') return undefined;
    try {
      const run = await this.deps.queryRuns.record({ scope: via.scope, chain: ep.chain, at: sentAt, total, charged: result.charged, resultPath: file, body, answer: result.value, ...(queryFile !== undefined ? { file: queryFile } : {}) });
      this.recorded.fire(run);
      return run;
    } catch (e) {
      // The answer is saved and charged; only the next price is less exact.
      this.deps.log.warn(`${ep.id}: the match count was not kept for the next price: ${errorText(e)}`);
      return undefined;
    }
  }
}
