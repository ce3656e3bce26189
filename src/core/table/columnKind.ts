/**
 * What a column holds: numbers, addresses (of which chain), dates or text. The one rule for every
 * feature that asks (issue 22): the table's column types and number formats
 * (vscode/table/columnInfo.ts, and through it the notebook and the analysis panel's address
 * column), the profile over every row (table/analysis.ts), the engine's typed columns
 * (table/typedColumn.ts), compare and address sets (compare/), "Use Result as Input to…"
 * (history/resultAddresses.ts), the "from a previous result" list source, the address lists
 * (addressSets.ts: which chain a value is an address of), and whether a number is a profit or a
 * return (isSignedName: the table's columns and the wallet card's metrics). A test
 * (columnKind.test.ts) lists the callers and holds each to it.
 *
 * Addresses are never numbers: an all-digit base58 string of address length (the System Program,
 * `11111111111111111111111111111111`) is a plain decimal too, so a column is an address column
 * when nearly all its cells are addresses of one chain and some of them are not all digits (or
 * its name says so); its all-digit cells are then addresses, and text.
 */
import { isAddress, type Chain } from '../spec/addresses';
import { parseMetricColumn } from '../spec/metrics';
import { isNumberText } from './numbers';

/** Share of the non-empty cells that must be addresses of one chain (or dates) for the column to be one. */
const AGREE = 0.9;
/** Rows read to judge a column when not every row is read (the table's first look, compare, address sets, use as input). */
export const SAMPLE_ROWS = 50;

type ColumnKind = { readonly kind: 'empty' | 'number' | 'date' | 'text' } | { readonly kind: 'address'; readonly chain: Chain };

/** What the classifier counts of a column's non-empty cells (a cell may count as several). */
interface CellCounts {
  readonly filled: number;
  /** Plain decimals (numbers.ts), all-digit addresses included. */
  readonly numbers: number;
  /** Addresses of each chain. */
  readonly main: number;
  readonly alt: number;
  /** Main-chain addresses that are all digits (plain decimals as well). */
  readonly digitMain: number;
  readonly dates: number;
}

/** Headers of an address column, best first (a wallet-like one wins among several address columns). */
const ADDRESS_NAMES = ['address', 'wallet', 'wallet_address', 'trader', 'owner', 'holder', 'buyer', 'maker'];
const NAME_HINT: Record<ListWant, RegExp> = {
  wallets: /wallet|trader|buyer|holder|owner|maker|address/iu,
  tokens: /token|mint/iu,
};
const ADDRESS_NAME = /address|wallet|trader|buyer|holder|owner|maker|token|mint|program|account|signer|pool/iu;
const ALL_DIGITS = /^\d+$/u;
/** ISO 8601 dates and times (2024-05-01, 2024-05-01T12:00:00Z): what the service writes. */
const DATE = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/u;

/** Which addresses a list wants: wallets or tokens (which header wins among address columns). */
export type ListWant = 'wallets' | 'tokens';

/** The chain `value` (trimmed) is an address of, or undefined. */
export function addressChain(value: string): Chain | undefined {
  const v = value.trim();
  if (isAddress(v, 'main')) return 'main';
  if (isAddress(v, 'alt')) return 'alt';
  return undefined;
}

/** True for an address that is also a plain decimal: all digits (base58 has no 0, so every digit counts). */
export function isDigitAddress(value: string): boolean {
  return ALL_DIGITS.test(value) && isAddress(value, 'main');
}

/** Counts one non-empty cell (trimmed) into `c`. */
function countCell(c: { -readonly [K in keyof CellCounts]: number }, v: string): void {
  c.filled++;
  const number = isNumberText(v);
  if (number) c.numbers++;
  const chain = addressChain(v);
  if (chain === 'main') {
    c.main++;
    if (number) c.digitMain++;
  } else if (chain === 'alt') c.alt++;
  else if (!number && DATE.test(v)) c.dates++;
}

/** The counts of `cells` (texts; empty and blank ones are not counted). */
export function countCells(cells: Iterable<string>): CellCounts {
  const c = { filled: 0, numbers: 0, main: 0, alt: 0, digitMain: 0, dates: 0 };
  for (const raw of cells) {
    const v = raw.trim();
    if (v !== '') countCell(c, v);
  }
  return c;
}

/**
 * The kind of a column from its cells' counts and its name. Addresses first (never numbers), then
 * numbers when more than half the cells are (a few "n/a" do not make a metric text), then dates;
 * with no cell to judge, a known metric's name is a number column and an address-like name an
 * address column.
 */
export function kindOfCounts(c: CellCounts, name = ''): ColumnKind {
  if (c.filled === 0) {
    if (parseMetricColumn(name) !== undefined) return { kind: 'number' };
    return ADDRESS_NAMES.includes(name.trim().toLowerCase()) ? { kind: 'address', chain: 'main' } : { kind: 'empty' };
  }
  if (c.main >= AGREE * c.filled && (c.main > c.digitMain || ADDRESS_NAME.test(name))) return { kind: 'address', chain: 'main' };
  if (c.alt >= AGREE * c.filled) return { kind: 'address', chain: 'alt' };
  if (c.numbers * 2 > c.filled) return { kind: 'number' };
  if (c.dates >= AGREE * c.filled) return { kind: 'date' };
  return { kind: 'text' };
}

/** A PnL or ROI header that is not a catalog metric (`pnl_usd`, `realized_pnl`, `roi`, `profit`); spreads, shares and counts are not. */
const SIGNED_NAME = /(?:^|_)(?:pnl|roi|profit)(?:_|$)/iu;
const UNSIGNED_NAME = /stddev|share|count|factor|gross|ratio/iu;

