// Compare Results and Address Sets in a real extension host: two files handed over as an Explorer
// selection open as one compared table in the Wallet Analytics Table (its own message path, as in
// table.test.ts), an extracted .zip result of several files asks which one, and the address sets command writes its list beside the results. Expected values
// are worked out here from the two files' rows, never read back from the store.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { sampleAddress } from '../../src/core/spec/samples';
import { CommandIds } from '../../src/vscode/base/ids';
import type { TableHandle, TableTestHooks } from '../../src/vscode/table/tableEditor';
import type { UiMessage, UiRequest } from '../../src/shared/tableUiProtocol';
import type { PersonQuestion } from '../../src/vscode/base/personQuestions';
import { answering, api, waitFor } from './support';

let nextId = 2_000_000;
const id = (): number => ++nextId;
const addr = (i: number): string => sampleAddress('main', 100 + i);

async function reply<T extends UiMessage['type']>(t: TableHandle, req: UiRequest, type: T): Promise<Extract<UiMessage, { type: T }>> {
  const r = await t.request(req);
  assert.equal(r.type, type, `${req.type} answered ${JSON.stringify(r).slice(0, 400)}`);
  return r as Extract<UiMessage, { type: T }>;
}

describe('analysis: compare two results and combine their addresses', function () {
  this.timeout(120_000);
  let hooks: TableTestHooks;
  let dir: string;
  let fileA: string;
  let fileB: string;

  before(async () => {
    const testing = (await api()).testing;
    assert.ok(testing?.table, 'the table test hooks exist under the test runner');
    hooks = testing.table;
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wa-compare-'));
    await vscode.workspace.getConfiguration('walletAnalytics').update('resultsFolder', dir, vscode.ConfigurationTarget.Global);
    // A: wallets 0–9; B: wallets 5–14, another column order, pnl up by i.
    fileA = path.join(dir, 'pnl-20261121-101500-req_a.csv');
    fileB = path.join(dir, 'pnl-20261122-101500-req_b.csv');
    const a = ['address,label,realized_pnl_usd_7d', ...Array.from({ length: 10 }, (_, i) => `${addr(i)},w${i},${i * 10}`)];
    const b = ['realized_pnl_usd_7d,address', ...Array.from({ length: 10 }, (_, k) => `${(k + 5) * 10 + k + 5},${addr(k + 5)}`)];
    fs.writeFileSync(fileA, `${a.join('\n')}\n`);
    fs.writeFileSync(fileB, `${b.join('\n')}\n`);
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await vscode.workspace.getConfiguration('walletAnalytics').update('resultsFolder', undefined, vscode.ConfigurationTarget.Global);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('opens two Explorer-selected files as one compared table, sortable on Δ, with counts', async () => {
    const compared = await vscode.commands.executeCommand<string | undefined>(CommandIds.compareResults, vscode.Uri.file(fileA), [vscode.Uri.file(fileA), vscode.Uri.file(fileB)]);
    assert.ok(compared, 'the command returns the comparison file');
    assert.equal(path.dirname(compared), path.join(dir, 'compares'));
    const t = await hooks.table(compared);
    const init = await waitFor('init', () => t.posted.find((m): m is Extract<UiMessage, { type: 'init' }> => m.type === 'init'), 20_000);
    assert.deepEqual(init.columns.slice(0, 3), ['status', 'address', 'Δ realized_pnl_usd_7d']);
    assert.equal(init.view.total, 15);
    const notice = init.notices.find((n) => n.code === 'compared');
    assert.match(notice?.message ?? '', /5 in both, 5 only in A, 5 only in B/u);
    await reply(t, { type: 'setQuery', requestId: id(), query: { sort: [{ column: 2, descending: true }] } }, 'queryApplied');
    const w = (await reply(t, { type: 'getWindow', requestId: id(), first: 0, last: 15, columns: [0, 1, 2] }, 'window')).window;
    // Δ for wallet i in both (5–9) is i: B's pnl is 10i + i, A's 10i.
    assert.deepEqual(w.cells.slice(0, 5), [9, 8, 7, 6, 5].map((i) => ['in both', addr(i), String(i)]));
    assert.deepEqual(new Set(w.cells.slice(5).map((r) => r[0])), new Set(['only in A', 'only in B']));
    assert.ok(w.cells.slice(5).every((r) => r[2] === ''), 'no Δ where a side has no row');
  });

  it('asks which file of an extracted .zip result of several files to compare, never the first silently (issue 35 item 8)', async () => {
    // An extracted .zip result: its folder beside its .zip, three table files in it; B's rows are in "part-2.csv".
    const zipDir = path.join(dir, 'top-traders-20261123-101500-req_z');
    fs.mkdirSync(zipDir);
    fs.writeFileSync(`${zipDir}.zip`, '');
    fs.writeFileSync(path.join(zipDir, 'part-1.csv'), `address,realized_pnl_usd_7d\n${addr(50)},1\n`);
    fs.copyFileSync(fileB, path.join(zipDir, 'part-2.csv'));
    fs.writeFileSync(path.join(zipDir, 'part-3.csv'), `address,realized_pnl_usd_7d\n${addr(60)},1\n`);
    const asked: PersonQuestion[] = [];
    const compared = await answering<string | undefined>(
      (q) => {
        asked.push(q);
        return q.kind === 'choose' ? 'part-2.csv' : undefined;
      },
      CommandIds.compareResults,
      vscode.Uri.file(fileA),
      [vscode.Uri.file(fileA), vscode.Uri.file(zipDir)],
    );
    const pick = asked.find((q) => q.kind === 'choose');
    assert.ok(pick && pick.kind === 'choose', `the person is asked which file: ${JSON.stringify(asked.map((q) => q.kind))}`);
    assert.deepEqual(pick.items.map((i) => i.label), ['part-1.csv', 'part-2.csv', 'part-3.csv']);
    assert.ok(compared, 'the comparison of the chosen file');
    const t = await hooks.table(compared);
    const init = await waitFor('init', () => t.posted.find((m): m is Extract<UiMessage, { type: 'init' }> => m.type === 'init'), 20_000);
    assert.equal(init.view.total, 15, 'A against part-2.csv (B’s rows), not part-1.csv');
    // Dismissed: nothing is compared.
    const none = await answering<string | undefined>(() => undefined, CommandIds.compareResults, vscode.Uri.file(fileA), [vscode.Uri.file(fileA), vscode.Uri.file(zipDir)]);
    assert.equal(none, undefined);
  });

  it('writes intersect, union and subtract lists beside the results', async () => {
    const run = (args: object) => vscode.commands.executeCommand<{ file: string | undefined; count: number } | undefined>(CommandIds.addressSets, args);
    const lines = (f: string | undefined): string[] => fs.readFileSync(f ?? '', 'utf8').split('\n').filter((l) => l !== '');
    const both = await run({ files: [fileA, fileB], op: 'intersect' });
    assert.equal(both?.count, 5);
    assert.equal(path.dirname(both?.file ?? ''), dir);
    assert.deepEqual(lines(both?.file), [5, 6, 7, 8, 9].map(addr));
    const any = await run({ files: [fileA, fileB], op: 'union' });
    assert.deepEqual(lines(any?.file), Array.from({ length: 15 }, (_, i) => addr(i)));
    const onlyB = await run({ files: [fileA, fileB], op: 'subtract', keep: fileB });
    assert.deepEqual(lines(onlyB?.file), [10, 11, 12, 13, 14].map(addr));
    assert.notEqual(onlyB?.file, any?.file);
  });
});
