/**
 * The headless host (issue 32): what the window's services are to the call flow, built for a
 * command line. It supplies only what a host must (architecture.md, "One core, several hosts"):
 * the key (WA_API_KEY), the connection (one base URL), where state and results go (beside the
 * pipeline), and how the person approved (--max-credits, turned into the plan's approvals by the
 * one owner before this is called). Everything else is the core's: the typed client and its
 * transport (the key only to the base URL's origin), the unattended call flow and the one send
 * (core/calls), the ledger, the memory of calls that may have been charged, the history search,
 * the one poller and the result writer (download, size cap, unzip), and the pipeline run.
 */
import { join } from 'node:path';
import { toldOutcome } from '../core/calls/outcome';
import { runUnattended } from '../core/calls/unattended';
import { reconcileInHistory } from '../core/calls/reconcile';
import { errorText } from '../core/errors';
import type { JobRecord } from '../core/jobs/job';
import { GlobalStatePersistence } from '../core/jobs/persistence';
import { Poller } from '../core/jobs/poller';
import { JobStore } from '../core/jobs/store';
import { AmbiguousCalls } from '../core/money/ambiguousCalls';
import { SpendLedger, type SpendEntry } from '../core/money/spendLedger';
import type { CallCellFn, CallResult } from '../core/pipeline/run';
import type { Approval } from '../core/money/approval';
import type { QuoteContext } from '../core/money/pricing';
import type { Endpoint } from '../core/spec/catalog';
import { QueryRunCache } from '../core/query/runCache';
import { directResultName } from '../core/results/names';
import { saveNewResult } from '../core/results/newResult';
import { makeResultWriter } from '../core/results/resultWriter';
import type { QueryBody } from '../core/spec/queryModel';
import { WalletAnalyticsApi, type CallLog } from '../core/transport/api';
import { DEFAULT_PROFILE_ID, scopeKey } from '../core/transport/profiles';
import { StorageKeys } from '../core/storage';
import { stateStorage } from './state';
import { fmtCredits } from '../core/numberText';

/**
 * A call's outcome as the host tells it: the pipeline's CallResult, or a queued job accepted (paid)
 * and kept, not yet followed. `mayBeCharged`: a stop after which the call may have been charged.
 */
type Sending =
  | Exclude<CallResult, { status: 'stopped' }>
  | (Extract<CallResult, { status: 'stopped' }> & { readonly mayBeCharged?: true })
  | { readonly status: 'queued'; readonly requestId: string; readonly credits: number; readonly reconciled?: string };

/** What the runner prints as it goes; tests and the JUnit report read the same lines. */
export type Print = (line: string) => void;

interface HostOptions {
  readonly baseUrl: string;
  readonly key: string;
  /** `<name>.results/`: the records, the local steps' files, the state; calls' files go to its `calls/`. */
  readonly resultsDir: string;
  /** Where calls' files go when not `calls/` inside resultsDir (the MCP server's --out; a single call's --out folder itself). */
  readonly callsDir?: string;
  readonly maxCreditsPerCall: number;
  readonly chargeAgain: boolean | 'never';
  /** The server's acknowledgement window (§7.1, 100 s), which the history search also waits out. */
  readonly ackTimeoutMs: number;
  /** How often pending jobs are read (§1.1: about every 5 s). */
  readonly pollIntervalMs: number;
  readonly print: Print;
}

/** How much a download may be (the editor's default of walletAnalytics.maxDownloadMB). */
const MAX_DOWNLOAD_BYTES = 4096 * 1024 * 1024;

/** The headless host of one run: its call function for core/pipeline/run.ts, and what the run came to. */
export class RunnerHost {
  readonly api: WalletAnalyticsApi;
  readonly callsDir: string;
  readonly queryRuns: QueryRunCache;
  /** Cells whose paid call ended with no clear answer: they may have been charged. */
  readonly mayBeCharged: string[] = [];
  /** The profile scope charges, unsettled calls and query answers are kept under (one connection: the base URL). */
  readonly scope: string;
  private readonly ledger: SpendLedger;
  private readonly ambiguous: AmbiguousCalls;
  private readonly store: JobStore;
  private readonly poller: Poller;
  private readonly flushed: () => Promise<void>;

