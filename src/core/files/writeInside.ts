/**
 * The one owner of writing a file inside a folder (issue 30 Deliver 2), and the front door of
 * `src/core/files/`: every writer of a new result, record, list, notebook, address list, exported
 * script or workflow goes through here, and test/unit/house/fileWriters.test.ts fails when one does not.
 *
 * A repository the person opened may hold symbolic links planted where we write (`<name>.results/x.json`
 * → `~/.bashrc`), so a file is written here:
 * - only by a relative name inside its root folder: no absolute name, no `..`;
 * - through no symbolic link: every folder between the root and the file is checked with lstat (a
 *   link, dangling or not, or a non-folder is refused), the file is opened O_CREAT|O_EXCL|O_NOFOLLOW,
 *   and the folder's real path must still be inside the root's;
 * - atomically: the content goes to a private temp file beside it, then moves in with link(2) (which
 *   never replaces and never follows a link at the new name: a dangling link there counts as taken)
 *   for a new file, or rename(2) (which replaces the directory entry, never what a link points at)
 *   for a file we own and rewrite; the file appears whole or not at all, and no temp file is left.
 * Node has no openat(2), so a folder swapped for a link between the check and the write is not
 * excluded; the realpath check after the write narrows that window to the write itself.
 * No npm library does this: write-file-atomic and fs-extra follow a link at the target on purpose.
 * Pure Node: no vscode import.
 */
import { randomBytes } from 'node:crypto';
import { constants, type Stats } from 'node:fs';
import { copyFile, link, lstat, mkdir, open, readdir, realpath, rename, unlink, utimes } from 'node:fs/promises';
import { dirname, isAbsolute, join, normalize, relative, sep } from 'node:path';
import { l10n } from '../l10n';
import { nthName } from './naming';

/** Why a path was refused: it leaves its folder, goes through a link, or is not a folder/file where one is needed. */
type UnsafePathProblem = 'outside' | 'link' | 'notFolder' | 'notFile';

/** A write or read refused because its path is not safely inside its folder. */
export class UnsafePathError extends Error {
  constructor(
    readonly problem: UnsafePathProblem,
    readonly path: string,
  ) {
    super(
      problem === 'outside'
        ? l10n.t('“{0}” is outside the folder it must be written in; nothing was written.', path)
        : problem === 'link'
          ? l10n.t('“{0}” is a symbolic link, or lies under one; nothing was written through it.', path)
          : problem === 'notFolder'
            ? l10n.t('“{0}” is not a folder; nothing was written in it.', path)
            : l10n.t('“{0}” is not a regular file; it was left as it is.', path),
    );
    this.name = 'UnsafePathError';
  }
}

const code = (e: unknown): unknown => (e as { code?: unknown }).code;
const NOFOLLOW = constants.O_NOFOLLOW ?? 0;

/** The parts of a relative name, refused when it is absolute, empty, or climbs out with `..`. */
function partsOf(root: string, rel: string): string[] {
  const n = normalize(rel.split('\\').join('/'));
  if (rel === '' || isAbsolute(rel) || isAbsolute(n)) throw new UnsafePathError('outside', join(root, rel));
  const parts = n.split(/[\\/]/u).filter((p) => p !== '' && p !== '.');
  if (parts.length === 0 || parts.some((p) => p === '..')) throw new UnsafePathError('outside', join(root, rel));
  return parts;
}

async function lstatOrUndefined(p: string): Promise<Stats | undefined> {
  try {
    return await lstat(p);
  } catch (e) {
    if (code(e) === 'ENOENT') return undefined;
    throw e;
  }
}

/** Whether `inner` is `outer` or under it (both real, absolute paths). */
function within(outer: string, inner: string): boolean {
  const r = relative(outer, inner);
  return r === '' || (!r.startsWith(`..${sep}`) && r !== '..' && !isAbsolute(r));
}

/**
 * The folder `rel` inside `root` (`''` or `.` for the root itself), made when missing (each level with
 * `mode`, default 0o777 less the umask), refused when any level is a link or not a folder. The root
 * itself is the person's (or ours) and may be reached through links; it is made when missing.
 */
