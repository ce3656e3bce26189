import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { escapeMarkdown } from '../../src/core/markdown';
import { matchCharge } from '../../src/core/money/pricing';
import type { FieldCacheEntry } from '../../src/core/query/fieldCache';
import { startSandbox, type Sandbox } from '../../src/sandbox';
import { columnInfos } from '../../src/sandbox/columns';
import { CommandIds } from '../../src/vscode/base/ids';
import type { EstimateResult, QueryRunResult } from '../../src/vscode/language/runner';
import { DIAGNOSTIC_SOURCE } from '../../src/vscode/language/diagnostics';
import { api as getApi, extension, note, waitFor, answerPrices, setApiKey, clearApiKey } from './support';

const cfg = () => vscode.workspace.getConfiguration('walletAnalytics');
const set = (k: string, v: unknown) => cfg().update(k, v, vscode.ConfigurationTarget.Global);
const dbRequests = (sb: Sandbox) => sb.received().filter((r) => r.method === 'POST' && r.path === '/wallet_database').length;

/** Where `needle` is in the document (its first occurrence), as a position `delta` characters in. */
function positionOf(doc: vscode.TextDocument, needle: string, delta = 0): vscode.Position {
  const i = doc.getText().indexOf(needle);
  assert.ok(i >= 0, `${needle} in the document`);
  return doc.positionAt(i + delta);
}

function textOf(doc: vscode.TextDocument, d: vscode.Diagnostic): string {
  return doc.getText(d.range);
}

function openTabPaths(): string[] {
  return vscode.window.tabGroups.all
    .flatMap((g) => g.tabs)
    .map((t) => (t.input as { uri?: vscode.Uri } | undefined)?.uri?.fsPath)
    .filter((p): p is string => typeof p === 'string');
}

