/**
 * Result files: written once to a temp directory (streamed from the line producers, so a
 * 700 MB pnl never sits in memory), then served from disk with an exact Content-Length,
 * byte ranges, and the download faults (truncation, corrupt zip).
 */
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, readdir, rm, stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable, type Writable } from 'node:stream';
import { finished, pipeline } from 'node:stream/promises';
import { ZipFile } from 'yazl';
import type { Lines, ResultContent } from './results';

const CONTENT_TYPES = {
  txt: 'text/plain; charset=utf-8',
  csv: 'text/csv; charset=utf-8',
  zip: 'application/zip',
} as const;
type FileExt = keyof typeof CONTENT_TYPES;

/** Lines joined by "\n" (each line ends with one), in chunks of about 64 KB; stops (throws) when told to. */
function* chunks(lines: Lines, stop: () => boolean): Generator<string> {
  let buf = '';
  for (const line of lines) {
    buf += `${line}\n`;
    if (buf.length >= 65_536) {
      if (stop()) throw new Error('the sandbox is closing');
      yield buf;
      buf = '';
    }
  }
  if (buf) yield buf;
}

async function pump(source: Iterable<string>, out: Writable): Promise<void> {
  let n = 0;
  try {
    for (const chunk of source) {
      if (!out.write(chunk)) await once(out, 'drain');
      // Producing is CPU work: let other requests in now and then (the sandbox may share the extension host).
      if (++n % 8 === 0) await new Promise<void>((r) => setImmediate(r));
    }
  } catch (e) {
    out.destroy();
    throw e;
  }
  out.end();
  await finished(out);
}

/** Writes a result to path and answers its size in bytes. */
async function writeResult(content: ResultContent, path: string, mtime: Date, stop: () => boolean = () => false): Promise<number> {
  if (content.ext === 'zip') {
    const zip = new ZipFile();
    for (const e of content.entries) {
      zip.addReadStreamLazy(e.name, { mtime }, (cb) => cb(null, Readable.from(chunks(e.lines, stop))));
    }
    zip.end();
    await pipeline(zip.outputStream, createWriteStream(path));
  } else {
    await pump(chunks(content.lines, stop), createWriteStream(path));
  }
  return (await stat(path)).size;
}

interface StoredFile {
  readonly path: string;
  readonly name: string;
  readonly ext: FileExt;
  readonly size: number;
}

interface Entry {
  readonly name: string;
  readonly produce: () => ResultContent;
  readonly mtime: Date;
  ready?: Promise<StoredFile>;
  file?: StoredFile;
  readers: number;
  lastUsed: number;
}

const DIR_PREFIX = 'wa-sandbox-';

/** Whether a process with this id runs (EPERM: it runs, as someone else). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * A temp directory named for this process; first, the directories of sandboxes whose process
 * is gone (killed before close()) are removed.
 */
async function makeDir(): Promise<string> {
  const names = await readdir(tmpdir()).catch(() => [] as string[]);
  await Promise.all(
    names.map(async (name) => {
      const pid = Number(/^wa-sandbox-(\d+)-/u.exec(name)?.[1]);
      if (pid > 0 && pid !== process.pid && !alive(pid)) await rm(join(tmpdir(), name), { recursive: true, force: true });
    }),
  );
  return mkdtemp(join(tmpdir(), `${DIR_PREFIX}${process.pid}-`));
}

/** Disk kept for result files before the least recently used are deleted (they are made again on demand). */
const DEFAULT_DISK_BUDGET = 2 * 1024 ** 3;

/**
 * Result files by id: registered with their producer, written once on first need, kept on disk
 * within a budget. A file deleted to stay within it is written again when asked for: the bytes
 * are the same, because they derive from the job's inputs and hour.
 */
export class FileStore {
  private readonly entries = new Map<string, Entry>();
  private dir: Promise<string> | undefined;
  private closed = false;
  private tick = 0;

  constructor(private readonly diskBudget = DEFAULT_DISK_BUDGET) {}

  register(id: string, name: string, mtime: Date, produce: () => ResultContent): void {
    this.entries.set(id, { name, produce, mtime, readers: 0, lastUsed: 0 });
  }

  has(id: string): boolean {
    return this.entries.has(id);
  }

  /** The file, writing it if that has not happened yet. */
  ensure(id: string): Promise<StoredFile> {
    const e = this.entries.get(id);
    if (!e) return Promise.reject(new Error(`no file ${id}`));
    e.lastUsed = ++this.tick;
    e.ready ??= (async () => {
      if (this.closed) throw new Error('the sandbox is closing');
      // One directory per store, even when the first files are asked for at once.
      this.dir ??= makeDir();
      const dir = await this.dir;
      const content = e.produce();
      const path = join(dir, `${id}.${content.ext}`);
      const size = await writeResult(content, path, e.mtime, () => this.closed);
      e.file = { path, name: `${e.name}.${content.ext}`, ext: content.ext, size };
      await this.evict(e);
      return e.file;
    })();
    // A failed write may be tried again.
    e.ready.catch(() => {
      e.ready = undefined;
    });
    return e.ready;
  }

