/**
 * The contract: the client walks EVERY catalog endpoint against the sandbox, with the sample
 * input of src/core/spec/samples.ts. Queued: submit, poll until `url`, download (files come from a
 * second origin, so without the key), and parse the file as its kind. Direct: the JSON passes
 * the wire.ts schema. Account: they work and are free. After every call, the balance from
 * GET /credits went down by exactly the price: the quote, or for per-match and per-returned
 * rules the price computed from the answer.
 */
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import Papa from 'papaparse';
import { addressProblem } from '../../../../src/core/spec/addresses';
import { WalletAnalyticsApi, type CallLog } from '../../../../src/core/transport/api';
import { downloadFrom } from '../../../../src/core/results/download';
import { ENDPOINTS, type Endpoint, type Family } from '../../../../src/core/spec/catalog';
import { matchCharge, quote } from '../../../../src/core/money/pricing';
import { sampleInput } from '../../../../src/core/spec/samples';
import { extractZip } from '../../../../src/core/results/unzip';
import { CreatorsPage, WalletDatabaseResult } from '../../../../src/core/spec/wire';
import { startSandbox, type Sandbox } from '../../../../src/sandbox';

let sb: Sandbox;
let api: WalletAnalyticsApi;
let dir: string;
const logs: CallLog[] = [];
const requestIds: string[] = [];
const walked: Record<Family, Set<string>> = { queued: new Set(), direct: new Set(), account: new Set() };
let calls = 0;
let filesChecked = 0;
let filesWithData = 0;

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'wa-contract-'));
  sb = await startSandbox({ seed: 7, wallets: 2_000, altWallets: 500, delayScale: 0.001, separateFileOrigin: true });
  api = new WalletAnalyticsApi({ baseUrl: sb.baseUrl, apiKey: () => Promise.resolve(sb.demoKey), onLog: (l) => logs.push(l) });
});

after(async () => {
  const count = (f: Family) => `${f} ${walked[f].size}`;
  console.log(`contract: ${ENDPOINTS.length} endpoints walked (${count('queued')}, ${count('direct')}, ${count('account')}), ${calls} calls, ${filesChecked} files parsed (${filesWithData} with rows)`);
  await sb.close();
  await rm(dir, { recursive: true, force: true });
});

/** A valid input for ep; the creator record needs a creator the sandbox knows. */
function inputFor(ep: Endpoint): Record<string, unknown> {
  const input = sampleInput(ep);
  if (ep.id === 'token_creator') input.address = sb.addresses('creator', 1)[0];
  if (ep.id === 'request') input.requestId = requestIds.at(-1);
  return input;
}

/** The other values of the format/output switches, so each file kind an endpoint returns is seen. */
function variants(ep: Endpoint): Record<string, unknown>[] {
  const base = inputFor(ep);
  const out = [base];
  for (const f of ep.fields) {
    if (f.kind !== 'enum' || (f.key !== 'format' && f.key !== 'output')) continue;
    for (const o of f.options ?? []) if (o !== base[f.key]) out.push({ ...base, [f.key]: o });
  }
  return out;
}

/** Calls fn and checks the balance went down by exactly price(answer). */
async function charged<T>(fn: () => Promise<T>, price: (answer: T) => number): Promise<T> {
  const before = await api.credits();
  const answer = await fn();
  const after = await api.credits();
  calls++;
  assert.equal(before - after, price(answer), `balance went from ${before} to ${after}`);
  return answer;
}

