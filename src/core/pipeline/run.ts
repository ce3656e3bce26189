/**
 * Runs a pipeline's cells in order (issue 24): references filled from earlier results on disk,
 * local steps computed here (free), calls handed to the caller's `call` (in the window, the one
 * call flow: src/vscode/calls/callService.ts), each with its plan line. A cell whose result is on
 * disk is reused unless the person asked to refresh it, so a re-run never pays twice for a step.
 *
 * Results live beside the pipeline, in `<name>.results/`: one record per cell (`<cell>.json`:
 * where its result is, what it charged, how many values its list gives) and the local steps'
 * lists. The pipeline file itself never holds a result. Pure apart from that folder.
 */
import { chmod, readFile, rm } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { z } from 'zod';
import { addressSetOf, checkChains, combine, listText } from '../addressLists/addressSets';
import { findEndpoint, validateInput, type Endpoint } from '../spec/catalog';
import { validateInputSliced } from '../spec/listCheck';
import { quote, type QuoteContext } from '../money/pricing';
import type { QueryBody } from '../spec/queryModel';
import type { QueryRun } from '../query/runCache';
import type { ReadOptions } from '../results/readResult';
import { asReference, checkPipeline, PIPELINE_EXTENSION, referencesOf, type CallCell, type PipelineCell, type PipelineFile, type Reference } from './format';
import { planPipeline, type KnownAnswer, type Plan } from './plan';
import { cellRefusal, type Approval } from '../money/approval';
import { filterResult } from './filter';
import { resolveReference, resolveReferenceList, type Resolved } from './resolve';
import { errorText } from '../errors';
import { l10n } from '../l10n';
import { toldOutcome } from '../calls/outcome';
import { folderInside, isFileInside, replaceableInside, replaceInside } from '../files/writeInside';
import { lazySchema } from '../lazySchema';

/** What a cell's run left on disk. */
export const CellRecord = lazySchema(() => z.object({
  cell: z.string(),
  endpointId: z.string().optional(),
  resultPath: z.string(),
  credits: z.number(),
  /** How many values its list gives (its address column's distinct addresses): what a later plan prices by. */
  size: z.number(),
  at: z.string(),
}));
export type CellRecord = z.infer<typeof CellRecord>;

/** The folder beside a pipeline file where its results are kept: `x.wapipe.json` → `x.results`. */
export function resultsDirOf(pipelinePath: string): string {
  const base = path.basename(pipelinePath);
  const stem = base.endsWith(PIPELINE_EXTENSION) ? base.slice(0, -PIPELINE_EXTENSION.length) : base.replace(/\.[^.]*$/u, '');
  return path.join(path.dirname(pipelinePath), `${stem}.results`);
}

function recordFile(dir: string, cell: string): string {
  return path.join(dir, `${cell}.json`);
}

/**
 * The record of a cell whose result is still on disk, or undefined. A record can name any path (a
 * repository may hold a planted one): its result is read only when it is a file inside the pipeline's
 * results folder or one of `roots` (the window's results folder, where calls put theirs), through no
 * link (issue 30.9).
 */
