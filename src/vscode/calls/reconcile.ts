/**
 * The VS Code side of reconciling an ambiguous submit: the job store says which request ids are
 * already followed, the flow's bound connection gives the client (the history searched is the one
 * of the service and key the submit went to, whatever profile is active now), and
 * core/jobs/reconcile.ts does the looking.
 */
import { reconcileMessage, reconcileSubmit } from '../../core/jobs/reconcile';
import type { JobService } from '../jobs/jobService';
import type { Reconciled, ReconcileQuery } from './callService';

/** Looks a submit that got no clear answer up in the free GET /requests of its own connection, for a bounded time. */
export async function reconcileInHistory(jobs: JobService, q: ReconcileQuery): Promise<Reconciled> {
  const started = Date.now();
  const tick = setInterval(() => q.progress(`${Math.round((Date.now() - started) / 1000)} s`), 1000);
  try {
    const r = await reconcileSubmit(q.via.api, {
      endpointId: q.ep.id,
      inputs: q.input,
      sentAt: q.sentAt,
      known: (id) => jobs.store.get(id) !== undefined,
    });
    const message = reconcileMessage(r);
    if (r.kind === 'found') return { kind: 'found', requestId: r.record.requestId, submittedAt: r.record.createdAt ?? new Date(q.sentAt).toISOString(), message };
    return { kind: r.kind, message };
  } finally {
    clearInterval(tick);
  }
}
