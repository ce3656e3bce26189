/**
 * The sandbox the window starts (Connection.startSandbox, src/vscode/base/connection.ts) under a stub
 * of `vscode`: its synthetic data is drawn off the extension host's thread (issue 34 item 1: "the
 * sandbox's data generated off the host's thread"). Counted, not timed: the wallet generator
 * records each set it draws on the process's main thread (src/sandbox/wallets.ts), and starting the
 * sandbox the extension's way leaves that count where it was, while the sandbox answers a Wallet
 * Database query with its synthetic wallets and its key. Before, the sandbox ran in-process and the
 * host's thread drew both chains' wallets (about 450 ms in one stretch in a fresh Node).
 */
import assert from 'node:assert/strict';
import Module from 'node:module';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { EventEmitter } from '../../fixtures/vscodeClasses';

const stub = {
  EventEmitter,
  workspace: {
    isTrusted: true,
    onDidChangeConfiguration: () => ({ dispose: () => undefined }),
    onDidGrantWorkspaceTrust: () => ({ dispose: () => undefined }),
  },
};
const moduleWithLoad = Module as unknown as { _load: (request: string, ...rest: unknown[]) => unknown };
const realLoad = moduleWithLoad._load;
moduleWithLoad._load = function (request: string, ...rest: unknown[]): unknown {
  return request === 'vscode' ? stub : realLoad.call(this, request, ...rest);
};

/** The worker bundle the extension starts (node esbuild.mjs builds it beside dist/extension.js). */
const SANDBOX_WORKER = join(__dirname, '..', '..', '..', '..', '..', 'dist', 'sandboxWorker.js');

/** The window's profiles, as far as the connection asks: which one is active, and the switches it made. */
class Profiles {
  active = 'default';
  readonly switched: string[] = [];
  private readonly changed = new EventEmitter<void>();
  readonly onDidChange = this.changed.event;
  activeId(): string {
    return this.active;
  }
  returnId(): string {
    return 'default';
  }
  setActive(id: string): Promise<void> {
    this.active = id;
    this.switched.push(id);
    this.changed.fire();
    return Promise.resolve();
  }
}

describe('Connection.startSandbox: the synthetic data off the host’s thread', async () => {
  // Loaded after the stub is in place (a static import would require `vscode` first).
  const { Connection } = await import('../../../../src/vscode/base/connection');
  const { walletSetsDrawnOnMainThread } = await import('../../../../src/sandbox/wallets');

  it('draws no wallets on this thread, and the sandbox it starts answers with its synthetic wallets', async () => {
    const profiles = new Profiles();
    const keys = new Map<string, unknown>();
    const logged: string[] = [];
    const connection = new Connection(
      { refresh: () => Promise.resolve(false), get: () => Promise.resolve(undefined) } as never,
      { set: (k: string, v: unknown) => Promise.resolve(void keys.set(k, v)) } as never,
      { info: (l: string) => logged.push(l), error: (l: string) => logged.push(l) } as never,
      () => undefined,
      profiles as never,
    );
    const drawn = walletSetsDrawnOnMainThread();
    const sandbox = await connection.startSandbox({ workerFile: SANDBOX_WORKER });
    try {
      const r = await fetch(`${sandbox.baseUrl}/wallet_database`, {
        method: 'POST',
        headers: { api_key: sandbox.demoKey, 'content-type': 'application/json' },
        body: JSON.stringify({ where: { and: [] }, limit: 3 }),
      });
      assert.equal(r.status, 200, await r.clone().text());
      const body = (await r.json()) as { wallets?: unknown[] };
      assert.equal(body.wallets?.length, 3, 'three synthetic wallets');
      assert.equal(walletSetsDrawnOnMainThread() - drawn, 0, 'wallet sets drawn on the host’s thread');
      assert.equal(connection.baseUrl(), sandbox.baseUrl, 'calls go to the sandbox');
      assert.deepEqual(profiles.switched, ['sandbox']);
      assert.equal(keys.get('walletAnalytics.sandbox'), true);
    } finally {
      await connection.stopSandbox();
    }
    await assert.rejects(fetch(`${sandbox.baseUrl}/credits`, { headers: { api_key: sandbox.demoKey } }), 'the stopped sandbox no longer listens');
    assert.equal(profiles.active, 'default', 'the window is back on the profile it used before');
    assert.equal(keys.get('walletAnalytics.sandbox'), false);
  });
});
