/** The sandbox's queued family: jobs go to done, files download and parse as their kind, download faults. */
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import Papa from 'papaparse';
import yauzl from 'yauzl';
import { addressProblem } from '../../../src/core/spec/addresses';
import { ENDPOINTS, encodeRequest, endpoint, type Endpoint } from '../../../src/core/spec/catalog';
import { IDENTITY_COLUMNS, metricColumns } from '../../../src/core/spec/metrics';
import { sampleAddress, sampleInput } from '../../../src/core/spec/samples';
import { RequestList, RequestRecord, SubmitAck } from '../../../src/core/spec/wire';
import { FileStore } from '../../../src/sandbox/files';
import { startSandbox, type Sandbox } from '../../../src/sandbox/index';

const SMALL = { wallets: 2_000, altWallets: 500, delayScale: 0.001 };

async function submit(sb: Sandbox, ep: Endpoint, input: Record<string, unknown>): Promise<string> {
  const w = encodeRequest(ep, input);
  const qs = new URLSearchParams(w.query).toString();
  const r = await fetch(`${sb.baseUrl}${w.path}${qs ? `?${qs}` : ''}`, {
    method: w.method,
    headers: { api_key: sb.demoKey, ...(w.body ? { 'content-type': 'application/json' } : {}) },
    body: w.body ? JSON.stringify(w.body) : undefined,
  });
  assert.equal(r.status, 200, `${ep.id}: ${await r.clone().text()}`);
  const ack = (await r.json()) as Record<string, unknown>;
  assert.equal(ack.status, 'queued');
  assert.equal(ack.url, '');
  return SubmitAck.parse(ack).requestId;
}

async function record(sb: Sandbox, id: string): Promise<RequestRecord> {
  const r = await fetch(`${sb.baseUrl}/request/${id}`, { headers: { api_key: sb.demoKey } });
  assert.equal(r.status, 200);
  return RequestRecord.parse(await r.json());
}

async function whenDone(sb: Sandbox, id: string): Promise<RequestRecord> {
  for (let i = 0; i < 400; i++) {
    const rec = await record(sb, id);
    if (rec.url) return rec;
    assert.ok(rec.status === 'queued' || rec.status === 'running', `status ${rec.status}`);
    await new Promise((r) => setTimeout(r, 10));
  }
  throw new Error(`job ${id} never finished`);
}

async function download(url: string, headers: Record<string, string> = {}): Promise<{ res: Response; bytes: Buffer }> {
  const res = await fetch(url, { headers });
  return { res, bytes: Buffer.from(await res.arrayBuffer()) };
}

function unzip(bytes: Buffer): Promise<Map<string, string>> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(bytes, { lazyEntries: true }, (err, zip) => {
      if (err) return reject(err);
      const out = new Map<string, string>();
      zip.on('entry', (e: yauzl.Entry) => {
        zip.openReadStream(e, (err2, stream) => {
          if (err2) return reject(err2);
          const parts: Buffer[] = [];
          stream.on('data', (d: Buffer) => parts.push(d));
          stream.on('end', () => {
            out.set(e.fileName, Buffer.concat(parts).toString('utf8'));
            zip.readEntry();
          });
        });
      });
      zip.on('end', () => resolve(out));
      zip.on('error', reject);
      zip.readEntry();
    });
  });
}

function csvRows(text: string): string[][] {
  const parsed = Papa.parse<string[]>(text.trimEnd(), { skipEmptyLines: false });
  assert.deepEqual(parsed.errors, []);
  return parsed.data;
}

/** Checks a downloaded file against what its endpoint promises; answers its data rows (or lines). */
function checkFile(ep: Endpoint, input: Record<string, unknown>, res: Response, bytes: Buffer, zipped?: Map<string, string>): number {
  assert.equal(Number(res.headers.get('content-length')), bytes.length, `${ep.id}: Content-Length`);
  const text = bytes.toString('utf8');
  const type = res.headers.get('content-type') ?? '';
  if (zipped) {
    assert.equal(type, 'application/zip');
    const tokens = input.tokens as string[];
    assert.deepEqual([...zipped.keys()].sort(), tokens.map((t) => `${t}.csv`).sort(), `${ep.id}: one csv per token`);
    let rows = 0;
    for (const csv of zipped.values()) {
      const r = csvRows(csv);
      assert.ok((r[0]?.length ?? 0) > 3, `${ep.id}: a header row`);
      for (const row of r.slice(1)) assert.equal(row.length, r[0]?.length);
      rows += r.length - 1;
    }
    return rows;
  }
  if (type.startsWith('text/plain')) {
    const lines = text.split('\n').filter((l) => l !== '');
    for (const l of lines) assert.equal(addressProblem(l, ep.chain), undefined, `${ep.id}: “${l}” is an address`);
    return lines.length;
  }
  assert.ok(type.startsWith('text/csv'), `${ep.id}: ${type}`);
  const rows = csvRows(text);
  const header = rows[0] ?? [];
  if (ep.id === 'pnl' || ep.id === 'altchain_pnlplus') {
    assert.deepEqual(header, [...IDENTITY_COLUMNS, ...metricColumns(ep.chain)]);
    assert.equal(rows.length - 1, (input.wallets as string[]).length, 'one row per wallet');
  }
  assert.ok(header.length >= 3);
  for (const row of rows.slice(1)) assert.equal(row.length, header.length, `${ep.id}: ragged row`);
  return rows.length - 1;
}

