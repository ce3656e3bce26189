/**
 * Extracts a result `.zip` safely, into a folder of its own, atomically: entries go to a
 * hidden temporary folder next to the target, which is renamed to the target only when every
 * entry is out and checked. Any refusal or failure removes the temporary folder.
 *
 * The whole central directory is judged before a byte is written, so a refusal costs no disk.
 * Refused: names that could escape the folder (absolute, `..`, drive letters, backslashes),
 * names that could mislead (control characters and Unicode line/paragraph separators, bidi
 * overrides that make `txt.exe` read as `exe.txt`, a leading dot that hides a file), symlink
 * entries, duplicate names, and zip bombs:
 * too many entries, too many bytes in all, an entry with a compression ratio no result file has,
 * or an archive whose entries together inflate far beyond its own size (many small entries each
 * under the per-entry check). Sizes are checked as declared AND as actually inflated, since a
 * crafted archive can lie in its headers.
 */
import { lstat, mkdir, mkdtemp, rename, rm } from 'node:fs/promises';
import { nthFolderName } from '../files/naming';
import { createWriteStream } from 'node:fs';
import { Transform, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { basename, dirname, extname, join, resolve, sep } from 'node:path';
import * as yauzl from 'yauzl';
import { CancelledError, UnzipError, WalletApiError, errorText } from '../errors';
import { l10n } from '../l10n';
import { mebibytes } from '../numberText';

interface UnzipLimits {
  readonly maxEntries: number;
  /** Uncompressed bytes of all entries together. */
  readonly maxTotalBytes: number;
  /** Uncompressed / compressed size; CSV compresses around 5–20×, a bomb thousands of times. */
  readonly maxRatio: number;
  /** Entries smaller than this are not ratio-checked (tiny files can compress very well). */
  readonly ratioFloorBytes: number;
  /** All entries' uncompressed bytes / the archive's size on disk. */
  readonly maxArchiveRatio: number;
  /** An archive inflating to no more than this is not checked for its overall ratio. */
  readonly archiveRatioFloorBytes: number;
}

/**
 * The whole archive's ratio, with the entry count, bounds what many small entries can do: each one
 * under the per-entry floor passed alone, so 400 entries of 1 MiB zeros came from 452 KB. Result
 * CSVs (base58 addresses and numbers) compress 2–20×; 100× in all is far beyond any, while 64 MiB
 * of anything is too little to harm a disk, so small archives are never refused for their ratio.
 */
export const MAX_ARCHIVE_RATIO = 100;
export const ARCHIVE_RATIO_FLOOR_BYTES = 64 * 1024 ** 2;
/** Far more than one file per token of the largest token list (1,000); a directory of 10,000 entries is read in milliseconds. */
const MAX_ENTRIES = 10_000;

const DEFAULT_UNZIP_LIMITS: UnzipLimits = {
  maxEntries: MAX_ENTRIES,
  maxTotalBytes: 8 * 1024 ** 3,
  maxRatio: 200,
  ratioFloorBytes: 1024 ** 2,
  maxArchiveRatio: MAX_ARCHIVE_RATIO,
  archiveRatioFloorBytes: ARCHIVE_RATIO_FLOOR_BYTES,
};

interface UnzipOptions {
  /** The folder to create; by default the zip's path without `.zip` (with -1, -2… if taken). */
  readonly targetDir?: string;
  readonly limits?: Partial<UnzipLimits>;
  readonly signal?: AbortSignal;
}

interface UnzipResult {
  readonly dir: string;
  /** Paths of the extracted files, relative to dir, with '/' separators. */
  readonly files: readonly string[];
  readonly bytes: number;
}

/** Extraction folders are `<prefix>XXXXXX` beside the target (swept at start-up: src/core/results/sweep.ts). */
export const UNZIP_TEMP_PREFIX = '.wa-unzip-';

const S_IFMT = 0o170000;
const S_IFLNK = 0o120000;

/** Why an entry name is unsafe, or undefined when it stays inside the folder. */
export function unsafeEntryName(name: string): string | undefined {
  if (name.length === 0) return 'an empty name';
  if (name.includes('\0')) return 'a NUL character in the name';
  if (name.includes('\\')) return 'a backslash in the name';
  if (name.startsWith('/')) return 'an absolute path';
  if (/^[A-Za-z]:/u.test(name)) return 'a drive letter';
  if (name.split('/').includes('..')) return 'a “..” segment';
  return undefined;
}

/** U+XXXX, for a character a message must show without letting it act. */
function codePoint(c: number): string {
  return `U+${c.toString(16).toUpperCase().padStart(4, '0')}`;
}

function isControl(c: number): boolean {
  return c < 0x20 || (c >= 0x7f && c < 0xa0);
}

/** Embeddings and overrides (U+202A–U+202E), isolates (U+2066–U+2069) and the invisible direction marks. */
function isBidi(c: number): boolean {
  return (c >= 0x202a && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069) || c === 0x200e || c === 0x200f || c === 0x061c;
}

/** U+2028 LINE SEPARATOR and U+2029 PARAGRAPH SEPARATOR: Python, IPython and many editors end a line at them. */
function isLineSeparator(c: number): boolean {
  return c === 0x2028 || c === 0x2029;
}

/** An entry name as a message may show it: control, bidi and line-separator characters written as [U+XXXX], so the name reads as it is. */
export function shownEntryName(name: string): string {
  let out = '';
  for (const ch of name) {
    const c = ch.codePointAt(0) ?? 0;
    out += isControl(c) || isBidi(c) || isLineSeparator(c) ? `[${codePoint(c)}]` : ch;
  }
  return out;
}

/**
 * Why an entry name would mislead, or undefined. Such names are refused, not renamed: a result
 * archive never holds them, and a renamed file would no longer match what the archive says.
 * A bidi override shows `report‮vsc.exe` as `reportexe.csv`; a control character can break a
 * terminal or a log line; a leading dot hides a file or folder from a listing.
 */
export function misleadingEntryName(name: string): string | undefined {
  for (const ch of name) {
    const c = ch.codePointAt(0) ?? 0;
    if (isControl(c)) return `a control character (${codePoint(c)}) in the name`;
    if (isBidi(c)) return `a text-direction control (${codePoint(c)}) in the name, which can make it read as another name`;
    if (isLineSeparator(c)) return `a line or paragraph separator (${codePoint(c)}) in the name, which ends a line in Python, notebooks and logs`;
  }
  if (name.split('/').some((segment) => segment.startsWith('.'))) return 'a leading dot in the name, which hides the file or folder';
  return undefined;
}

/** yauzl refuses unsafe names itself; its messages are translated into ours. */
function fromYauzl(e: unknown): WalletApiError {
  if (e instanceof WalletApiError) return e;
  const msg = errorText(e);
  const m = /^(absolute path|invalid relative path|invalid characters in fileName): (.*)$/su.exec(msg);
  if (m) return new UnzipError('zipSlip', l10n.t('The archive was refused: entry “{0}” has {1} and could write outside its folder. Nothing was extracted.', shownEntryName(m[2] ?? ''), m[1] === 'absolute path' ? l10n.t('an absolute path') : m[1] === 'invalid relative path' ? l10n.t('a “..” segment') : l10n.t('a backslash in the name')), e);
  return new UnzipError('corrupt', l10n.t('The archive could not be read: {0}. Nothing was extracted.', msg), e);
}

function isDirectory(entry: yauzl.Entry): boolean {
  return entry.fileName.endsWith('/');
}

function isSymlink(entry: yauzl.Entry): boolean {
  return ((entry.externalFileAttributes >>> 16) & S_IFMT) === S_IFLNK;
}

/** Moves the extracted folder in under the first free name by the one rule (`x`, `x-2`…): never over a folder, a file or a link. */
async function moveInFolder(temp: string, wanted: string): Promise<string> {
  for (let i = 1; ; i++) {
    const dir = nthFolderName(wanted, i);
    if (await lstat(dir).then(() => true, () => false)) continue;
    try {
      await rename(temp, dir);
      return dir;
    } catch (e) {
      const c = (e as { code?: unknown }).code;
      // Made by another between the look and the move (an empty folder would be replaced: rename refuses only a full one).
      if (c !== 'EEXIST' && c !== 'ENOTEMPTY' && c !== 'ENOTDIR') throw e;
    }
  }
}

/** Counts inflated bytes and stops the stream the moment an entry or the whole archive goes over its limit. */
class ByteGuard extends Transform {
  count = 0;
  constructor(
    private readonly entry: yauzl.Entry,
    private readonly overLimit: (entryBytes: number, delta: number) => UnzipError | undefined,
  ) {
    super();
  }
  override _transform(chunk: Buffer, _enc: BufferEncoding, cb: TransformCallback): void {
    this.count += chunk.length;
    if (this.count > this.entry.uncompressedSize) {
      cb(
        new UnzipError(
          'tooLarge',
          l10n.t('The archive was refused: entry “{0}” declares {1} bytes but inflates to more (a zip bomb or a damaged file). Nothing was extracted.', this.entry.fileName, this.entry.uncompressedSize),
        ),
      );
      return;
    }
    const err = this.overLimit(this.count, chunk.length);
    if (err) cb(err);
    else cb(null, chunk);
  }
}

/** Extracts zipPath into a new folder of its own, or throws an UnzipError and leaves nothing behind. */
export async function extractZip(zipPath: string, opts: UnzipOptions = {}): Promise<UnzipResult> {
  const limits: UnzipLimits = { ...DEFAULT_UNZIP_LIMITS, ...opts.limits };
  const wanted = opts.targetDir ?? join(dirname(zipPath), basename(zipPath, extname(zipPath)));
  const parent = dirname(resolve(wanted));
  let zip: yauzl.ZipFile;
  try {
    // Sizes are checked here rather than by yauzl, so the refusal says what it is.
    zip = await yauzl.openPromise(zipPath, { lazyEntries: true, autoClose: false, validateEntrySizes: false, strictFileNames: false });
  } catch (e) {
    throw fromYauzl(e);
  }
  if (zip.entryCount > limits.maxEntries) {
    zip.close();
    throw new UnzipError('tooManyEntries', l10n.t('The archive was refused: it holds {0} entries, more than the {1} allowed. Nothing was extracted.', zip.entryCount, limits.maxEntries));
  }

  // Pass 1, the central directory alone: every name, size and ratio is judged before anything is written.
  const entries: yauzl.Entry[] = [];
  let declaredTotal = 0;
  try {
    for await (const entry of zip.eachEntry()) {
      if (opts.signal?.aborted) throw new CancelledError();
      const name = entry.fileName;
      const shown = shownEntryName(name);
      const bad = unsafeEntryName(name);
      if (bad) throw new UnzipError('zipSlip', l10n.t('The archive was refused: entry “{0}” has {1} and could write outside its folder. Nothing was extracted.', shown, bad));
      const misleading = misleadingEntryName(name);
      if (misleading) throw new UnzipError('badName', l10n.t('The archive was refused: entry “{0}” has {1}. A result file never does. Nothing was extracted.', shown, misleading));
      if (isSymlink(entry)) throw new UnzipError('symlink', l10n.t('The archive was refused: entry “{0}” is a symbolic link, which a result file never holds. Nothing was extracted.', shown));
      entries.push(entry);
      if (isDirectory(entry)) continue;
      if (entry.isEncrypted()) throw new UnzipError('corrupt', l10n.t('The archive was refused: entry “{0}” is encrypted. Nothing was extracted.', shown));
      declaredTotal += entry.uncompressedSize;
      if (declaredTotal > limits.maxTotalBytes) {
        throw new UnzipError('tooLarge', l10n.t('The archive was refused: it would inflate to more than {0} bytes. Nothing was extracted.', limits.maxTotalBytes));
      }
      const ratio = entry.uncompressedSize / Math.max(1, entry.compressedSize);
      if (entry.uncompressedSize > limits.ratioFloorBytes && ratio > limits.maxRatio) {
        throw new UnzipError('ratio', l10n.t('The archive was refused: entry “{0}” is compressed {1}:1, beyond the {2}:1 allowed (a zip bomb). Nothing was extracted.', shown, Math.round(ratio), limits.maxRatio));
      }
    }
    // Declared sizes are enough here: while inflating, no entry may pass its declared size (ByteGuard).
    const archiveRatio = declaredTotal / Math.max(1, zip.fileSize);
    if (declaredTotal > limits.archiveRatioFloorBytes && archiveRatio > limits.maxArchiveRatio) {
      const files = entries.filter((e) => !isDirectory(e)).length;
      throw new UnzipError(
        'ratio',
        l10n.t('The archive was refused: its {0} files would inflate to {1} from {2}, {3}:1 in all, beyond the {4}:1 allowed above {5} (a zip bomb). Nothing was extracted.', files, mebibytes(declaredTotal), mebibytes(zip.fileSize), Math.round(archiveRatio), limits.maxArchiveRatio, mebibytes(limits.archiveRatioFloorBytes)),
      );
    }
  } catch (e) {
    zip.close();
    if (opts.signal?.aborted) throw new CancelledError();
    throw fromYauzl(e);
  }

  // Pass 2: extraction into a temporary folder, renamed into place when every entry is out.
  await mkdir(parent, { recursive: true });
  const temp = await mkdtemp(join(parent, UNZIP_TEMP_PREFIX));
  const root = resolve(temp);
  const files: string[] = [];
  let actualTotal = 0;
  try {
    for (const entry of entries) {
      if (opts.signal?.aborted) throw new CancelledError();
      const name = entry.fileName;
      const shown = shownEntryName(name);
      const out = resolve(root, name);
      if (out !== root && !out.startsWith(root + sep)) {
        throw new UnzipError('zipSlip', l10n.t('The archive was refused: entry “{0}” would land outside its folder. Nothing was extracted.', shown));
      }
      if (isDirectory(entry)) {
        await mkdir(out, { recursive: true });
        continue;
      }
      const ratioOf = (n: number): number => n / Math.max(1, entry.compressedSize);
      await mkdir(dirname(out), { recursive: true });
      const guard = new ByteGuard(entry, (n, delta) => {
        actualTotal += delta;
        if (actualTotal > limits.maxTotalBytes) return new UnzipError('tooLarge', l10n.t('The archive was refused: it inflates to more than {0} bytes. Nothing was extracted.', limits.maxTotalBytes));
        if (n > limits.ratioFloorBytes && ratioOf(n) > limits.maxRatio) {
          return new UnzipError('ratio', l10n.t('The archive was refused: entry “{0}” inflates beyond {1}:1 (a zip bomb). Nothing was extracted.', shown, limits.maxRatio));
        }
        return undefined;
      });
      const stream = await zip.openReadStreamPromise(entry);
      // 'wx': a second entry with the same name is refused rather than overwriting the first.
      await pipeline(stream, guard, createWriteStream(out, { flags: 'wx' }), opts.signal ? { signal: opts.signal } : {});
      if (guard.count !== entry.uncompressedSize) {
        throw new UnzipError('corrupt', l10n.t('The archive is damaged: entry “{0}” holds {1} of its {2} bytes. Nothing was extracted.', shown, guard.count, entry.uncompressedSize));
      }
      files.push(name);
    }
    zip.close();
    const dir = await moveInFolder(temp, resolve(wanted));
    return { dir, files, bytes: actualTotal };
  } catch (e) {
    zip.close();
    await rm(temp, { recursive: true, force: true });
    if (opts.signal?.aborted) throw new CancelledError();
    if (e instanceof Error && (e as { code?: unknown }).code === 'EEXIST') {
      throw new UnzipError('corrupt', l10n.t('The archive was refused: it holds the same file name twice. Nothing was extracted.'), e);
    }
    throw fromYauzl(e);
  }
}
