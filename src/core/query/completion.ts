/**
 * Where the cursor is in a `.waquery.json`, for completions: at a field name (a condition's
 * "field", a sort key's "field", an entry of "columns") or at a condition's value. Pure.
 */
import { findNodeAtLocation, getLocation, parseTree, type JSONPath } from 'jsonc-parser';
import { PARSE_OPTIONS, propertyValue, type FieldRef, type Span } from './outline';

type CompletionContext =
  | { readonly kind: 'field'; readonly role: FieldRef['role']; readonly replace?: Span }
  | { readonly kind: 'value'; readonly field: string; readonly replace?: Span };

/** Whether a path leads through where/and|or/index… to a condition (or is the where group itself). */
function isConditionPath(path: JSONPath): boolean {
  if (path[0] !== 'where') return false;
  let i = 1;
  while (i + 1 < path.length) {
    if ((path[i] !== 'and' && path[i] !== 'or') || typeof path[i + 1] !== 'number') return false;
    i += 2;
  }
  return i === path.length && path.length >= 3;
}

/** What can be completed at offset, or undefined. */
export function completionContextAt(text: string, offset: number): CompletionContext | undefined {
  const loc = getLocation(text, offset);
  if (loc.isAtPropertyKey) return undefined;
  const path = loc.path;
  const prev = loc.previousNode;
  // Inside a string literal (between its quotes): replace the whole literal.
  const inString = prev?.type === 'string' && offset > prev.offset && offset < prev.offset + prev.length + (text[prev.offset + prev.length - 1] === '"' && prev.length > 1 ? 0 : 1);
  const replace = inString && prev ? { offset: prev.offset, length: prev.length } : undefined;
  const last = path[path.length - 1];
  if (last === 'field') {
    const owner = path.slice(0, -1);
    if (isConditionPath(owner)) return { kind: 'field', role: 'condition', replace };
    if (owner.length === 2 && owner[0] === 'sort' && typeof owner[1] === 'number') return { kind: 'field', role: 'sort', replace };
    return undefined;
  }
  if (path.length === 2 && path[0] === 'columns' && typeof path[1] === 'number') return { kind: 'field', role: 'column', replace };
  const valueAt = path.lastIndexOf('value');
  if (valueAt > 0 && (valueAt === path.length - 1 || (valueAt === path.length - 2 && typeof last === 'number'))) {
    const owner = path.slice(0, valueAt);
    if (!isConditionPath(owner)) return undefined;
    const root = parseTree(text, [], PARSE_OPTIONS);
    const field = propertyValue(root ? findNodeAtLocation(root, owner) : undefined, 'field');
    if (field?.type === 'string' && typeof field.value === 'string') return { kind: 'value', field: field.value, replace };
  }
  return undefined;
}
