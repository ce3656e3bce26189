/**
 * Contradictory conditions on one field inside an AND group ("> 10" and "< 5"): no value can
 * satisfy them all, so the query matches no wallet and still costs the 100-credit minimum.
 * Pure: works on the conditions' values, in the order written.
 */
import type { Operator } from '../spec/queryModel';

export type Scalar = number | string | boolean;

export interface Constraint {
  readonly op: Operator;
  readonly value: Scalar | readonly Scalar[];
}

interface Domain {
  lo: number;
  loOpen: boolean;
  hi: number;
  hiOpen: boolean;
  /** Values allowed by = and in; undefined when none was given. */
  allowed?: Set<Scalar>;
  excluded: Set<Scalar>;
}

function intervalEmpty(d: Domain): boolean {
  return d.lo > d.hi || (d.lo === d.hi && (d.loOpen || d.hiOpen));
}

function inInterval(d: Domain, v: Scalar): boolean {
  if (typeof v !== 'number') return d.lo === -Infinity && d.hi === Infinity;
  return (d.loOpen ? v > d.lo : v >= d.lo) && (d.hiOpen ? v < d.hi : v <= d.hi);
}

function raiseLo(d: Domain, v: number, open: boolean): void {
  if (v > d.lo || (v === d.lo && open)) {
    d.lo = v;
    d.loOpen = open;
  }
}

function lowerHi(d: Domain, v: number, open: boolean): void {
  if (v < d.hi || (v === d.hi && open)) {
    d.hi = v;
    d.hiOpen = open;
  }
}

function apply(d: Domain, c: Constraint): boolean {
  const list = Array.isArray(c.value) ? (c.value as readonly Scalar[]) : [c.value as Scalar];
  const num = (i: number): number | undefined => (typeof list[i] === 'number' ? (list[i] as number) : undefined);
  const narrow = (vals: readonly Scalar[]): void => {
    const next = new Set(vals);
    d.allowed = d.allowed ? new Set([...d.allowed].filter((v) => next.has(v))) : next;
  };
  switch (c.op) {
    case '=':
      narrow(list.slice(0, 1));
      return true;
    case 'in':
      narrow(list);
      return true;
    case '!=':
      if (list[0] !== undefined) d.excluded.add(list[0]);
      return true;
    case '>':
    case '>=': {
      const v = num(0);
      if (v === undefined) return false;
      raiseLo(d, v, c.op === '>');
      return true;
    }
    case '<':
    case '<=': {
      const v = num(0);
      if (v === undefined) return false;
      lowerHi(d, v, c.op === '<');
      return true;
    }
    case 'between': {
      const a = num(0);
      const b = num(1);
      if (a === undefined || b === undefined) return false;
      raiseLo(d, a, false);
      lowerHi(d, b, false);
      return true;
    }
  }
}

function empty(d: Domain): boolean {
  if (intervalEmpty(d)) return true;
  if (d.allowed) return ![...d.allowed].some((v) => inInterval(d, v) && !d.excluded.has(v));
  // A single point left, and that point excluded.
  return d.lo === d.hi && d.excluded.has(d.lo);
}

/**
 * Given the conditions on one field of one AND group, in order, the index of the first one after
 * which no value can satisfy them all, or undefined when they can all hold. Conditions whose
 * value does not fit their operator are skipped (another diagnostic reports them).
 */
export function firstContradiction(conditions: readonly Constraint[]): number | undefined {
  const d: Domain = { lo: -Infinity, loOpen: false, hi: Infinity, hiOpen: false, excluded: new Set() };
  for (let i = 0; i < conditions.length; i++) {
    const c = conditions[i];
    if (!c || !apply(d, c)) continue;
    if (empty(d)) return i;
  }
  return undefined;
}

/** A condition as a person writes it: `winrate_30d > 10`, `pnl_usd_30d between [1, 5]`. */
export function conditionText(field: string, c: Constraint): string {
  return `${field} ${c.op} ${JSON.stringify(c.value).replace(/,/gu, ', ')}`;
}
