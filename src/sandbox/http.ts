/** Small HTTP helpers for the sandbox's node:http handlers: JSON answers, error bodies, body reading. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ERROR_CODES } from '../core/spec/wire';
import { errorText } from '../core/errors';

type ErrorCode = (typeof ERROR_CODES)[keyof typeof ERROR_CODES];

/** A refusal: thrown by handlers, answered as `{ error: { code, message } }` (our design, src/core/spec/wire.ts). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    readonly headers: Record<string, string> = {},
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

/**
 * A JSON answer serialised beforehand: a job record that every poll reads is turned into
 * bytes once per state of the job (Jobs.recordJson), not once per poll.
 */
export class JsonBytes {
  constructor(readonly bytes: Buffer) {}
}

/** Writes a JSON answer with its length. */
export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const data = body instanceof JsonBytes ? body.bytes : JSON.stringify(body);
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': String(typeof data === 'string' ? Buffer.byteLength(data) : data.length),
    'Cache-Control': 'no-store',
    ...headers,
  });
  res.end(data);
}

export function sendError(res: ServerResponse, e: ApiError): void {
  sendJson(res, e.status, { error: { code: e.code, message: e.message, ...e.extra } }, e.headers);
}

/** The most a request body may hold: a 100,000-address pnl list is about 5 MB. */
const MAX_BODY_BYTES = 16 * 1024 * 1024;

/** Reads and parses a JSON body; undefined when there is none. */
export async function readJsonBody(req: IncomingMessage): Promise<unknown> {
  const parts: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) {
      throw new ApiError(413, ERROR_CODES.badInput, `The body is larger than ${MAX_BODY_BYTES / 1024 / 1024} MB.`);
    }
    parts.push(chunk);
  }
  const text = Buffer.concat(parts).toString('utf8');
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch (e) {
    throw new ApiError(400, ERROR_CODES.badInput, `The body is not valid JSON: ${errorText(e)}`);
  }
}

/** The caller's IP, without the IPv4-mapped prefix. */
export function remoteOf(req: IncomingMessage): string {
  const a = req.socket.remoteAddress ?? '';
  return a.startsWith('::ffff:') ? a.slice(7) : a;
}

/** Waits ms, or less when the signal aborts (closing the sandbox must not wait out a slow-ack delay). */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}
