/**
 * A long list carried packed on the host (spec/packedList.ts, issue 34 item 4): the money path's
 * every step (the input check, the price, the request body, the unsettled call's id, a recent
 * input's id, the job's list file) gives the same bytes for the packed list as for its array, and
 * a list source's or "use as input"'s long list reaches all of them packed, with no string per item.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, describe, it } from 'node:test';
import { isPackedList, packChecked, PACK_MIN_ITEMS, PackedList } from '../../../../src/core/spec/packedList';
import { jsonTextSliced } from '../../../../src/core/spec/jsonText';
import { encodeRequest, findEndpoint, validateInput, type Endpoint } from '../../../../src/core/spec/catalog';
import { addressListField } from '../../../../src/core/spec/fields';
import { validateInputSliced } from '../../../../src/core/spec/listCheck';
import { firstAddresses, type Chain } from '../../../../src/core/spec/addresses';
import { quote } from '../../../../src/core/money/pricing';
import { AmbiguousCalls } from '../../../../src/core/money/ambiguousCalls';
import { InputFiles } from '../../../../src/core/jobs/inputFiles';
import { GlobalStatePersistence } from '../../../../src/core/jobs/persistence';
import { JobStore } from '../../../../src/core/jobs/store';
import { inputSummary } from '../../../../src/core/history/format';
import { summariseInputs } from '../../../../src/core/jobs/job';
import { sameInputs } from '../../../../src/core/jobs/reconcile';
import { Storage, storageOn, StorageKeys } from '../../../../src/core/storage';
import { readResultLists, withResultReader } from '../../../../src/core/results/readResult';
import { listFields, rankTargets, resultRole } from '../../../../src/core/addressLists/inputTargets';
import { rng } from '../../tableFixtures';

let root = __dirname;
while (!statSync(join(root, 'package.json'), { throwIfNoEntry: false })?.isFile()) root = dirname(root);
const workerFile = join(root, 'dist', 'tableWorker.js');
const BASE = 'http://127.0.0.1:1';

/** Scratch folders, removed after. */
const folders: string[] = [];
const folder = (): string => folders[folders.push(mkdtempSync(join(tmpdir(), 'wa-packed-'))) - 1] ?? '';
after(() => folders.forEach((f) => rmSync(f, { recursive: true, force: true })));

/** globalState as the extension host keeps it: each update stored as a JSON copy. */
function memento(): { get<T>(key: string): T | undefined; update(key: string, value: unknown): Promise<void> } {
  const values = new Map<string, unknown>();
  return {
    get: <T>(key: string) => values.get(key) as T | undefined,
    update: (key, value) => Promise.resolve(void values.set(key, value === undefined ? undefined : JSON.parse(JSON.stringify(value)))),
  };
}

const B58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const HEX = '0123456789abcdef';

/** `n` distinct, normalised addresses of the chain (base58 of 32–44 characters; 0x + 40 lower-case hex). */
function addresses(rand: () => number, n: number, chain: Chain): string[] {
  const out = new Set<string>();
  while (out.size < n) {
    if (chain === 'alt') out.add(`0x${Array.from({ length: 40 }, () => HEX[Math.floor(rand() * 16)]).join('')}`);
    else out.add(Array.from({ length: 32 + Math.floor(rand() * 13) }, () => B58[Math.floor(rand() * 58)]).join(''));
  }
  return [...out];
}

const packedOf = (list: readonly string[], chain: Chain): PackedList => packChecked(list.join('\n'), list.length, chain);
const endpoint = (id: string): Endpoint => findEndpoint(id) ?? assert.fail(`no endpoint ${id}`);

/** The unsettled call's id AmbiguousCalls stores for these inputs. */
async function ambiguousId(input: Record<string, unknown>): Promise<string> {
  const m = memento();
  await new AmbiguousCalls(storageOn(m), () => 1_000).remember(BASE, 'pnl', input);
  const saved = m.get<{ id: string }[]>(StorageKeys.ambiguousCalls.key) ?? [];
  return saved[0]?.id ?? assert.fail('nothing remembered');
}

