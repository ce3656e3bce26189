/**
 * What the person does with the cells beyond looking: copy (a cell, a range, the selection),
 * export, the host-side actions on an address (copy, wallet activity, address lists), using a
 * column's addresses as input, and switching files. Each one shows a busy line while it runs and
 * ends in a status message or an error.
 */
import type { Ask, Host, Reply } from './host';
import { formatCount } from './format';
import type { ProgressBar, StatusLine } from './notices';
import type { TableState } from './state';
import type { WindowFeed } from './windowFeed';

/** What the actions tell the page. */
interface ActionsOwner {
  exportingChanged(exporting: boolean): void;
  showError(text: string): void;
}

export class TableActions {
  private exportRunning = false;

  constructor(
    private readonly host: Host,
    private readonly state: TableState,
    private readonly feed: WindowFeed,
    private readonly progress: ProgressBar,
    private readonly status: StatusLine,
    private readonly owner: ActionsOwner,
  ) {}

  /** An export is under way. */
  get exporting(): boolean {
    return this.exportRunning;
  }

  /** Ctrl+C: the selection (or, on a header, its whole column). */
  copySelection(): void {
    const grid = this.state.grid;
    if (!grid) return;
    const rowCount = this.state.rowCount;
    const sel = grid.selection;
    const columns = grid.displayed.slice(sel.cols[0], sel.cols[1] + 1);
    if (grid.active.row < 0) this.copyRange(0, rowCount, columns, true, 'column'); // on a header: its column
    else if (sel.rows[0] === sel.rows[1] && columns.length === 1) this.copyCell(sel.rows[0], columns[0] ?? 0);
    else this.copyRange(sel.rows[0], sel.rows[1] + 1, columns, true, 'selection');
  }

  copyCell(row: number, column: number): void {
    // A cut cell is copied whole, by the engine (the copy request), as a range of one.
    const raw = this.feed.whole(row, column);
    const name = this.state.columnName(column) ?? '';
    if (raw !== undefined) this.act({ type: 'copyText', text: raw, what: `the cell ${name} of row ${formatCount(row + 1)}` });
    else this.copyRange(row, row + 1, [column], false, 'cell');
  }

  copyRange(first: number, last: number, columns: readonly number[], header: boolean, what: string): void {
    this.progress.setBusy(`Copying the ${what}…`);
    const p = this.host.ask({ type: 'copy', first, last, columns, format: 'tsv', header });
    void p.reply.then((r) => this.afterAction(r));
  }

  export(): void {
    if (this.exportRunning) return; // one at a time; the save dialog's Enter must not start another
    const columns = this.state.model?.displayed ?? [];
    this.exportRunning = true;
    this.owner.exportingChanged(true);
    // The focus goes back to the grid, not the button, when the save dialog closes.
    this.state.grid?.scroller.focus({ preventScroll: true });
    this.progress.setBusy('Exporting…');
    const p = this.host.ask({ type: 'export', columns }, (pr) => this.progress.task('Exporting', pr.done, pr.total));
    void p.reply.then((r) => {
      this.exportRunning = false;
      this.owner.exportingChanged(false);
      this.afterAction(r);
    });
  }

  /** The addresses of a column, as the input of a call the person picks next. */
  useAsInput(column: number, name: string): void {
    this.progress.setBusy(`Reading the addresses of ${name}…`);
    const p = this.host.ask({ type: 'useAsInput', column }, (pr) => this.progress.task(`Reading ${name}`, pr.done, pr.total));
    void p.reply.then((r) => this.afterAction(r));
  }

  switchFile(file: string): void {
    this.progress.setBusy('Opening…');
    void this.host.ask({ type: 'switchFile', file }).reply.then((r) => this.afterAction(r));
  }

  /** A request the host carries out (copy text, wallet activity, add to a list). */
  act(request: Ask): void {
    void this.host.ask(request).reply.then((r) => this.afterAction(r));
  }

  private afterAction(r: Reply): void {
    this.progress.setBusy(undefined);
    this.progress.hideTask();
    if (r.type === 'done') {
      if (r.message) this.status.say(r.message);
    } else if (r.type === 'failed') {
      if (r.cancelled) this.status.say(r.message);
      else this.owner.showError(r.message);
    }
  }
}
