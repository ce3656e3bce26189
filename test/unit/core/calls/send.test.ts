/**
 * The one send every host shares (src/core/calls/send.ts) and its unattended flow
 * (src/core/calls/unattended.ts), against the in-process sandbox, whose ledger is the proof: a
 * submit whose answer is lost after the charge is found in the history and followed (one charge);
 * with a history that holds only requestId and url it stays "may have been charged", is
 * remembered, and the next unattended run of the same call sends nothing; a paid call outside an
 * approval sends nothing.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, beforeEach, describe, it } from 'node:test';
import { WalletAnalyticsApi } from '../../../../src/core/transport/api';
import { endpoint, validateInput } from '../../../../src/core/spec/catalog';
import { AmbiguousCalls } from '../../../../src/core/money/ambiguousCalls';
import { Storage } from '../../../../src/core/storage';
import { sendCall, type CallHost } from '../../../../src/core/calls/send';
import { reconcileInHistory } from '../../../../src/core/calls/reconcile';
import { runUnattended, type UnattendedHost } from '../../../../src/core/calls/unattended';
import { NO_FAULTS } from '../../../../src/sandbox/faults';
import { startSandbox, type Sandbox } from '../../../../src/sandbox';

/** A key-value store in memory, standing in for globalState (or the runner's state file). */
function memoryStorage(): Storage {
  const m = new Map<string, unknown>();
  const kv = { get: <T>(k: string) => m.get(k) as T | undefined, update: (k: string, v: unknown) => (m.set(k, v), Promise.resolve()) };
  return new Storage({ globalState: kv, workspaceState: kv });
}

describe('the shared send against the sandbox ledger', () => {
  let sb: Sandbox;
  let api: WalletAnalyticsApi;
  let dir: string;
  let ambiguous: AmbiguousCalls;
  const recorded: number[] = [];
  // The client's acknowledgement window is 3 s, not 250 ms: at a load of 20 a submit took longer than
  // 250 ms to reach the sandbox, the client gave up first and nothing was charged ("charged once" 0 ≠ 1).
  // The drop-after-charge cases wait out the window once each.
  before(async () => {
    sb = await startSandbox({ seed: 32, wallets: 500, altWallets: 50, delayScale: 0.001, ackTimeoutMs: 150 });
    api = new WalletAnalyticsApi({ baseUrl: sb.baseUrl, apiKey: () => Promise.resolve(sb.demoKey), ackTimeoutMs: 3_000, retry: { attempts: 2, baseDelayMs: 2, maxDelayMs: 5 } });
    dir = mkdtempSync(join(tmpdir(), 'wa-calls-'));
  });
  after(async () => {
    await sb.close();
    rmSync(dir, { recursive: true, force: true });
  });
  beforeEach(() => {
    sb.setFaults(NO_FAULTS);
    ambiguous = new AmbiguousCalls(memoryStorage());
    recorded.length = 0;
  });

  const host = (): UnattendedHost => ({
    api, scope: sb.baseUrl, profileId: 'default', baseUrl: sb.baseUrl, ambiguous,
    record: (_id, credits) => (recorded.push(credits), Promise.resolve()),
    reconcile: (ep, input, sentAt) => reconcileInHistory(api, { endpointId: ep.id, input, sentAt, known: () => false }, { maxWaitMs: 150, intervalMs: 40, ackWindowMs: 200 }),
    maxCreditsPerCall: 1_000_000, balance: () => Promise.resolve(undefined), budgets: () => [],
    hold: () => Promise.resolve({ id: 'h' }), release: () => Promise.resolve(), folder: () => dir,
  });
  const ep = endpoint('toptraders');
  const input = (token: string): Record<string, unknown> => {
    const v = validateInput(ep, { tokens: [token], output: 'txt' });
    assert.ok(v.ok);
    return v.input;
  };
  const charges = (since: number): number => sb.ledger().slice(since).reduce((s, e) => s + e.credits, 0);

  it('a submit whose answer is lost after the charge is found in the history and followed: one charge, recorded once', async () => {
    sb.setFaults({ dropAfterChargeRate: 1 });
    const since = sb.ledger().length;
    const token = sb.addresses('token', 3)[0] ?? '';
    const sent = await sendCall(ep, input(token), host() as CallHost);
    assert.equal(sent.kind, 'queued', JSON.stringify(sent));
    assert.ok(sent.kind === 'queued' && sent.reconciled);
    assert.equal(sb.ledger().length - since, 1);
    assert.equal(sent.job.requestId, sb.ledger().at(-1)?.requestId);
    assert.deepEqual(recorded, [charges(since)]);
    assert.equal(await ambiguous.lastAt(sb.baseUrl, ep.id, input(token)), undefined);
  });

  it('with a history of only requestId and url: "may have been charged", remembered, and an unattended run of the same call sends nothing', async () => {
    sb.setFaults({ dropAfterChargeRate: 1, minimalHistory: true });
    const since = sb.ledger().length;
    const token = sb.addresses('token', 3)[1] ?? '';
    const sent = await sendCall(ep, input(token), host() as CallHost);
    assert.equal(sent.kind, 'failed');
    assert.ok(sent.kind === 'failed' && sent.charged === 'unknown' && sent.reconciled?.kind === 'unknown', JSON.stringify(sent));
    assert.equal(sb.ledger().length - since, 1, 'charged once');
    assert.notEqual(await ambiguous.lastAt(sb.baseUrl, ep.id, input(token)), undefined);
    sb.setFaults(NO_FAULTS);
    const heard = sb.received().length;
    const again = await runUnattended(ep, input(token), undefined, host());
    assert.equal(again.kind, 'refused');
    assert.match(again.kind === 'refused' ? again.message : '', /may already have been charged/u);
    assert.equal(sb.ledger().length - since, 1, 'never a second charge');
    assert.ok(sb.received().slice(heard).every((r) => r.method === 'GET'), 'nothing paid was sent');
  });

  it('a paid call with no approval is refused by the unattended flow before anything is sent', async () => {
    const since = sb.ledger().length;
    const out = await runUnattended(ep, input(sb.addresses('token', 3)[2] ?? ''), undefined, host());
    assert.equal(out.kind, 'refused');
    assert.equal(sb.ledger().length, since);
  });
});
