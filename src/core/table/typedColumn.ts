/**
 * Builds a TypedColumn cell by cell; shared by every source.
 *
 * A column of numbers is kept narrow while it can be: when every number is a decimal whose
 * digits, at one scale (places after the point, at most 9) for the whole column, fit 32 bits,
 * the column holds those integers, 4 bytes a row instead of 9 (a Float64 and a kind byte); when
 * they fit 40 bits (11 digits: token amounts with 6 places), 5 bytes a row. USD amounts with
 * cents, percentages, scores and counts all fit. `numbers` and `kinds` are then made only when
 * something reads them (a comparison); sorts, filters and analysis read the integers.
 *
 * Exact by construction: an integer is kept only if dividing it by 10^scale gives back the very
 * double the cell parsed to (both are exact doubles below 2^53, and a division rounds correctly),
 * so a narrow column's values are the wide column's, bit for bit. A cell that breaks this (more
 * places, more digits, -0, a text cell) turns the column wide, once, at a cost of one copy.
 */
import { countCells, isDigitAddress, kindOfCounts } from './columnKind';
import { decimalValue, NumberScan, numberTextScan, parsedNumber } from './numbers';
import { CellKind, type ScaledInts, type TypedColumn } from './types';

/**
 * The stored form of an integer m is m + BIAS, unsigned: 0 is left for empty cells, and the
 * order is m's. 32 bits: |m| < 2^31, BIAS 2^31, in `bits`. 40 bits: |m| < 2^39, BIAS 2^39, the
 * low 32 bits in `bits` and the high 8 in `high`.
 */
const BIAS32 = 2 ** 31;
const BIAS40 = 2 ** 39;
const MAX32 = BIAS32 - 1;
const MAX40 = BIAS40 - 1;
const WORD = 2 ** 32;
const MAX_SCALE = 9;
const POW10 = Array.from({ length: MAX_SCALE + 1 }, (_, i) => 10 ** i);
/** Numbers seen before a column is made narrow or wide. */
const STAGED = 1024;

export class TypedColumnBuilder {
  // The first numbers wait here until STAGED of them (or the end) decide narrow or wide, so a
  // wide column never makes its narrow array first: big arrays left for the collector raise the
  // peak RSS, and glibc then serves the next ones from its heap, which it does not give back.
  private staged: { rows: Uint32Array; values: Float64Array; count: number } | undefined;
  // Narrow while `bits` is set (with `high` once a number needed 40 bits); wide (numbers + kinds) once a cell did not fit.
  private bits: Uint32Array | undefined;
  private high: Uint8Array | undefined;
  private scale = 0;
  private divisor = 1;
  /** Rows [0, filledTo) hold every integer kept so far (a rescale goes over no more). */
  private filledTo = 0;
  /** Largest |integer| kept so far (whether a bigger scale still fits). */
  private maxAbs = 0;
  private numbers: Float64Array | undefined;
  private kinds: Uint8Array | undefined;
  private texts: string[] | undefined;
  private readonly fullText: string[] | undefined;
  /** Row → text of the numbers their double does not order exactly (NumberScan.Long). */
  private exact: Map<number, string> | undefined;
  private outOfRangeCount = 0;
  private emptyCount = 0;
  private numberCount = 0;
  private textCount = 0;

  constructor(
    readonly column: number,
    private readonly rows: number,
    withFullText: boolean,
  ) {
    this.staged = { rows: new Uint32Array(STAGED), values: new Float64Array(STAGED), count: 0 };
    this.fullText = withFullText ? new Array<string>(rows).fill('') : undefined;
  }

  /** True when the builder also wants the text of number cells. */
  get wantsFullText(): boolean {
    return this.fullText !== undefined;
  }

  empty(_r: number): void {
    this.emptyCount++;
  }

  /**
   * number() for a decimal parsed from bytes as its signed `mantissa` and `places` (scanNumber):
   * a narrow column keeps the integer without the division that makes the double. The value,
   * ±mantissa / 10^places, and the integer at the column's scale over 10^scale are one rational,
   * so they round to the same double.
   */
  decimal(r: number, mantissa: number, places: number, text?: string): void {
    const bits = this.bits;
    if (bits && places <= this.scale && !Object.is(mantissa, -0)) {
      const m = mantissa * (POW10[this.scale - places] ?? 1);
      const abs = Math.abs(m); // no branch on the sign: half the cells of a column of gains and losses are negative
      if (abs <= (this.high ? MAX40 : MAX32)) {
        this.numberCount++;
        if (this.fullText && text !== undefined) this.fullText[r] = text;
        this.put(r, m, abs);
        return;
      }
    }
    this.number(r, decimalValue(mantissa, places), text);
  }

