/**
 * Evaluates a Wallet Database query (src/core/spec/queryModel.ts) over a wallet set, for real:
 * each condition is computed column-wise into a byte mask, groups combine masks with AND/OR,
 * then the matches are sorted, cut to `limit` and projected.
 *
 * Semantics (ours; the spec does not say): a null value matches no condition, not even "!=";
 * "between" is inclusive; nulls sort last in either direction; without `sort` wallets come in
 * a fixed order; without `columns` each wallet carries the fields the query names.
 */
import type { Chain } from '../core/spec/addresses';
import { TIMEFRAMES } from '../core/spec/metrics';
import { isAnd, type Condition, type QueryBody, type QueryNode } from '../core/spec/queryModel';
import { onlyChainOf, queryColumns, type QueryColumn } from './columns';
import { closestName as closest } from '../core/spec/suggest';
import type { HourView } from './wallets';

const CHAIN_NAME: Record<Chain, string> = { main: 'main chain', alt: 'second chain' };

/** Why a field name is not queryable on the chain (with a suggestion), or undefined when it is. */
function fieldProblem(name: string, chain: Chain): string | undefined {
  const cols = queryColumns(chain);
  if (cols.has(name)) return undefined;
  const tfMatch = /_(1d|7d|30d|all)$/u.exec(name);
  const metric = tfMatch ? name.slice(0, tfMatch.index) : name;
  const only = onlyChainOf(metric);
  if (only && only !== chain) {
    return `Field “${name}” exists only on the ${CHAIN_NAME[only]}; the ${CHAIN_NAME[chain]} Wallet Database does not have it.`;
  }
  if (!tfMatch && cols.has(`${name}_30d`)) {
    return `Field “${name}” needs a timeframe: ${TIMEFRAMES.map((tf) => `${name}_${tf}`).join(', ')}.`;
  }
  const near = closest(name, cols.keys());
  return `Unknown field “${name}”.${near ? ` Did you mean “${near}”?` : ''} GET ${chain === 'alt' ? '/altchain_wallet_database/columns' : '/wallet_database/columns'} lists the fields.`;
}

function conditionProblem(c: Condition, col: QueryColumn): string | undefined {
  const values = Array.isArray(c.value) ? c.value : [c.value];
  if (col.kind === 'category') {
    if (!['=', '!=', 'in'].includes(c.op)) return `Field “${c.field}” holds names: it takes =, != or in, not “${c.op}”.`;
    for (const v of values) {
      if (typeof v !== 'string') return `Field “${c.field}” holds names: ${JSON.stringify(v)} is not a string.`;
      if (!col.values.includes(v)) {
        const near = closest(v, col.values);
        return `“${v}” is not a value of ${c.field}.${near ? ` Did you mean “${near}”?` : ''} Values: ${col.values.map((x) => `“${x}”`).join(', ')}.`;
      }
    }
    return undefined;
  }
  for (const v of values) if (typeof v !== 'number') return `Field “${c.field}” holds numbers: ${JSON.stringify(v)} is not a number.`;
  if (c.op === 'between' && Array.isArray(c.value) && (c.value[0] as number) > (c.value[1] as number)) {
    return `Field “${c.field}”: between [${String(c.value[0])}, ${String(c.value[1])}] has its minimum above its maximum.`;
  }
  return undefined;
}

function conditions(node: QueryNode, out: Condition[] = []): Condition[] {
  if ('field' in node) out.push(node);
  else for (const child of isAnd(node) ? node.and : node.or) conditions(child, out);
  return out;
}

/** The first problem of a (schema-valid) query on a chain: unknown fields, wrong value types. */
export function queryProblem(body: QueryBody, chain: Chain): string | undefined {
  const cols = queryColumns(chain);
  for (const c of conditions(body.where)) {
    const col = cols.get(c.field);
    if (!col) return fieldProblem(c.field, chain);
    const p = conditionProblem(c, col);
    if (p) return p;
  }
  for (const s of body.sort ?? []) {
    const p = fieldProblem(s.field, chain);
    if (p) return `Sort: ${p}`;
  }
  for (const name of body.columns ?? []) {
    const p = fieldProblem(name, chain);
    if (p) return `Columns: ${p}`;
  }
  return undefined;
}

/** Reads a column of a view as numbers (metrics) or category indexes. */
class Columns {
  private readonly cache = new Map<string, Float64Array>();
  constructor(
    private readonly view: HourView,
    private readonly cols: ReadonlyMap<string, QueryColumn>,
  ) {}
  get(name: string): Float64Array {
    let a = this.cache.get(name);
    if (a) return a;
    const col = this.cols.get(name);
    if (!col) throw new Error(`unchecked field ${name}`);
    if (col.kind === 'metric') a = this.view.column(col.index);
    else {
      const src = col.name === 'main_dex' ? this.view.set.dex : this.view.set.bot;
      a = Float64Array.from(src);
    }
    this.cache.set(name, a);
    return a;
  }
}

