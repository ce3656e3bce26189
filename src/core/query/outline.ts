/**
 * A `.waquery.json` file read as a tree with offsets (jsonc-parser's parseTree), tolerant of a
 * file half typed: the groups, conditions and field names found, each with where it is, so
 * diagnostics, completions and hovers can point at the right characters.
 */
import { getNodeValue, parseTree, type Node, type ParseError } from 'jsonc-parser';
import type { Chain } from '../spec/addresses';

/** A range of the text: offset and length in UTF-16 code units, as editors count. */
export interface Span {
  readonly offset: number;
  readonly length: number;
}

/** A field name written in the file: a condition's, a sort key's or a column's. */
export interface FieldRef {
  readonly name: string;
  /** The string literal, quotes included. */
  readonly span: Span;
  readonly role: 'condition' | 'sort' | 'column';
}

export interface ConditionRef {
  readonly node: Node;
  readonly field?: FieldRef;
  /** The operator when it is a string. */
  readonly op?: string;
  readonly opSpan?: Span;
  /** The value node, whatever its type. */
  readonly value?: Node;
  readonly parent: GroupRef;
}

export interface GroupRef {
  readonly kind: 'and' | 'or';
  /** The `{"and": [...]}` object. */
  readonly node: Node;
  /** The `"and"` key. */
  readonly keySpan: Span;
  /** The array, when the key holds one. */
  readonly array?: Node;
  readonly children: (ConditionRef | GroupRef)[];
  readonly parent?: GroupRef;
}

export interface QueryOutline {
  readonly text: string;
  readonly root: Node | undefined;
  readonly parseErrors: readonly ParseError[];
  /** From `$chain` ("main" when absent or not a chain). */
  readonly chain: Chain;
  readonly where?: GroupRef;
  readonly limit?: Node;
  readonly groups: readonly GroupRef[];
  readonly conditions: readonly ConditionRef[];
  /** Every field name in the file, in text order. */
  readonly fields: readonly FieldRef[];
}

export const PARSE_OPTIONS = { allowTrailingComma: true, disallowComments: false, allowEmptyContent: true } as const;

export function spanOf(n: Node): Span {
  return { offset: n.offset, length: n.length };
}

/** The value node of an object's property, or undefined. */
export function propertyValue(obj: Node | undefined, key: string): Node | undefined {
  if (obj?.type !== 'object') return undefined;
  for (const p of obj.children ?? []) {
    const [k, v] = p.children ?? [];
    if (k?.value === key) return v;
  }
  return undefined;
}

function propertyKey(obj: Node, key: string): Node | undefined {
  for (const p of obj.children ?? []) {
    const k = p.children?.[0];
    if (k?.value === key) return k;
  }
  return undefined;
}

export function isCondition(n: ConditionRef | GroupRef): n is ConditionRef {
  return !('kind' in n);
}

/** Reads the file's tree. Never throws; what cannot be read is left out. */
export function outlineQuery(text: string): QueryOutline {
  const parseErrors: ParseError[] = [];
  const root = parseTree(text, parseErrors, PARSE_OPTIONS);
  const groups: GroupRef[] = [];
  const conditions: ConditionRef[] = [];
  const fields: FieldRef[] = [];
  const fieldOf = (n: Node | undefined, role: FieldRef['role']): FieldRef | undefined => {
    if (n?.type !== 'string' || typeof n.value !== 'string') return undefined;
    const f = { name: n.value, span: spanOf(n), role };
    fields.push(f);
    return f;
  };

  const readNode = (n: Node, parent: GroupRef): ConditionRef | GroupRef | undefined => {
    if (n.type !== 'object') return undefined;
    const g = readGroup(n, parent);
    if (g) return g;
    const fieldNode = propertyValue(n, 'field');
    const opNode = propertyValue(n, 'op');
    const value = propertyValue(n, 'value');
    if (!fieldNode && !opNode && !value) return undefined;
    const c: ConditionRef = {
      node: n,
      field: fieldOf(fieldNode, 'condition'),
      op: opNode?.type === 'string' ? String(opNode.value) : undefined,
      opSpan: opNode ? spanOf(opNode) : undefined,
      value,
      parent,
    };
    conditions.push(c);
    return c;
  };

  const readGroup = (n: Node, parent?: GroupRef): GroupRef | undefined => {
    if (n.type !== 'object') return undefined;
    for (const kind of ['and', 'or'] as const) {
      const key = propertyKey(n, kind);
      if (!key) continue;
      const arr = propertyValue(n, kind);
      const g: GroupRef = { kind, node: n, keySpan: spanOf(key), array: arr?.type === 'array' ? arr : undefined, children: [], parent };
      groups.push(g);
      for (const child of g.array?.children ?? []) {
        const r = readNode(child, g);
        if (r) g.children.push(r);
      }
      return g;
    }
    return undefined;
  };

  const whereNode = propertyValue(root, 'where');
  const where = whereNode ? readGroup(whereNode) : undefined;
  const sort = propertyValue(root, 'sort');
  for (const item of sort?.type === 'array' ? (sort.children ?? []) : []) fieldOf(propertyValue(item, 'field'), 'sort');
  const columns = propertyValue(root, 'columns');
  for (const item of columns?.type === 'array' ? (columns.children ?? []) : []) fieldOf(item, 'column');
  const chainNode = propertyValue(root, '$chain');
  const chain: Chain = chainNode?.value === 'alt' ? 'alt' : 'main';
  fields.sort((a, b) => a.span.offset - b.span.offset);
  conditions.sort((a, b) => a.node.offset - b.node.offset);
  return { text, root, parseErrors, chain, where, limit: propertyValue(root, 'limit'), groups, conditions, fields };
}

/** The field name whose string literal holds offset (the closing quote counts), or undefined. */
export function fieldAt(outline: QueryOutline, offset: number): FieldRef | undefined {
  return outline.fields.find((f) => offset >= f.span.offset && offset <= f.span.offset + f.span.length);
}

/** A node's JSON value (undefined for a missing node). */
export function valueOf(n: Node | undefined): unknown {
  return n ? getNodeValue(n) : undefined;
}
