/**
 * What is wrong with a `.waquery.json` beyond its structure (which the JSON Schema checks):
 * fields the server does not list, values of the wrong type, empty groups, `between` upside
 * down, numbers a double cannot carry exactly (more than 15 significant digits), contradictions
 * inside an AND group, a missing `limit`, fields of the other chain, and
 * the operator/value rules of the zod model that a JSON Schema cannot say. Pure: text in,
 * diagnostics with offsets out.
 */
import { modify, type Edit, type Node } from 'jsonc-parser';
import type { Chain } from '../spec/addresses';
import type { ColumnInfo } from '../spec/wire';
import { conditionText, firstContradiction, type Constraint, type Scalar } from './contradiction';
import { CHAIN_LABEL, FieldIndex, allowedValues, otherChain, valueKind, type ChainColumns } from './fields';
import { Condition, OPERATORS, type Operator } from '../spec/queryModel';
import { isCondition, outlineQuery, spanOf, valueOf, type ConditionRef, type FieldRef, type GroupRef, type QueryOutline, type Span } from './outline';
import { closestName } from '../spec/suggest';
import { l10n } from '../l10n';

type QueryDiagnosticCode =
  | 'unknown-field'
  | 'other-chain-field'
  | 'wrong-type'
  | 'unknown-value'
  | 'op-value'
  | 'empty-group'
  | 'between-order'
  | 'inexact-number'
  | 'contradiction'
  | 'no-limit';

/** A change that fixes a diagnostic: edits of the text, in jsonc-parser's form. */
export interface QueryFix {
  readonly title: string;
  readonly edits: readonly Edit[];
}

export interface QueryDiagnostic extends Span {
  readonly code: QueryDiagnosticCode;
  readonly severity: 'error' | 'warning';
  readonly message: string;
  readonly fixes?: readonly QueryFix[];
  /** Whether refreshing the field list could make this go away (a field the cached list lacks). */
  readonly refreshMayFix?: boolean;
  readonly related?: readonly (Span & { readonly message: string })[];
}

interface AnalyzeOptions {
  /** The chain to check against; by default the file's `$chain` ("main" when absent). */
  readonly chain?: Chain;
}

const ORDERING: ReadonlySet<string> = new Set(['>', '>=', '<', '<=', 'between']);
const FORMAT = { formattingOptions: { insertSpaces: true, tabSize: 2, eol: '\n' } };

function stringFix(title: string, span: Span, value: string): QueryFix {
  return { title, edits: [{ offset: span.offset, length: span.length, content: JSON.stringify(value) }] };
}

function describeJson(v: unknown): string {
  if (typeof v === 'string') return l10n.t('"{0}" is a string', v);
  if (typeof v === 'boolean') return l10n.t('{0} is a boolean', String(v));
  if (v === null) return l10n.t('null is not a value');
  if (Array.isArray(v)) return l10n.t('a list');
  return l10n.t('{0} is a {1}', JSON.stringify(v), typeof v);
}

/** Every diagnostic of the text, in text order. Field checks run only when that chain's list is known. */
export function analyzeQuery(text: string, columns?: ChainColumns, opts: AnalyzeOptions = {}): QueryDiagnostic[] {
  const outline = outlineQuery(text);
  if (outline.root?.type !== 'object') return [];
  const chain = opts.chain ?? outline.chain;
  const fields = FieldIndex.of(columns, chain);
  const out: QueryDiagnostic[] = [];

  if (fields) for (const f of outline.fields) out.push(...fieldProblems(f, fields, text));
  const flagged = new Set<ConditionRef>();
  for (const c of outline.conditions) {
    const model = modelProblems(c);
    if (model.length > 0) flagged.add(c);
    out.push(...model);
    const col = c.field ? fields?.get(c.field.name) : undefined;
    if (col && model.length === 0) {
      const typed = typeProblems(c, col);
      if (typed.length > 0) flagged.add(c);
      out.push(...typed);
    }
    const order = betweenProblem(c);
    if (order) {
      flagged.add(c);
      out.push(order);
    }
    const inexact = inexactNumbers(c, text);
    if (inexact.length > 0) flagged.add(c);
    out.push(...inexact);
  }
  for (const g of outline.groups) {
    const empty = emptyGroup(g);
    if (empty) out.push(empty);
    if (g.kind === 'and' && g.parent?.kind !== 'and') out.push(...contradictions(g, flagged));
  }
  const noLimit = limitProblem(outline, text);
  if (noLimit) out.push(noLimit);
  return out.sort((a, b) => a.offset - b.offset || a.code.localeCompare(b.code));
}