/** The list files InputFiles writes for these inputs: names and contents, and the record's kept form. */
async function listFiles(input: Record<string, unknown>): Promise<{ files: [string, string][]; kept: unknown }> {
  const dir = folder();
  const files = new InputFiles(dir);
  await files.write(input);
  // A list of up to KEEP_INLINE_ITEMS stays in the record: no file.
  const names = existsSync(join(dir, 'inputs')) ? readdirSync(join(dir, 'inputs')).sort() : [];
  return { files: names.map((n) => [n, readFileSync(join(dir, 'inputs', n), 'utf8')]), kept: JSON.parse(JSON.stringify(files.keptNow(input))) };
}

/** The ids a window's recent inputs are kept by: one input remembered as an array, then packed, is one entry. */
async function recentCount(inputs: Record<string, unknown>[]): Promise<number> {
  const m = memento();
  const storage = new Storage({ globalState: m, workspaceState: m }, new InputFiles(folder()));
  for (const [i, input] of inputs.entries()) await storage.rememberInput('pnl', input, 1_000 + i);
  return (await storage.recentInputs('pnl')).length;
}

describe('a packed list and its array: the same bytes on the money path', () => {
  it('for random lists: the same JSON, body, price, check, unsettled-call id, recent input, list file name and content, first items', async () => {
    const rand = rng(34_4);
    const sizes = [1, 2, 3, 101, 8_191, 8_192, 8_193, 16_385, ...Array.from({ length: 6 }, () => 1 + Math.floor(rand() * 20_000))];
    const pnl = endpoint('pnl');
    for (const [i, n] of sizes.entries()) {
      const chain: Chain = i % 3 === 2 ? 'alt' : 'main';
      const list = addresses(rand, n, chain);
      const packed = packedOf(list, chain);
      const what = `${n} ${chain}`;
      assert.equal(packed.length, n);
      assert.equal(JSON.stringify(packed), JSON.stringify(list), `${what}: toJSON`);
      assert.deepEqual(packed.toArray(), list, `${what}: toArray`);
      const cut = Math.floor(rand() * (n + 2));
      assert.deepEqual(packed.first(cut).toArray(), list.slice(0, cut), `${what}: first ${cut}`);
      assert.equal(packed.first(cut).length, Math.min(cut, n));
      const from = Math.floor(rand() * n);
      assert.deepEqual(packed.items(from, from + 5), list.slice(from, from + 5), `${what}: items from ${from}`);
      const body = { wallets: list, other: 'x', n: 3 };
      assert.equal(await jsonTextSliced({ ...body, wallets: packed }), JSON.stringify(body), `${what}: body text`);
      assert.equal(await ambiguousId({ wallets: packed, b: 1 }), await ambiguousId({ b: 1, wallets: list }), `${what}: unsettled call's id`);
      const a = await listFiles({ wallets: list });
      const p = await listFiles({ wallets: packed });
      assert.deepEqual(p, a, `${what}: the list file and the record's kept form`);
      assert.equal(await recentCount([{ wallets: list }, { wallets: packed }]), 1, `${what}: one recent input`);
      assert.equal(summariseInputs({ wallets: packed }), summariseInputs({ wallets: list }));
      assert.equal(inputSummary({ wallets: packed }), inputSummary({ wallets: list }));
      if (chain === 'main' && n <= 100_000) {
        const vp = validateInput(pnl, { wallets: packed });
        const va = validateInput(pnl, { wallets: list });
        assert.ok(vp.ok && va.ok, what);
        assert.equal(vp.input.wallets, packed, `${what}: the packed list passes as it is`);
        assert.deepEqual(quote(pnl, vp.input), quote(pnl, va.input), `${what}: price`);
        assert.equal(await jsonTextSliced(encodeRequest(pnl, vp.input).body as Record<string, unknown>), await jsonTextSliced(encodeRequest(pnl, va.input).body as Record<string, unknown>), `${what}: request body`);
        assert.ok(sameInputs(packed, { count: n, first: list.slice(0, 3) }) && sameInputs(packed, list) && !sameInputs(packed, { count: n + 1, first: list.slice(0, 3) }), `${what}: reconcile`);
      }
    }
  });

  it('a packed list is checked by count against the field’s least and most, with the field’s own words; another chain’s is refused', () => {
    const rand = rng(7);
    const field = addressListField({ key: 'wallets', label: 'Wallets', description: '', chain: 'main', min: 5, max: 8, what: 'wallets' });
    const said = (v: unknown): string => {
      const r = field.schema.safeParse(v);
      return r.success ? 'ok' : r.error.issues.map((x) => x.message).join(' | ');
    };
    for (const n of [0, 3, 5, 8, 9]) {
      const list = addresses(rand, n, 'main');
      assert.equal(said(packedOf(list, 'main')), said(list), `${n} items`);
    }
    assert.notEqual(said(packedOf(addresses(rand, 6, 'alt'), 'alt')), 'ok', 'a second-chain packed list is not a main-chain field’s');
  });
});

