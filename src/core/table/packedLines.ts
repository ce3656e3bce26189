/**
 * A list of strings as it crosses from the table worker to the host: one UTF-8 buffer and the
 * strings' lengths, never an array of strings. Why: the host deserialises an array of 100,000
 * strings in one turn (100–300 ms on a loaded machine: issue 34 item 4); a buffer is one copy,
 * and the host cuts it into strings a slice at a time, giving its loop back between slices.
 */
import type { Transferable } from 'node:worker_threads';

/** Strings cut (and their bytes decoded) between two turns of the host's loop: well under a millisecond of slicing. */
const SLICE = 8_192;

/**
 * The wire form: the strings concatenated, as UTF-8, each one's length in UTF-16 code units, and
 * where each slice of SLICE strings ends in `bytes`, so the host decodes one slice per turn (a
 * whole 4 MB buffer was 22–35 ms of one turn at load 10–15).
 */
export interface PackedLines {
  readonly bytes: Uint8Array;
  readonly lengths: Uint32Array;
  readonly sliceEnds: Uint32Array;
}

/** Packs `strings` (in the worker), a slice's bytes after the other. */
export function packLines(strings: readonly string[]): PackedLines {
  const encoder = new TextEncoder();
  const parts: Uint8Array[] = [];
  for (let at = 0; at < strings.length; at += SLICE) parts.push(encoder.encode(strings.slice(at, at + SLICE).join('')));
  const sliceEnds = new Uint32Array(parts.length);
  const bytes = new Uint8Array(parts.reduce((n, p) => n + p.byteLength, 0));
  let end = 0;
  parts.forEach((p, i) => {
    bytes.set(p, end);
    end += p.byteLength;
    sliceEnds[i] = end;
  });
  return { bytes, lengths: Uint32Array.from(strings, (s) => s.length), sliceEnds };
}

export function isPackedLines(v: unknown): v is PackedLines {
  const p = v as PackedLines;
  return typeof v === 'object' && v !== null && p.bytes instanceof Uint8Array && p.lengths instanceof Uint32Array && p.sliceEnds instanceof Uint32Array;
}

/**
 * Posts a worker message (tableWorker.ts: every message to the host goes through here), a list's
 * buffers moved rather than copied: a copied 4 MB buffer held the receiving thread's loop 68–84 ms
 * while it was deserialised (issue 34 item 4), a moved one 8–9 ms. Only a packed list's own
 * buffers are moved: packLines makes them for this one reply, so nothing in the worker reads them after.
 */
export function postMessageTo(port: { postMessage(message: unknown, transfer?: readonly Transferable[]): void }, message: unknown): void {
  const value = typeof message === 'object' && message !== null ? (message as { value?: unknown }).value : undefined;
  const packed = isPackedLines(value) ? value : typeof value === 'object' && value !== null && isPackedLines((value as { addresses?: unknown }).addresses) ? (value as { addresses: PackedLines }).addresses : undefined;
  if (!packed) {
    port.postMessage(message);
    return;
  }
  const buffers = new Set([packed.bytes.buffer, packed.lengths.buffer, packed.sliceEnds.buffer]);
  port.postMessage(message, [...buffers].filter((b): b is ArrayBuffer => b instanceof ArrayBuffer && b.byteLength > 0));
}

/** The strings again (on the host), a slice decoded and cut at a time, with the loop given back between slices. */
export async function unpackLines(p: PackedLines): Promise<string[]> {
  const decoder = new TextDecoder();
  const out: string[] = new Array<string>(p.lengths.length);
  let start = 0;
  for (let s = 0; s * SLICE < p.lengths.length; s++) {
    if (s > 0) await new Promise<void>((resolve) => setImmediate(resolve));
    const end = p.sliceEnds[s] ?? p.bytes.byteLength;
    const text = decoder.decode(p.bytes.subarray(start, end));
    start = end;
    let at = 0;
    for (let i = s * SLICE; i < Math.min((s + 1) * SLICE, p.lengths.length); i++) {
      const n = p.lengths[i] ?? 0;
      out[i] = text.slice(at, at + n);
      at += n;
    }
  }
  return out;
}
