/**
 * What the page tells the person besides the cells: the file's notices (dismissable, some with a
 * "Go to row"), the progress bar (indexing in the background, a task's percentage, or an
 * indeterminate "busy" line while a query or action runs) and the status line (active cell and
 * the last message or error). Text goes in with textContent only.
 */
import type { TableNotice } from '../shared/tableProtocol';
import { button, el } from './dom';
import { formatCount } from './format';
import { l10n } from '../shared/l10n';

/** The notices a file's reading found, above the grid. */
export class NoticeList {
  readonly el = el('div', { className: 'notices' });
  private notices: readonly TableNotice[] = [];
  private dismissed = new Set<string>();

  /** `goToRow` gets the file's row number (1-based) of a notice's "Go to row" button. */
  constructor(private readonly goToRow: (row: number) => void) {}

  /** Keeps the notices; they show at the next render. */
  set(notices: readonly TableNotice[]): void {
    this.notices = notices;
  }

  /** A new page: every notice shows again. */
  resetDismissed(): void {
    this.dismissed = new Set();
  }

  render(): void {
    this.el.textContent = '';
    for (const n of this.notices) {
      const key = `${n.code}:${n.message}`;
      if (this.dismissed.has(key)) continue;
      // Plain Latin letters in a circle drawn by the stylesheet: 'ⓘ' and '⛔' are missing from many
      // fonts (the e2e tier's headless Chromium drew an empty box beside "The file has a header…").
      const icon = n.severity === 'error' ? '×' : n.severity === 'warning' ? '!' : 'i';
      const parts: Node[] = [el('span', { className: 'notice-icon', text: icon, attrs: { 'aria-hidden': 'true' } }), el('span', { className: 'notice-text', text: n.message })];
      const row = n.row;
      if (row !== undefined && row > 0) parts.push(button(l10n.t('Go to row {0}', formatCount(row)), () => this.goToRow(row), { className: 'link' }));
      parts.push(
        button('✕', () => {
          this.dismissed.add(key);
          this.render();
        }, { className: 'chip-x', title: l10n.t('Dismiss'), attrs: { 'aria-label': l10n.t('Dismiss this notice') } }),
      );
      this.el.appendChild(el('div', { className: `notice ${n.severity}`, role: n.severity === 'info' ? 'note' : 'alert' }, parts));
    }
  }

  /** The texts of the notices shown (for the test probe). */
  texts(): string[] {
    return [...this.el.querySelectorAll('.notice-text')].map((n) => n.textContent ?? '');
  }
}

/**
 * The progress bar. A busy label (a query or action under way) wins over a task's percentage,
 * which wins over the background indexing; when one ends, the next one down shows again.
 */
export class ProgressBar {
  private readonly bar = el('div', { className: 'progress-bar' });
  private readonly label = el('span', { className: 'progress-label' });
  readonly el = el('div', { className: 'progress', role: 'progressbar', attrs: { 'aria-label': l10n.t('Progress'), 'aria-valuemin': '0', 'aria-valuemax': '100' } }, [this.bar, this.label]);
  private indexing: { pct: number; label: string } | undefined;
  private busy: string | undefined;

  constructor() {
    this.el.hidden = true;
  }

  /** Indexing in the background: `done` of `total` bytes read, `rows` rows found so far. */
  index(done: number, total: number, rows: number): void {
    if (total > 0 && done >= total) {
      this.indexing = undefined;
      this.hideTask();
      return;
    }
    const pct = total > 0 ? Math.floor((100 * done) / total) : 0;
    this.indexing = { pct, label: l10n.t('Indexing rows… {0}% · {1} rows so far (sorting and filtering wait for it)', pct, formatCount(rows)) };
    if (!this.busy) this.show(this.indexing.pct, this.indexing.label);
  }

  /** A task's progress (a search, an export…). */
  task(label: string, done: number, total: number): void {
    const pct = total > 0 ? Math.min(100, Math.floor((100 * done) / total)) : 0;
    this.show(pct, `${label}… ${pct}%`);
  }

  /** A task ended: back to the busy line, the indexing, or nothing. */
  hideTask(): void {
    if (this.busy) return;
    if (this.indexing) this.show(this.indexing.pct, this.indexing.label);
    else this.el.hidden = true;
  }

  /** An indeterminate bar with this label, or (undefined) the end of it. */
  setBusy(label: string | undefined): void {
    this.busy = label;
    if (label) {
      this.el.hidden = false;
      this.el.classList.add('indeterminate');
      this.el.removeAttribute('aria-valuenow');
      this.bar.style.width = '';
      this.label.textContent = label;
    } else this.hideTask();
  }

  private show(pct: number, label: string): void {
    this.el.hidden = false;
    this.el.classList.remove('indeterminate');
    this.el.setAttribute('aria-valuenow', String(pct));
    this.bar.style.width = `${pct}%`;
    this.label.textContent = label;
  }
}

/** The line under the grid: where the active cell is, and the last message or error. */
export class StatusLine {
  private readonly pos = el('span', { className: 'status-pos' });
  private readonly msg = el('span', { className: 'status-msg', role: 'status', attrs: { 'aria-live': 'polite' } });
  readonly el = el('div', { className: 'status' }, [this.pos, this.msg]);

  position(text: string): void {
    this.pos.textContent = text;
  }

  /** Shows `text`, which the live region says; `aside` (a timing) shows after it and is not said. */
  say(text: string, aside?: string): void {
    this.msg.classList.remove('error');
    this.msg.textContent = text;
    this.msg.title = aside ? `${text} ${aside}` : text;
    if (aside) this.msg.append(el('span', { className: 'status-aside', text: ` ${aside}`, attrs: { 'aria-hidden': 'true' } }));
  }

  error(text: string): void {
    this.msg.classList.add('error');
    this.msg.textContent = text;
    this.msg.title = text;
  }
}