describe('sandbox jobs and files', () => {
  let sb: Sandbox;
  before(async () => {
    sb = await startSandbox(SMALL);
  });
  after(() => sb.close());

  it('takes every queued endpoint from queued to done; its file downloads and parses as its kind', async () => {
    const queued = ENDPOINTS.filter((e) => e.family === 'queued');
    assert.equal(queued.length, 22);
    const inputs = queued.map((ep) => ({ ep, input: sampleInput(ep) }));
    // Both shapes of the endpoints with a choice of format.
    inputs.push({ ep: endpoint('toptraders'), input: { ...sampleInput(endpoint('toptraders')), output: 'txt' } });
    for (const id of ['migratedtokens', 'programswaps', 'lookuptableswaps']) inputs.push({ ep: endpoint(id), input: { ...sampleInput(endpoint(id)), format: 'txt' } });
    const ids = await Promise.all(inputs.map(({ ep, input }) => submit(sb, ep, input)));
    const nonEmpty: string[] = [];
    for (const [k, { ep, input }] of inputs.entries()) {
      const rec = await whenDone(sb, ids[k]!);
      assert.equal(rec.status, 'done');
      assert.equal(rec.endpoint, ep.id);
      assert.ok(rec.completedAt && rec.createdAt && rec.completedAt >= rec.createdAt);
      const { res, bytes } = await download(rec.url);
      assert.equal(res.status, 200, ep.id);
      const isZip = res.headers.get('content-type') === 'application/zip';
      const expectZip = (ep.id === 'toptraders' && input.output !== 'txt') || ep.id === 'earlybuyers' || ep.id === 'alltraders';
      assert.equal(isZip, expectZip, ep.id);
      const rows = checkFile(ep, input, res, bytes, isZip ? await unzip(bytes) : undefined);
      if (rows > 0) nonEmpty.push(ep.id);
    }
    // Sample inputs find data (the sample addresses are planted), except where a window or fragment matches nothing.
    for (const id of ['trending', 'migratedtokens', 'toptraders', 'earlybuyers', 'alltraders', 'athmcap', 'pnl', 'altchain_pnlplus', 'programstats', 'programswaps', 'firstbuysanalyze', 'dexwallets', 'botwallets', 'altchain_dexwallets']) {
      assert.ok(nonEmpty.includes(id), `${id} has data`);
    }
  });

  it('lists the caller’s requests newest first, with their files', async () => {
    const list = RequestList.parse(await (await fetch(`${sb.baseUrl}/requests`, { headers: { api_key: sb.demoKey } })).json());
    assert.ok(list.length >= 26);
    for (let i = 1; i < list.length; i++) assert.ok((list[i - 1]?.createdAt ?? '') >= (list[i]?.createdAt ?? ''));
    assert.ok(list.every((r) => r.url.startsWith(`${sb.fileBaseUrl}/files/`)));
  });

  it('produces a valid empty file when the inputs match nothing (and still charges, §7.3)', async () => {
    const unknownToken = sampleAddress('main', 999);
    const since = sb.ledger().length;
    const cases: [string, Record<string, unknown>][] = [
      ['mcap', { token: unknownToken, min_mcap_usd: 1, max_mcap_usd: 2 }],
      ['athmcap', { tokens: [unknownToken] }],
      ['findaddress', { fragment: 'zzzzzzzzzz' }],
      ['alltraders', { tokens: [unknownToken] }],
    ];
    for (const [id, input] of cases) {
      const rec = await whenDone(sb, await submit(sb, endpoint(id), input));
      const { res, bytes } = await download(rec.url);
      const zipped = res.headers.get('content-type') === 'application/zip' ? await unzip(bytes) : undefined;
      assert.equal(checkFile(endpoint(id), input, res, bytes, zipped), 0, id);
      if (id === 'findaddress') assert.equal(bytes.length, 0);
      if (id === 'mcap') assert.equal(bytes.toString().trim().split('\n').length, 1, 'the header alone');
    }
    assert.equal(sb.ledger().length - since, cases.length);
  });

  it('gives the same bytes for the same job, and serves byte ranges', async () => {
    const input = { tokens: [sampleAddress('main', 1)] };
    const a = await whenDone(sb, await submit(sb, endpoint('toptraders'), input));
    const b = await whenDone(sb, await submit(sb, endpoint('toptraders'), input));
    const fa = await download(a.url);
    const fb = await download(b.url);
    assert.ok(fa.bytes.equals(fb.bytes));
    const part = await download(a.url, { range: 'bytes=10-19' });
    assert.equal(part.res.status, 206);
    assert.equal(part.res.headers.get('content-range'), `bytes 10-19/${fa.bytes.length}`);
    assert.ok(part.bytes.equals(fa.bytes.subarray(10, 20)));
  });

  it('truncateDownloads: Content-Length announces the whole file, the body stops halfway', async () => {
    const rec = await whenDone(sb, await submit(sb, endpoint('pnl'), { wallets: sb.addresses('wallet', 50) }));
    const whole = await download(rec.url);
    sb.setFaults({ truncateDownloads: true });
    try {
      const res = await fetch(rec.url);
      assert.equal(Number(res.headers.get('content-length')), whole.bytes.length);
      let got = 0;
      await assert.rejects(async () => {
        for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) got += chunk.length;
      });
      assert.ok(got < whole.bytes.length && got >= Math.floor(whole.bytes.length / 2) - 65_536, `got ${got} of ${whole.bytes.length}`);
      assert.equal(sb.received().at(-1)?.status, 200, 'recorded with the status it was sent with');
    } finally {
      sb.setFaults({ truncateDownloads: false });
    }
  });

  it('corruptZip: a .zip downloads whole but does not open', async () => {
    const rec = await whenDone(sb, await submit(sb, endpoint('earlybuyers'), { tokens: [sampleAddress('main', 1), sampleAddress('main', 2)], buyers: 10 }));
    const good = await download(rec.url);
    assert.equal((await unzip(good.bytes)).size, 2);
    sb.setFaults({ corruptZip: true });
    try {
      const bad = await download(rec.url);
      assert.equal(bad.bytes.length, good.bytes.length);
      assert.equal(Number(bad.res.headers.get('content-length')), bad.bytes.length);
      await assert.rejects(unzip(bad.bytes));
      // Only zips: a csv is untouched.
      const csv = await whenDone(sb, await submit(sb, endpoint('programstats'), { hours: 1 }));
      const text = (await download(csv.url)).bytes.toString();
      assert.match(text, /^program,name,swaps/u);
    } finally {
      sb.setFaults({ corruptZip: false });
    }
  });

  it('jobFailRate: an accepted job ends failed with an error, and stays charged (§7.3)', async () => {
    sb.setFaults({ jobFailRate: 1 });
    try {
      const since = sb.ledger().length;
      const id = await submit(sb, endpoint('trending'), { hours: 1 });
      let rec = await record(sb, id);
      for (let i = 0; i < 200 && rec.status !== 'failed'; i++) {
        await new Promise((r) => setTimeout(r, 10));
        rec = await record(sb, id);
      }
      assert.equal(rec.status, 'failed');
      assert.equal(rec.url, '');
      assert.match(rec.error ?? '', /failed/u);
      assert.equal(sb.ledger().length - since, 1);
    } finally {
      sb.setFaults({ jobFailRate: 0 });
    }
  });

  it('holdJobs: a job past its delay stays queued, without a url, until the fault is off; then it completes', async () => {
    sb.setFaults({ holdJobs: true });
    let id: string;
    try {
      id = await submit(sb, endpoint('trending'), { hours: 1 });
      // Its delay here is 1-8 ms; ten times the longest, it is still held.
      await new Promise((r) => setTimeout(r, 80));
      const held = await record(sb, id);
      assert.equal(held.status, 'queued');
      assert.equal(held.url, '');
    } finally {
      sb.setFaults({ holdJobs: false });
    }
    const done = await whenDone(sb, id);
    assert.equal(done.status, 'done');
    assert.match(done.url, /^http:\/\/127\.0\.0\.1:\d+\/files\//u);
  });

  it('seedHistory adds past requests, done and failed, whose files download', async () => {
    const other = await startSandbox({ ...SMALL });
    try {
      other.seedHistory(30);
      const list = RequestList.parse(await (await fetch(`${other.baseUrl}/requests`, { headers: { api_key: other.demoKey } })).json());
      assert.equal(list.length, 30);
      assert.ok(list.some((r) => r.status === 'failed' && r.error && r.url === ''));
      assert.ok(new Set(list.map((r) => r.endpoint)).size >= 15);
      const done = list.find((r) => r.status === 'done' && r.endpoint === 'pnl');
      assert.ok(done);
      const { res } = await download(done.url);
      assert.equal(res.status, 200);
      assert.ok(Date.parse(list.at(-1)?.createdAt ?? '') < Date.now() - 3_600_000);
      assert.equal(other.ledger().length, 0, 'history is not charged');
    } finally {
      await other.close();
    }
  });
});