  number(r: number, value: number, text?: string): void {
    this.numberCount++;
    if (this.fullText && text !== undefined) this.fullText[r] = text;
    const staged = this.staged;
    if (staged) {
      staged.rows[staged.count] = r;
      staged.values[staged.count] = value;
      if (++staged.count === STAGED) this.decide(false);
      return;
    }
    this.store(r, value);
  }

  /** Makes the column narrow (when every staged number fits and `wide` is false) or wide, and stores the staged numbers. */
  private decide(wide: boolean): void {
    const staged = this.staged;
    if (!staged) return;
    this.staged = undefined;
    const fit = wide ? undefined : narrowFit(staged.values.subarray(0, staged.count));
    if (fit !== undefined) {
      this.bits = new Uint32Array(this.rows);
      if (fit.maxAbs > MAX32) this.high = new Uint8Array(this.rows);
      this.scale = fit.scale;
      this.divisor = POW10[fit.scale] ?? 1;
    } else {
      this.numbers = new Float64Array(this.rows).fill(NaN);
      this.kinds = new Uint8Array(this.rows);
    }
    for (let i = 0; i < staged.count; i++) this.store(staged.rows[i] ?? 0, staged.values[i] ?? NaN);
  }

  private store(r: number, value: number): void {
    if (this.bits && (this.keep(r, value) || (this.rescaleFor(value) && this.keep(r, value)))) return;
    if (this.bits) this.widen();
    (this.numbers as Float64Array)[r] = value;
    (this.kinds as Uint8Array)[r] = CellKind.Number;
  }

  /** Keeps `value` as an integer at the current scale, when it is one exactly; false otherwise. */
  private keep(r: number, value: number): boolean {
    const m = Math.round(value * this.divisor);
    const abs = Math.abs(m); // no branch on the sign: half the cells of a column of gains and losses are negative
    if (m / this.divisor !== value || abs > MAX40 || (m === 0 && Object.is(value, -0))) return false;
    if (abs > MAX32 && !this.high) this.to40();
    this.put(r, m, abs);
    return true;
  }

  /** Stores integer m (|m| = abs, within the column's bits) for row r, and notes its size and place. */
  private put(r: number, m: number, abs: number): void {
    this.encode(r, m);
    if (abs > this.maxAbs) this.maxAbs = abs;
    if (r >= this.filledTo) this.filledTo = r + 1;
  }

  /**
   * Writes integer m's stored form for row r. The one store for 32 and 40 bits: a Uint32Array
   * keeps the low 32 bits of what it is given, a Uint8Array the whole part of a number below 256.
   * (Two stores, one per width, left the other width's store without type feedback, and V8 threw
   * the optimised code away the first time a column of that width came.)
   */
  private encode(r: number, m: number): void {
    const b = m + (this.high ? BIAS40 : BIAS32);
    (this.bits as Uint32Array)[r] = b;
    if (this.high) this.high[r] = b / WORD;
  }

  /** From 32 to 40 bits a row: the high byte array, and every integer so far stored again. */
  private to40(): void {
    const before = this.scaledInts();
    this.high = new Uint8Array(before.bits.length);
    for (let r = 0; r < this.filledTo; r++) {
      const m = storedInt(before, r);
      if (m !== undefined) this.encode(r, m);
    }
  }

  /**
   * A number whose double does not order it exactly (NumberScan.Long): kept as its double for the
   * fast paths and as its text for exact order. Its column is wide: a narrow column's integer
   * would tie it with its double's own decimal.
   */
  long(r: number, value: number, text: string): void {
    this.decide(true);
    if (this.bits) this.widen();
    (this.exact ??= new Map()).set(r, text);
    this.number(r, value, text);
  }

