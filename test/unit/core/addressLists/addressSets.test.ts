/**
 * Address sets (src/core/addressLists/addressSets.ts): each operation on two and on three or more results,
 * duplicates, base58 case, empty inputs, counts equal to the lists, reading a result's address
 * column through the table engine, and the list file's text.
 */
import assert from 'node:assert/strict';
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { threadId } from 'node:worker_threads';
import { AddressSetCache, addressSetOf, appendToList, checkChains, combine, countOf, listAddress, listFileName, listText, readAddressSet, readInThread, readInWorker, type AddressColumnReader, type SetOperation } from '../../../../src/core/addressLists/addressSets';
import { parseAddressList } from '../../../../src/core/addressLists/listText';
import { rng, tempDir, writeTemp } from '../../tableFixtures';

let dir = '';
let cleanup: () => Promise<void> = () => Promise.resolve();
before(async () => ({ dir, cleanup } = await tempDir()));
after(() => cleanup());

const addr = (tag: string): string => (tag + '1'.repeat(44)).slice(0, 44);
const [A, a, B, C, D] = ['A', 'a', 'B', 'C', 'D'].map(addr) as [string, string, string, string, string];
const set = (...list: string[]) => addressSetOf('f', 'address', 'main', list);
const OPS: readonly SetOperation[] = ['intersect', 'union', 'subtract'];

describe('address sets: operations', () => {
  it('intersects, joins and subtracts two sets, in first-seen order', () => {
    const x = set(A, B, C);
    const y = set(D, C, A);
    assert.deepEqual(combine('intersect', [x, y]), [A, C]);
    assert.deepEqual(combine('union', [x, y]), [A, B, C, D]);
    assert.deepEqual(combine('subtract', [x, y]), [B]);
    assert.deepEqual(combine('subtract', [y, x]), [D]);
  });

  it('takes three or more sets: in all, in any, in the first and none of the others', () => {
    const x = set(A, B, C, D);
    const y = set(B, C, D);
    const z = set(D, C, a);
    assert.deepEqual(combine('intersect', [x, y, z]), [C, D]);
    assert.deepEqual(combine('union', [x, y, z]), [A, B, C, D, a]);
    assert.deepEqual(combine('subtract', [x, y, z]), [A]);
    assert.deepEqual(combine('subtract', [x, set(B), set(A)]), [C, D]);
    // The same result twice: nothing is only in it.
    assert.equal(countOf('subtract', [x, x]), 0);
    assert.equal(countOf('intersect', [x, x, y]), 3);
    assert.equal(countOf('union', [x, x]), 4);
  });

  it('drops duplicates and keeps base58 case apart (A… and a… are two wallets)', () => {
    const x = set(A, A, ' ' + A + ' ', a, '', 'not an address', '0x' + '1'.repeat(40));
    assert.deepEqual(x.addresses, [A, a]);
    assert.equal(x.skipped, 2);
    assert.deepEqual(combine('intersect', [x, set(a)]), [a]);
    assert.deepEqual(combine('subtract', [x, set(a)]), [A]);
  });

  it('lower-cases second-chain addresses, so case does not split them', () => {
    const evm = '0x' + 'Ab'.repeat(20);
    const s = addressSetOf('f', 'address', 'alt', [evm, evm.toLowerCase()]);
    assert.deepEqual(s.addresses, [evm.toLowerCase()]);
  });

  it('handles empty inputs', () => {
    const none = set();
    for (const op of OPS) {
      assert.deepEqual(combine(op, []), []);
      assert.equal(countOf(op, []), 0);
    }
    assert.deepEqual(combine('intersect', [set(A), none]), []);
    assert.deepEqual(combine('union', [none, set(A)]), [A]);
    assert.deepEqual(combine('subtract', [set(A), none]), [A]);
    assert.deepEqual(combine('subtract', [none, set(A)]), []);
    assert.equal(listText([]), '');
  });

  it('counts exactly what combine lists, for random sets of 2 to 5 results', () => {
    const rand = rng(15);
    const pool = Array.from({ length: 300 }, (_, i) => addr(`W${i}`));
    for (let round = 0; round < 60; round++) {
      const n = 2 + Math.floor(rand() * 4);
      const sets = Array.from({ length: n }, () => set(...pool.filter(() => rand() < 0.4)));
      for (const op of OPS) assert.equal(countOf(op, sets), combine(op, sets).length, `${op} of ${n}`);
    }
  });

  it('refuses to mix chains', () => {
    const alt = addressSetOf('b.csv', 'address', 'alt', ['0x' + '1'.repeat(40)]);
    assert.match(checkChains([{ ...set(A), file: 'a.csv' }, alt]) ?? '', /two chains .*a\.csv.*b\.csv/u);
    assert.equal(checkChains([set(A), set(B)]), undefined);
  });

  it('writes a list every list endpoint reads: one address per line', () => {
    const text = listText([A, B]);
    assert.equal(text, `${A}\n${B}\n`);
    assert.deepEqual(parseAddressList(text, 'main').valid, [A, B]);
    assert.equal(listFileName('subtract', ['/r/pnl-1.csv', '/r/top.txt']), 'subtract pnl-1 - top.txt');
  });
});

