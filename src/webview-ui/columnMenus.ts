/**
 * The context menus of the grid: a cell's (copy the cell, the selection, its row or column; the
 * address actions when the column holds addresses) and a column header's (sort, filter, pin, hide,
 * number format, copy, and the analysis panel: profile, histogram, scatter), with the column items both share. The menus only offer; what an item does
 * goes through PageControl (the query, the columns) and TableActions (copy and the host's actions).
 */
import type { NumberFormat } from '../shared/tableUiProtocol';
import type { TableActions } from './actions';
import { showFilterEditor } from './filterEditor';
import { isWalletRow } from '../core/table/walletCard';
import { FORMAT_LABELS, formatCount } from './format';
import { showMenu, type MenuItem } from './menu';
import type { PageControl, TableState } from './state';
import type { WindowFeed } from './windowFeed';
import { l10n } from '../shared/l10n';

const MENU_FORMATS: NumberFormat[] = ['auto', 'raw', 'thousands', 'fixed2', 'compact', 'percent'];

export class ColumnMenus {
  constructor(
    private readonly state: TableState,
    private readonly feed: WindowFeed,
    private readonly control: PageControl,
    private readonly actions: TableActions,
  ) {}

  /** The actions of a cell (view row, source column), at (x, y). */
  cell(row: number, column: number, x: number, y: number): void {
    const grid = this.state.grid;
    const model = this.state.model;
    if (!grid || !model) return;
    const actions = this.actions;
    const info = model.info[column];
    const raw = this.feed.whole(row, column); // a cut cell is no address to act on
    const sel = grid.selection;
    const cells = (sel.rows[1] - sel.rows[0] + 1) * (sel.cols[1] - sel.cols[0] + 1);
    const items: MenuItem[] = [
      { label: l10n.t('Copy Cell'), hint: cells === 1 ? 'Ctrl+C' : '', run: () => actions.copyCell(row, column) },
      ...(cells > 1 ? [{ label: l10n.t('Copy Selection with Headers ({0} cells)', formatCount(cells)), hint: 'Ctrl+C', run: () => actions.copySelection() }] : []),
      { label: l10n.t('Copy Row with Headers'), run: () => actions.copyRange(row, row + 1, model.displayed, true, 'row') },
      { label: l10n.t('Copy Column with Header'), run: () => actions.copyRange(0, this.state.rowCount, [column], true, 'column') },
    ];
    if (info?.address && raw && raw.trim() !== '') {
      const address = raw.trim();
      const chain = info.address;
      items.push(
        'separator',
        { label: l10n.t('Copy Address'), run: () => actions.act({ type: 'copyText', text: address, what: `address ${address}` }) },
        { label: l10n.t('Open Wallet Activity…'), hint: 'price first', run: () => actions.act({ type: 'walletActivity', address, chain }) },
        { label: l10n.t('Open in Explorer'), run: () => actions.act({ type: 'openExplorer', address, chain }) },
        { label: l10n.t('Add to an Address List…'), run: () => actions.act({ type: 'addToList', addresses: [address] }) },
      );
    }
    if (isWalletRow(model.info.map((c) => c.name))) items.push('separator', { label: l10n.t('Open Row as Wallet Card'), hint: 'Alt+Enter', run: () => this.control.openCard(row) });
    items.push('separator', ...this.columnItems(column, x, y));
    showMenu(items, x, y, `Actions for ${info?.name ?? 'cell'} in row ${formatCount(row + 1)}`, grid.scroller);
  }

