/**
 * What can be completed where the cursor is in a pipeline cell (issue 24 item 1): an endpoint id
 * at "call", an earlier cell's name at a "from", a call's input names (from the catalog's own
 * fields) and an enum input's values, and inside a Wallet Database cell's query whatever a
 * `.waquery.json` completes there (the caller hands the query's view to the query language).
 * Pure: text and offset in, a context out.
 */
import { findNodeAtLocation, findNodeAtOffset, getLocation, parseTree } from 'jsonc-parser';
import { findEndpoint, type Endpoint } from '../spec/catalog';
import type { FieldSpec } from '../spec/fields';
import { PARSE_OPTIONS, type Span } from '../query/outline';
import { queryView, type QueryView } from './cellChecks';

type CellCompletion =
  | { readonly kind: 'endpoint'; readonly replace?: Span }
  | { readonly kind: 'cell'; readonly replace?: Span }
  | { readonly kind: 'inputKey'; readonly endpoint: Endpoint; readonly present: readonly string[]; readonly replace?: Span }
  | { readonly kind: 'inputValue'; readonly endpoint: Endpoint; readonly field: FieldSpec; readonly replace?: Span }
  | { readonly kind: 'query'; readonly view: QueryView };

/** The endpoint a cell calls, when its "call" names one. */
function endpointOf(text: string): Endpoint | undefined {
  const root = parseTree(text, [], PARSE_OPTIONS);
  const call = root && findNodeAtLocation(root, ['call']);
  return typeof call?.value === 'string' ? findEndpoint(call.value) : undefined;
}

/** The input keys a call cell already has. */
function inputKeys(text: string): string[] {
  const root = parseTree(text, [], PARSE_OPTIONS);
  const inputs = root && findNodeAtLocation(root, ['inputs']);
  return (inputs?.children ?? []).flatMap((p) => (typeof p.children?.[0]?.value === 'string' ? [p.children[0].value as string] : []));
}

/** What the cursor at `offset` of a cell's text can be completed with, or undefined. */
export function cellCompletionAt(text: string, offset: number): CellCompletion | undefined {
  const view = queryView(text);
  if (view && offset > view.offset && offset < view.offset + view.length) return { kind: 'query', view };
  const loc = getLocation(text, offset);
  const path = loc.path;
  const prev = loc.previousNode;
  // Inside a string literal (between its quotes): replace the whole literal.
  const inString = prev?.type === 'string' && offset > prev.offset && offset < prev.offset + prev.length + (text[prev.offset + prev.length - 1] === '"' && prev.length > 1 ? 0 : 1);
  const replace = inString && prev ? { offset: prev.offset, length: prev.length } : undefined;
  const r = replace ? { replace } : {};
  const last = path[path.length - 1];
  if (loc.isAtPropertyKey) {
    const ep = path.length === 2 && path[0] === 'inputs' ? endpointOf(text) : undefined;
    if (!ep) return undefined;
    // On a key already written: it is replaced whole, and it is not one of the keys "present" (it may be chosen again).
    const root = parseTree(text, [], PARSE_OPTIONS);
    const key = root && findNodeAtOffset(root, offset);
    const on = key?.type === 'string' && key.parent?.type === 'property' && key.parent.children?.[0] === key ? key : undefined;
    const present = inputKeys(text).filter((k) => k !== on?.value);
    return { kind: 'inputKey', endpoint: ep, present, ...(on ? { replace: { offset: on.offset, length: on.length } } : r) };
  }
  if (path.length === 1 && last === 'call') return { kind: 'endpoint', ...r };
  if (last === 'from' || (path.length === 3 && path[0] === 'sets' && path[1] === 'of' && typeof last === 'number')) return { kind: 'cell', ...r };
  if (path.length === 2 && path[0] === 'inputs' && typeof last === 'string') {
    const ep = endpointOf(text);
    const field = ep?.fields.find((f) => f.key === last);
    if (ep && field?.options) return { kind: 'inputValue', endpoint: ep, field, ...r };
  }
  return undefined;
}

/** The input field whose key the cursor is on (for a hover), or undefined. */
export function inputFieldAt(text: string, offset: number): FieldSpec | undefined {
  const loc = getLocation(text, offset);
  if (!loc.isAtPropertyKey || loc.path.length !== 2 || loc.path[0] !== 'inputs') return undefined;
  const key = loc.path[1];
  return endpointOf(text)?.fields.find((f) => f.key === key);
}
