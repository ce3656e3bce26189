/**
 * A pasted or read list of addresses, parsed: valid ones (normalised, de-duplicated), the bad
 * entries with their lines, and a duplicate count. Why here and why this way (issue 34 item 4): a
 * list source ("from a previous result", a file, the active file) reaches 100,000 entries, and the
 * one synchronous pass that split the text, built a translated sentence for every bad entry and
 * filled a Set took 330–640 ms of the extension host's thread. Now an entry is tested without a
 * sentence (a bad entry's reason is built when it is read: a picker shows 50, a message 5), the
 * text is never split whole, and `parseAddressListSliced` gives the host's loop back every
 * PARSE_SLICE entries. `parseAddressList` (the same scanner, in one go) stays for short text: a
 * selection's count and the paste box's check as the person types. Here, below addressLists/ and
 * table/, because the table worker parses a list source's column too (remoteTable.ts addressList);
 * addressLists/listText.ts says a parsed list in words.
 */
import { addressProblem, isAddress, normaliseAddress, SpreadSet, type Chain } from './addresses';
import type { PackedList } from './packedList';

/** An entry that is not an address; `reason` is built when read (a translated sentence). */
interface BadEntry {
  /** 1-based line of the text (or row of a list of cells). */
  readonly line: number;
  readonly value: string;
  readonly reason: string;
}

export interface ParsedList {
  /** Valid, normalised, de-duplicated, in first-seen order (a long one parsed in the table worker packed: spec/packedList.ts). */
  readonly valid: string[] | PackedList;
  /** Entries that are not addresses, with their 1-based line number in the input. */
  readonly invalid: BadEntry[];
  /** How many repeated entries were dropped. */
  readonly duplicates: number;
}

/** A list parsed on this thread: its valid addresses as strings. */
interface ParsedStrings extends ParsedList {
  readonly valid: string[];
}

class LazyBadEntry implements BadEntry {
  constructor(
    readonly line: number,
    readonly value: string,
    private readonly chain: Chain,
  ) {}

  get reason(): string {
    return addressProblem(this.value, this.chain) ?? '';
  }
}

/** A ParsedList of parts parsed elsewhere (the table worker: remoteTable.ts addressList), each bad entry's reason built when read. */
export function parsedList(valid: string[] | PackedList, invalid: readonly { readonly line: number; readonly value: string }[], duplicates: number, chain: Chain): ParsedList {
  return { valid, invalid: invalid.map((b) => new LazyBadEntry(b.line, b.value, chain)), duplicates };
}

/** Entries parsed between two turns of the host's loop: a few milliseconds even on a loaded machine. */
export const PARSE_SLICE = 1_024;

/** An entry: anything between spaces, commas, semicolons and line ends (a fresh RegExp per text: it keeps its place). */
const ENTRY = '[^\\s,;]+';
const QUOTE = /^["'`]+|["'`]+$/gu;

/** The list being built, one entry at a time. */
class ListBuilder {
  /** Spread (addresses.ts): one Set of 100,000 rehashed 65,536 of them in one turn as it grew. */
  private readonly seen = new SpreadSet();
  readonly valid: string[] = [];
  readonly invalid: BadEntry[] = [];
  duplicates = 0;

  constructor(private readonly chain: Chain) {}

  add(raw: string, line: number): void {
    const q0 = raw.charCodeAt(0);
    const q1 = raw.charCodeAt(raw.length - 1);
    // Quotes are rare: the replace runs only when an end is one (34 ", 39 ', 96 `).
    const v = q0 === 34 || q0 === 39 || q0 === 96 || q1 === 34 || q1 === 39 || q1 === 96 ? raw.replace(QUOTE, '') : raw;
    if (!v) return;
    if (!isAddress(v, this.chain)) {
      this.invalid.push(new LazyBadEntry(line, v, this.chain));
      return;
    }
    const n = normaliseAddress(v, this.chain);
    if (this.seen.add(n)) this.valid.push(n);
    else this.duplicates++;
  }

  result(): ParsedStrings {
    return { valid: this.valid, invalid: this.invalid, duplicates: this.duplicates };
  }
}

/** Line breaks (\r\n, \n or \r) in text[from, to): only separators lie there, so it is short. */
function breaksIn(text: string, from: number, to: number): number {
  let n = 0;
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (c === 13 || (c === 10 && (i === 0 || text.charCodeAt(i - 1) !== 13))) n++;
  }
  return n;
}

/**
 * The entries of `text` (its first line numbered `firstLine`), each with its line, found one at a
 * time: the text is never split whole (a 4 MB split was one long turn of its own).
 */
function* entries(text: string, firstLine: number): Generator<[string, number]> {
  const re = new RegExp(ENTRY, 'gu');
  let line = firstLine;
  let at = 0;
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    line += breaksIn(text, at, m.index);
    at = m.index + m[0].length;
    yield [m[0], line];
  }
  return line;
}

/** The cells of `source` as texts with their first lines: one text, or each cell on a line of its own. */
function* texts(source: string | readonly string[]): Generator<[string, number]> {
  if (typeof source === 'string') {
    yield [source, 1];
    return;
  }
  for (let i = 0; i < source.length; i++) yield [source[i] ?? '', i + 1];
}

/**
 * Parses pasted text (addresses separated by spaces, commas, semicolons or new lines) into valid
 * addresses, the invalid entries with their line numbers, and a duplicate count, in one go: for
 * short text (what a person types or selects).
 */
export function parseAddressList(text: string | readonly string[], chain: Chain): ParsedStrings {
  const list = new ListBuilder(chain);
  for (const [t, first] of texts(text)) for (const [v, line] of entries(t, first)) list.add(v, line);
  return list.result();
}

/**
 * The same parse, with the host's loop given back every PARSE_SLICE entries: for a list source of
 * any length. `source` is a text or a column's cells (a cell's line is its row; a cell may hold
 * several entries).
 */
export async function parseAddressListSliced(source: string | readonly string[], chain: Chain): Promise<ParsedStrings> {
  const list = new ListBuilder(chain);
  let since = 0;
  for (const [t, first] of texts(source)) {
    if (since >= PARSE_SLICE) {
      since = 0;
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
    since++;
    for (const [v, line] of entries(t, first)) {
      list.add(v, line);
      if (++since >= PARSE_SLICE) {
        since = 0;
        await new Promise<void>((resolve) => setImmediate(resolve));
      }
    }
  }
  return list.result();
}
