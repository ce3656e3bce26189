/**
 * The chips above the grid that say what shapes the rows: the sort keys in order, each filter
 * and the search, each with a ✕ that removes it, and a Clear All. Hidden while nothing applies.
 */
import type { ColumnFilter, ViewQuery } from '../shared/tableProtocol';
import { button, el } from './dom';

/** What the chips read and change. */
export interface ChipsOwner {
  /** The query in force, or the one being applied. */
  query(): ViewQuery;
  setQuery(query: ViewQuery): void;
  setFilter(column: number, filter: ColumnFilter | undefined): void;
  clearSearch(): void;
  clearAll(): void;
  columnName(column: number): string;
}

/** A filter in words, e.g. `1 ≤ volume ≤ 5` or `name contains “x”`. */
export function describeFilter(f: ColumnFilter, name: string): string {
  switch (f.kind) {
    case 'range':
      if (f.min !== undefined && f.max !== undefined) return `${f.min} ≤ ${name} ≤ ${f.max}`;
      return f.min !== undefined ? `${name} ≥ ${f.min}` : `${name} ≤ ${f.max ?? ''}`;
    case 'contains':
      return `${name} contains “${f.text}”`;
    case 'empty':
      return `${name} is empty`;
    case 'nonEmpty':
      return `${name} is not empty`;
  }
}

export class FilterChips {
  readonly el = el('div', { className: 'chips', attrs: { 'aria-label': 'Sort and filters' } });

  constructor(private readonly owner: ChipsOwner) {
    this.el.hidden = true;
  }

  render(): void {
    const owner = this.owner;
    const q = owner.query();
    const name = (c: number): string => owner.columnName(c);
    this.el.textContent = '';
    const chip = (text: string, remove: () => void, label: string): HTMLElement => {
      const x = button('✕', remove, { className: 'chip-x', title: `Remove: ${label}`, attrs: { 'aria-label': `Remove ${label}` } });
      return el('span', { className: 'chip' }, [el('span', { text }), x]);
    };
    const sort = q.sort ?? [];
    if (sort.length > 0) {
      this.el.appendChild(el('span', { className: 'dim', text: 'Sorted by' }));
      sort.forEach((k, i) => {
        const label = `${name(k.column)} ${k.descending ? '▼' : '▲'}`;
        this.el.appendChild(chip(`${sort.length > 1 ? `${i + 1}. ` : ''}${label}`, () => owner.setQuery({ ...owner.query(), sort: sort.filter((s) => s !== k) }), `sort by ${name(k.column)}`));
      });
    }
    const filters = q.filters ?? [];
    if (filters.length > 0) {
      this.el.appendChild(el('span', { className: 'dim', text: 'Filters' }));
      for (const f of filters) {
        const text = describeFilter(f, name(f.column));
        this.el.appendChild(chip(text, () => owner.setFilter(f.column, undefined), text));
      }
    }
    if (q.search) this.el.appendChild(chip(`Search “${q.search}”`, () => owner.clearSearch(), 'the search'));
    const any = sort.length > 0 || filters.length > 0 || Boolean(q.search);
    if (any) this.el.appendChild(button('Clear All', () => owner.clearAll(), { className: 'link' }));
    this.el.hidden = !any;
  }
}
