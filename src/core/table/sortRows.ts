/**
 * Sorting row ids by typed columns.
 *
 * Order within a column: numbers by value, then text in natural order ("w2" before "w10",
 * Intl.Collator with numeric on), then empty cells. Descending reverses numbers and text but
 * empty cells stay last either way. Ties fall to the next key, then to the row id, so the
 * result is fully determined and stable.
 *
 * Each key is one Float64Array (NaN = empty): a column of numbers is its own key; a column
 * holding text gets a rank array computed once and cached with the column. A sort is a stable
 * LSD radix sort of row ids by the key's bits, one key after another from the last, with no
 * comparator; none for a digit every row shares. Only the first pass reads the key through the row
 * ids (a cache miss a row on a big column); the rest of the key is carried beside the ids, so later
 * passes read in order: doubles in six passes of 11-bit digits with both words carried (16 bytes a
 * row while it runs), a narrow column in 16-bit digits with its middle digit carried (2 bytes a row;
 * 1,000,000 rows of a 40-bit column: 71–128 ms of CPU on the bench machine under load, where every
 * pass reading through the ids took 200–250; a comparator `Uint32Array.sort` ≈430).
 * A view passes its spare buffer as the scratch for the ids; the carried key words are the sort's own. The
 * dense ranks of a column holding text are cached with it: a Float64Array, 8 bytes a row (NaN for
 * an empty cell, so a rank key sorts as a numbers key does); building them takes the ids of the
 * non-empty rows and a map of the distinct texts, let go once built.
 *
 * Exact: doubles order every decimal of at most 15 significant digits; a column holding longer
 * ones (TypedColumn.exact) gets one more pass over the sorted rows, which orders each run of
 * equal doubles holding such a cell by the cells' decimal text (compareDecimalText). Other
 * columns never pay for it.
 */
import { compareDecimalText } from './numbers';
import { CellKind, type ScaledInts, type SortKey, type TypedColumn } from './types';

/** Built on the first text comparison: a collator pages ~3 MB of ICU data into the worker, which a sort of numbers never needs (issue 34). */
let collator: Intl.Collator | undefined;
const orderKeys = new WeakMap<TypedColumn, Float64Array>();

/** Compares two cell texts the way sorting does. */
export function compareText(a: string, b: string): number {
  collator ??= new Intl.Collator('en', { numeric: true });
  return collator.compare(a, b) || (a < b ? -1 : a > b ? 1 : 0);
}

/** The column's sort key per row: its value for numbers-only columns, else a rank; NaN for empty cells. (A narrow column sorts by its ScaledInts instead.) */
export function orderKey(col: TypedColumn): Float64Array {
  if (col.textCount === 0) return col.numbers;
  let key = orderKeys.get(col);
  if (!key) {
    key = rankKey(col);
    orderKeys.set(col, key);
  }
  return key;
}

function rankKey(col: TypedColumn): Float64Array {
  const n = col.kinds.length;
  const key = new Float64Array(n).fill(NaN);
  const numberRows: number[] = [];
  const textRows: number[] = [];
  for (let r = 0; r < n; r++) {
    if (col.kinds[r] === CellKind.Number) numberRows.push(r);
    else if (col.kinds[r] === CellKind.Text) textRows.push(r);
  }
  const nums = col.numbers;
  const exact = col.exact;
  const tie = exact ? (a: number, b: number): number => (exact.has(a) || exact.has(b) ? compareDecimalText(exactText(col, a), exactText(col, b)) : 0) : () => 0;
  numberRows.sort((a, b) => (nums[a] ?? 0) - (nums[b] ?? 0) || tie(a, b));
  let rank = 0;
  for (let i = 0; i < numberRows.length; i++) {
    const r = numberRows[i] ?? 0;
    const p = numberRows[i - 1] ?? 0;
    if (i > 0 && (nums[r] !== nums[p] || tie(p, r) !== 0)) rank++;
    key[r] = rank;
  }
  // Collate each distinct text once, not once per comparison of rows.
  const texts = col.texts ?? [];
  const distinct = [...new Set(textRows.map((r) => texts[r] ?? ''))].sort(compareText);
  const rankOf = new Map(distinct.map((t, i) => [t, i]));
  const base = numberRows.length > 0 ? rank + 1 : 0;
  for (const r of textRows) key[r] = base + (rankOf.get(texts[r] ?? '') ?? 0);
  return key;
}

