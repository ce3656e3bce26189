/** Column filters over typed columns (see ColumnFilter in types.ts); all filters of a view must hold. */
import { CellKind, type ColumnFilter, type ColumnNeed, type TypedColumn } from './types';

/** The typed columns a filter needs; a text filter needs the text of every cell. */
export function filterNeed(f: ColumnFilter): ColumnNeed {
  return { column: f.column, text: f.kind === 'contains' };
}

/** A test by row id for one filter over its typed column. */
export function rowTest(f: ColumnFilter, col: TypedColumn): (r: number) => boolean {
  const { kinds, numbers } = col;
  switch (f.kind) {
    case 'range': {
      const min = f.min ?? -Infinity;
      const max = f.max ?? Infinity;
      return (r) => kinds[r] === CellKind.Number && (numbers[r] ?? NaN) >= min && (numbers[r] ?? NaN) <= max;
    }
    case 'contains': {
      const needle = f.text.toLowerCase();
      const text = col.fullText ?? [];
      return (r) => (text[r] ?? '').toLowerCase().includes(needle);
    }
    case 'empty':
      return (r) => kinds[r] === CellKind.Empty;
    case 'nonEmpty':
      return (r) => kinds[r] !== CellKind.Empty;
  }
}

/**
 * Row ids 0..rowCount-1 that pass every filter and, when given, the search mask; ascending.
 * `columns[i]` is the typed column of `filters[i]`.
 */
export function filterRows(rowCount: number, filters: readonly ColumnFilter[], columns: readonly TypedColumn[], mask?: Uint8Array): Uint32Array {
  const tests = filters.map((f, i) => rowTest(f, columns[i] as TypedColumn));
  const out = new Uint32Array(rowCount);
  let n = 0;
  for (let r = 0; r < rowCount; r++) {
    if (mask && mask[r] !== 1) continue;
    let pass = true;
    for (const t of tests) {
      if (!t(r)) {
        pass = false;
        break;
      }
    }
    if (pass) out[n++] = r;
  }
  return out.slice(0, n);
}