export async function folderInside(root: string, rel = '', mode?: number): Promise<string> {
  await mkdir(root, { recursive: true, ...(mode !== undefined ? { mode } : {}) });
  const realRoot = await realpath(root);
  let at = root;
  for (const part of rel === '' || rel === '.' ? [] : partsOf(root, rel)) {
    at = join(at, part);
    let st = await lstatOrUndefined(at);
    if (!st) {
      try {
        await mkdir(at, mode !== undefined ? { mode } : {});
      } catch (e) {
        if (code(e) !== 'EEXIST') throw e;
      }
      st = await lstat(at);
    }
    if (st.isSymbolicLink()) throw new UnsafePathError('link', at);
    if (!st.isDirectory()) throw new UnsafePathError('notFolder', at);
  }
  if (!within(realRoot, await realpath(at))) throw new UnsafePathError('outside', at);
  return at;
}

/** Splits a relative file name into its folder part and its name. */
function split(root: string, rel: string): { dir: string; name: string } {
  const parts = partsOf(root, rel);
  const name = parts.pop() ?? '';
  return { dir: parts.join('/'), name };
}

/**
 * What a new file holds: text (UTF-8), bytes, a copy of a file we trust (a cached answer), or what
 * a writer of our own streams to the private temp name it is given (the table worker's export of a
 * view, too big to hold as one string); it must create that name itself and leave nothing on failure.
 */
type FileContent = string | Uint8Array | { readonly copyOf: string } | { readonly writtenBy: (temp: string) => Promise<unknown> };

/** Writes `data` to a new private temp file in `dir` (never an existing name, never through a link); returns its path. */
async function writeTemp(dir: string, data: FileContent, mode: number | undefined): Promise<string> {
  const tmp = join(dir, `.wa-write-${process.pid}-${randomBytes(6).toString('hex')}.tmp`);
  if (typeof data === 'object' && 'copyOf' in data) {
    await copyFile(data.copyOf, tmp, constants.COPYFILE_EXCL);
    return tmp;
  }
  if (typeof data === 'object' && 'writtenBy' in data) {
    try {
      await data.writtenBy(tmp);
    } catch (e) {
      await unlink(tmp).catch(() => undefined);
      throw e;
    }
    return tmp;
  }
  const fh = await open(tmp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | NOFOLLOW, mode ?? 0o666);
  try {
    await fh.writeFile(data, typeof data === 'string' ? 'utf8' : undefined);
    await fh.sync();
  } catch (e) {
    await fh.close().catch(() => undefined);
    await unlink(tmp).catch(() => undefined);
    throw e;
  } finally {
    await fh.close().catch(() => undefined);
  }
  return tmp;
}

/**
 * Moves a finished file `from` to the new name `to` in the same folder, never replacing anything
 * there (a file, a folder, a link dangling or not): link(2), then unlink of the source. Where hard
 * links are not supported, an lstat and a rename, which callers run under their folder's lock.
 * True when placed; false when the name was taken (the source is left as it was).
 */
export async function moveNoReplace(from: string, to: string): Promise<boolean> {
  try {
    await link(from, to);
  } catch (e) {
    if (code(e) === 'EEXIST') return false;
    if (code(e) !== 'EPERM' && code(e) !== 'ENOTSUP' && code(e) !== 'EXDEV' && code(e) !== 'ENOSYS') throw e;
    if (await lstatOrUndefined(to)) return false;
    await rename(from, to);
    return true;
  }
  await unlink(from);
  return true;
}

interface WriteOptions {
  /** The file's mode (default 0o666 less the umask). */
  readonly mode?: number;
}

/**
 * Writes a new file `rel` inside `root`, never over anything already at that name. True when written;
 * false when the name was taken (nothing was written). Throws UnsafePathError when the path leaves
 * `root` or goes through a link.
 */
export async function writeNewInside(root: string, rel: string, data: FileContent, opts: WriteOptions = {}): Promise<boolean> {
  const { dir, name } = split(root, rel);
  const folder = await folderInside(root, dir);
  const tmp = await writeTemp(folder, data, opts.mode);
  try {
    return await moveNoReplace(tmp, join(folder, name));
  } finally {
    await unlink(tmp).catch(() => undefined);
  }
}

/**
 * Writes a new file in the folder `dirRel` inside `root` under the first free name of
 * `nameFor(1)`, `nameFor(2)`… (default: `nthName(name, i)`, `x.csv`, `x-2.csv`…), and returns its
 * path. The one rule for naming a new file that never replaces one.
 */
