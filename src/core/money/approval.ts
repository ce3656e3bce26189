/**
 * The one owner of approval (issue 30 Deliver 1): it issues an approval and answers whether a call
 * is within it. Before, "is this spend within what was approved?" was decided in six places (the
 * price step's standing and pre-approved branches, the call flow's line check, the pipeline plan,
 * the watch targets, watch creation and the watch runner), and each bound a little less than the
 * person saw: a watched query file edited after approval ran unattended, a pipeline watch's cell
 * was checked by name only. Here an approval binds what the person saw: the endpoint, the request
 * (a pipeline cell as written, a query's body, a request's inputs: `requestKey`) and the price.
 * A request that differs from the approved one is not sent: it is skipped, told, and asked again
 * the next time the person acts.
 *
 * An approval is recognised only by identity (a module-private WeakSet): an object built anywhere
 * else, such as command arguments from another extension, is never one. A watch's approval is
 * also stored (watches.json, `StoredApproval`); a stored one is only a record of what the person
 * approved, re-checked each time it is read (`watchRunApproval`, `watchCellApprovals`), never an
 * approval by itself. Pure: no file access, no VS Code.
 */
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { type Quote } from './pricing';
import { l10n } from '../l10n';
import { fmtCredits, thousands } from '../numberText';
import { SettingIds } from '../ids';
import { lazySchema } from '../lazySchema';

/** A request as the person saw it, reduced to a key: equal for equal JSON whatever the order of its keys. */
function requestKey(value: unknown): string {
  return createHash('sha256').update(canonical(value)).digest('hex');
}

function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    return `{${Object.keys(o).filter((k) => o[k] !== undefined).sort().map((k) => `${JSON.stringify(k)}:${canonical(o[k])}`).join(',')}}`;
  }
  return JSON.stringify(v) ?? 'null';
}

/** A pipeline cell's request as written (its endpoint and its inputs, references unresolved): what its line approves. */
function cellRequest(cell: { readonly call: string; readonly inputs: Record<string, unknown> }): string {
  return requestKey({ call: cell.call, inputs: cell.inputs });
}

/** What one call may spend without the person being asked again. */
export interface Approval {
  /** The cell's name, or "watch": how a refusal names it. */
  readonly what: string;
  readonly endpointId: string;
  /** requestKey of what was approved (a pipeline cell as written: `cellRequest`). */
  readonly request: string;
  /** The most it may cost (for `risk`: the most the person accepted for a bill per match). */
  readonly credits: number;
  /**
   * A watch's run: approved when the person created the watch, run with nobody at the keyboard;
   * its refusals are the watch's to tell. The ceiling and the budgets still hold.
   */
  readonly standing?: true;
  /** With `standing`: a Wallet Database query, billed per match; `credits` is the amount accepted per run. */
  readonly risk?: true;
  /** An AI agent's call (agentApproval): `credits` is what the agent allowance covers; past it the person is asked. */
  readonly agent?: true;
  /** With `agent`: the person approved this very call's price in the host's own question (agentApproval). */
  readonly asked?: true;
}

const issued = new WeakSet<object>();

function issue(a: Approval): Approval {
  const out = Object.freeze({ ...a });
  issued.add(out);
  return out;
}

/** True only for an approval issued here: never for an object from command arguments or a file. */
export function isApproval(x: unknown): x is Approval {
  return typeof x === 'object' && x !== null && issued.has(x);
}

/** A plan's line as the approval needs it (core/pipeline/plan.ts PlanLine). */
interface PlanLineLike {
  readonly cell: string;
  readonly endpointId: string;
  readonly credits: number;
  readonly bounded: boolean;
  readonly reused: boolean;
}

/** A call cell as written (core/pipeline/format.ts CallCell). */
interface CellLike {
  readonly name: string;
  readonly call: string;
  readonly inputs: Record<string, unknown>;
}

/**
 * The approvals of a plan the person has just approved, one per paid cell that will be sent, each
 * bound to that cell as written. Call only after the person's own click on the plan; a plan with
 * an unbounded line has none.
 */
