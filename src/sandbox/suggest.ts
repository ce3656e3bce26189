/** "Did you mean" for unknown names: the closest known name by edit distance. */

/** Levenshtein distance, with an early exit once it exceeds `max`. */
export function editDistance(a: string, b: string, max = Infinity): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      const v = Math.min((prev[j] ?? 0) + 1, (cur[j - 1] ?? 0) + 1, (prev[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1));
      cur.push(v);
      if (v < best) best = v;
    }
    if (best > max) return max + 1;
    prev = cur;
  }
  return prev[b.length] ?? 0;
}

/** The known name closest to `name`, if any is close enough to be a plausible typo. */
export function closest(name: string, names: Iterable<string>): string | undefined {
  const known = [...names];
  const lower = name.toLowerCase();
  // A name typed short ("raydium" for "raydium_amm") is a prefix of what was meant.
  const prefixed = known.filter((k) => lower.length >= 3 && k.startsWith(lower)).sort((a, b) => a.length - b.length || a.localeCompare(b));
  if (prefixed[0] !== undefined) return prefixed[0];
  const limit = Math.max(2, Math.floor(name.length / 3));
  let best: string | undefined;
  let bestD = limit + 1;
  for (const k of known) {
    if (k === lower) return k;
    const d = editDistance(lower, k, bestD);
    if (d < bestD) {
      bestD = d;
      best = k;
    }
  }
  return best;
}
