/**
 * The queryable fields of each service, kept on disk per profile scope (one file each), so the editor
 * knows them at once after a restart and without a network. Refreshed on demand ("Refresh Query
 * Fields") or when older than a day; reading the lists is free.
 */
import { readdir, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { ColumnInfo } from '../spec/wire';
import { hashKey, readJson, writeJsonAtomic } from './diskJson';
import type { ChainColumns } from './fields';
import { lazySchema } from '../lazySchema';

/** A cached list older than this is refreshed in the background when next used. */
export const FIELD_LIST_MAX_AGE_MS = 24 * 60 * 60 * 1000;
/** Files kept (each sandbox start is a new loopback base URL). */
const KEEP_FILES = 20;

const Entry = lazySchema(() => z.object({
  scope: z.string(),
  fetchedAt: z.number(),
  main: z.array(ColumnInfo).optional(),
  alt: z.array(ColumnInfo).optional(),
}));
export type FieldCacheEntry = z.infer<typeof Entry> & ChainColumns;

export class FieldCache {
  constructor(private readonly dir: string) {}

  private file(scope: string): string {
    return join(this.dir, `fields-${hashKey(scope)}.json`);
  }

  /** The cached lists of a scope, or undefined. */
  async read(scope: string): Promise<FieldCacheEntry | undefined> {
    const r = Entry.safeParse(await readJson(this.file(scope)));
    return r.success && r.data.scope === scope ? r.data : undefined;
  }

  async write(entry: FieldCacheEntry): Promise<void> {
    await writeJsonAtomic(this.file(entry.scope), entry);
    await this.prune();
  }

  /** Keeps the most recently written files. */
  private async prune(): Promise<void> {
    const names = (await readdir(this.dir).catch(() => [] as string[])).filter((n) => /^fields-[0-9a-f]+\.json$/u.test(n));
    if (names.length <= KEEP_FILES) return;
    const dated = await Promise.all(names.map(async (n) => ({ n, t: (await stat(join(this.dir, n)).catch(() => undefined))?.mtimeMs ?? 0 })));
    dated.sort((a, b) => b.t - a.t);
    for (const { n } of dated.slice(KEEP_FILES)) await rm(join(this.dir, n), { force: true });
  }
}