export function planApprovals(lines: readonly PlanLineLike[], cells: readonly CellLike[], opts: { readonly standing?: boolean } = {}): ReadonlyMap<string, Approval> {
  const unbounded = lines.filter((l) => !l.bounded).map((l) => l.cell);
  if (unbounded.length > 0) throw new Error(l10n.t('The plan has no bound for {0}.', unbounded.join(', ')));
  const out = new Map<string, Approval>();
  for (const l of lines) {
    if (l.reused) continue;
    const cell = cells.find((c) => c.name === l.cell);
    if (!cell) continue;
    out.set(l.cell, issue({ what: l.cell, endpointId: l.endpointId, request: cellRequest(cell), credits: l.credits, ...(opts.standing ? { standing: true as const } : {}) }));
  }
  return out;
}

/**
 * Why a pipeline cell may not be sent under its approval (undefined when it may): not an approval
 * issued here, another endpoint, a price not known or past its line, or another cell than the one
 * approved (its inputs changed, even within the line). `worst` is the call's worst known case, `known` whether it has one.
 */
export function cellRefusal(a: unknown, cell: CellLike, endpointId: string, worst: number, known: boolean): string | undefined {
  if (!isApproval(a)) return l10n.t('“{0}” is not in the approved plan; nothing was sent. Run All again to see the new plan.', cell.name);
  if (a.endpointId !== endpointId) return l10n.t('“{0}” was approved for {1}, not {2}. Nothing was sent for it.', a.what, a.endpointId, endpointId);
  return priceRefusal(a, worst, known) ?? (a.request === cellRequest(cell) ? undefined : l10n.t('“{0}” changed since its line was approved; nothing was sent for it. Run All again to see and approve the new plan.', a.what));
}

function priceRefusal(a: Approval, worst: number, known: boolean): string | undefined {
  if (!known) return l10n.t('“{0}”: its price is not known exactly, so it cannot run under the plan.', a.what);
  if (worst > a.credits) return l10n.t('“{0}” would cost {1}, more than its approved line ({2}). The run stopped; nothing was sent for it. Run All again to see the new plan.', a.what, fmtCredits(worst), fmtCredits(a.credits));
  return undefined;
}

/**
 * The call flow's question (src/vscode/calls/callService.ts): is this call, with its quote, within
 * the approval a caller passed? Undefined when it is; else why not (nothing is sent). A standing
 * risk approval (a watched query, billed per match) needs only its smallest bill to fit: the rest
 * is held at the amount accepted.
 */
export function callRefusal(a: unknown, endpointId: string, q: Quote): string | undefined {
  if (!isApproval(a)) return l10n.t('This price was not approved in a plan; nothing was sent.');
  if (a.endpointId !== endpointId) return l10n.t('“{0}” was approved for {1}, not {2}. Nothing was sent for it.', a.what, a.endpointId, endpointId);
  // An agent's call past its allowance is not refused: the price step asks the person (priceCover).
  if (a.agent === true) return undefined;
  const risky = a.risk === true && !q.exact && q.atMost === undefined;
  return priceRefusal(a, risky ? q.credits : q.atMost ?? q.credits, risky || q.exact || q.atMost !== undefined);
}

/** How the price step lets an approved call through without asking (the gate's kind, core/money/quota.ts). */
type Cover =
  | { readonly kind: 'hold'; readonly credits: number; readonly why: string; readonly accepted?: number }
  | { readonly kind: 'refuse'; readonly message: string; readonly setting: string }
  /** Not covered: the person is asked, as for any call; `agent`: an AI agent asks, so Cancel is the default even below the threshold. */
  | { readonly kind: 'ask'; readonly agent?: true };

/**
 * The price step's question (src/vscode/calls/priceStep.ts): may a call priced `q`, whose gate
 * is `gate`, pass without asking, under `a`? An approved plan is the confirmation for every line
 * within it, above the confirmation threshold too (issue 35 item 2: the plan's total was
 * confirmed); a watch's run was approved when the watch was created. A bill with no bound passes
 * only under a watch's accepted amount, and only under the per-call ceiling.
 */
