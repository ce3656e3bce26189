/**
 * The sandbox's bounds on every input, in one table that inputs.ts (the parameters) and
 * queryBody.ts (the Wallet Database body) both read.
 */

/** Bounds: from the spec where it gives them, else ours (the same as the client's LIMITS and fields). */
export const BOUNDS = {
  tokensPerRequest: 1_000,
  walletsPerRequest: 100_000,
  /** §4.3 rule 3, §8.5 */
  altWalletsPerRequest: 100_000,
  mainHours: { min: 1, max: 24 },
  /** §4.3 rule 1, §8.5 */
  altDexHours: { min: 1, max: 12 },
  days: { min: 1, max: 30 },
  buyersPerToken: { min: 1, max: 1_000 },
  creatorPages: { min: 1, max: 1_000_000 },
  creatorsPageSize: { min: 1, max: 100 },
  /** Unix seconds from 2010 to 2100: milliseconds or a year are refused. */
  unixSeconds: { min: 1_262_304_000, max: 4_102_444_800 },
  overlapTokens: { min: 2, max: 20 },
  fragmentChars: { min: 3, max: 44 },
  cursorChars: 512,
  queryLimit: 100_000,
} as const;
