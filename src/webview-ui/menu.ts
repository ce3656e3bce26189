/**
 * A popup menu of actions, for cells and column headers: opened by right-click, Enter, F2,
 * Shift+F10 or the context-menu key; arrow keys move, Enter or Space runs, Escape closes and
 * gives the focus back.
 */
import { el, placePopup } from './dom';

export type MenuItem =
  | { readonly label: string; readonly hint?: string; readonly run: () => void; readonly disabled?: boolean; readonly checked?: boolean }
  | 'separator';

let open: { close: (refocus: boolean) => void } | undefined;

/** Closes the menu that is open, if any. */
export function closeMenu(refocus = false): void {
  open?.close(refocus);
}

export function showMenu(items: readonly MenuItem[], x: number, y: number, label: string, returnFocus: HTMLElement): void {
  closeMenu();
  const menu = el('div', { className: 'menu', role: 'menu', attrs: { 'aria-label': label } });
  const buttons: HTMLElement[] = [];
  for (const item of items) {
    if (item === 'separator') {
      menu.appendChild(el('div', { className: 'menu-sep', role: 'separator' }));
      continue;
    }
    const checkable = item.checked !== undefined;
    const b = el('div', { className: 'menu-item', role: checkable ? 'menuitemradio' : 'menuitem', attrs: { tabindex: '-1' } });
    if (checkable) b.setAttribute('aria-checked', String(item.checked));
    if (item.disabled) b.setAttribute('aria-disabled', 'true');
    b.appendChild(el('span', { className: 'menu-check', text: item.checked ? '✓' : '' }));
    b.appendChild(el('span', { className: 'menu-label', text: item.label }));
    if (item.hint) b.appendChild(el('span', { className: 'menu-hint', text: item.hint }));
    const activate = (): void => {
      if (item.disabled) return;
      close(true);
      item.run();
    };
    b.addEventListener('click', activate);
    b.addEventListener('mousemove', () => b.focus());
    (b as HTMLElement & { activate?: () => void }).activate = activate;
    buttons.push(b);
    menu.appendChild(b);
  }
  const enabled = (): HTMLElement[] => buttons.filter((b) => b.getAttribute('aria-disabled') !== 'true');
  const move = (delta: number | 'first' | 'last'): void => {
    const list = enabled();
    if (list.length === 0) return;
    const i = list.indexOf(document.activeElement as HTMLElement);
    const next = delta === 'first' ? 0 : delta === 'last' ? list.length - 1 : (i + delta + list.length) % list.length;
    list[next]?.focus();
  };
  menu.addEventListener('keydown', (e) => {
    e.stopPropagation();
    if (e.key === 'ArrowDown') move(1);
    else if (e.key === 'ArrowUp') move(-1);
    else if (e.key === 'Home') move('first');
    else if (e.key === 'End') move('last');
    else if (e.key === 'Enter' || e.key === ' ') (document.activeElement as HTMLElement & { activate?: () => void }).activate?.();
    else if (e.key === 'Escape' || e.key === 'Tab') close(true);
    else return;
    e.preventDefault();
  });
  const outside = (e: MouseEvent): void => {
    if (!menu.contains(e.target as Node)) close(false);
  };
  const close = (refocus: boolean): void => {
    if (!menu.isConnected) return;
    menu.remove();
    document.removeEventListener('mousedown', outside, true);
    window.removeEventListener('blur', onBlur);
    open = undefined;
    if (refocus) returnFocus.focus();
  };
  const onBlur = (): void => close(false);
  // In the page's one landmark (main), as everything a person reads is.
  (document.querySelector('main') ?? document.body).appendChild(menu);
  placePopup(menu, x, y);
  document.addEventListener('mousedown', outside, true);
  window.addEventListener('blur', onBlur);
  open = { close };
  enabled()[0]?.focus();
}
