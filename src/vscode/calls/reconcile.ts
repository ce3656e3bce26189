/**
 * The VS Code side of reconciling an ambiguous submit: the job store says which request ids are
 * already followed, the connection gives the client, and core/jobs/reconcile.ts does the looking.
 */
import type { Endpoint } from '../../core/catalog';
import { reconcileMessage, reconcileSubmit } from '../../core/jobs/reconcile';
import type { Connection } from '../base/connection';
import type { JobService } from '../jobs/jobService';
import type { Reconciled } from './callService';

/** Looks a submit that got no clear answer up in the free GET /requests, for a bounded time. */
export async function reconcileInHistory(
  connection: Connection,
  jobs: JobService,
  q: { ep: Endpoint; input: Record<string, unknown>; sentAt: number; progress: (message: string) => void },
): Promise<Reconciled> {
  const started = Date.now();
  const tick = setInterval(() => q.progress(`${Math.round((Date.now() - started) / 1000)} s`), 1000);
  try {
    const r = await reconcileSubmit(connection.api(), {
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
