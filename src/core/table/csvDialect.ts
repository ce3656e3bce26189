/**
 * How a delimited file is read, decided once from its first bytes: the byte between cells
 * (comma, tab or semicolon) and whether a lone CR ends a row. The one place these rules live;
 * the scanner and the cell readers are told the answer. A file read another way than comma and
 * LF/CRLF says so in a notice (dialectNotice), so a person never sees one wide column unexplained.
 */
import { COMMA, CR, LF, SEMICOLON, TAB } from './bytes';

/** The bytes a file's cells may be separated by. */
export type Delimiter = typeof COMMA | typeof TAB | typeof SEMICOLON;

/** Bytes at the start of a file looked at (64 KiB: the header and the first rows of any result). */
export const DIALECT_SAMPLE = 64 << 10;

export interface Dialect {
  readonly delimiter: Delimiter;
  /** Why the delimiter is not a comma, in words (for the notice): "its name ends in .tsv". */
  readonly because?: string;
  /** A lone CR ends a row too (RowScanner.crEnds). */
  readonly crEnds: boolean;
}

export const DEFAULT_DIALECT: Dialect = { delimiter: COMMA, crEnds: false };

/**
 * The dialect of a file from `sample`, its first bytes (`whole`: all of it; a BOM already left
 * out), `tsv` when its name ends in .tsv:
 * - delimiter: tab for a .tsv; else, when the first line has no comma, tab or semicolon, whichever
 *   it holds more of; else comma (so a comma file is never misread whatever else its header holds);
 * - crEnds: a CR that no LF follows anywhere in the sample (endsLinesAtCr).
 */
export function detectDialect(sample: Buffer, whole: boolean, tsv: boolean): Dialect {
  const crEnds = endsLinesAtCr(sample, whole);
  if (tsv) return { delimiter: TAB, because: 'its name ends in .tsv', crEnds };
  const delimiter = headerDelimiter(sample);
  return delimiter === COMMA ? { delimiter, crEnds } : { delimiter, because: `its first line has ${delimiterName(delimiter)}s and no commas`, crEnds };
}

function headerDelimiter(sample: Buffer): Delimiter {
  let end = sample.length;
  for (const b of [LF, CR]) {
    const at = sample.indexOf(b);
    if (at !== -1 && at < end) end = at;
  }
  let tabs = 0;
  let semicolons = 0;
  for (let i = 0; i < end; i++) {
    const b = sample[i];
    if (b === COMMA) return COMMA;
    if (b === TAB) tabs++;
    else if (b === SEMICOLON) semicolons++;
  }
  if (tabs === 0 && semicolons === 0) return COMMA;
  return tabs >= semicolons ? TAB : SEMICOLON;
}

/**
 * True when `bytes`, the first bytes of a file (`whole`: all of it), hold a CR that no LF
 * follows: the file ends lines at CR (old Mac files, or lines pasted from one), so its rows end
 * at CR, LF and CRLF alike. Its cost is a few thousand indexOf calls at open, and never a pass
 * over a file whose first bytes have no lone CR (such a file keeps the kernel's scan).
 */
function endsLinesAtCr(bytes: Buffer, whole: boolean): boolean {
  for (let at = bytes.indexOf(CR); at !== -1; at = bytes.indexOf(CR, at + 1)) {
    if (at + 1 < bytes.length ? bytes[at + 1] !== LF : whole) return true;
  }
  return false;
}

const NAMES: Record<Delimiter, string> = { [COMMA]: 'comma', [TAB]: 'tab', [SEMICOLON]: 'semicolon' };

/** The delimiter as a person says it: "tab", "semicolon", "comma". */
export function delimiterName(d: Delimiter): string {
  return NAMES[d];
}

/** The delimiter as a one-character string (for text searches and writing). */
export function delimiterChar(d: Delimiter): string {
  return String.fromCharCode(d);
}
