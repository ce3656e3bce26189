/**
 * The sandbox in its worker thread (src/sandbox/thread.ts, dist/sandboxWorker.js), as the extension
 * starts it: it answers over loopback with its key, a start that fails says why (the sandbox's own
 * message, from its thread), and close() stops its listener and ends the thread.
 */
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { startSandboxThread } from '../../../src/sandbox/thread';

/** Built by node esbuild.mjs beside dist/extension.js. */
const workerFile = join(__dirname, '..', '..', '..', '..', 'dist', 'sandboxWorker.js');
const SMALL = { wallets: 2_000, altWallets: 500 };

describe('the sandbox in its own thread', () => {
  it('answers with its key, and close() stops its listener', async () => {
    const sb = await startSandboxThread({ ...SMALL, demoKey: 'thread-key', startBalance: 1234 }, { workerFile });
    assert.equal(sb.demoKey, 'thread-key');
    assert.equal(sb.fileBaseUrl, sb.baseUrl, 'files from the same origin unless asked');
    const r = await fetch(`${sb.baseUrl}/credits`, { headers: { api_key: 'thread-key' } });
    assert.equal(r.status, 200);
    assert.match(await r.text(), /1234/u);
    await sb.close();
    await sb.close();
    await assert.rejects(fetch(`${sb.baseUrl}/credits`, { headers: { api_key: 'thread-key' } }));
  });

  it('a start that fails rejects with the sandbox’s own reason', async () => {
    await assert.rejects(startSandboxThread({ ...SMALL, host: '0.0.0.0' }, { workerFile }), /loopback only/u);
  });

  it('a thread that cannot start rejects', async () => {
    await assert.rejects(startSandboxThread(SMALL, { workerFile: join(__dirname, 'no-such-worker.js') }), /no-such-worker|Cannot find module/u);
  });
});
