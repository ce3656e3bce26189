/**
 * Two results compared by address, as a TableSource, so the table sorts, filters, searches and
 * exports it like any result. Rows: every row of A in A's order (in both, or only in A), then the
 * rows only in B in B's order. Columns: `status`, `address`, a `Δ name` (B − A) for each column
 * both call numeric, then the values of A and of B (`name (A)`, `name (B)`).
 *
 * Nothing is copied: the table keeps two row maps (a row id of A and of B per compared row, 8
 * bytes a row) and reads cells from the two sources when asked; typed columns (for sort and
 * filter) are derived from the sources' own typed columns, built once and cached. An address
 * seen k times in A is paired with its k-th row in B; rows without an address pair with nothing.
 */
import type { Chain } from '../../spec/addresses';
import { CellKind, type ColumnNeed, type SourceChange, type TableNotice, type TableSource, type TaskOptions, type TypedColumn } from '../types';
import { pickAddressColumn, SAMPLE_ROWS, type AddressColumn } from '../columnKind';
import { deltaText, numericColumns, pairRows, type CompareCounts } from './pairRows';
import { throwIfCancelled } from '../../abort';
import { l10n } from '../../l10n';
import { thousands } from '../../numberText';

/** The words of the status column. */
export const STATUS = { onlyA: 'only in A', onlyB: 'only in B', both: 'in both' } as const;

interface CompareOptions extends TaskOptions {
  /** Names shown in the notice (file names); 'A' and 'B' when absent. */
  readonly labels?: { readonly a: string; readonly b: string };
  /** Close both sources when the comparison is closed (true when the comparison opened them). */
  readonly ownsSources?: boolean;
}

/** What a compared column shows. */
type Col =
  | { readonly type: 'status' }
  | { readonly type: 'address' }
  | { readonly type: 'delta'; readonly a: number; readonly b: number }
  | { readonly type: 'value'; readonly side: 'a' | 'b'; readonly column: number };

const NONE = -1;

/** Compares two sources by their address columns (found as the table finds them); waits for both to be indexed. */
export async function compareSources(a: TableSource, b: TableSource, options: CompareOptions = {}): Promise<CompareSource> {
  const { signal } = options;
  await Promise.all([a.indexed, b.indexed]);
  throwIfCancelled(signal);
  // One sample of each side's first rows serves both questions: which column holds addresses, which are numbers.
  const [sampleA, sampleB] = await Promise.all([firstRows(a, signal), firstRows(b, signal)]);
  const addrA = pickAddressColumn(a.columns, sampleA);
  const addrB = pickAddressColumn(b.columns, sampleB);
  const labels = options.labels ?? { a: 'A', b: 'B' };
  if (!addrA) throw new Error(l10n.t('{0} has no address column to compare by.', labels.a));
  if (!addrB) throw new Error(l10n.t('{0} has no address column to compare by.', labels.b));
  if (addrA.chain !== addrB.chain) throw new Error(l10n.t('{0} holds {1} addresses and {2} {3} ones: they cannot be compared.', labels.a, chainWords(addrA.chain), labels.b, chainWords(addrB.chain)));
  const [[textA], [textB]] = await Promise.all([
    a.typedColumns([{ column: addrA.column, text: true }], options),
    b.typedColumns([{ column: addrB.column, text: true }], options),
  ]);
  throwIfCancelled(signal);
  const numericA = numericColumns(a.columns, sampleA);
  const numericB = numericColumns(b.columns, sampleB);
  const pairs = pairRows(textA?.fullText ?? [], textB?.fullText ?? [], addrA.chain);
  return new CompareSource(a, b, { addrA, addrB, numericA, numericB, ...pairs, labels, owns: options.ownsSources === true });
}

function chainWords(chain: Chain): string {
  return chain === 'alt' ? 'second-chain' : 'main-chain';
}

/** Every cell of the first SAMPLE_ROWS rows. */
async function firstRows(source: TableSource, signal?: AbortSignal): Promise<string[][]> {
  const rows = Math.min(source.rowCount, SAMPLE_ROWS);
  if (rows === 0) return [];
  return source.readCells(Array.from({ length: rows }, (_, i) => i), source.columns.map((_, i) => i), signal);
}

