/**
 * JSON rows as a TableSource: the direct API's results (Wallet Database rows, creators, swaps)
 * or a .json file. Columns are the union of the rows' keys in first-seen order; nested objects
 * become dotted columns (`token.symbol`); arrays are shown as JSON text. The rows stay as they
 * are and cells are formatted when read, so a result is not held twice.
 */
import { readFile } from 'node:fs/promises';
import { Listeners } from './listeners';
import { TypedColumnBuilder } from './typedColumn';
import type { ColumnNeed, SourceChange, TableNotice, TableSource, TypedColumn } from './types';
import { l10n } from '../l10n';

/** Property names under which API responses commonly carry their rows, tried in this order. */
const ROW_KEYS = ['rows', 'data', 'results', 'items', 'wallets', 'creators', 'swaps', 'tokens'];

/** The array of rows in a JSON value: the value itself, a known property, or the first array property. */
export function findRows(value: unknown): readonly unknown[] | undefined {
  if (Array.isArray(value)) return value;
  if (!isRecord(value)) return undefined;
  for (const key of ROW_KEYS) {
    const v = value[key];
    if (Array.isArray(v)) return v;
  }
  return Object.values(value).find((v): v is unknown[] => Array.isArray(v));
}

/** A table over JSON rows (objects; other values go to a `value` column). */
export function jsonRowsSource(rows: readonly unknown[], notices: readonly TableNotice[] = []): TableSource {
  return new JsonSource(rows, notices);
}

/** Reads a .json file and shows its rows (see findRows); a value without rows opens as one cell with a notice. */
export async function openJsonFile(path: string): Promise<TableSource> {
  const value: unknown = JSON.parse(await readFile(path, 'utf8'));
  const rows = findRows(value);
  if (rows) return jsonRowsSource(rows);
  return jsonRowsSource([value], [
    { code: 'notTabular', severity: 'info', message: l10n.t('This result is one record, not a list: it is shown as one row (a wallet’s metrics open as a card).') },
  ]);
}

class JsonSource implements TableSource {
  readonly kind = 'json';
  readonly columns: readonly string[];
  readonly complete = true;
  readonly indexed = Promise.resolve();
  private readonly paths: readonly (readonly string[])[];
  private readonly cache = new Map<number, TypedColumn>();
  private readonly changes = new Listeners<SourceChange>();

  constructor(
    private readonly rows: readonly unknown[],
    readonly notices: readonly TableNotice[],
  ) {
    this.paths = columnPaths(rows);
    this.columns = this.paths.map((p) => (p.length === 0 ? 'value' : p.join('.')));
  }

  get rowCount(): number {
    return this.rows.length;
  }

  onDidChange(listener: (change: SourceChange) => void): () => void {
    return this.changes.add(listener);
  }

  readCells(rows: ArrayLike<number>, columns: readonly number[]): Promise<string[][]> {
    this.check(columns);
    const out: string[][] = [];
    for (let i = 0; i < rows.length; i++) {
      const r = rows[i] ?? 0;
      if (r < 0 || r >= this.rows.length) return Promise.reject(new RangeError(l10n.t('Row {0} is past the last row ({1} rows)', r, this.rows.length)));
      out.push(columns.map((c) => this.cell(r, c)));
    }
    return Promise.resolve(out);
  }

  typedColumns(needs: readonly ColumnNeed[]): Promise<TypedColumn[]> {
    this.check(needs.map((n) => n.column));
    return Promise.resolve(
      needs.map((need) => {
        const cached = this.cache.get(need.column);
        if (cached && (cached.fullText || need.text !== true)) return cached;
        // Text is at hand here, so every column is built with its full text.
        const b = new TypedColumnBuilder(need.column, this.rows.length, true);
        for (let r = 0; r < this.rows.length; r++) b.cell(r, this.cell(r, need.column));
        const col = b.finish();
        this.cache.set(need.column, col);
        return col;
      }),
    );
  }

  searchRows(text: string): Promise<Uint8Array> {
    const needle = text.toLowerCase();
    const mask = new Uint8Array(this.rows.length);
    for (let r = 0; r < this.rows.length; r++) {
      for (let c = 0; c < this.columns.length; c++) {
        if (this.cell(r, c).toLowerCase().includes(needle)) {
          mask[r] = 1;
          break;
        }
      }
    }
    return Promise.resolve(mask);
  }

  close(): Promise<void> {
    return Promise.resolve();
  }

  private cell(r: number, c: number): string {
    const path = this.paths[c] ?? [];
    let v: unknown = this.rows[r];
    if (path.length === 0) return isRecord(v) ? '' : cellText(v);
    for (const key of path) v = isRecord(v) ? v[key] : undefined;
    return cellText(v);
  }

  private check(columns: readonly number[]): void {
    for (const c of columns) {
      if (!Number.isInteger(c) || c < 0 || c >= this.columns.length) throw new RangeError(l10n.t('No column {0} (the table has {1})', c, this.columns.length));
    }
  }
}

/** Key paths of every leaf, in first-seen order; [] stands for rows that are not objects. */
function columnPaths(rows: readonly unknown[]): string[][] {
  const seen = new Map<string, string[]>();
  const visit = (obj: Record<string, unknown>, prefix: string[]): void => {
    for (const [key, value] of Object.entries(obj)) {
      const path = [...prefix, key];
      if (isRecord(value) && Object.keys(value).length > 0) visit(value, path);
      else {
        const id = JSON.stringify(path);
        if (!seen.has(id)) seen.set(id, path);
      }
    }
  };
  let primitives = false;
  for (const row of rows) {
    if (isRecord(row)) visit(row, []);
    else primitives = true;
  }
  const paths = [...seen.values()];
  if (primitives) paths.push([]);
  return paths;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** How a JSON value reads in a cell: strings as they are, null and missing as empty, the rest as JSON. */
function cellText(v: unknown): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'string') return v;
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return JSON.stringify(v);
}