/** The exact decimal text of number cell `r`: its own text when its double does not order it, else its double's (the same value). */
export function exactText(col: Pick<TypedColumn, 'exact' | 'numbers'>, r: number, value?: number): string {
  return col.exact?.get(r) ?? String(value ?? col.numbers[r] ?? NaN);
}

/**
 * Orders, by exact value, each run of equal keys in sorted `ids` that holds a cell of `exact`
 * (stable within a run, so later keys and the row id still break true ties).
 */
function exactRuns(ids: Uint32Array, key: Float64Array, col: TypedColumn, exact: ReadonlyMap<number, string>, descending: boolean): void {
  const n = ids.length;
  for (let i = 0; i < n; ) {
    const v = key[ids[i] ?? 0] ?? NaN;
    let j = i + 1;
    let long = exact.has(ids[i] ?? 0);
    while (j < n && key[ids[j] ?? 0] === v) long = exact.has(ids[j++] ?? 0) || long;
    if (long && j - i > 1) {
      const run = Array.from(ids.subarray(i, j));
      run.sort((a, b) => (descending ? -1 : 1) * compareDecimalText(exactText(col, a), exactText(col, b)));
      ids.set(run, i);
    }
    i = j;
  }
}

/**
 * Turns the counts of one digit (`values` of them, at table[base]) into the start of each bucket;
 * false when the pass would change no order (no row, or one bucket holding all n rows).
 */
function bucketStarts(table: Uint32Array, base: number, n: number, values: number): boolean {
  let sum = 0;
  let uniform = false;
  for (let b = base; b < base + values; b++) {
    const c = table[b] ?? 0;
    if (c === n) uniform = true;
    table[b] = sum;
    sum += c;
  }
  return !uniform && n > 0;
}

/**
 * Doubles' digits, 11 bits: 2,048 buckets a pass, so a pass that writes the ids and the two carried
 * words of each row writes to few enough places at once for the caches.
 */
const DIGIT_BITS = 11;
const DIGIT_VALUES = 1 << DIGIT_BITS;
const DIGIT_MASK = DIGIT_VALUES - 1;
/** Counts of each digit value, for up to six digits of a key (one pass over the rows fills them all). */
const counts = new Uint32Array(6 * DIGIT_VALUES);

/**
 * One stable pass of the radix sort: rows src[0, n) with their words key[0, n) (and high[0, n)
 * when given) go to dst, keyOut (and highOut) by digit `(key >>> shift) & DIGIT_MASK`, whose
 * bucket starts are at counts[base].
 */
function scatter(n: number, base: number, shift: number, src: Uint32Array, dst: Uint32Array, key: Uint32Array, keyOut: Uint32Array, high: Uint32Array | undefined, highOut: Uint32Array | undefined): void {
  for (let i = 0; i < n; i++) {
    const k = key[i] ?? 0;
    const bucket = base + ((k >>> shift) & DIGIT_MASK);
    const at = counts[bucket] ?? 0;
    counts[bucket] = at + 1;
    dst[at] = src[i] ?? 0;
    keyOut[at] = k;
    if (high && highOut) highOut[at] = high[i] ?? 0; // the same way every row of a pass: predicted
  }
}

/**
 * The second half of parting rows into values and empty cells (a loop in each sort, over its own
 * kind of key): the values went to spare[0, n) and the empty cells to spare[e, end) backwards;
 * puts the empty cells at ids[n, end), in the order they came.
 */
function emptiesAfter(ids: Uint32Array, spare: Uint32Array, n: number, e: number): void {
  for (let i = ids.length - 1; i >= e; i--) ids[n + ids.length - 1 - i] = spare[i] ?? 0;
}

/**
 * Stable LSD radix sort of row `ids` by the column's sort `key` (NaN = empty: after every value
 * in both directions). The order-preserving form of a double is its bits with the sign bit set
 * (positive) or every bit flipped (negative); -0 counts as 0, so the two tie and fall to the next
 * key. Descending flips the form. The form is read through the ids once: its low word and high
 * word are carried with the ids from pass to pass (six digits of 11, 11, 10 bits a word), so every
 * pass reads in order. A digit that is the same on every row costs no pass. Sorts `ids` in place;
 * `spare` (as long as ids) is scratch.
 */
