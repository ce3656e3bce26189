/**
 * Ambiguous submits, end to end against the sandbox: across every fault (a drop before
 * anything, a drop after the charge, an answer after the client's timer, 5xx, a slow ack
 * past the server's window with either side giving up first, a rate limit, and all mixed),
 * the procedure a person follows (submit; when the outcome is unknown, reconcile with the
 * request history; try again only when it is not found or the refusal is proven) ends with
 * exactly one charge per job wanted and every charged job followed to its file. The
 * sandbox's own ledger is the proof. Times are scaled down: the server's 100 s window is
 * 150 ms here, the client's timer 250 ms.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { WalletAnalyticsApi } from '../../../../src/core/transport/api';
import { endpoint, validateInput } from '../../../../src/core/spec/catalog';
import { WalletApiError } from '../../../../src/core/errors';
import { reconcileSubmit, sameInputs, type ReconcileOptions } from '../../../../src/core/jobs/reconcile';
import { NO_FAULTS } from '../../../../src/sandbox/faults';
import { startSandbox, type Faults, type Sandbox } from '../../../../src/sandbox';

/** The server's acknowledgement window (§7.1's 100 s, scaled). */
const SERVER_ACK_MS = 150;
/** The client's own timer: longer than the server's window, so the server's 504 can arrive first. */
const CLIENT_ACK_MS = 250;
const RETRY = { attempts: 8, baseDelayMs: 2, maxDelayMs: 20 };
const RECONCILE: ReconcileOptions = { maxWaitMs: 150, intervalMs: 40, ackWindowMs: SERVER_ACK_MS + 50 };
/** A person gives up after this many tries of one job; never reached here. */
const MAX_TRIES = 8;


interface Scenario {
  readonly name: string;
  /** Faults on for the tries that faultyTry picks, so every run meets the same faults. */
  readonly onTry: Partial<Faults>;
  /** Faults on all the time, for the reads of the history too (the sandbox's own seeded dice). */
  readonly always?: Partial<Faults>;
  readonly clientAckMs?: number;
  /**
   * The scenario's jobs are wanted all at once, not one after another: six in a row did not pass a
   * limit of 4 a second on a slow machine, nor six at once on a loaded one (load 15: the submits
   * reached the server over more than a second). The limit is 1 a second: two of six at once come
   * within a second of each other on any machine that runs the tier at all.
   */
  readonly atOnce?: boolean;
}

const SCENARIOS: readonly Scenario[] = [
  { name: 'drop before', onTry: { dropRate: 1 } },
  { name: 'drop after charge', onTry: { dropAfterChargeRate: 1 } },
  { name: 'answer after the client’s timer', onTry: { answerDelayAfterChargeMs: 400 } },
  { name: '5xx', onTry: { errorRate: 1 } },
  // The server's 504 comes at its 150 ms window; the client's timer is long here so the 504 is what
  // ends the try: with the 250 ms timer a loaded machine (load 13-15) let the timer fire first on
  // every faulty try, and no 504 was seen ("the server's 504 was retried without a search" failed).
  { name: 'slow ack, server refuses (504)', onTry: { slowAckMs: 300 }, clientAckMs: 2_000 },
  { name: 'slow ack, client gives up first', onTry: { slowAckMs: 300 }, clientAckMs: 100 },
  // The client's timer is long here: this setting tries the limit, not the acknowledgement. With the
  // 250 ms timer, a loaded machine (load 10) made two submits ambiguous, and their reconciliation's
  // history reads met the same 1-a-second limit: "unresolved", not lost, but not what is tried here.
  { name: 'rate limit', onTry: {}, always: { rateLimit: 1 }, atOnce: true, clientAckMs: 5_000 },
  {
    name: 'all mixed',
    onTry: { dropAfterChargeRate: 0.3, answerDelayAfterChargeMs: 400 },
    always: { dropRate: 0.1, errorRate: 0.1 },
  },
];
const JOBS_PER_SCENARIO = 6;

/** Job k of a scenario meets its faults on its first try when k is odd, and the last job on its second try too. */
function faultyTry(k: number, tryNo: number): boolean {
  return k % 2 === 1 && tryNo <= (k === JOBS_PER_SCENARIO - 1 ? 2 : 1);
}

