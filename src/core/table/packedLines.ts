/**
 * A list of strings as it crosses from the table worker to the host: one UTF-8 buffer and the
 * strings' lengths, never an array of strings. Why: the host deserialises an array of 100,000
 * strings in one turn (100–300 ms on a loaded machine: issue 34 item 4); a buffer is one copy,
 * and the host cuts it into strings a slice at a time, giving its loop back between slices.
 */
import type { Transferable } from 'node:worker_threads';
import { checkedAddresses, type Chain } from '../spec/addresses';
import { packChecked, PACK_MIN_ITEMS, type PackedList } from '../spec/packedList';

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

/** Each slice of `p` (its bytes and the range of strings they hold), the loop given back between slices. */
async function eachSlice(p: PackedLines, use: (bytes: Uint8Array, first: number, end: number) => void): Promise<void> {
  let start = 0;
  for (let s = 0; s * SLICE < p.lengths.length; s++) {
    if (s > 0) await new Promise<void>((resolve) => setImmediate(resolve));
    const end = p.sliceEnds[s] ?? p.bytes.byteLength;
    use(p.bytes.subarray(start, end), s * SLICE, Math.min((s + 1) * SLICE, p.lengths.length));
    start = end;
  }
}

/** The strings again (on the host), a slice decoded and cut at a time, with the loop given back between slices. */
export async function unpackLines(p: PackedLines): Promise<string[]> {
  const decoder = new TextDecoder();
  const out: string[] = new Array<string>(p.lengths.length);
  await eachSlice(p, (bytes, first, end) => {
    const text = decoder.decode(bytes);
    let at = 0;
    for (let i = first; i < end; i++) {
      const n = p.lengths[i] ?? 0;
      out[i] = text.slice(at, at + n);
      at += n;
    }
  });
  return out;
}

/** UTF-16 code units of the UTF-8 sequence that `lead` starts: 2 for a four-byte one (a surrogate pair), else 1; 0 for a continuation byte. */
const unitsOf = (lead: number): number => (lead < 0x80 ? 1 : lead < 0xc0 ? 0 : lead < 0xf0 ? 1 : 2);

/**
 * The strings as a list file's bytes, each followed by "\n" (addressSets.ts listText's text, as
 * UTF-8), copied from the packed bytes without making one string per line on the host: a
 * pipeline's take step writes 100,000 addresses to its file, and 100,000 strings kept alive on the
 * host were its loop's longest garbage collection (issue 34 item 4). Each string's bytes are found
 * by its length in UTF-16 units (all of a slice at once when the slice is ASCII, as addresses are).
 */
export async function packedLinesFile(p: PackedLines): Promise<Uint8Array> {
  const out = new Uint8Array(p.bytes.byteLength + p.lengths.length);
  let w = 0;
  await eachSlice(p, (bytes, first, end) => {
    let units = 0;
    for (let i = first; i < end; i++) units += p.lengths[i] ?? 0;
    const ascii = units === bytes.byteLength;
    if (ascii) {
      // Addresses: the slice's bytes placed whole, then each line moved up to its place, the last
      // first, with its "\n" (native copies: a byte loop here was 18 ms of the take step's turns).
      out.set(bytes, w);
      let src = w + bytes.byteLength;
      let dst = src + (end - first);
      for (let i = end - 1; i >= first; i--) {
        const n = p.lengths[i] ?? 0;
        src -= n;
        dst -= n + 1;
        out.copyWithin(dst, src, src + n);
        out[dst + n] = 10;
      }
      w += bytes.byteLength + (end - first);
      return;
    }
    let at = 0;
    for (let i = first; i < end; i++) {
      const from = at;
      for (let left = p.lengths[i] ?? 0; left > 0 && at < bytes.byteLength; ) left -= unitsOf(bytes[at++] ?? 0);
      // The continuation bytes of the last sequence belong to this string too.
      while (at < bytes.byteLength && unitsOf(bytes[at] ?? 0) === 0) at++;
      // Copied a byte at a time (text cells, rare): a subarray a line was 100,000 short-lived typed arrays, young garbage collected inside the step.
      for (let k = from; k < at; k++) out[w++] = bytes[k] ?? 0;
      out[w++] = 10;
    }
  });
  return out.subarray(0, w);
}

/**
 * The strings joined by "\n" as one string, when they are all ASCII (addresses are), else undefined:
 * the list file's bytes (packedLinesFile) read as one one-byte string, one allocation on the host
 * instead of one string per line (a long list kept packed: spec/packedList.ts).
 */
async function packedLinesText(p: PackedLines): Promise<string | undefined> {
  let units = 0;
  for (let i = 0; i < p.lengths.length; i++) units += p.lengths[i] ?? 0;
  if (units !== p.bytes.byteLength) return undefined;
  if (p.lengths.length === 0) return '';
  const file = await packedLinesFile(p);
  return Buffer.from(file.buffer, file.byteOffset, file.byteLength - 1).toString('latin1');
}

/**
 * A list the worker checked (valid, normalised, distinct addresses of `chain`) as the host keeps it:
 * packed when long (one string, spec/packedList.ts), else its strings, marked checked.
 */
export async function checkedList(p: PackedLines, chain: Chain): Promise<string[] | PackedList> {
  if (p.lengths.length > PACK_MIN_ITEMS) {
    const text = await packedLinesText(p);
    if (text !== undefined) return packChecked(text, p.lengths.length, chain);
  }
  return checkedAddresses(await unpackLines(p), chain) as string[];
}