export async function writeNewNamed(root: string, dirRel: string, nameFor: string | ((i: number) => string), data: FileContent, opts: WriteOptions = {}): Promise<string> {
  const folder = await folderInside(root, dirRel);
  const name = typeof nameFor === 'string' ? (i: number) => nthName(nameFor, i) : nameFor;
  const tmp = await writeTemp(folder, data, opts.mode);
  try {
    for (let i = 1; ; i++) {
      const n = name(i);
      partsOf(folder, n);
      if (n.includes('/') || n.includes('\\')) throw new UnsafePathError('outside', join(folder, n));
      const file = join(folder, n);
      if (await moveNoReplace(tmp, file)) return file;
    }
  } finally {
    await unlink(tmp).catch(() => undefined);
  }
}

/**
 * The path of `rel` inside `root` when a writer that renames its own temp file over it (the table
 * engine's filtered export) may do so: its folders are made and checked, and nothing but a regular
 * file is at the name. Throws UnsafePathError otherwise.
 */
export async function replaceableInside(root: string, rel: string): Promise<string> {
  const { dir, name } = split(root, rel);
  const folder = await folderInside(root, dir);
  const file = join(folder, name);
  const was = await lstatOrUndefined(file);
  if (was?.isSymbolicLink()) throw new UnsafePathError('link', file);
  if (was && !was.isFile()) throw new UnsafePathError('notFile', file);
  return file;
}

/**
 * Writes `rel` inside `root`, replacing the regular file there (one we wrote before: a record, a list,
 * an exported script the person agreed to replace). A link, dangling or not, or anything that is not a
 * regular file at that name is refused and left as it is: a rename would not follow it, but a
 * planted link is a sign the folder is not ours to write.
 */
export async function replaceInside(root: string, rel: string, data: FileContent, opts: WriteOptions = {}): Promise<string> {
  const file = await replaceableInside(root, rel);
  const tmp = await writeTemp(dirname(file), data, opts.mode);
  try {
    await rename(tmp, file);
  } finally {
    await unlink(tmp).catch(() => undefined);
  }
  return file;
}

/**
 * Deletes the regular files of the folder `dirRel` inside `root` that `keep` does not keep and that
 * were last written (or touched) more than `olderThanMs` before `now`: a folder of files only we
 * write (long input lists). Nothing through a link: a missing folder, or one that is a link or not a
 * folder, deletes nothing; a link or a folder inside it is left as it is. How many files it deleted.
 */
export async function removeStaleInside(root: string, dirRel: string, keep: (name: string) => boolean, olderThanMs: number, now = Date.now()): Promise<number> {
  let at = root;
  for (const part of partsOf(root, dirRel)) {
    at = join(at, part);
    const st = await lstatOrUndefined(at);
    if (!st?.isDirectory()) return 0;
  }
  if (!within(await realpath(root), await realpath(at))) return 0;
  let removed = 0;
  for (const name of await readdir(at)) {
    if (keep(name)) continue;
    const file = join(at, name);
    const st = await lstatOrUndefined(file);
    if (!st?.isFile() || now - st.mtimeMs <= olderThanMs) continue;
    await unlink(file).then(
      () => removed++,
      () => undefined,
    );
  }
  return removed;
}

/** Marks a file of ours as written now (its age for removeStaleInside), when it is a regular file inside `root`; false otherwise. */
export async function touchInside(root: string, rel: string, now = Date.now()): Promise<boolean> {
  const file = await replaceableInside(root, rel);
  if (!(await lstatOrUndefined(file))?.isFile()) return false;
  await utimes(file, now / 1000, now / 1000);
  return true;
}

/**
 * Whether `file` is a regular file inside one of `roots`, reached through no link below that root:
 * what a record, a renderer or a copy may read. A record can name any path; only its own folders'
 * files are read.
 */
export async function isFileInside(roots: readonly string[], file: string): Promise<boolean> {
  for (const root of roots) {
    const rel = relative(root, file);
    if (rel === '' || rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel)) continue;
    try {
      const realRoot = await realpath(root);
      let at = root;
      let ok = true;
      for (const part of rel.split(sep)) {
        at = join(at, part);
        const st = await lstat(at);
        if (st.isSymbolicLink()) ok = false;
      }
      if (!ok) continue;
      // A result is a file, or a .zip's extracted folder.
      const st = await lstat(file);
      if ((st.isFile() || st.isDirectory()) && within(realRoot, await realpath(file))) return true;
    } catch {
      // Missing or unreadable: not a result we can read.
    }
  }
  return false;
}
