// "Open in Notebook" in a real extension host: a result open in the table, a query applied through
// the table's own message path, then the command has the table's worker export that view beside
// the result and writes a notebook that loads it (numbered names the second time, the first files
// left as they were), and opens it.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { sampleAddress } from '../../src/core/spec/samples';
import { CommandIds } from '../../src/vscode/base/ids';
import type { TableTestHooks } from '../../src/vscode/table/tableEditor';
import { api, waitFor } from './support';

describe('table: Open in Notebook', function () {
  // A stall guard, not a timing: on a loaded machine (a load of 30 on 2 cores) opening VS Code's notebook editor twice took over 60 s.
  this.timeout(120_000);
  let hooks: TableTestHooks;
  let dir: string;
  let file: string;

  before(async () => {
    const testing = (await api()).testing;
    assert.ok(testing?.table, 'the table test hooks exist under the test runner');
    hooks = testing.table;
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wa-notebook-'));
    file = path.join(dir, 'pnl-20261124-041500-req_9.csv');
    const lines = ['address,label,realized_pnl_usd_7d'];
    for (let i = 0; i < 30; i++) lines.push(`${sampleAddress('main', i)},${i % 2 ? 'whale' : 'bot'},${i % 5 === 0 ? '' : (i * 37) % 11}`);
    fs.writeFileSync(file, `${lines.join('\n')}\n`);
    fs.writeFileSync(`${file}.meta.json`, JSON.stringify({ endpoint: 'pnl', inputs: {}, requestId: 'req_9', cost: 5, submittedAt: '', baseUrl: '', file: path.basename(file) }));
  });

  after(async () => {
    // Each notebook opened is reverted and closed first: left to closeAllEditors, the next test file's tables did not load (seen in code-server).
    for (const nb of vscode.workspace.notebookDocuments.filter((d) => d.uri.fsPath.startsWith(dir))) {
      await vscode.window.showNotebookDocument(nb);
      await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    }
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('says what it needs when no table is active', async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    assert.equal(await vscode.commands.executeCommand(CommandIds.openInNotebook), undefined);
    assert.deepEqual(fs.readdirSync(dir).filter((f) => f.endsWith('.ipynb')), []);
  });

  it('writes the view beside the result, never over a notebook, and opens it', async () => {
    await vscode.commands.executeCommand(CommandIds.openInTable, file);
    const t = await hooks.table(file);
    await waitFor('the table is ready', () => t.posted.some((m) => m.type === 'meta'), 20_000);
    const r = await t.request({ type: 'setQuery', requestId: 77, query: { sort: [{ column: 2, descending: true }], filters: [{ kind: 'contains', column: 1, text: 'Whale' }] } });
    assert.equal(r.type, 'queryApplied');
    await waitFor('the table is the active editor', () => t.panel.active);

    const first = await vscode.commands.executeCommand<string | undefined>(CommandIds.openInNotebook);
    assert.equal(first, path.join(dir, 'pnl-20261124-041500-req_9.ipynb'));
    const nb = JSON.parse(fs.readFileSync(first, 'utf8')) as { nbformat: number; cells: { cell_type: string; source: string[] }[] };
    assert.equal(nb.nbformat, 4);
    const code = nb.cells.filter((c) => c.cell_type === 'code').map((c) => c.source.join('')).join('\n');
    // The notebook loads the view the table exported, and re-does none of it.
    assert.match(code, /PATH = "pnl-20261124-041500-req_9-view\.csv"/u);
    assert.match(code, /DTYPES = \{"address": "string", "label": "string", "realized_pnl_usd_7d": "float64"\}/u);
    assert.match(code, /NA = \{"realized_pnl_usd_7d": BLANKS\}/u);
    assert.match(code, /pd\.read_csv\(PATH, dtype=DTYPES, na_values=NA, keep_default_na=False\)/u);
    assert.doesNotMatch(code, /^\s*if\b|os\.path\.exists|to_numeric|TRY_CAST/mu, 'one load, no branch, no conversion after it');
    assert.doesNotMatch(code, /sort_values|order by|\bwhere\b|\.str\.contains|between\(|\.loc\[/iu);
    const intro = nb.cells[0]?.source.join('') ?? '';
    assert.match(intro, /\(pnl\)/u, 'the first cell names the endpoint');
    assert.match(intro, /label contains "Whale"/u, 'and says what the view is');
    // The exported view: the whale rows, by realized PnL descending, empty cells last, as the table shows them.
    const view = fs.readFileSync(path.join(dir, 'pnl-20261124-041500-req_9-view.csv'), 'utf8').trimEnd().split('\n').map((l) => l.split(','));
    const whales = Array.from({ length: 30 }, (_, i) => i).filter((i) => i % 2 === 1);
    const pnl = (i: number): string => (i % 5 === 0 ? '' : String((i * 37) % 11));
    const expected = [...whales].sort((a, b) => (pnl(a) === '' ? 1 : 0) - (pnl(b) === '' ? 1 : 0) || Number(pnl(b)) - Number(pnl(a)) || a - b);
    assert.deepEqual(view[0], ['address', 'label', 'realized_pnl_usd_7d']);
    assert.deepEqual(view.slice(1), expected.map((i) => [sampleAddress('main', i), 'whale', pnl(i)]));
    assert.match(intro, new RegExp(`Rows: ${expected.length}\\.`, 'u'));
    await waitFor('the notebook opens', () => vscode.window.activeNotebookEditor?.notebook.uri.fsPath === first || vscode.window.activeTextEditor?.document.uri.fsPath === first, 20_000);

    const before = fs.readFileSync(first, 'utf8');
    await vscode.commands.executeCommand(CommandIds.openInTable, file);
    await waitFor('the table is active again', async () => (await hooks.table(file)).panel.active, 20_000);
    const second = await vscode.commands.executeCommand<string | undefined>(CommandIds.openInNotebook);
    assert.equal(second, path.join(dir, 'pnl-20261124-041500-req_9-2.ipynb'));
    assert.equal(fs.readFileSync(first, 'utf8'), before, 'the first notebook is left as it was');
    assert.ok(fs.existsSync(path.join(dir, 'pnl-20261124-041500-req_9-view-2.csv')), 'the second has its own view file');
    assert.match(fs.readFileSync(second, 'utf8'), /req_9-view-2\.csv/u);
  });

  it('the view is the whole result: the notebook loads the result itself, and no copy is written', async () => {
    await vscode.commands.executeCommand(CommandIds.openInTable, file);
    const t = await hooks.table(file);
    await waitFor('the table is active again', () => t.panel.active, 20_000);
    const r = await t.request({ type: 'setQuery', requestId: 78, query: {} });
    assert.equal(r.type, 'queryApplied');
    const views = (): string[] => fs.readdirSync(dir).filter((f) => f.endsWith('-view.csv') || /-view-\d+\.csv$/u.test(f));
    const before = views();
    const third = await vscode.commands.executeCommand<string | undefined>(CommandIds.openInNotebook);
    assert.equal(third, path.join(dir, 'pnl-20261124-041500-req_9-3.ipynb'));
    assert.match(fs.readFileSync(third, 'utf8'), /PATH = \\"pnl-20261124-041500-req_9\.csv\\"/u);
    assert.deepEqual(views(), before, 'no view file written');
  });
});
