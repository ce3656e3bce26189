/**
 * Proxies in a real VS Code (issue 13): the unit tests prove what undici and the dispatcher do;
 * these prove the wiring. The user's own `http.proxy` routes the calls (through a CONNECT tunnel,
 * so a real forward proxy sees the host and port, never the key), a change takes effect without a
 * reload, and a folder's `.vscode/settings.json` cannot send the key through a proxy of its choosing.
 *
 * The base URL is a name under `.test` (never resolvable), so the proxy can only answer that it
 * cannot reach it: nothing leaves this machine.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import { createProxy } from 'proxy';
import * as vscode from 'vscode';
import { api as getApi, note, waitFor, setApiKey, clearApiKey } from './support';

const KEY = 'sk-proxy-integration-8c41d2';
const BASE = 'https://api.wallet-analytics.test';

interface Recorder {
  readonly url: string;
  readonly seen: { line: string; headers: IncomingHttpHeaders }[];
  close(): Promise<void>;
}

async function recordingProxy(): Promise<Recorder> {
  const server: Server = createServer();
  const seen: Recorder['seen'] = [];
  server.on('connect', (req) => seen.push({ line: `${req.method ?? ''} ${req.url ?? ''}`, headers: req.headers }));
  server.on('request', (req) => seen.push({ line: `${req.method ?? ''} ${req.url ?? ''}`, headers: req.headers }));
  createProxy(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

describe('proxies: the user’s http.proxy, never a folder’s', function () {
  this.timeout(60_000);
  const http = (): vscode.WorkspaceConfiguration => vscode.workspace.getConfiguration('http');
  const wa = (): vscode.WorkspaceConfiguration => vscode.workspace.getConfiguration('walletAnalytics');
  let user: Recorder;
  let folderProxy: Recorder;
  let settingsFile: string;
  let original: string | undefined;

  before(async () => {
    user = await recordingProxy();
    folderProxy = await recordingProxy();
    const folder = vscode.workspace.workspaceFolders?.[0];
    assert.ok(folder, 'the suite runs in a folder');
    settingsFile = path.join(folder.uri.fsPath, '.vscode', 'settings.json');
    original = fs.existsSync(settingsFile) ? fs.readFileSync(settingsFile, 'utf8') : undefined;
    await wa().update('baseUrl', BASE, vscode.ConfigurationTarget.Global);
    assert.equal(await setApiKey(KEY), true);
  });

  after(async () => {
    await http().update('proxy', undefined, vscode.ConfigurationTarget.Global);
    await wa().update('baseUrl', undefined, vscode.ConfigurationTarget.Global);
    await clearApiKey();
    if (original === undefined) fs.rmSync(settingsFile, { force: true });
    else fs.writeFileSync(settingsFile, original);
    await user.close();
    await folderProxy.close();
  });

  /** A free call (GET /credits) from the window's own client; it fails, as the host cannot be reached. */
  async function call(): Promise<string> {
    const { services } = await getApi();
    assert.equal(services.connection.baseUrl(), BASE);
    try {
      await services.connection.api().credits();
      return 'answered';
    } catch (e) {
      return e instanceof Error ? e.message : String(e);
    }
  }

  it('routes calls through the user’s http.proxy in a CONNECT tunnel: the proxy sees the host, never the key', async () => {
    await http().update('proxy', user.url, vscode.ConfigurationTarget.Global);
    const message = await call();
    const connects = user.seen.filter((s) => s.line === 'CONNECT api.wallet-analytics.test:443');
    assert.ok(connects.length >= 1, `the proxy saw ${JSON.stringify(user.seen.map((s) => s.line))}; the call said: ${message}`);
    assert.deepEqual(
      user.seen.filter((s) => !s.line.startsWith('CONNECT ')),
      [],
      'no plain request went through the proxy',
    );
    assert.ok(!JSON.stringify(user.seen).includes(KEY), 'the key is never in what the proxy saw');
    assert.match(message, /proxy/iu, 'the error names the proxy');
    note(`proxy saw: ${user.seen.map((s) => s.line).join(', ')}; the call said: ${message}`);
  });

  it('takes a change of http.proxy without a reload: cleared, the next call goes direct', async () => {
    const { services } = await getApi();
    const old = services.connection.dispatcher();
    await http().update('proxy', undefined, vscode.ConfigurationTarget.Global);
    // The window hears of the change through onDidChangeConfiguration, a moment after the write.
    await waitFor('the dispatcher rebuilt for the cleared setting', () => services.connection.dispatcher() !== old, 10_000);
    // Background reads started before the change (the balance) may still be finishing through the old one.
    let count = -1;
    await waitFor('the proxy quiet for a second', async () => {
      const now = user.seen.length;
      if (now === count) return true;
      count = now;
      await new Promise((r) => setTimeout(r, 1000));
      return false;
    }, 20_000);
    const before = user.seen.length;
    const message = await call();
    assert.equal(user.seen.length, before, `the proxy saw ${JSON.stringify(user.seen.slice(before))} after it was cleared`);
    note(`direct: ${message}`);
  });

  it('ignores a folder’s http.proxy: the key never goes through a proxy the repository chose', async () => {
    fs.mkdirSync(path.dirname(settingsFile), { recursive: true });
    fs.writeFileSync(settingsFile, `${JSON.stringify({ 'http.proxy': folderProxy.url, 'walletAnalytics.credits.warnBelow': 9 }, null, 2)}\n`);
    // VS Code reads the file again on its own; a setting the folder may set shows when it has.
    await waitFor('the folder settings read by VS Code', () => wa().get('credits.warnBelow') === 9, 15_000);
    const message = await call();
    assert.deepEqual(folderProxy.seen, [], 'the folder’s proxy saw nothing');
    const inspected = http().inspect<string>('proxy');
    note(`with a folder's http.proxy set (VS Code's workspace value: ${inspected?.workspaceValue ?? 'none'}): ${message}; that proxy saw nothing`);
  });
});