interface Parts {
  readonly addrA: AddressColumn;
  readonly addrB: AddressColumn;
  readonly numericA: Set<number>;
  readonly numericB: Set<number>;
  readonly rowA: Int32Array;
  readonly rowB: Int32Array;
  readonly counts: CompareCounts;
  readonly labels: { readonly a: string; readonly b: string };
  readonly owns: boolean;
}

export class CompareSource implements TableSource {
  /** Computed in memory from two sources, like JSON rows: complete from the start. */
  readonly kind = 'json';
  readonly complete = true;
  readonly indexed = Promise.resolve();
  readonly columns: readonly string[];
  readonly notices: readonly TableNotice[];
  readonly counts: CompareCounts;
  /** How many `Δ` columns (numeric columns both results share by name). */
  readonly deltaColumns: number;
  private readonly cols: readonly Col[];
  private readonly rowA: Int32Array;
  private readonly rowB: Int32Array;
  private readonly addrA: AddressColumn;
  private readonly addrB: AddressColumn;
  private readonly owns: boolean;
  private readonly cache = new Map<number, TypedColumn>();
  private statusColumn: TypedColumn | undefined;

  constructor(
    readonly a: TableSource,
    readonly b: TableSource,
    parts: Parts,
  ) {
    this.rowA = parts.rowA;
    this.rowB = parts.rowB;
    this.addrA = parts.addrA;
    this.addrB = parts.addrB;
    this.counts = parts.counts;
    this.owns = parts.owns;
    const byNameB = new Map<string, number>();
    b.columns.forEach((n, i) => {
      if (i !== parts.addrB.column && !byNameB.has(n)) byNameB.set(n, i);
    });
    const cols: Col[] = [{ type: 'status' }, { type: 'address' }];
    const names: string[] = ['status', 'address'];
    const deltas: [Col, string][] = [];
    const values: [Col, string][] = [];
    const sharedB = new Set<number>();
    a.columns.forEach((name, ca) => {
      if (ca === parts.addrA.column) return;
      const cb = byNameB.get(name);
      values.push([{ type: 'value', side: 'a', column: ca }, `${name} (A)`]);
      if (cb === undefined) return;
      sharedB.add(cb);
      values.push([{ type: 'value', side: 'b', column: cb }, `${name} (B)`]);
      if (parts.numericA.has(ca) && parts.numericB.has(cb)) deltas.push([{ type: 'delta', a: ca, b: cb }, `Δ ${name}`]);
    });
    b.columns.forEach((name, cb) => {
      if (cb !== parts.addrB.column && !sharedB.has(cb)) values.push([{ type: 'value', side: 'b', column: cb }, `${name} (B)`]);
    });
    for (const [c, n] of [...deltas, ...values]) {
      cols.push(c);
      names.push(n);
    }
    this.cols = cols;
    this.columns = names;
    this.deltaColumns = deltas.length;
    const { onlyA, onlyB, both } = parts.counts;
    this.notices = [
      {
        code: 'compared',
        severity: 'info',
        message:
          l10n.t('A: {0} · B: {1}, by {2}. ', parts.labels.a, parts.labels.b, parts.addrA.name === parts.addrB.name ? `“${parts.addrA.name}”` : l10n.t('“{0}” and “{1}”', parts.addrA.name, parts.addrB.name)) +
          (deltas.length === 1
            ? l10n.t('{0} in both, {1} only in A, {2} only in B. Δ = B − A for {3} numeric column both share.', thousands(both), thousands(onlyA), thousands(onlyB), thousands(deltas.length))
            : l10n.t('{0} in both, {1} only in A, {2} only in B. Δ = B − A for {3} numeric columns both share.', thousands(both), thousands(onlyA), thousands(onlyB), thousands(deltas.length))),
      },
    ];
  }

  get rowCount(): number {
    return this.rowA.length;
  }

