/**
 * A wallet on one card (issue 23 item 4): one row of wallet metrics as the catalog's groups
 * (core/table/walletCard.ts), a metric per line and the timeframes as columns, PnL and ROI signed and
 * coloured, the row's other columns above. A view of the table page in place of the grid: the
 * table is one click (or Escape) away. Every value is written with textContent.
 */
import { TIMEFRAME_LABEL, type Timeframe } from '../core/spec/metrics';
import { walletCard } from '../core/table/walletCard';
import type { ColumnInfo } from '../shared/tableUiProtocol';
import { button, el } from './dom';
import { formatCount, metricCell, signedCell, timeCell, type ShownCell } from './format';
import { l10n } from '../shared/l10n';

/** What the card asks of the page. */
interface CardOwner {
  showTable(): void;
  openExplorer(address: string, chain: 'main' | 'alt'): void;
  copyAddress(address: string): void;
}

const GROUP_TITLES: Readonly<Record<string, string>> = { pnl: 'Profit and loss', roi: 'Return', winrate: 'Win rate', behaviour: 'Behaviour' };
const groupTitle = (g: string): string => GROUP_TITLES[g] ?? g.charAt(0).toUpperCase() + g.slice(1);
const TF_HEAD: Record<Timeframe, string> = { '1d': '1 day', '7d': '7 days', '30d': '30 days', all: 'All time' };

function cellEl(tag: 'td' | 'dd', shown: ShownCell, colors: boolean, className = ''): HTMLElement {
  const tone = colors && shown.tone ? ` ${shown.tone}` : '';
  return el(tag, { className: `${className}${tone}`.trim(), text: shown.text, ...(shown.title ? { title: shown.title } : {}) });
}

export class CardView {
  readonly el = el('section', { className: 'card', role: 'region', attrs: { 'aria-label': l10n.t('Wallet card'), tabindex: '-1' } });
  /** The view row shown, or undefined while the table shows. */
  row: number | undefined;

  constructor(private readonly owner: CardOwner) {
    this.el.hidden = true;
    this.el.addEventListener('keydown', (e) => {
      if (e.key !== 'Escape') return;
      e.preventDefault();
      e.stopPropagation();
      this.owner.showTable();
    });
  }

  get open(): boolean {
    return !this.el.hidden;
  }

  /** Shows "Reading row n…" until the row's cells come. */
  loading(row: number): void {
    this.row = row;
    this.el.hidden = false;
    this.el.textContent = '';
    this.el.append(this.bar(row, undefined), el('div', { className: 'placeholder', text: l10n.t('Reading row {0}…', formatCount(row + 1)) }));
  }

  /** The card of view row `row`: its cells (`values[c]` for column c) under the columns' information. */
  show(row: number, rowCount: number, info: readonly ColumnInfo[], values: readonly string[], colors: boolean): void {
    this.row = row;
    const card = walletCard(
      info.map((c) => c.name),
      values,
    );
    const addressField = card.fields.find((f) => info[f.column]?.address !== undefined && f.value.trim() !== '');
    const address = addressField ? { text: addressField.value.trim(), chain: info[addressField.column]?.address ?? 'main' } : undefined;
    this.el.hidden = false;
    this.el.textContent = '';
    this.el.appendChild(this.bar(row, address, rowCount));

    const fields = card.fields.filter((f) => f !== addressField);
    if (fields.length > 0) {
      const dl = el('dl', { className: 'card-fields' });
      for (const f of fields) {
        const c = info[f.column];
        const shown = c?.date ? timeCell(f.value) : c?.signed ? signedCell(f.value, f.value) : { text: f.value === '' ? '—' : f.value };
        dl.append(el('dt', { text: f.name }), cellEl('dd', shown, colors));
      }
      this.el.appendChild(dl);
    }
    for (const g of card.groups) {
      const table = el('table', { className: 'card-table' });
      table.appendChild(el('caption', { text: groupTitle(g.group) }));
      const head = el('tr', {}, [el('th', { text: l10n.t('Metric'), attrs: { scope: 'col' } })]);
      for (const tf of card.timeframes) head.appendChild(el('th', { className: 'num', text: TF_HEAD[tf], title: TIMEFRAME_LABEL[tf], attrs: { scope: 'col' } }));
      table.appendChild(el('thead', {}, [head]));
      const body = el('tbody');
      for (const m of g.metrics) {
        const tr = el('tr', {}, [el('th', { text: m.metric.name, title: m.metric.description, attrs: { scope: 'row' } })]);
        for (const tf of card.timeframes) tr.appendChild(cellEl('td', metricCell(m.values[tf], m.metric.kind, m.signed), colors, 'num'));
        body.appendChild(tr);
      }
      table.appendChild(body);
      this.el.appendChild(table);
    }
    if (card.groups.length === 0) this.el.appendChild(el('div', { className: 'placeholder', text: l10n.t('This row has no wallet metric columns.') }));
  }

  hide(): void {
    this.row = undefined;
    this.el.hidden = true;
    this.el.textContent = '';
  }

  private bar(row: number, address: { text: string; chain: 'main' | 'alt' } | undefined, rowCount?: number): HTMLElement {
    const where = rowCount === undefined || rowCount === 1 ? 'Wallet' : `Wallet · row ${formatCount(row + 1)} of ${formatCount(rowCount)}`;
    const bar = el('div', { className: 'card-bar' }, [el('h2', { className: 'card-title', text: where })]);
    if (address) bar.appendChild(el('span', { className: 'card-address', text: address.text, title: l10n.t('{0}-chain address', address.chain === 'alt' ? 'Alt' : 'Main') }));
    bar.appendChild(el('span', { className: 'spacer' }));
    if (address) {
      bar.appendChild(button(l10n.t('Open in Explorer'), () => this.owner.openExplorer(address.text, address.chain), { className: 'secondary', title: l10n.t('Open this address on the chain’s block explorer (walletAnalytics.explorer settings)') }));
      bar.appendChild(button(l10n.t('Copy Address'), () => this.owner.copyAddress(address.text), { className: 'secondary' }));
    }
    bar.appendChild(button(l10n.t('Show Table'), () => this.owner.showTable(), { className: 'primary', title: l10n.t('Back to the table (Escape)') }));
    return bar;
  }
}
