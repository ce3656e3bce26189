/**
 * "Use as input" and the list sources (issue 22 item 6, issue 23 item 2): a result is read one way,
 * in a table worker (core/results/readResult.ts), never as one string on the host; and the picker's
 * endpoints are ranked by what the column holds (core/addressLists/inputTargets.ts), each priced for the list.
 */
import assert from 'node:assert/strict';
import { mkdir, writeFile } from 'node:fs/promises';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { threadId } from 'node:worker_threads';
import { addressRole, pickAddressColumn, pickAddressColumnOf, sampleColumnChain, SAMPLE_ROWS } from '../../../../src/core/table/columnKind';
import { resolveReferenceList } from '../../../../src/core/pipeline/resolve';
import { RemoteTable } from '../../../../src/core/table/remoteTable';
import { listFields, rankTargets, rankTargetsWarm, resultRole, type ListOffer } from '../../../../src/core/addressLists/inputTargets';
import { parseAddressList } from '../../../../src/core/spec/listParse';
import { readResultLists, SAMPLE_CELLS, withResultReader } from '../../../../src/core/results/readResult';
import { sampleAddress } from '../../../../src/core/spec/samples';
import { firstAddresses, isCheckedFor } from '../../../../src/core/spec/addresses';
import { validateInput } from '../../../../src/core/spec/catalog';
import { tempDir, writeTemp } from '../../tableFixtures';
import { countingTurns } from '../../loopTurns';

let root = __dirname;
while (!statSync(join(root, 'package.json'), { throwIfNoEntry: false })?.isFile()) root = dirname(root);
const workerFile = join(root, 'dist', 'tableWorker.js');

const W = [1, 2, 3, 4].map((i) => sampleAddress('main', i));
const T = [11, 12].map((i) => sampleAddress('main', i));

let dir = '';
let cleanup: () => Promise<void> = () => Promise.resolve();
before(async () => ({ dir, cleanup } = await tempDir()));
after(() => cleanup());

const offer = (column: string, addresses: readonly string[], role = addressRole(column)): ListOffer => ({ column, chain: 'main', role, addresses, distinct: addresses.length });

describe('use as input: what a column holds', () => {
  it('names say wallets, tokens or creators; a bare address column follows the result that holds it', () => {
    for (const n of ['wallet', 'address', 'owner', 'trader', 'Wallet_Address', 'holder']) assert.equal(addressRole(n), 'wallet', n);
    for (const n of ['token', 'mint', 'token_address', 'token_in']) assert.equal(addressRole(n), 'token', n);
    assert.equal(addressRole('creator'), 'creator');
    assert.equal(addressRole('address', resultRole('trending')), 'token', 'a Trending Tokens list is tokens');
    assert.equal(addressRole('address', resultRole('dexwallets')), 'wallet');
    assert.equal(addressRole('wallet', resultRole('trending')), 'wallet', 'a column’s own name wins over the hint');
    assert.equal(addressRole('program'), undefined);
  });
});