function fieldProblems(f: FieldRef, fields: FieldIndex, text: string): QueryDiagnostic[] {
  if (fields.get(f.name)) return [];
  const where = f.role === 'condition' ? '' : f.role === 'sort' ? l10n.t(' (in "sort")') : l10n.t(' (in "columns")');
  const other = fields.onOtherChainOnly(f.name);
  if (other) {
    const to = otherChain(fields.chain);
    return [
      {
        ...f.span,
        code: 'other-chain-field',
        severity: 'error',
        message: l10n.t('"{0}" exists only on the {1}; this query runs on the {2}{3}. Set "$chain": "{4}" to query the {5}.', f.name, CHAIN_LABEL[to], CHAIN_LABEL[fields.chain], where, to, CHAIN_LABEL[to]),
        fixes: [{ title: l10n.t('Run this query on the {0} ("$chain": "{1}")', CHAIN_LABEL[to], to), edits: modify(text, ['$chain'], to, { ...FORMAT, getInsertionIndex: () => 0 }) }],
        refreshMayFix: true,
      },
    ];
  }
  const names = [...fields.names()];
  const timeframes = names.filter((n) => n.startsWith(`${f.name}_`) && /^_(1d|7d|30d|all)$/u.test(n.slice(f.name.length)));
  if (timeframes.length > 0) {
    return [
      {
        ...f.span,
        code: 'unknown-field',
        severity: 'error',
        message: l10n.t('"{0}" needs a timeframe{1}: {2}.', f.name, where, timeframes.map((n) => `"${n}"`).join(', ')),
        fixes: timeframes.map((n) => stringFix(l10n.t('Change to "{0}"', n), f.span, n)),
      },
    ];
  }
  const near = closestName(f.name, names);
  return [
    {
      ...f.span,
      code: 'unknown-field',
      severity: 'error',
      message: l10n.t('Unknown field "{0}"{1}.{2} The {3} lists {4} fields.', f.name, where, near ? l10n.t(' Did you mean "{0}"?', near) : '', CHAIN_LABEL[fields.chain], names.length),
      fixes: near ? [stringFix(l10n.t('Change to "{0}"', near), f.span, near)] : [],
      refreshMayFix: true,
    },
  ];
}

/** The model's own rules for an operator's value (zod superRefine), which the JSON Schema cannot carry. */
function modelProblems(c: ConditionRef): QueryDiagnostic[] {
  const r = Condition.safeParse(valueOf(c.node));
  if (r.success) return [];
  return r.error.issues
    .filter((i) => i.code === 'custom')
    .map((i) => ({ ...spanOf(c.value ?? c.node), code: 'op-value' as const, severity: 'error' as const, message: i.message }));
}

function elements(n: Node): Node[] {
  return n.type === 'array' ? (n.children ?? []) : [n];
}

