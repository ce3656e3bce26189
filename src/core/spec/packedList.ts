/**
 * A long list of checked addresses carried packed on the extension host: one ASCII string of the
 * normalised addresses joined by "\n", its count and its chain, never 100,000 strings. Why (issue 34
 * item 4): the host's longest stalls on the list source and "use as input" paths were its garbage
 * collection of the 100,000 address strings while they were made and kept (each kept string is
 * copied by a scavenge, then marked); one string of 4.5 MB is one allocation, made outside the young
 * generation, and never copied. Items are made only transiently, a slice at a time, where something
 * must read them (a request body's text, an id's hash, a job's list file), and dropped at once.
 *
 * Made only by the parse that checked its items (`packChecked`: the table worker's, through
 * table/remoteTable.ts), so an input check takes it as valid by construction (addresses.ts
 * addressListSchema: only its count against the field's least and most). Anything unaware of it
 * still reads it right: `toJSON()` is the array's, and `toArray()` gives the strings for the few
 * later actions that need them (Copy as Code, a re-run read back from its file).
 */
/** addresses.ts's Chain (not imported from there: addresses.ts reads this file to take a packed list as checked). */
type Chain = 'main' | 'alt';

/** Lists longer than this are carried packed (shorter ones cost the host nothing worth the care): the one threshold. */
export const PACK_MIN_ITEMS = 4_096;

/** Items made strings between two turns of the host's loop (a slice's JSON text, its hash): well under a millisecond. */
const PACKED_SLICE = 8_192;

export class PackedList {
  private constructor(
    /** The addresses joined by "\n" (ASCII: base58 or 0x-hex, normalised). */
    readonly text: string,
    /** How many addresses: the array's length. */
    readonly length: number,
    readonly chain: Chain,
  ) {}

  /** Only for `packChecked` (below). */
  static make(text: string, length: number, chain: Chain): PackedList {
    return new PackedList(text, length, chain);
  }

  /** Where item `i` starts in `text` (i ≤ length; `length` gives text.length + 1), found by walking the line ends. */
  private startOf(i: number): number {
    if (i <= 0) return 0;
    if (i >= this.length) return this.text.length + 1;
    let at = 0;
    for (let k = 0; k < i; k++) at = this.text.indexOf('\n', at) + 1;
    return at;
  }

  /** The first `n` items, still packed (the text a substring of this one's: no copy of the items). */
  first(n: number): PackedList {
    if (n >= this.length) return this;
    const end = Math.max(0, n);
    return new PackedList(end === 0 ? '' : this.text.slice(0, this.startOf(end) - 1), end, this.chain);
  }

  /** Items [from, to) as strings: for a reader that needs a few (a sample, the first three shown). */
  items(from: number, to: number): string[] {
    const a = Math.max(0, from);
    const b = Math.min(this.length, to);
    if (b <= a) return [];
    return this.text.slice(this.startOf(a), this.startOf(b) - 1).split('\n');
  }

  /** Every item as a string: only for a later action that needs the strings (Copy as Code, a re-run's file read back). */
  toArray(): string[] {
    return this.length === 0 ? [] : this.text.split('\n');
  }

  /** What JSON.stringify writes for it: the array's JSON (anything unaware of the packed form stays correct). */
  toJSON(): string[] {
    return this.toArray();
  }

  /**
   * The array's items as JSON text, PACKED_SLICE items a piece (the pieces joined by "," and put in
   * "[" "]" are JSON.stringify(this.toArray()), byte for byte; spec/jsonText.ts packedJsonPieces
   * gives the loop back between pieces). Each piece is made from the packed text, no string per
   * item: the items are addresses (no character JSON escapes), so a piece is its text with each
   * "\n" written `","`, in quotes.
   */
  *jsonParts(): Generator<string> {
    let at = 0;
    for (let i = 0; i < this.length; i += PACKED_SLICE) {
      const last = Math.min(this.length, i + PACKED_SLICE);
      let end = this.text.length + 1;
      if (last < this.length) {
        end = at;
        for (let k = i; k < last; k++) end = this.text.indexOf('\n', end) + 1;
      }
      yield `"${this.text.slice(at, end - 1).replaceAll('\n', '","')}"`;
      at = end;
    }
  }
}

/** Whether `v` is a packed list (of `chain`, when given). */
export function isPackedList(v: unknown, chain?: Chain): v is PackedList {
  return v instanceof PackedList && (chain === undefined || v.chain === chain);
}

/** Items [from, to) of a list, packed or an array, as an array (a few: a sample, the first shown). */
export function listItems(v: readonly string[] | PackedList, from: number, to: number): string[] {
  return isPackedList(v) ? v.items(from, to) : v.slice(from, to);
}

/** The first `n` of a list, packed or an array, in the same form (a packed list's text shared, not copied). */
export function firstOfList(v: readonly string[] | PackedList, n: number): readonly string[] | PackedList {
  if (isPackedList(v)) return v.first(n);
  return v.length > n ? v.slice(0, n) : v;
}

/**
 * Checked addresses, joined by "\n", as a packed list: call it only with the output of a parse that
 * checked each item (valid, normalised, distinct addresses of `chain`: the table worker's).
 */
export function packChecked(text: string, length: number, chain: Chain): PackedList {
  return PackedList.make(text, length, chain);
}