describe('use as input: the right next step first', () => {
  it('a wallet column is offered PnL first, never a token endpoint first; the token endpoints come after, marked', () => {
    for (const name of ['wallet', 'address', 'owner', 'trader']) {
      const { targets } = rankTargets([offer(name, W)]);
      assert.equal(targets[0]?.ep.id, 'pnl', `${name}: ${targets.map((t) => t.ep.id).join()}`);
      assert.equal(targets[0]?.fits, true);
      const firstToken = targets.findIndex((t) => t.wants === 'tokens');
      assert.ok(firstToken > 0, 'token endpoints are listed after');
      assert.ok(targets.slice(firstToken).every((t) => t.fits === false), 'and marked as taking another kind');
    }
  });

  it('a token column is offered the token endpoints first and PnL last', () => {
    const { targets } = rankTargets([offer('token', T)]);
    assert.deepEqual(
      targets.map((t) => t.ep.id),
      ['athmcap', 'toptraders', 'earlybuyers', 'alltraders', 'pnl'],
    );
    assert.equal(targets.at(-1)?.fits, false);
  });

  it('each choice carries the kind it takes and its price for this very list', () => {
    const { targets } = rankTargets([offer('wallet', W)]);
    const pnl = targets.find((t) => t.ep.id === 'pnl');
    assert.equal(pnl?.wants, 'wallets');
    assert.equal(pnl?.price.text, '20 credits (4 wallets × 5)');
    const ath = targets.find((t) => t.ep.id === 'athmcap');
    assert.equal(ath?.price.text, '400 credits (4 tokens × 100)');
  });

  it('a result with a token and a wallet column gives each endpoint the column it takes', () => {
    const { targets } = rankTargets([offer('token', T), offer('wallet', W)]);
    assert.ok(targets.every((t) => t.fits === true));
    assert.deepEqual(targets.find((t) => t.ep.id === 'pnl')?.offer.column, 'wallet');
    assert.deepEqual(targets.find((t) => t.ep.id === 'toptraders')?.offer.column, 'token');
  });

  it('the picker ranks with its checks built a piece a turn (zod\'s first builds were ~40 ms of one turn: issue 34 item 4), and ranks the same', async () => {
    const { value: warm, turns } = await countingTurns(() => rankTargetsWarm([offer('token', T), offer('wallet', W)]));
    // One turn for each field of every endpoint with a list field, and one for its check.
    const pieces = [...new Set(listFields().map((t) => t.ep))].reduce((n, ep) => n + ep.fields.length + 1, 0);
    assert.ok(turns >= pieces, `the loop turned ${turns} times while ${pieces} pieces were built`);
    const same = rankTargets([offer('token', T), offer('wallet', W)]);
    const seen = (r: typeof same): string[] => r.targets.map((t) => `${t.ep.id} ${t.offer.column} ${t.count} ${t.price.text}`);
    assert.deepEqual(seen(warm), seen(same));
    assert.deepEqual(warm.refused, same.refused);
  });

  it('a list longer than a field takes is cut to its most, and says so', () => {
    const many = Array.from({ length: 1_005 }, (_, i) => sampleAddress('main', 100 + i));
    const ath = rankTargets([offer('token', many)]).targets.find((t) => t.ep.id === 'athmcap');
    assert.equal(ath?.count, 1_000);
    assert.equal(ath?.cut, true);
    assert.match(ath?.price.text ?? '', /^100,000 credits \(1,000 tokens × 100\)/u);
  });
});

