/**
 * A pipeline's filter step (issue 24): the rows of an earlier result that pass every condition,
 * written as a CSV beside the pipeline. It adds no semantics of its own: each condition becomes
 * the table's own column filter (src/core/table/types.ts ColumnFilter, inclusive ranges compared
 * exactly at every digit through `minText`/`maxText`, src/core/table/numbers.ts exactBounds), and
 * the table engine applies them and writes the view in its worker (ResultReader.exportFiltered),
 * so a filter in a pipeline keeps the same rows as the same filter in the table.
 */
import { stat } from 'node:fs/promises';
import { exactBounds, isNumberText, parseNumberText } from '../table/numbers';
import type { ColumnFilter } from '../table/types';
import { addressFilesOf } from '../results/files';
import { withResultReader, type ReadOptions } from '../results/readResult';
import type { FilterCondition } from './format';
import { l10n } from '../l10n';

type Bound = number | string;

/** A bound as a number and, where a double does not hold its digits, its exact text; or why it is none. */
function bound(v: Bound, column: string): { value: number; text: string } | string {
  const text = typeof v === 'number' ? String(v) : v.trim();
  if (!isNumberText(text)) return `“${column}”: ${JSON.stringify(v)} is not a number.`;
  return { value: parseNumberText(text), text };
}

/** The table's filter for one condition on column index `column`, or why the condition is not one. */
export function columnFilterOf(c: FilterCondition, column: number): ColumnFilter | string {
  switch (c.op) {
    case 'contains':
      return { kind: 'contains', column, text: c.value };
    case 'empty':
    case 'nonEmpty':
      return { kind: c.op, column };
    case '>=':
    case '<=': {
      const b = bound(c.value, c.column);
      if (typeof b === 'string') return b;
      return c.op === '>='
        ? { kind: 'range', column, min: b.value, ...exactBounds(b.text, b.value, '', undefined) }
        : { kind: 'range', column, max: b.value, ...exactBounds('', undefined, b.text, b.value) };
    }
    case 'between': {
      const lo = bound(c.value[0], c.column);
      const hi = bound(c.value[1], c.column);
      if (typeof lo === 'string') return lo;
      if (typeof hi === 'string') return hi;
      return { kind: 'range', column, min: lo.value, max: hi.value, ...exactBounds(lo.text, lo.value, hi.text, hi.value) };
    }
  }
}

/** Writes the rows of `source` (a result file) that pass `where` to `target` (CSV, every column); the number of rows kept. */
export async function filterResult(source: string, where: readonly FilterCondition[], target: string, from: string, options: ReadOptions = {}): Promise<number> {
  const files = (await stat(source)).isDirectory() ? await addressFilesOf(source) : [source];
  if (files.length !== 1) throw new Error(l10n.t('“{0}” is a folder of {1} files; a filter reads one result file.', from, files.length));
  return withResultReader(files[0] ?? source, async (reader) => {
    const filters: ColumnFilter[] = [];
    for (const c of where) {
      const i = reader.columns.indexOf(c.column);
      if (i < 0) throw new Error(l10n.t('“{0}” has no column “{1}” to filter on (its columns: {2}).', from, c.column, reader.columns.join(', ')));
      const f = columnFilterOf(c, i);
      if (typeof f === 'string') throw new Error(f);
      filters.push(f);
    }
    return (await reader.exportFiltered({ filters }, target, options.signal ? { signal: options.signal } : {})).rows;
    // The header names the columns; no row is read on the host, nor the columns' chains judged in the worker.
  }, { ...options, sample: false, chains: false });
}
