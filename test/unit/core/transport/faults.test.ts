/**
 * The client against the sandbox with faults injected: 5xx, dropped connections, rate
 * limits, slow acknowledgements, truncated downloads, corrupt zips, and the refusals of
 * §5 and §7. Every GET recovers or fails with its typed error; no submit is duplicated,
 * which the sandbox's own records prove (received() counts requests, ledger() charges).
 */
import assert from 'node:assert/strict';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, afterEach, before, describe, it } from 'node:test';
import { Agent } from 'undici';
import { WalletAnalyticsApi, type ApiOptions, type CallLog } from '../../../../src/core/transport/api';
import { downloadFrom } from '../../../../src/core/results/download';
import { endpoint } from '../../../../src/core/spec/catalog';
import {
  AckTimeoutError,
  BadInputError,
  DownloadError,
  InsufficientCreditsError,
  IpMismatchError,
  KeyRefusedError,
  NotFoundError,
  UnzipError,
  WalletApiError,
} from '../../../../src/core/errors';
import { sampleInput } from '../../../../src/core/spec/samples';
import { extractZip } from '../../../../src/core/results/unzip';
import { NO_FAULTS } from '../../../../src/sandbox/faults';
import { startSandbox, type Sandbox, type SandboxOptions } from '../../../../src/sandbox';

const OPTS: SandboxOptions = { seed: 11, wallets: 2_000, altWallets: 500, delayScale: 0.001, separateFileOrigin: true };
const RETRY = { attempts: 8, baseDelayMs: 2, maxDelayMs: 20 };

let sb: Sandbox;
let dir: string;
const extra: Sandbox[] = [];
const agents: Agent[] = [];

before(async () => {
  sb = await startSandbox(OPTS);
  dir = await mkdtemp(join(tmpdir(), 'wa-faults-'));
});
afterEach(() => sb.setFaults(NO_FAULTS));
after(async () => {
  await Promise.all([sb, ...extra].map((s) => s.close()));
  await Promise.all(agents.map((a) => a.close()));
  await rm(dir, { recursive: true, force: true });
});

function client(s: Sandbox = sb, more: Partial<ApiOptions> = {}): WalletAnalyticsApi {
  return new WalletAnalyticsApi({ baseUrl: s.baseUrl, apiKey: () => Promise.resolve(s.demoKey), retry: RETRY, ...more });
}

async function outcome<T>(p: Promise<T>): Promise<{ ok: T } | { err: WalletApiError }> {
  try {
    return { ok: await p };
  } catch (e) {
    assert.ok(e instanceof WalletApiError, `an untyped error escaped: ${String(e)}`);
    return { err: e };
  }
}

async function done(api: WalletAnalyticsApi, requestId: string): Promise<string> {
  for (let i = 0; i < 1000; i++) {
    const rec = await api.request(requestId);
    if (rec.url) return rec.url;
    await new Promise((r) => setTimeout(r, 5));
  }
  assert.fail(`job ${requestId} never finished`);
}

const pnl = sampleInput(endpoint('pnl'));
const trending = sampleInput(endpoint('trending'));

describe('faults: GETs recover or fail typed', () => {
  it('free GETs ride out injected 5xx and drops', async () => {
    const api = client();
    const { requestId } = await api.submit('trending', trending);
    const logs: CallLog[] = [];
    const noisy = client(sb, { onLog: (l) => logs.push(l) });
    sb.setFaults({ errorRate: 0.3, dropRate: 0.2 });
    let ok = 0;
    const calls = [() => noisy.credits(), () => noisy.requests(), () => noisy.columns('main'), () => noisy.columns('alt'), () => noisy.request(requestId)];
    for (let round = 0; round < 8; round++) {
      for (const call of calls) {
        const r = await outcome<unknown>(call());
        if ('ok' in r) ok++;
        else assert.ok(['server', 'network'].includes(r.err.kind), r.err.message);
      }
    }
    assert.ok(logs.some((l) => l.willRetry), 'some attempts failed and were retried');
    assert.ok(ok >= 36, `${ok} of 40 recovered`);
  });

  it('a rate limit is honoured: GETs wait out Retry-After and succeed', async () => {
    const api = client();
    sb.setFaults({ rateLimit: 3 });
    const results = await Promise.all(Array.from({ length: 6 }, () => api.credits()));
    assert.ok(results.every((n) => typeof n === 'number'));
    assert.ok(sb.received().some((r) => r.status === 429), 'the limit was hit');
  });
});

