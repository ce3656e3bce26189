/**
 * What counts as a number in a cell, and parsing it fast from bytes.
 *
 * A number is a plain decimal: optional sign, digits with an optional fraction, optional
 * exponent (`-12`, `0.5`, `.5`, `3.`, `1e-9`). No spaces, thousands separators, hex,
 * `Infinity` or `NaN`: those are text, so a column of them sorts as text. Nor is a decimal whose
 * double is not the number in range (`1e400` is Infinity, `1e-400` is 0): it stays text, counted
 * apart (NumberScan.OutOfRange), so no mean turns NaN and no value shown is one the file lacks.
 *
 * Exact order: a decimal of at most 15 significant digits is told apart from every other such
 * decimal by its double (DBL_DIG), so doubles order them exactly. A decimal with more digits
 * (NumberScan.Long: token amounts in base units pass 2^53) may share its double with another; its
 * text is kept, and compareDecimalText orders it exactly wherever the doubles tie.
 */

const DECIMAL = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/u;

// 10^0 … 10^22 are exact doubles; a mantissa below 2^53 divided by one of them is correctly
// rounded, which makes the fast path give exactly what Number() gives (Clinger's fast path).
const POW10: readonly number[] = Array.from({ length: 23 }, (_, i) => 10 ** i);
const MAX_FAST_DIGITS = 15;

/** Smallest normal double: below it a double holds fewer digits (and 1e-400 is 0). */
const MIN_NORMAL = 2.2250738585072014e-308;

/** The number a cell's text holds, or NaN when the text is not a plain decimal or not a finite number in range. */
export function parseNumberText(text: string): number {
  if (!DECIMAL.test(text)) return NaN;
  const n = Number(text);
  return inRange(n, text) ? n : NaN;
}

/** How a text reads as a number: NumberScan.None (not a plain decimal), Decimal or Other (its double orders it exactly), Long (its text is needed to order it) or OutOfRange (text). */
export function numberTextScan(text: string): NumberScan {
  if (!DECIMAL.test(text)) return NumberScan.None;
  const n = Number(text);
  if (!inRange(n, text)) return NumberScan.OutOfRange;
  parsedNumber[0] = n;
  return significantDigits(text) > MAX_FAST_DIGITS || (n !== 0 && Math.abs(n) < MIN_NORMAL) ? NumberScan.Long : NumberScan.Other;
}

/** False when a plain decimal's double is not its number: infinite, or 0 for a decimal with a non-zero digit. */
function inRange(n: number, text: string): boolean {
  if (!Number.isFinite(n)) return false;
  return n !== 0 || readDecimal(text)?.digits === '';
}

/** Digits of a plain decimal from its first to its last non-zero digit (0 for zero). */
export function significantDigits(text: string): number {
  return readDecimal(text)?.digits.length ?? 0;
}

/** A plain decimal's exact value: ±0.digits × 10^point, `digits` without leading or trailing zeros ('' for zero). */
interface ExactDecimal {
  readonly negative: boolean;
  readonly digits: string;
  readonly point: number;
}

/** The exact value of a plain decimal's text, or undefined when it is not one. */
function readDecimal(text: string): ExactDecimal | undefined {
  if (!DECIMAL.test(text)) return undefined;
  const negative = text.startsWith('-');
  const body = text.replace(/^[+-]/u, '');
  const e = body.search(/[eE]/u);
  const mantissa = e < 0 ? body : body.slice(0, e);
  const exponent = e < 0 ? 0 : Number(body.slice(e + 1));
  const dot = mantissa.indexOf('.');
  const whole = dot < 0 ? mantissa : mantissa.slice(0, dot);
  const all = whole + (dot < 0 ? '' : mantissa.slice(dot + 1));
  const lead = all.search(/[1-9]/u);
  if (lead < 0) return { negative, digits: '', point: 0 };
  const digits = all.slice(lead).replace(/0+$/u, '');
  return { negative, digits, point: whole.length - lead + exponent };
}