  /** The row of A (or -1) and of B (or -1) behind compared row `row`. */
  rowsOf(row: number): { a: number; b: number } {
    return { a: this.rowA[row] ?? NONE, b: this.rowB[row] ?? NONE };
  }

  onDidChange(_listener: (change: SourceChange) => void): () => void {
    // Complete from the start: nothing changes.
    return () => undefined;
  }

  async readCells(rows: ArrayLike<number>, columns: readonly number[], signal?: AbortSignal): Promise<string[][]> {
    const wanted = columns.map((c) => this.col(c));
    for (let i = 0; i < rows.length; i++) {
      const r = rows[i] ?? 0;
      if (!Number.isInteger(r) || r < 0 || r >= this.rowCount) throw new RangeError(l10n.t('Row {0} is past the last row ({1} rows)', r, this.rowCount));
    }
    // The cells each side must give, once each: value columns, the columns behind a Δ, the address.
    const needA = new Map<number, number>();
    const needB = new Map<number, number>();
    const want = (m: Map<number, number>, c: number): void => {
      if (!m.has(c)) m.set(c, m.size);
    };
    for (const c of wanted) {
      if (c.type === 'address') {
        want(needA, this.addrA.column);
        want(needB, this.addrB.column);
      } else if (c.type === 'delta') {
        want(needA, c.a);
        want(needB, c.b);
      } else if (c.type === 'value') want(c.side === 'a' ? needA : needB, c.column);
    }
    // Both files at once: a window of a sorted comparison reads scattered rows of each.
    const [[cellsA, slotA], [cellsB, slotB]] = await Promise.all([
      this.side(this.a, this.rowA, rows, needA, signal),
      this.side(this.b, this.rowB, rows, needB, signal),
    ]);
    const out: string[][] = [];
    for (let i = 0; i < rows.length; i++) {
      const r = rows[i] ?? 0;
      const ra = slotA[i] === NONE ? undefined : cellsA[slotA[i] ?? 0];
      const rb = slotB[i] === NONE ? undefined : cellsB[slotB[i] ?? 0];
      const cellA = (c: number): string | undefined => (ra ? ra[needA.get(c) ?? 0] ?? '' : undefined);
      const cellB = (c: number): string | undefined => (rb ? rb[needB.get(c) ?? 0] ?? '' : undefined);
      out.push(
        wanted.map((c) => {
          switch (c.type) {
            case 'status':
              return this.status(r);
            case 'address':
              return cellA(this.addrA.column) ?? cellB(this.addrB.column) ?? '';
            case 'delta': {
              const x = cellA(c.a);
              const y = cellB(c.b);
              return x === undefined || y === undefined ? '' : deltaText(x, y);
            }
            case 'value':
              return (c.side === 'a' ? cellA(c.column) : cellB(c.column)) ?? '';
          }
        }),
      );
    }
    return out;
  }

  async typedColumns(needs: readonly ColumnNeed[], options: TaskOptions = {}): Promise<TypedColumn[]> {
    const cols = needs.map((n) => this.col(n.column));
    // What each side must type, in one request per side (each source builds its missing ones in one pass).
    const fromA = new Map<number, boolean>();
    const fromB = new Map<number, boolean>();
    const add = (m: Map<number, boolean>, c: number, text: boolean): void => {
      m.set(c, (m.get(c) ?? false) || text);
    };
    needs.forEach((n, i) => {
      const c = cols[i];
      const text = n.text === true;
      const have = this.cache.get(n.column);
      if (!c || (have && (have.fullText || !text))) return;
      if (c.type === 'address') {
        add(fromA, this.addrA.column, true);
        add(fromB, this.addrB.column, true);
      } else if (c.type === 'delta') {
        add(fromA, c.a, text);
        add(fromB, c.b, text);
      } else if (c.type === 'value') add(c.side === 'a' ? fromA : fromB, c.column, text);
    });
    const typedOf = async (source: TableSource, m: Map<number, boolean>): Promise<Map<number, TypedColumn>> => {
      const list = [...m].map(([column, text]) => ({ column, text }));
      const typed = list.length > 0 ? await source.typedColumns(list, options) : [];
      return new Map(typed.map((t, i) => [list[i]?.column ?? t.column, t]));
    };
    const [typedA, typedB] = await Promise.all([typedOf(this.a, fromA), typedOf(this.b, fromB)]);
    throwIfCancelled(options.signal);
    return needs.map((n, i) => {
      const c = cols[i] as Col;
      const text = n.text === true;
      const have = this.cache.get(n.column);
      if (have && (have.fullText || !text)) return have;
      let built: TypedColumn;
      switch (c.type) {
        case 'status':
          built = this.statusTyped(n.column);
          break;
        case 'address':
          built = this.mergeTexts(n.column, need(typedA, this.addrA.column), need(typedB, this.addrB.column));
          break;
        case 'delta':
          built = this.deltaTyped(n.column, need(typedA, c.a), need(typedB, c.b), text);
          break;
        case 'value':
          built = this.valueTyped(n.column, need(c.side === 'a' ? typedA : typedB, c.column), c.side === 'a' ? this.rowA : this.rowB);
          break;
      }
      this.cache.set(n.column, built);
      return built;
    });
  }

