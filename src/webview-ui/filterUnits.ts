/**
 * A column's filter speaks the unit its cells are shown in: a column shown as a percentage
 * (0.6963 shown `69.63%`) takes and shows its bounds in percent (typing 60 means 0.6), and the
 * chips and the "No rows match" line say them so. The one place that maps a bound between what
 * the person types or reads and what the file holds; bounds move by shifting the decimal point
 * of their text, so 69.63 becomes 0.6963 exactly as written (no 0.6962999… from a division).
 */
import type { ColumnFilter, ViewQuery } from '../shared/tableProtocol';
import type { ConcreteFormat } from './format';
import { l10n } from '../shared/l10n';
import { thousands } from '../core/numberText';

export interface FilterUnit {
  /** Powers of ten between the shown value and the file's (percent: 2). */
  readonly shift: number;
  /** Written after a shown bound: `%` for percent. */
  readonly suffix: string;
}

/** The file's own scale (every format but percent). */
export const PLAIN_UNIT: FilterUnit = { shift: 0, suffix: '' };
const PLAIN = PLAIN_UNIT;
const PERCENT: FilterUnit = { shift: 2, suffix: '%' };

/** The unit of a column shown in `format`: percent shows ×100; every other format shows the file's scale. */
export function filterUnit(format: ConcreteFormat): FilterUnit {
  return format === 'percent' ? PERCENT : PLAIN;
}

const SUFFIX_SHIFT: Readonly<Record<string, number>> = { '%': -2, k: 3, m: 6, b: 9 };

/**
 * A bound as typed (`60`, `60%`, `1.5k`, `-2.5e3`, `1,000`) in the file's scale: its exact decimal
 * text and its value; undefined when empty, 'bad' when it is not a number. A number typed in a
 * percent column is a percentage; an explicit `%` always is; k, m, b are thousands, millions, billions.
 */
export function boundFromTyped(typed: string, unit: FilterUnit): { readonly value: number; readonly text: string } | undefined | 'bad' {
  const t = typed.trim().replace(/[,_\s]/gu, '');
  if (t === '') return undefined;
  const m = /^([+-]?(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?)(%|k|m|b)?$/iu.exec(t);
  if (!m?.[1]) return 'bad';
  const suffix = (m[2] ?? '').toLowerCase();
  const shift = suffix === '' ? -unit.shift : (SUFFIX_SHIFT[suffix] ?? 0);
  const text = shiftDecimal(m[1], shift);
  const value = Number(text);
  return Number.isFinite(value) ? { value, text } : 'bad';
}

/** A bound of the file's scale as the person reads it in this unit, without the suffix: 0.6963 → "69.63". */
export function boundShown(value: number, unit: FilterUnit): string {
  return unit.shift === 0 ? String(value) : shiftDecimal(String(value), unit.shift);
}

/** A filter in words, its bounds in the column's unit: `60% ≤ winrate ≤ 80%`, `name contains “x”`. */
export function describeFilter(f: ColumnFilter, name: string, unit: FilterUnit = PLAIN): string {
  const b = (v: number): string => `${boundShown(v, unit)}${unit.suffix}`;
  switch (f.kind) {
    case 'range':
      if (f.min !== undefined && f.max !== undefined) return `${b(f.min)} ≤ ${name} ≤ ${b(f.max)}`;
      return f.min !== undefined ? `${name} ≥ ${b(f.min)}` : `${name} ≤ ${f.max === undefined ? '' : b(f.max)}`;
    case 'contains':
      return `${name} contains “${f.text}”`;
    case 'empty':
      return `${name} is empty`;
    case 'nonEmpty':
      return `${name} is not empty`;
  }
}

/**
 * A plain decimal (optional sign, digits, optional point and exponent) times 10^places, as plain
 * decimal text with no exponent: the digits are kept and the point moved.
 */
export function shiftDecimal(decimal: string, places: number): string {
  const m = /^([+-]?)(\d*)\.?(\d*)(?:e([+-]?\d+))?$/iu.exec(decimal);
  if (!m) return decimal;
  const sign = m[1] === '-' ? '-' : '';
  const whole = m[2] ?? '';
  const fraction = m[3] ?? '';
  const digits = whole + fraction;
  // The point sits after `point` digits of `digits`.
  const point = whole.length + Number(m[4] ?? 0) + places;
  let intPart: string;
  let fracPart: string;
  if (point <= 0) {
    intPart = '0';
    fracPart = '0'.repeat(-point) + digits;
  } else if (point >= digits.length) {
    intPart = digits + '0'.repeat(point - digits.length);
    fracPart = '';
  } else {
    intPart = digits.slice(0, point);
    fracPart = digits.slice(point);
  }
  intPart = intPart.replace(/^0+(?=\d)/u, '');
  fracPart = fracPart.replace(/0+$/u, '');
  const text = fracPart === '' ? intPart : `${intPart}.${fracPart}`;
  return text === '0' || /^0(?:\.0*)?$/u.test(text) ? '0' : sign + text;
}

/**
 * What the grid says when a view has no rows although the table has some: "No rows match", and
 * each filter and the search that did it, in words (`describe`: a filter in its column's unit).
 * Undefined when there is nothing to say (rows shown, an empty table, or nothing filters).
 */
export function noRowsMatch(view: { readonly length: number; readonly total: number; readonly query: ViewQuery }, describe: (f: ColumnFilter) => string): { readonly title: string; readonly causes: readonly string[] } | undefined {
  const filters = view.query.filters ?? [];
  const search = view.query.search ?? '';
  if (view.length > 0 || view.total === 0 || (filters.length === 0 && search === '')) return undefined;
  const causes = [...filters.map(describe), ...(search ? [`search “${search}”`] : [])];
  return { title: l10n.t('No rows match: none of the {0} rows passes {1}', thousands(view.total), causes.length === 1 ? 'this' : 'these'), causes };
}
