/**
 * Address forms and list parsing. Main chain: base58, 32–44 characters (§ issue rules).
 * Second chain: the spec does not name it; we take the EVM form `0x` + 40 hex digits,
 * compared case-insensitively and normalised to lower case. This is the one place to change it.
 */
import { z } from 'zod';
import { l10n } from '../l10n';
import { thousands } from '../numberText';
import { isPackedList, type PackedList } from './packedList';

export type Chain = 'main' | 'alt';

const BASE58 = /^[1-9A-HJ-NP-Za-km-z]{32,44}$/u;
const BASE58_CHARS = /^[1-9A-HJ-NP-Za-km-z]+$/u;
const EVM = /^0x[0-9a-fA-F]{40}$/u;

/**
 * Whether `value` is an address of the chain: the test alone, for the loops over every cell
 * (classifying a column, counting distinct addresses). addressProblem says why not, and builds a
 * translated sentence to say it: per cell, that was most of "use as input"'s 99–121 ms stall on
 * a 100,000-row result (issue 34).
 */
export function isAddress(value: string, chain: Chain): boolean {
  return chain === 'alt' ? EVM.test(value) : BASE58.test(value);
}

/** Why a string is not an address of the chain, or undefined when it is one. */
export function addressProblem(value: string, chain: Chain): string | undefined {
  if (chain === 'alt') {
    if (EVM.test(value)) return undefined;
    if (!value.startsWith('0x')) return l10n.t('second-chain addresses start with 0x');
    if (value.length !== 42) return l10n.t('second-chain addresses are 42 characters (0x + 40 hex), this one has {0}', value.length);
    return l10n.t('second-chain addresses hold only hex digits after 0x');
  }
  if (BASE58.test(value)) return undefined;
  if (!BASE58_CHARS.test(value)) {
    const bad = [...value].find((ch) => !BASE58_CHARS.test(ch));
    return l10n.t('“{0}” is not a base58 character (base58 has no 0, O, I or l)', bad ?? '');
  }
  return l10n.t('addresses are 32 to 44 characters, this one has {0}', value.length);
}

/** Normalises an address for comparison and sending (lower case on the second chain). */
export function normaliseAddress(value: string, chain: Chain): string {
  return chain === 'alt' ? value.toLowerCase() : value;
}

/** How many Sets a SpreadSet spreads its strings over. */
const SPREAD = 64;

/**
 * A set of strings (addresses) spread over SPREAD Sets by two of their last characters. Why: a Set
 * growing past 65,536 entries rehashes all of them in one go, 34–58 ms of one turn of the
 * extension host's loop at load 11 (issue 34 item 4: a list source of 100,000); spread, no one Set
 * holds more than about a sixty-fourth of them, so no single add costs more than a short rehash.
 */
export class SpreadSet {
  private readonly sets: Set<string>[] = Array.from({ length: SPREAD }, () => new Set<string>());
  private count = 0;

  private setOf(v: string): Set<string> {
    // NaN (a string shorter than two) & 63 is 0: still a Set, only a fuller one.
    return this.sets[(v.charCodeAt(v.length - 1) * 31 + v.charCodeAt(v.length - 2)) & (SPREAD - 1)] as Set<string>;
  }

  has(v: string): boolean {
    return this.setOf(v).has(v);
  }

  /** Adds `v`; true when it was not there. */
  add(v: string): boolean {
    const set = this.setOf(v);
    if (set.has(v)) return false;
    set.add(v);
    this.count++;
    return true;
  }

  get size(): number {
    return this.count;
  }
}

/** The distinct addresses of a column's cells and how many it holds. */
export interface DistinctAddresses {
  /** Distinct, normalised (normaliseAddress, trimmed), in first-seen order; at most `limit`. */
  readonly addresses: string[];
  /** How many distinct addresses the cells hold in all (more than `addresses.length` past the limit). */
  readonly distinct: number;
  /** Non-empty cells that are not addresses of the chain. */
  readonly skipped: number;
}

/**
 * The distinct addresses among some cells (trimmed, normalised), in first-seen order, and how many
 * non-empty cells were not addresses of `chain`. Every reader of a result's address column calls
 * this (the table worker for "use as input", address sets, the table's own column).
 */
export function distinctAddresses(cells: Iterable<string>, chain: Chain, limit = Infinity): DistinctAddresses {
  const set = new Set<string>();
  let skipped = 0;
  for (const raw of cells) {
    const v = raw.trim();
    if (v === '') continue;
    if (!isAddress(v, chain)) {
      skipped++;
      continue;
    }
    set.add(normaliseAddress(v, chain));
  }
  const all = [...set];
  return { addresses: all.length > limit ? all.slice(0, limit) : all, distinct: all.length, skipped };
}

/**
 * Lists our own readers made of valid, normalised, distinct addresses of a chain (distinctAddresses'
 * output, from the table worker), frozen so that nothing changes them after: an endpoint's input
 * check takes such a list as it is, instead of checking 100,000 addresses again in one turn of the
 * extension host's loop (issue 34 item 4: the price step of "use as input"). A list from anywhere
 * else (typed, pasted, a tool's or a file's) is checked item by item.
 */
const checkedLists = new WeakMap<readonly string[], Chain>();

/** `list` frozen and known to hold only valid, normalised, distinct addresses of `chain`: call it only on distinctAddresses' output. */
export function checkedAddresses(list: string[], chain: Chain): readonly string[] {
  Object.freeze(list);
  checkedLists.set(list, chain);
  return list;
}