describe('faults: no submit is duplicated', () => {
  it('under 5xx and drops, each submit reaches the server once and is charged at most once', async () => {
    const api = client();
    const fromReceived = sb.received().length;
    const fromLedger = sb.ledger().length;
    sb.setFaults({ errorRate: 0.25, dropRate: 0.25 });
    const acks: string[] = [];
    const failures: WalletApiError[] = [];
    const SUBMITS = 24;
    for (let i = 0; i < SUBMITS; i++) {
      const r = await outcome(i % 2 === 0 ? api.submit('pnl', pnl) : api.submit('trending', trending));
      if ('ok' in r) acks.push(r.ok.requestId);
      else failures.push(r.err);
    }
    sb.setFaults(NO_FAULTS);
    const received = sb.received().slice(fromReceived).filter((r) => r.path === '/pnl' || r.path === '/trending');
    assert.equal(received.length, SUBMITS, 'the server saw exactly one request per submit: nothing was retried');
    assert.ok(failures.length > 0 && acks.length > 0, `faults bit (${failures.length} failed, ${acks.length} accepted)`);
    for (const e of failures) {
      assert.ok(e.kind === 'server' || e.kind === 'network', e.message);
      assert.equal(e.charged, 'unknown', 'a 5xx or a drop after sending cannot prove it was not charged');
    }
    const charges = sb.ledger().slice(fromLedger);
    assert.deepEqual(charges.map((c) => c.requestId).sort(), [...acks].sort(), 'one charge per accepted submit, none for refused ones');
  });

  it('a 429 proves refusal: the paid submit is retried after Retry-After and charged once', async () => {
    const api = client();
    const fromLedger = sb.ledger().length;
    const fromReceived = sb.received().length;
    sb.setFaults({ rateLimit: 2 });
    const acks = await Promise.all(Array.from({ length: 4 }, () => api.submit('trending', trending)));
    const sent = sb.received().slice(fromReceived).filter((r) => r.path === '/trending');
    assert.ok(sent.some((r) => r.status === 429), 'some submits were refused with 429');
    assert.equal(sent.filter((r) => r.status === 200).length, 4);
    assert.equal(sb.ledger().length - fromLedger, 4, 'four submits, four charges');
    assert.equal(new Set(acks.map((a) => a.requestId)).size, 4);
  });

  it('a slow acknowledgement past the server’s limit is refused (504): not queued, not charged', async () => {
    const slow = await startSandbox({ ...OPTS, ackTimeoutMs: 150 });
    extra.push(slow);
    slow.setFaults({ slowAckMs: 300 });
    const e = await outcome(client(slow).submit('pnl', pnl));
    assert.ok('err' in e && e.err instanceof AckTimeoutError, JSON.stringify(e));
    assert.match(e.err.message, /not queued, not charged/u);
    assert.equal(slow.ledger().length, 0);
  });

  it('the client’s own ack timeout gives up; it cannot know the outcome, so it says charged unknown', async () => {
    const before = sb.ledger().length;
    sb.setFaults({ slowAckMs: 400 });
    const e = await outcome(client(sb, { ackTimeoutMs: 150 }).submit('pnl', pnl));
    assert.ok('err' in e && !(e.err instanceof AckTimeoutError), 'only the server’s 504 is an AckTimeoutError');
    assert.equal(e.err.charged, 'unknown');
    assert.match(e.err.message, /may have been charged/u);
    // The server's slow acknowledgement runs to its end (no sleep past its 400 ms: wait for it).
    await sb.settled();
    assert.equal(sb.ledger().length, before, 'this time the server gave up too (the socket was gone)');
  });

  it('charged, then the answer came after the client’s timer: the client never says “not charged”', async () => {
    const before = sb.ledger().length;
    sb.setFaults({ answerDelayAfterChargeMs: 400 });
    const e = await outcome(client(sb, { ackTimeoutMs: 150 }).submit('pnl', pnl));
    assert.ok('err' in e, 'the client gave up');
    assert.equal(sb.ledger().length, before + 1, 'the server accepted and charged it');
    assert.equal(e.err.charged, 'unknown');
    assert.doesNotMatch(e.err.message, /not charged|Nothing was charged/u);
  });

  it('charged, then the connection dropped: charged unknown, for a submit and for a direct paid call', async () => {
    const before = sb.ledger().length;
    sb.setFaults({ dropAfterChargeRate: 1 });
    const api = client();
    const sub = await outcome(api.submit('trending', trending));
    const direct = await outcome(api.altPnl(sb.addresses('altWallet', 1)[0] ?? ''));
    sb.setFaults(NO_FAULTS);
    const charges = sb.ledger().slice(before);
    assert.deepEqual(charges.map((c) => c.endpoint), ['trending', 'altchain_pnl'], 'both were charged');
    for (const r of [sub, direct]) {
      assert.ok('err' in r && r.err.kind === 'network', JSON.stringify(r));
      assert.equal(r.err.charged, 'unknown');
      assert.match(r.err.message, /may have been charged/u);
    }
    assert.ok('err' in direct && /may charge again/u.test(direct.err.message), 'a direct call has no history to check');
    const id = charges[0]?.requestId ?? '';
    assert.ok((await api.requests()).some((r) => r.requestId === id), 'the charged job exists and can be followed');
  });
});

