/**
 * The page's state, in one place the page's parts read: what init and meta said, the view in force,
 * the column model and grid once built, and the query being applied. Plus PageControl, the verbs
 * those parts may ask of the page (the App carries them out). No DOM of its own.
 */
import type { ColumnFilter, TableNotice, ViewQuery, ViewState } from '../shared/tableProtocol';
import type { TableMeta } from '../shared/tableUiProtocol';
import type { ColumnModel } from './columns';
import { filterUnit, type FilterUnit } from './filterUnits';
import { effectiveFormat } from './format';
import type { Grid } from './grid';

/** The host's init message, as kept. */
interface Init {
  readonly title: string;
  readonly kind: 'csv' | 'txt' | 'json';
  readonly columns: readonly string[];
  readonly view: ViewState;
  readonly notices: readonly TableNotice[];
}

export class TableState {
  init: Init | undefined;
  meta: TableMeta | undefined;
  /** The view in force (the rows shown), as the host last said. */
  view: ViewState | undefined;
  model: ColumnModel | undefined;
  grid: Grid | undefined;
  /** The saved view the host says is in force (named above the rows, with Show all), if any. */
  savedView: string | undefined;
  /** A query asked for and not yet applied. */
  pendingQuery: { id: number; query: ViewQuery } | undefined;

  get rowCount(): number {
    return this.view?.length ?? 0;
  }

  /** The query in force, or the one being applied. */
  query(): ViewQuery {
    return this.pendingQuery?.query ?? this.view?.query ?? {};
  }

  columnName(column: number): string | undefined {
    return this.model?.info[column]?.name;
  }

  /** The unit a column's filter speaks: the scale its cells are shown in (filterUnits.ts). */
  filterUnit(column: number): FilterUnit {
    const m = this.model;
    return filterUnit(effectiveFormat(m?.info[column], m?.formats.get(column), m?.defaultFormat ?? 'auto'));
  }
}

/** What the page's parts (chips, menus, the grid's host) may ask of the page. */
/** What the analysis panel shows for a column: its profile, a histogram, or a scatter against another. */
export type PanelMode = 'profile' | 'histogram' | 'scatter';

export interface PageControl {
  setQuery(query: ViewQuery): void;
  setFilter(column: number, filter: ColumnFilter | undefined): void;
  /** Ends the search (and empties the search box). */
  clearSearch(): void;
  /** Ends the sort, filters and search. */
  clearAll(): void;
  /** Shows every row: the filters and search off (a saved view's too), the sort kept. */
  showAll(): void;
  /** Columns changed (shown, pinned, widths, formats): redraw and remember. */
  layoutChanged(): void;
  openChooser(): void;
  /** Opens the analysis panel on a column: its profile, its histogram, or a scatter against another column. */
  analyse(column: number, mode: PanelMode): void;
  /** Shows a view row as a wallet card (card.ts) in place of the grid. */
  openCard(row: number): void;
}