  /** A decimal whose double is not its number (NumberScan.OutOfRange): text, counted apart. */
  outOfRange(r: number, text: string): void {
    this.outOfRangeCount++;
    this.text(r, text);
  }

  text(r: number, text: string): void {
    this.decide(true);
    if (this.bits) this.widen();
    (this.kinds as Uint8Array)[r] = CellKind.Text;
    this.textCount++;
    this.texts ??= new Array<string>(this.rows).fill('');
    this.texts[r] = text;
    if (this.fullText) this.fullText[r] = text;
  }

  /** Classifies a cell given as text (sources that hold strings). */
  cell(r: number, text: string): void {
    if (text === '') {
      this.empty(r);
      return;
    }
    const found = numberTextScan(text);
    if (found === NumberScan.None) this.text(r, text);
    else if (found === NumberScan.OutOfRange) this.outOfRange(r, text);
    else if (found === NumberScan.Long) this.long(r, parsedNumber[0] ?? NaN, text);
    else this.number(r, parsedNumber[0] ?? NaN, text);
  }

  finish(): TypedColumn {
    this.decide(false);
    this.digitAddresses();
    // A column without numbers has the text of every cell already ('' for empty ones).
    const fullText = this.fullText ?? (this.numberCount === 0 ? (this.texts ?? new Array<string>(this.rows).fill('')) : undefined);
    const counts = { column: this.column, emptyCount: this.emptyCount, numberCount: this.numberCount, textCount: this.textCount, texts: this.texts, fullText };
    if (this.bits) return new NarrowColumn(counts, this.scaledInts());
    return {
      ...counts,
      numbers: this.numbers as Float64Array,
      kinds: this.kinds as Uint8Array,
      ...(this.exact ? { exact: this.exact } : {}),
      ...(this.outOfRangeCount > 0 ? { outOfRangeCount: this.outOfRangeCount } : {}),
    };
  }

  /**
   * Addresses are never numbers (columnKind.ts): in a column the classifier calls an address
   * column, the all-digit addresses (which read as decimals of 32 to 44 digits, so only ever as
   * long numbers) become text, so they sort and count among the other addresses.
   */
  private digitAddresses(): void {
    const exact = this.exact;
    if (!exact || !this.kinds || !this.numbers) return;
    const digits = [...exact].filter(([, t]) => isDigitAddress(t));
    if (digits.length === 0) return;
    const texts = countCells(this.texts ?? []);
    const counts = { ...texts, filled: texts.filled + this.numberCount, numbers: texts.numbers + this.numberCount, main: texts.main + digits.length, digitMain: texts.digitMain + digits.length };
    if (kindOfCounts(counts).kind !== 'address') return;
    this.texts ??= new Array<string>(this.rows).fill('');
    for (const [r, t] of digits) {
      this.kinds[r] = CellKind.Text;
      this.numbers[r] = NaN;
      this.texts[r] = t;
      exact.delete(r);
    }
    this.numberCount -= digits.length;
    this.textCount += digits.length;
    if (exact.size === 0) this.exact = undefined;
  }

  /** Raises the scale so `value` fits, when some scale ≤ 9 does and every integer so far still fits 40 bits; false otherwise. */
  private rescaleFor(value: number): boolean {
    const s = scaleOf(value, this.scale + 1);
    if (s === undefined) return false;
    const factor = POW10[s - this.scale] ?? 1;
    if (Math.abs(Math.round(value * (POW10[s] ?? 1))) > MAX40 || this.maxAbs * factor > MAX40) return false;
    if (this.maxAbs * factor > MAX32 && !this.high) this.to40();
    const before = this.scaledInts();
    for (let r = 0; r < this.filledTo; r++) {
      const m = storedInt(before, r);
      if (m !== undefined) this.encode(r, m * factor);
    }
    this.maxAbs *= factor;
    this.scale = s;
    this.divisor = POW10[s] ?? 1;
    return true;
  }

  private scaledInts(): ScaledInts {
    return { bits: this.bits as Uint32Array, high: this.high, scale: this.scale, divisor: this.divisor };
  }

  /** Turns the column wide: numbers and kinds from the integers so far. */
  private widen(): void {
    const { numbers, kinds } = widened(this.scaledInts());
    this.numbers = numbers;
    this.kinds = kinds;
    this.bits = undefined;
    this.high = undefined;
  }
}