describe('query language: .waquery.json files against a sandbox', function () {
  this.timeout(120_000);
  let sb: Sandbox;
  let dir: string;
  let fields: FieldCacheEntry;

  const write = async (name: string, text: string): Promise<vscode.TextDocument> => {
    const file = path.join(dir, name);
    fs.writeFileSync(file, text);
    const doc = await vscode.workspace.openTextDocument(file);
    await vscode.window.showTextDocument(doc);
    return doc;
  };

  before(async () => {
    // The suite stands in for the person's click on each price question (no caller argument can).
    await answerPrices(true);
    await getApi();
    sb = await startSandbox({ port: 0, wallets: 2_000, altWallets: 500 });
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wa-queries-'));
    await set('baseUrl', sb.baseUrl);
    await set('resultsFolder', path.join(dir, 'results'));
    assert.equal(await setApiKey(sb.demoKey), true);
    const entry = await vscode.commands.executeCommand<FieldCacheEntry | undefined>(CommandIds.refreshQueryFields);
    assert.ok(entry, 'the fields were read from the sandbox');
    fields = entry;
  });

  after(async () => {
    await answerPrices(undefined);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    for (const k of ['baseUrl', 'resultsFolder']) await set(k, undefined);
    await clearApiKey();
    await sb.close();
  });

  it('reads both chains’ field lists from the sandbox (free) and keeps them on disk per base URL', async () => {
    assert.deepEqual(fields.main?.map((c) => c.name), columnInfos('main').map((c) => c.name));
    assert.deepEqual(fields.alt?.map((c) => c.name), columnInfos('alt').map((c) => c.name));
    assert.equal(fields.scope, sb.baseUrl);
    const ctx = (await getApi()).testing?.context;
    assert.ok(ctx);
    const files = fs.readdirSync(path.join(ctx.globalStorageUri.fsPath, 'query-fields'));
    assert.ok(files.some((f) => /^fields-[0-9a-f]+\.json$/u.test(f)), `on disk: ${files.join(', ')}`);
    assert.equal(sb.ledger().length, 0, 'reading the fields cost nothing');
  });

  it('is the waquery language, and the JSON language service checks it against the generated schema', async () => {
    const doc = await write(
      'schema.waquery.json',
      '// comments are part of the format\n{\n  "where": { "and": [ { "field": "winrate_30d", "op": ">", "value": 0.5, "extra": 1 }, ] },\n  "limit": 5,\n}\n',
    );
    assert.equal(doc.languageId, 'waquery');
    // The JSON language service's schema errors carry no `source`; ours carry DIAGNOSTIC_SOURCE.
    const jsonDiag = await waitFor(
      'a schema diagnostic from the JSON language service',
      () => vscode.languages.getDiagnostics(doc.uri).find((d) => d.source !== DIAGNOSTIC_SOURCE && /not allowed/u.test(d.message)),
      30_000,
    );
    assert.equal(textOf(doc, jsonDiag), '"extra"', 'at the property the schema does not allow');
    assert.equal(jsonDiag.message, 'Property extra is not allowed.');
    assert.ok(vscode.extensions.getExtension('vscode.json-language-features')?.isActive, 'the JSON language service runs');
    // The JSON language service itself (its json.validate command), given our schema file and the text, says the same.
    const schema = vscode.Uri.joinPath(extension().extensionUri, 'media', 'waquery.schema.json');
    const direct = await vscode.commands.executeCommand<vscode.Diagnostic[]>('json.validate', schema, doc.getText());
    assert.ok(
      direct.some((d) => d.message === jsonDiag.message && d.range.isEqual(jsonDiag.range)),
      `json.validate: ${JSON.stringify(direct.map((d) => d.message))}`,
    );
    note(`JSON language service: "${jsonDiag.message}" at ${textOf(doc, jsonDiag)} (source ${String(jsonDiag.source)}), the same as json.validate with ${schema.path.split('/').slice(-2).join('/')}`);
    const all = vscode.languages.getDiagnostics(doc.uri);
    assert.deepEqual(all.map((d) => textOf(doc, d)), ['"extra"'], 'comments and trailing commas are fine: only the schema error');
  });

  it('shows a syntax error from the JSON language service too (its source is the language id)', async () => {
    const doc = await write('syntax.waquery.json', '{ "where": { "and": [ { "field": "winrate_30d", "op": ">", "value": 0.5 } ] } "limit": 5 }\n');
    const d = await waitFor('the syntax error', () => vscode.languages.getDiagnostics(doc.uri).find((x) => /Expected comma/u.test(x.message)), 30_000);
    assert.equal(d.source, 'waquery');
    assert.equal(doc.offsetAt(d.range.start), doc.getText().indexOf('"limit"'));
  });

  it('shows exactly the three diagnostics of a file with three errors', async () => {
    const doc = await write(
      'three.waquery.json',
      [
        '{',
        '  "where": {',
        '    "and": [',
        '      { "field": "winrate_30", "op": ">=", "value": 0.6 },',
        '      { "field": "roi_30d", "op": "=", "value": "high" },',
        '      { "field": "trade_count_30d", "op": "between", "value": [500, 20] }',
        '    ]',
        '  },',
        '  "limit": 10',
        '}',
        '',
      ].join('\n'),
    );
    const diags = await waitFor('three diagnostics', () => {
      const d = vscode.languages.getDiagnostics(doc.uri);
      return d.length >= 3 ? d : undefined;
    }, 15_000);
    // Let the JSON language service finish too: it must add nothing (the file is schema-valid).
    await new Promise((r) => setTimeout(r, 1500));
    const final = vscode.languages.getDiagnostics(doc.uri).sort((a, b) => a.range.start.compareTo(b.range.start));
    assert.deepEqual(
      final.map((d) => ({ source: d.source, code: d.code, text: textOf(doc, d), line: d.range.start.line })),
      [
        { source: DIAGNOSTIC_SOURCE, code: 'unknown-field', text: '"winrate_30"', line: 3 },
        { source: DIAGNOSTIC_SOURCE, code: 'wrong-type', text: '"high"', line: 4 },
        { source: DIAGNOSTIC_SOURCE, code: 'between-order', text: '[500, 20]', line: 5 },
      ],
      JSON.stringify(diags.map((d) => d.message)),
    );
    assert.match(final[0]?.message ?? '', /Did you mean "winrate_30d"\?/u);
    for (const d of final) note(`${String(d.code)}: ${d.message}`);
    const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>('vscode.executeCodeActionProvider', doc.uri, final[0]?.range);
    assert.ok(actions.some((a) => a.title === 'Change to "winrate_30d"'), actions.map((a) => a.title).join(', '));
    assert.ok(actions.some((a) => a.command?.command === CommandIds.refreshQueryFields), 'Refresh Query Fields as a quick fix');
  });

  it('completes field names at a field position with the sandbox’s columns, timeframe and type in the detail', async () => {
    const doc = await write('complete.waquery.json', '{ "where": { "and": [ { "field": "win", "op": ">", "value": 1 } ] }, "limit": 1 }\n');
    const list = await vscode.commands.executeCommand<vscode.CompletionList>('vscode.executeCompletionItemProvider', doc.uri, positionOf(doc, '"win"', 4));
    const labels = new Map(list.items.map((i) => [typeof i.label === 'string' ? i.label : i.label.label, i]));
    const missing = columnInfos('main').filter((c) => !labels.has(c.name));
    assert.deepEqual(missing.map((c) => c.name), [], 'every sandbox column is offered');
    const item = labels.get('winrate_30d');
    assert.equal(item?.detail, '30d · number (ratio)');
    assert.equal(item?.insertText, '"winrate_30d"');
    note(`${labels.size} completions; winrate_30d: ${item?.detail ?? ''}`);
  });

  it('offers the snippets for a condition, an AND group, an OR group and between', async () => {
    const doc = await write('snippets.waquery.json', '{\n  "where": {\n    "and": [\n      \n    ]\n  },\n  "limit": 1\n}\n');
    const list = await vscode.commands.executeCommand<vscode.CompletionList>('vscode.executeCompletionItemProvider', doc.uri, new vscode.Position(3, 6));
    const snippets = list.items.filter((i) => i.kind === vscode.CompletionItemKind.Snippet).map((i) => (typeof i.label === 'string' ? i.label : i.label.label));
    for (const want of ['cond', 'and', 'or', 'between']) assert.ok(snippets.includes(want), `${want} in ${snippets.join(', ')}`);
  });

  it('hovers a field with its description, timeframe and value type', async () => {
    const doc = await write('hover.waquery.json', '{ "where": { "and": [ { "field": "winrate_30d", "op": ">", "value": 0.5 } ] }, "limit": 1 }\n');
    const hovers = await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', doc.uri, positionOf(doc, 'winrate_30d', 3));
    const text = hovers.flatMap((h) => h.contents.map((c) => (typeof c === 'string' ? c : c.value))).join('\n');
    const col = columnInfos('main').find((c) => c.name === 'winrate_30d');
    assert.ok(col?.description && text.includes(escapeMarkdown(col.description)), text);
    assert.match(text, /Timeframe: last 30 days/u);
    assert.match(text, /Value type: number \(ratio\)/u);
  });

  it('runs from the CodeLens: the result opens with the sandbox’s matches, and the balance drops by exactly 100 × matches', async () => {
    const doc = await write('run.waquery.json', '{\n  "where": { "and": [ { "field": "winrate_30d", "op": ">=", "value": 0.6 }, { "field": "trade_count_30d", "op": ">", "value": 20 } ] },\n  "limit": 25\n}\n');
    const lenses = await waitFor('the Run lens', async () => {
      const l = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', doc.uri);
      return l.some((x) => x.command?.title.startsWith('▶ Run')) ? l : undefined;
    });
    const titles = lenses.map((l) => l.command?.title ?? '');
    note(`lenses: ${titles.join(' | ')}`);
    assert.ok(titles.includes('▶ Run — 100 credits per matching wallet (≥ 100) · ceiling 1,000,000 credits per call'), titles.join(' | '));
    assert.ok(titles.includes('▶ Run on Second Chain'), 'every field exists on the second chain');
    const run = lenses.find((l) => l.command?.title.startsWith('▶ Run —'))?.command;
    assert.ok(run?.arguments);
    const balance = sb.balance();
    const ledger = sb.ledger().length;
    const requests = dbRequests(sb);
    // The lens's own command and arguments. The match count is unknown, so the ceiling cannot be
    // proven to hold: the run asks "just this once", and the suite clicks it as the person would.
    const asked = (await answerPrices(true)).length;
    const out = await vscode.commands.executeCommand<QueryRunResult>(run.command, run.arguments[0], { ...(run.arguments[1] as object) });
    const questions = (await answerPrices(true)).slice(asked);
    assert.deepEqual(questions.map((q) => (q.kind === 'modal' ? q.why : q.kind)), ['unbounded', 'confirm'], 'lift the ceiling for this run: the dialog, then Run chosen over Cancel');
    assert.equal(out.status, 'ran', JSON.stringify(out));
    assert.ok(out.status === 'ran' && out.outcome.status === 'done', JSON.stringify(out));
    const value = out.outcome.value as { total: number; wallets: { address: string; winrate_30d: number; trade_count_30d: number }[] };
    const file = out.outcome.resultPath ?? '';
    assert.ok(value.total > 0, 'the query matches some wallets');
    assert.equal(dbRequests(sb), requests + 1, 'one request to /wallet_database');
    assert.equal(sb.balance(), balance - 100 * value.total, `balance drops by 100 × ${value.total}`);
    assert.equal(sb.ledger().length, ledger + 1);
    assert.equal(sb.ledger().at(-1)?.credits, matchCharge(value.total));
    assert.equal(out.outcome.credits, 100 * value.total, 'the credits spent, as shown');
    const saved = JSON.parse(fs.readFileSync(file, 'utf8')) as typeof value;
    assert.equal(saved.total, value.total);
    assert.equal(saved.wallets.length, Math.min(25, value.total));
    for (const w of saved.wallets) assert.ok(w.winrate_30d >= 0.6 && w.trade_count_30d > 20, `${w.address} matches the query`);
    await waitFor('the result open in an editor', () => openTabPaths().includes(file), 10_000);
    note(`${value.total} matches, ${out.outcome.credits} credits; ${path.basename(file)} open`);
  });

  it('a second run within the hour is free: the cached answer opens, nothing is sent or charged', async () => {
    const doc = await vscode.workspace.openTextDocument(path.join(dir, 'run.waquery.json'));
    await vscode.window.showTextDocument(doc);
    const lenses = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', doc.uri);
    const titles = lenses.map((l) => l.command?.title ?? '');
    note(`lenses: ${titles.join(' | ')}`);
    const run = lenses.find((l) => l.command?.title.startsWith('▶ Run —'))?.command;
    assert.match(run?.title ?? '', /^▶ Run — last answer \(just now\) opens free$/u);
    const estimate = lenses.find((l) => l.command?.title.includes('Estimate from Last Run'))?.command;
    assert.match(estimate?.title ?? '', /Estimate from Last Run: [\d,]+ credits \([\d,]+ matches, just now\)/u);
    const balance = sb.balance();
    const ledger = sb.ledger().length;
    const requests = dbRequests(sb);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    const out = await vscode.commands.executeCommand<QueryRunResult>(run?.command ?? '', run?.arguments?.[0], run?.arguments?.[1]);
    assert.equal(out.status, 'cached', JSON.stringify(out));
    assert.ok(out.status === 'cached');
    assert.match(out.message, /Free: nothing was sent and no credits were spent/u);
    assert.equal(dbRequests(sb), requests, 'no new request to /wallet_database');
    assert.equal(sb.balance(), balance, 'no new charge');
    assert.equal(sb.ledger().length, ledger);
    await waitFor('the cached answer open', () => openTabPaths().includes(out.opened), 10_000);
    const est = await vscode.commands.executeCommand<EstimateResult>(estimate?.command ?? '', estimate?.arguments?.[0], estimate?.arguments?.[1]);
    assert.equal(est.status, 'estimated');
    assert.ok(est.status === 'estimated' && est.quote.exact, 'the estimate is exact');
    assert.equal(est.status === 'estimated' ? est.quote.credits : -1, matchCharge(out.run.total));
    note(out.message);
  });

  it('does not send a query with errors', async () => {
    const doc = await write('bad.waquery.json', '{ "where": { "and": [ { "field": "winrate_30", "op": ">", "value": 1 } ] }, "limit": 1 }\n');
    const requests = dbRequests(sb);
    const out = await vscode.commands.executeCommand<QueryRunResult>(CommandIds.runQuery, doc.uri, {});
    assert.equal(out.status, 'invalid');
    assert.equal(dbRequests(sb), requests);
  });
});
