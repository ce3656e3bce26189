/**
 * The sandbox's in-process interface (re-exported by ./index). Another engineer codes the
 * client's tests against it: extend only additively.
 */

export interface Faults {
  /** Added to every response (both listeners). */
  latencyMs: number;
  /** 0..1: probability a request gets a 500 (for a submit: refused, nothing queued, nothing charged). Any request, file downloads too. */
  errorRate: number;
  /** 0..1: probability the socket is destroyed with no response (decided before anything else, so nothing is queued or charged). */
  dropRate: number;
  /** >0: submit responses are delayed this long; above ackTimeoutMs the answer is 504 ack_timeout, nothing queued, nothing charged (§7.1). */
  slowAckMs: number;
  /** Result files are cut short: Content-Length announces the full size, the body stops halfway and the connection closes. */
  truncateDownloads: boolean;
  /** `.zip` results are not valid zips (their end-of-central-directory record is zeroed). */
  corruptZip: boolean;
  /** >0: at most N requests per second per key, then 429 with Retry-After. */
  rateLimit: number;
  /** Additive: 0..1, probability an accepted job ends `failed` (it was accepted, so it stays charged, §7.3). */
  jobFailRate?: number;
  /**
   * Additive: 0..1, probability that a paid call (a queued submit, a charged direct call) is
   * accepted and charged, and then its connection is destroyed with no answer. The job exists
   * and can be found in GET /requests; the caller cannot know it was charged.
   */
  dropAfterChargeRate?: number;
  /**
   * Additive: >0, a paid call (a queued submit, a charged direct call) is accepted and charged
   * at once, and answered only this many ms later. Above a client's own timer, the client gives
   * up while the job exists and was charged (the server's answer then goes nowhere).
   */
  answerDelayAfterChargeMs?: number;
  /**
   * Additive: GET /requests lists each record with only its requestId and url (all the spec
   * promises): no endpoint, inputs or dates, so a lost submit cannot be told apart from another job.
   */
  minimalHistory?: boolean;
  /**
   * Additive: while true, a job that comes due stays queued (GET /request answers it without a
   * url), so a test can act while a job is surely pending however slow the machine; set back to
   * false, the held jobs complete at once.
   */
  holdJobs?: boolean;
}

export interface SandboxOptions {
  /** 0 (default) = a free port. */
  port?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** Default 42. */
  seed?: number;
  /** Synthetic main-chain wallets, default 20_000 (the benchmark uses 100_000). */
  wallets?: number;
  /** Default 5_000. */
  altWallets?: number;
  /** queued → done after a uniform delay in this range; default [1000, 8000]. */
  jobDelayMs?: [number, number];
  /** Multiplies job delays (tests use e.g. 0.001); default 1. */
  delayScale?: number;
  /** Default 100_000 (§7.1). */
  ackTimeoutMs?: number;
  /** Default 'sandbox-demo-key'; always accepted. */
  demoKey?: string;
  /** More valid keys. */
  extraKeys?: string[];
  /** Default 1_000_000_000 (§8.1). */
  startBalance?: number;
  /** Default 30 days; the balance resets to full when a period ends, no roll-over. */
  periodMs?: number;
  /** Serve result files from a second listener (another port = another origin), so the client must download them without the key. */
  separateFileOrigin?: boolean;
  faults?: Partial<Faults>;
  /** Additive: disk kept for result files (default 2 GiB); beyond it the least recently used are deleted and rewritten, identical, when asked for again. */
  diskBudgetBytes?: number;
  /** Clock, for tests of the monthly reset and the hourly refresh. */
  now?: () => number;
  /**
   * Additive: how many of the latest requests `received()` keeps at least (default 100,000).
   * Beyond twice this, the oldest are dropped down to it: a sandbox answering 1,000 polls in
   * flight receives about 10,000 requests a second, and a log of every one would grow by
   * about 1.5 MB a second, until its garbage collection stalls the server.
   */
  receivedLimit?: number;
  /** Additive: makes the requestId of each accepted job (default `req_` + 20 hex digits); tests give ids with `+`, `/`, `=`. */
  requestIds?: () => string;
}

export interface LedgerEntry {
  key: string;
  endpoint: string;
  requestId?: string;
  credits: number;
  at: number;
}

export interface ReceivedRequest {
  method: string;
  /** The path without the query string. */
  path: string;
  apiKeyHeader: boolean;
  at: number;
  remote: string;
  /** 0 when the connection was dropped with no response. */
  status: number;
  /** Additive: the query string, with its "?" ('' when none). */
  query: string;
}

/** Kinds of address the sandbox knows, for tests that need a real one. */
export type AddressKind = 'wallet' | 'altWallet' | 'token' | 'creator' | 'program' | 'lookupTable';

export interface Sandbox {
  /** e.g. http://127.0.0.1:PORT */
  readonly baseUrl: string;
  readonly fileBaseUrl: string;
  readonly demoKey: string;
  setFaults(f: Partial<Faults>): void;
  /** Every charge, in order. */
  ledger(): readonly LedgerEntry[];
  /** Default: demo key. */
  balance(key?: string): number;
  /** Every request that reached either listener, oldest first (the latest `receivedLimit` of them at least, see SandboxOptions). */
  received(): readonly ReceivedRequest[];
  /**
   * Additive: resolves once every request being handled now has been answered or dropped, slow
   * faults included, so a test waits on that instead of sleeping past a fault's delay.
   */
  settled(): Promise<void>;
  /** Adds n past requests (various endpoints, done, some failed, over the last days) to GET /requests, for UI tests. */
  seedHistory(n: number, key?: string): void;
  /** Additive: the first n addresses of a kind the synthetic data holds (default 10). */
  addresses(kind: AddressKind, n?: number): string[];
  close(): Promise<void>;
}
