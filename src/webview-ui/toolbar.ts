/**
 * The toolbar above the table: the file switcher (a result of several files), the search box
 * (applied after a pause in typing, or at once on Enter), the row count, the result's endpoint, and
 * the Columns, number format, Analyse (the analysis panel) and Export… controls, and the More menu
 * (Open in Notebook, Raw File, Save View As…, Apply Saved View…, Compare with…: the extension's
 * commands on this table). It holds its controls and tells its owner what the person asked for.
 */
import type { NumberFormat, TableCommand, TableMeta } from '../shared/tableUiProtocol';
import type { ColumnModel } from './columns';
import { button, el, select } from './dom';
import { formatCount, SHORT_FORMAT_LABELS } from './format';
import { showMenu, type MenuItem } from './menu';

const SEARCH_DELAY_MS = 300;
const TABLE_FORMATS: NumberFormat[] = ['auto', 'raw', 'thousands', 'fixed2', 'compact'];

/** What the toolbar asks of its owner. */
export interface ToolbarOwner {
  /** Search every cell for this text ('' ends the search). */
  search(text: string): void;
  focusGrid(): void;
  switchFile(file: string): void;
  openChooser(): void;
  /** The default number format changed (the model holds it). */
  formatChanged(): void;
  export(): void;
  openRaw(): void;
  /** Opens or closes the analysis panel (on the grid's current column). */
  analyse(): void;
  /** Runs an extension command on this table (the More menu). */
  tableCommand(command: TableCommand): void;
}

export class Toolbar {
  readonly el = el('div', { className: 'toolbar', role: 'toolbar', attrs: { 'aria-label': 'Table tools' } });
  // Not a live region: it changes as a large file is indexed; the status line says the count once a query is applied.
  private readonly count = el('span', { className: 'count' });
  private searchBox: HTMLInputElement | undefined;
  private columns: HTMLButtonElement | undefined;
  private exportButton: HTMLButtonElement | undefined;
  /** The Analyse button (the panel's focus goes back to it when opened from there). */
  analyseButton: HTMLButtonElement | undefined;
  private searchTimer = 0;

  constructor(private readonly owner: ToolbarOwner) {}

  /** (Re)builds the controls for a file; `search` is the search in force, `exporting` whether an export runs. */
  build(meta: TableMeta, model: ColumnModel, search: string, exporting: boolean): void {
    const owner = this.owner;
    this.el.textContent = '';
    if (meta.files.length > 1) {
      const current = meta.files.find((f) => f === meta.file || f.endsWith(`/${meta.file}`)) ?? meta.file;
      this.el.appendChild(
        select(
          meta.files.map((f) => ({ value: f, label: f })),
          current,
          (file) => owner.switchFile(file),
          { className: 'dropdown file-switch', title: 'Files of this result', attrs: { 'aria-label': 'File of this result' } },
        ),
      );
    }
    const box = el('input', {
      className: 'input search',
      attrs: { type: 'search', placeholder: 'Search all cells', 'aria-label': 'Search all cells (rows where any cell contains the text)' },
    });
    box.value = search;
    box.addEventListener('input', () => {
      clearTimeout(this.searchTimer);
      this.searchTimer = window.setTimeout(() => owner.search(box.value), SEARCH_DELAY_MS);
    });
    box.addEventListener('keydown', (e) => {
      if (e.key === 'Enter') {
        clearTimeout(this.searchTimer);
        owner.search(box.value);
      } else if (e.key === 'Escape' && box.value !== '') {
        box.value = '';
        owner.search('');
      } else if (e.key === 'ArrowDown') owner.focusGrid();
    });
    this.searchBox = box;
    this.columns = button('', () => owner.openChooser(), { className: 'secondary', title: 'Show, hide and pin columns; presets by timeframe and metric group' });
    this.updateColumns(model);
    const format = select(
      TABLE_FORMATS.map((f) => ({ value: f, label: SHORT_FORMAT_LABELS[f] })),
      model.defaultFormat,
      (v) => {
        model.defaultFormat = v as NumberFormat;
        owner.formatChanged();
      },
      { className: 'dropdown', title: 'How numbers are shown (copy and export keep the file’s text)', attrs: { 'aria-label': 'Number format' } },
    );
    const exportButton = button('Export…', () => owner.export(), { className: 'secondary', title: 'Save the rows shown (filtered and sorted) and the shown columns to a CSV file' });
    exportButton.disabled = exporting;
    this.exportButton = exportButton;
    const analyse = button('Analyse', () => owner.analyse(), { className: 'secondary analyse', title: 'Profile the current column, chart it (histogram, scatter), brush to filter' });
    this.analyseButton = analyse;
    // One menu for what takes the table elsewhere: room for the search box on a narrow editor.
    const more = button('More ▾', () => this.openMore(more), {
      className: 'secondary more',
      title: 'Open in Notebook, Raw File, Save View As…, Apply Saved View…, Compare with…',
      attrs: { 'aria-haspopup': 'menu', 'aria-label': 'More: Open in Notebook, Raw File, saved views, Compare with…' },
    });
    more.addEventListener('keydown', (e) => {
      if (e.key === 'ArrowDown') {
        e.preventDefault();
        this.openMore(more);
      }
    });
    const source = meta.endpointTitle ? el('span', { className: 'dim source', text: meta.endpointTitle, title: `Result of ${meta.endpoint ?? ''}` }) : undefined;
    this.el.append(box, this.count, ...(source ? [source] : []), el('span', { className: 'spacer' }), this.columns, format, analyse, exportButton, more);
  }

  /** The More menu under its button; Escape gives the focus back to the button. */
  private openMore(anchor: HTMLButtonElement): void {
    const run = (command: TableCommand) => () => this.owner.tableCommand(command);
    // The commands are those of the editor's title bar and the palette, run on this table.
    const items: MenuItem[] = [
      { label: 'Open in Notebook', hint: 'pandas, DuckDB', run: run('openInNotebook') },
      { label: 'Raw File', hint: 'as text', run: () => this.owner.openRaw() },
      'separator',
      { label: 'Save View As…', run: run('saveView') },
      { label: 'Apply Saved View…', run: run('applyView') },
      'separator',
      { label: 'Compare with…', hint: 'another result', run: run('compareWith') },
    ];
    const r = anchor.getBoundingClientRect();
    showMenu(items, r.left, r.bottom + 2, 'More', anchor);
  }

  /** The Columns button, once built (the chooser's focus goes back to it without a grid). */
  get columnsButton(): HTMLButtonElement | undefined {
    return this.columns;
  }

  /** Says how many columns show. */
  updateColumns(model: ColumnModel): void {
    if (!this.columns) return;
    this.columns.textContent = model.shownCount === model.count ? `Columns (${formatCount(model.count)})` : `Columns (${formatCount(model.shownCount)} of ${formatCount(model.count)})`;
  }

  /** Shows the search in force, unless the person is typing in the box. */
  showSearch(text: string): void {
    if (this.searchBox && document.activeElement !== this.searchBox) this.searchBox.value = text;
  }

  clearSearch(): void {
    if (this.searchBox) this.searchBox.value = '';
  }

  setExporting(on: boolean): void {
    if (this.exportButton) this.exportButton.disabled = on;
  }

  get countLabel(): string {
    return this.count.textContent ?? '';
  }

  set countLabel(text: string) {
    this.count.textContent = text;
  }
}
