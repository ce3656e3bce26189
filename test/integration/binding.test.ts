/**
 * A call is bound to the connection its price was shown for (issue 21 item 3). Two profiles
 * against two sandboxes, each knowing only its own key: the price step names the connection;
 * switching profile or stopping the sandbox while the price is open sends nothing to either;
 * an unanswered submit is looked up in the history of the service it went to and followed under
 * its profile; a balance fetched for one profile is never kept as another's.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { WalletAnalyticsApi } from '../../src/core/transport/api';
import { DEFAULT_PROFILE_ID, scopeKey } from '../../src/core/transport/profiles';
import { Storage } from '../../src/core/storage';
import { startSandbox, type Sandbox } from '../../src/sandbox';
import { CreditsService } from '../../src/vscode/base/credits';
import type { RunOutcome } from '../../src/vscode/calls/callService';
import { resumePages } from '../../src/vscode/calls/pages';
import type { PriceQuestion } from '../../src/vscode/calls/priceStep';
import { answerPrices, api as getApi, note, waitFor, pollEvery } from './support';

const cfg = () => vscode.workspace.getConfiguration('walletAnalytics');
const set = (k: string, v: unknown) => cfg().update(k, v, vscode.ConfigurationTarget.Global);
const run = (id: string, args: object) => vscode.commands.executeCommand<RunOutcome>(`walletAnalytics.endpoint.${id}`, args);
/** Requests to an endpoint's path (queued submits are GETs or POSTs, as the catalog says). */
const sent = (sb: Sandbox, p: string, from = 0) => sb.received().slice(from).filter((r) => r.path === p);
const hostOf = (sb: Sandbox) => new URL(sb.baseUrl).host;

/** globalState's shape, in memory. */
class MemoryState implements vscode.Memento {
  private readonly m = new Map<string, unknown>();
  keys(): readonly string[] {
    return [...this.m.keys()];
  }
  get<T>(key: string, defaultValue?: T): T {
    return (this.m.has(key) ? this.m.get(key) : defaultValue) as T;
  }
  update(key: string, value: unknown): Thenable<void> {
    this.m.set(key, value);
    return Promise.resolve();
  }
}

