/**
 * What an analysis of the view returns (issue 15): a column's profile, a histogram, a scatter's
 * points. The worker computes them (analysis.ts), the host carries them, the webview draws them:
 * so they live here, on the lowest floor, and src/shared/analysisProtocol.ts re-exports them for
 * the protocol. Plain data (structured clone): the scatter's points travel as Float32Arrays. No imports.
 */

/** How a column's cells read: numbers, addresses, other text, or nothing at all. */
export type ProfileType = 'number' | 'address' | 'text' | 'empty';

/** One value and how many rows of the view hold it. */
export interface ValueCount {
  readonly value: string;
  readonly count: number;
}

/** Equal-width bins over [min, max] of a numeric column (or of log10 of its positive values). */
export interface Histogram {
  readonly column: number;
  /** Bin edges, `counts.length + 1` of them, ascending; in log10 units when `log`. */
  readonly edges: readonly number[];
  readonly counts: readonly number[];
  readonly log: boolean;
  /** Numbers counted (cells that are numbers; with `log`, only the positive ones). */
  readonly counted: number;
  /** Rows of the view left out: empty, not a number, or (with `log`) ≤ 0. */
  readonly left: number;
}

/** A column over every row of the current view. */
export interface ColumnProfile {
  readonly column: number;
  readonly name: string;
  readonly type: ProfileType;
  /** Rows in the view. */
  readonly count: number;
  readonly empty: number;
  readonly distinct: number;
  /** Numbers only (undefined otherwise): over the cells that are numbers. */
  readonly min?: number;
  readonly max?: number;
  /** Numbers only: min and max exactly, from the file's text (every digit; a double may round them). */
  readonly minText?: string;
  readonly maxText?: string;
  readonly mean?: number;
  readonly median?: number;
  readonly p5?: number;
  readonly p95?: number;
  /** Cells that are decimals out of a number's range (1e400): counted as text; absent when none. */
  readonly outOfRange?: number;
  /** The 10 most frequent non-empty values, most frequent first (ties: first seen first); a number as its exact value. */
  readonly top: readonly ValueCount[];
  /** Numbers only: 30 bins. */
  readonly histogram?: Histogram;
  /** Milliseconds the host spent (shown in the panel, reported by the bench). */
  readonly ms: number;
}

/** Every row of the view where both cells are numbers: the points of a scatter. */
export interface ScatterData {
  readonly x: number;
  readonly y: number;
  /** Point i is view row rowIndex[i] at (xs[i], ys[i]). */
  readonly xs: Float32Array;
  readonly ys: Float32Array;
  readonly rowIndex: Uint32Array;
  /** Rows of the view left out (a cell empty or not a number). */
  readonly left: number;
  readonly ms: number;
}

export const HISTOGRAM_BINS = 30;
export const MAX_HISTOGRAM_BINS = 200;