/** Compares two plain decimals' texts by their exact values (−0 equals 0); texts that are not decimals sort after. */
export function compareDecimalText(a: string, b: string): number {
  const x = readDecimal(a);
  const y = readDecimal(b);
  if (!x || !y) return (x ? 0 : 1) - (y ? 0 : 1);
  const sx = x.digits === '' ? 0 : x.negative ? -1 : 1;
  const sy = y.digits === '' ? 0 : y.negative ? -1 : 1;
  if (sx !== sy || sx === 0) return Math.sign(sx - sy);
  let c = x.point - y.point;
  if (c === 0) c = x.digits < y.digits ? -1 : x.digits > y.digits ? 1 : 0; // same length of whole part: digit strings compare as numbers
  return sx * Math.sign(c);
}

/**
 * The exact value of a plain decimal's text, every digit, in one form for every way of writing it
 * ("1.50", "+15e-1" → "1.5"): plain up to 40 digits before the point (an amount in base units)
 * and 6 zeros after it, else with an exponent ("1.5e-7", "1.2345e+60"). Undefined when the text
 * is not a decimal.
 */
export function canonicalDecimal(text: string): string | undefined {
  const d = readDecimal(text);
  if (!d) return undefined;
  if (d.digits === '') return '0';
  const { digits, point } = d;
  const k = digits.length;
  const sign = d.negative ? '-' : '';
  if (k <= point && point <= 40) return sign + digits + '0'.repeat(point - k);
  if (0 < point && point <= 40) return `${sign}${digits.slice(0, point)}.${digits.slice(point)}`;
  if (-6 < point && point <= 0) return `${sign}0.${'0'.repeat(-point)}${digits}`;
  const e = point - 1;
  const m = k === 1 ? digits : `${digits[0] ?? ''}.${digits.slice(1)}`;
  return `${sign}${m}e${e < 0 ? '-' : '+'}${Math.abs(e)}`;
}

/**
 * The texts of a range filter's bounds as typed, where a double does not hold them (NumberScan.Long:
 * ColumnFilter's minText and maxText), so the filter compares at every digit; {} for others.
 */
export function exactBounds(minText: string, min: number | undefined, maxText: string, max: number | undefined): { minText?: string; maxText?: string } {
  const exact = (text: string, value: number | undefined): string | undefined => {
    const t = text.trim();
    return value !== undefined && numberTextScan(t) === NumberScan.Long && parsedNumber[0] === value ? t : undefined;
  };
  const a = exact(minText, min);
  const b = exact(maxText, max);
  return { ...(a !== undefined ? { minText: a } : {}), ...(b !== undefined ? { maxText: b } : {}) };
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
  return found === NumberScan.Other || found === NumberScan.Long ? (parsedNumber[0] ?? NaN) : NaN;
}

/** Where scanNumber puts the text of a Long or OutOfRange number (the rare path, which builds the string anyway). */
export const parsedText = { value: '' };

/** What scanNumber found. */
export const NumberScan = { None: 0, Decimal: 1, Other: 2, Long: 3, OutOfRange: 4 } as const;
export type NumberScan = (typeof NumberScan)[keyof typeof NumberScan];

/**
 * parseNumberBytes for hot loops, without its last step: Decimal when the bytes hold at most 15
 * digits and no exponent, with the signed mantissa and the places in parsedDecimal (the number is
 * decimalValue of them); Other for any other plain decimal its double orders exactly, its number
 * in parsedNumber[0]; Long for one it does not (more than 15 significant digits), its number in
 * parsedNumber[0] and its text in parsedText; OutOfRange (text in parsedText) for a decimal whose
 * double is not its number; None when the bytes are not a number. A narrow typed column keeps the
 * mantissa and never divides.
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
  const text = latin1(buf, start, end);
  const found = numberTextScan(text);
  if (found === NumberScan.Long || found === NumberScan.OutOfRange) parsedText.value = text;
  return found;
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
