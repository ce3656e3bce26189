/**
 * The host's side of the table launcher: one small worker, started once at an idle moment
 * (startTableLauncher in remoteTable.ts), that starts every later table worker on its own thread and hands the host
 * a MessagePort to it. Why: `new Worker()` blocks the calling thread for 14–40 ms (creating the
 * isolate and the thread), which was the host's longest stall when a person opened a table, used a
 * result as input or compared two results (issue 34 item 4). With the launcher running, the host
 * never calls `new Worker` on a person's action: it posts a request and receives a port.
 *
 * A launched table looks to RemoteTable's channel like a Worker (messages, `error`, `exit`,
 * terminate()), so the channel does not know which way its thread was started. The launcher runs
 * the same bundle as the table (tableWorker.ts, `workerData.role === 'launcher'`: launcherMain.ts).
 */
import { EventEmitter } from 'node:events';
import { join } from 'node:path';
import { Worker, type MessagePort, type ResourceLimits } from 'node:worker_threads';
import type { LaunchedEvent, LauncherRequest } from './launcherMain';
import { l10n } from '../l10n';

/** What RemoteTable's channel needs of a table's thread: a Worker, or a port the launcher handed over. */
export interface TableThread {
  on(event: 'message', listener: (raw: unknown) => void): unknown;
  on(event: 'error', listener: (e: Error) => void): unknown;
  on(event: 'exit', listener: (code: number) => void): unknown;
  postMessage(message: unknown): void;
  terminate(): Promise<unknown>;
}

/** Where the worker bundle is when this code runs from dist/ (extension.js, features.js, cli.js). */
export function defaultWorkerFile(): string {
  return join(__dirname, 'tableWorker.js');
}

/** A table worker the launcher started: its port, and its end reported by the launcher. */
class LaunchedThread extends EventEmitter implements TableThread {
  private ended = false;
  private readonly exited: Promise<void>;

  constructor(
    private readonly port: MessagePort,
    private readonly end: () => void,
  ) {
    super();
    this.exited = new Promise<void>((resolve) => this.once('exit', () => resolve()));
    port.on('message', (m: unknown) => this.emit('message', m));
  }

  postMessage(message: unknown): void {
    this.port.postMessage(message);
  }

  /** Told by the launcher: the worker stopped (or failed). Closing the port lets the host's loop go. */
  exit(code: number, error?: Error): void {
    if (this.ended) return;
    this.ended = true;
    if (error) this.emit('error', error);
    this.port.close();
    this.emit('exit', code);
  }

  terminate(): Promise<void> {
    if (!this.ended) this.end();
    return this.exited;
  }
}

/** The running launcher of one worker bundle. */
class Launcher {
  private nextId = 1;
  private readonly starting = new Map<number, { resolve: (t: LaunchedThread) => void; reject: (e: Error) => void }>();
  private readonly running = new Map<number, LaunchedThread>();
  private dead: Error | undefined;

  constructor(
    readonly file: string,
    private readonly worker: Worker,
  ) {
    worker.on('message', (m: LaunchedEvent) => this.event(m));
    const fail = (e: Error): void => this.fail(e);
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(l10n.t('The table launcher stopped (exit code {0}).', code))));
    // After the listeners: adding a 'message' listener refs a worker again, and an idle launcher
    // must never keep a process (the command-line runner, a test) from ending.
    worker.unref();
  }

  get alive(): boolean {
    return this.dead === undefined;
  }

  /** A new table worker, started on the launcher's thread; resolves with the host's end of its port. */
  start(): Promise<LaunchedThread> {
    if (this.dead) return Promise.reject(this.dead);
    const id = this.nextId++;
    return new Promise<LaunchedThread>((resolve, reject) => {
      this.starting.set(id, { resolve, reject });
      this.hold();
      this.worker.postMessage({ type: 'start', id } satisfies LauncherRequest);
    });
  }

  private event(m: LaunchedEvent): void {
    if (m.type === 'started') {
      const s = this.starting.get(m.id);
      this.starting.delete(m.id);
      const thread = new LaunchedThread(m.port, () => this.worker.postMessage({ type: 'end', id: m.id } satisfies LauncherRequest));
      this.running.set(m.id, thread);
      if (s) s.resolve(thread);
      else void thread.terminate();
      return;
    }
    const t = this.running.get(m.id);
    this.running.delete(m.id);
    this.hold();
    t?.exit(m.code, m.error ? Object.assign(new Error(m.error.message), { name: m.error.name }) : undefined);
  }

  /**
   * The launcher keeps the process alive while a table's worker is asked for or runs (its end is
   * told through here, after the worker's port has closed), and never while it only waits.
   */
  private hold(): void {
    if (this.starting.size + this.running.size > 0) this.worker.ref();
    else this.worker.unref();
  }

  private fail(e: Error): void {
    if (this.dead) return;
    this.dead = e;
    if (launcher === this) launcher = undefined;
    for (const s of this.starting.values()) s.reject(e);
    this.starting.clear();
    // Tables whose worker the launcher held end with it (their threads are its children).
    for (const t of this.running.values()) t.exit(1, e);
    this.running.clear();
  }
}

let launcher: Launcher | undefined;

/**
 * Starts the launcher of `workerFile` (once; a second call does nothing), with what every table
 * worker starts with (`workerData`: the translation bundle; `resourceLimits`). The one
 * `new Worker` the host still calls: at an idle moment, not on a person's action.
 */
export function launchTables(workerFile: string, tableWorkerData: unknown, resourceLimits: ResourceLimits): void {
  if (launcher?.file === workerFile && launcher.alive) return;
  launcher = new Launcher(workerFile, new Worker(workerFile, { workerData: { role: 'launcher', table: { workerData: tableWorkerData, resourceLimits } } }));
}

/** Whether the launcher of `workerFile` runs (then it keeps the spare table worker, not the host). */
export function launcherRuns(workerFile: string): boolean {
  return launcher?.file === workerFile && launcher.alive;
}

/** A table worker of `workerFile` from the launcher, or undefined when no launcher of that bundle runs. */
export function launchedTableThread(workerFile: string): Promise<TableThread> | undefined {
  return launcher && launcherRuns(workerFile) ? launcher.start() : undefined;
}