function evalCondition(c: Condition, cols: Columns, colInfo: QueryColumn, n: number): Uint8Array {
  const m = new Uint8Array(n);
  const v = cols.get(c.field);
  const raw = Array.isArray(c.value) ? c.value : [c.value];
  // Category values compare as their index in the column's value list.
  const nums = raw.map((x) => (colInfo.kind === 'category' ? colInfo.values.indexOf(String(x)) : (x as number)));
  const a = nums[0] ?? NaN;
  const b = nums[1] ?? NaN;
  switch (c.op) {
    case '=':
      for (let i = 0; i < n; i++) m[i] = v[i] === a ? 1 : 0;
      break;
    case '!=':
      for (let i = 0; i < n; i++) m[i] = v[i] === v[i] && v[i] !== a ? 1 : 0;
      break;
    case '>':
      for (let i = 0; i < n; i++) m[i] = v[i]! > a ? 1 : 0;
      break;
    case '>=':
      for (let i = 0; i < n; i++) m[i] = v[i]! >= a ? 1 : 0;
      break;
    case '<':
      for (let i = 0; i < n; i++) m[i] = v[i]! < a ? 1 : 0;
      break;
    case '<=':
      for (let i = 0; i < n; i++) m[i] = v[i]! <= a ? 1 : 0;
      break;
    case 'between':
      for (let i = 0; i < n; i++) m[i] = v[i]! >= a && v[i]! <= b ? 1 : 0;
      break;
    case 'in': {
      const set = new Set(nums);
      for (let i = 0; i < n; i++) m[i] = set.has(v[i]!) ? 1 : 0;
      break;
    }
  }
  return m;
}

function evalNode(node: QueryNode, cols: Columns, info: ReadonlyMap<string, QueryColumn>, n: number): Uint8Array {
  if ('field' in node) return evalCondition(node, cols, info.get(node.field)!, n);
  const and = isAnd(node);
  const children = and ? node.and : node.or;
  // An empty AND holds for every wallet; an empty OR for none.
  const m = new Uint8Array(n).fill(and ? 1 : 0);
  for (const child of children) {
    const c = evalNode(child, cols, info, n);
    if (and) for (let i = 0; i < n; i++) m[i] = m[i]! & c[i]!;
    else for (let i = 0; i < n; i++) m[i] = m[i]! | c[i]!;
  }
  return m;
}

export interface QueryHits {
  readonly total: number;
  /** Wallet indexes, sorted, at most `limit`. */
  readonly indexes: Uint32Array;
}

/** Runs a checked query: total matches and the first `limit` wallets in the asked order. */
export function runQuery(view: HourView, body: QueryBody): QueryHits {
  const n = view.set.n;
  const info = queryColumns(view.set.chain);
  const cols = new Columns(view, info);
  const mask = evalNode(body.where, cols, info, n);
  let total = 0;
  for (let i = 0; i < n; i++) total += mask[i]!;
  const hits = new Uint32Array(total);
  for (let i = 0, k = 0; i < n; i++) if (mask[i]) hits[k++] = i;
  const sort = body.sort ?? [];
  if (sort.length > 0) {
    const keys = sort.map((s) => ({ v: cols.get(s.field), sign: s.dir === 'asc' ? 1 : -1 }));
    hits.sort((x, y) => {
      for (const { v, sign } of keys) {
        const a = v[x]!;
        const b = v[y]!;
        if (a === b) continue;
        if (a !== a) return 1; // nulls last, whatever the direction
        if (b !== b) return -1;
        return a < b ? -sign : sign;
      }
      return x - y;
    });
  }
  return { total, indexes: hits.slice(0, body.limit) };
}

/** The fields each returned wallet carries: `columns`, or else the fields the query names. */
export function projection(body: QueryBody): string[] {
  if (body.columns) return [...new Set(body.columns)];
  return [...new Set([...conditions(body.where).map((c) => c.field), ...(body.sort ?? []).map((s) => s.field)])];
}

/** The returned wallets: address and the projected fields (null for no value), each column read once. */
export function walletRows(view: HourView, indexes: Uint32Array, fields: readonly string[]): Record<string, string | number | null>[] {
  const info = queryColumns(view.set.chain);
  // Columns beyond the view's cache are computed once here and not kept.
  const readers = fields.flatMap((f) => {
    const col = info.get(f);
    if (!col) return [];
    if (col.kind === 'category') return [{ f, at: (i: number): string | number | null => view.category(col.name, i) }];
    const values = view.column(col.index, fields.length <= 8);
    return [{ f, at: (i: number): string | number | null => (values[i] === values[i] ? values[i]! : null) }];
  });
  return Array.from(indexes, (i) => {
    const row: Record<string, string | number | null> = { address: view.set.addresses[i] ?? '' };
    for (const r of readers) row[r.f] = r.at(i);
    return row;
  });
}