  async searchRows(text: string, options: TaskOptions = {}): Promise<Uint8Array> {
    const [maskA, maskB] = await Promise.all([this.a.searchRows(text, options), this.b.searchRows(text, options)]);
    const needle = text.toLowerCase();
    const statusHit = Object.values(STATUS).map((s) => s.includes(needle));
    const mask = new Uint8Array(this.rowCount);
    for (let r = 0; r < mask.length; r++) {
      const ra = this.rowA[r] ?? NONE;
      const rb = this.rowB[r] ?? NONE;
      const st = ra === NONE ? 1 : rb === NONE ? 0 : 2;
      if ((ra !== NONE && maskA[ra] === 1) || (rb !== NONE && maskB[rb] === 1) || statusHit[st] === true) mask[r] = 1;
    }
    return mask;
  }

  async close(): Promise<void> {
    if (this.owns) await Promise.all([this.a.close(), this.b.close()]);
  }

  // ------------------------------------------------------------------------------------------

  private col(c: number): Col {
    const col = Number.isInteger(c) ? this.cols[c] : undefined;
    if (!col) throw new RangeError(l10n.t('No column {0} (the table has {1})', c, this.columns.length));
    return col;
  }

  private status(r: number): string {
    const ra = this.rowA[r] ?? NONE;
    const rb = this.rowB[r] ?? NONE;
    return ra === NONE ? STATUS.onlyB : rb === NONE ? STATUS.onlyA : STATUS.both;
  }

  /** Reads the cells one side gives for `rows`; returns them and, per asked row, its index in them (NONE: no row on this side). */
  private async side(
    source: TableSource,
    map: Int32Array,
    rows: ArrayLike<number>,
    need: Map<number, number>,
    signal?: AbortSignal,
  ): Promise<[string[][], Int32Array]> {
    const slot = new Int32Array(rows.length).fill(NONE);
    if (need.size === 0) return [[], slot];
    const ids: number[] = [];
    for (let i = 0; i < rows.length; i++) {
      const s = map[rows[i] ?? 0] ?? NONE;
      if (s === NONE) continue;
      slot[i] = ids.length;
      ids.push(s);
    }
    if (ids.length === 0) return [[], slot];
    return [await source.readCells(ids, [...need.keys()], signal), slot];
  }

  private statusTyped(column: number): TypedColumn {
    if (this.statusColumn) return { ...this.statusColumn, column };
    const texts: string[] = new Array<string>(this.rowCount);
    for (let r = 0; r < texts.length; r++) texts[r] = this.status(r);
    const col: TypedColumn = {
      column,
      numbers: new Float64Array(this.rowCount).fill(NaN),
      kinds: new Uint8Array(this.rowCount).fill(CellKind.Text),
      emptyCount: 0,
      numberCount: 0,
      textCount: this.rowCount,
      texts,
      fullText: texts,
    };
    this.statusColumn = col;
    return col;
  }

