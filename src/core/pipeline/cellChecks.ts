/**
 * The checks of a pipeline notebook's cells as an editor shows them (issue 24): each problem of
 * checkPipeline (format.ts) placed at the part of the cell it is about, and a Wallet Database
 * cell's query checked as a `.waquery.json` file is (src/core/query/analyze.ts, with the server's
 * field list and the endpoint's chain), at the same characters. The plan runs the same checks and
 * refuses a cell with the same message, so what the editor underlines is what stops a run.
 *
 * The query of a cell is read in place: the cell's text with everything outside `inputs.query`
 * blanked (queryView), so every offset the query language finds is an offset of the cell.
 * Pure: text in, diagnostics with offsets out.
 */
import { findNodeAtLocation, getNodeValue, parseTree, printParseErrorCode, type Node, type ParseError } from 'jsonc-parser';
import type { Chain } from '../spec/addresses';
import { findEndpoint, type Endpoint } from '../spec/catalog';
import { analyzeQuery, inexactNumberProblem, type QueryDiagnostic } from '../query/analyze';
import type { ChainColumns } from '../query/fields';
import { QueryBody } from '../spec/queryModel';
import { PARSE_OPTIONS } from '../query/outline';
import { cellFromText, checkPipeline, type PipelineFile } from './format';
import { l10n } from '../l10n';

export interface CellDiagnostic {
  /** The cell's index among the notebook's code cells. */
  readonly index: number;
  readonly offset: number;
  readonly length: number;
  readonly severity: 'error' | 'warning';
  readonly message: string;
  /** Set for a query's own diagnostics (its code in analyze.ts), so their quick fixes apply. */
  readonly query?: QueryDiagnostic;
}

/** A Wallet Database cell's query: where it is in the cell, and the chain its endpoint queries. */
export interface QueryView {
  readonly endpoint: Endpoint;
  readonly chain: Chain;
  readonly offset: number;
  readonly length: number;
  /** The cell's text with everything but the query blanked: offsets are the cell's. */
  readonly text: string;
}

function tree(text: string): Node | undefined {
  return parseTree(text, [], PARSE_OPTIONS);
}

/** The query of a Wallet Database call cell (`{"call": "wallet_database", "inputs": {"query": {...}}}`), or undefined. */
export function queryView(text: string): QueryView | undefined {
  const root = tree(text);
  if (!root) return undefined;
  const call = findNodeAtLocation(root, ['call']);
  const ep = typeof call?.value === 'string' ? findEndpoint(call.value) : undefined;
  if (!ep || ep.price.kind !== 'perMatch') return undefined;
  const q = findNodeAtLocation(root, ['inputs', 'query']);
  if (q?.type !== 'object') return undefined;
  // Spaces keep every offset; line ends are kept too, so a line number is the cell's.
  const blank = (s: string): string => s.replace(/[^\n]/gu, ' ');
  const masked = blank(text.slice(0, q.offset)) + text.slice(q.offset, q.offset + q.length) + blank(text.slice(q.offset + q.length));
  return { endpoint: ep, chain: ep.chain, offset: q.offset, length: q.length, text: masked };
}

/** The span of `path` in a cell's text (the value's node, or its key's property), else the whole cell. */
function spanAt(text: string, path: readonly (string | number)[] | undefined): { offset: number; length: number } {
  const root = tree(text);
  const node = root && path ? findNodeAtLocation(root, [...path]) : undefined;
  if (node) return { offset: node.offset, length: node.length };
  // A missing input: at its parent ("inputs"), so the person sees where it belongs.
  const parent = root && path && path.length > 1 ? findNodeAtLocation(root, [...path.slice(0, -1)]) : undefined;
  if (parent) return { offset: parent.offset, length: Math.min(parent.length, 1) };
  return { offset: 0, length: text.length };
}

/** Why a cell's text is not JSON, at the first error. */
function syntaxProblem(text: string): { offset: number; length: number; message: string } | undefined {
  const errors: ParseError[] = [];
  parseTree(text, errors, { ...PARSE_OPTIONS, disallowComments: true });
  const e = errors[0];
  return e ? { offset: e.offset, length: Math.max(1, e.length), message: l10n.t('The cell is not JSON: {0}.', printParseErrorCode(e.error)) } : undefined;
}

type Issue = { readonly code: string; readonly path: readonly PropertyKey[]; readonly message: string; readonly errors?: readonly (readonly Issue[])[] };