describe('a list source and "use as input" carry a long list packed through the money path', () => {
  it('a list whose items are never made strings whole goes from the result through check, price, body, id and job save', async (t) => {
    const rand = rng(5);
    const n = 6_000;
    const list = addresses(rand, n, 'main');
    const dir = folder();
    const file = join(dir, 'wallets.csv');
    // Each address twice (a duplicate) and a bad cell: the worker's parse drops them, as before.
    const { writeFile } = await import('node:fs/promises');
    await writeFile(file, `wallet,pnl\n${list.map((a, i) => `${a},${i}`).join('\n')}\n${list[0] ?? ''},1\nnot-an-address,2\n`);
    const expectBody = JSON.stringify({ wallets: list });

    const parsed = await withResultReader(file, (r) => r.addressList(0, 'main'), { workerFile });
    const offers = await readResultLists(file, { workerFile, limit: Math.max(...listFields().map((f) => f.field.max ?? 0)), hint: resultRole('pnl') });
    // From here on, nothing may make the whole list strings: the path reads it packed.
    t.mock.method(PackedList.prototype, 'toArray', () => assert.fail('toArray called on the money path'));
    assert.ok(n > PACK_MIN_ITEMS && isPackedList(parsed.valid), 'the list source’s valid list is packed');
    assert.deepEqual([parsed.valid.length, parsed.duplicates, parsed.invalid.map((b) => b.value)], [n, 1, ['not-an-address']]);

    const target = rankTargets(offers).targets.find((x) => x.ep.id === 'pnl') ?? assert.fail('no pnl target');
    // As inputPicker.ts targetInputs cuts it.
    const used = firstAddresses(target.offer.addresses, target.count);
    assert.ok(isPackedList(used), '"use as input"’s list is packed');

    const pnl = endpoint('pnl');
    for (const wallets of [parsed.valid, used]) {
      const v = await validateInputSliced(pnl, { wallets });
      assert.ok(v.ok);
      assert.equal(v.input.wallets, wallets, 'checked as it is');
      assert.deepEqual(quote(pnl, v.input), quote(pnl, { wallets: list }), 'the price');
      assert.equal(await jsonTextSliced(encodeRequest(pnl, v.input).body as Record<string, unknown>), expectBody, 'the body sent');
      const m = memento();
      await new AmbiguousCalls(storageOn(m), () => 1_000).remember(BASE, 'pnl', v.input);
      assert.equal(m.get<{ id: string }[]>(StorageKeys.ambiguousCalls.key)?.length, 1);
      const jobsDir = folder();
      const state = memento();
      const jobs = new JobStore(new GlobalStatePersistence(storageOn(state), new InputFiles(jobsDir)));
      await jobs.put({ requestId: 'r1', endpointId: 'pnl', inputs: v.input, cost: 5 * n, baseUrl: BASE, profileId: 'default', submittedAt: '2026-11-29T03:00:00.000Z', state: 'pending' });
      const names = readdirSync(join(jobsDir, 'inputs'));
      assert.equal(names.length, 1);
      assert.equal(readFileSync(join(jobsDir, 'inputs', names[0] ?? ''), 'utf8'), expectBody.slice('{"wallets":'.length, -1), 'the job’s list file');
      const saved = state.get<{ inputs: { wallets: { count: number; first: string[] } } }[]>(StorageKeys.jobs.key) ?? [];
      assert.deepEqual([saved[0]?.inputs.wallets.count, saved[0]?.inputs.wallets.first], [n, list.slice(0, 3)], 'the record keeps the count and first three');
    }
  });
});
