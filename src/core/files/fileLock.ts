/**
 * An exclusive claim on a piece of work shared by several VS Code windows (each its own process):
 * a lock file created with `open(…, 'wx')`, which exactly one process can create. Its owner
 * touches it while it works (a heartbeat), so a lock nobody touched for `staleMs`, or whose owner
 * process on this machine is gone, is known to be abandoned and can be taken over.
 *
 * Also the one "never replace" move: a rename that refuses to overwrite a file another window put there.
 */
import { randomBytes } from 'node:crypto';
import { lstat, open, readFile, rename, rm, unlink, utimes, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { sleep as abortableSleep } from '../abort';
import { CancelledError } from '../errors';
import { moveNoReplace } from './writeInside';

export interface LockOptions {
  /** A lock untouched for this long is abandoned (default 3 minutes). */
  readonly staleMs?: number;
  /** How often the owner touches its lock (default a quarter of staleMs). */
  readonly heartbeatMs?: number;
  /** Wall clock for the staleness check (default Date.now). */
  readonly now?: () => number;
}

export interface HeldLock {
  readonly path: string;
  /** Stops the heartbeat and deletes the lock file (only if it is still ours). */
  release(): Promise<void>;
  /** Whether the lock file is still ours (another process may have taken it over as abandoned). */
  stillHeld(): Promise<boolean>;
}

interface Owner {
  pid: number;
  host: string;
  token: string;
}

const code = (e: unknown): unknown => (e as { code?: unknown }).code;

/** Whether the lock's owner is a live process on this machine (only then can a heartbeat be expected from it). */
function ownerAliveHere(owner: Owner | undefined): boolean {
  if (!owner || owner.host !== hostname()) return false;
  if (owner.pid === process.pid) return true;
  try {
    process.kill(owner.pid, 0);
    return true;
  } catch (e) {
    return code(e) === 'EPERM';
  }
}

/** Whether the process that wrote a lock is gone (only knowable for this machine). */
function ownerGone(owner: Owner | undefined): boolean {
  if (!owner || owner.host !== hostname() || owner.pid === process.pid) return false;
  try {
    process.kill(owner.pid, 0);
    return false;
  } catch (e) {
    // EPERM: it exists but belongs to someone else.
    return code(e) === 'ESRCH';
  }
}

async function readOwner(path: string): Promise<Owner | undefined> {
  try {
    const o = JSON.parse(await readFile(path, 'utf8')) as Partial<Owner>;
    return typeof o.pid === 'number' && typeof o.host === 'string' && typeof o.token === 'string' ? { pid: o.pid, host: o.host, token: o.token } : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Takes the lock if it is free or abandoned; undefined while another live owner holds it.
 * A clock set back (a negative age) does not make a live local owner's lock stale: its next heartbeat
 * fixes the age. A lock dated in the future that no live process here will touch again, a link (even
 * dangling) or a folder at the lock's name is abandoned (issue 30.10: a planted lock blocked every save).
 */
export async function tryLock(path: string, opts: LockOptions = {}): Promise<HeldLock | undefined> {
  const staleMs = opts.staleMs ?? 180_000;
  const now = opts.now ?? Date.now;
  for (let attempt = 0; attempt < 3; attempt++) {
    const token = randomBytes(8).toString('hex');
    try {
      const fh = await open(path, 'wx');
      try {
        await fh.writeFile(JSON.stringify({ pid: process.pid, host: hostname(), token } satisfies Owner));
      } finally {
        await fh.close();
      }
      return held(path, token, opts.heartbeatMs ?? Math.max(10, Math.floor(staleMs / 4)));
    } catch (e) {
      if (code(e) !== 'EEXIST') throw e;
    }
    // lstat: a link (dangling or not) or a folder planted at the lock's name is no one's lock.
    const info = await lstat(path).catch(() => undefined);
    if (!info) continue; // released meanwhile: try again
    const owner = info.isFile() ? await readOwner(path) : undefined;
    const age = now() - info.mtimeMs;
    // Dated in the future (past a heartbeat's slack): only a live owner on this machine will fix the date; anyone else's never will.
    const future = age < -heartbeatSlack(staleMs, opts) && !ownerAliveHere(owner);
    if (info.isFile() && !future && !(age > staleMs) && !ownerGone(owner)) return undefined;
    // Abandoned: move it aside (only one taker's rename succeeds), unless it changed hands meanwhile.
    const again = info.isFile() ? await readOwner(path) : undefined;
    if (owner && again?.token !== owner.token) continue;
    const aside = `${path}.stale-${randomBytes(4).toString('hex')}`;
    try {
      await rename(path, aside);
    } catch (e) {
      if (code(e) === 'ENOENT') continue;
      throw e;
    }
    await rm(aside, { recursive: true, force: true }).catch(() => undefined);
  }
  return undefined;
}

/** How far in the future a lock's date may be before it is no one's: a heartbeat's interval. */
function heartbeatSlack(staleMs: number, opts: LockOptions): number {
  return opts.heartbeatMs ?? Math.max(10, Math.floor(staleMs / 4));
}

function held(path: string, token: string, heartbeatMs: number): HeldLock {
  const beat = setInterval(() => {
    const t = new Date();
    void utimes(path, t, t).catch(() => undefined);
  }, heartbeatMs);
  beat.unref();
  let released = false;
  return {
    path,
    async stillHeld(): Promise<boolean> {
      return !released && (await readOwner(path))?.token === token;
    },
    async release(): Promise<void> {
      if (released) return;
      released = true;
      clearInterval(beat);
      // A lock taken over after we were judged gone is someone else's now: leave it.
      if ((await readOwner(path))?.token === token) await unlink(path).catch(() => undefined);
    },
  };
}

/** Waits ms, or throws CancelledError when signal aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return abortableSleep(ms, signal, () => new CancelledError());
}

/**
 * Moves a finished file to its final name, never replacing a file already there: a hard link
 * (which fails with EEXIST when the name is taken) and an unlink of the source. Where hard links
 * are not supported, a check and a rename, which callers run under their lock.
 * Resolves true when placed, false when the name was taken (the source is left as it was).
 */
export function renameNoReplace(from: string, to: string): Promise<boolean> {
  return moveNoReplace(from, to);
}

/** Writes text (UTF-8) or bytes to a file atomically: a temp file beside it, then a rename; no temp file is left on failure. */
export async function writeAtomic(file: string, data: string | Uint8Array): Promise<void> {
  const tmp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    await writeFile(tmp, data, typeof data === 'string' ? 'utf8' : undefined);
    await rename(tmp, file);
  } catch (e) {
    await unlink(tmp).catch(() => undefined);
    throw e;
  }
}