/** A union's issue (a group that is neither "and" nor "or") said by its closest branch: the one whose problem is deepest. */
function leaves(i: Issue, prefix: readonly PropertyKey[] = []): Issue[] {
  const path = [...prefix, ...i.path];
  if (i.code !== 'invalid_union' || !i.errors?.length) return [{ ...i, path }];
  const branches = i.errors.map((b) => b.flatMap((x) => leaves(x, path)));
  const depth = (b: Issue[]): number => Math.max(...b.map((x) => x.path.length));
  const best = branches.reduce((a, b) => (depth(b) > depth(a) ? b : a));
  return best.length > 0 ? best : [{ ...i, path }];
}

/** A query's structure problems (its zod model), each at the part it is about; the model's value rules and a missing limit are analyzeQuery's. */
function queryStructure(text: string, index: number, analysed: readonly QueryDiagnostic[]): CellDiagnostic[] {
  const root = tree(text);
  const node = root && findNodeAtLocation(root, ['inputs', 'query']);
  const r = QueryBody.safeParse(node ? getNodeValue(node) : undefined);
  if (r.success) return [];
  const noLimit = analysed.some((d) => d.code === 'no-limit');
  return r.error.issues
    .flatMap((i) => leaves(i as Issue))
    .filter((i) => i.code !== 'custom' && !(noLimit && i.path[0] === 'limit'))
    .map((i) => {
      const path = i.path.filter((p): p is string | number => typeof p !== 'symbol');
      const where = path.length > 0 ? `${path.join('.')}: ` : '';
      return { index, ...spanAt(text, ['inputs', 'query', ...path]), severity: 'error' as const, message: l10n.t('Query: {0}{1}', where, i.message) };
    });
}

/** A filter bound written as a JSON number a double cannot carry: the query language's one rule, and the way out (a string). */
function filterNumbers(text: string, index: number): CellDiagnostic[] {
  const root = tree(text);
  const where = root && findNodeAtLocation(root, ['filter', 'where']);
  const out: CellDiagnostic[] = [];
  for (const cond of where?.children ?? []) {
    const v = findNodeAtLocation(cond, ['value']);
    const column = findNodeAtLocation(cond, ['column'])?.value;
    for (const n of v?.type === 'array' ? (v.children ?? []) : v ? [v] : []) {
      if (n.type !== 'number') continue;
      const literal = text.slice(n.offset, n.offset + n.length);
      const problem = inexactNumberProblem(literal, typeof column === 'string' ? column : undefined);
      if (problem) out.push({ index, offset: n.offset, length: n.length, severity: 'error', message: l10n.t('{0} In a filter, write it as a string ("{1}") to compare every digit.', problem, literal) });
    }
  }
  return out;
}

/**
 * Every diagnostic of a notebook's cells (their texts, in order), with the server's field lists when
 * known (a query's fields are checked only then, as in a `.waquery.json`).
 */
export function checkCells(texts: readonly string[], columns?: ChainColumns): CellDiagnostic[] {
  const file: PipelineFile = { version: 1, cells: texts.map(cellFromText) };
  const out: CellDiagnostic[] = [];
  const views = texts.map((t) => queryView(t));
  for (const p of checkPipeline(file)) {
    const text = texts[p.index] ?? '';
    // A query's problems are said by the query language below, each where it is.
    if (views[p.index] && p.path?.[0] === 'inputs' && p.path[1] === 'query') continue;
    const syntax = typeof file.cells[p.index] === 'string' ? syntaxProblem(text) : undefined;
    if (syntax) out.push({ index: p.index, offset: syntax.offset, length: syntax.length, severity: 'error', message: syntax.message });
    else out.push({ index: p.index, ...spanAt(text, p.path), severity: 'error', message: p.message });
  }
  texts.forEach((text, index) => {
    const view = views[index];
    if (view) {
      const analysed = analyzeQuery(view.text, columns, { chain: view.chain });
      out.push(...queryStructure(text, index, analysed));
      for (const d of analysed) out.push({ index, offset: d.offset, length: d.length, severity: d.severity, message: d.message, query: d });
    }
    if (typeof file.cells[index] !== 'string') out.push(...filterNumbers(text, index));
  });
  return out.sort((a, b) => a.index - b.index || a.offset - b.offset);
}

/** The first error of a notebook's cells, as the plan refuses it: "<cell>: <message>". */
export function firstCellError(texts: readonly string[], columns?: ChainColumns): CellDiagnostic | undefined {
  return checkCells(texts, columns).find((d) => d.severity === 'error');
}
