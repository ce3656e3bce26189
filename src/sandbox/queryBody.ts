/**
 * The sandbox's check of a Wallet Database query body (names ours, as in src/core/spec/queryModel.ts,
 * but checked here on their own, as every input rule of inputs.ts is, so a client that sends what
 * the server refuses is caught by the tests instead of agreeing with itself).
 */
import { thousands } from '../core/numberText';
import { BOUNDS } from './bounds';
import { OPERATORS, type Condition, type QueryBody, type QueryNode } from '../core/spec/queryModel';

/** Whether v is a JSON object. */
export const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
/** A value as a 400 answer quotes it (long text cut). */
export const show = (v: unknown): string => (typeof v === 'string' ? `“${v.length > 60 ? `${v.slice(0, 60)}…` : v}”` : (JSON.stringify(v) ?? String(v)));

const SCALAR = (v: unknown): v is string | number | boolean => typeof v === 'string' || typeof v === 'boolean' || (typeof v === 'number' && Number.isFinite(v));
const ORDERED = new Set(['>', '>=', '<', '<=']);

function condition(c: Record<string, unknown>, at: string): Condition | string {
  const extra = Object.keys(c).filter((k) => !['field', 'op', 'value'].includes(k));
  if (extra.length > 0) return `${at}: a condition has only "field", "op" and "value", not ${extra.map((k) => `"${k}"`).join(', ')}.`;
  const { field, op, value } = c;
  if (typeof field !== 'string' || field === '') return `${at}: "field" must be a field name; got ${show(field)}.`;
  if (typeof op !== 'string' || !(OPERATORS as readonly string[]).includes(op)) return `${at}: "op" must be one of ${OPERATORS.join(' ')}; got ${show(op)}.`;
  if (value === undefined) return `${at}: "value" is missing.`;
  if (op === 'between') {
    if (!Array.isArray(value) || value.length !== 2 || !value.every((x) => typeof x === 'number' && Number.isFinite(x))) return `${at}: "between" takes [min, max], two numbers; got ${show(value)}.`;
  } else if (op === 'in') {
    if (!Array.isArray(value) || value.length === 0 || !value.every(SCALAR)) return `${at}: "in" takes a non-empty list of numbers, strings or booleans; got ${show(value)}.`;
  } else if (!SCALAR(value)) return `${at}: "${op}" takes one number, string or boolean; got ${show(value)}.`;
  else if (ORDERED.has(op) && typeof value !== 'number') return `${at}: "${op}" compares numbers; got ${show(value)}.`;
  return { field, op, value } as Condition;
}

function node(v: unknown, at: string): QueryNode | string {
  if (!isRecord(v)) return `${at} must be a condition or an {"and": [...]} / {"or": [...]} group; got ${show(v)}.`;
  if ('field' in v || 'op' in v || 'value' in v) return condition(v, at);
  const keys = Object.keys(v);
  const kind = keys[0];
  if (keys.length !== 1 || (kind !== 'and' && kind !== 'or')) return `${at} must be an {"and": [...]} or {"or": [...]} group, with nothing else; got keys ${keys.map((k) => `"${k}"`).join(', ') || 'none'}.`;
  const list = v[kind];
  if (!Array.isArray(list)) return `${at}."${kind}" must be a list; got ${show(list)}.`;
  const children: QueryNode[] = [];
  for (const [i, child] of list.entries()) {
    const n = node(child, `${at}.${kind}[${i}]`);
    if (typeof n === 'string') return n;
    children.push(n);
  }
  return kind === 'and' ? { and: children } : { or: children };
}

function names(v: unknown, what: string): string[] | string {
  if (!Array.isArray(v) || !v.every((x) => typeof x === 'string' && x !== '')) return `"${what}" must be a list of field names; got ${show(v)}.`;
  return v as string[];
}

/** The body as a QueryBody (sort directions filled in), or what is wrong with it. */
export function queryBody(v: unknown): QueryBody | string {
  if (!isRecord(v)) return `it must be a JSON object {"where", "limit", "sort"?, "columns"?}; got ${show(v)}.`;
  const extra = Object.keys(v).filter((k) => !['where', 'limit', 'sort', 'columns'].includes(k));
  if (extra.length > 0) return `it takes "where", "limit", "sort" and "columns", not ${extra.map((k) => `"${k}"`).join(', ')}.`;
  if (v.where === undefined) return '"where" is required: an {"and": [...]} or {"or": [...]} group.';
  const where = node(v.where, 'where');
  if (typeof where === 'string') return where;
  if ('field' in where) return '"where" must be a group, {"and": [...]} or {"or": [...]}, not a single condition.';
  const limit = v.limit;
  if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1 || limit > BOUNDS.queryLimit) {
    return `"limit" must be a whole number from 1 to ${thousands(BOUNDS.queryLimit)}; got ${show(limit)}.`;
  }
  const body: QueryBody = { where, limit };
  if (v.sort !== undefined) {
    if (!Array.isArray(v.sort)) return `"sort" must be a list of {"field", "dir"}; got ${show(v.sort)}.`;
    const sort: { field: string; dir: 'asc' | 'desc' }[] = [];
    for (const [i, s] of v.sort.entries()) {
      const dir = isRecord(s) ? (s.dir ?? 'desc') : undefined;
      if (!isRecord(s) || Object.keys(s).some((k) => k !== 'field' && k !== 'dir') || typeof s.field !== 'string' || s.field === '' || (dir !== 'asc' && dir !== 'desc')) {
        return `sort[${i}] must be {"field": a field name, "dir": "asc" or "desc"}; got ${show(s)}.`;
      }
      sort.push({ field: s.field, dir });
    }
    body.sort = sort;
  }
  if (v.columns !== undefined) {
    const cols = names(v.columns, 'columns');
    if (typeof cols === 'string') return cols;
    body.columns = cols;
  }
  return body;
}

// ---- reading a request ----

