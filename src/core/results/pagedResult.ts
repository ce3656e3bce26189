/**
 * Paid pages kept on disk as they arrive. Every page of wallet activity (1 credit) and of token
 * creators (100 per creator) is paid when it is read, so a read that stops half-way (a failed
 * page, a cancel, the page budget) must not lose what was paid for: after each page the result
 * file is rewritten atomically with every row so far, the position to continue from, and the
 * pages and credits spent. `resumePaged` reads the file back and continues from that position,
 * so a page already paid is never asked for again.
 *
 * One file holds it all (no sidecar), and it opens in the table as rows: activity keeps its rows
 * under `swaps`, creators under `creators` (the keys `findRows` in table/jsonSource.ts knows).
 *
 *   const out = await startPaged(file, endpoint('wallet_activity'), { address }, { call: api.call.bind(api), maxPages: 20 });
 *   if (out.end === 'failed') … out.result?.pages are on disk; later:
 *   await resumePaged(file, { call, maxPages: remainingPages(saved) });
 */
import { access, readdir, readFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { z } from 'zod';
import type { Chain } from '../spec/addresses';
import { ENDPOINTS, endpoint, type Endpoint } from '../spec/catalog';
import { directResultName, isSidecar } from './names';
import { nthName } from '../files/naming';
import { writeJsonAtomic } from '../query/diskJson';
import { saveNewResult } from './newResult';
import { ActivityPage, CreatorsPage } from '../spec/wire';
import { errorText } from '../errors';
import { l10n } from '../l10n';
import { lazySchema } from '../lazySchema';

type Row = Record<string, unknown>;

/** Where the next page starts: a cursor (activity) or a page number (creators). */
type Position = string | number;

/** One paid call: the shape of `WalletAnalyticsApi.call` (the checked answer and the credits it cost). */
export type PageCall = (endpointId: string, input: Record<string, unknown>) => Promise<{ readonly value: unknown; readonly charged: number }>;

/** Marks a file as a paged result this module wrote (and may resume). */
const PAGED_FORMAT = 'wallet-analytics/pages@1';

/** What a paged result file holds, as read back. */
export interface PagedResult {
  readonly endpointId: string;
  readonly chain: Chain;
  /** The API the pages came from: a cursor means nothing to another server (nor the sandbox's to the real one). */
  readonly baseUrl?: string;
  /** The profile (and so the key and the account) the pages were read under: another profile on the same base URL is another account. */
  readonly profileId?: string;
  /** The validated input of the read, without its position (activity: address; creators: sort, order, columns, page_size). */
  readonly input: Readonly<Record<string, unknown>>;
  /** Pages read and paid for so far, over every run. */
  readonly pages: number;
  /** The credits charged for them. */
  readonly credits: number;
  /** Pages asked for in all (the first run's count, plus each resume's). */
  readonly asked: number;
  readonly rows: readonly Row[];
  /** Where to continue; null once the last page was read. */
  readonly next: Position | null;
  readonly startedAt: string;
  readonly updatedAt: string;
  /** Why the last run stopped before the last page, when it did (a failure's message, "cancelled", "budget"). */
  readonly stopped?: string;
}

/** Whether every page was read (nothing left to resume). */
export function isComplete(r: PagedResult): boolean {
  return r.next === null;
}

/** Pages still to read of those asked for (0 when the read reached its count or the last page). */
export function remainingPages(r: PagedResult): number {
  return isComplete(r) ? 0 : Math.max(0, r.asked - r.pages);
}

/** How one paged endpoint is read: where its position goes, what a page holds, where the next starts. */
interface Paging {
  /** The key of the rows in the file, one findRows (table/jsonSource.ts) looks for. */
  readonly rowsKey: 'swaps' | 'creators';
  /** The input field the position is sent in. */
  readonly field: 'cursor' | 'page';
  /** The key of the position in the file. */
  readonly savedAs: 'nextCursor' | 'nextPage';
  readonly noun: string;
  /** The rows of a page and where the next page starts (null: this was the last). */
  page(value: unknown, input: Readonly<Record<string, unknown>>, at: Position | undefined): { rows: Row[]; next: Position | null };
}

const ACTIVITY: Paging = {
  rowsKey: 'swaps',
  field: 'cursor',
  savedAs: 'nextCursor',
  noun: 'swap',
  page(value) {
    const p = ActivityPage.parse(value);
    return { rows: p.swaps, next: p.nextCursor ?? null };
  },
};

const CREATORS: Paging = {
  rowsKey: 'creators',
  field: 'page',
  savedAs: 'nextPage',
  noun: 'creator',
  page(value, input, at) {
    const p = CreatorsPage.parse(value);
    const size = Number(input.page_size);
    const page = typeof at === 'number' ? at : 1;
    // A short page is the last one; so is the page that reaches a total the server gave.
    const last = p.creators.length < size || (p.total !== undefined && page * size >= p.total);
    return { rows: p.creators, next: last ? null : page + 1 };
  },
};

/** How ep is read page by page, or undefined when it is not a paged endpoint. */
function pagingOf(ep: Endpoint): Paging | undefined {
  if (!ep.paged) return undefined;
  if (ep.price.kind === 'perPage') return ACTIVITY;
  if (ep.price.kind === 'perReturned') return CREATORS;
  return undefined;
}

/** Whether ep is read page by page into a kept file (wallet activity on both chains, token creators). */
function isPagedEndpoint(ep: Endpoint): boolean {
  return pagingOf(ep) !== undefined;
}

/** What a page is called in messages: "swap" or "creator". */
export function rowNoun(ep: Endpoint): string {
  return pagingOf(ep)?.noun ?? 'row';
}

function mustPage(ep: Endpoint): Paging {
  const p = pagingOf(ep);
  if (!p) throw new Error(l10n.t('{0} is not read by pages', ep.id));
  return p;
}

/** A new result file name in dir for ep, `<endpoint>-<yyyymmdd-hhmmss>.json`, never one that exists. */
export async function newPagedFile(dir: string, endpointId: string, now: Date = new Date()): Promise<string> {
  for (let i = 1; ; i++) {
    const file = join(dir, directResultName(endpointId, now, i));
    try {
      await access(file);
    } catch {
      return file;
    }
  }
}

// ---- the file ----

const Stored = lazySchema(() => z.looseObject({
  format: z.literal(PAGED_FORMAT),
  endpointId: z.string(),
  chain: z.enum(['main', 'alt']),
  baseUrl: z.string().optional(),
  profileId: z.string().optional(),
  input: z.record(z.string(), z.unknown()),
  pages: z.number().int().nonnegative(),
  credits: z.number().nonnegative(),
  asked: z.number().int().nonnegative(),
  complete: z.boolean(),
  startedAt: z.string(),
  updatedAt: z.string(),
  stopped: z.string().optional(),
  swaps: z.array(z.record(z.string(), z.unknown())).optional(),
  creators: z.array(z.record(z.string(), z.unknown())).optional(),
  nextCursor: z.string().min(1).nullable().optional(),
  nextPage: z.number().int().positive().nullable().optional(),
}));

function toDisk(r: PagedResult): Record<string, unknown> {
  const p = mustPage(endpoint(r.endpointId));
  return {
    format: PAGED_FORMAT,
    endpointId: r.endpointId,
    chain: r.chain,
    ...(r.baseUrl !== undefined ? { baseUrl: r.baseUrl } : {}),
    ...(r.profileId !== undefined ? { profileId: r.profileId } : {}),
    // Activity files have always led with the wallet: kept for readers of the older shape.
    ...(typeof r.input.address === 'string' ? { address: r.input.address } : {}),
    input: r.input,
    pages: r.pages,
    credits: r.credits,
    asked: r.asked,
    complete: isComplete(r),
    [p.savedAs]: r.next,
    startedAt: r.startedAt,
    updatedAt: r.updatedAt,
    ...(r.stopped !== undefined ? { stopped: r.stopped } : {}),
    [p.rowsKey]: r.rows,
  };
}

/** Reads a paged result file; throws with a readable message when it is not one. */
export async function loadPaged(file: string): Promise<PagedResult> {
  let json: unknown;
  try {
    json = JSON.parse(await readFile(file, 'utf8'));
  } catch (e) {
    throw new Error(l10n.t('{0} cannot be read as JSON: {1}', file, errorText(e)), { cause: e });
  }
  const s = Stored.safeParse(json);
  if (!s.success) throw new Error(l10n.t('{0} is not a saved paged result (activity or token creators) that can be resumed.', file));
  const d = s.data;
  let ep: Endpoint;
  try {
    ep = endpoint(d.endpointId);
  } catch {
    throw new Error(l10n.t('{0} names an unknown endpoint ({1}).', file, d.endpointId));
  }
  const p = pagingOf(ep);
  if (!p) throw new Error(l10n.t('{0}: {1} is not read by pages.', file, d.endpointId));
  const next = d[p.savedAs];
  const rows = d[p.rowsKey];
  if (next === undefined || rows === undefined) throw new Error(l10n.t('{0} has no {1} or no {2}.', file, p.savedAs, p.rowsKey));
  return {
    endpointId: d.endpointId,
    chain: d.chain,
    ...(d.baseUrl !== undefined ? { baseUrl: d.baseUrl } : {}),
    ...(d.profileId !== undefined ? { profileId: d.profileId } : {}),
    input: d.input,
    pages: d.pages,
    credits: d.credits,
    asked: d.asked,
    rows,
    next,
    startedAt: d.startedAt,
    updatedAt: d.updatedAt,
    ...(d.stopped !== undefined ? { stopped: d.stopped } : {}),
  };
}

// ---- reading ----

interface ReadOptions {
  readonly call: PageCall;
  /** The most pages this run reads. */
  readonly maxPages: number;
  /** Checked between pages: a page already asked for is read (and kept) to the end. */
  readonly cancelled?: () => boolean;
  /** Told after each page is on disk. */
  readonly onPage?: (saved: PagedResult, page: { readonly rows: number; readonly credits: number }) => void | Promise<void>;
  readonly now?: () => Date;
}

/**
 * How a run ended: `last` (the last page was read), `budget` (maxPages read, more remain),
 * `cancelled`, or `failed` (`error` says why; what was paid before it is on disk).
 */
type ReadEnd = 'last' | 'budget' | 'cancelled' | 'failed';

export interface ReadOutcome {
  readonly end: ReadEnd;
  readonly file: string;
  /** What the file holds now: undefined when no page was ever paid (and so nothing was written). */
  readonly result: PagedResult | undefined;
  /** This run alone: pages paid and their credits (a paid page that could not be saved counts here, not in result). */
  readonly pages: number;
  readonly credits: number;
  readonly error?: unknown;
  /** True when the failure was saving the file, after the page was paid. */
  readonly unsaved?: boolean;
}

/**
 * Reads up to opts.maxPages pages of ep from the start (input's own cursor or page) into a new file:
 * `file` is the proposed name (newPagedFile); the outcome's `file` is where the pages are.
 */
export async function startPaged(file: string, ep: Endpoint, input: Record<string, unknown>, opts: ReadOptions & { readonly baseUrl?: string; readonly profileId?: string }): Promise<ReadOutcome> {
  const p = mustPage(ep);
  const { [p.field]: at, ...rest } = input;
  const first: Position | undefined = typeof at === 'string' || typeof at === 'number' ? at : undefined;
  return readInto(file, ep, { base: rest, at: first, kept: undefined, asked: opts.maxPages, baseUrl: opts.baseUrl, profileId: opts.profileId }, opts);
}

/** Continues the read saved in file from its saved position, appending; a page already kept is never read again. */
export async function resumePaged(file: string, opts: ReadOptions): Promise<ReadOutcome> {
  const saved = await loadPaged(file);
  if (saved.next === null) return { end: 'last', file, result: saved, pages: 0, credits: 0 };
  const ep = endpoint(saved.endpointId);
  return readInto(file, ep, { base: saved.input, at: saved.next, kept: saved, asked: saved.pages + opts.maxPages, baseUrl: saved.baseUrl, profileId: saved.profileId }, opts);
}

interface Start {
  readonly base: Readonly<Record<string, unknown>>;
  readonly at: Position | undefined;
  readonly kept: PagedResult | undefined;
  readonly asked: number;
  readonly baseUrl: string | undefined;
  readonly profileId: string | undefined;
}

async function readInto(proposed: string, ep: Endpoint, start: Start, opts: ReadOptions): Promise<ReadOutcome> {
  const p = mustPage(ep);
  // A new read's name is only proposed (newPagedFile found it free): the first paid page is saved
  // exclusively (saveNewResult: never over a file already there, -2… when taken), so two reads of
  // one endpoint in the same second never overwrite each other's paid pages. Later pages replace
  // this read's own file.
  let file = proposed;
  const now = opts.now ?? (() => new Date());
  let kept = start.kept;
  let at = start.at;
  let pages = 0;
  let credits = 0;
  // One array of rows, appended to as pages arrive and written whole after each (kept.rows is it).
  const rows: Row[] = kept ? [...kept.rows] : [];
  const stop = async (end: ReadEnd, extra: { error?: unknown; unsaved?: boolean } = {}): Promise<ReadOutcome> => {
    if (kept && end !== 'last') {
      const why = end === 'failed' ? errorText(extra.error) : end;
      if (!extra.unsaved) {
        // Best effort: the pages are already on disk; only the note of why the run stopped would be lost.
        const noted: PagedResult = { ...kept, stopped: why };
        try {
          await writeJsonAtomic(file, toDisk(noted));
          kept = noted;
        } catch {
          // keep the file as it was
        }
      }
    }
    return { end, file, result: kept, pages, credits, ...extra };
  };
  for (let n = 0; n < opts.maxPages; n++) {
    if (opts.cancelled?.()) return stop('cancelled');
    const input: Record<string, unknown> = at === undefined ? { ...start.base } : { ...start.base, [p.field]: at };
    let page: { rows: Row[]; next: Position | null };
    let charged: number;
    try {
      const got = await opts.call(ep.id, input);
      charged = got.charged;
      page = p.page(got.value, start.base, at);
    } catch (error) {
      return stop('failed', { error });
    }
    pages++;
    credits += charged;
    rows.push(...page.rows);
    const t = now().toISOString();
    const next: PagedResult = {
      endpointId: ep.id,
      chain: ep.chain,
      ...(start.baseUrl !== undefined ? { baseUrl: start.baseUrl } : {}),
      ...(start.profileId !== undefined ? { profileId: start.profileId } : {}),
      input: start.base,
      pages: (kept?.pages ?? 0) + 1,
      credits: (kept?.credits ?? 0) + charged,
      asked: Math.max(start.asked, (kept?.pages ?? 0) + 1),
      rows,
      next: page.next,
      startedAt: kept?.startedAt ?? t,
      updatedAt: t,
    };
    try {
      if (kept === undefined) file = await saveNewResult(dirname(proposed), (i) => nthName(basename(proposed), i), `${JSON.stringify(toDisk(next))}\n`);
      else await writeJsonAtomic(file, toDisk(next));
    } catch (error) {
      // The file still holds the pages before this one; so must what is returned.
      rows.length -= page.rows.length;
      return stop('failed', { error, unsaved: true });
    }
    kept = next;
    await opts.onPage?.(kept, { rows: page.rows.length, credits: charged });
    if (page.next === null) return stop('last');
    at = page.next;
  }
  return stop('budget');
}

// ---- finding what can be resumed ----

/** Paged results in dir that can be resumed (more pages remain), newest first; other files are skipped. */
export async function listResumable(dir: string): Promise<{ readonly file: string; readonly result: PagedResult }[]> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return [];
  }
  const prefixes = ENDPOINTS.filter(isPagedEndpoint).map((e) => `${e.id}-`);
  const out: { file: string; result: PagedResult }[] = [];
  for (const name of names) {
    if (!name.endsWith('.json') || isSidecar(name) || !prefixes.some((p) => name.startsWith(p))) continue;
    try {
      const result = await loadPaged(join(dir, name));
      if (!isComplete(result)) out.push({ file: join(dir, name), result });
    } catch {
      // not a paged result (an older activity file, a half-written copy): nothing to resume
    }
  }
  return out.sort((a, b) => b.result.updatedAt.localeCompare(a.result.updatedAt));
}
