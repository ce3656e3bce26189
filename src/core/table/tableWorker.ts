/**
 * Entry of the table worker (bundled alone as dist/tableWorker.js): one table per worker, so the
 * extension host's main thread never indexes, types, sorts, filters, searches or exports. Every
 * message from the host goes to WorkerTable; every answer goes back through parentPort, or through
 * the MessagePort the table launcher handed over (workerData.port: tableLauncher.ts). Started with
 * `workerData.role === 'launcher'`, the same bundle is the launcher itself (launcherMain.ts).
 */
import { setPriority } from 'node:os';
import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import { useBundle } from '../l10n';
import { runLauncher, type LauncherData } from './launcherMain';
import { indexWarmupSteps } from './indexWarmup';
import { sortWarmupSteps } from './sortWarmup';
import { WARM_MESSAGE } from './workerProtocol';
import { WorkerTable } from './workerTable';
import { postMessageTo } from './packedLines';
import { l10n } from '../l10n';

/**
 * The worker's own niceness. On Linux a thread's priority is its own (setpriority on pid 0 is the
 * calling thread), so on a busy machine the host's main thread is scheduled first and a long pass
 * takes the spare CPU instead. Elsewhere the call would lower the whole extension host: not done.
 */
const NICE = 5;

const data = workerData as { l10nBundle?: Record<string, string>; port?: MessagePort; role?: string } | undefined;
if (!parentPort) throw new Error(l10n.t('tableWorker.js runs as a worker thread (see remoteTable.ts), not on its own.'));
if (data?.role === 'launcher') runLauncher(parentPort, __filename, data as unknown as LauncherData);
else {
  const port = data?.port ?? parentPort;
  if (process.platform === 'linux') {
    try {
      setPriority(0, NICE);
    } catch {
      // Best effort: a sandbox may refuse it, and the table works the same.
    }
  }
  // The host's translation bundle (tableWorkerOptions), so the worker's messages read as the host's do.
  useBundle(data?.l10nBundle);
  const table = new WorkerTable((message) => postMessageTo(port, message));
  port.on('message', (m: unknown) => table.receive(m));
  // The index's and the sort's loops made hot while the worker waits (indexWarmup.ts, sortWarmup.ts),
  // one small scan or sort a turn; then `warm` to whoever started the thread (prestartTableWorker
  // waits for it; anyone else drops it).
  const host = parentPort;
  const steps: (() => unknown)[] = [...indexWarmupSteps(), ...sortWarmupSteps()];
  const warm = (): void => {
    steps.shift()?.();
    if (steps.length > 0) setImmediate(warm);
    else host.postMessage(WARM_MESSAGE);
  };
  setImmediate(warm);
}
