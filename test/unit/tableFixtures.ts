/**
 * Helpers for the table tests: temp files, a seeded generator of tricky CSV text, papaparse as
 * the reference parser, and a plain reference for sort / filter over parsed cells.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Papa from 'papaparse';
import { compareText, parseNumberText, type ColumnFilter, type SortKey } from '../../src/core/table';
import { compareDecimalText } from '../../src/core/table/numbers';

/** A fresh temp directory, removed by the returned cleanup. */
export async function tempDir(): Promise<{ dir: string; cleanup: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), 'wa-table-'));
  return { dir, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

let fileCounter = 0;

/** Writes `content` to a new file in `dir` and returns its path. */
export async function writeTemp(dir: string, content: string | Uint8Array, ext = '.csv'): Promise<string> {
  const path = join(dir, `t${fileCounter++}${ext}`);
  await writeFile(path, content);
  return path;
}

/** papaparse's full parse, the reference: rows of cells, blank lines skipped, BOM removed. */
export function papaRows(text: string, newline?: '\n' | '\r\n'): string[][] {
  const input = text.startsWith('\ufeff') ? text.slice(1) : text;
  const result = Papa.parse<string[]>(input, { skipEmptyLines: true, delimiter: ',', ...(newline ? { newline } : {}) });
  return result.data;
}

/** A small, seeded PRNG (mulberry32): the bench generator's, so tests and bench draw alike. */
export { seededRandom as rng } from '../../bench/tableData';

function pick<T>(rand: () => number, items: readonly T[]): T {
  return items[Math.floor(rand() * items.length)] as T;
}

const WORDS = ['alpha', 'Beta', 'gamma', 'w2', 'w10', 'ÉTÉ', 'naïve', '€uro', 'x y', 'Zed', 'a.b', ' pad '];
const TRICKY = ['a,b', 'say "hi"', 'line\nbreak', 'crlf\r\ninside', '""', ',', '"', 'end,', 'two\n\nlines'];
const FORMULAS = ['=1+2', '@SUM(A1)', '+x', '-y', '=HYPERLINK("x")', '-', '+'];

/** One random cell value (the text a reader should get back). */
export function randomCell(rand: () => number): string {
  const k = rand();
  if (k < 0.15) return '';
  if (k < 0.45) {
    const n = (rand() - 0.5) * 10 ** Math.floor(rand() * 6);
    // The last two share doubles with their neighbours past 15 digits (exact order, issue 22).
    return pick(rand, [String(Math.round(n)), n.toFixed(3), n.toExponential(2), `.${Math.floor(rand() * 100)}`, `${Math.round(n)}00000000000000000${Math.round(n) % 3}`, `${n.toFixed(3)}0000000000000001`]);
  }
  if (k < 0.7) return pick(rand, WORDS);
  if (k < 0.9) return pick(rand, TRICKY);
  return pick(rand, FORMULAS);
}

export interface CsvShape {
  readonly header: string[];
  readonly rows: string[][];
  readonly eol: '\n' | '\r\n';
  readonly bom: boolean;
  readonly finalNewline: boolean;
}

/** A random rectangular table with 2–6 columns and 0–40 rows, and how it is written. */
export function randomTable(rand: () => number): CsvShape {
  const cols = 2 + Math.floor(rand() * 5);
  const header = Array.from({ length: cols }, (_, i) => (rand() < 0.2 ? `col,${i}` : `c${i}`));
  const rows = Array.from({ length: Math.floor(rand() * 41) }, () => Array.from({ length: cols }, () => randomCell(rand)));
  return { header, rows, eol: rand() < 0.5 ? '\n' : '\r\n', bom: rand() < 0.2, finalNewline: rand() < 0.7 };
}

/** Writes a table as CSV: quotes where needed and sometimes where not. */
export function toCsv(t: CsvShape, rand: () => number): string {
  const cell = (v: string): string => (/[",\r\n]/u.test(v) || (v !== '' && rand() < 0.1) ? `"${v.replaceAll('"', '""')}"` : v);
  const lines = [t.header, ...t.rows].map((r) => r.map(cell).join(','));
  return (t.bom ? '\ufeff' : '') + lines.join(t.eol) + (t.finalNewline ? t.eol : '');
}

/** How sorting classes a cell: 0 number, 1 text, 2 empty. */
function cellClass(v: string): number {
  if (v === '') return 2;
  return Number.isNaN(parseNumberText(v)) ? 1 : 0;
}

/** Reference sort of row ids over parsed cells, written plainly from the documented rules. */
export function referenceSort(cells: readonly (readonly string[])[], ids: readonly number[], keys: readonly SortKey[]): number[] {
  return [...ids].sort((a, b) => {
    for (const k of keys) {
      const x = cells[a]?.[k.column] ?? '';
      const y = cells[b]?.[k.column] ?? '';
      const cx = cellClass(x);
      const cy = cellClass(y);
      if (cx === 2 || cy === 2) {
        if (cx === cy) continue;
        return cx === 2 ? 1 : -1;
      }
      let c = cx - cy;
      if (c === 0) c = cx === 0 ? Math.sign(parseNumberText(x) - parseNumberText(y)) || compareDecimalText(x, y) : compareText(x, y);
      if (c !== 0) return k.descending ? -c : c;
    }
    return a - b;
  });
}

/** Reference filter over parsed cells. */
export function referenceFilter(cells: readonly (readonly string[])[], filters: readonly ColumnFilter[], search = ''): number[] {
  const needle = search.toLowerCase();
  const ids: number[] = [];
  cells.forEach((row, r) => {
    const ok = filters.every((f) => {
      const v = row[f.column] ?? '';
      switch (f.kind) {
        case 'range': {
          const n = parseNumberText(v);
          return !Number.isNaN(n) && n >= (f.min ?? -Infinity) && n <= (f.max ?? Infinity);
        }
        case 'contains':
          return v.toLowerCase().includes(f.text.toLowerCase());
        case 'empty':
          return v === '';
        case 'nonEmpty':
          return v !== '';
      }
    });
    if (ok && (needle === '' || row.some((v) => v.toLowerCase().includes(needle)))) ids.push(r);
  });
  return ids;
}

/** Read sizes that put chunk boundaries everywhere in a small file. */
export function tinyReads(rand: () => number): { head: number; chunk: number } {
  return { head: 1 + Math.floor(rand() * 40), chunk: 1 + Math.floor(rand() * 30) };
}
