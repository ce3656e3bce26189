/**
 * The column chooser: show or hide each of up to hundreds of columns, search among their names,
 * presets by timeframe (1d / 7d / 30d / all) and by metric group, pin and unpin. Every change
 * applies at once and is remembered per endpoint by the app.
 */
import type { ColumnModel } from './columns';
import { button, el } from './dom';
import { formatCount } from './format';
import { closeMenu } from './menu';
import { l10n } from '../shared/l10n';

export interface ChooserOptions {
  readonly model: ColumnModel;
  readonly timeframes: readonly string[];
  readonly groups: readonly string[];
  readonly returnFocus: HTMLElement;
  /** Something changed: redraw and remember. */
  changed(): void;
}

const TF_LABEL: Record<string, string> = { '1d': '1 day', '7d': '7 days', '30d': '30 days', all: 'All time' };

export function showColumnChooser(o: ChooserOptions): void {
  closeMenu();
  const { model } = o;
  const hasMetrics = model.info.some((c) => c.metric);
  const backdrop = el('div', { className: 'backdrop' });
  const dialog = el('div', { className: 'dialog chooser', role: 'dialog', attrs: { 'aria-modal': 'true', 'aria-labelledby': 'chooser-title' } });
  const title = el('div', { className: 'dialog-title', attrs: { id: 'chooser-title' }, text: l10n.t('Columns') });
  const count = el('span', { className: 'dim', attrs: { 'aria-live': 'polite' } });
  dialog.appendChild(el('div', { className: 'dialog-head' }, [title, count]));

  const search = el('input', { className: 'input wide', attrs: { type: 'search', placeholder: l10n.t('Search {0} columns', formatCount(model.count)), 'aria-label': l10n.t('Search columns') } });
  dialog.appendChild(search);

  let timeframe: string | undefined;
  const groups = new Set<string>();
  const presetButtons: { b: HTMLButtonElement; pressed: () => boolean }[] = [];
  const toggle = (label: string, pressed: () => boolean, onClick: () => void, hint?: string): HTMLButtonElement => {
    const b = button(label, () => {
      onClick();
      model.applyPreset({ timeframes: timeframe ? [timeframe] : [], groups: [...groups] });
      refresh();
    }, { className: 'chip', title: hint });
    presetButtons.push({ b, pressed });
    return b;
  };
  if (hasMetrics) {
    const tfRow = el('div', { className: 'preset-row', role: 'group', attrs: { 'aria-label': l10n.t('Timeframe preset') } }, [el('span', { className: 'preset-label', text: l10n.t('Timeframe') })]);
    tfRow.appendChild(toggle('Any', () => timeframe === undefined, () => (timeframe = undefined), 'Metrics of every timeframe'));
    for (const tf of o.timeframes) tfRow.appendChild(toggle(tf, () => timeframe === tf, () => (timeframe = tf), `Only the metrics over ${TF_LABEL[tf] ?? tf}`));
    const groupRow = el('div', { className: 'preset-row', role: 'group', attrs: { 'aria-label': l10n.t('Metric group preset') } }, [el('span', { className: 'preset-label', text: l10n.t('Metric group') })]);
    groupRow.appendChild(toggle('Any', () => groups.size === 0, () => groups.clear(), 'Every metric group'));
    for (const g of o.groups) {
      if (!model.info.some((c) => c.group === g)) continue;
      groupRow.appendChild(toggle(g, () => groups.has(g), () => (groups.has(g) ? groups.delete(g) : groups.add(g)), `Toggle the ${g} metrics`));
    }
    dialog.append(tfRow, groupRow);
  }
  dialog.appendChild(
    el('div', { className: 'preset-row' }, [
      button(l10n.t('Show all'), () => {
        timeframe = undefined;
        groups.clear();
        model.showAll();
        refresh();
      }, { className: 'secondary' }),
      ...(hasMetrics
        ? [
            button(l10n.t('Hide all metrics'), () => {
              model.hideMetrics();
              refresh();
            }, { className: 'secondary' }),
          ]
        : []),
    ]),
  );

  const list = el('div', { className: 'chooser-list', role: 'group', attrs: { 'aria-label': l10n.t('Columns') } });
  dialog.appendChild(list);
  const done = button(l10n.t('Done'), () => close(), { className: 'primary' });
  dialog.appendChild(el('div', { className: 'buttons' }, [done]));

  const renderList = (): void => {
    const q = search.value.trim().toLowerCase();
    list.textContent = '';
    let shown = 0;
    model.info.forEach((col, c) => {
      const meta = [col.group, col.timeframe, col.kind].filter(Boolean).join(' · ');
      if (q && !col.name.toLowerCase().includes(q) && !meta.toLowerCase().includes(q) && !(col.description ?? '').toLowerCase().includes(q)) return;
      shown++;
      const box = el('input', { attrs: { type: 'checkbox' } });
      box.checked = !model.hidden.has(c);
      box.addEventListener('change', () => {
        model.setHidden(c, !box.checked);
        refresh(false);
      });
      const pinned = model.isPinned(c);
      const pin = button(pinned ? l10n.t('Unpin') : l10n.t('Pin'), () => {
        model.togglePin(c);
        refresh();
      }, { className: `pin-toggle${pinned ? ' on' : ''}`, title: pinned ? l10n.t('Unpin {0}', col.name) : l10n.t('Pin {0} to the left', col.name) });
      pin.setAttribute('aria-pressed', String(pinned));
      const label = el('label', { className: 'chooser-name', title: col.description ?? col.name }, [box, el('span', { text: col.name }), el('span', { className: 'dim', text: meta })]);
      list.appendChild(el('div', { className: 'chooser-row' }, [label, pin]));
    });
    if (shown === 0) list.appendChild(el('div', { className: 'dim empty', text: l10n.t('No column matches “{0}”.', search.value) }));
  };
  const refresh = (all = true, notify = true): void => {
    count.textContent = l10n.t('{0} of {1} shown', formatCount(model.shownCount), formatCount(model.count));
    for (const p of presetButtons) p.b.setAttribute('aria-pressed', String(p.pressed()));
    if (all) renderList();
    if (notify) o.changed();
  };
  search.addEventListener('input', renderList);

  const close = (): void => {
    backdrop.remove();
    o.returnFocus.focus();
  };
  backdrop.addEventListener('mousedown', (e) => {
    if (e.target === backdrop) close();
  });
  dialog.addEventListener('keydown', (e) => {
    e.stopPropagation();
    if (e.key === 'Escape') {
      e.preventDefault();
      close();
    } else if (e.key === 'Tab') {
      // Keep the focus inside the dialog.
      const focusable = [...dialog.querySelectorAll<HTMLElement>('input, button')].filter((x) => !x.hasAttribute('disabled'));
      const first = focusable[0];
      const last = focusable[focusable.length - 1];
      if (e.shiftKey && document.activeElement === first) {
        e.preventDefault();
        last?.focus();
      } else if (!e.shiftKey && document.activeElement === last) {
        e.preventDefault();
        first?.focus();
      }
    }
  });
  backdrop.appendChild(dialog);
  document.body.appendChild(backdrop);
  refresh(true, false);
  search.focus();
}
