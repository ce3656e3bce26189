/**
 * Paid pages are kept (src/vscode/calls/pages.ts) inside a real extension host, against a sandbox:
 * a page that fails leaves the pages paid before it in the result file, the message says what
 * they cost, and Resume shows the price of the rest and continues from the saved cursor, each
 * page paid once. The functions are called with the extension's own services; the suite answers
 * the price questions as the person would click (outside callers cannot approve a price).
 */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { endpoint } from '../../src/core/spec/catalog';
import { quote } from '../../src/core/money/pricing';
import { ActivityPage, CreatorsPage } from '../../src/core/spec/wire';
import { startSandbox, type Sandbox } from '../../src/sandbox';
import { readPages, resumePages, type PagesDeps, type PagesOutcome } from '../../src/vscode/calls/pages';
import { DEFAULT_PROFILE_ID } from '../../src/core/transport/profiles';
import { CommandIds } from '../../src/vscode/base/ids';
import { answerPrices, api as getApi, extension, note, addProfile, removeProfile, setApiKey, clearApiKey } from './support';

const cfg = () => vscode.workspace.getConfiguration('walletAnalytics');
const set = (k: string, v: unknown) => cfg().update(k, v, vscode.ConfigurationTarget.Global);

describe('paid pages: kept as they arrive, resumed from the saved cursor (against a sandbox)', function () {
  this.timeout(60_000);
  let sb: Sandbox;
  let results: string;
  let deps: PagesDeps;
  let busy = '';
  let total = 0;
  const charged = (since: number) => sb.ledger().slice(since).reduce((s, e) => s + e.credits, 0);

  before(async () => {
    await answerPrices(true);
    const api = await getApi();
    sb = await startSandbox({ port: 0, wallets: 300, altWallets: 100 });
    results = fs.mkdtempSync(path.join(os.tmpdir(), 'wa-pages-'));
    await set('baseUrl', sb.baseUrl);
    await set('resultsFolder', results);
    await set('activityPageBudget', 20);
    assert.equal(await setApiKey(sb.demoKey), true);
    const s = api.services;
    const prices = api.testing?.prices;
    assert.ok(prices, 'the test runner’s price questions');
    deps = { connection: s.connection, credits: s.credits, jobs: s.jobs, log: s.log, questions: prices };
    for (const a of sb.addresses('wallet', 300)) {
      const r = await fetch(`${sb.baseUrl}/wallets/${a}/activity`, { headers: { api_key: sb.demoKey } });
      const p = ActivityPage.parse(await r.json()) as ActivityPage & { total: number };
      if (p.total > 650 && p.total < 1_500) {
        busy = a;
        total = p.total;
        break;
      }
    }
    assert.ok(busy, 'a wallet with several pages of swaps');
  });

  after(async () => {
    await answerPrices(undefined);
    sb.setFaults({ errorRate: 0 });
    for (const k of ['baseUrl', 'resultsFolder', 'activityPageBudget']) await set(k, undefined);
    await clearApiKey();
    await sb.close();
  });

  it('declares and registers "Resume Reading Pages…"', async () => {
    const manifest = extension().packageJSON as { contributes: { commands: { command: string; title: string; category: string }[] } };
    const declared = manifest.contributes.commands.find((c) => c.command === CommandIds.resumePages);
    assert.deepEqual([declared?.title, declared?.category], ['Resume Reading Pages…', 'Wallet Analytics']);
    assert.ok((await vscode.commands.getCommands(true)).includes(CommandIds.resumePages));
  });

  it('keeps pages 1–3 when page 4 fails, says what they cost; Resume shows the price of the rest and reads from page 4, each page paid once', async () => {
    const ep = endpoint('wallet_activity');
    const ledger0 = sb.ledger().length;
    const received0 = sb.received().length;
    const out: PagesOutcome = await readPages(ep, { address: busy }, 20, deps, deps.connection.bind(), 'up to 20 credits (approved by the test)', {
      open: false,
      // The sandbox refuses every call from page 4 on (500: nothing charged).
      onPage: (saved) => {
        if (saved.pages === 3) sb.setFaults({ errorRate: 1 });
      },
    });
    sb.setFaults({ errorRate: 0 });
    assert.equal(out.status, 'failed', JSON.stringify(out).slice(0, 300));
    assert.ok(out.status === 'failed');
    assert.match(out.message, /page 4 failed: .*Kept in wallet_activity-\d{4}-\d{2}-\d{2}-\d{4}(-\d+)?\.json: 3 pages, 300 swaps, 3 credits charged\. Resume continues from page 4\./su);
    const file = out.resultPath ?? '';
    assert.equal(path.dirname(file), results);
    const disk = JSON.parse(fs.readFileSync(file, 'utf8')) as { pages: number; credits: number; swaps: unknown[]; nextCursor: string | null; complete: boolean };
    assert.deepEqual([disk.pages, disk.credits, disk.swaps.length, disk.complete, typeof disk.nextCursor], [3, 3, 300, false, 'string']);
    assert.equal(charged(ledger0), 3);
    note(`page 4 failed: ${path.basename(file)} kept 3 pages, 300 swaps, 3 credits`);

    const asked = (await answerPrices(true)).length;
    const resumed = await resumePages(vscode.Uri.file(file), deps, { open: false });
    const shown = (await answerPrices(true)).slice(asked);
    assert.equal(resumed.status, 'done', JSON.stringify(resumed).slice(0, 300));
    assert.ok(resumed.status === 'done');
    assert.equal(shown.length, 1, 'the price of the rest was asked once');
    assert.ok(shown[0]?.kind === 'step' && shown[0].label.includes('up to 17 credits (17 pages × 1; stops early at the last page)'), JSON.stringify(shown));
    const pages = Math.ceil(total / 100);
    assert.deepEqual([resumed.end, resumed.credits, resumed.value?.pages, resumed.value?.rows.length], ['last', pages - 3, pages, total]);
    assert.equal(charged(ledger0), pages, 'each page paid once');
    const answered = sb.received().slice(received0).filter((r) => r.path.includes('/activity') && r.status === 200 && r.path.includes(busy));
    assert.equal(new Set(answered.map((r) => r.query)).size, answered.length, 'no page asked for twice');
    note(`resumed from page 4: ${pages} pages in all, ${pages} credits charged`);
  });

  it('refuses to resume, under another profile on the same base URL, pages another account began: nothing sent, nothing charged', async () => {
    const ep = endpoint('wallet_activity');
    const out = await readPages(ep, { address: busy }, 1, deps, deps.connection.bind(), 'up to 1 credit (approved by the test)', { open: false });
    assert.equal(out.status, 'done', JSON.stringify(out).slice(0, 300));
    const file = out.status === 'done' ? (out.resultPath ?? '') : '';
    const disk = JSON.parse(fs.readFileSync(file, 'utf8')) as { profileId?: string; nextCursor: string | null };
    assert.equal(disk.profileId, DEFAULT_PROFILE_ID, 'the file names the profile it was read under');
    assert.equal(typeof disk.nextCursor, 'string', 'pages remain');
    // A second account on the same service: same base URL, its own key.
    const other = await addProfile({ name: 'Second account', baseUrl: sb.baseUrl, key: sb.demoKey });
    assert.ok(other, 'the profile was added (and is now in use)');
    try {
      const received0 = sb.received().length;
      const ledger0 = sb.ledger().length;
      const asked = (await answerPrices(true)).length;
      const resumed = await resumePages(vscode.Uri.file(file), deps, { open: false });
      assert.equal(resumed.status, 'failed', JSON.stringify(resumed).slice(0, 300));
      assert.ok(resumed.status === 'failed');
      assert.match(resumed.message, /was read under the profile “Default”, and this window uses “Second account”\. Nothing was sent; nothing was charged\./u);
      assert.equal(resumed.charged, 'no');
      assert.equal((await answerPrices(true)).length, asked, 'no price was even asked');
      assert.equal(sb.received().length, received0, 'nothing was sent');
      assert.equal(charged(ledger0), 0);
      note(resumed.message);
    } finally {
      await vscode.commands.executeCommand(CommandIds.switchProfile, DEFAULT_PROFILE_ID);
      await removeProfile(other);
    }
  });

  it('reads token creators in several pages with the "up to" price, stopping at the short last page', async () => {
    const ep = endpoint('token_creators');
    const probe = CreatorsPage.parse((await deps.connection.api().call(ep.id, { sort: 'tokens_created', order: 'desc', page: 1, page_size: 1 })).value);
    const count = probe.total ?? 0;
    const last = Math.ceil(count / 20);
    const input = { sort: 'tokens_created', order: 'desc', page: last - 1, page_size: 20 };
    assert.equal(quote(ep, input, { pages: 5 }).text.startsWith('up to 10,000 credits'), true);
    const ledger0 = sb.ledger().length;
    const out = await readPages(ep, input, 5, deps, deps.connection.bind(), 'up to 10,000 credits (approved by the test)', { open: false });
    assert.equal(out.status, 'done', JSON.stringify(out).slice(0, 300));
    assert.ok(out.status === 'done');
    const rows = count - (last - 2) * 20;
    assert.deepEqual([out.end, out.value?.pages, out.value?.rows.length, out.credits], ['last', 2, rows, rows * 100]);
    assert.equal(charged(ledger0), rows * 100);
  });

  it('resumes a complete file for free and refuses a file that is not a paged result, through the command', async () => {
    const ep = endpoint('altchain_wallet_activity');
    const [alt] = sb.addresses('altWallet', 1);
    const done = await readPages(ep, { address: alt }, 20, deps, deps.connection.bind(), 'approved by the test', { open: false });
    assert.ok(done.status === 'done' && done.end === 'last');
    const ledger0 = sb.ledger().length;
    const again = await vscode.commands.executeCommand<PagesOutcome>(CommandIds.resumePages, vscode.Uri.file(done.resultPath));
    assert.deepEqual([again.status, again.status === 'done' ? again.credits : -1, sb.ledger().length], ['done', 0, ledger0]);
    const other = path.join(results, 'wallet_activity-20240101-000000.json');
    fs.writeFileSync(other, JSON.stringify({ address: busy, pages: 1, swaps: [], nextCursor: 'x' }));
    const refused = await vscode.commands.executeCommand<PagesOutcome>(CommandIds.resumePages, other);
    assert.equal(refused.status, 'failed');
    assert.equal(sb.ledger().length, ledger0, 'nothing sent, nothing charged');
  });
});