export function priceCover(a: unknown, q: Quote, gate: { readonly kind: string; readonly ceiling?: number }): Cover {
  if (!isApproval(a)) return { kind: 'ask' };
  if (a.agent === true) return agentCover(a, q, gate.kind);
  const why = a.standing === true ? l10n.t('approved when the watch was created') : l10n.t("approved in the pipeline's plan");
  if (gate.kind === 'unbounded') {
    if (a.standing !== true || a.risk !== true) return { kind: 'ask' };
    if (gate.ceiling !== undefined && a.credits > gate.ceiling) {
      return { kind: 'refuse', message: l10n.t('The watch accepts up to {0} per run, above your per-call ceiling (walletAnalytics.maxCreditsPerCall: {1}). Nothing was sent.', fmtCredits(a.credits), fmtCredits(gate.ceiling)), setting: SettingIds.maxCreditsPerCall };
    }
    return { kind: 'hold', credits: a.credits, why: l10n.t('up to {0} accepted when the watch was created', fmtCredits(a.credits)), accepted: a.credits };
  }
  if (gate.kind !== 'modal' && gate.kind !== 'step') return { kind: 'ask' };
  const worst = q.exact ? q.credits : q.atMost;
  if (worst === undefined || worst > a.credits) return { kind: 'ask' };
  return { kind: 'hold', credits: worst, why };
}

/**
 * An AI agent's call (issue 33 Deliver 2), issued by the language-model tool and by the runner's
 * MCP server for each paid call. `held` is what the agent allowance holds for this call (its worst
 * known case, held in the agent ledger: core/money/agentAllowance.ts; the MCP session's
 * --max-credits), 0 when the allowance does not cover it. Only a call from a chat (`fromChat`:
 * VS Code passed a chat's invocation token, which it checks against a live chat session; the MCP
 * server, whose client is the person's own agent) may spend the allowance; any other caller
 * (another extension's `invokeTool`, a script) is given nothing, so the price step asks.
 * `asked`: the person has just approved this very price in the host's own question (an MCP
 * elicitation, its default decline): `held` is that price, and a bill with no bound (a query whose
 * count is unknown) runs as the palette's Run does, held at its smallest bill. The ceiling and the
 * budgets hold either way.
 */
export function agentApproval(o: { readonly endpointId: string; readonly fromChat: boolean; readonly held: number; readonly asked?: boolean }): Approval {
  return issue({ what: 'agent', endpointId: o.endpointId, request: '', credits: o.fromChat ? Math.max(0, o.held) : 0, agent: true, ...(o.asked === true && o.fromChat ? { asked: true as const } : {}) });
}

/**
 * Within the allowance held for it (a known worst case, at most what is held), an agent's call goes
 * on without a question; past it, the person is asked with Cancel the default; a bill with no bound
 * (a Wallet Database query whose match count is unknown) always asks, in the palette's own words,
 * unless the person has just answered that very question (`asked`).
 */
function agentCover(a: Approval, q: Quote, gate: string): Cover {
  if (gate === 'unbounded') return a.asked === true ? { kind: 'hold', credits: q.credits, why: l10n.t('approved by the person for this call; every match is billed') } : { kind: 'ask' };
  if (gate !== 'modal' && gate !== 'step') return { kind: 'ask', agent: true };
  const worst = q.exact ? q.credits : q.atMost;
  if (worst === undefined || a.credits <= 0 || worst > a.credits) return { kind: 'ask', agent: true };
  return { kind: 'hold', credits: worst, why: a.asked === true ? l10n.t('approved by the person') : l10n.t('within the agent allowance') };
}

/**
 * What the person approved when creating a watch, as watches.json keeps it. `credits` is the most
 * a run may cost (its exact price, its bound, or for a query billed per match the amount the
 * person typed); `request`: requestKey of the request or the query body approved; `cells`: a
 * pipeline's lines, each bound to its cell as written. Only a record: each run checks it again.
 */
export const StoredApproval = lazySchema(() => z.object({
  credits: z.number().nonnegative(),
  risk: z.boolean().optional(),
  request: z.string().optional(),
  cells: z.record(z.string(), z.union([z.number().nonnegative(), z.object({ endpointId: z.string(), request: z.string(), credits: z.number().nonnegative() })])).optional(),
  /** The profile scope (core/transport/profiles.ts) it was approved for: a run under another connection is skipped. */
  scope: z.string(),
}));
export type StoredApproval = z.infer<typeof StoredApproval>;

