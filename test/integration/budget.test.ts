/**
 * Spend budgets (issue 25) inside a real extension host, against a sandbox: a paid call past the
 * day's budget is refused before its price is shown, with nothing sent and nothing charged on the
 * sandbox's ledger; a paged read is held at its worst case ("up to"); and the Account view shows
 * the spend against each budget and the forecast.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { sampleAddress } from '../../src/core/spec/samples';
import { startSandbox, type Sandbox } from '../../src/sandbox';
import type { RunOutcome } from '../../src/vscode/calls/callService';
import { CommandIds } from '../../src/vscode/base/ids';
import { answerPrices, api as getApi, note, setApiKey, clearApiKey, waitFor, pollEvery } from './support';

const cfg = () => vscode.workspace.getConfiguration('walletAnalytics');
const set = (k: string, v: unknown) => cfg().update(k, v, vscode.ConfigurationTarget.Global);
const run = (id: string, args: object) => vscode.commands.executeCommand<RunOutcome>(`walletAnalytics.endpoint.${id}`, args);

describe('spend budgets: refused before the price, nothing charged (against a sandbox)', function () {
  this.timeout(60_000);
  let sb: Sandbox;
  let dir: string;
  /** What this extension spent today under the sandbox's scope, read as the budget reads it. */
  const spentToday = async (): Promise<number> => (await getApi()).services.credits.budgets({ perDay: 1e15, perPeriod: 0 })[0]?.spent ?? 0;

  before(async () => {
    // Its sandbox's jobs are done in well under a second: read them at that pace, not the setting's (test runner only).
    await pollEvery(200);
    sb = await startSandbox({ port: 0, jobDelayMs: [100, 200], wallets: 500, altWallets: 100 });
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wa-budget-'));
    await set('baseUrl', sb.baseUrl);
    await set('resultsFolder', dir);
    assert.equal(await setApiKey(sb.demoKey), true);
  });

  after(async () => {
    await pollEvery(undefined);
    await answerPrices(undefined);
    for (const k of ['baseUrl', 'resultsFolder', 'budget.perDay', 'budget.perPeriod']) await set(k, undefined);
    await clearApiKey();
    await sb.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('a call past the day’s budget is refused before its price: no question, nothing sent, nothing on the sandbox’s ledger', async () => {
    // Room for one call of 50 credits today, not two.
    await set('budget.perDay', (await spentToday()) + 60);
    const from = (await answerPrices(true)).length;
    // Followed to its end: a job left pending on a sandbox that closes would keep the poller busy for the suites after.
    const first = await run('trending', { inputs: { hours: 2 }, notify: false, wait: true, open: false });
    assert.equal(first.status, 'queued', JSON.stringify(first));
    assert.equal(first.status === 'queued' ? first.job?.state : '', 'done');
    assert.equal((await answerPrices(true)).length - from, 1, 'the first call was priced and approved');

    const ledger = sb.ledger().length;
    const sent = sb.received().length;
    const balance = sb.balance();
    const asked = (await answerPrices(true)).length;
    const second = await run('trending', { inputs: { hours: 3 }, notify: false, wait: false });
    assert.equal(second.status, 'refused', JSON.stringify(second));
    const message = second.status === 'refused' ? second.message : '';
    assert.match(message, /needs 50 credits/u, 'what the call needs');
    assert.match(message, /daily budget of [\d,]+ credits has 10 credits left/u, 'what is left');
    assert.match(message, /resets at \d{4}-\d{2}-\d{2} 00:00 UTC/u, 'when it resets');
    assert.match(message, /Nothing was sent and nothing was charged/u);
    assert.equal((await answerPrices(true)).length, asked, 'no price was shown');
    assert.equal(sb.received().slice(sent).filter((r) => r.method === 'POST').length, 0, 'nothing was sent');
    assert.equal(sb.ledger().length, ledger, 'nothing on the sandbox’s ledger');
    assert.equal(sb.balance(), balance);
    note(`refused: ${message}`);
  });

  it('a paged read is held at its worst case: 20 pages “up to” 20 credits against 10 left is refused, nothing sent', async () => {
    const ledger = sb.ledger().length;
    const sent = sb.received().length;
    const out = await run('wallet_activity', { inputs: { address: sampleAddress('main', 3) }, pages: 20, open: false });
    assert.equal(out.status, 'refused', JSON.stringify(out));
    assert.match(out.status === 'refused' ? out.message : '', /needs 20 credits/u);
    assert.equal(sb.received().slice(sent).filter((r) => r.method === 'POST' || r.path.includes('activity')).length, 0, 'no page was read');
    assert.equal(sb.ledger().length, ledger);
  });

  it('the Account view shows the spend against each budget, and the forecast to the reset', async () => {
    await set('budget.perPeriod', 1_000_000);
    await vscode.commands.executeCommand(CommandIds.refreshAccount);
    const acc = (await getApi()).sidebar.account;
    acc.refresh();
    const rows = new Map(acc.getChildren().map((n) => [n.row, acc.getTreeItem(n)]));
    const day = String(rows.get('budgetDay')?.description);
    assert.match(day, /^([\d.]+K? of [\d.]+K?|all [\d.]+K? used)$/u, day);
    assert.match(String(rows.get('budgetPeriod')?.description), / of 1M$/u);
    assert.match(String(rows.get('forecast')?.description), /^[\d.]+[KM]? of 1M by \d{2}-\d{2}$/u);
    assert.match(String(rows.get('forecast')?.tooltip), /^At this pace: [\d.]+[KM]? of 1M by \d{4}-\d{2}-\d{2}\./u);
    note(`account: budget today "${day}", period "${String(rows.get('budgetPeriod')?.description)}", ${String(rows.get('forecast')?.description)}`);
  });

  it('counts what the request history shows (the runner’s, a bot’s call with the same key): a call this editor alone could afford is refused, and “Spent this period” lists it (issue 35 item 4)', async () => {
    const { services, sidebar } = await getApi();
    const scope = services.connection.scope();
    const before = await spentToday();
    // Room for one more 50-credit call, counting this editor's ledger alone.
    await set('budget.perDay', before + 60);
    // Another client of the key (the exported runner, a bot) spends 50 credits: not through this editor.
    const res = await fetch(`${sb.baseUrl}/trending?hours=5`, { headers: { api_key: sb.demoKey } });
    assert.ok(res.ok, `the other client's call was accepted: ${res.status} ${await res.clone().text()}`);
    const { requestId } = (await res.json()) as { requestId: string };
    // The history is read at the window's pace (at most one GET /requests per interval): wait for a read that lists it.
    await waitFor('the request history to list the other client’s call', async () => {
      await services.credits.readHistory(scope);
      return services.credits.ledger(scope).some((e) => e.requestId === requestId);
    }, 30_000);
    const sent = sb.received().length;
    const asked = (await answerPrices(true)).length;
    const out = await run('trending', { inputs: { hours: 4 }, notify: false, wait: false });
    assert.equal(out.status, 'refused', `the history was read before the budget: ${JSON.stringify(out)}`);
    assert.match(out.status === 'refused' ? out.message : '', /needs 50 credits.*has 10 credits left/u);
    assert.equal((await answerPrices(true)).length, asked, 'no price was shown');
    assert.equal(sb.received().slice(sent).filter((r) => r.method === 'POST' || r.path === '/trending').length, 0, 'nothing was sent');
    const other = services.credits.ledger(scope).find((e) => e.requestId === requestId);
    assert.ok(other?.elsewhere === true, 'the other client’s charge, from the history');
    // This editor's own charges are in the history too, and counted once.
    const mine = services.credits.ledger(scope).filter((e) => !e.elsewhere && e.requestId !== undefined);
    assert.ok(mine.length > 0);
    for (const e of mine) assert.equal(services.credits.ledger(scope).filter((x) => x.requestId === e.requestId).length, 1, `${e.requestId} once`);
    assert.equal(await spentToday(), before + 50, 'the day’s spend: this editor’s and the other client’s, each once');
    sidebar.account.refresh();
    const spend = sidebar.account.getChildren().find((n) => n.row === 'spend');
    assert.ok(spend);
    assert.match(String(sidebar.account.getTreeItem(spend).tooltip), /request history/u);
    note(`refused past the day's budget once the runner's ${requestId} (50 credits) was read from the history`);
  });
});