describe('address sets: reading results', () => {
  it('reads the address column of a CSV (the wallet one) and a .txt list, once per file', async () => {
    const mint = 'M'.repeat(44);
    const csvFile = await writeTemp(dir, `token,trader,pnl\n${mint},${A},1\n${mint},${B},2\n${mint},${A},3\n`);
    const txt = await writeTemp(dir, `address\n${B}\n${C}\n`, '.txt');
    const fromCsv = await readAddressSet(csvFile);
    assert.equal(fromCsv.column, 'trader');
    assert.deepEqual(fromCsv.addresses, [A, B]);
    let reads = 0;
    const cache = new AddressSetCache((f) => {
      reads++;
      return readAddressSet(f);
    });
    const [x, y] = await Promise.all([cache.get(csvFile), cache.get(txt)]);
    await cache.get(csvFile);
    assert.equal(reads, 2);
    assert.deepEqual(combine('intersect', [x, y]), [B]);
  });

  it('the window reads a result in a table worker, with the same set as in this thread (the host never indexes it)', async () => {
    let root = __dirname;
    while (!statSync(join(root, 'package.json'), { throwIfNoEntry: false })?.isFile()) root = dirname(root);
    const mint = 'M'.repeat(44);
    const rows = Array.from({ length: 2_000 }, (_, i) => `${mint},${[A, B, C][i % 3] ?? A},"note, ${i}",${i}`);
    const csvFile = await writeTemp(dir, `token,trader,note,pnl\n${rows.join('\n')}\n`);
    // The worker's reader is the one the window uses (src/vscode/analysis/addressSetsCommand.ts).
    const threads: number[] = [];
    const inWorker: AddressColumnReader = readInWorker(join(root, 'dist', 'tableWorker.js'), (t) => threads.push(t));
    const a = await readAddressSet(csvFile, undefined, inWorker);
    const b = await readAddressSet(csvFile, undefined, readInThread);
    assert.equal(a.column, 'trader');
    assert.deepEqual(a.addresses, b.addresses);
    assert.deepEqual(a.addresses, [A, B, C]);
    assert.equal(threads.length, 1);
    assert.ok(threads.every((t) => t !== threadId), `read on thread ${threads.join()}, not this one (${threadId})`);
    await assert.rejects(readAddressSet(await writeTemp(dir, 'name,v\nbob,1\n'), undefined, inWorker), /has no address column/u);
  });

  it('says when a result has no address column', async () => {
    const file = await writeTemp(dir, 'name,v\nbob,1\n');
    await assert.rejects(readAddressSet(file), /has no address column/u);
  });
});

describe('"Add to an Address List" appends addresses only (issue 21)', () => {
  const MAIN = '7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU';
  const MAIN2 = '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM';
  const ALT = '0xABCDEFabcdefABCDEFabcdefABCDEFabcdefABCD';

  it('skips every value that is not an address of either chain, a line break included, and says which', async () => {
    const { dir, cleanup } = await tempDir();
    try {
      const file = join(dir, 'mine.txt');
      writeFileSync(file, `${MAIN}\n`);
      const forged = `${MAIN2}\n../../etc/passwd`;
      const r = await appendToList(file, [MAIN, ` ${MAIN2} `, forged, 'hello', '', ALT, ALT.toLowerCase(), 'So1\u2028x']);
      assert.deepEqual(r.added, [MAIN2, ALT.toLowerCase()]);
      assert.deepEqual(r.skipped, [forged, 'hello', '', 'So1\u2028x']);
      assert.equal(r.already, 2);
      assert.equal(r.total, 3);
      assert.equal(readFileSync(file, 'utf8'), `${MAIN}\n${MAIN2}\n${ALT.toLowerCase()}\n`);
      const again = await appendToList(file, ['not one', MAIN]);
      assert.deepEqual([again.added, again.skipped, again.already], [[], ['not one'], 1]);
      assert.equal(readFileSync(file, 'utf8'), `${MAIN}\n${MAIN2}\n${ALT.toLowerCase()}\n`, 'nothing written');
    } finally {
      await cleanup();
    }
  });

  it('listAddress reads an address of either chain, and nothing else', () => {
    assert.equal(listAddress(` ${MAIN}\t`), MAIN);
    assert.equal(listAddress(ALT), ALT.toLowerCase());
    for (const v of ['', 'x', `${MAIN}\n`.repeat(2), `${MAIN}0`, '0x123', `${MAIN} ${MAIN2}`]) assert.equal(listAddress(v), undefined, JSON.stringify(v));
  });
});
