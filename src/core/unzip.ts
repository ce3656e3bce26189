/**
 * Extracts a result `.zip` safely, into a folder of its own, atomically: entries go to a
 * hidden temporary folder next to the target, which is renamed to the target only when every
 * entry is out and checked. Any refusal or failure removes the temporary folder.
 *
 * Refused: names that could escape the folder (absolute, `..`, drive letters, backslashes),
 * symlink entries, duplicate names, and zip bombs: too many entries, too many bytes in all,
 * or a compression ratio no result file has. Sizes are checked as declared AND as actually
 * inflated, since a crafted archive can lie in its headers.
 */
import { mkdir, mkdtemp, rename, rm, stat } from 'node:fs/promises';
import { createWriteStream } from 'node:fs';
import { Transform, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { basename, dirname, extname, join, resolve, sep } from 'node:path';
import * as yauzl from 'yauzl';
import { CancelledError, UnzipError, WalletApiError } from './errors';

export interface UnzipLimits {
  readonly maxEntries: number;
  /** Uncompressed bytes of all entries together. */
  readonly maxTotalBytes: number;
  /** Uncompressed / compressed size; CSV compresses around 5–20×, a bomb thousands of times. */
  readonly maxRatio: number;
  /** Entries smaller than this are not ratio-checked (tiny files can compress very well). */
  readonly ratioFloorBytes: number;
}

export const DEFAULT_UNZIP_LIMITS: UnzipLimits = {
  maxEntries: 10_000,
  maxTotalBytes: 8 * 1024 ** 3,
  maxRatio: 200,
  ratioFloorBytes: 1024 ** 2,
};

export interface UnzipOptions {
  /** The folder to create; by default the zip's path without `.zip` (with -1, -2… if taken). */
  readonly targetDir?: string;
  readonly limits?: Partial<UnzipLimits>;
  readonly signal?: AbortSignal;
}

export interface UnzipResult {
  readonly dir: string;
  /** Paths of the extracted files, relative to dir, with '/' separators. */
  readonly files: readonly string[];
  readonly bytes: number;
}

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

/** yauzl refuses unsafe names itself; its messages are translated into ours. */
function fromYauzl(e: unknown): WalletApiError {
  if (e instanceof WalletApiError) return e;
  const msg = e instanceof Error ? e.message : String(e);
  const m = /^(absolute path|invalid relative path|invalid characters in fileName): (.*)$/su.exec(msg);
  if (m) return new UnzipError('zipSlip', `The archive was refused: entry “${m[2] ?? ''}” has ${m[1] === 'absolute path' ? 'an absolute path' : m[1] === 'invalid relative path' ? 'a “..” segment' : 'a backslash in the name'} and could write outside its folder. Nothing was extracted.`, e);
  return new UnzipError('corrupt', `The archive could not be read: ${msg}. Nothing was extracted.`, e);
}

function isDirectory(entry: yauzl.Entry): boolean {
  return entry.fileName.endsWith('/');
}

function isSymlink(entry: yauzl.Entry): boolean {
  return ((entry.externalFileAttributes >>> 16) & S_IFMT) === S_IFLNK;
}

async function freeDir(p: string): Promise<string> {
  for (let i = 0; ; i++) {
    const candidate = i === 0 ? p : `${p}-${i}`;
    const taken = await stat(candidate).then(
      () => true,
      () => false,
    );
    if (!taken) return candidate;
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
          `The archive was refused: entry “${this.entry.fileName}” declares ${this.entry.uncompressedSize} bytes but inflates to more (a zip bomb or a damaged file). Nothing was extracted.`,
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
    throw new UnzipError('tooManyEntries', `The archive was refused: it holds ${zip.entryCount} entries, more than the ${limits.maxEntries} allowed. Nothing was extracted.`);
  }
  await mkdir(parent, { recursive: true });
  const temp = await mkdtemp(join(parent, '.wa-unzip-'));
  const root = resolve(temp);
  const files: string[] = [];
  let declaredTotal = 0;
  let actualTotal = 0;
  try {
    for await (const entry of zip.eachEntry()) {
      if (opts.signal?.aborted) throw new CancelledError();
      const name = entry.fileName;
      const bad = unsafeEntryName(name);
      if (bad) throw new UnzipError('zipSlip', `The archive was refused: entry “${name}” has ${bad} and could write outside its folder. Nothing was extracted.`);
      const out = resolve(root, name);
      if (out !== root && !out.startsWith(root + sep)) {
        throw new UnzipError('zipSlip', `The archive was refused: entry “${name}” would land outside its folder. Nothing was extracted.`);
      }
      if (isSymlink(entry)) throw new UnzipError('symlink', `The archive was refused: entry “${name}” is a symbolic link, which a result file never holds. Nothing was extracted.`);
      if (isDirectory(entry)) {
        await mkdir(out, { recursive: true });
        continue;
      }
      if (entry.isEncrypted()) throw new UnzipError('corrupt', `The archive was refused: entry “${name}” is encrypted. Nothing was extracted.`);
      declaredTotal += entry.uncompressedSize;
      if (declaredTotal > limits.maxTotalBytes) {
        throw new UnzipError('tooLarge', `The archive was refused: it would inflate to more than ${limits.maxTotalBytes} bytes. Nothing was extracted.`);
      }
      const ratioOf = (n: number): number => n / Math.max(1, entry.compressedSize);
      if (entry.uncompressedSize > limits.ratioFloorBytes && ratioOf(entry.uncompressedSize) > limits.maxRatio) {
        throw new UnzipError('ratio', `The archive was refused: entry “${name}” is compressed ${Math.round(ratioOf(entry.uncompressedSize))}:1, beyond the ${limits.maxRatio}:1 allowed (a zip bomb). Nothing was extracted.`);
      }
      await mkdir(dirname(out), { recursive: true });
      const guard = new ByteGuard(entry, (n, delta) => {
        actualTotal += delta;
        if (actualTotal > limits.maxTotalBytes) return new UnzipError('tooLarge', `The archive was refused: it inflates to more than ${limits.maxTotalBytes} bytes. Nothing was extracted.`);
        if (n > limits.ratioFloorBytes && ratioOf(n) > limits.maxRatio) {
          return new UnzipError('ratio', `The archive was refused: entry “${name}” inflates beyond ${limits.maxRatio}:1 (a zip bomb). Nothing was extracted.`);
        }
        return undefined;
      });
      const stream = await zip.openReadStreamPromise(entry);
      // 'wx': a second entry with the same name is refused rather than overwriting the first.
      await pipeline(stream, guard, createWriteStream(out, { flags: 'wx' }), opts.signal ? { signal: opts.signal } : {});
      if (guard.count !== entry.uncompressedSize) {
        throw new UnzipError('corrupt', `The archive is damaged: entry “${name}” holds ${guard.count} of its ${entry.uncompressedSize} bytes. Nothing was extracted.`);
      }
      files.push(name);
    }
    zip.close();
    const dir = await freeDir(resolve(wanted));
    await rename(temp, dir);
    return { dir, files, bytes: actualTotal };
  } catch (e) {
    zip.close();
    await rm(temp, { recursive: true, force: true });
    if (opts.signal?.aborted) throw new CancelledError();
    if (e instanceof Error && (e as { code?: unknown }).code === 'EEXIST') {
      throw new UnzipError('corrupt', 'The archive was refused: it holds the same file name twice. Nothing was extracted.', e);
    }
    throw fromYauzl(e);
  }
}
