/**
 * Streams a result file to disk, atomically: bytes go to a hidden temporary file in the
 * destination folder, which is renamed to its final name only when complete and checked
 * (Content-Length, size ceiling). A failure or a cancel leaves nothing behind.
 *
 * Which headers to send is the caller's decision per URL (`headersFor`), asked again on every
 * redirect hop, so a key given for the base origin is not carried to another host.
 *
 * A body with neither Content-Length nor chunked framing ends when the connection closes, so an
 * early close looks exactly like the end: undici ends such a body without error even on a reset
 * (it treats ECONNRESET after the headers as the end of a close-delimited message). Only the file
 * itself can then say it is whole, so such a file is checked by its kind (closeDelimitedProblem).
 */
import { randomBytes } from 'node:crypto';
import { mkdir, open, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import type { Dispatcher } from 'undici';
import type { ResultKind } from '../spec/catalog';
import { nthName } from '../files/naming';
import { moveNoReplace } from '../files/writeInside';
import { dispositionName, resultKindOf, urlName } from './kinds';
import { safeFileName } from './names';
import { CancelledError, DownloadError, WalletApiError, errorText } from '../errors';
import { checkUrl } from '../transport/http';
import { undici } from '../transport/undici';
import { proxyFailure } from '../transport/proxy';
import { l10n } from '../l10n';
import { mebibytes } from '../numberText';

const DEFAULT_MAX_DOWNLOAD_BYTES = 4 * 1024 ** 3;
/** Temporary download files are `<prefix><hex>.part` in the destination folder (swept at start-up: src/core/results/sweep.ts). */
export const DOWNLOAD_TEMP_PREFIX = '.wa-download-';
const MAX_REDIRECTS = 5;

interface DownloadOptions {
  readonly destDir: string;
  /** Final file name; by default from Content-Disposition or the URL path, with the kind's extension. */
  readonly fileName?: string;
  /** Refuse files larger than this (checked on Content-Length and while streaming). Default 4 GiB. */
  readonly maxBytes?: number;
  readonly signal?: AbortSignal;
  readonly onProgress?: (bytes: number, total: number | undefined) => void;
  /** Extra headers for a URL (the api adds the key for its own origin only). */
  readonly headersFor?: (url: URL) => Record<string, string>;
  readonly dispatcher?: Dispatcher;
  /** Deadline for the answer to begin, and the longest pause between two chunks. Default 60 s. */
  readonly timeoutMs?: number;
}

interface DownloadResult {
  readonly path: string;
  readonly bytes: number;
  readonly kind: ResultKind;
  readonly contentType: string | undefined;
}

/** The most a zip's end-of-central-directory record can sit from the end: 22 bytes plus a comment of up to 65,535. */
const EOCD_REACH = 22 + 0xffff;

/**
 * Why a file that came with no length and no chunked framing may be cut off, or undefined when it
 * ends as a whole file of its kind does. The rule, by kind:
 * - zip: its end-of-central-directory record must close the file (the last thing a zip writer
 *   writes, and what every reader looks for first, so a cut zip could not be opened anyway);
 * - csv and txt: the file must end with a line break. Every result file ends its last line (the
 *   sandbox's and the service's alike), and a cut almost always falls inside a line. A cut that
 *   falls exactly after a line break cannot be told from the end by anyone; that is the residual
 *   risk of a server that sends no length, and the reason the server should send one;
 * - json: it must be one whole JSON value: every string, object and array it opens closed, nothing
 *   but white space after (JsonEnd follows the nesting while the body streams). Its last character
 *   alone says little: `[{"a":1},{"b":2}` ends with `}` and is cut (issue 21);
 * - an empty body is refused for every kind: no result file is empty, and a connection that closes
 *   right after the headers is the most common cut of all.
 * `tail` is the end of the file (for a zip, at least its last EOCD_REACH bytes when it is that long).
 */
export function closeDelimitedProblem(kind: ResultKind, tail: Buffer, bytes: number, json?: JsonEnd): string | undefined {
  if (bytes === 0) return l10n.t('before any byte of the file arrived');
  if (kind === 'zip') {
    for (let i = tail.length - 22; i >= 0; i--) {
      if (tail.readUInt32LE(i) === 0x06054b50 && i + 22 + tail.readUInt16LE(i + 20) === tail.length) return undefined;
    }
    return l10n.t('before the end of the archive (its closing record is missing)');
  }
  if (kind === 'json') {
    // Without the streamed scan (a caller with the whole file in `tail`), the tail is scanned.
    return (json ?? new JsonEnd().push(tail)).problem();
  }
  return tail.at(-1) === 0x0a ? undefined : l10n.t('in the middle of a line');
}

/**
 * Follows a JSON text's nesting as it streams, byte by byte (every structural character is ASCII,
 * and no byte of a multi-byte UTF-8 character is), to tell one whole value from a cut or broken
 * one without holding or parsing the file: strings with their escapes, objects and arrays matched.
 */
export class JsonEnd {
  /** The brackets open, innermost last ('{' or '['). */
  private readonly open: number[] = [];
  private inString = false;
  private escaped = false;
  /** A top-level value began, or ended. */
  private started = false;
  private ended = false;
  /** Inside a bare top-level number or literal (it ends at white space or the end). */
  private bare = false;
  private malformed: string | undefined;
  private offset = 0;

  /** Reads the next bytes; returns this. */
  push(chunk: Uint8Array): this {
    for (let i = 0; i < chunk.length && this.malformed === undefined; i++) this.step(chunk[i] ?? 0, this.offset + i);
    this.offset += chunk.length;
    return this;
  }

  private step(b: number, at: number): void {
    if (this.inString) {
      if (this.escaped) this.escaped = false;
      else if (b === 0x5c) this.escaped = true;
      else if (b === 0x22) {
        this.inString = false;
        if (this.open.length === 0) this.ended = true;
      }
      return;
    }
    if (b === 0x20 || b === 0x09 || b === 0x0a || b === 0x0d) {
      if (this.bare) [this.bare, this.ended] = [false, true];
      return;
    }
    // A UTF-8 byte order mark before the value.
    if (!this.started && at < 3 && (b === 0xef || b === 0xbb || b === 0xbf)) return;
    if (this.ended) {
      this.malformed = `something follows the JSON value (at byte ${at})`;
      return;
    }
    this.started = true;
    if (b === 0x22) this.inString = true;
    else if (b === 0x7b || b === 0x5b) this.open.push(b);
    else if (b === 0x7d || b === 0x5d) {
      if (this.open.pop() !== (b === 0x7d ? 0x7b : 0x5b)) this.malformed = `a ${String.fromCharCode(b)} closes nothing it opened (at byte ${at})`;
      else if (this.open.length === 0) this.ended = true;
    } else if (this.open.length === 0) this.bare = true;
  }

  /** Why what was read is not one whole JSON value, or undefined when it is (as far as its structure shows). */
  problem(): string | undefined {
    if (this.malformed !== undefined) return `in malformed JSON (${this.malformed})`;
    if (!this.started) return 'before the JSON began';
    if (this.inString || this.open.length > 0) return 'before the end of the JSON';
    return undefined;
  }
}

function header(h: Record<string, string | string[] | undefined>, name: string): string | undefined {
  const v = h[name];
  return Array.isArray(v) ? v[0] : v;
}

/** Drops a body we will not read; its abort error has nowhere useful to go. */
function discard(body: Dispatcher.ResponseData['body']): void {
  body.on('error', () => undefined);
  body.destroy();
}

async function openFollowingRedirects(url: string, opts: DownloadOptions): Promise<{ res: Dispatcher.ResponseData; url: URL }> {
  let current = checkUrl(url, 'result file URL');
  const timeout = opts.timeoutMs ?? 60_000;
  for (let hop = 0; ; hop++) {
    let res: Dispatcher.ResponseData;
    try {
      res = await undici().request(current, {
        method: 'GET',
        headers: { ...opts.headersFor?.(current), 'accept-encoding': 'identity' },
        signal: opts.signal,
        dispatcher: opts.dispatcher,
        headersTimeout: timeout,
        bodyTimeout: timeout,
      });
    } catch (e) {
      if (opts.signal?.aborted) throw new CancelledError();
      // A proxy that refused the tunnel is named, so the person knows what to fix.
      const detail = proxyFailure(e, opts.dispatcher, current)?.detail ?? errorText(e);
      throw new DownloadError('io', l10n.t('Could not download the result file from {0}: {1}.', current.origin, detail), { cause: e });
    }
    const location = header(res.headers, 'location');
    if (res.statusCode >= 300 && res.statusCode < 400 && location) {
      discard(res.body);
      if (hop >= MAX_REDIRECTS) throw new DownloadError('redirects', l10n.t('The result file redirected more than {0} times.', MAX_REDIRECTS));
      // Each hop is checked (https unless loopback) and gets its own headers from headersFor.
      current = checkUrl(new URL(location, current).href, 'result file URL');
      continue;
    }
    if (res.statusCode < 200 || res.statusCode >= 300) {
      discard(res.body);
      const hint = res.statusCode === 404 || res.statusCode === 410 ? l10n.t(' The file may have expired; its request record still lists it.') : '';
      throw new DownloadError('http', l10n.t('The result file could not be downloaded (HTTP {0}).{1}', res.statusCode, hint), { status: res.statusCode });
    }
    return { res, url: current };
  }
}

/**
 * What a download from the service needs from its client (`WalletAnalyticsApi.fileAccess`): the
 * checked address, the proxy, the headers of each hop (the key for the service's own origin
 * only), and a failure told without the key. Structural, so the transport never imports this file.
 */
interface FileSource {
  fileAccess(url: string): Promise<{ href: string; dispatcher: Dispatcher | undefined; headersFor: (u: URL) => Record<string, string>; redacted: (e: unknown) => unknown }>;
}

/** Downloads a result file of the service into destDir, atomically, with what its client allows for that address. */
export async function downloadFrom(source: FileSource, url: string, destDir: string, opts: Omit<DownloadOptions, 'destDir' | 'headersFor' | 'dispatcher'> = {}): Promise<DownloadResult> {
  const access = await source.fileAccess(url);
  try {
    return await downloadFile(access.href, { ...opts, destDir, dispatcher: access.dispatcher, headersFor: access.headersFor });
  } catch (e) {
    throw access.redacted(e);
  }
}

/** Downloads url into opts.destDir through a temporary file renamed on success; returns where it went. */
export async function downloadFile(url: string, opts: DownloadOptions): Promise<DownloadResult> {
  const max = opts.maxBytes ?? DEFAULT_MAX_DOWNLOAD_BYTES;
  if (opts.signal?.aborted) throw new CancelledError();
  const { res, url: finalUrl } = await openFollowingRedirects(url, opts);
  const contentType = header(res.headers, 'content-type');
  const disposition = header(res.headers, 'content-disposition');
  const clRaw = header(res.headers, 'content-length');
  const total = clRaw !== undefined && /^\d+$/u.test(clRaw) ? Number(clRaw) : undefined;
  // Chunked framing has its own end marker, and undici raises when it is missing.
  const closeDelimited = total === undefined && !/chunked/iu.test(header(res.headers, 'transfer-encoding') ?? '');
  if (total !== undefined && total > max) {
    discard(res.body);
    throw new DownloadError('tooLarge', l10n.t('The result file is {0}, more than the {1} allowed. Raise the size limit to download it.', mebibytes(total), mebibytes(max)));
  }

  await mkdir(opts.destDir, { recursive: true });
  const temp = join(opts.destDir, `${DOWNLOAD_TEMP_PREFIX}${randomBytes(6).toString('hex')}.part`);
  // wx+: never an existing file; readable, so the end of a close-delimited body can be checked.
  const fh = await open(temp, 'wx+');
  let bytes = 0;
  let head: Buffer | undefined;
  // A body that ends when the connection does is followed as JSON too, in case it is JSON (known at the end).
  const json = closeDelimited ? new JsonEnd() : undefined;
  let closed = false;
  try {
    try {
      for await (const chunk of res.body as AsyncIterable<Buffer>) {
        bytes += chunk.length;
        if (bytes > max) throw new DownloadError('tooLarge', l10n.t('The result file grew past the {0} allowed; the download was stopped.', mebibytes(max)));
        if (total !== undefined && bytes > total) throw new DownloadError('truncated', l10n.t('The server sent more than the {0} bytes it announced.', total));
        head ??= chunk.subarray(0, 4);
        json?.push(chunk);
        await fh.write(chunk);
        opts.onProgress?.(bytes, total);
      }
    } catch (e) {
      if (e instanceof WalletApiError) throw e;
      if (opts.signal?.aborted) throw new CancelledError();
      throw new DownloadError('truncated', l10n.t('The download broke off after {0} bytes{1}; nothing was kept. Try the download again (it is free).', bytes, total !== undefined ? l10n.t(' of {0}', total) : ''), { cause: e });
    }
    if (total !== undefined && bytes !== total) {
      throw new DownloadError('truncated', l10n.t('The download ended after {0} of {1} bytes; nothing was kept. Try the download again (it is free).', bytes, total));
    }
    const zipMagic = head !== undefined && head.length === 4 && head.readUInt32LE(0) === 0x04034b50;
    const kind: ResultKind = zipMagic ? 'zip' : resultKindOf(finalUrl.href, contentType, disposition);
    if (closeDelimited) {
      const tail = Buffer.alloc(Math.min(bytes, EOCD_REACH));
      await fh.read(tail, 0, tail.length, bytes - tail.length);
      const problem = closeDelimitedProblem(kind, tail, bytes, json);
      if (problem) {
        throw new DownloadError(
          'truncated',
          l10n.t('The server sent the result file without a length, and the connection closed {0}: it was cut off. Nothing was kept. Try the download again (it is free).', problem),
        );
      }
    }
    await fh.sync();
    await fh.close();
    closed = true;
    const wanted = opts.fileName ?? dispositionName(disposition) ?? urlName(finalUrl.href);
    const safe = safeFileName(wanted, kind);
    // Never over a file, a folder or a link already there: the first free name by the one rule (x.csv, x-2.csv…).
    for (let i = 1; ; i++) {
      const dest = join(opts.destDir, nthName(safe, i));
      if (await moveNoReplace(temp, dest)) return { path: dest, bytes, kind, contentType };
    }
  } catch (e) {
    discard(res.body);
    if (!closed) await fh.close().catch(() => undefined);
    await unlink(temp).catch(() => undefined);
    throw e;
  }
}
