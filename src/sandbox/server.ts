/**
 * The request pipeline, in the order a request meets it:
 *   record → fault dice (drop, latency, 500) → result files → route (404) → key (401)
 *   → IP binding (403; not for /reset_ip) → rate limit (429) → body and validation (400)
 *   → family: queued submit (slow ack / 504, 402, accept + charge), account, direct.
 * Poll answers (GET /request/{id}) go out in batches after the other requests of the same
 * turn of the event loop (PollQueue), so a flood of polls does not hold up a query.
 * Every refusal happens before anything is queued or charged (§7.1, §7.2). After a paid call
 * is charged, two faults can still withhold its answer (drop, or answer after the caller's timer).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ERROR_CODES } from '../core/spec/wire';
import type { Accounts } from './billing';
import type { Direct, DirectCall } from './direct';
import type { FaultSwitches } from './faults';
import { sendFile, type FileStore } from './files';
import { ApiError, JsonBytes, readJsonBody, remoteOf, sendError, sendJson, sleep } from './http';
import { readInput } from './inputs';
import type { Jobs } from './jobs';
import { chargeFor } from './prices';
import { routeOf, type Endpoint, type Routed } from './routes';
import type { ReceivedRequest } from './types';
import { errorText, CancelledError } from '../core/errors';
import { thousands } from '../core/numberText';

interface ServerDeps {
  readonly accounts: Accounts;
  readonly jobs: Jobs;
  readonly direct: Direct;
  readonly files: FileStore;
  readonly faults: FaultSwitches;
  readonly now: () => number;
  readonly ackTimeoutMs: number;
  readonly startBalance: number;
  /** Whether the API listener also serves /files/ (false with a separate file origin). */
  readonly apiServesFiles: () => boolean;
  /** The log keeps the latest this many requests at least, and never twice as many (SandboxOptions.receivedLimit). */
  readonly logLimit: number;
}

type Listener = 'api' | 'files';

/** How many poll answers go out per turn of the event loop (see PollQueue). */
export const POLL_BATCH = 64;

/**
 * Poll answers (`GET /request/{id}`) wait here and go out at most `batch` per turn of the
 * event loop, in the order they came. With 1,000 polls in flight, each turn finds hundreds of
 * them ready; answered as each was read, they held any other request read in the same turn (a
 * Wallet Database query, a submit) until all of them were written. Deferred, a turn only reads
 * them: other requests are answered as they are read, and the sockets are looked at again
 * between two batches. A poll waits a few milliseconds more; the client polls every 5 s (§3).
 */
export class PollQueue {
  private readonly waiting: (() => void)[] = [];
  private scheduled = false;
  private fallback: ReturnType<typeof setTimeout> | undefined;

  /**
   * `busy` says whether other requests are being answered: while they are, a batch waits for
   * them (kick() when one ends), at most `maxWaitMs`. A query whose answer takes a few turns of
   * the loop (its body read, its checks) was otherwise overtaken by five batches of polls (seen
   * in CI: all 300 went first).
   */
  constructor(
    private readonly batch = POLL_BATCH,
    private readonly schedule: (run: () => void) => void = (run) => setImmediate(run),
    private readonly busy: () => boolean = () => false,
    private readonly maxWaitMs = 100,
  ) {}

  /** Resolves when this poll's turn comes. */
  turn(): Promise<void> {
    return new Promise((resolve) => {
      this.waiting.push(resolve);
      this.next();
    });
  }

  /** Another request ended: a batch waiting for it may go. */
  kick(): void {
    this.next();
  }

  private next(force = false): void {
    if (this.scheduled || this.waiting.length === 0) return;
    if (this.busy() && !force) {
      // Waits for the other requests, never longer than maxWaitMs.
      this.fallback ??= setTimeout(() => {
        this.fallback = undefined;
        this.next(true);
      }, this.maxWaitMs);
      return;
    }
    if (this.fallback !== undefined) {
      clearTimeout(this.fallback);
      this.fallback = undefined;
    }
    this.scheduled = true;
    this.schedule(() => {
      this.scheduled = false;
      for (const resolve of this.waiting.splice(0, this.batch)) resolve();
      this.next();
    });
  }
}