interface Job {
  readonly scenario: string;
  readonly endpointId: string;
  readonly inputs: Record<string, unknown>;
  requestId?: string;
  tries: number;
  ambiguous: number;
  found: number;
  notFound: number;
  provenRefused: number;
  unresolved: number;
}

let sb: Sandbox;
before(async () => {
  sb = await startSandbox({ seed: 23, wallets: 2_000, altWallets: 200, delayScale: 0.001, ackTimeoutMs: SERVER_ACK_MS });
});
after(() => sb.close());

/** Distinct inputs per job, so every charge in the ledger names the one job it belongs to. */
function jobInputs(i: number, wallets: readonly string[]): { endpointId: string; inputs: Record<string, unknown> } {
  const endpointId = i % 4 === 1 && i < 48 ? 'trending' : 'pnl';
  // Every 7th list is longer than 1,000, so the history shows it summarised as { count, first }.
  const raw = endpointId === 'trending' ? { hours: 1 + ((i - 1) / 4) } : { wallets: i % 7 === 0 ? wallets.slice(i, i + 1_200) : wallets.slice(i * 3, i * 3 + 3) };
  const v = validateInput(endpoint(endpointId), raw);
  assert.ok(v.ok, JSON.stringify(v));
  return { endpointId, inputs: v.input };
}

/** What a person does for one job: submit; on an unknown outcome reconcile; try again only when that is safe. */
async function wantJob(api: WalletAnalyticsApi, job: Job, k: number, s: Scenario, known: Set<string>): Promise<void> {
  while (job.tries < MAX_TRIES) {
    job.tries++;
    sb.setFaults({ ...NO_FAULTS, ...s.always, ...(faultyTry(k, job.tries) ? s.onTry : {}) });
    const sentAt = Date.now();
    try {
      job.requestId = (await api.submit(job.endpointId, job.inputs)).requestId;
      return;
    } catch (e) {
      sb.setFaults({ ...NO_FAULTS, ...s.always });
      assert.ok(e instanceof WalletApiError, `an untyped error escaped: ${String(e)}`);
      if (e.charged === 'no') {
        // The refusal is proven (the server's 504, a refused connection): trying again cannot charge twice.
        job.provenRefused++;
        continue;
      }
      job.ambiguous++;
      const r = await reconcileSubmit(api, { endpointId: job.endpointId, inputs: job.inputs, sentAt, known: (id) => known.has(id) }, RECONCILE);
      if (r.kind === 'found') {
        job.found++;
        job.requestId = r.record.requestId;
        return;
      }
      if (r.kind === 'notFound') {
        job.notFound++;
        continue;
      }
      job.unresolved++;
      return;
    }
  }
}

