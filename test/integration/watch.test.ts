/**
 * Watches (issue 25) inside a real extension host, against a sandbox whose clock the test moves an
 * hour at a time (the Wallet Database answers change with the hourly refresh): a query file watched
 * on a test-only interval of seconds (allowed only under the test runner), its price per run
 * approved once; a run that found changes told in one line, whose Open Changes opens the compare
 * table; a run past the day's budget skipped with nothing sent and nothing charged on the sandbox's
 * ledger; pause; and a custom interval under an hour refused outside the test runner's own args.
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { startSandbox, type Sandbox } from '../../src/sandbox';
import type { RunRecord, WatchRecord } from '../../src/core/watch/model';
import { CommandIds } from '../../src/vscode/base/ids';
import { answerPrices, api as getApi, note, setApiKey, waitFor, clearApiKey } from './support';

const cfg = () => vscode.workspace.getConfiguration('walletAnalytics');
const set = (k: string, v: unknown) => cfg().update(k, v, vscode.ConfigurationTarget.Global);
const HOUR = 3_600_000;

describe('watches: a query file watched on a short test interval (against a sandbox)', function () {
  this.timeout(120_000);
  let sb: Sandbox;
  let dir: string;
  let offset = 0;
  let watch: WatchRecord | undefined;
  const dbPosts = () => sb.received().filter((r) => r.method === 'POST' && r.path === '/wallet_database').length;
  const watches = async () => (await getApi()).testing.watches;
  const saved = async () => (watch ? (await watches()).store.get(watch.id) : undefined);
  const spentToday = async (): Promise<number> => (await getApi()).services.credits.budgets({ perDay: 1e15, perPeriod: 0 })[0]?.spent ?? 0;

  before(async () => {
    sb = await startSandbox({ port: 0, wallets: 500, altWallets: 100, now: () => Date.now() + offset });
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wa-watch-'));
    await set('baseUrl', sb.baseUrl);
    await set('resultsFolder', dir);
    assert.equal(await setApiKey(sb.demoKey), true);
  });

  after(async () => {
    if (watch) await (await watches()).remove(watch.id);
    await answerPrices(undefined);
    for (const k of ['baseUrl', 'resultsFolder', 'budget.perDay']) await set(k, undefined);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await clearApiKey();
    await sb.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('Watch This… on a query file: the price per run is asked once, with the budget it lives in; nothing is sent then', async () => {
    await set('budget.perDay', (await spentToday()) + 5_000_000);
    const file = path.join(dir, 'active winners.waquery.json');
    fs.writeFileSync(file, '{\n  "where": { "and": [ { "field": "winrate_30d", "op": ">=", "value": 0.55 } ] },\n  "limit": 50\n}\n');
    const from = (await answerPrices((q) => (q.kind === 'amount' ? 1_000_000 : q.kind === 'modal' && q.yes === 'Create Watch'))).length;
    const sent = dbPosts();
    watch = await vscode.commands.executeCommand<WatchRecord | undefined>(CommandIds.watchThis, vscode.Uri.file(file), {
      name: 'Active winners', schedule: { kind: 'interval', ms: 3000 }, threshold: { column: 'winrate_30d', percent: 5 },
    });
    assert.ok(watch, 'the watch was created');
    const asked = (await answerPrices((q) => (q.kind === 'amount' ? 1_000_000 : q.kind === 'modal' && q.yes === 'Create Watch'))).slice(from);
    assert.deepEqual(asked.map((q) => q.kind), ['amount', 'modal'], 'the most per run, then the approval');
    const confirm = asked[1];
    assert.ok(confirm?.kind === 'modal');
    assert.match(confirm.message, /^Watch “Active winners”, every 3 s \(test\): up to 1,000,000 credits per run$/u);
    assert.match(confirm.detail, /Each run lives in your daily budget \([\d,]+ credits of [\d,]+ credits left, resets at \d{4}-\d{2}-\d{2} 00:00 UTC\)/u);
    assert.deepEqual(watch.approval.credits, 1_000_000);
    assert.equal(watch.approval.risk, true);
    assert.equal(dbPosts(), sent, 'creating a watch sends nothing');
    note(`asked: ${confirm.message}`);
  });

  it('runs on its slot through the call flow; the next hour’s answer is compared: one line told, Open Changes opens the compare table', async () => {
    await answerPrices(false); // a run never asks: a question now would be answered "no"
    const first = await waitFor('the first run', async () => ((await saved())?.runs.find((r) => r.status === 'first')), 20_000);
    assert.ok(first.resultPath && fs.existsSync(first.resultPath));
    assert.ok(first.credits > 0, 'charged per match');
    const w = await watches();
    const told = w.told.length;
    // The next hour: the metrics refresh and the same query may match other wallets (an hour can
    // leave the 50 returned as they were: then the hour after, up to six).
    let changed: RunRecord | undefined;
    for (let hour = 0; hour < 6 && !changed; hour++) {
      offset += HOUR;
      changed = await waitFor('a run that found changes', async () => ((await saved())?.runs.find((r) => r.status === 'changed')), 8_000).catch(() => undefined);
    }
    assert.ok(changed, JSON.stringify((await saved())?.runs.slice(-3)));
    assert.ok(changed.comparePath?.endsWith('.compare.json'));
    const line = await waitFor('the notification', () => w.told.slice(told).find((t) => t.watchId === watch?.id && t.actions.includes('Open Changes')));
    assert.match(line.text, /^Active winners: (?:[\d,]+ new wallets?|[\d,]+ gone|[\d,]+ moved past 5% on winrate_30d)(?:, [^,]+)* since \d{2}:\d{2} UTC$/u, line.text);
    assert.deepEqual(line.actions, ['Open Changes', 'Open Result']);
    note(`told: "${line.text}"`);
    // The line's own Open Changes (what its notification's button does): the watch runs every 3 s,
    // so by now a later run (the same answer, no changes) may be the latest; the button still opens
    // the changes it told. (A CI run once asked the Watches view's Open Result instead, after such
    // a later run, and got that run's result, not a compare table.)
    line.act('Open Changes');
    const tab = await waitFor('the compare table', () => {
      const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
      return input instanceof vscode.TabInputCustom && input.uri.fsPath.endsWith('.compare.json') ? input : undefined;
    }, 10_000);
    assert.equal(tab.viewType, 'walletAnalytics.table');
    assert.equal(tab.uri.fsPath, changed.comparePath, 'the compare of the run it told');
  });

  it('a run past the day’s budget is skipped: nothing sent, nothing on the sandbox’s ledger, and the watch says so', async () => {
    const w = await watches();
    // Less left today than the smallest bill of a run (100 credits).
    await set('budget.perDay', (await spentToday()) + 50);
    await waitFor('the runs in flight to end', async () => !((await saved())?.runs.at(-1)?.status === undefined), 10_000);
    const runs = (await saved())?.runs.length ?? 0;
    const sent = dbPosts();
    const ledger = sb.ledger().length;
    const balance = sb.balance();
    const skipped = await waitFor('a skipped run', async () => ((await saved())?.runs.slice(runs).find((r) => r.status === 'skipped')), 20_000);
    assert.match(skipped.text, /^Skipped: Past your daily budget: this call needs [\d,]+ credits/u, skipped.text);
    assert.match(skipped.text, /Nothing was sent and nothing was charged/u);
    assert.equal(skipped.credits, 0);
    // Runs that began before the budget changed may still land; none after the skip.
    const at = (await saved())?.runs.slice(runs).findIndex((r) => r.status === 'skipped') ?? -1;
    const paidAfter = ((await saved())?.runs.slice(runs + at) ?? []).filter((r) => r.credits > 0);
    assert.deepEqual(paidAfter, [], 'nothing charged once past the budget');
    assert.ok(dbPosts() - sent <= 1 && sb.ledger().length - ledger <= 1, 'at most the run already in flight');
    const told = await waitFor('the warning', () => w.told.find((t) => t.watchId === watch?.id && /Skipped: Past your daily budget/u.test(t.text)));
    note(`told: "${told.text}"; the sandbox's balance ${balance === sb.balance() ? 'unchanged' : 'moved by the run in flight'}`);
  });

  it('paused, it does not run; the view shows the pause switch and its rows', async () => {
    assert.ok(watch);
    await vscode.commands.executeCommand(CommandIds.pauseWatch, watch.id);
    const n = (await saved())?.runs.length ?? 0;
    await new Promise((r) => setTimeout(r, 4000));
    assert.equal((await saved())?.runs.length, n, 'no run while paused');
    const w = await watches();
    const rec = w.list().find((x) => x.id === watch?.id);
    assert.equal(rec?.paused, true);
    // The view's Open Result opens the latest run's changes, even a run this window's list has not
    // reloaded yet: here one the window that runs the watch (another one) has just added, the
    // first result again.
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    const first = rec?.runs.find((r) => r.status === 'first');
    assert.ok(first?.resultPath);
    await w.store.addRun(watch.id, { ...first, at: Date.now(), status: 'unchanged', text: 'Run in another window.' });
    await vscode.commands.executeCommand(CommandIds.openWatchResult, watch.id);
    await waitFor('the latest run opened', () => {
      const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
      return input instanceof vscode.TabInputCustom && input.uri.fsPath === first.resultPath ? input : undefined;
    }, 10_000);
  });

  it('a watch’s run is held against the budgets like any approved call (another window counts it before its charge is known)', async () => {
    await set('budget.perDay', (await spentToday()) + 10_000);
    await answerPrices((q) => q.kind === 'modal' && q.yes === 'Create Watch');
    const w = await vscode.commands.executeCommand<WatchRecord | undefined>(CommandIds.watchThis, {
      target: { kind: 'request', endpointId: 'trending', inputs: { hours: 3 } }, name: 'Trending 3h', schedule: { kind: 'hourly' }, threshold: null,
    });
    assert.ok(w);
    const credits = (await getApi()).services.credits;
    const holds: [string, number][] = [];
    const hold = credits.hold.bind(credits);
    credits.hold = (endpointId, n, b, scope) => {
      holds.push([endpointId, n]);
      return hold(endpointId, n, b, scope);
    };
    try {
      // A bare id (not a row of the view) asks first (issue 30 item 4): the person says Run Watch Now.
      const asked: string[] = [];
      await answerPrices((q) => q.kind === 'modal' && q.yes === 'Run Watch Now' && asked.push(q.message) > 0);
      await vscode.commands.executeCommand(CommandIds.runWatchNow, w.id);
      await answerPrices(false);
      // The most a run may charge, said as Run Now (up to …) says it.
      assert.deepEqual(asked, ['Run the watch “Trending 3h” now (up to 50 credits)?']);
      const run = (await (await watches()).store.get(w.id))?.runs.at(-1);
      assert.equal(run?.status, 'first', JSON.stringify(run));
      assert.deepEqual(holds, [['trending', 50]]);
    } finally {
      credits.hold = hold;
      await (await watches()).remove(w.id);
    }
  });

  it('a watched query file edited after its approval is not run: skipped and told, nothing sent (issue 30 item 1); Approve the New Price… binds it to the edit, Cancel first', async () => {
    await set('budget.perDay', (await spentToday()) + 1_000_000);
    const file = path.join(dir, 'edited.waquery.json');
    fs.writeFileSync(file, '{\n  "where": { "and": [ { "field": "winrate_30d", "op": ">=", "value": 0.9 } ] },\n  "limit": 5\n}\n');
    await answerPrices((q) => (q.kind === 'amount' ? 10_000 : q.kind === 'modal' && q.yes === 'Create Watch'));
    const w = await vscode.commands.executeCommand<WatchRecord | undefined>(CommandIds.watchThis, vscode.Uri.file(file), { name: 'Edited', schedule: { kind: 'hourly' }, threshold: null });
    assert.ok(w?.approval.request, 'the approval binds the query body');
    try {
      // A looser filter: far more matches, far more credits than the 10,000 approved per run.
      fs.writeFileSync(file, '{\n  "where": { "and": [ { "field": "winrate_30d", "op": ">=", "value": 0.1 } ] },\n  "limit": 5\n}\n');
      const sent = dbPosts();
      await answerPrices((q) => q.kind === 'modal' && q.yes === 'Run Watch Now');
      await vscode.commands.executeCommand(CommandIds.runWatchNow, w.id);
      await answerPrices(false);
      const run = (await (await watches()).store.get(w.id))?.runs.at(-1);
      assert.equal(run?.status, 'skipped', JSON.stringify(run));
      assert.match(run?.text ?? '', /not what was approved when the watch was created/u);
      assert.equal(run?.credits, 0);
      assert.equal(run?.approveAgain, true, 'the run offers Approve the New Price…');
      assert.equal(dbPosts(), sent, 'nothing sent');

      // Approve the New Price…: asked again with the price of the query as it is now; Cancel keeps the old approval.
      const asked = (await answerPrices(false)).length;
      await vscode.commands.executeCommand(CommandIds.approveWatchAgain, w.id);
      assert.equal((await (await watches()).store.get(w.id))?.approval.request, w.approval.request, 'cancelled: the old approval stays');
      await answerPrices((q) => (q.kind === 'amount' ? 500_000 : q.kind === 'modal' && q.yes === 'Approve New Price'));
      await vscode.commands.executeCommand(CommandIds.approveWatchAgain, w.id);
      const questions = (await answerPrices(false)).slice(asked);
      assert.deepEqual(questions.map((q) => (q.kind === 'modal' ? q.yes : q.kind)), ['amount', 'amount', 'Approve New Price']);
      const again = await (await watches()).store.get(w.id);
      assert.notEqual(again?.approval.request, w.approval.request, 'bound to the query as it is now');
      assert.equal(again?.approval.credits, 500_000);
      assert.equal(again?.runs.length, 1, 'its runs stay');
      assert.equal(dbPosts(), sent, 'approving sends nothing');
      // Its next run sends the edited query under the new approval.
      await answerPrices((q) => q.kind === 'modal' && q.yes === 'Run Watch Now');
      await vscode.commands.executeCommand(CommandIds.runWatchNow, w.id);
      await answerPrices(false);
      const next = (await (await watches()).store.get(w.id))?.runs.at(-1);
      assert.equal(next?.status, 'first', JSON.stringify(next));
      assert.equal(dbPosts(), sent + 1, 'the edited query sent once');
    } finally {
      await (await watches()).remove(w.id);
    }
  });

  it('Run Now and Resume from a command argument (a bare id: a link, another extension) ask the person first; Cancel spends nothing (issue 30 item 4)', async () => {
    await answerPrices((q) => q.kind === 'modal' && q.yes === 'Create Watch');
    const w = await vscode.commands.executeCommand<WatchRecord | undefined>(CommandIds.watchThis, {
      target: { kind: 'request', endpointId: 'trending', inputs: { hours: 4 } }, name: 'Trending 4h', schedule: { kind: 'hourly' }, threshold: null,
    });
    assert.ok(w);
    try {
      const from = (await answerPrices(false)).length;
      const sent = sb.received().filter((r) => r.method === 'POST').length;
      await vscode.commands.executeCommand(CommandIds.runWatchNow, w.id);
      await vscode.commands.executeCommand(CommandIds.pauseWatch, w.id);
      await vscode.commands.executeCommand(CommandIds.resumeWatch, w.id);
      const asked = (await answerPrices(false)).slice(from);
      assert.deepEqual(asked.map((q) => (q.kind === 'modal' ? q.yes : q.kind)), ['Run Watch Now', 'Resume Watch']);
      const stored = await (await watches()).store.get(w.id);
      assert.deepEqual(stored?.runs, [], 'nothing ran');
      assert.equal(stored?.paused, true, 'still paused: Resume was not answered');
      assert.equal(sb.received().filter((r) => r.method === 'POST').length, sent, 'nothing sent');
    } finally {
      await (await watches()).remove(w.id);
    }
  });

  it('Export Watch writes the runner, the watched request as a pipeline, and a workflow on the watch’s schedule, bound to its approved price per run; a query watch is not exported', async () => {
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
    assert.ok(folder, 'the suite opens a folder');
    await answerPrices((q) => q.kind === 'modal' && q.yes === 'Create Watch');
    const w = await vscode.commands.executeCommand<WatchRecord | undefined>(CommandIds.watchThis, {
      target: { kind: 'request', endpointId: 'trending', inputs: { hours: 2 } }, name: 'Trending 2h', schedule: { kind: 'daily', at: 6 * 60 + 30 }, threshold: null,
    });
    assert.ok(w);
    try {
      assert.equal(w.approval.credits, 50);
      const sent = sb.received().filter((r) => r.method === 'POST').length;
      const script = await vscode.commands.executeCommand<string | undefined>(CommandIds.exportWatch, w.id);
      assert.ok(script && fs.existsSync(script), String(script));
      assert.equal(path.basename(script), 'wallet-analytics.cjs');
      const pipeline = JSON.parse(fs.readFileSync(path.join(folder, 'watch-Trending_2h.wapipe.json'), 'utf8')) as unknown;
      assert.deepEqual(pipeline, { version: 1, cells: [{ name: 'run', call: 'trending', inputs: { hours: 2 } }] });
      const workflow = fs.readFileSync(path.join(folder, '.github', 'workflows', 'wallet-analytics-watch-Trending_2h.yml'), 'utf8');
      assert.match(workflow, /cron: "30 6 \* \* \*"/u);
      assert.match(workflow, /node wallet-analytics\.cjs watch watch-Trending_2h\.wapipe\.json --max-credits 50 --base-url /u);
      assert.doesNotMatch(fs.readFileSync(script, 'utf8'), new RegExp(sb.demoKey, 'u'), 'the key is never written');
      assert.equal(sb.received().filter((r) => r.method === 'POST').length, sent, 'exporting sends nothing');
      assert.ok(watch);
      assert.equal(await vscode.commands.executeCommand(CommandIds.exportWatch, watch.id), undefined, 'a query billed per match has no bound a script could hold');
      note(`exported ${path.basename(script)} with a workflow at 30 6 * * * and --max-credits 50`);
    } finally {
      await (await watches()).remove(w.id);
      fs.rmSync(path.join(folder, '.github'), { recursive: true, force: true });
      for (const f of fs.readdirSync(folder).filter((n) => n.startsWith('watch-Trending') || n === 'wallet-analytics.cjs')) fs.rmSync(path.join(folder, f), { recursive: true, force: true });
    }
  });

  it('a custom interval under an hour is refused from command arguments outside the test runner’s rule (at least 500 ms here, an hour for people)', async () => {
    const out = await vscode.commands.executeCommand<WatchRecord | undefined>(CommandIds.watchThis, { target: { kind: 'request', endpointId: 'trending', inputs: { hours: 2 } }, schedule: { kind: 'interval', ms: 100 } });
    assert.equal(out, undefined);
  });
});