/** The smallest scale from `from` to 9 at which `value` is an integer exactly (value × 10^scale / 10^scale gives it back); undefined when none is. */
function scaleOf(value: number, from: number): number | undefined {
  for (let s = from; s <= MAX_SCALE; s++) {
    const d = POW10[s] ?? 1;
    if (Math.round(value * d) / d === value) return s;
  }
  return undefined;
}

/** The scale the values need, and their largest |integer| at it; undefined when some value does not fit 40 bits at any. */
function narrowFit(values: Float64Array): { scale: number; maxAbs: number } | undefined {
  let scale = 0;
  let maxAbs = 0;
  for (const v of values) {
    const s = scaleOf(v, scale);
    if (s === undefined || Object.is(v, -0)) return undefined;
    maxAbs *= POW10[s - scale] ?? 1;
    scale = s;
    maxAbs = Math.max(maxAbs, Math.abs(Math.round(v * (POW10[scale] ?? 1))));
    if (maxAbs > MAX40) return undefined;
  }
  return { scale, maxAbs };
}

/** Row r's integer (its value times 10^scale), or undefined when the cell is empty. */
function storedInt(s: ScaledInts, r: number): number | undefined {
  const u = s.bits[r] ?? 0;
  if (!s.high) return u === 0 ? undefined : u - BIAS32;
  const h = s.high[r] ?? 0;
  return u === 0 && h === 0 ? undefined : h * WORD + u - BIAS40;
}

/**
 * Readers of any typed column's cells by row id that leave a narrow column's wide copy unmade
 * (analysis reads columns this way; sorts and filters read the integers themselves).
 */
export function cellReaders(col: TypedColumn): { kind: (r: number) => number; value: (r: number) => number } {
  const scaled = col.scaled;
  if (scaled) return { kind: (r) => (scaledEmpty(scaled, r) ? CellKind.Empty : CellKind.Number), value: (r) => scaledValue(scaled, r) };
  const { kinds, numbers } = col;
  return { kind: (r) => kinds[r] ?? CellKind.Empty, value: (r) => numbers[r] ?? NaN };
}

/** Row r's value in a narrow column (NaN when empty): the very double its cell parsed to. */
export function scaledValue(s: ScaledInts, r: number): number {
  const m = storedInt(s, r);
  return m === undefined ? NaN : m / s.divisor;
}

/** True when row r of a narrow column is empty. */
export function scaledEmpty(s: ScaledInts, r: number): boolean {
  return (s.bits[r] ?? 0) === 0 && (s.high?.[r] ?? 0) === 0;
}

/** The Float64 values and kinds of a narrow column's integers. */
function widened(s: ScaledInts): { numbers: Float64Array; kinds: Uint8Array } {
  const n = s.bits.length;
  const numbers = new Float64Array(n);
  const kinds = new Uint8Array(n);
  for (let r = 0; r < n; r++) {
    const m = storedInt(s, r);
    if (m === undefined) numbers[r] = NaN;
    else {
      numbers[r] = m / s.divisor;
      kinds[r] = CellKind.Number;
    }
  }
  return { numbers, kinds };
}

type Counts = Pick<TypedColumn, 'column' | 'emptyCount' | 'numberCount' | 'textCount' | 'texts' | 'fullText'>;

/** A column kept as scaled integers; its Float64 values and kinds are made on first read. */
class NarrowColumn implements TypedColumn {
  readonly column: number;
  readonly emptyCount: number;
  readonly numberCount: number;
  readonly textCount: number;
  readonly texts: readonly string[] | undefined;
  readonly fullText: readonly string[] | undefined;
  private wide: { numbers: Float64Array; kinds: Uint8Array } | undefined;

  constructor(
    counts: Counts,
    readonly scaled: ScaledInts,
  ) {
    this.column = counts.column;
    this.emptyCount = counts.emptyCount;
    this.numberCount = counts.numberCount;
    this.textCount = counts.textCount;
    this.texts = counts.texts;
    this.fullText = counts.fullText;
  }

  get numbers(): Float64Array {
    this.wide ??= widened(this.scaled);
    return this.wide.numbers;
  }

  get kinds(): Uint8Array {
    this.wide ??= widened(this.scaled);
    return this.wide.kinds;
  }
}
