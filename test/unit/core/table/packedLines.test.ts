/**
 * Lists cross from the table worker to the host as one buffer, never as an array of strings
 * (issue 34 item 4): the host spent 100–300 ms in one turn deserialising 100,000 addresses. The
 * worker's replies are checked as posted (WorkerTable in this thread), and the host's unpacking
 * for what it gives back and for giving the loop back while it cuts.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { WorkerTable } from '../../../../src/core/table/workerTable';
import { MessageChannel, type Transferable } from 'node:worker_threads';
import { packedLinesFile, packLines, postMessageTo, unpackLines } from '../../../../src/core/table/packedLines';
import { listText } from '../../../../src/core/addressLists/addressSets';
import type { WorkerMessage } from '../../../../src/core/table/workerProtocol';
import { rng, tempDir, writeTemp } from '../../tableFixtures';
import { countingTurns } from '../../loopTurns';

const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const rand = rng(34);
const ADDRESSES = Array.from({ length: 2500 }, () => Array.from({ length: 44 }, () => BASE58[Math.floor(rand() * 58)]).join(''));
const address = (i: number): string => ADDRESSES[i % ADDRESSES.length] ?? '';

let cleanup: () => Promise<void> = () => Promise.resolve();
let file = '';
before(async () => {
  const t = await tempDir();
  cleanup = t.cleanup;
  const lines = ['wallet,note'];
  for (let i = 0; i < 3000; i++) lines.push(`${address(i % 2500)},"n ${i}\nsecond line é"`);
  file = await writeTemp(t.dir, lines.join('\n') + '\n');
});
after(() => cleanup());

/** Every array of strings anywhere in a message. */
function stringArrays(v: unknown, found: string[][] = []): string[][] {
  if (Array.isArray(v)) {
    if (v.length > 0 && v.every((x) => typeof x === 'string')) found.push(v as string[]);
    else for (const x of v) stringArrays(x, found);
  } else if (typeof v === 'object' && v !== null && !ArrayBuffer.isView(v)) for (const x of Object.values(v)) stringArrays(x, found);
  return found;
}