/**
 * Whether a metric or a column name is a profit or a return, either side of zero (PnL, ROI; not
 * their spreads, shares of trades, or sums positive by definition). The one rule, for the
 * catalog's metrics (the wallet card) and for names outside the catalog alike.
 */
export function isSignedName(name: string): boolean {
  return SIGNED_NAME.test(name) && !UNSIGNED_NAME.test(name);
}

/**
 * True for a number column that holds a profit or a return, either side of zero (shown with its
 * sign and coloured): a catalog metric's column by its metric's name, any other by its own.
 */
export function isSignedColumn(kind: ColumnKind, name: string): boolean {
  if (kind.kind !== 'number') return false;
  return isSignedName(parseMetricColumn(name)?.metric.name ?? name);
}

/** The kind of a column from its cells (all of them, or its first SAMPLE_ROWS) and its name. */
export function classifyColumn(cells: Iterable<string>, name = ''): ColumnKind {
  return kindOfCounts(countCells(cells), name);
}

/**
 * The chain of column `column`'s addresses in `sample` (rows of cells), or undefined when it is not
 * an address column: classifyColumn's answer, with its cells read only while they can still make
 * one. Why: a result of 640 metric columns is 32,000 cells to classify, one turn of the extension
 * host's loop on every "use as input", list source and pipeline reference (issue 34 item 4); a
 * number column is settled by its first few cells. Stops when even every cell left being an
 * address of a chain would keep that chain under AGREE (the best case: classifyColumn's own test).
 */
export function sampleColumnChain(sample: readonly (readonly string[])[], column: number, name = ''): Chain | undefined {
  const c = { filled: 0, numbers: 0, main: 0, alt: 0, digitMain: 0, dates: 0 };
  for (let r = 0; r < sample.length; r++) {
    const v = (sample[r]?.[column] ?? '').trim();
    if (v === '') continue;
    countCell(c, v);
    const left = sample.length - r - 1;
    if (c.main + left < AGREE * (c.filled + left) && c.alt + left < AGREE * (c.filled + left)) return undefined;
  }
  const k = kindOfCounts(c, name);
  return k.kind === 'address' ? k.chain : undefined;
}

export interface AddressColumn {
  readonly column: number;
  readonly name: string;
  readonly chain: Chain;
}

/**
 * The address column of a table from its header and first rows (`sample[r][c]` over every
 * column), or undefined when it has none. Among several, a header like the wanted list's wins
 * (a token result also holds wallets), then the first. With `chain`, only that chain's columns.
 */
export function pickAddressColumn(names: readonly string[], sample: readonly (readonly string[])[], options: { chain?: Chain; want?: ListWant } = {}): AddressColumn | undefined {
  return pickAddressColumnOf(names, names.map((name, column) => sampleColumnChain(sample, column, name)), options);
}

/** As pickAddressColumn, from each column's chain already judged (`chains[i]`: sampleColumnChain's answer, judged in a table worker). */
export function pickAddressColumnOf(names: readonly string[], chains: readonly (Chain | null | undefined)[], options: { chain?: Chain; want?: ListWant } = {}): AddressColumn | undefined {
  const want = options.want ?? 'wallets';
  const found: AddressColumn[] = [];
  names.forEach((name, column) => {
    const chain = chains[column];
    if (chain && (options.chain === undefined || chain === options.chain)) found.push({ column, name, chain });
  });
  const rank = (name: string): number => {
    const i = want === 'wallets' ? ADDRESS_NAMES.indexOf(name.trim().toLowerCase()) : -1;
    return i >= 0 ? i : NAME_HINT[want].test(name) ? ADDRESS_NAMES.length : ADDRESS_NAMES.length + 1;
  };
  if (found.length > 0) return found.reduce((best, c) => (rank(c.name) < rank(best.name) ? c : best));
  return undefined;
}

/** Whose addresses a column holds: wallets, tokens (mints) or token creators (wallets that deploy). */
export type AddressRole = 'wallet' | 'token' | 'creator';

const ROLE_NAMES: readonly [AddressRole, RegExp][] = [
  ['creator', /creator|deployer|\bdev\b/iu],
  ['token', /token|mint/iu],
  ['wallet', /wallet|trader|buyer|seller|holder|owner|maker|signer|address|account/iu],
];

/**
 * Whose addresses an address column holds, from its name (`wallet`, `owner`, `trader` → wallet;
 * `token`, `mint`, `token_address` → token; `creator` → creator). A bare `address` is a wallet
 * unless `hint` (what the result that holds it lists: a token finder's list is tokens) says
 * otherwise; undefined when the name says nothing and there is no hint. "Use as input" ranks its
 * endpoints by it, so a wallet column is never offered a token endpoint first.
 */
export function addressRole(name: string, hint?: AddressRole): AddressRole | undefined {
  const n = name.trim().toLowerCase();
  if (hint && (n === '' || n === 'address' || n === 'addresses')) return hint;
  return ROLE_NAMES.find(([, re]) => re.test(n))?.[0] ?? hint;
}

/** The kind of list an endpoint's address-list field takes (its key: `wallets` or `tokens`). */
export function roleWanted(fieldKey: string): ListWant {
  return fieldKey === 'tokens' ? 'tokens' : 'wallets';
}

/** Whether a column of `role` is what a list field that wants `want` takes (a creator is a wallet). */
export function roleFits(role: AddressRole, want: ListWant): boolean {
  return want === 'tokens' ? role === 'token' : role !== 'token';
}