/** "1,000,000 credits": the server's own wording, always English as the service writes it (the client's fmtCredits speaks the person's language); the digits are the one owner's. */
const fmtCredits = (n: number): string => `${thousands(n)} credit${n === 1 ? '' : 's'}`;

export class Pipeline {
  readonly log: ReceivedRequest[] = [];
  private readonly inFlight = new Set<Promise<void>>();
  private readonly closing = new AbortController();
  /** Calls being answered now (direct and queued, not the free account reads): a batch of polls waits for them (PollQueue). */
  private others = 0;
  private readonly polls = new PollQueue(POLL_BATCH, undefined, () => this.others > 0);

  constructor(private readonly d: ServerDeps) {}

  /** A node:http server running this pipeline as one listener. */
  server(listener: Listener): Server {
    const s = createServer((req, res) => {
      const p = this.handle(req, res, listener).finally(() => this.inFlight.delete(p));
      this.inFlight.add(p);
    });
    s.keepAliveTimeout = 5_000;
    return s;
  }

  private async handle(req: IncomingMessage, res: ServerResponse, listener: Listener): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://sandbox.invalid');
    const entry: ReceivedRequest = {
      method: req.method ?? 'GET',
      path: url.pathname,
      query: url.search,
      apiKeyHeader: req.headers.api_key !== undefined,
      at: this.d.now(),
      remote: remoteOf(req),
      status: 0,
    };
    this.log.push(entry);
    // Dropped in batches, so the cost per request stays constant (the array is the one received() hands out).
    if (this.log.length > 2 * this.d.logLimit) this.log.splice(0, this.log.length - this.d.logLimit);
    res.on('finish', () => {
      entry.status = res.statusCode;
    });
    try {
      const f = this.d.faults.get();
      if (this.d.faults.roll(f.dropRate)) {
        req.socket.destroy();
        return;
      }
      if (f.latencyMs > 0) await sleep(f.latencyMs, this.closing.signal);
      if (this.d.faults.roll(f.errorRate)) throw new ApiError(500, ERROR_CODES.server, 'Internal error (injected fault). Nothing was queued or charged.');
      if (url.pathname.startsWith('/files/') && (listener === 'files' || this.d.apiServesFiles())) {
        await this.file(req, res, url.pathname);
        return;
      }
      if (listener === 'files') throw new ApiError(404, ERROR_CODES.notFound, `No file at ${url.pathname}.`);
      await this.api(req, res, url);
    } catch (e) {
      if (res.headersSent || res.destroyed) {
        res.destroy();
        return;
      }
      if (e instanceof ApiError) sendError(res, e);
      else sendError(res, new ApiError(500, ERROR_CODES.server, `Internal error: ${errorText(e)}`));
    } finally {
      // A truncated download never finishes: record the status it was sent with.
      if (entry.status === 0 && res.headersSent) entry.status = res.statusCode;
    }
  }

  private async file(req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
    const id = /^\/files\/([0-9a-f]+)\//u.exec(path)?.[1];
    if (!id || !this.d.files.has(id)) throw new ApiError(404, ERROR_CODES.notFound, `No file at ${path}.`);
    if (req.method !== 'GET' && req.method !== 'HEAD') throw new ApiError(404, ERROR_CODES.notFound, `${req.method ?? ''} ${path}: files are read with GET.`);
    const { file, release } = await this.d.files.open(id);
    try {
      const f = this.d.faults.get();
      await sendFile(req, res, file, { truncate: f.truncateDownloads, corruptZip: f.corruptZip });
    } finally {
      release();
    }
  }

  /** Routes, checks and prices with the sandbox's own tables (./routes.ts, ./inputs.ts, ./prices.ts), never the client's. */
  private async api(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const method = req.method ?? 'GET';
    let route: Routed;
    try {
      route = routeOf(method, url.pathname);
    } catch {
      // routeOf decodes path parameters: a malformed %-escape lands here.
      throw new ApiError(400, ERROR_CODES.badInput, `The path ${url.pathname} is not valid URL encoding.`);
    }
    if (route.kind !== 'found') {
      throw new ApiError(404, ERROR_CODES.notFound, route.kind === 'wrongMethod' ? `${url.pathname} takes ${route.ep.method}, not ${method}.` : `No endpoint ${method} ${url.pathname}.`);
    }
    const { ep, params } = route;
    // Polls wait behind the calls that do work (queries, submits, pages), not behind other free
    // account reads: those are as quick as a poll, and the client paces them itself.
    if (ep.family === 'account') return this.answer(req, res, url, ep, params);
    this.others++;
    try {
      await this.answer(req, res, url, ep, params);
    } finally {
      this.others--;
      this.polls.kick();
    }
  }

  private async answer(req: IncomingMessage, res: ServerResponse, url: URL, ep: Endpoint, params: Readonly<Record<string, string>>): Promise<void> {
    const method = req.method ?? 'GET';
    const header = req.headers.api_key;
    const key = Array.isArray(header) ? header[0] : header;
    if (!key) throw new ApiError(401, ERROR_CODES.keyRefused, 'No api_key header was sent: every request carries the key (§5).');
    if (!this.d.accounts.isKey(key)) throw new ApiError(401, ERROR_CODES.keyRefused, 'The api_key was refused: it is not a key of this service.');
    const remote = remoteOf(req);
    if (ep.id !== 'reset_ip') {
      const bound = this.d.accounts.checkIp(key, remote);
      if (bound !== undefined) {
        throw new ApiError(403, ERROR_CODES.ipMismatch, `This key is bound to another IP address (${bound}); the request came from ${remote}. Call POST /reset_ip to bind it to the next caller.`);
      }
    }
    const wait = this.d.accounts.rateLimited(key, this.d.faults.get().rateLimit, performance.now());
    if (wait !== undefined) throw new ApiError(429, ERROR_CODES.rateLimited, `Too many requests: at most ${this.d.faults.get().rateLimit} per second per key.`, { 'Retry-After': String(wait) });
    const body = method === 'POST' ? await readJsonBody(req) : undefined;
    // The sandbox's own input rules (./inputs.ts), not the client's: a client bug is a 400 here.
    const checked = readInput(ep, { params, query: url.searchParams, body });
    if (!checked.ok) throw new ApiError(400, ERROR_CODES.badInput, checked.errors.join(' '), {}, { errors: checked.errors });
    const input = checked.input;
    const pay = (credits: number, requestId?: string) => this.pay(key, ep, credits, requestId);
    switch (ep.family) {
      case 'queued':
        await this.submit(req, res, key, ep, input);
        return;
      case 'account':
        if (ep.id === 'request') {
          await this.polls.turn();
          // A poller that gave up meanwhile gets nothing.
          if (req.socket.destroyed) return;
        }
        sendJson(res, 200, this.account(key, ep, input));
        return;
      case 'direct':
        await this.direct(req, res, { ep, input, pay });
        return;
    }
  }

  /** Charges at acceptance, or refuses with 402 (nothing charged) when the balance is short. */
  private pay(key: string, ep: Endpoint, credits: number, requestId?: string): void {
    const balance = this.d.accounts.balance(key);
    if (credits > balance) {
      throw new ApiError(
        402,
        ERROR_CODES.insufficientCredits,
        `This call costs ${fmtCredits(credits)}; the balance is ${fmtCredits(balance)}. Nothing was charged. The balance resets to ${fmtCredits(this.d.startBalance)} at the end of the 30-day period.`,
        {},
        { needed: credits, balance },
      );
    }
    if (credits > 0) this.d.accounts.charge(key, ep.id, credits, requestId);
  }

  private async submit(req: IncomingMessage, res: ServerResponse, key: string, ep: Endpoint, input: Record<string, unknown>): Promise<void> {
    const cost = chargeFor(ep.id, input);
    const slow = this.d.faults.get().slowAckMs;
    if (slow > 0) {
      await sleep(Math.min(slow, this.d.ackTimeoutMs), this.closing.signal);
      // A caller that gave up before the acknowledgement has nothing queued.
      if (req.socket.destroyed) return;
      if (slow > this.d.ackTimeoutMs) {
        throw new ApiError(504, ERROR_CODES.ackTimeout, `The request could not be acknowledged within ${this.d.ackTimeoutMs / 1000} s. Nothing was queued and nothing was charged (§7.1).`);
      }
    }
    const requestId = this.d.jobs.newRequestId();
    this.pay(key, ep, cost, requestId);
    const job = this.d.jobs.submit(key, ep, input, cost, requestId);
    if (await this.noAnswerAfterCharge(req)) return;
    sendJson(res, 200, { requestId: job.requestId, status: job.status, cost, url: '' });
  }

  /** Answers a direct call; a charged one meets the "charged, then no answer" faults as a submit does. */
  private async direct(req: IncomingMessage, res: ServerResponse, call: DirectCall): Promise<void> {
    let charged = false;
    const value = this.d.direct.handle({
      ...call,
      pay: (credits) => {
        call.pay(credits);
        charged = credits > 0;
      },
    });
    if (charged && (await this.noAnswerAfterCharge(req))) return;
    sendJson(res, 200, value);
  }

  /**
   * The faults of a paid call that was accepted and charged: the connection is dropped, or the
   * answer waits past the caller's timer. True when no answer is to be sent (the charge stays).
   */
  private async noAnswerAfterCharge(req: IncomingMessage): Promise<boolean> {
    const f = this.d.faults.get();
    if (this.d.faults.roll(f.dropAfterChargeRate)) {
      req.socket.destroy();
      return true;
    }
    if (f.answerDelayAfterChargeMs > 0) {
      await sleep(f.answerDelayAfterChargeMs, this.closing.signal);
      if (req.socket.destroyed) return true;
    }
    return false;
  }

  private account(key: string, ep: Endpoint, input: Record<string, unknown>): unknown {
    switch (ep.id) {
      case 'request': {
        const job = this.d.jobs.get(key, String(input.requestId));
        if (!job) throw new ApiError(404, ERROR_CODES.notFound, `No request ${String(input.requestId)} for this key.`);
        return new JsonBytes(this.d.jobs.recordJson(job));
      }
      case 'requests':
        // All the spec promises of a record is its requestId and url: a client must cope with no more.
        if (this.d.faults.get().minimalHistory) return this.d.jobs.list(key).map((j) => ({ requestId: j.requestId, url: j.url }));
        return new JsonBytes(this.d.jobs.listJson(key));
      case 'credits':
        // §2.3: a number carried in a string.
        return String(this.d.accounts.balance(key));
      case 'reset_ip':
        this.d.accounts.resetIp(key);
        return { ok: true, message: 'The saved IP address was reset: the next call binds the key to its address.' };
      default:
        throw new Error(`no account handler for ${ep.id}`);
    }
  }

  /** Resolves once every request being handled now is answered or dropped (waits are not cut short). */
  async settled(): Promise<void> {
    await Promise.allSettled([...this.inFlight]);
  }

  /** Cuts waits short and waits for requests being handled (close() uses it after the listeners stop). */
  async drain(): Promise<void> {
    this.closing.abort(new CancelledError());
    await Promise.allSettled([...this.inFlight]);
  }
}

/** Listens and answers the base URL. */
export async function listen(server: Server, port: number, host: string): Promise<string> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const addr = server.address() as AddressInfo;
  const h = addr.family === 'IPv6' ? `[${addr.address}]` : addr.address;
  return `http://${h}:${addr.port}`;
}