  constructor(private readonly o: HostOptions) {
    this.scope = scopeKey(DEFAULT_PROFILE_ID, o.baseUrl);
    this.callsDir = o.callsDir ?? join(o.resultsDir, 'calls');
    this.api = new WalletAnalyticsApi({ baseUrl: o.baseUrl, apiKey: () => Promise.resolve(o.key), ackTimeoutMs: o.ackTimeoutMs, onLog: (e) => o.print(requestLine(e)) });
    const { storage, flushed } = stateStorage(o.resultsDir);
    this.flushed = flushed;
    this.ledger = new SpendLedger({ read: () => (storage.get(StorageKeys.ledger) ?? []) as SpendEntry[], write: (items) => storage.set(StorageKeys.ledger, items) });
    this.ambiguous = new AmbiguousCalls(storage);
    this.queryRuns = new QueryRunCache(join(o.resultsDir, 'query-runs'));
    this.store = new JobStore(new GlobalStatePersistence(storage));
    this.poller = new Poller(this.store, {
      apiFor: (scope) => (scope === this.scope ? this.api : undefined),
      download: makeResultWriter({ apiFor: (scope) => (scope === this.scope ? this.api : undefined), folder: () => this.callsDir, maxBytes: () => MAX_DOWNLOAD_BYTES }),
      log: (line) => o.print(`  ${line}`),
      intervalMs: o.pollIntervalMs,
    });
    this.poller.start();
  }

  /** One call cell through the unattended flow (core/calls/unattended.ts), followed to its file. */
  readonly call: CallCellFn = async (cell, ep, input, approval) => {
    const r = await this.callOnce(cell.name, ep, input, approval);
    return r.status === 'queued' ? this.follow(r.requestId, r.credits) : r;
  };

  /**
   * One call through the unattended flow, up to its answer: a direct call's answer written to a
   * file, a queued job kept in the store (followed by the one poller) before this returns.
   * `ctx`: what the quote knows besides the inputs (a Wallet Database query's count from this hour).
   */
  async callOnce(name: string, ep: Endpoint, input: Record<string, unknown>, approval: Approval | undefined, ctx?: QuoteContext): Promise<Sending> {
    const o = this.o;
    const host = {
      api: this.api, scope: this.scope, profileId: DEFAULT_PROFILE_ID, baseUrl: o.baseUrl, ambiguous: this.ambiguous,
      maxCreditsPerCall: o.maxCreditsPerCall, chargeAgain: o.chargeAgain, folder: () => this.callsDir,
      record: (endpointId: string, credits: number) => this.ledger.record(endpointId, credits, this.scope),
      balance: () => this.api.credits(),
      budgets: () => [],
      hold: (endpointId: string, credits: number) => this.ledger.hold(endpointId, credits, this.scope, { perDay: 0, perPeriod: 0 }, undefined).then((h) => ('id' in h ? h : { refused: h.refused })),
      release: (id: string) => this.ledger.release(id),
      reconcile: (e: Endpoint, i: Record<string, unknown>, sentAt: number, message: string) => {
        o.print(`  ${name}: no clear answer (${message}); looking for it in the request history (free)…`);
        return reconcileInHistory(this.api, { endpointId: e.id, input: i, sentAt, known: (id) => this.store.get(id) !== undefined }, { ackWindowMs: o.ackTimeoutMs, maxWaitMs: Math.min(30_000, o.ackTimeoutMs) });
      },
    };
    const out = await runUnattended(ep, input, approval, host, ctx);
    switch (out.kind) {
      case 'refused':
      case 'invalid':
        return { status: 'stopped', message: toldOutcome(out.kind === 'refused' ? { status: 'refused', message: out.message } : { status: 'invalid', errors: out.errors }, 'commandLine').message, notSent: true };
      case 'paged':
        return { status: 'done', credits: out.credits, resultPath: out.resultPath };
      case 'direct': {
        const file = await saveNewResult(this.callsDir, (i) => directResultName(ep.id, new Date(out.sentAt), i), `${JSON.stringify(out.value, null, 2)}\n`);
        const total = (out.value as { total?: unknown } | null)?.total;
        if (ep.price.kind === 'perMatch' && typeof total === 'number') {
          await this.queryRuns.record({ scope: this.scope, chain: ep.chain, at: out.sentAt, total, charged: out.charged, resultPath: file, body: input.query as QueryBody, answer: out.value }).catch(() => undefined);
        }
        return { status: 'done', credits: out.charged, resultPath: file };
      }
      case 'failed':
        if (out.charged === 'unknown') this.mayBeCharged.push(name);
        return {
          status: 'stopped',
          message: toldOutcome({ status: 'failed', message: `${out.message}${out.reconciled ? ` ${out.reconciled.message}` : ''}`, charged: out.charged }, 'commandLine').message,
          ...(out.charged === 'unknown' ? { mayBeCharged: true as const } : {}),
        };
      case 'queued':
        if (out.reconciled) o.print(`  ${name}: ${out.reconciled} (${out.job.requestId})`);
        // Kept before it is followed: a crash from here on leaves a job the next run adopts, never pays again.
        await this.store.put(out.job);
        return { status: 'queued', requestId: out.job.requestId, credits: out.credits, ...(out.reconciled ? { reconciled: out.reconciled } : {}) };
    }
  }

