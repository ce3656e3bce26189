/**
 * Over an empty grid, when the table has rows but the filters and search leave none: "No rows
 * match", each filter (in its column's unit) and the search that did it, and one button that
 * clears them (the sort stays). A blank grid with no word was what a person saw before.
 */
import { button, el } from './dom';
import { describeFilter, noRowsMatch } from './filterUnits';
import type { PageControl, TableState } from './state';
import { l10n } from '../shared/l10n';

export class NoRowsMatch {
  readonly el = el('div', { className: 'no-rows', role: 'status' });

  constructor(
    private readonly state: TableState,
    private readonly control: PageControl,
  ) {
    this.el.hidden = true;
  }

  render(): void {
    const { state } = this;
    const view = state.view;
    const said = view ? noRowsMatch(view, (f) => describeFilter(f, state.columnName(f.column) ?? String(f.column), state.filterUnit(f.column))) : undefined;
    this.el.textContent = '';
    this.el.hidden = !said;
    if (!said) return;
    this.el.append(
      el('div', { className: 'no-rows-title', text: `${said.title}:` }),
      el('ul', {}, said.causes.map((c) => el('li', { text: c }))),
      button(said.causes.length === 1 ? l10n.t('Clear It') : l10n.t('Clear Filters and Search'), () => this.control.showAll(), { className: 'primary' }),
    );
  }
}
