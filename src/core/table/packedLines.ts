/**
 * A list of strings as it crosses from the table worker to the host: one UTF-8 buffer and the
 * strings' lengths, never an array of strings. Why: the host deserialises an array of 100,000
 * strings in one turn (100–300 ms on a loaded machine: issue 34 item 4); a buffer is one copy,
 * and the host cuts it into strings a slice at a time, giving its loop back between slices.
 */

/** The wire form: the strings concatenated, as UTF-8, and each one's length in UTF-16 code units. */
export interface PackedLines {
  readonly bytes: Uint8Array;
  readonly lengths: Uint32Array;
}

/** Packs `strings` (in the worker). */
export function packLines(strings: readonly string[]): PackedLines {
  return { bytes: new TextEncoder().encode(strings.join('')), lengths: Uint32Array.from(strings, (s) => s.length) };
}

export function isPackedLines(v: unknown): v is PackedLines {
  return typeof v === 'object' && v !== null && (v as PackedLines).bytes instanceof Uint8Array && (v as PackedLines).lengths instanceof Uint32Array;
}

/** Strings cut between two turns of the host's loop: well under a millisecond of slicing. */
const SLICE = 8_192;

/** The strings again (on the host), cut a slice at a time with the loop given back between slices. */
export async function unpackLines(p: PackedLines): Promise<string[]> {
  const text = new TextDecoder().decode(p.bytes);
  const out: string[] = new Array<string>(p.lengths.length);
  let at = 0;
  for (let i = 0; i < p.lengths.length; i++) {
    if (i > 0 && i % SLICE === 0) await new Promise<void>((resolve) => setImmediate(resolve));
    const n = p.lengths[i] ?? 0;
    out[i] = text.slice(at, at + n);
    at += n;
  }
  return out;
}