  /**
   * A job this host follows, once it settled, or undefined when `signal` stopped the wait first
   * (the job goes on: the poller still downloads it). `onChange` hears each change of its record.
   */
  async settled(requestId: string, signal: AbortSignal, onChange?: (job: JobRecord) => void): Promise<JobRecord | undefined> {
    void this.poller.pollNow();
    const off = onChange ? this.store.onDidChange(() => {
      const j = this.store.get(requestId);
      if (j) onChange(j);
    }) : () => undefined;
    try {
      return await new Promise<JobRecord | undefined>((done) => {
        if (signal.aborted) return done(undefined);
        signal.addEventListener('abort', () => done(undefined), { once: true });
        this.poller.whenSettled(requestId).then(done, () => done(undefined));
      });
    } finally {
      off();
    }
  }

  /** Waits for a job this run (or a crashed one) paid for; its file downloaded once, by the one poller. */
  private async follow(requestId: string, credits: number): Promise<CallResult> {
    void this.poller.pollNow();
    const j = await this.poller.whenSettled(requestId);
    if (j.state === 'done' && j.resultPath) return { status: 'done', credits, resultPath: j.resultPath };
    // Paid and accepted: the next run adopts its result instead of paying again.
    return { status: 'stopped', message: `The job ${requestId} (${fmtCredits(credits)}, charged) ${j.state === 'failed' ? `failed on the server: ${j.error ?? 'no reason given'}` : `ended ${j.state}: ${j.error ?? ''}`}`.trim(), credits, requestId };
  }

  /** A job a cell paid for in an earlier run: its result, retried when only its download failed; never sent again. */
  readonly adopt = async (requestId: string): Promise<{ readonly resultPath: string } | undefined> => {
    const known = this.store.get(requestId);
    if (!known) return undefined;
    if (known.state === 'downloadFailed') await this.poller.retryDownload(requestId).catch((e: unknown) => this.o.print(`  ${requestId}: ${errorText(e)}`));
    const j = await this.poller.whenSettled(requestId);
    return j.state === 'done' && j.resultPath ? { resultPath: j.resultPath } : undefined;
  };

  /**
   * A job submitted elsewhere (a Copy as Code snippet, another script): followed to its file by the
   * one poller and written by the one result writer, as a job this host paid for. Free: nothing is
   * sent but GET /request/{requestId} and the download. Its cost is not known here: 0 is recorded.
   */
  async followSubmitted(requestId: string, endpointId: string): Promise<JobRecord> {
    const known = this.store.get(requestId);
    if (!known) {
      await this.store.put({ requestId, endpointId, inputs: {}, cost: 0, profileId: DEFAULT_PROFILE_ID, baseUrl: this.o.baseUrl, submittedAt: new Date().toISOString(), state: 'pending' });
    } else if (known.state === 'downloadFailed') {
      await this.poller.retryDownload(requestId).catch((e: unknown) => this.o.print(`  ${requestId}: ${errorText(e)}`));
    }
    void this.poller.pollNow();
    return this.poller.whenSettled(requestId);
  }

  /** Stops polling and waits for the state file to be written. */
  async close(): Promise<void> {
    this.poller.dispose();
    await this.flushed();
  }
}

/** One request as the runner prints it (as Newman does): method, path, status, time, credits. Never a header or the key. */
function requestLine(e: CallLog): string {
  const status = e.status === undefined ? `no answer${e.error ? ` (${e.error})` : ''}` : String(e.status);
  const money = e.charged !== undefined && e.charged > 0 ? ` · charged ${fmtCredits(e.charged)}` : '';
  const retry = e.willRetry ? ' · retrying' : '';
  return `  → ${e.method} ${e.path.split('?')[0] ?? ''} ${status} ${e.durationMs} ms${money}${retry}`;
}