function radixSort(ids: Uint32Array, key: Float64Array, descending: boolean, spare: Uint32Array): void {
  const bits = new Uint32Array(key.buffer, key.byteOffset, key.length * 2);
  // Empty cells go last, in the order they came (stable): only the others are sorted.
  let n = 0;
  let e = ids.length;
  for (let i = 0; i < ids.length; i++) {
    const id = ids[i] ?? 0;
    if (key[id] === key[id]) spare[n++] = id;
    else spare[--e] = id;
  }
  emptiesAfter(ids, spare, n, e);
  const flip = descending ? 0xffffffff : 0;
  // The key's words, carried with the ids (scratch of this sort only: 16 bytes a row while it runs).
  let lo = new Uint32Array(n);
  let hi = new Uint32Array(n);
  let lo2 = new Uint32Array(n);
  let hi2 = new Uint32Array(n);
  counts.fill(0);
  for (let i = 0; i < n; i++) {
    const id = spare[i] ?? 0;
    const l = (orderLow(bits, id) ^ flip) >>> 0;
    const h = (orderHigh(bits, id) ^ flip) >>> 0;
    lo[i] = l;
    hi[i] = h;
    counts[l & DIGIT_MASK] = (counts[l & DIGIT_MASK] ?? 0) + 1;
    counts[DIGIT_VALUES + ((l >>> 11) & DIGIT_MASK)] = (counts[DIGIT_VALUES + ((l >>> 11) & DIGIT_MASK)] ?? 0) + 1;
    counts[2 * DIGIT_VALUES + (l >>> 22)] = (counts[2 * DIGIT_VALUES + (l >>> 22)] ?? 0) + 1;
    counts[3 * DIGIT_VALUES + (h & DIGIT_MASK)] = (counts[3 * DIGIT_VALUES + (h & DIGIT_MASK)] ?? 0) + 1;
    counts[4 * DIGIT_VALUES + ((h >>> 11) & DIGIT_MASK)] = (counts[4 * DIGIT_VALUES + ((h >>> 11) & DIGIT_MASK)] ?? 0) + 1;
    counts[5 * DIGIT_VALUES + (h >>> 22)] = (counts[5 * DIGIT_VALUES + (h >>> 22)] ?? 0) + 1;
  }
  let src = spare;
  let dst = ids;
  for (let pass = 0; pass < 6; pass++) {
    const base = pass * DIGIT_VALUES;
    if (!bucketStarts(counts, base, n, DIGIT_VALUES)) continue;
    const shift = (pass % 3) * 11;
    // The low word's passes carry the high word along; the high word's need the low word no more.
    if (pass < 3) {
      scatter(n, base, shift, src, dst, lo, lo2, hi, hi2);
      [lo, lo2, hi, hi2] = [lo2, lo, hi2, hi];
    } else {
      scatter(n, base, shift, src, dst, hi, hi2, undefined, undefined);
      [hi, hi2] = [hi2, hi];
    }
    [src, dst] = [dst, src];
  }
  // The sorted values are in src[0, n); the empty cells already sit after them in ids.
  if (src !== ids) ids.set(src.subarray(0, n));
}

/** A narrow column's digits: 16 bits, 16 bits, the high byte (their counts at 0, 65,536 and 131,072 in narrowCounts). */
const narrowCounts = new Uint32Array(2 * 65536 + 256);

/**
 * radixSort for a narrow column (ScaledInts): its stored forms are already order-preserving
 * unsigned keys of 32 or 40 bits, 0 for an empty cell. Two digits of 16 bits, and the high byte
 * when it has one. Only the first pass reads the key through the ids; it writes the key's other
 * digit beside the ids it places (2 bytes a row), and the next pass reads it in order (the high
 * byte's pass reads its 1-byte-a-row array through the ids, which the caches hold): reading the key through the ids every pass was a cache miss a row and a
 * pass (1,000,000 rows of a 40-bit column: 250–600 ms on the bench machine). Words of 4 bytes
 * carried (with 11-bit digits) were faster still, but took the quoted file's peak memory over
 * issue 34's budget of 0.25 × the file.
 */
