/**
 * Entry of the sandbox's worker thread (bundled alone as dist/sandboxWorker.js; started by
 * ./thread.ts): the synthetic data is drawn and every request answered here, so the extension
 * host's thread does neither (issue 34 item 1). One sandbox per thread; it tells the host where it
 * listens once it does, and closes when the host says so.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { errorText } from '../core/errors';
import { startSandbox } from './index';
import { CLOSE_SANDBOX, type SandboxThreadMessage, type SandboxThreadOptions } from './thread';

const host = parentPort;
if (!host) throw new Error('sandboxWorker.js runs as a worker thread (src/sandbox/thread.ts), not on its own.');
const say = (m: SandboxThreadMessage): void => host.postMessage(m);
const { options } = workerData as { options: SandboxThreadOptions };

startSandbox(options).then(
  (sandbox) => {
    host.on('message', (m: unknown) => {
      if (m === CLOSE_SANDBOX) void sandbox.close().then(() => say({ type: 'closed' }));
    });
    say({ type: 'ready', baseUrl: sandbox.baseUrl, fileBaseUrl: sandbox.fileBaseUrl, demoKey: sandbox.demoKey });
  },
  (e: unknown) => say({ type: 'failed', message: errorText(e) }),
);
