/**
 * When a column "is" an address column: one rule for the table's first look at a sample
 * (vscode/table/columnInfo.ts) and the analysis panel's look at every row of the view
 * (analysis.ts), so the grid and the profile never disagree about the same cells.
 */
import { addressProblem, type Chain } from '../addresses';

/** Share of the non-empty cells that must agree before a column is called numeric (in a sample) or an address column. */
export const AGREE = 0.9;

/** The chain `value` (trimmed) is an address of, or undefined. */
export function addressChain(value: string): Chain | undefined {
  const v = value.trim();
  if (addressProblem(v, 'main') === undefined) return 'main';
  if (addressProblem(v, 'alt') === undefined) return 'alt';
  return undefined;
}

/** The address chain of a column where `filled` cells are not empty, `main` and `alt` of them addresses of each chain; undefined when neither agrees. */
export function agreedChain(filled: number, main: number, alt: number): Chain | undefined {
  if (filled <= 0) return undefined;
  if (main >= AGREE * filled) return 'main';
  if (alt >= AGREE * filled) return 'alt';
  return undefined;
}
