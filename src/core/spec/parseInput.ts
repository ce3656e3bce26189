/** Lenient parsing of what people type into prompts: "1,000", "2.5k", ISO dates. */

/** A number from "1,000", "1_000", "2.5k", "3M"; undefined when it is not one. */
export function parseNumber(text: string): number | undefined {
  const t = text.trim().replace(/[,_\s]/gu, '');
  const m = /^(-?\d+(?:\.\d+)?(?:e[+-]?\d+)?)([kmb])?$/iu.exec(t);
  if (!m?.[1]) return undefined;
  const mult = { k: 1e3, m: 1e6, b: 1e9 }[(m[2] ?? '').toLowerCase() as 'k' | 'm' | 'b'] ?? 1;
  const n = Number(m[1]) * mult;
  return Number.isFinite(n) ? n : undefined;
}

/** Unix seconds from seconds, milliseconds (13 digits) or an ISO date; undefined when it is none of these. */
export function parseTimestamp(text: string): number | undefined {
  const t = text.trim();
  if (/^\d{9,10}$/u.test(t)) return Number(t);
  if (/^\d{12,13}$/u.test(t)) return Math.floor(Number(t) / 1000);
  if (!/^\d{4}-\d{2}-\d{2}/u.test(t)) return undefined;
  const ms = Date.parse(/T|\s\d/u.test(t) || t.length > 10 ? t : `${t}T00:00:00Z`);
  return Number.isNaN(ms) ? undefined : Math.floor(ms / 1000);
}
