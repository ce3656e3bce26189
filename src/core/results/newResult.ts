/**
 * Putting a new result into the results folder under a name nobody holds, never over a file already
 * there: a paid result is never lost to a later one that happened to get the same name (two windows,
 * a watch and a person, a pipeline: two direct calls of one endpoint in the same second). One owner
 * for every writer of new results: the folder-wide naming lock (`.wa-naming.lock`, also taken by the
 * queued jobs' writer, src/core/jobs/resultWriter.ts, while it chooses a readable name) and the
 * exclusive save: the content goes to a private temp file first, then is moved in with a move that
 * refuses to replace (fileLock.ts renameNoReplace, a hard link), trying `-2`, `-3`… when the name is
 * taken. The result appears whole or not at all. Pure Node: no vscode import.
 */
import { randomBytes } from 'node:crypto';
import { unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { renameNoReplace, sleep, tryLock, type HeldLock, type LockOptions } from '../fileLock';

/** The folder-wide lock under which a new result's name is chosen and the result moved in. */
const NAMING_LOCK = '.wa-naming.lock';

/** Holds the results folder's naming lock, waiting while another window holds it (it is held for a few renames). */
export async function holdNamingLock(dir: string, opts: { lock?: LockOptions; waitPollMs?: number; signal?: AbortSignal } = {}): Promise<HeldLock> {
  for (;;) {
    const held = await tryLock(join(dir, NAMING_LOCK), opts.lock);
    if (held) return held;
    await sleep(opts.waitPollMs ?? 50, opts.signal);
  }
}

/**
 * Saves `data` as a new file in `dir` named by `nameFor(1)`, or `nameFor(2)`, `nameFor(3)`… when a
 * name is taken, and returns its path. Never replaces a file: the content is written to a temp file
 * beside it, then linked in under the first free name (under the naming lock, so where links are not
 * supported the check-and-rename is safe between windows too). No temp file is left behind.
 */
export async function saveNewResult(dir: string, nameFor: (i: number) => string, data: string | Uint8Array, opts: { lock?: LockOptions; waitPollMs?: number } = {}): Promise<string> {
  const tmp = join(dir, `.wa-new-${process.pid}-${randomBytes(4).toString('hex')}.tmp`);
  try {
    await writeFile(tmp, data, typeof data === 'string' ? 'utf8' : undefined);
    const naming = await holdNamingLock(dir, opts);
    try {
      for (let i = 1; ; i++) {
        const file = join(dir, nameFor(i));
        if (await renameNoReplace(tmp, file)) return file;
      }
    } finally {
      await naming.release();
    }
  } finally {
    await unlink(tmp).catch(() => undefined);
  }
}
