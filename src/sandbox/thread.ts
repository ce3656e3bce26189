/**
 * The sandbox in a worker thread, as the extension runs it (src/vscode/base/connection.ts): the
 * synthetic world (both chains' wallets, the market, the traders: about 450 ms of one thread's CPU
 * in a fresh Node) is drawn and every request answered on the worker's thread, never on the
 * extension host's (issue 34 item 1). The host only starts the worker (./worker.ts, bundled as
 * dist/sandboxWorker.js) and reads its addresses from one message; calls reach it over loopback
 * HTTP as they reach the in-process sandbox. Tests, the bench and `npm run sandbox` keep
 * startSandbox (./index.ts) in-process, where ledger(), received() and balance() are read directly.
 */
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { Sandbox, SandboxOptions } from './types';

/** The options a worker can be given: plain data (a clock or an id maker cannot cross to another thread). */
export type SandboxThreadOptions = Omit<SandboxOptions, 'now' | 'requestIds'>;

/** What the host keeps of a sandbox in its thread: where it listens, its key, and its end. */
export type RunningSandbox = Pick<Sandbox, 'baseUrl' | 'fileBaseUrl' | 'demoKey' | 'close'>;

/** The worker's messages to the host (./worker.ts sends them). */
export type SandboxThreadMessage =
  | { readonly type: 'ready'; readonly baseUrl: string; readonly fileBaseUrl: string; readonly demoKey: string }
  | { readonly type: 'failed'; readonly message: string }
  | { readonly type: 'closed' };

/** The host's one message to the worker: close the sandbox (its listeners, jobs and files). */
export const CLOSE_SANDBOX = 'close-sandbox';

interface ThreadHost {
  /** The worker bundle (default: sandboxWorker.js beside this bundle, i.e. dist/). */
  readonly workerFile?: string;
  /** Told when the thread ends by itself after it started listening (a crash): the sandbox is gone. */
  readonly onGone?: (why: string) => void;
}

/** Starts a sandbox in its own worker thread; resolves once it listens, rejects with its start's error. */
export function startSandboxThread(options: SandboxThreadOptions = {}, host: ThreadHost = {}): Promise<RunningSandbox> {
  const worker = new Worker(host.workerFile ?? join(__dirname, 'sandboxWorker.js'), { workerData: { options } });
  let closing: Promise<void> | undefined;
  const exited = new Promise<number>((resolve) => worker.once('exit', resolve));
  return new Promise<RunningSandbox>((resolve, reject) => {
    let ready = false;
    // Always listened to: a worker's 'error' with no listener would throw in the extension host.
    worker.on('error', (e: Error) => {
      if (!ready) reject(e);
      else if (!closing) host.onGone?.(`The sandbox's thread failed: ${e.message}`);
    });
    void exited.then((code) => {
      if (!ready) reject(new Error(`The sandbox's thread stopped (exit code ${code}) before it listened.`));
      else if (!closing) host.onGone?.(`The sandbox's thread stopped (exit code ${code}).`);
    });
    const closed = new Promise<void>((done) =>
      worker.on('message', (m: SandboxThreadMessage) => {
        if (m.type === 'closed') done();
        else if (m.type === 'failed') {
          reject(new Error(m.message));
          void worker.terminate();
        } else {
          ready = true;
          resolve({
            baseUrl: m.baseUrl,
            fileBaseUrl: m.fileBaseUrl,
            demoKey: m.demoKey,
            // The sandbox closes its listeners and files first (its temporary results are deleted), then the thread ends.
            close: () =>
              (closing ??= (async () => {
                worker.postMessage(CLOSE_SANDBOX);
                await Promise.race([closed, exited]);
                await worker.terminate();
              })()),
          });
        }
      }),
    );
  });
}
