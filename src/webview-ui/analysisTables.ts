/**
 * The analysis panel's figures as HTML tables (issue 15: every chart has a table equivalent): a
 * profile's statistics and top values, a histogram's bins, and a scatter's x ranges with the y
 * extent of each, whose counts are buttons that show the range's rows in the table. Apart from the
 * panel (analysisPanel.ts) and its chart (analysisChart.ts) because it only turns figures into
 * elements: the rows' text comes from chartTables.ts, which node tests check without a DOM.
 */
import type { ColumnProfile } from '../shared/analysisProtocol';
import type { ColumnFilter } from '../shared/tableProtocol';
import { histogramRows, profileRows, scatterBinFilters, scatterRows } from './chartTables';
import type { ChartSpec } from './charts';
import { button, el } from './dom';
import { formatCount } from './format';
import { l10n } from '../shared/l10n';

/** A profile's statistics as a definition list, then its top values as a table (when it has any). */
export function profileStats(p: ColumnProfile): HTMLElement[] {
  const dl = el('dl', { className: 'profile-stats' });
  for (const [k, v] of profileRows(p)) dl.append(el('dt', { text: k }), el('dd', { text: v }));
  if (p.top.length === 0) return [dl];
  const table = el('table', { className: 'analysis-grid', attrs: { 'aria-label': l10n.t('Top {0} values of {1}', p.top.length, p.name) } });
  table.appendChild(el('caption', { text: l10n.t('Top {0} values', p.top.length) }));
  table.appendChild(el('thead', {}, [el('tr', {}, [el('th', { text: l10n.t('Value'), attrs: { scope: 'col' } }), el('th', { text: l10n.t('Rows'), attrs: { scope: 'col' } })])]));
  const tbody = el('tbody');
  for (const t of p.top) tbody.appendChild(el('tr', {}, [el('td', { className: 'value', text: t.value, title: t.value }), el('td', { className: 'num', text: formatCount(t.count) })]));
  table.appendChild(tbody);
  return [dl, table];
}

/**
 * A chart as a table. A scatter's range with points has its count as a button: `showBin` filters
 * the table to the range's points (a filter on x and y, as a brush of that range would be).
 */
export function chartTable(spec: ChartSpec | undefined, showBin: (filters: ColumnFilter[], points: number) => void): HTMLElement {
  const table = el('table', { className: 'analysis-grid' });
  const head = (names: string[]): HTMLElement => el('thead', {}, [el('tr', {}, names.map((n) => el('th', { text: n, attrs: { scope: 'col' } })))]);
  const tbody = el('tbody');
  if (spec?.kind === 'histogram') {
    table.setAttribute('aria-label', l10n.t('Histogram of {0} as a table', spec.xName));
    table.append(el('caption', { text: l10n.t('{0}: rows per bin', spec.xName) }), head(['From', 'To', 'Rows']));
    for (const r of histogramRows(spec.histogram)) tbody.appendChild(el('tr', {}, [el('td', { className: 'num', text: r.from }), el('td', { className: 'num', text: r.to }), el('td', { className: 'num', text: formatCount(r.count) })]));
  } else if (spec?.kind === 'scatter') {
    table.setAttribute('aria-label', l10n.t('Scatter of {0} against {1} as a table', spec.yName, spec.xName));
    table.append(
      el('caption', { text: l10n.t('x: {0} in 10 ranges; y: {1} of the points in each. A count shows its rows in the table.', spec.xName, spec.yName) }),
      head(['x from', 'x to', 'Points', 'y min', 'y median', 'y max']),
    );
    const { x, y } = spec.scatter;
    for (const [i, r] of scatterRows(spec.scatter.xs, spec.scatter.ys, spec.xScale, spec.yScale, 10).entries()) {
      const count = el('td', { className: 'num' });
      if (r.points > 0) {
        // The count is the way to the range's points; the panel stays narrow.
        const show = button(formatCount(r.points), () => showBin(scatterBinFilters(r, x, y), r.points), {
          className: 'link show-rows',
          title: l10n.t('Show these {0} rows in the table', formatCount(r.points)),
          attrs: { 'aria-label': l10n.t('{0}: show these rows, {1} {2} to {3}', formatCount(r.points), spec.xName, r.from, r.to), 'data-key': `bin-${i}` },
        });
        count.appendChild(show);
      } else count.textContent = '0';
      const text = (t: string): HTMLElement => el('td', { className: 'num', text: t });
      tbody.appendChild(el('tr', {}, [text(r.from), text(r.to), count, text(r.yMin), text(r.yMedian), text(r.yMax)]));
    }
  }
  table.appendChild(tbody);
  return table;
}
