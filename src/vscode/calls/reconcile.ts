// PLACEHOLDER until core/jobs/reconcile.ts lands (replaced before commit)
import type { Endpoint } from '../../core/catalog';
import type { Connection } from '../connection';
import type { JobService } from '../jobs/jobService';
import type { Reconciled } from './callService';

export async function reconcileInHistory(
  _connection: Connection,
  _jobs: JobService,
  _q: { ep: Endpoint; input: Record<string, unknown>; sentAt: number; progress: (m: string) => void },
): Promise<Reconciled> {
  return { kind: 'unknown', message: 'not checked' };
}