/** The watch's record of the person's approval, made at Watch This… right after their click. */
export function watchApprovalRecord(opts: { readonly credits: number; readonly scope: string; readonly risk?: boolean; readonly request?: unknown; readonly cells?: readonly (CellLike & { readonly credits: number })[] }): StoredApproval {
  return {
    credits: opts.credits, scope: opts.scope,
    ...(opts.risk ? { risk: true } : {}),
    ...(opts.request !== undefined ? { request: requestKey(opts.request) } : {}),
    ...(opts.cells ? { cells: Object.fromEntries(opts.cells.map((c) => [c.name, { endpointId: c.call, request: cellRequest(c), credits: c.credits }])) } : {}),
  };
}

const watchAgain = (): string => l10n.t('Approve the New Price… shows it and asks again.');

/**
 * A watch's run refused because what it would send (or its price) is not what was approved: skipped
 * and told; `approveAgain` says the person can see and approve the new price (Approve the New Price…).
 */
interface WatchRefusal {
  readonly refused: string;
  readonly approveAgain: true;
}

/**
 * A watched request's or query's run: its approval when `request` is the very one approved (the
 * query file's body as read now, the request's inputs), else why not (skipped, told).
 */
export function watchRunApproval(stored: StoredApproval, endpointId: string, request: unknown): Approval | WatchRefusal {
  if (stored.request === undefined || stored.request !== requestKey(request)) {
    return { refused: l10n.t('what it would send is not what was approved when the watch was created (the query or its inputs changed); nothing was sent. {0}', watchAgain()), approveAgain: true };
  }
  return issue({ what: 'watch', endpointId, request: stored.request, credits: stored.credits, standing: true, ...(stored.risk === true ? { risk: true as const } : {}) });
}

/**
 * A watched pipeline's run: one approval per cell to send, each only when that very cell (its
 * endpoint and inputs as written) was approved and its line now is within the one approved; else
 * why not (skipped, told, nothing sent).
 */
export function watchCellApprovals(stored: StoredApproval, lines: readonly PlanLineLike[], cells: readonly CellLike[]): ReadonlyMap<string, Approval> | WatchRefusal {
  const out = new Map<string, Approval>();
  for (const l of lines) {
    if (l.reused) continue;
    const was = stored.cells?.[l.cell];
    const cell = cells.find((c) => c.name === l.cell);
    const line = typeof was === 'object' ? was : undefined;
    if (!cell || !line || line.endpointId !== l.endpointId || line.request !== cellRequest(cell)) {
      return { refused: l10n.t('“{0}” is not the cell approved when the watch was created (its endpoint or inputs changed, or it is new); nothing was sent. {1}', l.cell, watchAgain()), approveAgain: true };
    }
    if (!l.bounded || l.credits > line.credits) {
      return { refused: l10n.t('“{0}” would cost {1} and its approved line is {2}; nothing was sent. {3}', l.cell, l.bounded ? fmtCredits(l.credits) : l10n.t('an unknown amount'), fmtCredits(line.credits), watchAgain()), approveAgain: true };
    }
    out.set(l.cell, issue({ what: l.cell, endpointId: l.endpointId, request: line.request, credits: line.credits, standing: true }));
  }
  return out;
}

/** After a watch's run: why it must pause (it charged more than approved per run), or undefined. */
export function overApproved(stored: StoredApproval, charged: number): string | undefined {
  if (charged <= stored.credits) return undefined;
  return l10n.t('Charged {0} credits, more than the {1} approved per run: the watch is paused.', thousands(charged), thousands(stored.credits));
}

/**
 * What a watch may cost in a day, as its approval says it (issue 35 item 11): the price (or the
 * amount accepted) per run times the runs a day, and, when a daily budget is set, that what it
 * leaves bounds the day: never "at most your balance" for what is the budget's remainder.
 */
export function watchDayWords(o: { readonly perRun: number; readonly perDay: number; readonly risk: boolean; readonly dayLeft?: number }): string {
  const day = l10n.t('{0} a run, {1} runs a day: at most {2} a day', `${o.risk ? l10n.t('up to ') : ''}${fmtCredits(o.perRun)}`, thousands(o.perDay), fmtCredits(o.perRun * o.perDay));
  if (o.dayLeft === undefined) return `${day}.`;
  return l10n.t('{0}, and never past what your daily budget leaves today ({1}): a run that would pass it is skipped.', day, fmtCredits(o.dayLeft));
}
