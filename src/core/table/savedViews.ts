/**
 * Saved views: a table's sort, filters, search, chosen columns and number formats under a name,
 * kept per endpoint (a "scope": the endpoint id, or a hash of the column names for other files),
 * with the view last chosen for each scope, which a new result of that endpoint opens in.
 *
 * Columns are kept by name, not index, so a view carries to the next result of the endpoint; a
 * column that result lacks is left out when the view is applied (and said). The store is plain
 * data (one globalState value): parseSavedViews() accepts whatever was stored and keeps only
 * well-formed scopes and views, so a damaged or older value never breaks a table. Pure.
 */
import { exactBounds } from './numbers';
import { NUMBER_FORMATS, type NumberFormat, type TableLayout } from './tableLayout';
import type { ColumnFilter, SortKey, ViewQuery } from './types';
import { l10n } from '../l10n';

/** A filter with its column named. */
type NamedFilter =
  | { readonly kind: 'range'; readonly column: string; readonly min?: number; readonly max?: number; readonly minText?: string; readonly maxText?: string }
  | { readonly kind: 'contains'; readonly column: string; readonly text: string }
  | { readonly kind: 'empty' | 'nonEmpty'; readonly column: string };

export interface SavedView {
  readonly name: string;
  readonly sort: readonly { readonly column: string; readonly descending?: boolean }[];
  readonly filters: readonly NamedFilter[];
  readonly search: string;
  /** Chosen columns: hidden and pinned ones, by name. */
  readonly hidden: readonly string[];
  readonly pinned: readonly string[];
  /** Number formats by column name, and the default. */
  readonly formats: Readonly<Record<string, NumberFormat>>;
  readonly defaultFormat: NumberFormat;
  /** ISO time it was saved. */
  readonly savedAt: string;
}

interface ScopeViews {
  readonly views: readonly SavedView[];
  /** The name of the view last chosen for this scope: a new result opens in it. */
  readonly last?: string;
}

/** Every scope's views, as stored. */
export type SavedViewsState = Readonly<Record<string, ScopeViews>>;

/** Longest view name kept; more views than MAX_VIEWS in a scope drop the oldest. */
export const MAX_NAME = 80;
export const MAX_VIEWS = 50;
const MAX_NAMES = 100_000;

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isNames = (v: unknown): v is string[] => Array.isArray(v) && v.length <= MAX_NAMES && v.every((s) => typeof s === 'string');
const isFormat = (v: unknown): v is NumberFormat => NUMBER_FORMATS.includes(v as NumberFormat);
const isBound = (v: unknown): boolean => v === undefined || (typeof v === 'number' && Number.isFinite(v));

/**
 * A name as it is kept: control characters and runs of white space become one space, trimmed,
 * at most MAX_NAME characters; undefined when nothing is left.
 */
export function cleanViewName(name: string): string | undefined {
  // eslint-disable-next-line no-control-regex
  const clean = name.replace(/[\u0000-\u001f\u007f\s]+/gu, ' ').trim();
  if (clean === '') return undefined;
  return [...clean].slice(0, MAX_NAME).join('').trim();
}

/** Two names are the same view when they differ only in case. */
export const sameName = (a: string, b: string): boolean => a.toLocaleLowerCase('en') === b.toLocaleLowerCase('en');

function parseFilter(v: unknown): NamedFilter | undefined {
  if (!isRecord(v) || typeof v.column !== 'string') return undefined;
  switch (v.kind) {
    case 'range':
      return isBound(v.min) && isBound(v.max)
        ? {
            kind: 'range',
            column: v.column,
            ...(v.min !== undefined ? { min: v.min as number } : {}),
            ...(v.max !== undefined ? { max: v.max as number } : {}),
            ...exactBounds(typeof v.minText === 'string' ? v.minText : '', v.min as number | undefined, typeof v.maxText === 'string' ? v.maxText : '', v.max as number | undefined),
          }
        : undefined;
    case 'contains':
      return typeof v.text === 'string' ? { kind: 'contains', column: v.column, text: v.text } : undefined;
    case 'empty':
    case 'nonEmpty':
      return { kind: v.kind, column: v.column };
    default:
      return undefined;
  }
}

function parseView(v: unknown): SavedView | undefined {
  if (!isRecord(v) || typeof v.name !== 'string') return undefined;
  const name = cleanViewName(v.name);
  if (name === undefined || !Array.isArray(v.sort) || !Array.isArray(v.filters) || !isNames(v.hidden) || !isNames(v.pinned) || !isRecord(v.formats)) return undefined;
  const sort = v.sort.map((k: unknown) => (isRecord(k) && typeof k.column === 'string' && (k.descending === undefined || typeof k.descending === 'boolean') ? { column: k.column, ...(k.descending ? { descending: true } : {}) } : undefined));
  const filters = v.filters.map(parseFilter);
  if (sort.some((k) => k === undefined) || filters.some((f) => f === undefined)) return undefined;
  if (!Object.values(v.formats).every(isFormat) || !isFormat(v.defaultFormat)) return undefined;
  return {
    name,
    sort: sort as SavedView['sort'],
    filters: filters as NamedFilter[],
    search: typeof v.search === 'string' ? v.search : '',
    hidden: v.hidden,
    pinned: v.pinned,
    formats: Object.fromEntries(Object.entries(v.formats)) as Record<string, NumberFormat>,
    defaultFormat: v.defaultFormat,
    savedAt: typeof v.savedAt === 'string' ? v.savedAt : '',
  };
}

