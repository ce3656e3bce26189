/**
 * Queued jobs (§3): accepted → `queued`, then after the configured delay `running` while its
 * file is written, then `done` with its `url` set (or `failed`). The status names are ours
 * (REQUEST_STATUSES in src/core/spec/wire.ts); `url` being set is what the spec promises.
 */
import { randomBytes } from 'node:crypto';
import { refreshPeriodStart } from '../core/spec/refresh';
import type { RequestRecord, RequestStatus } from '../core/spec/wire';
import type { World } from './data';
import type { FaultSwitches } from './faults';
import type { FileStore } from './files';
import { exampleInput } from './inputs';
import { chargeFor } from './prices';
import { resultContent } from './results';
import { Rng, hash32 } from './rng';
import { ROUTES, type Endpoint } from './routes';
import { errorText } from '../core/errors';

interface Job {
  readonly requestId: string;
  readonly key: string;
  readonly endpoint: string;
  status: RequestStatus;
  readonly createdAt: number;
  completedAt?: number;
  readonly cost: number;
  readonly inputs: Record<string, unknown>;
  url: string;
  error?: string;
  readonly fileId: string;
}

interface JobDeps {
  readonly world: World;
  readonly files: FileStore;
  readonly faults: FaultSwitches;
  readonly now: () => number;
  /** Where result files are served (the API origin, or the separate file origin). */
  readonly fileBaseUrl: () => string;
  /** The delay before a job is picked up, in ms. */
  readonly delay: () => number;
  /** Makes request ids (SandboxOptions.requestIds); default newRequestId. */
  readonly requestId?: () => string;
}

/** Lists above this length are summarised in the record (a 100,000-wallet pnl would make /requests megabytes long). */
const MAX_LISTED = 1_000;

function summarise(input: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(input)) {
    out[k] = Array.isArray(v) && v.length > MAX_LISTED ? { count: v.length, first: v.slice(0, 100) } : v;
  }
  return out;
}

const newId = (prefix: string, bytes: number) => `${prefix}${randomBytes(bytes).toString('hex')}`;

/** A fresh request id (unguessable). The client takes any id as opaque (requestIdSchema in src/core/spec/wire.ts). */
function newRequestId(): string {
  return newId('req_', 10);
}
const iso = (ms: number) => new Date(ms).toISOString();
const OPEN = Buffer.from('[');
const COMMA = Buffer.from(',');
const CLOSE = Buffer.from(']');

export class Jobs {
  private readonly byKey = new Map<string, Job[]>();
  private readonly byId = new Map<string, Job>();
  private readonly timers = new Set<NodeJS.Timeout>();
  /** Jobs that came due while the holdJobs fault was on, oldest first. */
  private readonly held: Job[] = [];
  /** Each job's record as bytes, with the state it was made in (see recordJson). */
  private readonly wire = new WeakMap<Job, { readonly state: string; readonly bytes: Buffer }>();
  private closed = false;

  constructor(private readonly deps: JobDeps) {}

  /** The id for the next accepted job. */
  newRequestId(): string {
    return this.deps.requestId?.() ?? newRequestId();
  }

