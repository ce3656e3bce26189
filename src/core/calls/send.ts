/**
 * The one send of a call whose price was approved, whoever hosts it (issue 32): the window's call
 * flow (src/vscode/calls/callService.ts) and the command-line runner (src/runner/) both send through
 * here, so a submit, a direct call, the charge written to the ledger, a failure read for whether it
 * was charged, the reconciliation of an ambiguous submit and the memory of a call that may have
 * been charged exist once. Before, this lived in the window's CallService, and the exported Python
 * script did it again and got it wrong (a second charge after a lost answer).
 *
 * What only a host knows comes in through CallHost: which connection (its client, scope, profile
 * and base URL), how a charge is recorded (the spend ledger), and how long and with what progress
 * the request history is searched. What a host shows of the outcome is its own: this file says
 * what happened, as data, never as words to search.
 */
import { BadInputError, errorText, isWalletApiError } from '../errors';
import type { JobRecord } from '../jobs/job';
import { isPaid, quote } from '../money/pricing';
import type { AmbiguousCalls } from '../money/ambiguousCalls';
import type { Endpoint } from '../spec/catalog';
import type { Reconciled } from './reconcile';

/** The two sends of the typed client (core/transport/api.ts WalletAnalyticsApi). */
interface SendApi {
  submit(endpointId: string, input: unknown): Promise<{ readonly requestId: string }>;
  call(endpointId: string, input: unknown): Promise<{ readonly value: unknown; readonly charged: number }>;
}

/** What a host gives the send: the bound connection, the ledger, the memory of unsettled calls, the history search. */
export interface CallHost {
  readonly api: SendApi;
  /** The profile scope (core/transport/profiles.ts scopeKey) charges and unsettled calls are kept under. */
  readonly scope: string;
  readonly profileId: string;
  readonly baseUrl: string;
  readonly ambiguous: AmbiguousCalls;
  /** Writes a charge to the spend ledger (core/money/spendLedger.ts) as soon as it is known. */
  record(endpointId: string, credits: number, requestId?: string): Promise<void>;
  /** Looks a submit that got no clear answer up in the free request history (core/calls/reconcile.ts). */
  reconcile(ep: Endpoint, input: Record<string, unknown>, sentAt: number, message: string): Promise<Reconciled>;
}

/** What a send came to. */
export type Sent =
  /** A queued job, accepted (or found in the history after an ambiguous submit: `reconciled` says so), charged `credits`. */
  | { readonly kind: 'queued'; readonly job: JobRecord; readonly credits: number; readonly reconciled?: string }
  /** A direct call's answer and what it charged; `sentAt` is when it left. */
  | { readonly kind: 'direct'; readonly value: unknown; readonly charged: number; readonly sentAt: number }
  /** The client's own checks refused the input: nothing was sent. */
  | { readonly kind: 'invalid'; readonly errors: readonly string[] }
  /**
   * It failed. `charged`: 'no' only when proven; 'unknown' when it may have been charged (then it
   * is remembered, and `reconciled` says what the history search found, for a queued submit).
   */
  | { readonly kind: 'failed'; readonly error: unknown; readonly message: string; readonly charged: 'no' | 'unknown'; readonly reconciled?: Reconciled };

/** Sends one approved call (a queued submit or a direct call) and records its charge; a failure is read, never guessed. */
export async function sendCall(ep: Endpoint, input: Record<string, unknown>, host: CallHost): Promise<Sent> {
  const sentAt = Date.now();
  try {
    let out: Sent;
    if (ep.family === 'queued') {
      const submittedAt = new Date().toISOString();
      const ack = await host.api.submit(ep.id, input);
      // Queued endpoints are priced exactly from their inputs (flat or per item).
      const credits = quote(ep, input).credits;
      await host.record(ep.id, credits, ack.requestId);
      out = { kind: 'queued', credits, job: jobOf(ep, input, ack.requestId, credits, submittedAt, host) };
    } else {
      const result = await host.api.call(ep.id, input);
      await host.record(ep.id, result.charged);
      out = { kind: 'direct', value: result.value, charged: result.charged, sentAt };
    }
    if (isPaid(ep)) await host.ambiguous.forget(host.scope, ep.id, input);
    return out;
  } catch (e) {
    return failedSend(ep, input, e, sentAt, host);
  }
}

/**
 * A failed send (or page) read for what it charged: a proven refusal says so; an ambiguous queued
 * submit is looked up in the history (found: followed like any accepted job, its charge recorded);
 * a paid call still unsettled is remembered, so running it again asks first ("may charge again").
 */
export async function failedSend(ep: Endpoint, input: Record<string, unknown>, e: unknown, sentAt: number, host: CallHost): Promise<Sent> {
  if (e instanceof BadInputError && e.source === 'client') return { kind: 'invalid', errors: e.problems };
  const charged = isWalletApiError(e) ? e.charged : 'unknown';
  const message = errorText(e);
  if (!isPaid(ep) || charged === 'no') return { kind: 'failed', error: e, message, charged };
  if (ep.family === 'queued') {
    const r = await host.reconcile(ep, input, sentAt, message);
    if (r.kind === 'found') {
      const credits = quote(ep, input).credits;
      await host.record(ep.id, credits, r.requestId);
      await host.ambiguous.forget(host.scope, ep.id, input);
      return { kind: 'queued', credits, reconciled: r.message, job: jobOf(ep, input, r.requestId, credits, r.submittedAt, host) };
    }
    // "Most likely not charged" is not proof: it stays 'unknown', but a retry may be offered.
    if (r.kind === 'notFound') return { kind: 'failed', error: e, message, charged: 'unknown', reconciled: r };
    await host.ambiguous.remember(host.scope, ep.id, input);
    return { kind: 'failed', error: e, message, charged: 'unknown', reconciled: r };
  }
  await host.ambiguous.remember(host.scope, ep.id, input);
  return { kind: 'failed', error: e, message, charged: 'unknown' };
}

function jobOf(ep: Endpoint, input: Record<string, unknown>, requestId: string, credits: number, submittedAt: string, host: CallHost): JobRecord {
  return { requestId, endpointId: ep.id, inputs: input, cost: credits, profileId: host.profileId, baseUrl: host.baseUrl, submittedAt, state: 'pending' };
}
