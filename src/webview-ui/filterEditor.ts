/**
 * The filter of one column, in a small dialog beside its header: a number range, text that the
 * cell contains (ignoring case), empty, or not empty. Enter applies, Escape cancels. A range is
 * typed and shown in the unit the column's cells are shown in (filterUnits.ts: 60 on a column
 * shown as a percentage is 60%). Tab stays inside the dialog while it is open.
 */
import { exactBounds } from '../core/table/numbers';
import type { ColumnFilter } from '../shared/tableProtocol';
import { button, el, placePopup, trapTab } from './dom';
import { boundFromTyped, boundShown, type FilterUnit } from './filterUnits';
import { closeMenu } from './menu';
import { l10n } from '../shared/l10n';

type Kind = ColumnFilter['kind'];

interface FilterEditorOptions {
  readonly column: number;
  readonly name: string;
  readonly numeric: boolean;
  /** The unit the column's cells are shown in, which the range's bounds are typed and shown in. */
  readonly unit: FilterUnit;
  readonly current?: ColumnFilter;
  readonly x: number;
  readonly y: number;
  readonly returnFocus: HTMLElement;
  /** The new filter, or undefined to remove the column's filter. */
  apply(filter: ColumnFilter | undefined): void;
}

let closeOpen: ((refocus: boolean) => void) | undefined;

/** Closes the filter dialog that is open, if any. */
export function closeFilterEditor(): void {
  closeOpen?.(false);
}

export function showFilterEditor(o: FilterEditorOptions): void {
  closeMenu();
  closeFilterEditor();
  const dialog = el('div', { className: 'popover filter-editor', role: 'dialog', attrs: { 'aria-label': l10n.t('Filter {0}', o.name), 'aria-modal': 'false' } });
  dialog.appendChild(el('div', { className: 'popover-title', text: l10n.t('Filter “{0}”', o.name) }));
  const kinds: { kind: Kind; label: string }[] = [
    ...(o.numeric ? [{ kind: 'range' as const, label: l10n.t('Number between') }] : []),
    { kind: 'contains', label: l10n.t('Text contains') },
    { kind: 'empty', label: l10n.t('Is empty') },
    { kind: 'nonEmpty', label: l10n.t('Is not empty') },
  ];
  let kind: Kind = o.current?.kind ?? (o.numeric ? 'range' : 'contains');
  const group = el('div', { className: 'radio-group', role: 'radiogroup', attrs: { 'aria-label': l10n.t('Filter kind') } });
  const radios: HTMLInputElement[] = [];
  const name = `filter-kind-${o.column}`;
  for (const k of kinds) {
    const input = el('input', { attrs: { type: 'radio', name, value: k.kind } });
    input.checked = k.kind === kind;
    input.addEventListener('change', () => {
      kind = k.kind;
      sync();
    });
    radios.push(input);
    group.appendChild(el('label', { className: 'radio' }, [input, el('span', { text: k.label })]));
  }
  dialog.appendChild(group);

  const unit = o.unit;
  const inUnit = unit.suffix ? ` (${unit.suffix})` : '';
  const min = el('input', { className: 'input', attrs: { type: 'text', inputmode: 'decimal', placeholder: l10n.t('min{0}', unit.suffix), 'aria-label': l10n.t('Minimum{0}', inUnit) } });
  const max = el('input', { className: 'input', attrs: { type: 'text', inputmode: 'decimal', placeholder: l10n.t('max{0}', unit.suffix), 'aria-label': l10n.t('Maximum{0}', inUnit) } });
  const text = el('input', { className: 'input wide', attrs: { type: 'text', placeholder: l10n.t('text to find'), 'aria-label': l10n.t('Text the cell contains') } });
  if (o.current?.kind === 'range') {
    min.value = o.current.min === undefined ? '' : boundShown(o.current.min, unit);
    max.value = o.current.max === undefined ? '' : boundShown(o.current.max, unit);
  }
  if (o.current?.kind === 'contains') text.value = o.current.text;
  const suffix = (): HTMLElement[] => (unit.suffix ? [el('span', { className: 'dim', text: unit.suffix })] : []);
  const rangeRow = el('div', { className: 'field-row' }, [min, ...suffix(), el('span', { className: 'dim', text: l10n.t('to') }), max, ...suffix()]);
  const textRow = el('div', { className: 'field-row' }, [text]);
  const error = el('div', { className: 'field-error', role: 'alert' });
  dialog.append(rangeRow, textRow, error);

  const sync = (): void => {
    rangeRow.hidden = kind !== 'range';
    textRow.hidden = kind !== 'contains';
    error.textContent = '';
  };
  sync();

  const doApply = (): void => {
    let f: ColumnFilter;
    if (kind === 'range') {
      const ta = boundFromTyped(min.value, unit);
      const tb = boundFromTyped(max.value, unit);
      const a = ta === undefined || ta === 'bad' ? ta : ta.value;
      const b = tb === undefined || tb === 'bad' ? tb : tb.value;
      if (a === 'bad' || b === 'bad') {
        error.textContent = unit.suffix === '%' ? l10n.t('Give percentages as the column shows them, e.g. 60 or 12.5 (for 60% and 12.5%).') : l10n.t('Give numbers, e.g. 1000, -2.5, 1e6, 1.5k or 25%.');
        return;
      }
      if (a === undefined && b === undefined) {
        error.textContent = l10n.t('Give a minimum, a maximum, or both.');
        return;
      }
      if (a !== undefined && b !== undefined && a > b) {
        error.textContent = l10n.t('The minimum is above the maximum.');
        return;
      }
      f = { kind: 'range', column: o.column, ...(a !== undefined ? { min: a } : {}), ...(b !== undefined ? { max: b } : {}), ...exactBounds(typeof ta === 'object' ? ta.text : '', a, typeof tb === 'object' ? tb.text : '', b) };
    } else if (kind === 'contains') {
      if (text.value === '') {
        error.textContent = l10n.t('Type the text to find.');
        return;
      }
      f = { kind: 'contains', column: o.column, text: text.value };
    } else f = { kind, column: o.column };
    close();
    o.apply(f);
  };
  const close = (refocus = true): void => {
    if (!dialog.isConnected) return;
    dialog.remove();
    closeOpen = undefined;
    document.removeEventListener('mousedown', outside, true);
    if (refocus) o.returnFocus.focus();
  };
  const outside = (e: MouseEvent): void => {
    if (!dialog.contains(e.target as Node)) close(false);
  };
  const buttons = el('div', { className: 'buttons' }, [
    button(l10n.t('Apply'), doApply, { className: 'primary' }),
    button(
      l10n.t('Remove filter'),
      () => {
        close();
        o.apply(undefined);
      },
      { className: 'secondary' },
    ),
    button(l10n.t('Cancel'), () => close(), { className: 'secondary' }),
  ]);
  dialog.appendChild(buttons);
  dialog.addEventListener('keydown', (e) => {
    e.stopPropagation();
    trapTab(dialog, e);
    if (e.key === 'Escape') {
      e.preventDefault();
      close();
    } else if (e.key === 'Enter' && (e.target as HTMLElement).tagName === 'INPUT') {
      e.preventDefault();
      doApply();
    }
  });
  document.body.appendChild(dialog);
  closeOpen = close;
  placePopup(dialog, o.x, o.y);
  document.addEventListener('mousedown', outside, true);
  (kind === 'range' ? min : kind === 'contains' ? text : radios.find((r) => r.checked))?.focus();
}