describe('lists from the table worker (issue 34)', () => {
  it("a column's addresses and its text are posted as one buffer, not as arrays of strings", async () => {
    const posted: WorkerMessage[] = [];
    const replies = new Map<number, (m: WorkerMessage) => void>();
    const table = new WorkerTable((m) => {
      posted.push(m);
      if ('id' in m && m.type !== 'progress') replies.get(m.id)?.(m);
    });
    const ask = (body: Record<string, unknown>, id: number): Promise<WorkerMessage> =>
      new Promise((resolve) => {
        replies.set(id, resolve);
        table.receive({ ...body, id });
      });
    await ask({ type: 'open', file }, 1);
    const addresses = await ask({ type: 'addresses', column: 0, chain: 'main' }, 2);
    const text = await ask({ type: 'columnText', column: 1 }, 3);
    const parsed = await ask({ type: 'addressList', column: 0, chain: 'main' }, 5);
    await ask({ type: 'close' }, 4);
    assert.equal(addresses.type, 'reply', JSON.stringify(addresses).slice(0, 300));
    assert.deepEqual(stringArrays(parsed), [], 'a list source\'s parsed list crossed as an array of strings');
    if (parsed.type !== 'reply' || parsed.op !== 'addressList') throw new Error('wrong reply');
    assert.equal((await unpackLines(parsed.value.addresses)).length, 2500);
    assert.equal(parsed.value.duplicates, 500);
    assert.equal(text.type, 'reply');
    assert.deepEqual(stringArrays(addresses), [], 'the addresses crossed as an array of strings');
    assert.deepEqual(stringArrays(text), [], "the column's text crossed as an array of strings");
    if (addresses.type !== 'reply' || addresses.op !== 'addresses' || text.type !== 'reply' || text.op !== 'columnText') throw new Error('wrong replies');
    const list = await unpackLines(addresses.value.addresses);
    assert.equal(list.length, 2500);
    assert.equal(addresses.value.distinct, 2500);
    assert.deepEqual(list.slice(0, 3), [address(0), address(1), address(2)]);
    const cells = await unpackLines(text.value);
    assert.equal(cells.length, 3000);
    assert.equal(cells[7], 'n 7\nsecond line é', 'a cell with its own line break and a non-ASCII letter comes back whole');
  });

  it("a list's buffers are moved to the host, not copied (a copied 4 MB buffer held the host's loop 68–84 ms on receipt)", async () => {
    const { port1, port2 } = new MessageChannel();
    try {
      const table = new WorkerTable((m) => postMessageTo(port1, m));
      const sent: WorkerMessage[] = [];
      const received = new Map<number, WorkerMessage>();
      port2.on('message', (m: WorkerMessage) => {
        if ('id' in m && m.type !== 'progress') received.set(m.id, m);
      });
      const ask = async (body: Record<string, unknown>, id: number): Promise<WorkerMessage> => {
        table.receive({ ...body, id });
        while (!received.has(id)) await new Promise<void>((resolve) => port2.once('message', () => resolve()));
        return received.get(id) as WorkerMessage;
      };
      // What the worker posted, kept on its side: its buffers are detached once moved.
      const post = port1.postMessage.bind(port1);
      port1.postMessage = (m: unknown, transfer?: readonly Transferable[]): void => {
        sent.push(m as WorkerMessage);
        post(m, transfer);
      };
      await ask({ type: 'open', file }, 1);
      const addresses = await ask({ type: 'addresses', column: 0, chain: 'main' }, 2);
      const text = await ask({ type: 'columnText', column: 1 }, 3);
      await ask({ type: 'close' }, 4);
      if (addresses.type !== 'reply' || addresses.op !== 'addresses' || text.type !== 'reply' || text.op !== 'columnText') throw new Error('wrong replies');
      assert.equal((await unpackLines(addresses.value.addresses)).length, 2500);
      assert.equal((await unpackLines(text.value))[7], 'n 7\nsecond line é');
      const kept = sent.filter((m) => m.type === 'reply' && (m.op === 'addresses' || m.op === 'columnText'));
      assert.equal(kept.length, 2);
      for (const m of kept) {
        if (m.type !== 'reply' || (m.op !== 'addresses' && m.op !== 'columnText')) continue;
        const p = m.op === 'addresses' ? m.value.addresses : m.value;
        assert.deepEqual([p.bytes.byteLength, p.lengths.byteLength, p.sliceEnds.byteLength], [0, 0, 0], `${m.op}: the buffers were copied, not moved`);
      }
    } finally {
      port1.close();
    }
  });

  it('the host cuts 100,000 strings back out with its loop given back between slices', async () => {
    const strings = Array.from({ length: 100_000 }, (_, i) => (i % 10 === 0 ? '' : i % 7 === 0 ? `é${i}\n` : address(i)));
    const { value: back, turns } = await countingTurns(() => unpackLines(packLines(strings)));
    assert.deepEqual(back, strings);
    assert.ok(turns >= 5, `the loop turned ${turns} times while 100,000 strings were cut`);
  });

  it('the host decodes the buffer a slice at a time, never 100,000 strings of it in one turn', async () => {
    const strings = Array.from({ length: 100_000 }, (_, i) => (i % 10 === 0 ? '' : i % 7 === 0 ? `é${i}\n` : address(i)));
    const packed = packLines(strings);
    // What each decode call was given, counted by wrapping the decoder (4.4 MB in one call was 22–35 ms of one turn at load 10–15).
    const decode = TextDecoder.prototype.decode;
    const sizes: number[] = [];
    TextDecoder.prototype.decode = function (this: InstanceType<typeof TextDecoder>, ...args: Parameters<typeof decode>): string {
      sizes.push(args[0]?.byteLength ?? 0);
      return decode.apply(this, args);
    };
    let back: string[];
    try {
      back = await unpackLines(packed);
    } finally {
      TextDecoder.prototype.decode = decode;
    }
    assert.deepEqual(back, strings);
    assert.equal(sizes.reduce((a, b) => a + b, 0), packed.bytes.byteLength, 'every byte decoded once');
    assert.ok(Math.max(...sizes) <= packed.bytes.byteLength / 10, `${Math.max(...sizes)} of ${packed.bytes.byteLength} bytes decoded in one call`);
  });

  it("a list file's bytes come from the packed bytes as listText's text, whatever the strings hold", async () => {
    // Addresses (ASCII slices) and then text cells: empty, accented, a surrogate pair, a lone surrogate (sent as U+FFFD), across slices.
    const odd = ['', 'é', 'a😀b', '\ud800x', 'plain', '€€€', ''];
    const strings = [...Array.from({ length: 9000 }, (_, i) => address(i)), ...Array.from({ length: 9000 }, (_, i) => `${odd[i % odd.length] ?? ''}${i % 3 === 0 ? address(i) : ''}`)];
    const want = new TextEncoder().encode(listText(strings));
    const got = await packedLinesFile(packLines(strings));
    assert.equal(Buffer.compare(Buffer.from(got), Buffer.from(want)), 0);
    assert.equal((await packedLinesFile(packLines([]))).byteLength, 0);
  });

  it('a list file is written without a typed array a line: 20,000 lines make a few views of the bytes, not 20,000 (issue 34 item 4: young garbage collected inside the take step)', async () => {
    const packed = packLines(Array.from({ length: 20_000 }, (_, i) => address(i)));
    const subarray = Uint8Array.prototype.subarray;
    let views = 0;
    Uint8Array.prototype.subarray = function (this: Uint8Array, ...args: Parameters<typeof subarray>) {
      views++;
      return subarray.apply(this, args);
    };
    let got: Uint8Array;
    try {
      got = await packedLinesFile(packed);
    } finally {
      Uint8Array.prototype.subarray = subarray;
    }
    assert.equal(got.byteLength, packed.bytes.byteLength + 20_000);
    assert.ok(views <= 2 * packed.sliceEnds.length + 1, `${views} views of the bytes for ${packed.sliceEnds.length} slices`);
  });
});
