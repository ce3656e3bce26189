/**
 * The chips above the grid that say what shapes the rows: the saved view in force first (its name,
 * and Show all while it leaves rows out), the sort keys in order, each filter and the search, each
 * with a ✕ that removes it, and a Clear All. Hidden while nothing applies.
 */
import { button, el } from './dom';
import { describeFilter } from './filterUnits';
import type { PageControl, TableState } from './state';
import { hidesRows } from './tableQuery';
import { l10n } from '../shared/l10n';

export class FilterChips {
  readonly el = el('div', { className: 'chips', attrs: { 'aria-label': l10n.t('Sort and filters') } });

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
      const x = button('✕', remove, { className: 'chip-x', title: l10n.t('Remove: {0}', label), attrs: { 'aria-label': l10n.t('Remove {0}', label) } });
      return el('span', { className: 'chip' }, [el('span', { text }), x]);
    };
    // A saved view never shapes the rows unnamed: its name, and one click to every row.
    const view = state.savedView;
    if (view !== undefined) {
      this.el.appendChild(
        el('span', { className: 'saved-view', text: l10n.t('View: {0}', view), title: l10n.t('The saved view “{0}” is in force: its sort, filters, search and columns. New results of this kind open in it.', view) }),
      );
      if (hidesRows(q)) {
        this.el.appendChild(
          button(l10n.t('Show all'), () => control.showAll(), {
            className: 'link show-all',
            title: l10n.t('Show every row: the view’s filters and search off, its sort kept. New results still open in “{0}” (More ▸ Apply Saved View… ▸ No saved view stops that).', view),
          }),
        );
      }
      this.el.appendChild(el('span', { className: 'dim', text: '·' }));
    }
    const sort = q.sort ?? [];
    if (sort.length > 0) {
      this.el.appendChild(el('span', { className: 'dim', text: l10n.t('Sorted by') }));
      sort.forEach((k, i) => {
        const label = `${name(k.column)} ${k.descending ? '▼' : '▲'}`;
        this.el.appendChild(chip(`${sort.length > 1 ? `${i + 1}. ` : ''}${label}`, () => control.setQuery({ ...state.query(), sort: sort.filter((s) => s !== k) }), `sort by ${name(k.column)}`));
      });
    }
    const filters = q.filters ?? [];
    if (filters.length > 0) {
      this.el.appendChild(el('span', { className: 'dim', text: l10n.t('Filters') }));
      for (const f of filters) {
        const text = describeFilter(f, name(f.column), state.filterUnit(f.column));
        this.el.appendChild(chip(text, () => control.setFilter(f.column, undefined), text));
      }
    }
    if (q.search) this.el.appendChild(chip(`Search “${q.search}”`, () => control.clearSearch(), 'the search'));
    const any = sort.length > 0 || filters.length > 0 || Boolean(q.search);
    if (any) this.el.appendChild(button(l10n.t('Clear All'), () => control.clearAll(), { className: 'link' }));
    this.el.hidden = !any && view === undefined;
  }
}
