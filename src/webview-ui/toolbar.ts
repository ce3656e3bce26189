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
import { fileSwitchLabel, formatCount, SHORT_FORMAT_LABELS } from './format';
import { showMenu, type MenuItem } from './menu';
import { l10n } from '../shared/l10n';

const SEARCH_DELAY_MS = 300;
const TABLE_FORMATS: NumberFormat[] = ['auto', 'raw', 'thousands', 'fixed2', 'compact'];

/** What the toolbar asks of its owner. */
interface ToolbarOwner {
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
  readonly el = el('div', { className: 'toolbar', role: 'toolbar', attrs: { 'aria-label': l10n.t('Table tools') } });
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
      // Choosing a file opens it in its own tab; this table stays on its file.
      const switcher = select(
        meta.files.map((f) => ({ value: f, label: fileSwitchLabel(f) })),
        current,
        (file) => {
          switcher.value = current;
          owner.switchFile(file);
        },
        { className: 'dropdown file-switch', title: l10n.t('Open another file of this result (this one: {0})', current), attrs: { 'aria-label': l10n.t('Open another file of this result') } },
      );
      // Each option's whole name on hover; the label may be shortened in the middle.
      for (const o of Array.from(switcher.options)) o.title = o.value;
      this.el.appendChild(switcher);
    }
    const box = el('input', {
      className: 'input search',
      attrs: { type: 'search', placeholder: l10n.t('Search all cells'), 'aria-label': l10n.t('Search all cells (rows where any cell contains the text)') },
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
    this.columns = button('', () => owner.openChooser(), { className: 'secondary', title: l10n.t('Show, hide and pin columns; presets by timeframe and metric group') });
    this.updateColumns(model);
    const format = select(
      TABLE_FORMATS.map((f) => ({ value: f, label: SHORT_FORMAT_LABELS[f] })),
      model.defaultFormat,
      (v) => {
        model.defaultFormat = v as NumberFormat;
        owner.formatChanged();
      },
      { className: 'dropdown', title: l10n.t('How numbers are shown (copy and export keep the file’s text)'), attrs: { 'aria-label': l10n.t('Number format') } },
    );
    const exportButton = button(l10n.t('Export…'), () => owner.export(), { className: 'secondary', title: l10n.t('Save the rows shown (filtered and sorted) and the shown columns to a CSV file') });
    exportButton.disabled = exporting;
    this.exportButton = exportButton;
    const analyse = button(l10n.t('Analyse'), () => owner.analyse(), { className: 'secondary analyse', title: l10n.t('Profile the current column, chart it (histogram, scatter), brush to filter') });
    this.analyseButton = analyse;
    // One menu for what takes the table elsewhere: room for the search box on a narrow editor.
    const more = button(l10n.t('More ▾'), () => this.openMore(more), {
      className: 'secondary more',
      title: l10n.t('Open in Notebook, Raw File, Save View As…, Apply Saved View…, Compare with…'),
      attrs: { 'aria-haspopup': 'menu', 'aria-label': l10n.t('More: Open in Notebook, Raw File, saved views, Compare with…') },
    });
    more.addEventListener('keydown', (e) => {
      if (e.key === 'ArrowDown') {
        e.preventDefault();
        this.openMore(more);
      }
    });
    const source = meta.endpointTitle ? el('span', { className: 'dim source', text: meta.endpointTitle, title: l10n.t('Result of {0}', meta.endpoint ?? '') }) : undefined;
    // The buttons go together, at the right; when the row is too narrow (a result's file switcher,
    // a narrow editor) they wrap as one group to a second line instead of squeezing the search box.
    const tools = el('div', { className: 'tools' }, [this.columns, format, analyse, exportButton, more]);
    this.el.append(box, this.count, ...(source ? [source] : []), tools);
  }

  /** The More menu under its button; Escape gives the focus back to the button. */
  private openMore(anchor: HTMLButtonElement): void {
    const run = (command: TableCommand) => () => this.owner.tableCommand(command);
    // The commands are those of the editor's title bar and the palette, run on this table.
    const items: MenuItem[] = [
      { label: l10n.t('Open in Notebook'), hint: 'pandas, DuckDB', run: run('openInNotebook') },
      { label: l10n.t('Raw File'), hint: 'as text', run: () => this.owner.openRaw() },
      'separator',
      { label: l10n.t('Save View As…'), run: run('saveView') },
      { label: l10n.t('Apply Saved View…'), run: run('applyView') },
      'separator',
      { label: l10n.t('Compare with…'), hint: 'another result', run: run('compareWith') },
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
    this.columns.textContent = model.shownCount === model.count ? l10n.t('Columns ({0})', formatCount(model.count)) : l10n.t('Columns ({0} of {1})', formatCount(model.shownCount), formatCount(model.count));
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
