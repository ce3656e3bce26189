/**
 * Seeded randomness for the sandbox. Everything the sandbox serves is derived from a seed
 * through these functions, so the same seed (and the same hour) gives the same bytes.
 */

/** mulberry32: a tiny, fast 32-bit PRNG; returns floats in [0, 1). */
function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A PRNG with the helpers the generators need. */
export class Rng {
  readonly next: () => number;
  constructor(seed: number) {
    this.next = mulberry32(seed);
  }
  /** An integer in [lo, hi]. */
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }
  /** A float in [lo, hi). */
  range(lo: number, hi: number): number {
    return lo + this.next() * (hi - lo);
  }
  /** true with probability p. */
  chance(p: number): boolean {
    return this.next() < p;
  }
  /** One element of a non-empty list. */
  pick<T>(list: readonly T[]): T {
    const v = list[Math.floor(this.next() * list.length)];
    if (v === undefined) throw new Error('pick from an empty list');
    return v;
  }
  /** A standard normal draw (Box–Muller). */
  normal(): number {
    const u = 1 - this.next();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * this.next());
  }
  /** An exponential draw with this mean. */
  exp(mean: number): number {
    return -Math.log(1 - this.next()) * mean;
  }
}

/** fmix32 from MurmurHash3: spreads the bits of a 32-bit integer. */
function mix32(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** A 32-bit hash of strings and numbers (FNV-1a, then mixed), for per-item seeds. */
export function hash32(...parts: readonly (string | number)[]): number {
  let h = 0x811c9dc5;
  for (const p of parts) {
    const s = typeof p === 'number' ? String(p) : p;
    for (let i = 0; i < s.length; i++) {
      h ^= s.charCodeAt(i);
      h = Math.imul(h, 0x01000193);
    }
    h ^= 0x7c; // a separator, so ('ab','c') and ('a','bc') differ
    h = Math.imul(h, 0x01000193);
  }
  return mix32(h);
}

/** A uniform float in [0, 1) from a hash, for one-off decisions. */
export function unit(...parts: readonly (string | number)[]): number {
  return hash32(...parts) / 4294967296;
}

const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
const HEX = '0123456789abcdef';
const B58_CODES = Uint8Array.from(BASE58, (c) => c.charCodeAt(0));
const HEX_CODES = Uint8Array.from(HEX, (c) => c.charCodeAt(0));

/** A main-chain address (base58, 43 or 44 characters, like a real public key). */
export function base58Address(rng: Rng): string {
  const len = rng.next() < 0.85 ? 44 : 43;
  const codes = new Array<number>(len);
  codes[0] = B58_CODES[1 + Math.floor(rng.next() * 57)]!; // never a leading '1' (that would be a zero byte)
  for (let i = 1; i < len; i++) codes[i] = B58_CODES[Math.floor(rng.next() * 58)]!;
  return String.fromCharCode(...codes);
}

/** A base58 string of this length (signatures are 87–88 characters). */
export function base58String(rng: Rng, len: number): string {
  let s = '';
  for (let i = 0; i < len; i++) s += BASE58[Math.floor(rng.next() * 58)] ?? '1';
  return s;
}

/** A second-chain address: 0x + 40 lower-case hex digits. */
export function hexAddress(rng: Rng, digits = 40): string {
  const codes = new Array<number>(digits);
  for (let i = 0; i < digits; i++) codes[i] = HEX_CODES[Math.floor(rng.next() * 16)]!;
  return `0x${String.fromCharCode(...codes)}`;
}