function typeProblems(c: ConditionRef, col: ColumnInfo): QueryDiagnostic[] {
  const kind = valueKind(col);
  const name = col.name;
  const typeWords = kind === 'number' ? `numbers${col.kind && col.kind !== col.type ? ` (${col.kind})` : ''}` : kind === 'string' ? 'names' : l10n.t('true or false');
  if (kind !== 'number' && c.op && ORDERING.has(c.op) && c.opSpan) {
    return [
      {
        ...c.opSpan,
        code: 'wrong-type',
        severity: 'error',
        message: l10n.t('"{0}" holds {1}: it takes {2}, not "{3}".', name, typeWords, kind === 'string' ? l10n.t('=, != or in') : l10n.t('= or !='), c.op),
      },
    ];
  }
  if (!c.value) return [];
  const out: QueryDiagnostic[] = [];
  for (const el of elements(c.value)) {
    const v = valueOf(el);
    if (typeof v !== kind) {
      out.push({ ...spanOf(el), code: 'wrong-type', severity: 'error', message: l10n.t('"{0}" holds {1}: {2}.', name, typeWords, describeJson(v)) });
      continue;
    }
    const values = kind === 'string' ? allowedValues(col) : undefined;
    if (values && typeof v === 'string' && !values.includes(v)) {
      const near = closestName(v, values.filter((x) => x !== ''));
      out.push({
        ...spanOf(el),
        code: 'unknown-value',
        severity: 'error',
        message: l10n.t('"{0}" is not a value of "{1}".{2} Values: {3}.', v, name, near ? l10n.t(' Did you mean "{0}"?', near) : '', values.map((x) => `"${x}"`).join(', ')),
        fixes: near ? [stringFix(`Change to "${near}"`, spanOf(el), near)] : [],
      });
    }
  }
  return out;
}

function betweenProblem(c: ConditionRef): QueryDiagnostic | undefined {
  if (c.op !== 'between' || c.value?.type !== 'array') return undefined;
  const v = valueOf(c.value);
  if (!Array.isArray(v) || v.length !== 2 || typeof v[0] !== 'number' || typeof v[1] !== 'number' || v[0] <= v[1]) return undefined;
  const [lo, hi] = [v[1], v[0]];
  return {
    ...spanOf(c.value),
    code: 'between-order',
    severity: 'error',
    message: l10n.t('"between" takes [min, max]: {0} is above {1}, so no wallet can match (and the query would still cost 100 credits).', v[0], v[1]),
    fixes: [{ title: l10n.t('Swap to [{0}, {1}]', lo, hi), edits: [{ ...spanOf(c.value), content: `[${lo}, ${hi}]` }] }],
  };
}

/**
 * The most significant digits a query number may have: every decimal of 15 significant digits
 * or fewer survives the trip through a double (the value the client sends) unchanged; one of 16
 * or more may come out as another number.
 */
const MAX_EXACT_DIGITS = 15;

/** Significant digits of a JSON number literal: zeros that only place the point do not count. */
function significantDigits(literal: string): number {
  const mantissa = literal.replace(/^-/u, '').split(/[eE]/u)[0] ?? '';
  return mantissa.replace('.', '').replace(/^0+/u, '').replace(/0+$/u, '').length;
}

/**
 * Why the number written `literal` (a JSON number, or digits typed in a prompt) would not be sent
 * as written, for a condition on `field`; undefined when it would. The one rule for every path.
 */
export function inexactNumberProblem(literal: string, field?: string): string | undefined {
  const value = Number(literal);
  const digits = significantDigits(literal);
  if (Number.isFinite(value) && digits <= MAX_EXACT_DIGITS) return undefined;
  const on = field ? `"${field}": ` : '';
  const rule = l10n.t('a query number has at most {0} significant digits, so it is sent exactly as written', MAX_EXACT_DIGITS);
  return Number.isFinite(value)
    ? l10n.t('{0}{1} has {2} significant digits and would be sent as {3}; {4}. Round it.', on, literal, digits, JSON.stringify(value), rule)
    : l10n.t('{0}{1} is beyond the largest number a query can send; {2}.', on, literal, rule);
}

