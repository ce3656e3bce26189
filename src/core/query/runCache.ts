/**
 * Answers of Wallet Database queries, kept on disk with when they ran, the total and the credits
 * charged. The same query (canonicalQuery + chain + profile scope) run again before the next hourly
 * refresh returns the same wallets (§8.5), so its answer is opened again for free and its match
 * count makes the price of running it again exact.
 *
 * A run is current only while the clock is in the same UTC hour as the run: the refresh falls on
 * the top of the hour (src/core/spec/refresh.ts, the rule the sandbox follows too), not an hour after
 * the run. A run at 14:50 is stale at 15:00.
 *
 * Past its hour a run's count is still worth saying, as an estimate with its date (issue 35 item
 * 1): the last count of each query, and of each query file, is kept apart from the runs (see
 * LAST_COUNTS below: where, how long, how many), without the answer.
 */
import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import type { Chain } from '../spec/addresses';
import { sameRefreshPeriod } from '../spec/refresh';
import { hashKey, readJson, writeJsonAtomic } from './diskJson';
import { canonicalQuery, type QueryBody } from '../spec/queryModel';
import { lazySchema } from '../lazySchema';

const Entry = lazySchema(() => z.object({
  key: z.string(),
  scope: z.string(),
  chain: z.enum(['main', 'alt']),
  query: z.string(),
  at: z.number(),
  total: z.number().int().nonnegative(),
  charged: z.number().nonnegative(),
  /** Where the run's result file was saved (it may have been moved or deleted since). */
  resultPath: z.string().optional(),
  /** The copy of the answer this cache keeps, so it opens even when the result file is gone. */
  answerPath: z.string(),
}));
export type QueryRun = z.infer<typeof Entry>;

/** The cache key of a query on a chain at a service. */
export function runKey(scope: string, chain: Chain, body: QueryBody): string {
  return hashKey(`${scope}\n${chain}\n${canonicalQuery(body)}`);
}

/** Whether a run's answer is still what the service returns at `now`: no hourly refresh has fallen since. */
function isFresh(run: QueryRun, now: number): boolean {
  return now >= run.at && sameRefreshPeriod(run.at, now);
}

/** "just now", "1 minute ago", "42 minutes ago". */
export function ago(at: number, now: number): string {
  const min = Math.floor((now - at) / 60_000);
  return min <= 0 ? 'just now' : `${min} minute${min === 1 ? '' : 's'} ago`;
}

/**
 * The last counts, in one place: `last-counts.json` in this cache's folder (the extension's global
 * storage), each kept 30 days after its run, the newest 200 at most. An estimate only: two windows
 * writing at once may lose one entry, which costs nothing but a less informed price question.
 */
export const LAST_COUNTS = { file: 'last-counts.json', keptMs: 30 * 24 * 3_600_000, most: 200 } as const;

const Count = lazySchema(() => z.object({ at: z.number(), total: z.number().int().nonnegative() }));
const Counts = lazySchema(() => z.record(z.string(), Count));

/** The last known count of a query before this refresh period: of the same query, or of the same file (its query since changed). */
interface LastCount {
  readonly at: number;
  readonly total: number;
  readonly of: 'query' | 'file';
}

function countKeys(scope: string, chain: Chain, body: QueryBody, file: string | undefined): { query: string; file?: string } {
  return { query: `q:${runKey(scope, chain, body)}`, ...(file !== undefined ? { file: `f:${hashKey(`${scope}\n${chain}\n${file}`)}` } : {}) };
}

export class QueryRunCache {
  constructor(
    private readonly dir: string,
    private readonly now: () => number = Date.now,
  ) {}

  private metaFile(key: string): string {
    return join(this.dir, `run-${key}.json`);
  }

  private answerFile(key: string): string {
    return join(this.dir, `run-${key}.answer.json`);
  }

  /** The run of this query in the current refresh period, or undefined. */
  async lookup(scope: string, chain: Chain, body: QueryBody): Promise<QueryRun | undefined> {
    const key = runKey(scope, chain, body);
    const r = Entry.safeParse(await readJson(this.metaFile(key)));
    if (!r.success || r.data.key !== key || r.data.query !== canonicalQuery(body)) return undefined;
    return isFresh(r.data, this.now()) ? r.data : undefined;
  }

  /** Records a run and its answer (a copy, so the cache does not depend on the results folder); `file`: the query file it ran from. */
  async record(run: Omit<QueryRun, 'key' | 'query' | 'answerPath'> & { body: QueryBody; answer: unknown; file?: string }): Promise<QueryRun> {
    const { body, answer, file, ...rest } = run;
    const key = runKey(run.scope, run.chain, body);
    const entry: QueryRun = { ...rest, key, query: canonicalQuery(body), answerPath: this.answerFile(key) };
    await writeJsonAtomic(entry.answerPath, answer);
    await writeJsonAtomic(this.metaFile(key), entry);
    await this.keepCount(countKeys(run.scope, run.chain, body, file), { at: run.at, total: run.total });
    await this.prune();
    return entry;
  }

  /**
   * The last count of this query, else of this query file, from any earlier hour (LAST_COUNTS):
   * an estimate of the next answer's count, never its price.
   */
  async lastCount(scope: string, chain: Chain, body: QueryBody, file?: string): Promise<LastCount | undefined> {
    const keys = countKeys(scope, chain, body, file);
    const counts = await this.counts();
    const q = counts[keys.query];
    if (q) return { ...q, of: 'query' };
    const f = keys.file === undefined ? undefined : counts[keys.file];
    return f ? { ...f, of: 'file' } : undefined;
  }

  private async counts(): Promise<z.infer<typeof Counts>> {
    const r = Counts.safeParse(await readJson(join(this.dir, LAST_COUNTS.file)));
    if (!r.success) return {};
    const now = this.now();
    return Object.fromEntries(Object.entries(r.data).filter(([, c]) => now - c.at <= LAST_COUNTS.keptMs));
  }

  private async keepCount(keys: { query: string; file?: string }, count: z.infer<typeof Count>): Promise<void> {
    const all = { ...(await this.counts()), [keys.query]: count, ...(keys.file !== undefined ? { [keys.file]: count } : {}) };
    const newest = Object.entries(all).sort(([, a], [, b]) => b.at - a.at).slice(0, LAST_COUNTS.most);
    await writeJsonAtomic(join(this.dir, LAST_COUNTS.file), Object.fromEntries(newest));
  }

  /** Removes runs from past refresh periods (their answers are no longer what the service would return). */
  async prune(): Promise<void> {
    const names = (await readdir(this.dir).catch(() => [] as string[])).filter((n) => /^run-[0-9a-f]+\.json$/u.test(n));
    for (const n of names) {
      const r = Entry.safeParse(await readJson(join(this.dir, n)));
      if (r.success && isFresh(r.data, this.now())) continue;
      await rm(join(this.dir, n), { force: true });
      if (r.success) await rm(r.data.answerPath, { force: true });
      else await rm(join(this.dir, n.replace(/\.json$/u, '.answer.json')), { force: true });
    }
  }
}