async function pollUntilDone(requestId: string): Promise<string> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const rec = await api.request(requestId);
    if (rec.url !== '') return rec.url;
    assert.notEqual(rec.status, 'failed', `job ${requestId} failed: ${rec.error ?? ''}`);
    assert.ok(Date.now() < deadline, `job ${requestId} not done in 10 s`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** Checks a CSV parses with a header; answers its row count. */
function checkCsv(text: string, what: string): number {
  const parsed = Papa.parse<Record<string, string>>(text, { header: true, skipEmptyLines: true });
  assert.deepEqual(parsed.errors, [], `${what}: CSV parse errors`);
  assert.ok((parsed.meta.fields ?? []).length >= 1, `${what}: no header`);
  return parsed.data.length;
}

/** Checks every line of a .txt is an address of the endpoint's chain; answers the line count. */
function checkTxt(text: string, ep: Endpoint, what: string): number {
  const lines = text.split(/\r?\n/u).filter((l) => l !== '');
  for (const l of lines) assert.equal(addressProblem(l.trim(), ep.chain), undefined, `${what}: “${l}” is not an address line`);
  return lines.length;
}

async function checkFile(ep: Endpoint, url: string): Promise<string> {
  assert.ok(url.startsWith(sb.fileBaseUrl), `${ep.id}: the file is served from the file origin`);
  const file = await downloadFrom(api, url, join(dir, ep.id));
  assert.ok(ep.results.includes(file.kind), `${ep.id}: got .${file.kind}, the catalog says ${ep.results.join('/')}`);
  const what = `${ep.id} (.${file.kind})`;
  let rows = 0;
  if (file.kind === 'csv') rows = checkCsv(await readFile(file.path, 'utf8'), what);
  else if (file.kind === 'txt') rows = checkTxt(await readFile(file.path, 'utf8'), ep, what);
  else if (file.kind === 'zip') {
    const out = await extractZip(file.path);
    assert.ok(out.files.length >= 1, `${what}: empty archive`);
    for (const f of out.files) {
      assert.match(f, /\.csv$/u, `${what}: entry ${f} is not a .csv`);
      rows += checkCsv(await readFile(join(out.dir, f), 'utf8'), `${what} ${f}`);
    }
  } else assert.fail(`${what}: a queued endpoint returned JSON`);
  // An accepted job may find nothing and still costs its price (§7.3): an empty result is a valid file.
  filesChecked++;
  if (rows > 0) filesWithData++;
  return file.kind;
}

/** What a direct call should have cost, computed from its answer (not from the client's own pricing code path). */
function priceOf(ep: Endpoint, input: Record<string, unknown>, value: unknown): number {
  switch (ep.price.kind) {
    case 'perMatch':
      return matchCharge(WalletDatabaseResult.parse(value).total, ep.price.credits, ep.price.minimum);
    case 'perReturned':
      return CreatorsPage.parse(value).creators.length * ep.price.credits;
    default:
      return quote(ep, input).credits;
  }
}

const byFamily = (f: Family) => ENDPOINTS.filter((e) => e.family === f);

describe('contract: every catalog endpoint against the sandbox', () => {
  for (const ep of byFamily('queued')) {
    it(`queued ${ep.method} ${ep.path}: submit, poll, download, parse; charged exactly the quote`, async () => {
      const kinds = new Set<string>();
      for (const input of variants(ep)) {
        const ack = await charged(
          () => api.submit(ep.id, input),
          () => quote(ep, input).credits,
        );
        requestIds.push(ack.requestId);
        kinds.add(await checkFile(ep, await pollUntilDone(ack.requestId)));
      }
      walked.queued.add(ep.id);
      if (ep.results.length > 1 && variants(ep).length > 1) assert.deepEqual([...kinds].sort(), [...ep.results].sort());
    });
  }

  for (const ep of byFamily('direct')) {
    it(`direct ${ep.method} ${ep.path}: the answer passes its schema; charged exactly its price`, async () => {
      const input = inputFor(ep);
      const r = await charged(
        () => api.call(ep.id, input),
        (res) => priceOf(ep, input, res.value),
      );
      assert.equal(r.charged, priceOf(ep, input, r.value), 'the client computes the same charge');
      walked.direct.add(ep.id);
    });
  }

  it('direct: activity pages follow the cursor, 1 credit per page', async () => {
    const wallet = sb.addresses('wallet', 1)[0] ?? '';
    const first = await charged(
      () => api.activityPage('main', wallet),
      () => 1,
    );
    if (first.nextCursor) {
      const next = await charged(
        () => api.activityPage('main', wallet, first.nextCursor ?? undefined),
        () => 1,
      );
      assert.ok(Array.isArray(next.swaps));
    }
  });

  for (const ep of byFamily('account')) {
    it(`account ${ep.method} ${ep.path}: works and is free`, async () => {
      const r = await charged(
        () => api.call(ep.id, inputFor(ep)),
        () => 0,
      );
      if (ep.id === 'credits') assert.equal(r.value, sb.balance());
      if (ep.id === 'requests') {
        const ids = new Set((r.value as { requestId: string }[]).map((x) => x.requestId));
        for (const id of requestIds) assert.ok(ids.has(id), `${id} in the history`);
      }
      if (ep.id === 'request') assert.notEqual((r.value as { url: string }).url, '');
      walked.account.add(ep.id);
    });
  }

  it('every endpoint was walked', () => {
    const all = new Set([...walked.queued, ...walked.direct, ...walked.account]);
    assert.deepEqual([...all].sort(), ENDPOINTS.map((e) => e.id).sort());
  });

  it('the ledger agrees with the balance, and files were fetched without the key', () => {
    const spent = sb.ledger().reduce((n, e) => n + e.credits, 0);
    assert.equal(sb.balance(), 1_000_000_000 - spent);
    const files = sb.received().filter((r) => r.path.startsWith('/files/'));
    assert.ok(files.length >= byFamily('queued').length);
    assert.ok(files.every((r) => !r.apiKeyHeader), 'no result file request carried the key');
    assert.ok(
      sb.received().filter((r) => !r.path.startsWith('/files/')).every((r) => r.apiKeyHeader),
      'every API request carried the key',
    );
  });

  it('the log hook saw every call, with what it cost', () => {
    assert.ok(logs.length >= calls);
    const paid = logs.filter((l) => (l.charged ?? 0) > 0);
    const spent = sb.ledger().reduce((n, e) => n + e.credits, 0);
    assert.equal(
      paid.reduce((n, l) => n + (l.charged ?? 0), 0),
      spent,
      'credits charged per the log equal the ledger',
    );
  });
});
