/**
 * A paid tool of the MCP server (issue 33 part 3): the runner's half of the agents' money path.
 * Nothing here decides money: the price is the core's (core/agents/priceFacts.ts, the same gate as
 * every host), the approval comes from the one owner (core/money/approval.ts agentApproval), and
 * the call goes through the headless host (host.ts), that is the unattended flow and the one send
 * (core/calls): ceiling, balance, reconciliation after an ambiguous submit, the ledger, the result
 * writer.
 *
 * Who approves what, so the person sees one price question, never two, and never none outside the
 * allowance:
 * - within what is left of this session's allowance (--max-credits, held before the send so two
 *   calls in flight cannot both spend it), the call goes on without a question;
 * - beyond it, the person is asked through the client (MCP elicitation): the exact price, the
 *   balance after, a box to tick whose default is unticked; only "accept" with the box ticked runs
 *   it, charged once; declined, cancelled or unanswered, nothing is sent;
 * - a client that cannot ask (no elicitation capability) is refused, with the price in the error;
 * - a Wallet Database query whose match count is unknown is never inside the allowance: it is
 *   asked in the palette's own words (core/money/riskAmount.ts unboundedBillWords).
 */
import type { ElicitRequestFormParams, ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import { agentPriceFacts, type PriceFacts } from '../core/agents/priceFacts';
import { readResultText } from '../core/agents/resultText';
import { toolAnswer } from '../core/agents/toolText';
import { agentApproval } from '../core/money/approval';
import type { QuoteContext } from '../core/money/pricing';
import { fmtCredits, thousands } from '../core/numberText';
import { unboundedBillWords } from '../core/money/riskAmount';
import type { BudgetState } from '../core/money/budget';
import { shortTitle, validateInput, type Endpoint } from '../core/spec/catalog';
import { checkListsSliced } from '../core/spec/listCheck';
import type { QueryBody } from '../core/spec/queryModel';
import type { JobRecord } from '../core/jobs/job';
import type { RunnerHost } from './host';
import { declinedForAgent } from '../core/calls/outcome';

/** A tool's answer as MCP carries it: text, and whether it is an error. */
export interface ToolReply {
  readonly text: string;
  readonly isError: boolean;
}

/** What the MCP request gives a paid call: its cancellation, and its progress (when the client asked for it). */
interface CallExtra {
  readonly signal: AbortSignal;
  readonly progress?: (progress: number, message: string) => void;
}

/** How the server asks the person (MCP elicitation), or undefined when the client cannot. */
type Ask = (params: ElicitRequestFormParams) => Promise<ElicitResult>;

/**
 * This session's allowance (--max-credits): spent, and held while a call is in flight. A hold is
 * taken synchronously, so two tool calls in flight cannot both take what is left.
 */
export class SessionAllowance {
  private spent = 0;
  private readonly holds = new Map<number, number>();
  private next = 0;
  constructor(readonly total: number) {}

  left(): number {
    let held = 0;
    for (const h of this.holds.values()) held += h;
    return Math.max(0, this.total - this.spent - held);
  }

  /** Holds `credits` when they are left; the hold's id, or undefined. */
  hold(credits: number): number | undefined {
    if (credits > this.left()) return undefined;
    const id = ++this.next;
    this.holds.set(id, credits);
    return id;
  }

  /** Ends a hold; what the call charged is spent. */
  settle(id: number, charged: number): void {
    this.holds.delete(id);
    this.spent += charged;
  }

  /** The allowance as the price facts read it (a budget of one session), or undefined when it is 0. */
  state(): BudgetState | undefined {
    if (this.total <= 0) return undefined;
    const left = this.left();
    return { kind: 'day', budget: this.total, spent: this.total - left, left, since: 0, resetsAt: new Date(8.64e15), rolling: false };
  }

  words(): string {
    return this.total <= 0
      ? 'No allowance for this session (--max-credits 0): the person is asked for every paid call.'
      : `${fmtCredits(this.left())} of this session's allowance left (--max-credits ${thousands(this.total)}).`;
  }
}

/** What a paid call needs from the server. */
export interface PaidDeps {
  readonly host: RunnerHost;
  readonly allowance: SessionAllowance;
  /** The per-call ceiling (--max-credits-per-call). */
  readonly ceiling: number;
  /** The service's origin, where the key goes and whose credits pay. */
  readonly origin: string;
  /** Where the session's results and state are kept (--out). */
  readonly out: string;
  /** Undefined: the client has no elicitation, so nothing beyond the allowance can be approved. */
  readonly ask: Ask | undefined;
  readonly openHint: (path: string) => string;
  readonly workerFile: string;
}

/** The quote's context: one page of a paged read; a query's count from this hour (its price then exact). */
async function quoteContext(ep: Endpoint, raw: unknown, host: RunnerHost): Promise<QuoteContext | undefined> {
  if (ep.paged === true) return { pages: 1 };
  const v = validateInput(ep, raw);
  const body = v.ok ? (v.input.query as QueryBody | undefined) : undefined;
  if (ep.price.kind !== 'perMatch' || !body) return undefined;
  const known = await host.queryRuns.lookup(host.scope, ep.chain, body).catch(() => undefined);
  return known ? { knownMatches: known.total, matchesAt: known.at, now: Date.now() } : undefined;
}

/** Prices a call as the session will run it: the balance (free), the ceiling, the session's allowance. */
export async function sessionPrice(ep: Endpoint, given: unknown, deps: Pick<PaidDeps, 'host' | 'allowance' | 'ceiling'>): Promise<{ facts: PriceFacts; ctx: QuoteContext | undefined } | { readonly problems: readonly string[] }> {
  // An agent's list of 100,000 checked a slice at a time, once: the checks below then take it as it is (issue 34 item 4).
  const raw = await checkListsSliced(ep, given);
  const ctx = await quoteContext(ep, raw, deps.host);
  const balance = await deps.host.api.credits().catch(() => undefined);
  const allowance = deps.allowance.state();
  const f = agentPriceFacts(ep, raw, {
    settings: { confirmAbove: Number.POSITIVE_INFINITY, maxCreditsPerCall: deps.ceiling }, budgets: [],
    allowanceText: deps.allowance.words(),
    ...(ctx ? { ctx } : {}), ...(balance !== undefined ? { balance } : {}), ...(allowance ? { allowance } : {}),
  });
  return 'problems' in f ? f : { facts: f, ctx };
}

/** Whether the person will be asked, in this server's words. */
export function sessionAskedWords(f: PriceFacts): string {
  if (f.refusal !== undefined) return `It would be refused before sending: ${f.refusal}`;
  if (f.worst === undefined) return 'Its bill has no bound before it runs (100 credits per match), so the person is always asked through the MCP client.';
  return f.covered ? 'Within this session’s allowance: it runs without a question.' : 'Beyond this session’s allowance: the person is asked through the MCP client (decline is the default); a client that cannot ask refuses it.';
}

/** The person's question: the price in the core's lines (or the palette's words for a bill per match), a box unticked by default. */
function question(ep: Endpoint, f: PriceFacts, deps: PaidDeps): ElicitRequestFormParams {
  const title = shortTitle(ep);
  const to = `Charged to the key in WA_API_KEY, at ${deps.origin}.`;
  if (f.worst === undefined) {
    const perMatch = ep.price.kind === 'perMatch' ? ep.price.credits : f.quote.credits;
    const w = unboundedBillWords({ perMatch, minimum: f.quote.credits, ceiling: deps.ceiling, now: Date.now() });
    return {
      mode: 'form',
      message: [`An AI agent asks to run ${title}.`, w.message, w.known, w.rule, f.lines[1] ?? '', to].join('\n\n'),
      requestedSchema: { type: 'object', properties: { approve: { type: 'boolean', title: `Run — ${fmtCredits(perMatch)} × the matches`, description: w.runDetail, default: false } }, required: ['approve'] },
    };
  }
  return {
    mode: 'form',
    message: [`An AI agent asks to run ${title} for ${f.quote.text}.`, ...f.lines.slice(1), to].join('\n'),
    requestedSchema: { type: 'object', properties: { approve: { type: 'boolean', title: `Run it for ${f.quote.text}`, description: 'Leave unticked, decline or cancel: nothing is sent, nothing is charged.', default: false } }, required: ['approve'] },
  };
}

/** How long the person has to answer a price question (then: nothing is sent). */
export const ASK_TIMEOUT_MS = 10 * 60_000;

/** One paid tool call: priced, approved (allowance or person), sent through the core, followed to its file. */
export async function paidCall(ep: Endpoint, raw: unknown, extra: CallExtra, deps: PaidDeps): Promise<ToolReply> {
  const title = shortTitle(ep);
  const refuse = (lines: readonly string[]): ToolReply => ({ text: toolAnswer(lines), isError: true });
  const priced = await sessionPrice(ep, raw, deps);
  if ('problems' in priced) return refuse([`${title}: not sent, nothing charged: the inputs are not valid.`, ...priced.problems]);
  const { facts: f, ctx } = priced;
  if (f.refusal !== undefined) return refuse([`${title}: not sent, nothing charged.`, f.refusal]);
  const worst = f.worst;
  const hold = f.covered && worst !== undefined ? deps.allowance.hold(worst) : undefined;
  let asked = false;
  if (hold === undefined) {
    if (!deps.ask) {
      return refuse([`${title} costs ${f.quote.text}, beyond this session's allowance. Nothing was sent and nothing was charged: this MCP client cannot ask the person (it has no elicitation), so only calls within --max-credits run.`, ...f.lines.slice(1), 'Ask the person to approve it, or to restart the server with a larger --max-credits.']);
    }
    const answer = await deps.ask(question(ep, f, deps)).catch((): ElicitResult => ({ action: 'cancel' }));
    if (answer.action !== 'accept' || answer.content?.approve !== true) {
      return { text: toolAnswer([declinedForAgent(`${title} (${f.quote.text})`, 'price')]), isError: false };
    }
    // Approved by the person, not by the allowance: it spends none of it.
    asked = true;
  }
  // What the allowance held, or what the person just approved: the owner's approval of this call.
  const approval = agentApproval({ endpointId: ep.id, fromChat: true, held: worst ?? f.quote.credits, asked });
  let charged = 0;
  try {
    const r = await deps.host.callOnce(`mcp ${ep.id}`, ep, f.input, approval, ctx);
    if (r.status === 'done' || r.status === 'queued') charged = r.credits;
    if (r.status === 'done') {
      return { text: `${title} done: charged ${fmtCredits(r.credits)}. Result: ${r.resultPath}\n${await readResultText({ path: r.resultPath, rows: 10 }, { signal: extra.signal, openHint: deps.openHint, workerFile: deps.workerFile })}`, isError: false };
    }
    if (r.status === 'queued') return await followed(title, r.requestId, r.credits, extra, deps, r.reconciled);
    if ('mayBeCharged' in r && r.mayBeCharged === true) {
      // Counted as spent: what may have been charged is never handed back to the allowance.
      charged = worst ?? f.quote.credits;
      return refuse([`${title} failed, and it may have been charged: ${r.message}`, 'This server never sends it again by itself: the same call with the same inputs is refused for a day. Check walletAnalytics_history and walletAnalytics_credits (both free), and tell the person, before anything else.']);
    }
    return refuse([`${title}: ${r.message}`]);
  } finally {
    if (hold !== undefined) deps.allowance.settle(hold, charged);
  }
}

/** A queued call: waits for its file (progress to the client), or stops waiting when the client cancels; the paid job goes on. */
async function followed(title: string, requestId: string, credits: number, extra: CallExtra, deps: PaidDeps, reconciled: string | undefined): Promise<ToolReply> {
  const head = `${title}: request ${requestId} accepted, charged ${fmtCredits(credits)}.${reconciled ? ` ${reconciled}` : ''}`;
  let step = 0;
  extra.progress?.(++step, `${head} Waiting for its file…`);
  const job: JobRecord | undefined = await deps.host.settled(requestId, extra.signal, (j) => extra.progress?.(++step, `${title}: ${j.state}`));
  if (!job) {
    return { text: toolAnswer([head, `Stopped waiting; the paid job goes on. Its request id is kept in ${deps.out}/runner-state.json, and its file is downloaded into ${deps.out} when it is done (by this server, or the next one started with the same --out). walletAnalytics_history lists it.`]), isError: false };
  }
  if (job.state === 'done' && job.resultPath !== undefined) {
    return { text: `${head} Result: ${job.resultPath}\n${await readResultText({ path: job.resultPath, rows: 10 }, { signal: extra.signal, openHint: deps.openHint, workerFile: deps.workerFile })}`, isError: false };
  }
  return { text: toolAnswer([head, `The job ended as ${job.state}.`], job.error !== undefined ? [job.error] : []), isError: true };
}
