/**
 * A host's side of reconciling an ambiguous submit, for any host: the history searched is the one
 * of the client the submit went to, the host says which request ids it already follows, and
 * core/jobs/reconcile.ts does the looking. The window shows the progress in a notification; the
 * command-line runner prints it.
 */
import { reconcileMessage, reconcileSubmit, type HistoryApi, type ReconcileOptions } from '../jobs/reconcile';

/** What looking a submit up in the free request history found. */
export type Reconciled =
  | { readonly kind: 'found'; readonly requestId: string; readonly submittedAt: string; readonly message: string }
  | { readonly kind: 'notFound'; readonly message: string }
  | { readonly kind: 'unknown'; readonly message: string };

interface HistoryQuery {
  readonly endpointId: string;
  readonly input: Record<string, unknown>;
  readonly sentAt: number;
  /** True for request ids the host already follows: those are other jobs, never this one. */
  readonly known: (requestId: string) => boolean;
  /** Told every second while the search runs (seconds so far). */
  readonly progress?: (message: string) => void;
}

/** Looks a submit that got no clear answer up in the free GET /requests of its own connection, for a bounded time. */
export async function reconcileInHistory(api: HistoryApi, q: HistoryQuery, opts: ReconcileOptions = {}): Promise<Reconciled> {
  const started = Date.now();
  const tick = q.progress ? setInterval(() => q.progress?.(`${Math.round((Date.now() - started) / 1000)} s`), 1000) : undefined;
  try {
    const r = await reconcileSubmit(api, { endpointId: q.endpointId, inputs: q.input, sentAt: q.sentAt, known: q.known }, opts);
    const message = reconcileMessage(r);
    if (r.kind === 'found') return { kind: 'found', requestId: r.record.requestId, submittedAt: r.record.createdAt ?? new Date(q.sentAt).toISOString(), message };
    return { kind: r.kind, message };
  } finally {
    if (tick) clearInterval(tick);
  }
}
