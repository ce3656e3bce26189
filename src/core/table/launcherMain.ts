/**
 * The table launcher's own thread (tableWorker.ts runs this when started with
 * `workerData.role === 'launcher'`; the host's side is tableLauncher.ts). It starts table workers
 * here, so the 14–40 ms that `new Worker()` blocks its caller are spent on this thread, never the
 * extension host's; each table worker talks to the host through a MessagePort handed over at its
 * start, and this thread reports when one stops.
 */
import { MessageChannel, Worker, type MessagePort, type ResourceLimits } from 'node:worker_threads';

/** Host → launcher. */
export type LauncherRequest = { readonly type: 'start'; readonly id: number } | { readonly type: 'end'; readonly id: number };

/** Launcher → host: a table worker's port, or its end (with the error it failed with, if it did). */
export type LaunchedEvent =
  | { readonly type: 'started'; readonly id: number; readonly port: MessagePort }
  | { readonly type: 'exited'; readonly id: number; readonly code: number; readonly error?: { readonly name: string; readonly message: string } };

/** What every table worker starts with, as the host gave it. */
export interface LauncherData {
  readonly role: 'launcher';
  readonly table: { readonly workerData: unknown; readonly resourceLimits: ResourceLimits };
}

interface Started {
  readonly worker: Worker;
  readonly port: MessagePort;
  /** The host's id once handed over; undefined while it waits as the spare. */
  id: number | undefined;
  gone: boolean;
  error?: { name: string; message: string };
}

/**
 * Runs the launcher on `host` (its parentPort): starts `workerFile` (this bundle) for each request.
 * After the first, one spare waits started, so the next table finds its thread, isolate and bundle
 * ready (90–120 ms of a table's index: issue 34), as prestartTableWorker did on the host.
 */
export function runLauncher(host: MessagePort, workerFile: string, data: LauncherData): void {
  const workers = new Map<number, Started>();
  let spare: Started | undefined;
  const post = (e: LaunchedEvent, transfer: MessagePort[] = []): void => host.postMessage(e, transfer);
  const launch = (): Started => {
    const { port1, port2 } = new MessageChannel();
    const base = typeof data.table.workerData === 'object' && data.table.workerData !== null ? data.table.workerData : {};
    const worker = new Worker(workerFile, { resourceLimits: data.table.resourceLimits, workerData: { ...base, port: port1 }, transferList: [port1] });
    const s: Started = { worker, port: port2, id: undefined, gone: false };
    worker.on('error', (e: Error) => (s.error = { name: e.name, message: e.message }));
    worker.on('exit', (code) => {
      s.gone = true;
      if (spare === s) spare = undefined;
      if (s.id === undefined) return;
      workers.delete(s.id);
      post({ type: 'exited', id: s.id, code, ...(s.error ? { error: s.error } : {}) });
    });
    // A spare never keeps the launcher's process alive; a handed-over table does (through its port).
    worker.unref();
    return s;
  };
  host.on('message', (m: LauncherRequest) => {
    if (m.type === 'end') {
      void workers.get(m.id)?.worker.terminate();
      return;
    }
    const s = spare && !spare.gone ? spare : launch();
    spare = undefined;
    s.id = m.id;
    workers.set(m.id, s);
    post({ type: 'started', id: m.id, port: s.port }, [s.port]);
    setImmediate(() => (spare ??= launch()));
  });
}