  /** Queues an accepted, already charged job and schedules its completion. */
  submit(key: string, ep: Endpoint, input: Record<string, unknown>, cost: number, requestId = this.newRequestId()): Job {
    const now = this.deps.now();
    const job = this.add(key, ep, input, cost, requestId, now);
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      if (this.deps.faults.get().holdJobs) this.held.push(job);
      else void this.complete(job);
    }, Math.max(0, this.deps.delay()));
    this.timers.add(timer);
    return job;
  }

  private add(key: string, ep: Endpoint, input: Record<string, unknown>, cost: number, requestId: string, createdAt: number): Job {
    const fileId = newId('', 12);
    const hourStart = refreshPeriodStart(createdAt);
    // The file is produced from the inputs and the hour of acceptance: the same job gives the same bytes.
    this.deps.files.register(fileId, `${ep.id}-${requestId}`, new Date(hourStart), () => resultContent({ world: this.deps.world, hourStart }, ep.id, input));
    const job: Job = { requestId, key, endpoint: ep.id, status: 'queued', createdAt, cost, inputs: summarise(input), url: '', fileId };
    const list = this.byKey.get(key) ?? [];
    list.push(job);
    this.byKey.set(key, list);
    this.byId.set(requestId, job);
    return job;
  }

  /** Completes the jobs held by the holdJobs fault, once it is off (called when the faults change). */
  releaseHeld(): void {
    if (this.deps.faults.get().holdJobs) return;
    for (const job of this.held.splice(0)) void this.complete(job);
  }

  private async complete(job: Job): Promise<void> {
    if (this.closed) return;
    job.status = 'running';
    if (this.deps.faults.roll(this.deps.faults.get().jobFailRate)) {
      this.finish(job, 'failed', 'The job failed on the server (injected fault). It was accepted, so it was charged (§7.3).');
      return;
    }
    try {
      const file = await this.deps.files.ensure(job.fileId);
      if (this.closed) return;
      job.url = this.fileUrl(job, file.name);
      this.finish(job, 'done');
    } catch (e) {
      if (!this.closed) this.finish(job, 'failed', `The result file could not be written: ${errorText(e)}`);
    }
  }

  private finish(job: Job, status: RequestStatus, error?: string): void {
    job.status = status;
    job.completedAt = this.deps.now();
    if (error) job.error = error;
  }

  private fileUrl(job: Job, name: string): string {
    return `${this.deps.fileBaseUrl()}/files/${job.fileId}/${encodeURIComponent(name)}`;
  }

  /** The key's job with this id (another key's jobs are not found). */
  get(key: string, requestId: string): Job | undefined {
    const j = this.byId.get(requestId);
    return j && j.key === key ? j : undefined;
  }

  /** The key's jobs, newest first. */
  list(key: string): Job[] {
    return [...(this.byKey.get(key) ?? [])].sort((a, b) => b.createdAt - a.createdAt || b.requestId.localeCompare(a.requestId));
  }

  /** The wire record of a job (RequestRecord, our design beyond requestId and url). */
  record(j: Job): RequestRecord {
    return {
      requestId: j.requestId,
      url: j.url,
      endpoint: j.endpoint,
      status: j.status,
      createdAt: iso(j.createdAt),
      ...(j.completedAt !== undefined ? { completedAt: iso(j.completedAt) } : {}),
      cost: j.cost,
      inputs: j.inputs,
      ...(j.error ? { error: j.error } : {}),
    };
  }

  /**
   * The record as JSON bytes, made once per state of the job: a queued job is polled many
   * times over (§3: about every 5 s, by every client), and its record can carry a list of 1,000
   * addresses (46 KB), which serialising on every poll made the slowest part of the server.
   * The state is every field that changes after acceptance, so a record never goes stale.
   */
  recordJson(j: Job): Buffer {
    const state = `${j.status}\n${j.url}\n${j.completedAt ?? ''}\n${j.error ?? ''}`;
    const hit = this.wire.get(j);
    if (hit?.state === state) return hit.bytes;
    const bytes = Buffer.from(JSON.stringify(this.record(j)));
    this.wire.set(j, { state, bytes });
    return bytes;
  }

  /** The key's records, newest first, as one JSON array (GET /requests), from each job's bytes. */
  listJson(key: string): Buffer {
    const parts: Buffer[] = [OPEN];
    for (const j of this.list(key)) {
      if (parts.length > 1) parts.push(COMMA);
      parts.push(this.recordJson(j));
    }
    parts.push(CLOSE);
    return Buffer.concat(parts);
  }

  /** Adds n past jobs over the last days: mostly done (files made on first download), some failed. Not charged: they are history. */
  seedHistory(n: number, key: string): void {
    const queued = ROUTES.filter((e) => e.family === 'queued');
    const now = this.deps.now();
    const rng = new Rng(hash32('history', key, n, this.byId.size));
    const errors = [
      'The job timed out on the server.',
      'The upstream indexer was unavailable; try again.',
      'No data could be produced for these inputs.',
    ];
    for (let k = 0; k < n; k++) {
      const ep = queued[k % queued.length]!;
      const input = exampleInput(ep);
      const createdAt = Math.round(now - (k + 1) * rng.range(0.3, 1) * (7 * 86_400_000) / Math.max(n, 7));
      const job = this.add(key, ep, input, chargeFor(ep.id, input), newId('req_', 10), createdAt);
      if (rng.chance(0.15)) {
        job.status = 'failed';
        job.error = rng.pick(errors);
        job.completedAt = createdAt + rng.int(5_000, 300_000);
      } else {
        job.status = 'done';
        job.completedAt = createdAt + rng.int(1_000, 120_000);
        job.url = this.fileUrl(job, `${ep.id}-${job.requestId}.${fileExt(ep, input)}`);
      }
    }
  }

  close(): void {
    this.closed = true;
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
  }
}

/** The extension of an endpoint's file for these inputs (without producing it). */
function fileExt(ep: Endpoint, input: Record<string, unknown>): string {
  if (ep.id === 'toptraders') return input.output === 'txt' ? 'txt' : 'zip';
  if (ep.results.includes('csv') && ep.results.includes('txt')) return input.format === 'txt' ? 'txt' : 'csv';
  return ep.results[0] ?? 'txt';
}
