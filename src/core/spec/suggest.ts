/** "Did you mean" for a mistyped name (query fields, server input names): the closest known name by edit distance. One implementation for the client and the sandbox. */

/** Levenshtein distance, with an early exit once it exceeds `max`. */
function editDistance(a: string, b: string, max = Infinity): number {
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

/**
 * The known name closest to `name`, when one is close enough to be a plausible typo: within a
 * third of its length in edits, or a name that `name` starts (a timeframe left off: "winrate").
 */
export function closestName(name: string, names: Iterable<string>): string | undefined {
  const lower = name.toLowerCase();
  const known = [...names];
  if (known.includes(lower)) return lower;
  const limit = Math.max(2, Math.floor(lower.length / 3));
  let best: string | undefined;
  let bestD = limit + 1;
  for (const k of known) {
    const d = editDistance(lower, k, bestD);
    if (d < bestD || (d === bestD && best !== undefined && k < best)) {
      bestD = d;
      best = k;
    }
  }
  if (best !== undefined) return best;
  if (lower.length < 3) return undefined;
  return known.filter((k) => k.startsWith(lower)).sort((a, b) => a.length - b.length || a.localeCompare(b))[0];
}