function radixSortBits(ids: Uint32Array, { bits, high }: ScaledInts, descending: boolean, spare: Uint32Array): void {
  let n = 0;
  let e = ids.length;
  for (let i = 0; i < ids.length; i++) {
    const id = ids[i] ?? 0;
    if ((bits[id] ?? 0) !== 0 || (high?.[id] ?? 0) !== 0) spare[n++] = id;
    else spare[--e] = id;
  }
  emptiesAfter(ids, spare, n, e);
  const flip = descending ? 0xffffffff : 0;
  const counts = narrowCounts;
  counts.fill(0);
  for (let i = 0; i < n; i++) {
    const id = spare[i] ?? 0;
    const u = ((bits[id] ?? 0) ^ flip) >>> 0;
    counts[u & 0xffff] = (counts[u & 0xffff] ?? 0) + 1;
    counts[65536 + (u >>> 16)] = (counts[65536 + (u >>> 16)] ?? 0) + 1;
    if (high) {
      const h = ((high[id] ?? 0) ^ flip) & 0xff;
      counts[131072 + h] = (counts[131072 + h] ?? 0) + 1;
    }
  }
  const sortLow = bucketStarts(counts, 0, n, 65536);
  const sortMid = bucketStarts(counts, 65536, n, 65536);
  const sortHigh = high !== undefined && bucketStarts(counts, 131072, n, 256);
  // What the first pass carries: the middle digit, 2 bytes a row. The high byte is read through
  // the ids in its own pass: 1 byte a row of the column, its reads hit the caches.
  const mid = new Uint16Array(sortMid ? n : 0);
  let src = spare;
  let dst = ids;
  if (sortLow) {
    for (let i = 0; i < n; i++) {
      const id = src[i] ?? 0;
      const u = ((bits[id] ?? 0) ^ flip) >>> 0;
      const at = counts[u & 0xffff] ?? 0;
      counts[u & 0xffff] = at + 1;
      dst[at] = id;
      mid[at] = u >>> 16;
    }
    [src, dst] = [dst, src];
  } else {
    for (let i = 0; i < n; i++) mid[i] = ((bits[src[i] ?? 0] ?? 0) ^ flip) >>> 16;
  }
  if (sortMid) {
    for (let i = 0; i < n; i++) {
      const bucket = 65536 + (mid[i] ?? 0);
      const at = counts[bucket] ?? 0;
      counts[bucket] = at + 1;
      dst[at] = src[i] ?? 0;
    }
    [src, dst] = [dst, src];
  }
  if (sortHigh) {
    for (let i = 0; i < n; i++) {
      const id = src[i] ?? 0;
      const bucket = 131072 + (((high[id] ?? 0) ^ flip) & 0xff);
      const at = counts[bucket] ?? 0;
      counts[bucket] = at + 1;
      dst[at] = id;
    }
    src = dst;
  }
  if (src !== ids) ids.set(src.subarray(0, n));
}

/** The high word of value `id`'s order-preserving form (-0 as 0). */
function orderHigh(bits: Uint32Array, id: number): number {
  const hi = bits[2 * id + 1] ?? 0;
  if (hi >>> 31 === 0) return (hi | 0x80000000) >>> 0;
  if (hi === 0x80000000 && (bits[2 * id] ?? 0) === 0) return 0x80000000; // -0
  return ~hi >>> 0;
}

/** The low word of value `id`'s order-preserving form (-0 as 0). */
function orderLow(bits: Uint32Array, id: number): number {
  const hi = bits[2 * id + 1] ?? 0;
  const lo = bits[2 * id] ?? 0;
  return hi >>> 31 === 0 || (hi === 0x80000000 && lo === 0) ? lo : ~lo >>> 0;
}

/**
 * Sorts `rows` (row ids) in place by `keys`, whose typed columns are `columns` (same order).
 * `spare`, at least as long as rows, is scratch (a view passes the buffer its old rows were in).
 */
export function sortRows(rows: Uint32Array, keys: readonly SortKey[], columns: readonly TypedColumn[], spare?: Uint32Array): Uint32Array {
  const n = rows.length;
  // Ties fall to the row id: start from ascending ids, and every pass below is stable.
  for (let i = 1; i < n; i++) {
    if ((rows[i - 1] ?? 0) > (rows[i] ?? 0)) {
      rows.sort();
      break;
    }
  }
  const scratch = spare && spare.length >= n ? spare.subarray(0, n) : new Uint32Array(n);
  for (let k = keys.length - 1; k >= 0; k--) {
    const col = columns[k];
    const descending = keys[k]?.descending === true;
    if (col?.scaled) radixSortBits(rows, col.scaled, descending, scratch);
    else if (col) {
      const key = orderKey(col);
      radixSort(rows, key, descending, scratch);
      // A column with text has ranks, already exact; a numbers-only one orders its long decimals here.
      if (col.exact && col.textCount === 0) exactRuns(rows, key, col, col.exact, descending);
    }
  }
  return rows;
}