  /** The address: A's cell where A has the row, else B's. */
  private mergeTexts(column: number, a: TypedColumn, b: TypedColumn): TypedColumn {
    const n = this.rowCount;
    const out = new Builder(column, n, true);
    for (let r = 0; r < n; r++) {
      const ra = this.rowA[r] ?? NONE;
      const rb = this.rowB[r] ?? NONE;
      out.copy(r, ra !== NONE ? a : b, ra !== NONE ? ra : rb);
    }
    return out.finish();
  }

  /** One side's column, on the compared rows (empty where that side has no row). */
  private valueTyped(column: number, t: TypedColumn, map: Int32Array): TypedColumn {
    const n = this.rowCount;
    const out = new Builder(column, n, t.fullText !== undefined);
    for (let r = 0; r < n; r++) {
      const s = map[r] ?? NONE;
      if (s !== NONE) out.copy(r, t, s);
    }
    return out.finish();
  }

  /** B − A where both cells are numbers; the text (when asked) as readCells shows it. */
  private deltaTyped(column: number, a: TypedColumn, b: TypedColumn, withText: boolean): TypedColumn {
    const n = this.rowCount;
    const numbers = new Float64Array(n).fill(NaN);
    const kinds = new Uint8Array(n);
    const fullText = withText ? new Array<string>(n).fill('') : undefined;
    let numberCount = 0;
    for (let r = 0; r < n; r++) {
      const ra = this.rowA[r] ?? NONE;
      const rb = this.rowB[r] ?? NONE;
      if (ra === NONE || rb === NONE || a.kinds[ra] !== CellKind.Number || b.kinds[rb] !== CellKind.Number) continue;
      numbers[r] = (b.numbers[rb] ?? NaN) - (a.numbers[ra] ?? NaN);
      kinds[r] = CellKind.Number;
      numberCount++;
      if (fullText) fullText[r] = deltaText(a.fullText?.[ra] ?? '', b.fullText?.[rb] ?? '');
    }
    return { column, numbers, kinds, emptyCount: n - numberCount, numberCount, textCount: 0, texts: undefined, fullText };
  }
}

function need(m: Map<number, TypedColumn>, column: number): TypedColumn {
  const t = m.get(column);
  if (!t) throw new Error(l10n.t('Column {0} was not typed.', column));
  return t;
}

/** A typed column assembled from cells of other typed columns. */
class Builder {
  private readonly numbers: Float64Array;
  private readonly kinds: Uint8Array;
  private texts: string[] | undefined;
  private readonly fullText: string[] | undefined;
  private numberCount = 0;
  private textCount = 0;

  constructor(
    private readonly column: number,
    private readonly n: number,
    withText: boolean,
  ) {
    this.numbers = new Float64Array(n).fill(NaN);
    this.kinds = new Uint8Array(n);
    this.fullText = withText ? new Array<string>(n).fill('') : undefined;
  }

  /** Cell `r` is cell `s` of `t`. */
  copy(r: number, t: TypedColumn, s: number): void {
    const kind = t.kinds[s] ?? CellKind.Empty;
    if (kind === CellKind.Number) {
      this.numbers[r] = t.numbers[s] ?? NaN;
      this.numberCount++;
    } else if (kind === CellKind.Text) {
      this.texts ??= new Array<string>(this.n).fill('');
      this.texts[r] = t.texts?.[s] ?? '';
      this.textCount++;
    }
    this.kinds[r] = kind;
    if (this.fullText) this.fullText[r] = t.fullText?.[s] ?? '';
  }

  finish(): TypedColumn {
    const fullText = this.fullText ?? (this.numberCount === 0 ? (this.texts ?? new Array<string>(this.n).fill('')) : undefined);
    return {
      column: this.column,
      numbers: this.numbers,
      kinds: this.kinds,
      emptyCount: this.n - this.numberCount - this.textCount,
      numberCount: this.numberCount,
      textCount: this.textCount,
      texts: this.texts,
      fullText,
    };
  }
}