  /** The file, held on disk until release() (a download in progress is never deleted under it). */
  async open(id: string): Promise<{ file: StoredFile; release: () => void }> {
    const e = this.entries.get(id);
    if (!e) throw new Error(`no file ${id}`);
    e.readers++;
    try {
      const file = await this.ensure(id);
      let released = false;
      return {
        file,
        release: () => {
          if (!released) e.readers--;
          released = true;
        },
      };
    } catch (err) {
      e.readers--;
      throw err;
    }
  }

  /** Deletes the least recently used idle files while the total is over the budget. */
  private async evict(keep: Entry): Promise<void> {
    const written = [...this.entries.values()].filter((x) => x.file);
    let total = written.reduce((sum, x) => sum + (x.file?.size ?? 0), 0);
    for (const x of written.sort((a, b) => a.lastUsed - b.lastUsed)) {
      if (total <= this.diskBudget) return;
      if (x === keep || x.readers > 0 || !x.file) continue;
      const path = x.file.path;
      total -= x.file.size;
      x.file = undefined;
      x.ready = undefined;
      await rm(path, { force: true });
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    // Writes in flight stop at their next chunk; let them settle before the directory goes.
    await Promise.allSettled([...this.entries.values()].flatMap((e) => (e.ready ? [e.ready] : [])));
    if (this.dir) await rm(await this.dir, { recursive: true, force: true });
  }
}

interface DownloadFaults {
  readonly truncate: boolean;
  readonly corruptZip: boolean;
}

function parseRange(header: string | undefined, size: number): { start: number; end: number } | 'bad' | undefined {
  if (!header) return undefined;
  const m = /^bytes=(\d*)-(\d*)$/u.exec(header.trim());
  if (!m || (m[1] === '' && m[2] === '')) return 'bad';
  let start: number;
  let end: number;
  if (m[1] === '') {
    start = Math.max(0, size - Number(m[2]));
    end = size - 1;
  } else {
    start = Number(m[1]);
    end = m[2] === '' ? size - 1 : Math.min(size - 1, Number(m[2]));
  }
  return start > end || start >= size ? 'bad' : { start, end };
}

/** Zeroes the last 64 bytes of a file as they stream by: the zip's end-of-central-directory record is gone. */
async function* corruptTail(source: AsyncIterable<Buffer>, start: number, size: number): AsyncGenerator<Buffer> {
  let pos = start;
  const from = Math.max(0, size - 64);
  for await (const chunk of source) {
    const end = pos + chunk.length;
    if (end > from) {
      const copy = Buffer.from(chunk);
      copy.fill(0, Math.max(0, from - pos));
      yield copy;
    } else yield chunk;
    pos = end;
  }
}

/** Resolves on 'drain' or 'close', whichever comes first, leaving no listener behind. */
function drainedOrClosed(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}

/** Sends a stored file: whole or a byte range, honouring the download faults. */
export async function sendFile(req: IncomingMessage, res: ServerResponse, file: StoredFile, faults: DownloadFaults): Promise<number> {
  const range = parseRange(req.headers.range, file.size);
  if (range === 'bad') {
    res.writeHead(416, { 'Content-Range': `bytes */${file.size}` }).end();
    return 416;
  }
  const start = range?.start ?? 0;
  const end = range?.end ?? file.size - 1;
  const length = Math.max(0, end - start + 1);
  const status = range ? 206 : 200;
  res.writeHead(status, {
    'Content-Type': CONTENT_TYPES[file.ext],
    'Content-Length': String(length),
    'Content-Disposition': `attachment; filename="${file.name}"`,
    'Accept-Ranges': 'bytes',
    ...(range ? { 'Content-Range': `bytes ${start}-${end}/${file.size}` } : {}),
  });
  if (req.method === 'HEAD' || length === 0) {
    res.end();
    return status;
  }
  // Truncation: announce the full length, send half, then close the connection.
  const sendEnd = faults.truncate ? start + Math.floor(length / 2) - 1 : end;
  let body: AsyncIterable<Buffer> = sendEnd >= start ? createReadStream(file.path, { start, end: sendEnd }) : Readable.from([]);
  if (faults.corruptZip && file.ext === 'zip') body = corruptTail(body, start, file.size);
  for await (const chunk of body) {
    if (res.destroyed) return status;
    if (!res.write(chunk)) await drainedOrClosed(res);
  }
  if (faults.truncate) {
    // end() on the socket flushes what was written, then closes: the body stops short of Content-Length.
    res.socket?.end();
    return status;
  }
  res.end();
  return status;
}
