/**
 * Credits are the users' money (issue 11): only the person's own click approves a price, the
 * per-call ceiling holds for every Wallet Database query whatever path sends it, and a query
 * gets the editor's field checks before the network whoever sends it. Against a sandbox.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { sampleAddress } from '../../src/core/spec/samples';
import { startSandbox, type Sandbox } from '../../src/sandbox';
import type { RunOutcome } from '../../src/vscode/calls/callService';
import type { PriceQuestion } from '../../src/vscode/calls/priceStep';
import { CommandIds } from '../../src/vscode/base/ids';
import type { QueryRunResult } from '../../src/vscode/language/runner';
import { QueryRunCache } from '../../src/core/query/runCache';
import type { QueryBody } from '../../src/core/spec/queryModel';
import { answerPrices, api as getApi, note, waitFor, setApiKey, clearApiKey, pollEvery } from './support';

const cfg = () => vscode.workspace.getConfiguration('walletAnalytics');
const set = (k: string, v: unknown) => cfg().update(k, v, vscode.ConfigurationTarget.Global);
const run = (id: string, args: object) => vscode.commands.executeCommand<RunOutcome>(`walletAnalytics.endpoint.${id}`, args);
const whyOf = (q: PriceQuestion) => (q.kind === 'modal' ? q.why : q.kind);

describe('credits: only the person approves, and the ceiling holds for every query', function () {
  this.timeout(60_000);
  let sb: Sandbox;
  let dir: string;
  const paid = (from: number, p: string) => sb.received().slice(from).filter((r) => r.method === 'POST' && r.path === p).length;
  /** The questions asked while f ran, answered by `answer`. */
  const asking = async <T>(answer: boolean | ((q: PriceQuestion) => boolean), f: () => Thenable<T>): Promise<{ out: T; asked: PriceQuestion[] }> => {
    const from = (await answerPrices(answer)).length;
    const out = await f();
    return { out, asked: (await answerPrices(answer)).slice(from) };
  };
  const query = { where: { and: [{ field: 'winrate_30d', op: '>=', value: 0.2 }] }, limit: 5 };

  before(async () => {
    // Its sandbox's jobs are done in well under a second: read them at that pace, not the setting's (test runner only).
    await pollEvery(200);
    sb = await startSandbox({ port: 0, jobDelayMs: [200, 400], wallets: 2_000, altWallets: 500 });
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wa-credits-'));
    await set('baseUrl', sb.baseUrl);
    await set('resultsFolder', dir);
    await set('maxCreditsPerCall', 1_000_000);
    assert.equal(await setApiKey(sb.demoKey), true);
  });

  after(async () => {
    await pollEvery(undefined);
    await answerPrices(undefined);
    for (const k of ['baseUrl', 'resultsFolder', 'maxCreditsPerCall']) await set(k, undefined);
    await clearApiKey();
    await sb.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('a caller’s `yes: true` approves nothing: the price is still asked, and a cancel sends nothing', async () => {
    const from = sb.received().length;
    const balance = sb.balance();
    const { out, asked } = await asking(false, () => run('trending', { inputs: { hours: 2 }, yes: true, notify: false, wait: false }));
    assert.equal(out.status, 'cancelled', JSON.stringify(out));
    assert.deepEqual(asked.map(whyOf), ['step'], 'the price step was shown to the person');
    assert.match(asked[0]?.kind === 'step' ? asked[0].label : '', /50 credits/u);
    assert.equal(sb.received().slice(from).filter((r) => r.path === '/trending').length, 0, 'nothing was sent');
    assert.equal(sb.balance(), balance);
  });

  it('a query with an unknown match count asks for no amount: the rule first, what is known, and Cancel by default (issue 35 item 1)', async () => {
    const from = sb.received().length;
    const balance = sb.balance();
    const refused = await asking(false, () => run('wallet_database', { inputs: { query }, open: false }));
    assert.equal(refused.out.status, 'refused', JSON.stringify(refused.out));
    assert.match(refused.out.status === 'refused' ? refused.out.message : '', /^Not sent, nothing charged: .*ceiling of 1,000,000 credits per call/u);
    assert.deepEqual(refused.asked.map(whyOf), ['unbounded']);
    const q = refused.asked[0];
    assert.ok(q?.kind === 'modal');
    assert.equal(q.message, 'The bill is 100 credits × the wallets that match, and nobody can know how many match before the answer.', 'the rule, in the largest words');
    assert.match(q.detail, /^Nothing is known of its count yet/u, 'then what is known');
    assert.match(q.detail, /your ceiling of 1,000,000 credits per call cannot hold it/u);
    assert.equal(q.yes, 'Run or Cancel…', 'the default button spends nothing');
    assert.doesNotMatch(`${q.message} ${q.detail} ${q.yes}`, /type|accept|risk/iu, 'no amount that reads as a limit');
    assert.equal(paid(from, '/wallet_database'), 0, 'nothing was sent');
    assert.equal(sb.balance(), balance);

    // Enter on the dialog (its only button), then Enter on the choice, whose selected item is Cancel: nothing is sent.
    const enterEnter = await asking((x) => x.kind === 'modal' && x.why === 'unbounded', () => run('wallet_database', { inputs: { query }, open: false }));
    assert.equal(enterEnter.out.status, 'refused', JSON.stringify(enterEnter.out));
    assert.deepEqual(enterEnter.asked.map(whyOf), ['unbounded', 'confirm'], 'the button only opens the choice');
    const choice = enterEnter.asked[1];
    assert.ok(choice?.kind === 'modal' && choice.pick);
    assert.equal(choice.pick.label, '$(play) Run — 100 credits × the matches');
    assert.match(choice.pick.detail, /not known before the answer; at least 100 credits/u);
    assert.equal(paid(from, '/wallet_database'), 0, 'Enter, Enter: nothing was sent');
    assert.equal(sb.balance(), balance);

    const ran = await asking(true, () => run('wallet_database', { inputs: { query }, open: false }));
    assert.equal(ran.out.status, 'done', JSON.stringify(ran.out));
    assert.deepEqual(ran.asked.map(whyOf), ['unbounded', 'confirm'], 'Run chosen over Cancel');
    const total = ran.out.status === 'done' ? (ran.out.value as { total: number }).total : -1;
    assert.equal(sb.balance(), balance - Math.max(100, total * 100));
    // Named like a queued result and listed under Requests (issue 35 item 14).
    const file = ran.out.status === 'done' ? (ran.out.resultPath ?? '') : '';
    assert.match(path.basename(file), /^wallet_database-\d{4}-\d{2}-\d{2}-\d{4}(-\d+)?\.json$/u);
    const { sidebar } = await getApi();
    await sidebar.requests.refresh();
    const listed = await waitFor('the answer under Requests', () => sidebar.requests.provider.model.all().find((i) => i.resultPath === file));
    assert.deepEqual([listed.endpointId, listed.status, listed.cost], ['wallet_database', 'done', Math.max(100, total * 100)]);
    note(`Cancel, Enter-Enter, then Run: ${total} matches, ${total * 100} credits`);
  });

  it('gives a query file’s last count from an earlier hour as a dated estimate, for the file even when its query changed (issue 35 item 1)', async () => {
    const file = path.join(dir, 'estimate.waquery.json');
    const body: QueryBody = { where: { and: [{ field: 'winrate_30d', op: '>=', value: 0.33 }] }, limit: 3 };
    fs.writeFileSync(file, `${JSON.stringify(body, null, 2)}\n`);
    const doc = await vscode.workspace.openTextDocument(file);
    // A run two hours ago of an earlier version of this file, as the extension kept it.
    const { testing, services } = await getApi();
    const cache = new QueryRunCache(path.join(testing.context.globalStorageUri.fsPath, 'query-runs'));
    const at = Date.now() - 2 * 3_600_000;
    await cache.record({ scope: services.connection.scope(), chain: 'main', at, total: 1_534, charged: 153_400, body: { ...body, limit: 9 }, answer: {}, file: doc.uri.toString() });
    const from = sb.received().length;
    const asked = await asking(false, () => vscode.commands.executeCommand<QueryRunResult>(CommandIds.runQuery, doc.uri, { open: false }));
    assert.deepEqual(asked.asked.map(whyOf), ['unbounded']);
    const q = asked.asked[0];
    assert.ok(q?.kind === 'modal');
    const when = `${new Date(at).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
    assert.match(q.detail, new RegExp(`^Known: this file’s last answer, ${when}, matched 1,534 wallets \\(153,400 credits\\), for its query as it was then\\. An estimate only`, 'u'));
    assert.equal(paid(from, '/wallet_database'), 0);
    note(q.detail.split('\n')[0] ?? '');
  });

  it('prices a palette re-run of a query exactly from the match count of the palette run before it', async function () {
    const q = { where: { and: [{ field: 'winrate_30d', op: '>=', value: 0.15 }] }, limit: 4 };
    const hour = () => Math.floor(Date.now() / 3_600_000);
    const started = hour();
    const first = await asking(true, () => run('wallet_database', { inputs: { query: q }, open: false }));
    assert.equal(first.out.status, 'done', JSON.stringify(first.out));
    assert.deepEqual(first.asked.map(whyOf), ['unbounded', 'confirm'], 'the first run’s count is unknown');
    const total = first.out.status === 'done' ? (first.out.value as { total: number }).total : -1;
    const from = sb.received().length;
    const again = await asking(false, () => run('wallet_database', { inputs: { query: q }, open: false }));
    // The hourly refresh between the two runs makes the count unknown again, rightly.
    if (hour() !== started) this.skip();
    assert.equal(again.out.status, 'cancelled', JSON.stringify(again.out));
    assert.equal(again.asked.length, 1);
    assert.notEqual(whyOf(again.asked[0]!), 'unbounded', 'the count is known: no "just this once"');
    assert.ok(JSON.stringify(again.asked[0]).includes(`${Math.max(100, total * 100).toLocaleString('en-US')} credits`), `the exact price: ${JSON.stringify(again.asked[0])}`);
    assert.equal(paid(from, '/wallet_database'), 0, 'cancelled: nothing sent');
  });

  it('holds the ceiling for a query file too, and prices a known count exactly (refused above the ceiling)', async () => {
    const file = path.join(dir, 'ceiling.waquery.json');
    fs.writeFileSync(file, `${JSON.stringify({ where: { and: [{ field: 'winrate_30d', op: '>=', value: 0.1 }] }, limit: 3 }, null, 2)}\n`);
    const doc = await vscode.workspace.openTextDocument(file);
    await vscode.window.showTextDocument(doc);
    const from = sb.received().length;
    const first = await asking(false, () => vscode.commands.executeCommand<QueryRunResult>(CommandIds.runQuery, doc.uri, { open: false }));
    assert.ok(first.out.status === 'ran' && first.out.outcome.status === 'refused', JSON.stringify(first.out));
    assert.deepEqual(first.asked.map(whyOf), ['unbounded']);
    assert.equal(paid(from, '/wallet_database'), 0);

    const ran = await asking(true, () => vscode.commands.executeCommand<QueryRunResult>(CommandIds.runQuery, doc.uri, { open: false }));
    assert.deepEqual(ran.asked.map(whyOf), ['unbounded', 'confirm']);
    assert.ok(ran.out.status === 'ran' && ran.out.outcome.status === 'done' && ran.out.run, JSON.stringify(ran.out));
    const total = ran.out.run.total;
    assert.ok(total > 2, 'the query matches several wallets');

    // The same query inside its refresh period: the count is known, the price exact, the ceiling applies.
    await set('maxCreditsPerCall', total * 100 - 1);
    try {
      const before = sb.received().length;
      const again = await asking(true, () => vscode.commands.executeCommand<QueryRunResult>(CommandIds.runQuery, doc.uri, { open: false, fresh: true }));
      assert.ok(again.out.status === 'ran' && again.out.outcome.status === 'refused', JSON.stringify(again.out));
      assert.match(again.out.outcome.message, new RegExp(`would cost ${(total * 100).toLocaleString('en-US')} credits, above your limit`, 'u'));
      assert.deepEqual(again.asked, [], 'refused outright: no question');
      const palette = await asking(true, () => run('wallet_database', { inputs: { query: { where: { and: [{ field: 'winrate_30d', op: '>=', value: 0.1 }] }, limit: 3 } }, open: false }));
      assert.equal(palette.out.status, 'refused', 'the palette knows the same count');
      assert.equal(paid(before, '/wallet_database'), 0);
    } finally {
      await set('maxCreditsPerCall', 1_000_000);
    }
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('gives a palette query the editor’s field checks before the network', async () => {
    const from = sb.received().length;
    const bad = { where: { and: [{ field: 'winrate_30', op: '>', value: 0.5 }] }, limit: 5 };
    const { out, asked } = await asking(true, () => run('wallet_database', { inputs: { query: bad }, open: false }));
    assert.equal(out.status, 'invalid', JSON.stringify(out));
    assert.match(out.status === 'invalid' ? out.errors.join(' ') : '', /winrate_30.*winrate_30d/u, 'the unknown field, with "did you mean"');
    assert.equal(paid(from, '/wallet_database'), 0, 'nothing was sent');
    assert.deepEqual(asked, [], 'refused before the price was even asked');
  });

  it('a queued submit charged but never answered is found in the request history and followed: charged once, never lost', async () => {
    const from = sb.ledger().length;
    sb.setFaults({ dropAfterChargeRate: 1 });
    let out: RunOutcome;
    try {
      out = (await asking(true, () => run('lookuptablestats', { inputs: { hours: 7 }, notify: false, wait: false }))).out;
    } finally {
      sb.setFaults({ dropAfterChargeRate: 0 });
    }
    assert.equal(out.status, 'queued', JSON.stringify(out));
    assert.ok(out.status === 'queued' && out.reconciled === true, 'found after all, not guessed');
    assert.match(out.shown, /accepted after all; following it/u);
    const charges = sb.ledger().slice(from);
    assert.deepEqual(charges.map((c) => [c.endpoint, c.requestId]), [['lookuptablestats', out.requestId]], 'one charge, and it is the job followed');
    const api = await getApi();
    await waitFor('the found job done', () => api.services.jobs.store.get(out.status === 'queued' ? out.requestId : '')?.state === 'done', 20_000);
    note(`charged, connection dropped: reconciled to ${out.requestId} and downloaded`);
  });

  it('a direct paid call that ends ambiguously says it may have been charged, and running it again asks "may charge again" first', async () => {
    const balance = sb.balance();
    sb.setFaults({ dropAfterChargeRate: 1 });
    let first: RunOutcome;
    try {
      first = (await asking(true, () => run('altchain_pnl', { inputs: { wallet: sampleAddress('alt', 2) }, open: false }))).out;
    } finally {
      sb.setFaults({ dropAfterChargeRate: 0 });
    }
    assert.equal(first.status, 'failed', JSON.stringify(first));
    assert.ok(first.status === 'failed' && first.charged === 'unknown');
    assert.match(first.message, /may have been charged/u);
    assert.doesNotMatch(first.message, /not charged/iu);
    assert.equal(sb.balance(), balance - 5, 'the sandbox did charge it');
    const from = sb.received().length;
    const again = await asking((q) => !(q.kind === 'modal' && q.why === 'mayChargeAgain'), () => run('altchain_pnl', { inputs: { wallet: sampleAddress('alt', 2) }, open: false }));
    assert.equal(again.out.status, 'cancelled');
    assert.deepEqual(again.asked.map(whyOf), ['mayChargeAgain'], 'asked before the price, before anything is sent');
    assert.equal(sb.received().slice(from).filter((r) => r.path === '/altchain_pnl').length, 0);
    const confirmed = await asking(true, () => run('altchain_pnl', { inputs: { wallet: sampleAddress('alt', 2) }, open: false }));
    assert.equal(confirmed.out.status, 'done');
    assert.deepEqual(confirmed.asked.map(whyOf), ['mayChargeAgain', 'step']);
  });
});