describe('sandbox jobs: disk budget', () => {
  it('deletes old result files beyond the budget and writes them again, identical, when asked', async () => {
    const sb = await startSandbox({ ...SMALL, diskBudgetBytes: 1 });
    try {
      const first = await whenDone(sb, await submit(sb, endpoint('pnl'), { wallets: sb.addresses('wallet', 20) }));
      const bytes = (await download(first.url)).bytes;
      // A second file pushes the first one out (a budget of 1 byte holds only the newest file)…
      await download((await whenDone(sb, await submit(sb, endpoint('programstats'), { hours: 3 }))).url);
      // …and asking for it again gives the same bytes.
      const again = await download(first.url);
      assert.equal(again.res.status, 200);
      assert.ok(again.bytes.equals(bytes));
    } finally {
      await sb.close();
    }
  });
});

describe('sandbox file store', () => {
  it('keeps the newest files within the budget, never one being read, and rewrites a deleted one identically', async () => {
    const store = new FileStore(1);
    const lines = (tag: string) => ({ ext: 'txt' as const, lines: [tag, tag] });
    store.register('aa', 'a', new Date(0), () => lines('first'));
    store.register('bb', 'b', new Date(0), () => lines('second'));
    try {
      const a = await store.open('aa');
      const b = await store.ensure('bb');
      assert.ok(existsSync(a.file.path), 'a file being read stays');
      a.release();
      await store.ensure('aa'); // touch a: now b is the least recently used
      store.register('cc', 'c', new Date(0), () => lines('third'));
      await store.ensure('cc');
      assert.ok(!existsSync(b.path) && !existsSync(a.file.path), 'older idle files deleted');
      const again = await store.ensure('aa');
      assert.equal(readFileSync(again.path, 'utf8'), 'first\nfirst\n');
    } finally {
      await store.close();
    }
  });

  it('removes the directories of sandboxes whose process is gone', async () => {
    // A pid far above pid_max on Linux is never alive.
    const stale = mkdtempSync(join(tmpdir(), 'wa-sandbox-99999999-'));
    writeFileSync(join(stale, 'x.txt'), 'x');
    const store = new FileStore();
    store.register('e5', 'e', new Date(0), () => ({ ext: 'txt', lines: ['e'] }));
    try {
      const file = await store.ensure('e5');
      assert.ok(!existsSync(stale));
      assert.match(basename(dirname(file.path)), new RegExp(`^wa-sandbox-${process.pid}-`, 'u'));
    } finally {
      await store.close();
    }
  });

  it('writes into one temp directory, even when files are first asked for at once, and removes it on close', async () => {
    const store = new FileStore();
    for (const id of ['a1', 'b2', 'c3', 'd4']) store.register(id, id, new Date(0), () => ({ ext: 'txt', lines: [id] }));
    const files = await Promise.all(['a1', 'b2', 'c3', 'd4'].map((id) => store.ensure(id)));
    const dirs = new Set(files.map((f) => dirname(f.path)));
    assert.equal(dirs.size, 1);
    await store.close();
    assert.ok(!existsSync([...dirs][0]!));
  });
});

describe('sandbox jobs: a separate file origin', () => {
  it('serves files from another port, downloadable without the key', async () => {
    const sb = await startSandbox({ ...SMALL, separateFileOrigin: true });
    try {
      assert.notEqual(new URL(sb.fileBaseUrl).port, new URL(sb.baseUrl).port);
      const rec = await whenDone(sb, await submit(sb, endpoint('trending'), { hours: 2 }));
      assert.ok(rec.url.startsWith(`${sb.fileBaseUrl}/files/`));
      const { res } = await download(rec.url);
      assert.equal(res.status, 200);
      const onFiles = sb.received().filter((r) => r.path.startsWith('/files/'));
      assert.equal(onFiles.length, 1);
      assert.equal(onFiles[0]?.apiKeyHeader, false);
      // The API origin does not serve files in this mode.
      assert.equal((await fetch(`${sb.baseUrl}${new URL(rec.url).pathname}`)).status, 404);
    } finally {
      await sb.close();
    }
  });
});