describe('a call is bound to the connection its price was shown for', function () {
  this.timeout(90_000);
  let sbA: Sandbox;
  let sbB: Sandbox;
  let dir: string;
  let idA = '';
  let idB = '';
  const KEY_A = 'binding-a-key-0001';
  const KEY_B = 'binding-b-key-0002';

  before(async () => {
    // Its sandbox's jobs are done in well under a second: read them at that pace, not the setting's (test runner only).
    await pollEvery(200);
    sbA = await startSandbox({ port: 0, demoKey: KEY_A, jobDelayMs: [100, 200] });
    sbB = await startSandbox({ port: 0, demoKey: KEY_B, jobDelayMs: [100, 200] });
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wa-binding-'));
    await set('resultsFolder', dir);
    await set('pollIntervalSeconds', 1);
    const { services } = await getApi();
    const { profiles } = services.connection;
    idA = (await profiles.add({ name: 'Binding A', baseUrl: sbA.baseUrl })).id;
    idB = (await profiles.add({ name: 'Binding B', baseUrl: sbB.baseUrl })).id;
    await services.keys.setFor(idA, KEY_A);
    await services.keys.setFor(idB, KEY_B);
  });

  after(async () => {
    await pollEvery(undefined);
    await answerPrices(undefined);
    const { services } = await getApi();
    await services.connection.stopSandbox();
    await services.connection.switchProfile(DEFAULT_PROFILE_ID);
    for (const id of [idA, idB]) {
      if (!id) continue;
      await services.connection.profiles.remove(id);
      await services.keys.deleteFor(id);
    }
    for (const k of ['resultsFolder', 'pollIntervalSeconds']) await set(k, undefined);
    await sbA.close();
    await sbB.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('names the connection at the price step; a profile switch while it is open sends nothing to either', async () => {
    const { services } = await getApi();
    const { connection } = services;
    await connection.switchProfile(idA);
    const fromA = sbA.received().length;
    const fromB = sbB.received().length;
    const asked: PriceQuestion[] = [];
    await answerPrices(async (q) => {
      asked.push(q);
      // The person switches profile while the price is shown, then presses Enter.
      await connection.switchProfile(idB);
      return true;
    });
    const out = await run('trending', { inputs: { hours: 2 }, notify: false, wait: false });
    await answerPrices(undefined);

    assert.deepEqual(sent(sbB, '/trending', fromB), [], 'nothing reached B, the profile switched to');
    assert.deepEqual(sent(sbA, '/trending', fromA), [], 'nor A: the person may think they are using B now');
    assert.equal(out.status, 'refused', JSON.stringify(out));
    assert.equal(
      out.status === 'refused' ? out.message : '',
      `The connection changed from Binding A (${hostOf(sbA)}) to Binding B (${hostOf(sbB)}) while the price was shown; nothing was sent. Run it again to see the price for Binding B (${hostOf(sbB)}).`,
    );
    const q = asked[0];
    assert.ok(q?.kind === 'step', JSON.stringify(asked));
    assert.equal(q.to, `Binding A (${hostOf(sbA)})`, 'the question names the connection the price is for');
    assert.ok(q.title.includes(`Binding A (${hostOf(sbA)})`), `the step's title names it: ${q.title}`);
    assert.ok(q.placeholder.includes(`Charged to Binding A (${hostOf(sbA)})`), q.placeholder);
    note(`switched A → B at the price step: refused, nothing sent (“${out.status === 'refused' ? out.message : ''}”)`);
  });

  it('stopping the sandbox while the price is open sends nothing to the profile it returns to', async () => {
    const { services } = await getApi();
    const { connection } = services;
    await connection.switchProfile(idA);
    const sandbox = await connection.startSandbox();
    const sandboxHost = new URL(sandbox.baseUrl).host;
    const fromA = sbA.received().length;
    const asked: PriceQuestion[] = [];
    await answerPrices(async (q) => {
      asked.push(q);
      await connection.stopSandbox();
      return true;
    });
    const out = await run('trending', { inputs: { hours: 2 }, notify: false, wait: false });
    await answerPrices(undefined);

    assert.equal(connection.activeProfile().id, idA, 'the window returned to A');
    assert.deepEqual(sent(sbA, '/trending', fromA), [], 'the price approved for the sandbox was not charged to A');
    assert.equal(out.status, 'refused', JSON.stringify(out));
    assert.match(out.status === 'refused' ? out.message : '', new RegExp(`^The connection changed from Sandbox \\(${sandboxHost}\\) to Binding A \\(${hostOf(sbA)}\\) while the price was shown; nothing was sent\\.`, 'u'));
    assert.equal(asked[0]?.to, `Sandbox (${sandboxHost})`, 'the question says the call goes to the sandbox');
  });

  it('an unanswered submit is looked up in the history of the profile it went to, and followed under it', async () => {
    const { services } = await getApi();
    const { connection, jobs } = services;
    // B already has a job with the same endpoint and inputs that this window does not follow
    // (sent from elsewhere a moment ago): the lookup must not take it for A's.
    const other = await new WalletAnalyticsApi({ baseUrl: sbB.baseUrl, apiKey: () => Promise.resolve(KEY_B) }).submit('lookuptablestats', { hours: 7 });
    await connection.switchProfile(idA);
    const ledgerFrom = sbA.ledger().length;
    await answerPrices(true);
    // A charges the submit and drops the connection; the answer is held long enough to switch first.
    sbA.setFaults({ dropAfterChargeRate: 1, latencyMs: 1_500 });
    let out: RunOutcome;
    try {
      const pending = run('lookuptablestats', { inputs: { hours: 7 }, notify: false, wait: false });
      await waitFor('the submit to reach A', () => sent(sbA, '/lookuptablestats').length > 0, 10_000);
      await connection.switchProfile(idB);
      out = await pending;
    } finally {
      sbA.setFaults({ dropAfterChargeRate: 0, latencyMs: 0 });
      await answerPrices(undefined);
    }
    const charged = sbA.ledger().slice(ledgerFrom).filter((c) => c.endpoint === 'lookuptablestats');
    assert.equal(charged.length, 1, 'A charged the submit once');
    assert.equal(out.status, 'queued', JSON.stringify(out));
    assert.ok(out.status === 'queued' && out.reconciled === true, 'found in the history, not guessed');
    assert.notEqual(out.requestId, other.requestId, 'not B’s older job');
    assert.equal(out.requestId, charged[0]?.requestId, 'the job followed is the one A charged');
    const job = jobs.store.get(out.requestId);
    assert.equal(job?.profileId, idA, 'tracked under A');
    assert.equal(job?.baseUrl, sbA.baseUrl);
    assert.equal(jobs.store.get(other.requestId), undefined, 'B’s job is not followed as A’s');
    const spent = services.credits.ledger().filter((e) => e.endpointId === 'lookuptablestats' && e.at >= Date.now() - 60_000);
    assert.deepEqual(spent.map((e) => e.scope), [scopeKey(idA, sbA.baseUrl)], 'the charge is in A’s ledger');
    await waitFor('the found job done', () => jobs.store.get(out.status === 'queued' ? out.requestId : '')?.state === 'done', 20_000);
  });

  it('resuming a page read: a profile switch at its price sends the next page to neither profile', async () => {
    const t = await getApi();
    const { connection } = t.services;
    assert.ok(t.testing, 'the test runner’s price questions');
    await connection.switchProfile(idA);
    let busy = '';
    for (const a of sbA.addresses('wallet', 200)) {
      const r = await fetch(`${sbA.baseUrl}/wallets/${a}/activity`, { headers: { api_key: KEY_A } });
      if (((await r.json()) as { nextCursor?: unknown }).nextCursor) {
        busy = a;
        break;
      }
    }
    assert.ok(busy, 'a wallet with more than one page of swaps');
    await answerPrices(true);
    const first = await run('wallet_activity', { inputs: { address: busy }, pages: 1, open: false });
    assert.ok(first.status === 'done' && first.resultPath, JSON.stringify(first));
    const activity = (sb: Sandbox, from: number) => sb.received().slice(from).filter((r) => r.path.endsWith('/activity'));
    const fromA = sbA.received().length;
    const fromB = sbB.received().length;
    await answerPrices(async () => {
      await connection.switchProfile(idB);
      return true;
    });
    const deps = { ...t.services, questions: t.testing.prices };
    const out = await resumePages(first.resultPath, deps, { pages: 1, open: false });
    await answerPrices(undefined);
    assert.deepEqual(activity(sbB, fromB), [], 'A’s cursor was not sent to B with B’s key');
    assert.deepEqual(activity(sbA, fromA), [], 'nor to A');
    assert.equal(out.status, 'refused', JSON.stringify(out));
    assert.match(out.status === 'refused' ? out.message : '', /^The connection changed from Binding A .* to Binding B .* while the price was shown; nothing was sent\./u);
  });

  it('keeps a balance under the profile it was fetched for when the profile changes before the answer', async () => {
    const state = new MemoryState();
    let active = 'scope-a';
    const asked: string[] = [];
    let answer: (n: number) => void = () => undefined;
    const credits = new CreditsService(
      new Storage({ globalState: state, workspaceState: state }),
      (scope) => ({
        credits: () => {
          asked.push(scope);
          return new Promise<number>((r) => (answer = r));
        },
      }),
      () => active,
      () => '',
    );
    const fetching = credits.refresh();
    active = 'scope-b';
    answer(123);
    assert.equal(await fetching, 123);
    assert.deepEqual(asked, ['scope-a'], 'asked of the scope active when the refresh began');
    assert.equal(credits.peek(), undefined, 'B has no balance: A’s is never shown as B’s');
    assert.equal(credits.peek('scope-a')?.value, 123, 'it is kept as A’s');
    assert.equal(credits.nextReset(), undefined, 'B’s reset anchor is not set by A’s answer');
    assert.ok(credits.nextReset('scope-a'), 'A’s is');
    await credits.record('trending', 50, 'scope-a');
    assert.equal(credits.peek('scope-a')?.value, 73, 'a charge lowers the balance of its own scope');
    assert.equal(credits.peek(), undefined);
    credits.dispose();
  });
});
