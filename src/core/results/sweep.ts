/**
 * Start-up sweep of what a crash leaves in the results folder: a kill during a download leaves its
 * `.part` file (up to the download limit), a kill during extraction its temporary folder, a kill
 * while writing a sidecar its `.tmp`. Nothing else would ever remove them.
 *
 * Only our own temporary names are touched, never a result, and only when older than a few
 * minutes: another window may be downloading into the same folder right now. A live download
 * writes at least once a minute (its between-chunk timeout), so its `.part` is never that old; a
 * folder counts as old only when nothing inside it changed either, since a long entry being
 * extracted changes its file, not the folder. A time in the future (a clock set back) counts as
 * fresh: when unsure, keep. Symbolic links are never followed nor removed.
 */
import { lstat, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { DOWNLOAD_TEMP_PREFIX } from './download';
import { UNZIP_TEMP_PREFIX } from './unzip';
import { errorText } from '../errors';

/** How old a leftover must be before it is removed. */
export const LEFTOVER_AGE_MS = 10 * 60_000;

const PART_FILE = new RegExp(`^${DOWNLOAD_TEMP_PREFIX.replace(/\./gu, '\\.')}[0-9a-f]+\\.part$`, 'u');
const UNZIP_DIR = new RegExp(`^${UNZIP_TEMP_PREFIX.replace(/\./gu, '\\.')}[A-Za-z0-9]{6}$`, 'u');
/** A sidecar or a direct answer being written atomically (writeAtomic, src/core/files/fileLock.ts): `<name>.json.<pid>.<hex>.tmp`. */
const SIDECAR_TEMP = /\.json\.\d+\.[0-9a-f]+\.tmp$/u;
/** A window's private download folder (src/core/results/resultWriter.ts): left behind when that window died. */
const CLAIM_DIR = /^\.wa-claim-.+-[0-9a-f]+$/u;

interface SweepOptions {
  /** Default LEFTOVER_AGE_MS. */
  readonly olderThanMs?: number;
  /** Now, in ms since the epoch (file times are wall-clock). Default Date.now(). */
  readonly now?: number;
}

interface SweepResult {
  /** Names removed, relative to the folder. */
  readonly removed: string[];
  /** Leftover names kept because they are recent (perhaps in use by another window). */
  readonly recent: string[];
  /** Names that could not be removed, with why. */
  readonly failed: { name: string; error: string }[];
}

/** The newest modification time in a folder's tree (the folder itself included); symlinks count by their own time. */
async function newestMtime(path: string, depth = 0): Promise<number> {
  const st = await lstat(path);
  let newest = st.mtimeMs;
  if (!st.isDirectory() || depth > 16) return newest;
  for (const name of await readdir(path)) {
    newest = Math.max(newest, await newestMtime(join(path, name), depth + 1).catch(() => Number.POSITIVE_INFINITY));
  }
  return newest;
}

/** Removes our temporaries in `folder` older than olderThanMs; a missing folder has none. Never throws. */
export async function sweepLeftovers(folder: string, opts: SweepOptions = {}): Promise<SweepResult> {
  const olderThan = opts.olderThanMs ?? LEFTOVER_AGE_MS;
  const now = opts.now ?? Date.now();
  const result: SweepResult = { removed: [], recent: [], failed: [] };
  let names: string[];
  try {
    names = await readdir(folder);
  } catch {
    return result;
  }
  for (const name of names) {
    const path = join(folder, name);
    try {
      const st = await lstat(path);
      const leftover = st.isFile() ? PART_FILE.test(name) || SIDECAR_TEMP.test(name) : st.isDirectory() && (UNZIP_DIR.test(name) || CLAIM_DIR.test(name));
      if (!leftover) continue;
      // Unreadable inside counts as changed just now (kept); a negative age (clock set back) as fresh.
      const age = now - (st.isDirectory() ? await newestMtime(path) : st.mtimeMs);
      if (!(age >= olderThan)) {
        result.recent.push(name);
        continue;
      }
      await rm(path, { recursive: true, force: true });
      result.removed.push(name);
    } catch (e) {
      result.failed.push({ name, error: errorText(e) });
    }
  }
  return result;
}
