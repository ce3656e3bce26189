/**
 * The chips above the grid that say what shapes the rows: the saved view in force first (its name,
 * and Show all while it leaves rows out), the sort keys in order, each filter and the search, each
 * with a ✕ that removes it, and a Clear All. Hidden while nothing applies.
 */
import { button, el } from './dom';
import { describeFilter } from './filterUnits';
import type { PageControl, TableState } from './state';
import { hidesRows } from './tableQuery';

export class FilterChips {
  readonly el = el('div', { className: 'chips', attrs: { 'aria-label': 'Sort and filters' } });

  constructor(
    private readonly state: TableState,
    private readonly control: PageControl,
  ) {
    this.el.hidden = true;
  }

  render(): void {
    const { state, control } = this;
    const q = state.query();
    const name = (c: number): string => state.columnName(c) ?? String(c);
    this.el.textContent = '';
    const chip = (text: string, remove: () => void, label: string): HTMLElement => {
      const x = button('✕', remove, { className: 'chip-x', title: `Remove: ${label}`, attrs: { 'aria-label': `Remove ${label}` } });
      return el('span', { className: 'chip' }, [el('span', { text }), x]);
    };
    // A saved view never shapes the rows unnamed: its name, and one click to every row.
    const view = state.savedView;
    if (view !== undefined) {
      this.el.appendChild(
        el('span', { className: 'saved-view', text: `View: ${view}`, title: `The saved view “${view}” is in force: its sort, filters, search and columns. New results of this kind open in it.` }),
      );
      if (hidesRows(q)) {
        this.el.appendChild(
          button('Show all', () => control.showAll(), {
            className: 'link show-all',
            title: `Show every row: the view’s filters and search off, its sort kept. New results still open in “${view}” (More ▸ Apply Saved View… ▸ No saved view stops that).`,
          }),
        );
      }
      this.el.appendChild(el('span', { className: 'dim', text: '·' }));
    }
    const sort = q.sort ?? [];
    if (sort.length > 0) {
      this.el.appendChild(el('span', { className: 'dim', text: 'Sorted by' }));
      sort.forEach((k, i) => {
        const label = `${name(k.column)} ${k.descending ? '▼' : '▲'}`;
        this.el.appendChild(chip(`${sort.length > 1 ? `${i + 1}. ` : ''}${label}`, () => control.setQuery({ ...state.query(), sort: sort.filter((s) => s !== k) }), `sort by ${name(k.column)}`));
      });
    }
    const filters = q.filters ?? [];
    if (filters.length > 0) {
      this.el.appendChild(el('span', { className: 'dim', text: 'Filters' }));
      for (const f of filters) {
        const text = describeFilter(f, name(f.column), state.filterUnit(f.column));
        this.el.appendChild(chip(text, () => control.setFilter(f.column, undefined), text));
      }
    }
    if (q.search) this.el.appendChild(chip(`Search “${q.search}”`, () => control.clearSearch(), 'the search'));
    const any = sort.length > 0 || filters.length > 0 || Boolean(q.search);
    if (any) this.el.appendChild(button('Clear All', () => control.clearAll(), { className: 'link' }));
    this.el.hidden = !any && view === undefined;
  }
}
