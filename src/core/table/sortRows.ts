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
 * LSD radix sort of row ids by the key's bits, read in place, one key after another from the
 * last, with no comparator: at most four passes of 16 bits per key, and none for a digit every
 * row shares (≈40–60 ms for 1,000,000 rows, where a comparator `Uint32Array.sort` took ≈430 ms).
 * A sort allocates nothing per column, and a view passes its spare buffer as the scratch. The
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
 * Turns the counts of one digit (at counts[base]) into the start of each bucket; false when the
 * pass would change no order (no row, or one bucket holding all n rows).
 */
function bucketStarts(base: number, n: number): boolean {
  let sum = 0;
  let uniform = false;
  for (let b = base; b < base + 65536; b++) {
    const c = counts[b] ?? 0;
    if (c === n) uniform = true;
    counts[b] = sum;
    sum += c;
  }
  return !uniform && n > 0;
}

/** 16 counts a digit value, for the four 16-bit digits of a key (one pass over the rows fills all four). */
const counts = new Uint32Array(4 * 65536);

/**
 * Stable LSD radix sort of row `ids` by the column's sort `key` (NaN = empty: after every value
 * in both directions), reading the key's bits in place: the order-preserving form of a double is
 * its bits with the sign bit set (positive) or every bit flipped (negative); -0 counts as 0, so the
 * two tie and fall to the next key. Descending flips the form. The four digits' counts come from
 * one pass over the rows; a digit that is the same on every row costs no pass (integers, small
 * ranges). Sorts `ids` in place; `spare` (as long as ids) is scratch.
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
  let src = spare;
  let dst = ids;
  const flip = descending ? 0xffffffff : 0;
  counts.fill(0);
  for (let i = 0; i < n; i++) {
    const id = src[i] ?? 0;
    const lo = orderLow(bits, id) ^ flip;
    const hi = orderHigh(bits, id) ^ flip;
    counts[lo & 0xffff] = (counts[lo & 0xffff] ?? 0) + 1;
    counts[65536 + (lo >>> 16)] = (counts[65536 + (lo >>> 16)] ?? 0) + 1;
    counts[131072 + (hi & 0xffff)] = (counts[131072 + (hi & 0xffff)] ?? 0) + 1;
    counts[196608 + (hi >>> 16)] = (counts[196608 + (hi >>> 16)] ?? 0) + 1;
  }
  for (let pass = 0; pass < 4; pass++) {
    const base = pass * 65536;
    if (!bucketStarts(base, n)) continue;
    const shift = (pass & 1) * 16;
    // One loop per word, not a test per row: each loop's type feedback is its own, so code made
    // hot by one sort (sortWarmup.ts) is not thrown away when the next sort takes the other word.
    if (pass >= 2) {
      for (let i = 0; i < n; i++) {
        const id = src[i] ?? 0;
        const bucket = base + (((orderHigh(bits, id) ^ flip) >>> shift) & 0xffff);
        const at = counts[bucket] ?? 0;
        counts[bucket] = at + 1;
        dst[at] = id;
      }
    } else {
      for (let i = 0; i < n; i++) {
        const id = src[i] ?? 0;
        const bucket = base + (((orderLow(bits, id) ^ flip) >>> shift) & 0xffff);
        const at = counts[bucket] ?? 0;
        counts[bucket] = at + 1;
        dst[at] = id;
      }
    }
    [src, dst] = [dst, src];
  }
  // The sorted values are in src[0, n); the empty cells already sit after them in ids.
  if (src !== ids) ids.set(src.subarray(0, n));
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
 * radixSort for a narrow column (ScaledInts): its stored forms are already order-preserving
 * unsigned keys, 0 for an empty cell. Two digits of 16 bits, and the high byte when it has one.
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
  let src = spare;
  let dst = ids;
  const flip = descending ? 0xffffffff : 0;
  const passes = high ? 3 : 2;
  counts.fill(0, 0, passes * 65536);
  for (let i = 0; i < n; i++) {
    const id = src[i] ?? 0;
    const u = (bits[id] ?? 0) ^ flip;
    counts[u & 0xffff] = (counts[u & 0xffff] ?? 0) + 1;
    counts[65536 + (u >>> 16)] = (counts[65536 + (u >>> 16)] ?? 0) + 1;
    if (high) {
      const h = ((high[id] ?? 0) ^ flip) & 0xff;
      counts[131072 + h] = (counts[131072 + h] ?? 0) + 1;
    }
  }
  for (let pass = 0; pass < passes; pass++) {
    const base = pass * 65536;
    if (!bucketStarts(base, n)) continue;
    const shift = pass * 16;
    // The high byte's pass has a loop of its own (see radixSort).
    if (pass === 2 && high) {
      for (let i = 0; i < n; i++) {
        const id = src[i] ?? 0;
        const bucket = base + (((high[id] ?? 0) ^ flip) & 0xff);
        const at = counts[bucket] ?? 0;
        counts[bucket] = at + 1;
        dst[at] = id;
      }
    } else {
      for (let i = 0; i < n; i++) {
        const id = src[i] ?? 0;
        const bucket = base + ((((bits[id] ?? 0) ^ flip) >>> shift) & 0xffff);
        const at = counts[bucket] ?? 0;
        counts[bucket] = at + 1;
        dst[at] = id;
      }
    }
    [src, dst] = [dst, src];
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