export async function readRecord(dir: string, cell: string, roots: readonly string[] = []): Promise<CellRecord | undefined> {
  try {
    if (!(await isFileInside([dir], recordFile(dir, cell)))) return undefined;
    const r = CellRecord.parse(JSON.parse(await readFile(recordFile(dir, cell), 'utf8')));
    return (await isFileInside([dir, ...roots], r.resultPath)) ? r : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The results folder `dir`, made when missing and checked: it and what is written in it are never
 * links (issue 30.8: a repository's planted links made a free Run All write outside the workspace).
 */
async function resultsFolder(dir: string): Promise<string> {
  return folderInside(path.dirname(dir), path.basename(dir));
}

/** Writes (or rewrites) `name` in the results folder, never through a link. */
async function writeInResults(dir: string, name: string, data: string | Uint8Array | { readonly copyOf: string }): Promise<string> {
  return replaceInside(await resultsFolder(dir), name, data);
}

/**
 * A job a cell paid for whose result had not come when the run stopped (Cancel while it ran): kept
 * so the next run adopts its result instead of paying again, as long as the cell's input is the same.
 */
const PendingJob = lazySchema(() => z.object({ cell: z.string(), endpointId: z.string(), requestId: z.string(), credits: z.number(), input: z.string(), at: z.string() }));
type PendingJob = z.infer<typeof PendingJob>;

function pendingFile(dir: string, cell: string): string {
  return path.join(dir, `${cell}.pending.json`);
}

/** The paid job a cell still waits for, or undefined. */
async function readPending(dir: string, cell: string): Promise<PendingJob | undefined> {
  try {
    return PendingJob.parse(JSON.parse(await readFile(pendingFile(dir, cell), 'utf8')));
  } catch {
    return undefined;
  }
}

/** A result of a queued job the run follows (in the window: the job store), or undefined when it failed or the wait was cancelled. */
type AdoptJob = (requestId: string, signal?: AbortSignal) => Promise<{ readonly resultPath: string } | undefined>;

async function writeRecord(dir: string, r: CellRecord): Promise<void> {
  await writeInResults(dir, `${r.cell}.json`, `${JSON.stringify(r, null, 2)}\n`);
}

/** Forgets a cell's result (the file of a call stays where the call flow put it). */
export async function forgetRecord(dir: string, cell: string): Promise<void> {
  await rm(recordFile(dir, cell), { force: true });
}

/** The cells whose results are on disk, with their lists' sizes: what the plan prices exactly. */
async function onDisk(file: PipelineFile, dir: string, roots: readonly string[]): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  for (const c of file.cells) {
    if (typeof c === 'string') continue;
    const r = await readRecord(dir, c.name, roots);
    if (r) out.set(c.name, r.size);
  }
  return out;
}

/** What a call cell's send came to. */
export type CallResult =
  | { readonly status: 'done'; readonly credits: number; readonly resultPath: string }
  /**
   * `requestId`: a queued job that was accepted (paid) before the run stopped; it goes on, and the next run adopts its result.
   * `notSent`: the call flow refused or was cancelled before sending (a budget, the ceiling, the approval).
   */
  | { readonly status: 'stopped'; readonly message: string; readonly credits?: number; readonly requestId?: string; readonly notSent?: true };

/** Sends one call (the window's call flow); `approval` is the cell's plan line (undefined for a free call). */
export type CallCellFn = (cell: CallCell, ep: Endpoint, input: Record<string, unknown>, approval: Approval | undefined) => Promise<CallResult>;

export type CellEvent =
  | { readonly kind: 'running'; readonly index: number; readonly cell: string }
  | { readonly kind: 'done'; readonly index: number; readonly cell: string; readonly record: CellRecord; readonly reused: boolean }
  | { readonly kind: 'stopped'; readonly index: number; readonly cell: string; readonly message: string };

interface RunOptions {
  readonly dir: string;
  /** Folders besides `dir` whose files a record may name (the window's results folder, where calls put theirs). */
  readonly roots?: readonly string[];
  readonly plan: Plan;
  /** The plan's approvals (core/money/approval.ts planApprovals), by cell name. */
  readonly approvals: ReadonlyMap<string, Approval>;
  readonly call: CallCellFn;
  readonly refresh?: ReadonlySet<string>;
  readonly signal?: AbortSignal;
  readonly read?: ReadOptions;
  readonly onEvent?: (e: CellEvent) => void;
  /** Only these cells (by index) are run; earlier results are read from disk. Default: all. */
  readonly only?: ReadonlySet<number>;
  /** The Wallet Database answer of the same query from this refresh period (in the window: QueryRunCache.lookup for the connection). */
  readonly lastAnswer?: LastAnswer;
  /**
   * Paid cells sent with no plan line: the call flow asks their price as for one call (Run Cell on
   * a lone Wallet Database cell whose match count the plan cannot know).
   */
  readonly askAlone?: ReadonlySet<string>;
  /** The clock a Wallet Database answer's refresh period is judged by (default Date.now; tests give the sandbox's). */
  readonly now?: () => number;
  /** Follows a job a cell already paid for (a run cancelled while it ran), so its result is adopted, not paid again. */
  readonly adopt?: AdoptJob;
}

/** Looks a Wallet Database query's answer of the current refresh period up: the query files' own rule. */
export type LastAnswer = (ep: Endpoint, body: QueryBody) => Promise<QueryRun | undefined>;

interface RunSummary {
  /** Credits charged by this run (reused cells charge nothing). */
  readonly charged: number;
  readonly stopped?: { readonly index: number; readonly cell: string; readonly message: string };
}

/** Runs the cells in order; stops at the first cell that fails, goes over its line or is cancelled (what was paid is kept). */
export async function runPipeline(file: PipelineFile, opts: RunOptions): Promise<RunSummary> {
  const problems = checkPipeline(file);
  const first = problems[0];
  if (first) return stop(opts, first.index, first.name ?? `cell ${first.index + 1}`, first.message, 0);
  let charged = 0;
  const records = new Map<string, CellRecord>();
  for (const [index, c] of file.cells.entries()) {
    if (typeof c === 'string') continue;
    const refresh = opts.refresh?.has(c.name) === true;
    const had = await readRecord(opts.dir, c.name, opts.roots);
    if (opts.only && !opts.only.has(index)) {
      if (had) records.set(c.name, had);
      continue;
    }
    if (opts.signal?.aborted) return stop(opts, index, c.name, 'Cancelled: the run stopped before this cell; what was paid is kept.', charged);
    if (had && !refresh) {
      records.set(c.name, had);
      opts.onEvent?.({ kind: 'done', index, cell: c.name, record: had, reused: true });
      continue;
    }
    opts.onEvent?.({ kind: 'running', index, cell: c.name });
    try {
      const r = await runCell(c, records, opts);
      if ('stopped' in r) return stop(opts, index, c.name, r.stopped, charged + r.credits);
      charged += r.record.credits;
      records.set(c.name, r.record);
      await writeRecord(opts.dir, r.record);
      opts.onEvent?.({ kind: 'done', index, cell: c.name, record: r.record, reused: r.reused === true });
    } catch (e) {
      // Cancel inside a local step (a read in the table worker) ends it where it is; nothing of it is kept.
      if (opts.signal?.aborted) return stop(opts, index, c.name, 'Cancelled while this cell ran; nothing of it was kept, what was paid before it is kept.', charged);
      return stop(opts, index, c.name, errorText(e), charged);
    }
  }
  return { charged };
}

function stop(opts: RunOptions, index: number, cell: string, message: string, charged: number): RunSummary {
  opts.onEvent?.({ kind: 'stopped', index, cell, message });
  return { charged, stopped: { index, cell, message } };
}

async function resolve(ref: Reference, records: ReadonlyMap<string, CellRecord>, opts: RunOptions): Promise<Resolved> {
  return resolveReference(ref, resultOf(ref, records), readOptions(opts));
}

/** The result an earlier cell's reference reads. */
function resultOf(ref: Reference, records: ReadonlyMap<string, CellRecord>): string {
  const src = records.get(ref.from);
  if (!src) throw new Error(l10n.t('“{0}” has no result yet: run it first.', ref.from));
  return src.resultPath;
}

function readOptions(opts: RunOptions): ReadOptions {
  return { ...opts.read, ...(opts.signal ? { signal: opts.signal } : {}) };
}

type CellRun = { record: CellRecord; reused?: boolean } | { stopped: string; credits: number };

async function runCell(c: PipelineCell, records: ReadonlyMap<string, CellRecord>, opts: RunOptions): Promise<CellRun> {
  const at = new Date().toISOString();
  if ('take' in c) {
    // Written from the list as it crossed from the worker: the host makes no string per address.
    const r = await resolveReferenceList(c.take, resultOf(c.take, records), readOptions(opts));
    const file = await writeInResults(opts.dir, `${c.name}.txt`, await r.file());
    return { record: { cell: c.name, resultPath: file, credits: 0, size: r.count, at } };
  }
  if ('filter' in c) {
    const src = records.get(c.filter.from);
    if (!src) throw new Error(l10n.t('“{0}” has no result yet: run it first.', c.filter.from));
    const file = await replaceableInside(await resultsFolder(opts.dir), `${c.name}.csv`);
    await filterResult(src.resultPath, c.filter.where, file, c.filter.from, readOptions(opts));
    return { record: { cell: c.name, resultPath: file, credits: 0, size: await sizeOf(file, opts), at } };
  }
  if ('sets' in c) {
    const refs = referencesOf(c);
    const sets = [];
    for (const ref of refs) {
      const r = await resolve(ref, records, opts);
      if (!r.chain) throw new Error(l10n.t('“{0}” gives no addresses to combine (column “{1}”).', ref.from, r.column));
      sets.push(addressSetOf(ref.from, r.column, r.chain, r.values));
    }
    const mixed = checkChains(sets);
    if (mixed) throw new Error(mixed);
    return { record: await writeList(opts.dir, c.name, combine(c.sets.op, sets), at) };
  }
  const ep = findEndpoint(c.call);
  if (!ep) throw new Error(l10n.t('“{0}” is not an endpoint of the service.', c.call));
  const raw: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(c.inputs)) {
    const ref = asReference(v);
    raw[k] = ref ? (await resolve(ref, records, opts)).values : v;
  }
  // A previous cell's 100,000 addresses checked a slice at a time (issue 34 item 4).
  const v = await validateInputSliced(ep, raw);
  if (!v.ok) return { stopped: toldOutcome({ status: 'invalid', errors: v.errors }).message, credits: 0 };
  let ctx: QuoteContext = ep.paged ? { pages: 1 } : {};
  if (ep.price.kind === 'perMatch') {
    // The query files' rule: the same query's answer from this refresh period opens free; refreshed, its count prices it exactly.
    const body = v.input.query as QueryBody;
    const last = await opts.lastAnswer?.(ep, body);
    if (last && opts.refresh?.has(c.name) !== true) {
      const file = await reuseAnswer(opts.dir, c.name, last);
      return { record: { cell: c.name, endpointId: ep.id, resultPath: file, credits: 0, size: await sizeOf(file, opts), at }, reused: true };
    }
    if (last) ctx = { knownMatches: last.total, matchesAt: last.at, now: (opts.now ?? Date.now)() };
  }
  // A job this cell paid for in a run cancelled while it ran: its result is adopted, nothing is sent again.
  const inputKey = JSON.stringify(v.input);
  const pending = await readPending(opts.dir, c.name);
  if (pending && pending.input === inputKey && opts.adopt) {
    const got = await opts.adopt(pending.requestId, opts.signal);
    if (opts.signal?.aborted) return { stopped: `Cancelled while waiting for ${pending.requestId}, which was paid and goes on; the next run adopts its result.`, credits: 0 };
    await rm(pendingFile(opts.dir, c.name), { force: true });
    if (got) return { record: { cell: c.name, endpointId: ep.id, resultPath: got.resultPath, credits: 0, size: await sizeOf(got.resultPath, opts), at }, reused: true };
  }
  const approval = opts.approvals.get(c.name);
  const alone = opts.askAlone?.has(c.name) === true && approval === undefined;
  if (ep.price.kind !== 'free' && !alone) {
    // The one owner decides: this very cell (endpoint and inputs as written), within its line.
    const q = quote(ep, v.input, ctx);
    const over = cellRefusal(approval, c, ep.id, q.atMost ?? q.credits, q.exact || q.atMost !== undefined);
    if (over) return { stopped: over, credits: 0 };
  }
  if (opts.signal?.aborted) return { stopped: 'Cancelled: nothing was sent for this cell; what was paid is kept.', credits: 0 };
  const out = await opts.call(c, ep, v.input, approval);
  if (out.status === 'stopped') {
    if (out.requestId && (out.credits ?? 0) > 0) {
      const job: PendingJob = { cell: c.name, endpointId: ep.id, requestId: out.requestId, credits: out.credits ?? 0, input: inputKey, at };
      await writeInResults(opts.dir, `${c.name}.pending.json`, `${JSON.stringify(job, null, 2)}\n`);
    }
    return { stopped: out.message, credits: out.credits ?? 0 };
  }
  const size = await sizeOf(out.resultPath, opts);
  return { record: { cell: c.name, endpointId: ep.id, resultPath: out.resultPath, credits: out.credits, size, at } };
}

/** The size of a result's list (what a reference to it with no "top" gives), for the next plan. */
async function sizeOf(resultPath: string, opts: RunOptions): Promise<number> {
  try {
    return (await resolveReferenceList({ from: '' }, resultPath, readOptions(opts))).count;
  } catch {
    return 0;
  }
}

/** A Wallet Database answer of this refresh period, copied beside the pipeline as the cell's result: nothing sent, nothing charged. */
async function reuseAnswer(dir: string, cell: string, run: QueryRun): Promise<string> {
  return writeInResults(dir, `${cell}.answer.json`, { copyOf: run.resultPath && existsSync(run.resultPath) ? run.resultPath : run.answerPath });
}

async function writeList(dir: string, cell: string, values: readonly string[], at: string): Promise<CellRecord> {
  const file = await writeInResults(dir, `${cell}.txt`, listText(values));
  return { cell, resultPath: file, credits: 0, size: values.length, at };
}

/** The Wallet Database cells whose very query has an answer from this refresh period (by `lastAnswer`, the query files' rule). */
async function knownAnswers(file: PipelineFile, lastAnswer: LastAnswer): Promise<Map<string, KnownAnswer>> {
  const out = new Map<string, KnownAnswer>();
  for (const c of file.cells) {
    if (typeof c === 'string' || !('call' in c)) continue;
    const ep = findEndpoint(c.call);
    if (ep?.price.kind !== 'perMatch') continue;
    const v = validateInput(ep, c.inputs);
    const run = v.ok ? await lastAnswer(ep, v.input.query as QueryBody) : undefined;
    if (run) out.set(c.name, { total: run.total, at: run.at, returned: Math.min(run.total, (v.ok && (v.input.query as QueryBody).limit) || run.total) });
  }
  return out;
}

/** The plan of a pipeline as it stands on disk (results reused unless refreshed; Wallet Database answers of this hour free). */
export async function planOnDisk(file: PipelineFile, dir: string, refresh?: ReadonlySet<string>, lastAnswer?: LastAnswer, now: () => number = Date.now, roots: readonly string[] = []): Promise<Plan> {
  const answers = lastAnswer ? await knownAnswers(file, lastAnswer) : undefined;
  const paid = new Map<string, string>();
  for (const c of file.cells) {
    const p = typeof c === 'string' ? undefined : await readPending(dir, c.name);
    if (p) paid.set(p.cell, p.requestId);
  }
  return planPipeline(file, { onDisk: await onDisk(file, dir, roots), ...(refresh ? { refresh } : {}), ...(answers ? { answers } : {}), ...(paid.size > 0 ? { paid } : {}), now: now() });
}

/**
 * Where an untitled pipeline's results are kept: a folder of its own under `storage` (the extension's
 * global storage), made private (0700), never a link (issue 30.12: one fixed folder in the system's
 * temp directory was shared by every user of the machine).
 */
export async function untitledResultsDir(storage: string): Promise<string> {
  const own = await folderInside(storage, 'untitled-pipelines', 0o700);
  // Made before by a version that did not set the mode: private now.
  await chmod(own, 0o700);
  return resultsDirOf(path.join(own, 'untitled.wapipe.json'));
}