/** Numbers in a condition's value that would not be sent as written. */
function inexactNumbers(c: ConditionRef, text: string): QueryDiagnostic[] {
  if (!c.value) return [];
  const out: QueryDiagnostic[] = [];
  for (const el of elements(c.value)) {
    if (el.type !== 'number' || typeof el.value !== 'number') continue;
    const message = inexactNumberProblem(text.slice(el.offset, el.offset + el.length), c.field?.name);
    if (!message) continue;
    const rounded = Number.isFinite(el.value) ? JSON.stringify(Number(el.value.toPrecision(MAX_EXACT_DIGITS))) : undefined;
    out.push({
      ...spanOf(el),
      code: 'inexact-number',
      severity: 'error',
      message,
      fixes: rounded ? [{ title: `Round to ${rounded}`, edits: [{ ...spanOf(el), content: rounded }] }] : [],
    });
  }
  return out;
}

function emptyGroup(g: GroupRef): QueryDiagnostic | undefined {
  if (!g.array || (g.array.children ?? []).length > 0) return undefined;
  const span = { offset: g.keySpan.offset, length: g.array.offset + g.array.length - g.keySpan.offset };
  return {
    ...span,
    code: 'empty-group',
    severity: 'error',
    message:
      g.kind === 'and'
        ? l10n.t('Empty "and" group: it holds for every wallet, so it filters nothing (the bill is 100 credits per matching wallet). Add a condition, or remove the group.')
        : l10n.t('Empty "or" group: it holds for no wallet, so nothing inside its parent can match. Add a condition, or remove the group.'),
  };
}

/** The conditions an AND group requires together: its own and those of AND groups nested in it. */
function conjuncts(g: GroupRef, out: ConditionRef[] = []): ConditionRef[] {
  for (const child of g.children) {
    if (isCondition(child)) out.push(child);
    else if (child.kind === 'and') conjuncts(child, out);
  }
  return out;
}

function constraintOf(c: ConditionRef): Constraint | undefined {
  if (!c.op || !(OPERATORS as readonly string[]).includes(c.op)) return undefined;
  const v = valueOf(c.value);
  const scalar = (x: unknown): x is Scalar => typeof x === 'number' || typeof x === 'string' || typeof x === 'boolean';
  if (Array.isArray(v) ? !v.every(scalar) : !scalar(v)) return undefined;
  return { op: c.op as Operator, value: v as Scalar | Scalar[] };
}

function contradictions(g: GroupRef, flagged: ReadonlySet<ConditionRef>): QueryDiagnostic[] {
  const byField = new Map<string, { ref: ConditionRef; c: Constraint }[]>();
  for (const ref of conjuncts(g)) {
    if (!ref.field || flagged.has(ref)) continue;
    const c = constraintOf(ref);
    if (!c) continue;
    byField.set(ref.field.name, [...(byField.get(ref.field.name) ?? []), { ref, c }]);
  }
  const out: QueryDiagnostic[] = [];
  for (const [field, list] of byField) {
    if (list.length < 2) continue;
    const i = firstContradiction(list.map((x) => x.c));
    const at = i === undefined ? undefined : list[i];
    if (i === undefined || !at) continue;
    const earlier = list.slice(0, i);
    out.push({
      ...spanOf(at.ref.node),
      code: 'contradiction',
      severity: 'warning',
      message: l10n.t('Contradictory conditions in an "and" group: no wallet can have {0}. The query matches nothing and still costs 100 credits.', [...earlier, at].map((x) => conditionText(field, x.c)).join(' and ')),
      related: earlier.map((x) => ({ ...spanOf(x.ref.node), message: l10n.t('{0} (contradicted below)', conditionText(field, x.c)) })),
    });
  }
  return out;
}

function limitProblem(outline: QueryOutline, text: string): QueryDiagnostic | undefined {
  if (outline.limit || !outline.root) return undefined;
  return {
    offset: outline.root.offset,
    length: 1,
    code: 'no-limit',
    severity: 'error',
    message: l10n.t('No "limit": say how many addresses to return at most (1 to 100,000). The bill follows the number of matches, not the limit.'),
    fixes: [{ title: l10n.t('Add "limit": 100'), edits: modify(text, ['limit'], 100, FORMAT) }],
  };
}
