/**
 * What counts as a number in a cell, and parsing it fast from bytes.
 *
 * A number is a plain decimal: optional sign, digits with an optional fraction, optional
 * exponent (`-12`, `0.5`, `.5`, `3.`, `1e-9`). No spaces, thousands separators, hex,
 * `Infinity` or `NaN`: those are text, so a column of them sorts as text.
 */

const DECIMAL = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/u;

// 10^0 … 10^22 are exact doubles; a mantissa below 2^53 divided by one of them is correctly
// rounded, which makes the fast path give exactly what Number() gives (Clinger's fast path).
const POW10: readonly number[] = Array.from({ length: 23 }, (_, i) => 10 ** i);
const MAX_FAST_DIGITS = 15;

/** The number a cell's text holds, or NaN when the text is not a plain decimal. */
export function parseNumberText(text: string): number {
  return DECIMAL.test(text) ? Number(text) : NaN;
}

/** True when the text is a plain decimal number. */
export function isNumberText(text: string): boolean {
  return DECIMAL.test(text);
}

/**
 * Where scanNumber puts a number that is not a plain decimal of 15 digits or fewer. A number
 * handed back from a call that is not inlined travels as a tagged value: every fraction becomes a
 * heap number, one allocation a cell (and the garbage collections after them).
 */
export const parsedNumber = new Float64Array(1);

/** Where scanNumber puts a decimal it finds: the signed mantissa ([0]; −0 for "-0") and the places ([1]). */
export const parsedDecimal = new Float64Array(2);

/**
 * The number held by bytes [start, end) of `buf`, or NaN when they are not a plain decimal.
 * The common case (≤ 15 digits, no exponent) never builds a string.
 */
export function parseNumberBytes(buf: Uint8Array, start: number, end: number): number {
  const found = scanNumber(buf, start, end);
  if (found === NumberScan.Decimal) return decimalValue(parsedDecimal[0] ?? 0, parsedDecimal[1] ?? 0);
  return found === NumberScan.Other ? (parsedNumber[0] ?? NaN) : NaN;
}

/** What scanNumber found. */
export const NumberScan = { None: 0, Decimal: 1, Other: 2 } as const;
export type NumberScan = (typeof NumberScan)[keyof typeof NumberScan];

/**
 * parseNumberBytes for hot loops, without its last step: Decimal when the bytes hold at most 15
 * digits and no exponent, with the signed mantissa and the places in parsedDecimal (the number is
 * decimalValue of them); Other for any other plain decimal, its number in parsedNumber[0]; None
 * when the bytes are not a number. A narrow typed column keeps the mantissa and never divides.
 */
export function scanNumber(buf: Uint8Array, start: number, end: number): NumberScan {
  let i = start;
  if (i >= end) return NumberScan.None;
  const c = buf[i] ?? 0;
  // A sign without a branch on it (half the cells of a column of gains and losses are negative).
  const minus = ((c ^ 45) - 1) >>> 31; // 1 for '-'
  i += minus | (((c ^ 43) - 1) >>> 31); // past a '-' or a '+'
  // Whole part, then the fraction after a dot: two tight loops, no per-digit flag or counters.
  let mantissa = 0;
  const whole = i;
  for (; i < end; i++) {
    const d = (buf[i] ?? 0) - 48;
    if (d < 0 || d > 9) break;
    mantissa = mantissa * 10 + d;
  }
  let digits = i - whole;
  let fraction = 0;
  if (i < end && buf[i] === 46 /* . */) {
    const dot = ++i;
    for (; i < end; i++) {
      const d = (buf[i] ?? 0) - 48;
      if (d < 0 || d > 9) break;
      mantissa = mantissa * 10 + d;
    }
    fraction = i - dot;
    digits += fraction;
  }
  if (i === end && digits > 0 && digits <= MAX_FAST_DIGITS) {
    // × ±1 is exact, and keeps "-0" as −0.
    parsedDecimal[0] = mantissa * (1 - 2 * minus);
    parsedDecimal[1] = fraction;
    return NumberScan.Decimal;
  }
  if (digits === 0 && i === end) return NumberScan.None; // "", "-", ".", "+."
  const n = parseNumberText(latin1(buf, start, end));
  parsedNumber[0] = n;
  return Number.isNaN(n) ? NumberScan.None : NumberScan.Other;
}

/** ±mantissa / 10^places, exactly as Number() reads the decimal (mantissa < 2^53, places ≤ 15). */
export function decimalValue(mantissa: number, places: number): number {
  return places === 0 ? mantissa : mantissa / (POW10[places] ?? 1);
}

/** Bytes as one char each; enough for the rare fallback, where non-ASCII bytes fail the regex anyway. */
function latin1(buf: Uint8Array, start: number, end: number): string {
  let s = '';
  for (let i = start; i < end; i++) s += String.fromCharCode(buf[i] ?? 0);
  return s;
}