describe('ambiguous submits are reconciled, never guessed', () => {
  it('across every fault: 0 double charges and 0 lost jobs', { timeout: 120_000 }, async () => {
    const wallets = sb.addresses('wallet', 2_000);
    const fromLedger = sb.ledger().length;
    const fromReceived = sb.received().length;
    const jobs: Job[] = [];
    const known = new Set<string>();
    const took = new Map<string, number>();
    for (const s of SCENARIOS) {
      const t0 = Date.now();
      const api = new WalletAnalyticsApi({ baseUrl: sb.baseUrl, apiKey: () => Promise.resolve(sb.demoKey), retry: RETRY, ackTimeoutMs: s.clientAckMs ?? CLIENT_ACK_MS });
      const want = async (job: Job, k: number): Promise<void> => {
        await wantJob(api, job, k, s, known);
        if (job.requestId) known.add(job.requestId);
      };
      const batch: Promise<void>[] = [];
      for (let k = 0; k < JOBS_PER_SCENARIO; k++) {
        const job: Job = { scenario: s.name, ...jobInputs(jobs.length, wallets), tries: 0, ambiguous: 0, found: 0, notFound: 0, provenRefused: 0, unresolved: 0 };
        jobs.push(job);
        if (s.atOnce) batch.push(want(job, k));
        else await want(job, k);
      }
      await Promise.all(batch);
      took.set(s.name, Date.now() - t0);
    }
    sb.setFaults(NO_FAULTS);
    // Let answers the client gave up on finish, so nothing is still being charged.
    await sb.settled();

    const api = new WalletAnalyticsApi({ baseUrl: sb.baseUrl, apiKey: () => Promise.resolve(sb.demoKey) });
    const history = new Map((await api.requests()).map((r) => [r.requestId, r]));
    const charges = sb.ledger().slice(fromLedger);
    const chargesOf = new Map<Job, string[]>(jobs.map((j) => [j, []]));
    for (const c of charges) {
      const rec = history.get(c.requestId ?? '');
      const owner = jobs.find((j) => rec?.endpoint === j.endpointId && sameInputs(j.inputs, rec.inputs));
      assert.ok(owner, `a charge that belongs to no job: ${JSON.stringify(c)}`);
      chargesOf.get(owner)?.push(c.requestId ?? '');
    }
    const doubleCharges = jobs.reduce((n, j) => n + Math.max(0, (chargesOf.get(j)?.length ?? 0) - 1), 0);
    const lost = jobs.filter((j) => (chargesOf.get(j) ?? []).some((id) => id !== j.requestId)).length;
    const unresolved = jobs.filter((j) => j.unresolved > 0 || j.requestId === undefined);

    // Every job that was charged is followed to its file.
    for (const j of jobs) {
      if (!j.requestId) continue;
      let url = '';
      for (let i = 0; i < 400 && !url; i++) {
        url = (await api.request(j.requestId)).url;
        if (!url) await new Promise((r) => setTimeout(r, 5));
      }
      assert.ok(url, `${j.scenario}: job ${j.requestId} never finished`);
    }

    const sum = (f: (j: Job) => number, of: readonly Job[] = jobs) => of.reduce((n, j) => n + f(j), 0);
    const submits = sum((j) => j.tries);
    const ambiguous = sum((j) => j.ambiguous);
    const found = sum((j) => j.found);
    const notFound = sum((j) => j.notFound);
    console.log(
      `ambiguous: ${jobs.length} jobs in ${submits} submits across ${SCENARIOS.length} fault settings, ${ambiguous} ambiguous, ` +
        `${found + notFound} reconciled (${found} found, ${notFound} not found → retried), ${sum((j) => j.provenRefused)} proven refusals retried, ` +
        `${doubleCharges} double charges, ${lost} lost jobs`,
    );
    for (const s of SCENARIOS) {
      const of = jobs.filter((j) => j.scenario === s.name);
      console.log(`  ${s.name}: ${sum((j) => j.tries, of)} submits, ${sum((j) => j.ambiguous, of)} ambiguous (${sum((j) => j.found, of)} found, ${sum((j) => j.notFound, of)} not found), ${sum((j) => j.provenRefused, of)} proven refusals, ${took.get(s.name) ?? 0} ms`);
    }

    assert.equal(doubleCharges, 0, 'no job was charged twice');
    assert.equal(lost, 0, 'every charged job is the one the client follows');
    assert.deepEqual(unresolved.map((j) => j.scenario), [], 'every job ended accepted, once');
    assert.equal(charges.length, jobs.length, 'one charge per job wanted');
    // The faults really bit, and both outcomes of reconciliation happened.
    const by = (name: string) => jobs.filter((j) => j.scenario === name);
    assert.ok(sum((j) => j.found, by('drop after charge')) > 0, 'a drop after the charge was found in the history');
    assert.ok(sum((j) => j.found, by('answer after the client’s timer')) > 0, 'a late answer was found in the history');
    assert.ok(sum((j) => j.notFound, by('drop before')) > 0, 'a drop before anything was not found, and retried');
    assert.ok(sum((j) => j.notFound, by('5xx')) > 0, 'a 5xx refusal was not found, and retried');
    assert.ok(sum((j) => j.provenRefused, by('slow ack, server refuses (504)')) > 0, 'the server’s 504 was retried without a search');
    assert.ok(sum((j) => j.notFound, by('slow ack, client gives up first')) > 0, 'a slow ack the client gave up on was not found');
    const submitted = sb.received().slice(fromReceived).filter((r) => r.path === '/pnl' || r.path === '/trending');
    // No submit reached the server beyond the ones counted here and the 429s the client retries
    // itself (a hidden retry would add one). Fewer may arrive: on a busy machine a submit written
    // to a keep-alive socket the server had just closed never reaches it (seen once: 65 of 66).
    const retried429 = submitted.filter((r) => r.status === 429).length;
    assert.ok(submitted.length <= submits + retried429, `only 429s were retried by the client itself: ${submitted.length} reached the server, ${submits} submits + ${retried429} retried 429s`);
    assert.ok(submitted.some((r) => r.status === 429), 'the rate limit was hit');
  });
});
