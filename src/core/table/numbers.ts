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
 * The number held by bytes [start, end) of `buf`, or NaN when they are not a plain decimal.
 * The common case (≤ 15 digits, no exponent) never builds a string.
 */
export function parseNumberBytes(buf: Uint8Array, start: number, end: number): number {
  let i = start;
  if (i >= end) return NaN;
  let negative = false;
  const c = buf[i] ?? 0;
  if (c === 45 /* - */ || c === 43 /* + */) {
    negative = c === 45;
    i++;
  }
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
    const v = fraction === 0 ? mantissa : mantissa / (POW10[fraction] ?? 1);
    return negative ? -v : v;
  }
  if (digits === 0 && i === end) return NaN; // "", "-", ".", "+."
  return parseNumberText(latin1(buf, start, end));
}

/** Bytes as one char each; enough for the rare fallback, where non-ASCII bytes fail the regex anyway. */
function latin1(buf: Uint8Array, start: number, end: number): string {
  let s = '';
  for (let i = start; i < end; i++) s += String.fromCharCode(buf[i] ?? 0);
  return s;
}
