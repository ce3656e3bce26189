/**
 * Profiles (issue 13 item 4): two profiles against two sandboxes with two different keys. A job
 * sent under A is polled with A's key at A's URL and downloaded after the window switched to B;
 * the ledger and the history are per profile; a profile with a job still waiting is not removed,
 * and removing one deletes its key.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { scopeKey, secretNameFor, DEFAULT_PROFILE_ID } from '../../src/core/transport/profiles';
import { startSandbox, type Sandbox } from '../../src/sandbox';
import type { RunOutcome } from '../../src/vscode/calls/callService';
import { CommandIds } from '../../src/vscode/base/ids';
import { spendByEndpoint } from '../../src/vscode/views/account';
import { addProfile, answerPrices, answerQuestions, api as getApi, note, removeProfile, testingContext, waitFor, pollEvery } from './support';

const cfg = () => vscode.workspace.getConfiguration('walletAnalytics');
const set = (k: string, v: unknown) => cfg().update(k, v, vscode.ConfigurationTarget.Global);
const run = (id: string, args: object) => vscode.commands.executeCommand<RunOutcome>(`walletAnalytics.endpoint.${id}`, args);

describe('profiles: each its base URL and its own key; jobs stay with their profile', function () {
  this.timeout(60_000);
  let sbA: Sandbox;
  let sbB: Sandbox;
  let dir: string;
  let idA: string | undefined;
  let idB: string | undefined;
  const KEY_A = 'account-a-key-0001';
  const KEY_B = 'account-b-key-0002';

  before(async () => {
    // Its sandbox's jobs are done in well under a second: read them at that pace, not the setting's (test runner only).
    await pollEvery(200);
    // Each sandbox knows only its own key: a request with the other key is refused (401).
    sbA = await startSandbox({ port: 0, demoKey: KEY_A, jobDelayMs: [100, 200] });
    sbB = await startSandbox({ port: 0, demoKey: KEY_B, jobDelayMs: [100, 200] });
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wa-profiles-'));
    await set('resultsFolder', dir);
    await set('pollIntervalSeconds', 1);
    await answerPrices(true);
  });

  after(async () => {
    await pollEvery(undefined);
    await answerPrices(undefined);
    const { services } = await getApi();
    for (const id of [idA, idB]) if (id && services.connection.profiles.get(id)) await removeProfile(id);
    await vscode.commands.executeCommand(CommandIds.switchProfile, DEFAULT_PROFILE_ID);
    for (const k of ['resultsFolder', 'pollIntervalSeconds']) await set(k, undefined);
    await sbA.close();
    await sbB.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('adds two profiles, each key under its own secret name, and the active one is shown', async () => {
    const { services, sidebar } = await getApi();
    const secrets = (await testingContext()).secrets;
    const defaultKeyBefore = await secrets.get(secretNameFor(DEFAULT_PROFILE_ID));
    idA = await addProfile({ name: 'Account A', baseUrl: `${sbA.baseUrl}/`, key: KEY_A });
    idB = await addProfile({ name: 'Account B', baseUrl: sbB.baseUrl, key: KEY_B });
    assert.ok(idA && idB && idA !== idB);
    assert.equal(await secrets.get(secretNameFor(idA)), KEY_A);
    assert.equal(await secrets.get(secretNameFor(idB)), KEY_B);
    assert.equal(await secrets.get(secretNameFor(DEFAULT_PROFILE_ID)), defaultKeyBefore, 'the Default key is untouched');
    assert.equal(services.connection.activeProfile().name, 'Account B', 'a profile just added is in use');
    assert.equal(services.connection.baseUrl(), sbB.baseUrl);
    assert.equal(services.connection.profiles.get(idA)?.baseUrl, sbA.baseUrl, 'the base URL is kept without its trailing slash');
    await waitFor('the Account view to name profile B', () => sidebar.account.getTreeItem(sidebar.account.getChildren()[0]!).description === 'Account B');
    const refused = await addProfile({ name: 'Plain', baseUrl: 'http://api.example.com', key: 'k-123456' });
    assert.equal(refused, undefined, 'a plain http:// base URL that is not loopback is refused');
  });

  it('arguments only pre-fill Add Profile’s boxes, never its key; Remove Profile always asks (issue 21)', async () => {
    assert.ok(idA && idB);
    const { services } = await getApi();
    const secrets = (await testingContext()).secrets;
    const count = services.connection.profiles.added().length;
    const args = { name: 'From Arguments', baseUrl: sbA.baseUrl, key: KEY_A };
    // The person accepts the pre-filled name and URL and leaves the key box: nothing is added.
    const asked = await answerQuestions((q) => (q.kind === 'input' && q.id !== 'apiKey' ? q.options.value : undefined));
    const before = asked.length;
    let added: string | undefined;
    try {
      added = await vscode.commands.executeCommand<string | undefined>(CommandIds.addProfile, args);
    } finally {
      await answerQuestions(undefined);
    }
    assert.equal(added, undefined, 'a profile was added from arguments without the person');
    assert.equal(services.connection.profiles.added().length, count);
    assert.equal(services.connection.activeProfile().id, idB, 'the profile in use did not change');
    const boxes = asked.slice(before).map((q) => (q.kind === 'input' ? [q.id, q.options.value] : [q.kind]));
    assert.deepEqual(boxes, [['profileName', args.name], ['profileBaseUrl', args.baseUrl], ['apiKey', undefined]], 'name and URL pre-filled, the key box empty');

    // Remove Profile with `{ confirmed: true }` still asks; Escape keeps the profile and its key.
    const questions = await answerQuestions(() => undefined);
    const n = questions.length;
    try {
      assert.equal(await vscode.commands.executeCommand(CommandIds.removeProfile, idB, { confirmed: true }), false);
    } finally {
      await answerQuestions(undefined);
    }
    assert.deepEqual(questions.slice(n).map((q) => q.kind), ['confirm'], 'the confirmation was shown');
    assert.ok(services.connection.profiles.get(idB), 'profile B is still there');
    assert.equal(await secrets.get(secretNameFor(idB)), KEY_B, 'its key is still there');
  });

  it('a job sent under A is polled with A’s key at A’s URL after switching to B, and downloaded', async () => {
    assert.ok(idA && idB);
    const { services, sidebar } = await getApi();
    const { connection, jobs } = services;
    assert.equal(await vscode.commands.executeCommand(CommandIds.switchProfile, idA), idA);
    const scopeA = connection.scope();
    assert.equal(scopeA, scopeKey(idA, sbA.baseUrl));
    // A's job stays queued until the switch is checked, however long the switch takes on a loaded
    // machine (with a 2.5 s delay instead, a switch that took longer found the job downloading).
    sbA.setFaults({ holdJobs: true });
    const out = await run('trending', { inputs: { hours: 2 }, notify: false, wait: false });
    assert.equal(out.status, 'queued', JSON.stringify(out));
    const requestId = out.status === 'queued' ? out.requestId : '';
    assert.equal(jobs.store.get(requestId)?.profileId, idA);

    // Switch mid-poll: the job must not move to B's key or URL.
    await vscode.commands.executeCommand(CommandIds.switchProfile, idB);
    const scopeB = connection.scope();
    assert.equal(scopeB, scopeKey(idB, sbB.baseUrl));
    assert.equal(jobs.store.get(requestId)?.state, 'pending', 'still pending when the window switched');

    // A profile whose job still waits is not removed (its key is the only one that may poll it).
    assert.equal(await removeProfile(idA), false);
    assert.ok(connection.profiles.get(idA), 'profile A is still there');
    sbA.setFaults({ holdJobs: false });

    const settled = await waitFor('the job of A to be downloaded', () => {
      const j = jobs.store.get(requestId);
      return j && j.state !== 'pending' && j.state !== 'downloading' ? j : undefined;
    }, 30_000);
    assert.equal(settled.state, 'done', JSON.stringify(settled));
    assert.ok(settled.resultPath && fs.existsSync(settled.resultPath), 'the result file is on disk');
    assert.equal(connection.activeProfile().id, idB, 'B is still in use');

    const atA = sbA.received().filter((r) => r.path.includes(requestId) || r.path === '/requests');
    const atB = sbB.received().filter((r) => r.path.includes(requestId));
    note(`A received ${atA.length} polls/downloads for the job (${atA.map((r) => `${r.method} ${r.path} ${r.status}`).join(', ')}); B received ${atB.length}`);
    assert.ok(atA.some((r) => r.path === `/request/${requestId}`), 'A was polled for the job');
    assert.ok(atA.every((r) => r.status === 200 && r.apiKeyHeader), 'every poll at A carried a key A accepted');
    assert.deepEqual(atB, [], 'B never heard of the job');
    assert.equal(sbA.received().filter((r) => r.status === 401).length, 0, 'A never saw a key it refuses (B’s)');
    assert.equal(sbB.received().filter((r) => r.status === 401).length, 0, 'B never saw a key it refuses (A’s)');

    // The ledger and the history are per profile.
    const ledger = services.credits.ledger();
    assert.equal(spendByEndpoint(ledger, scopeA, undefined).find((l) => l.endpointId === 'trending')?.credits, 50);
    assert.deepEqual(spendByEndpoint(ledger, scopeB, undefined), [], 'B spent nothing');
    const histA = await sidebar.history.fetcher.get(scopeA, { force: true });
    const histB = await sidebar.history.fetcher.get(scopeB, { force: true });
    assert.ok(histA.some((r) => r.requestId === requestId), 'A’s history lists the job');
    assert.ok(!histB.some((r) => r.requestId === requestId), 'B’s history does not');
    assert.equal(sidebar.account.getTreeItem(sidebar.account.getChildren().find((n) => n.row === 'spend')!).description, 'nothing yet', 'B’s Account view shows B’s spend');
  });

  it('removing a profile deletes its key; its scope has no client any more', async () => {
    assert.ok(idA && idB);
    const { services } = await getApi();
    const secrets = (await testingContext()).secrets;
    const scopeA = scopeKey(idA, sbA.baseUrl);
    assert.ok(services.connection.apiFor(scopeA), 'A has a client while it exists');
    assert.equal(await removeProfile(idA), true);
    assert.equal(await secrets.get(secretNameFor(idA)), undefined, 'A’s key is deleted from SecretStorage');
    assert.equal(services.connection.profiles.get(idA), undefined);
    assert.equal(services.connection.apiFor(scopeA), undefined, 'nothing can be sent with A’s key any more');
    assert.equal(services.connection.activeProfile().id, idB, 'removing another profile leaves B in use');
    assert.equal(await removeProfile(idB), true);
    assert.equal(services.connection.activeProfile().id, DEFAULT_PROFILE_ID, 'removing the profile in use returns to Default');
  });
});