/** The well-formed part of a stored value: malformed scopes and views are left out, never thrown on. */
export function parseSavedViews(raw: unknown): SavedViewsState {
  if (!isRecord(raw)) return {};
  const out: [string, ScopeViews][] = [];
  for (const [scope, value] of Object.entries(raw)) {
    if (!isRecord(value) || !Array.isArray(value.views)) continue;
    const views: SavedView[] = [];
    for (const v of value.views) {
      const view = parseView(v);
      if (view && !views.some((w) => sameName(w.name, view.name))) views.push(view);
    }
    const last = typeof value.last === 'string' ? views.find((w) => sameName(w.name, value.last as string))?.name : undefined;
    if (views.length > 0) out.push([scope, last !== undefined ? { views, last } : { views }]);
  }
  // fromEntries defines own properties, so a scope named "__proto__" is data like any other.
  return Object.fromEntries(out);
}

const scopeOf = (state: SavedViewsState, scope: string): ScopeViews => (Object.hasOwn(state, scope) ? (state[scope] ?? { views: [] }) : { views: [] });

/** The views of a scope, in the order they were first saved. */
export function viewsOf(state: SavedViewsState, scope: string): readonly SavedView[] {
  return scopeOf(state, scope).views;
}

/** The view a new result of this scope opens in, if one was chosen. */
export function lastView(state: SavedViewsState, scope: string): SavedView | undefined {
  const s = scopeOf(state, scope);
  return s.last === undefined ? undefined : s.views.find((v) => sameName(v.name, s.last ?? ''));
}

function withScope(state: SavedViewsState, scope: string, next: ScopeViews): SavedViewsState {
  const entries = Object.entries(state).filter(([k]) => k !== scope);
  if (next.views.length > 0) entries.push([scope, next]);
  return Object.fromEntries(entries);
}

/**
 * Saves a view (its name cleaned; one of the same name, in any case, is replaced in place) and
 * makes it the scope's last chosen view. The oldest views go past MAX_VIEWS.
 */
export function saveView(state: SavedViewsState, scope: string, view: SavedView): SavedViewsState {
  const name = cleanViewName(view.name);
  if (name === undefined) throw new Error(l10n.t('A saved view needs a name.'));
  const saved = { ...view, name };
  const views = [...viewsOf(state, scope)];
  const at = views.findIndex((v) => sameName(v.name, name));
  if (at >= 0) views[at] = saved;
  else views.push(saved);
  return withScope(state, scope, { views: views.slice(-MAX_VIEWS), last: name });
}

/** Deletes a view by name (any case); the scope forgets it as its last chosen view. */
export function deleteView(state: SavedViewsState, scope: string, name: string): SavedViewsState {
  const s = scopeOf(state, scope);
  const views = s.views.filter((v) => !sameName(v.name, name));
  const last = s.last !== undefined && !sameName(s.last, name) ? s.last : undefined;
  return withScope(state, scope, last !== undefined ? { views, last } : { views });
}

/** Marks a view as the scope's last chosen one (undefined: none, a new result opens as the file is). */
export function chooseView(state: SavedViewsState, scope: string, name: string | undefined): SavedViewsState {
  const s = scopeOf(state, scope);
  const found = name === undefined ? undefined : s.views.find((v) => sameName(v.name, name));
  if (name !== undefined && !found) throw new Error(l10n.t('There is no saved view named "{0}".', name));
  return withScope(state, scope, found ? { views: s.views, last: found.name } : { views: s.views });
}

/** A view of what a table shows: its query (columns by index into `columns`) and layout, by name. */
export function captureView(name: string, query: ViewQuery, columns: readonly string[], layout: TableLayout | undefined, now = new Date()): SavedView {
  const col = (i: number): string => {
    const n = columns[i];
    if (n === undefined) throw new RangeError(l10n.t('The view names column {0}; the table has {1}.', i, columns.length));
    return n;
  };
  return {
    name: cleanViewName(name) ?? 'View',
    sort: (query.sort ?? []).map((k) => ({ column: col(k.column), ...(k.descending ? { descending: true } : {}) })),
    filters: (query.filters ?? []).map((f): NamedFilter => ({ ...f, column: col(f.column) })),
    search: query.search ?? '',
    hidden: [...(layout?.hidden ?? [])],
    pinned: [...(layout?.pinned ?? [])],
    formats: { ...(layout?.formats ?? {}) },
    defaultFormat: layout?.defaultFormat ?? 'auto',
    savedAt: now.toISOString(),
  };
}

/**
 * The query and layout a view gives over these columns (the first column of a name, when names
 * repeat); sort keys and filters on columns the table lacks are left out and named in `missing`.
 * The widths are the current layout's: a view does not carry them.
 */
export function viewQuery(view: SavedView, columns: readonly string[], current?: TableLayout): { query: ViewQuery; layout: TableLayout; missing: string[] } {
  const index = new Map<string, number>();
  columns.forEach((c, i) => {
    if (!index.has(c)) index.set(c, i);
  });
  const missing = new Set<string>();
  const at = (name: string): number | undefined => {
    const i = index.get(name);
    if (i === undefined) missing.add(name);
    return i;
  };
  const sort: SortKey[] = [];
  for (const k of view.sort) {
    const i = at(k.column);
    if (i !== undefined) sort.push({ column: i, ...(k.descending ? { descending: true } : {}) });
  }
  const filters: ColumnFilter[] = [];
  for (const f of view.filters) {
    const i = at(f.column);
    if (i !== undefined) filters.push({ ...f, column: i });
  }
  const query: ViewQuery = { ...(sort.length > 0 ? { sort } : {}), ...(filters.length > 0 ? { filters } : {}), ...(view.search !== '' ? { search: view.search } : {}) };
  const layout: TableLayout = { hidden: view.hidden, pinned: view.pinned, widths: current?.widths ?? {}, formats: view.formats, defaultFormat: view.defaultFormat };
  return { query, layout, missing: [...missing] };
}
