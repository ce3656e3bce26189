/**
 * One call with nobody at the keyboard to ask (issue 32: the command-line runner; an agent's host
 * later). The person approved up front, before anything was sent: the runner's `--max-credits N`
 * over the printed plan is their approval of each line, issued by the one owner of approval
 * (core/money/approval.ts planApprovals). So nothing here decides anew: the same checks as the
 * window's flow run in the same order (the catalog's input checks and the client's preflight; a
 * paid call that may already have been charged; the approval's own answer, callRefusal; the price
 * gate of core/money/quota.ts, which holds the per-call ceiling, the balance and the budgets; the
 * owner's priceCover) and where the window would ask the person, this refuses: nothing is sent.
 * The send itself is the shared one (core/calls/send.ts).
 */
import { BadInputError } from '../errors';
import { callRefusal, priceCover, type Approval } from '../money/approval';
import type { BudgetState } from '../money/budget';
import { isPaid, quote, type QuoteContext } from '../money/pricing';
import { priceGate } from '../money/quota';
import { newPagedFile, startPaged } from '../results/pagedResult';
import type { Endpoint } from '../spec/catalog';
import { validateInputSliced } from '../spec/listCheck';
import { folderInside } from '../files/writeInside';
import { failedSend, sendCall, type CallHost, type Sent } from './send';
import { l10n } from '../l10n';
import { fmtCredits } from '../numberText';

/** What the unattended flow needs besides the send's host: the checks before it, the gate's numbers, the budgets' hold. */
export interface UnattendedHost extends CallHost {
  readonly api: CallHost['api'] & { preflight(endpointId: string, rawInput: unknown): Promise<Record<string, unknown>> };
  /** The per-call ceiling in force (the window's walletAnalytics.maxCreditsPerCall; the runner's --max-credits). */
  readonly maxCreditsPerCall: number;
  /** The balance, when it could be read (free): a call past it is refused before sending. */
  balance(): Promise<number | undefined>;
  /** The spend budgets as they stand for this scope (none: an empty list). */
  budgets(): readonly BudgetState[];
  /** Holds a call's worst case against the budgets, checked afresh, before it is sent (core/money/spendLedger.ts). */
  hold(endpointId: string, credits: number): Promise<{ readonly id: string } | { readonly refused: string }>;
  release(id: string): Promise<void>;
  /**
   * The person said up front that a call which may already have been charged may be sent again (the
   * runner's --charge-again); 'never' where no such choice exists (the MCP server: an agent's retry).
   */
  readonly chargeAgain?: boolean | 'never';
  /** Where a paged read's file goes. */
  folder(): string;
}

/** The outcome: the send's, or a refusal before anything was sent. A paged read's file is a direct answer with `resultPath`. */
type Unattended = Sent | { readonly kind: 'refused'; readonly message: string } | { readonly kind: 'paged'; readonly resultPath: string; readonly credits: number };

/** Checks, prices and (within the approval) sends one call; never asks, never sends past what was approved. */
export async function runUnattended(ep: Endpoint, raw: Record<string, unknown>, approval: Approval | undefined, host: UnattendedHost, ctx?: QuoteContext): Promise<Unattended> {
  const v = await validateInputSliced(ep, raw);
  if (!v.ok) return { kind: 'invalid', errors: v.errors };
  let input: Record<string, unknown>;
  try {
    input = await host.api.preflight(ep.id, v.input);
  } catch (e) {
    if (e instanceof BadInputError && e.source === 'client') return { kind: 'invalid', errors: e.problems };
    throw e;
  }
  const paid = isPaid(ep);
  if (paid && (await host.ambiguous.lastAt(host.scope, ep.id, input)) !== undefined && host.chargeAgain !== true) {
    const said = l10n.t('{0} with these inputs may already have been charged: an earlier run ended without a clear answer. Nothing was sent. Check the request history and your credits (both free).', ep.id);
    return { kind: 'refused', message: host.chargeAgain === 'never' ? said : `${said} ${l10n.t('To send it again anyway, run with --charge-again.')}` };
  }
  const q = quote(ep, input, ep.paged ? { pages: 1 } : ctx);
  if (q.credits === 0 && q.exact) return send(ep, input, host);
  if (approval === undefined) return { kind: 'refused', message: l10n.t('{0} costs {1} and is not in the approved plan; nothing was sent.', ep.id, q.text) };
  const line = callRefusal(approval, ep.id, q);
  if (line !== undefined) return { kind: 'refused', message: line };
  const gate = priceGate(q, { confirmAbove: Number.POSITIVE_INFINITY, maxCreditsPerCall: host.maxCreditsPerCall }, await host.balance().catch(() => undefined), undefined, false, host.budgets());
  if (gate.kind === 'refuse') return { kind: 'refused', message: gate.message };
  const cover = priceCover(approval, q, gate);
  if (cover.kind === 'refuse') return { kind: 'refused', message: cover.message };
  if (cover.kind === 'ask') return { kind: 'refused', message: l10n.t('{0} would need a person to approve {1}; nothing was sent.', ep.id, q.text) };
  const h = await host.hold(ep.id, cover.credits);
  if ('refused' in h) return { kind: 'refused', message: h.refused };
  try {
    return await send(ep, input, host);
  } finally {
    await host.release(h.id);
  }
}

async function send(ep: Endpoint, input: Record<string, unknown>, host: UnattendedHost): Promise<Unattended> {
  if (ep.paged !== true) return sendCall(ep, input, host);
  // A pipeline's paged cell reads one page (as in the window), kept as it comes.
  const sentAt = Date.now();
  const file = await newPagedFile(await folderInside(host.folder()), ep.id);
  const out = await startPaged(file, ep, input, {
    maxPages: 1,
    cancelled: () => false,
    baseUrl: host.baseUrl,
    profileId: host.profileId,
    call: async (id, i) => {
      const r = await host.api.call(id, i);
      await host.record(ep.id, r.charged);
      return r;
    },
  });
  if (out.end === 'failed' || !out.result) return failedSend(ep, input, out.error ?? new Error(l10n.t('No page was read ({0}).', fmtCredits(out.credits))), sentAt, host);
  await host.ambiguous.forget(host.scope, ep.id, input);
  return { kind: 'paged', resultPath: out.file, credits: out.credits };
}