  /** The actions of a column header (source column), at (x, y). */
  header(column: number, x: number, y: number): void {
    const { state, control } = this;
    const grid = state.grid;
    const model = state.model;
    if (!grid || !model) return;
    const keys = state.query().sort ?? [];
    const key = keys.find((k) => k.column === column);
    const name = model.info[column]?.name ?? '';
    const items: MenuItem[] = [
      { label: l10n.t('Sort Ascending'), checked: key !== undefined && !key.descending && keys.length === 1, run: () => control.setQuery({ ...state.query(), sort: [{ column }] }) },
      { label: l10n.t('Sort Descending'), checked: key?.descending === true && keys.length === 1, run: () => control.setQuery({ ...state.query(), sort: [{ column, descending: true }] }) },
    ];
    if (keys.length > 0 && !key) items.push({ label: l10n.t('Add to Sort (then by this)'), hint: 'Shift+click', run: () => control.setQuery({ ...state.query(), sort: [...keys, { column }] }) });
    if (key) items.push({ label: l10n.t('Remove from Sort'), run: () => control.setQuery({ ...state.query(), sort: keys.filter((k) => k.column !== column) }) });
    items.push('separator', ...this.columnItems(column, x, y, true));
    const numeric = model.info[column]?.numeric ?? false;
    items.push(
      'separator',
      { label: l10n.t('Profile Column'), run: () => control.analyse(column, 'profile') },
      { label: l10n.t('Histogram'), disabled: !numeric, run: () => control.analyse(column, 'histogram') },
      { label: l10n.t('Scatter Against…'), disabled: !numeric, run: () => control.analyse(column, 'scatter') },
    );
    const own = model.formats.get(column) ?? 'auto';
    // Number formats only where the column holds numbers (an address or text column has none to format).
    items.push(
      ...(numeric ? ['separator' as const] : []),
      ...(numeric ? MENU_FORMATS : []).map((f) => ({
        label: l10n.t('Format: {0}', FORMAT_LABELS[f]),
        checked: own === f,
        run: () => {
          if (f === 'auto') model.formats.delete(column);
          else model.formats.set(column, f);
          control.layoutChanged();
        },
      })),
      'separator',
      { label: l10n.t('Copy Column with Header'), run: () => this.actions.copyRange(0, state.rowCount, [column], true, 'column') },
    );
    showMenu(items, x, y, `Actions for column ${name}`, grid.scroller);
  }

  /** Filter, sort (cells only), pin, hide, choose; and for an address column, use as input. */
  private columnItems(column: number, x: number, y: number, header = false): MenuItem[] {
    const { state, control } = this;
    const model = state.model;
    const grid = state.grid;
    if (!model || !grid) return [];
    const info = model.info[column];
    const filter = (state.query().filters ?? []).find((f) => f.column === column);
    const items: MenuItem[] = [
      {
        label: filter ? l10n.t('Edit Filter…') : l10n.t('Filter…'),
        run: () =>
          showFilterEditor({
            column,
            name: info?.name ?? '',
            numeric: info?.numeric ?? false,
            unit: state.filterUnit(column),
            current: filter,
            x,
            y,
            returnFocus: grid.scroller,
            apply: (f) => control.setFilter(column, f),
          }),
      },
    ];
    if (filter) items.push({ label: l10n.t('Remove Filter'), run: () => control.setFilter(column, undefined) });
    if (!header) {
      items.push(
        { label: l10n.t('Sort Ascending'), run: () => control.setQuery({ ...state.query(), sort: [{ column }] }) },
        { label: l10n.t('Sort Descending'), run: () => control.setQuery({ ...state.query(), sort: [{ column, descending: true }] }) },
      );
    }
    items.push(
      {
        label: model.isPinned(column) ? l10n.t('Unpin Column') : l10n.t('Pin Column'),
        run: () => {
          model.togglePin(column);
          control.layoutChanged();
        },
      },
      {
        label: l10n.t('Hide Column'),
        disabled: model.shownCount <= 1,
        run: () => {
          model.setHidden(column, true);
          control.layoutChanged();
        },
      },
      { label: l10n.t('Choose Columns…'), run: () => control.openChooser() },
    );
    if (info?.address) {
      const n = state.rowCount;
      items.push('separator', {
        label: l10n.t('Use These {0} Addresses as Input to…', formatCount(n)),
        hint: 'price first',
        disabled: n === 0,
        run: () => this.actions.useAsInput(column, info.name),
      });
    }
    return items;
  }
}