/** Whether `list` was marked checked for `chain` (checkedAddresses). */
export function isCheckedFor(list: readonly unknown[], chain: Chain): boolean {
  return checkedLists.get(list as readonly string[]) === chain;
}

/** The first `count` of a list, known checked when the list was ("use as input" cuts a list to a field's most); a packed list stays packed. */
export function firstAddresses(list: readonly string[] | PackedList, count: number): string[] | PackedList {
  if (isPackedList(list)) return list.first(count);
  const chain = checkedLists.get(list);
  // A checked list is frozen: taken whole, it is shared, not copied (a copy of 100,000 is a few ms of the loop).
  if (chain !== undefined && count >= list.length) return list as string[];
  const first = list.slice(0, count);
  return chain === undefined ? first : (checkedAddresses(first, chain) as string[]);
}

/** What an address of the chain is, to end a sentence: "… must be a base58 address of 32 to 44 characters (no 0, O, I or l)". */
export function addressRule(chain: Chain): string {
  return chain === 'alt' ? 'a second-chain address: 0x and 40 hex digits' : 'a base58 address of 32 to 44 characters (no 0, O, I or l)';
}

/**
 * A zod schema for one address of the chain. With `rule` (the field's rule sentence), a value
 * of the wrong type reads the rule and a bad address the rule and why; without it (an item
 * of a list), the message names the item and why.
 */
export function addressSchema(chain: Chain, rule?: string): z.ZodType<string> {
  return z
    .string(rule === undefined ? undefined : { error: rule })
    .trim()
    .superRefine((v, ctx) => {
      const p = addressProblem(v, chain);
      if (p) ctx.addIssue({ code: 'custom', message: rule === undefined ? l10n.t('“{0}” is not a valid address: {1}.', short(v), p) : `${rule} “${short(v)}”: ${p}.` });
    })
    .transform((v) => normaliseAddress(v, chain));
}

/**
 * A zod schema for a non-empty list of addresses, at most max, duplicates removed; `rule` is the
 * field's rule sentence. The list is checked, normalised and de-duplicated in one loop of our own,
 * not by zod per item: zod's per-item schema took 200–321 ms of the extension host's thread for a
 * list of 100,000 on a quiet machine (0.8–1.6 s at load 17), the price step of "use as input"
 * (issue 34 item 4). Same issues in the same order, same output (addressListSchema.test).
 *
 * What the agents' tools are told the field takes (z.toJSONSchema, io 'input': declarations.ts,
 * the manifest) is the meta below, word for word what `z.array(z.string()).min(1)` generated:
 * the value itself is declared unknown so that zod walks nothing per item.
 */
export function addressListSchema(chain: Chain, max: number, rule: string): z.ZodType<string[] | PackedList, unknown> {
  return z
    .unknown()
    .meta({ minItems: 1, type: 'array', items: { type: 'string' } })
    .transform((list, ctx): string[] | PackedList => {
      // A packed list (spec/packedList.ts) is made only by the parse that checked its items: valid
      // by construction, for its own chain; only its count is checked (here and by the refines below).
      const empty = (): never => {
        ctx.addIssue({ code: 'too_small', origin: 'array', minimum: 1, inclusive: true, input: list, message: l10n.t('{0} This list is empty.', rule) });
        return z.NEVER;
      };
      if (isPackedList(list, chain)) return list.length > 0 ? list : empty();
      if (!Array.isArray(list)) {
        ctx.addIssue({ code: 'invalid_type', expected: 'array', input: list, message: rule });
        return z.NEVER;
      }
      if (list.length === 0) return empty();
      // A list our own reader or check made (frozen since): sent as it is, shared, not copied (a
      // copy of 100,000 is a few ms of the loop at each check of a call: the preflight, the send).
      if (checkedLists.get(list) === chain) return list as string[];
      // Every item's issue in the items' order, worded as z.string() and addressSchema word them.
      // Spread: one Set of 100,000 rehashed 65,536 of them in one go as it grew.
      const set = new SpreadSet();
      const out: string[] = [];
      let bad = false;
      for (let i = 0; i < list.length; i++) {
        const item: unknown = list[i];
        if (typeof item !== 'string') {
          bad = true;
          for (const issue of z.string().safeParse(item).error?.issues ?? []) ctx.addIssue({ ...issue, path: [i, ...issue.path] });
          continue;
        }
        const v = item.trim();
        if (isAddress(v, chain)) {
          const n = normaliseAddress(v, chain);
          if (set.add(n)) out.push(n);
        }
        else {
          bad = true;
          ctx.addIssue({ code: 'custom', path: [i], input: item, message: l10n.t('“{0}” is not a valid address: {1}.', short(v), addressProblem(v, chain) ?? '') });
        }
      }
      return bad ? z.NEVER : (checkedAddresses(out, chain) as string[]);
    })
    .refine((list) => list.length <= max, {
      error: (iss) => `${rule} This list has ${Array.isArray(iss.input) || isPackedList(iss.input) ? thousands(iss.input.length) : 'more'} distinct addresses.`,
    });
}

// A pasted or read list (parseAddressList): spec/listParse.ts; its bad entries and duplicates in words: addressLists/listText.ts.

function short(v: string): string {
  return v.length > 20 ? `${v.slice(0, 8)}…${v.slice(-6)}` : v;
}
