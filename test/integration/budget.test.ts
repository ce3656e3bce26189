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
import { answerPrices, api as getApi, note, setApiKey, clearApiKey } from './support';

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
    sb = await startSandbox({ port: 0, jobDelayMs: [100, 200], wallets: 500, altWallets: 100 });
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wa-budget-'));
    await set('baseUrl', sb.baseUrl);
    await set('resultsFolder', dir);
    assert.equal(await setApiKey(sb.demoKey), true);
  });

  after(async () => {
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
});
