/**
 * Small DOM helpers. Text always goes in through textContent (or a property such as `title` or
 * `value`), never as markup: the webview never parses HTML from data. Also the page's font metrics.
 */

interface ElOptions {
  className?: string;
  text?: string;
  title?: string;
  role?: string;
  attrs?: Record<string, string>;
}

export function el<K extends keyof HTMLElementTagNameMap>(tag: K, o: ElOptions = {}, children: Node[] = []): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  if (o.className) e.className = o.className;
  if (o.text !== undefined) e.textContent = o.text;
  if (o.title !== undefined) e.title = o.title;
  if (o.role) e.setAttribute('role', o.role);
  for (const [k, v] of Object.entries(o.attrs ?? {})) e.setAttribute(k, v);
  for (const c of children) e.appendChild(c);
  return e;
}

export function button(text: string, onClick: (ev: MouseEvent) => void, o: ElOptions = {}): HTMLButtonElement {
  const b = el('button', { ...o, text });
  b.type = 'button';
  b.addEventListener('click', onClick);
  return b;
}

/** A <select> whose options are set by text (never markup). */
export function select(options: readonly { value: string; label: string }[], value: string, onChange: (v: string) => void, o: ElOptions = {}): HTMLSelectElement {
  const s = el('select', o);
  for (const opt of options) s.appendChild(new Option(opt.label, opt.value, false, opt.value === value));
  s.addEventListener('change', () => onChange(s.value));
  return s;
}

/** Keeps a popup inside the window, preferring below-right of (x, y). */
export function placePopup(popup: HTMLElement, x: number, y: number): void {
  popup.style.left = '0px';
  popup.style.top = '0px';
  const r = popup.getBoundingClientRect();
  const maxX = window.innerWidth - r.width - 4;
  const maxY = window.innerHeight - r.height - 4;
  popup.style.left = `${Math.max(4, Math.min(x, maxX))}px`;
  popup.style.top = `${Math.max(4, y > maxY ? Math.min(maxY, y - r.height) : y)}px`;
}

/** The page's font metrics: a digit's and a UI character's width, and the row height. */
interface FontMetrics {
  readonly digit: number;
  readonly ui: number;
  readonly rowHeight: number;
}

/** Measures the page's fonts (hidden probes, removed at once). */
export function measureFont(): FontMetrics {
  const probe = (className: string, text: string): number => {
    const s = el('span', { className, text });
    s.style.position = 'absolute';
    s.style.visibility = 'hidden';
    s.style.whiteSpace = 'pre';
    document.body.appendChild(s);
    const w = s.getBoundingClientRect().width;
    const h = s.getBoundingClientRect().height;
    s.remove();
    return w / text.length || (h > 0 ? h * 0.6 : 8);
  };
  const digit = probe('measure-cell', '0123456789');
  const ui = probe('measure-ui', 'abcdefghijklmnopqrstuvwxyz_0123456789');
  const size = parseFloat(getComputedStyle(document.body).getPropertyValue('--vscode-editor-font-size')) || 13;
  return { digit, ui, rowHeight: Math.max(20, Math.round(size * 1.25) + 6) };
}

/**
 * Keeps Tab inside a popup (a dialog the page lays over the table): Tab past its last control goes
 * to its first, Shift+Tab before its first to its last, so the focus never leaves for the
 * workbench while the popup stays open (issue 35 item 9). Call from the popup's keydown.
 */
export function trapTab(popup: HTMLElement, e: KeyboardEvent): void {
  if (e.key !== 'Tab') return;
  const stops = [...popup.querySelectorAll<HTMLElement>('input, button, select, textarea, [tabindex]:not([tabindex="-1"])')].filter(
    // What Tab reaches: shown, enabled, and of a radio group only its checked radio.
    (c) => c.getClientRects().length > 0 && !(c as HTMLInputElement).disabled && !(c instanceof HTMLInputElement && c.type === 'radio' && !c.checked),
  );
  const first = stops[0];
  const last = stops[stops.length - 1];
  if (!first || !last) return;
  const at = document.activeElement;
  if (e.shiftKey ? at === first || !popup.contains(at) : at === last || !popup.contains(at)) {
    e.preventDefault();
    (e.shiftKey ? last : first).focus();
  }
}

/**
 * Focuses el only while this page has the browser's focus. The page is a webview inside the
 * workbench, and a focus() from it while the person is elsewhere (a quick pick, a price question,
 * the palette, another editor) pulls the focus into the webview: the workbench then closes what they
 * were typing in (a table that finished loading late closed a price question under their fingers).
 * When they come back to the table, the window's focus event puts the focus on it (App).
 */
export function focusIfPageFocused(target: HTMLElement): void {
  if (document.hasFocus()) target.focus({ preventScroll: true });
}