describe('one way to read a result: in a table worker', () => {
  it('reads a result’s address columns, each with its distinct addresses, off this thread', async () => {
    const rows = Array.from({ length: 300 }, (_, i) => `${T[i % 2] ?? ''},${W[i % 4] ?? ''},"note, ${i}",${i}`);
    const file = await writeTemp(dir, `token,wallet,note,pnl\n${rows.join('\n')}\nbad,not-an-address,x,1\n`);
    const threads: number[] = [];
    const lists = await readResultLists(file, { workerFile, onThread: (t) => threads.push(t) });
    assert.deepEqual(
      lists.map((l) => [l.column, l.role, l.addresses, l.distinct, l.skipped]),
      [
        ['token', 'token', T, 2, 1],
        ['wallet', 'wallet', W, 4, 1],
      ],
    );
    assert.equal(threads.length, 1);
    assert.ok(threads.every((t) => t !== threadId), `read on thread ${threads.join()}, not this one (${threadId})`);
  });

  it('sends back at most the limit, with the whole count; merges a result folder’s files once each', async () => {
    const folder = join(dir, 'zip-result');
    await mkdir(folder);
    await writeFile(join(folder, 'a.csv'), `wallet,pnl\n${W[0]},1\n${W[1]},2\n`);
    await writeFile(join(folder, 'b.csv'), `wallet,pnl\n${W[1]},1\n${W[2]},2\n`);
    const [merged] = await readResultLists(folder, { workerFile });
    assert.deepEqual(merged?.addresses, W.slice(0, 3));
    assert.equal(merged?.distinct, 3);
    const file = await writeTemp(dir, `${W.join('\n')}\n`, '.txt');
    const [cut] = await readResultLists(file, { workerFile, limit: 2, hint: resultRole('trending') });
    assert.deepEqual(cut?.addresses, W.slice(0, 2));
    assert.equal(cut?.distinct, 4);
    assert.equal(cut?.role, 'token', 'a bare list takes the hint of the result it came from');
  });

  it('the price step takes the list it read as it is: the endpoint\'s input check does not go over its addresses again (issue 34 item 4)', async () => {
    const file = await writeTemp(dir, `wallet,pnl\n${W.map((w, i) => `${w},${i}`).join('\n')}\n`);
    const [list] = await readResultLists(file, { workerFile });
    assert.ok(list && Object.isFrozen(list.addresses), 'the list read is frozen: what was checked is what is sent');
    const target = rankTargets([{ ...list, role: 'wallet' }]).targets.find((t) => t.ep.id === 'pnl');
    assert.ok(target);
    // As inputPicker.ts targetInputs cuts it. A string slipped in after the reader would be refused by
    // a check; the list is frozen, so none can be: the check that is skipped cannot be needed.
    const raw = { wallets: firstAddresses(target.offer.addresses, target.count) };
    let trims = 0;
    const trim = String.prototype.trim;
    String.prototype.trim = function counted(this: string): string {
      trims++;
      return trim.call(this);
    };
    try {
      const v = validateInput(target.ep, raw);
      assert.ok(v.ok);
      assert.deepEqual(v.input.wallets, W);
    } finally {
      String.prototype.trim = trim;
    }
    assert.equal(trims, 0, 'no address of the list was gone over at the price step');
  });

  it('the list source reads a column through the same worker (header, preview, then the cells)', async () => {
    const file = await writeTemp(dir, `name,owner\nbob,${W[0]}\nann,${W[1]}\n`);
    const got = await withResultReader(file, async (r) => ({ columns: r.columns, first: r.firstRow, cells: await r.columnText(1) }), { workerFile });
    assert.deepEqual(got, { columns: ['name', 'owner'], first: ['bob', W[0]], cells: [W[0], W[1]] });
  });

  it('a list source\'s column is parsed in the worker (its cells never cross): the same list as parsing its cells here, checked for the price step (issue 34 item 4)', async () => {
    const cells = [W[0], ` ${W[1]} `, 'not-an-address', W[0], '', `"${W[2]}", ${W[3]}`, '0xdeadbeef', W[1]];
    const file = await writeTemp(dir, `name,owner\n${cells.map((c, i) => `n${i},"${(c ?? '').replace(/"/gu, '""')}"`).join('\n')}\n`);
    const threads: number[] = [];
    const got = await withResultReader(file, (r) => r.addressList(1, 'main'), { workerFile, onThread: (t) => threads.push(t) });
    const here = parseAddressList(cells.map((c) => c ?? ''), 'main');
    assert.deepEqual(got.valid, here.valid);
    assert.deepEqual(got.valid, W);
    assert.equal(got.duplicates, here.duplicates);
    assert.deepEqual(got.invalid.map((b) => [b.line, b.value, b.reason]), here.invalid.map((b) => [b.line, b.value, b.reason]));
    assert.deepEqual(got.invalid.map((b) => b.line), [3, 7]);
    assert.ok(threads.length === 1 && threads[0] !== threadId, 'parsed on the worker\'s thread, not this one');
    assert.ok(Object.isFrozen(got.valid) && isCheckedFor(got.valid, 'main'), 'the price step takes the parsed list as it is');
    const v = validateInput(rankTargets([offer('wallet', got.valid)]).targets[0]?.ep ?? assert.fail('no target'), { wallets: got.valid });
    assert.ok(v.ok);
    assert.equal(v.input.wallets, got.valid, 'taken as it is, not copied and checked again');
  });

  it('a wide result\'s address columns are found in the worker: use as input, a list source and a take step bring none of its first rows\' 32,000 cells here (issue 34 item 4)', async () => {
    const width = 640;
    const header = ['rank', 'wallet', ...Array.from({ length: width - 3 }, (_, i) => `metric_${i}`), 'token'].join(',');
    const lines = Array.from({ length: 60 }, (_, r) => [String(r), sampleAddress('main', r), ...Array.from({ length: width - 3 }, (_, i) => String(r * i)), sampleAddress('main', 500 + (r % 7))].join(','));
    const wide = await writeTemp(dir, [header, ...lines].join('\n') + '\n');
    const window = RemoteTable.prototype.window;
    let cells = 0;
    RemoteTable.prototype.window = async function (this: RemoteTable, ...args: Parameters<typeof window>) {
      const w = await window.apply(this, args);
      cells += w.cells.reduce((n, row) => n + row.length, 0);
      return w;
    };
    try {
      const lists = await readResultLists(wide, { workerFile });
      assert.deepEqual(lists.map((l) => [l.column, l.distinct]), [['wallet', 60], ['token', 7]]);
      const source = await withResultReader(wide, async (r) => ({ column: r.addressColumn()?.column, first: r.firstRow.slice(0, 2), list: await r.addressList(r.addressColumn()?.column ?? 0, 'main') }), { workerFile });
      assert.deepEqual([source.column, source.first, source.list.valid.length], [1, ['0', sampleAddress('main', 0)], 60]);
      const take = await resolveReferenceList({ from: 'top' }, wide, { workerFile });
      assert.deepEqual([take.column, take.count], ['wallet', 60]);
      assert.equal(cells, 0, `${cells} cells of the first rows crossed to this thread`);
    } finally {
      RemoteTable.prototype.window = window;
    }
    // The worker's judgement is the one classifier's on the same rows.
    const both = await withResultReader(wide, (r) => Promise.resolve({ chains: r.chains, sample: r.sample }), { workerFile, sample: true });
    assert.deepEqual(both.chains, header.split(',').map((name, i) => sampleColumnChain(both.sample, i, name) ?? null));
    assert.deepEqual(pickAddressColumnOf(header.split(','), both.chains), pickAddressColumn(header.split(','), both.sample));
  });

  it('a wide result\'s first rows, when a reader asks for them (a notebook cell\'s result), cross in windows of at most SAMPLE_CELLS cells: 640 columns × 50 rows were 32,000 cells in one message (issue 34 item 4)', async () => {
    const width = 640;
    const header = ['wallet', ...Array.from({ length: width - 1 }, (_, i) => `metric_${i}`)].join(',');
    const lines = Array.from({ length: 60 }, (_, r) => [sampleAddress('main', r), ...Array.from({ length: width - 1 }, (_, i) => String(r * i))].join(','));
    const wide = await writeTemp(dir, [header, ...lines].join('\n') + '\n');
    // Every window this thread receives, counted in cells.
    const window = RemoteTable.prototype.window;
    const cells: number[] = [];
    RemoteTable.prototype.window = async function (this: RemoteTable, ...args: Parameters<typeof window>) {
      const w = await window.apply(this, args);
      cells.push(w.cells.reduce((n, row) => n + row.length, 0));
      return w;
    };
    let sample: readonly (readonly string[])[];
    try {
      sample = await withResultReader(wide, (r) => Promise.resolve(r.sample), { workerFile, sample: true });
    } finally {
      RemoteTable.prototype.window = window;
    }
    assert.equal(sample.length, SAMPLE_ROWS);
    assert.deepEqual(sample[7]?.slice(0, 3), [sampleAddress('main', 7), '0', '7'], 'the rows put back together, every column in place');
    assert.equal(sample[49]?.[width - 1], String(49 * (width - 2)));
    assert.equal(cells.reduce((a, b) => a + b, 0), SAMPLE_ROWS * width, 'every cell of the sample read once');
    assert.ok(Math.max(...cells) <= SAMPLE_CELLS, `${Math.max(...cells)} cells in one message`);
  });

  it('no feature reads a result on the host: no papaparse and no whole-file read outside the table engine', () => {
    const files = (d: string): string[] => readdirSync(d).flatMap((n) => (statSync(join(d, n)).isDirectory() ? files(join(d, n)) : n.endsWith('.ts') ? [join(d, n)] : []));
    const src = [...files(join(root, 'src', 'core')), ...files(join(root, 'src', 'vscode'))].map((f) => relative(root, f));
    // Files that read small files of their own whole: not results' rows.
    const small = new Map([
      ['src/core/files/fileLock.ts', 'a lock file'],
      ['src/core/jobs/inputFiles.ts', 'a job’s or recent input’s long list, our own JSON kept out of the window’s state (read back for a re-run, Copy as Code or a sidecar, as the state was read before)'],
      ['src/core/query/diskJson.ts', 'the query cache'],
      ['src/core/table/compare/compareFile.ts', 'a comparison file: two paths'],
      ['src/core/results/meta.ts', 'a result’s sidecar'],
      ['src/core/results/pagedResult.ts', 'a direct answer’s JSON pages'],
      ['src/vscode/flows/queryInput.ts', 'a .waquery.json'],
      ['src/vscode/base/workspaceSettings.ts', 'settings.json'],
      ['src/vscode/results/open.ts', 'Open as Text: VS Code’s text editor needs the text (refused above 50 MB)'],
      ['src/vscode/table/tableActions.ts', 'the person’s address lists'],
      ['src/core/addressLists/addressSets.ts', 'the person’s address list it appends to (appendToList)'],
      ['src/core/pipeline/run.ts', 'a pipeline cell’s record (a small JSON: where its result is, its size and charge)'],
      ['src/core/watch/store.ts', 'the watches (a small JSON shared by the windows)'],
      ['src/vscode/watch/targets.ts', 'a watched .waquery.json or .wapipe.json, read afresh at each run'],
      ['src/core/agents/freeTools.ts', 'a .wapipe.json an agent asks the price of (refused above 5 MB)'],
      ['src/vscode/agents/pipelineTool.ts', 'a .wapipe.json inside the workspace an agent asks to run (refused above 5 MB before it is read)'],
    ]);
    for (const f of src) {
      if (f.startsWith('src/core/table/')) continue;
      const text = readFileSync(join(root, f), 'utf8');
      assert.doesNotMatch(text, /from 'papaparse'/u, `${f} parses CSV itself: read it through core/results/readResult.ts`);
      if (!small.has(f)) assert.doesNotMatch(text, /\breadFile(?:Sync)?\(/u, `${f} reads a file whole: read a result through core/results/readResult.ts`);
    }
  });
});