describe('faults: downloads', () => {
  it('a truncated download fails typed and leaves nothing; downloading again succeeds for free', async () => {
    const api = client();
    const url = await done(api, (await api.submit('mcap', sampleInput(endpoint('mcap')))).requestId);
    const target = join(dir, 'truncated');
    const charges = sb.ledger().length;
    sb.setFaults({ truncateDownloads: true });
    const e = await outcome(downloadFrom(api, url, target));
    assert.ok('err' in e && e.err instanceof DownloadError && e.err.problem === 'truncated', JSON.stringify(e));
    assert.deepEqual(await readdir(target), []);
    sb.setFaults({ truncateDownloads: false });
    const file = await downloadFrom(api, url, target);
    assert.deepEqual(await readdir(target), [file.path.slice(target.length + 1)]);
    assert.equal(sb.ledger().length, charges, 'downloads cost nothing');
  });

  it('a corrupt zip is refused on extraction, leaving only the archive', async () => {
    const api = client();
    const url = await done(api, (await api.submit('earlybuyers', sampleInput(endpoint('earlybuyers')))).requestId);
    const target = join(dir, 'corrupt');
    sb.setFaults({ corruptZip: true });
    const file = await downloadFrom(api, url, target);
    const e = await outcome(extractZip(file.path));
    assert.ok('err' in e && e.err instanceof UnzipError && e.err.problem === 'corrupt', JSON.stringify(e));
    assert.deepEqual(await readdir(target), [file.path.slice(target.length + 1)]);
  });
});

describe('faults: the sandbox’s refusals map to typed errors and charge nothing', () => {
  it('a wrong key → KeyRefusedError', async () => {
    const api = new WalletAnalyticsApi({ baseUrl: sb.baseUrl, apiKey: () => Promise.resolve('not-a-real-key') });
    const e = await outcome(api.submit('trending', trending));
    assert.ok('err' in e && e.err instanceof KeyRefusedError);
    assert.match(e.err.message, /Set API Key/u);
  });

  it('another IP → IpMismatchError with the Reset IP hint; resetting (free) lets it through', async () => {
    const home = client();
    await home.credits(); // binds the key to 127.0.0.1
    // undici 7 honours the Client option `localAddress`, not `connect.localAddress`.
    const agent = new Agent({ localAddress: '127.0.0.2' });
    agents.push(agent);
    const away = client(sb, { dispatcher: agent });
    const before = sb.balance();
    const e = await outcome(away.submit('trending', trending));
    assert.ok('err' in e && e.err instanceof IpMismatchError, JSON.stringify(e));
    assert.match(e.err.message, /Reset Saved IP Address/u);
    assert.match(e.err.message, /Nothing was charged\./u);
    assert.equal(sb.balance(), before);
    await away.resetIp();
    assert.equal(typeof (await away.credits()), 'number');
    await home.resetIp(); // give the key back to 127.0.0.1 for the other tests
    await home.credits();
  });

  it('an unknown request id → NotFoundError', async () => {
    const e = await outcome(client().request('req_does_not_exist'));
    assert.ok('err' in e && e.err instanceof NotFoundError);
  });

  it('input the server refuses → BadInputError with the server’s message', async () => {
    const e = await outcome(client().http.send({ method: 'GET', path: '/trending', query: { hours: '99' }, paid: true }));
    assert.ok('err' in e && e.err instanceof BadInputError && e.err.source === 'server');
    assert.match(e.err.message, /Hours/u);
    assert.match(e.err.message, /Nothing was charged\./u);
  });

  it('too few credits → InsufficientCreditsError with the balance; nothing charged', async () => {
    const poor = await startSandbox({ ...OPTS, startBalance: 100 });
    extra.push(poor);
    const e = await outcome(client(poor).submit('mcaptokens', sampleInput(endpoint('mcaptokens'))));
    assert.ok('err' in e && e.err instanceof InsufficientCreditsError);
    assert.match(e.err.message, /costs 500 and the balance is 100/u);
    assert.equal(poor.balance(), 100);
    assert.equal(poor.ledger().length, 0);
  });
});
