/**
 * Putting a new result into the results folder under a name nobody holds, never over a file already
 * there: a paid result is never lost to a later one that happened to get the same name (two windows,
 * a watch and a person, a pipeline: two direct calls of one endpoint in the same second). One owner
 * for every writer of new results: the folder-wide naming lock (`.wa-naming.lock`, also taken by the
 * queued jobs' writer, src/core/results/resultWriter.ts, while it chooses a readable name) and the
 * exclusive save: the content goes to a private temp file first, then is moved in with a move that
 * refuses to replace (fileLock.ts renameNoReplace, a hard link), trying `-2`, `-3`… when the name is
 * taken. The result appears whole or not at all. Pure Node: no vscode import.
 */
import { join } from 'node:path';
import { sleep, tryLock, type HeldLock, type LockOptions } from '../files/fileLock';
import { CancelledError } from '../errors';
import { folderInside, writeNewNamed } from '../files/writeInside';
import { l10n } from '../l10n';

/** The folder-wide lock under which a new result's name is chosen and the result moved in. */
const NAMING_LOCK = '.wa-naming.lock';

/** How long a save waits for the naming lock (held for a few renames) before it gives up with an error. */
const NAMING_WAIT_MS = 60_000;

/**
 * Holds the results folder's naming lock, waiting while another window holds it (it is held for a few
 * renames); a wait ends at `deadlineMs` (an error: the result is not saved, never saved over another)
 * or when `signal` aborts (CancelledError).
 */
export async function holdNamingLock(dir: string, opts: { lock?: LockOptions; waitPollMs?: number; signal?: AbortSignal; deadlineMs?: number } = {}): Promise<HeldLock> {
  const until = Date.now() + (opts.deadlineMs ?? NAMING_WAIT_MS);
  for (;;) {
    if (opts.signal?.aborted) throw new CancelledError();
    const held = await tryLock(join(dir, NAMING_LOCK), opts.lock);
    if (held) return held;
    if (Date.now() >= until) throw new Error(l10n.t('The results folder’s naming lock ({0}) stayed taken; nothing was saved over another result. Try again, or delete the lock file if no window is saving.', join(dir, NAMING_LOCK)));
    await sleep(opts.waitPollMs ?? 50, opts.signal);
  }
}

/**
 * Saves `data` as a new file in `dir` named by `nameFor(1)`, or `nameFor(2)`, `nameFor(3)`… when a
 * name is taken, and returns its path. Never replaces a file, never writes through a link
 * (files/writeInside.ts writeNewNamed), under the naming lock, so where links are not supported the
 * check-and-rename is safe between windows too. No temp file is left behind.
 */
export async function saveNewResult(dir: string, nameFor: (i: number) => string, data: string | Uint8Array, opts: { lock?: LockOptions; waitPollMs?: number; signal?: AbortSignal } = {}): Promise<string> {
  await folderInside(dir);
  const naming = await holdNamingLock(dir, opts);
  try {
    return await writeNewNamed(dir, '', nameFor, data);
  } finally {
    await naming.release();
  }
}
