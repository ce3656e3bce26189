/**
 * The pipeline file (`*.wapipe.json`, issue 24): a trader's chain of calls written once, as plain
 * JSON a person reads in a diff. It holds the steps and nothing else: no result, no price paid, no
 * key (results live beside it on disk, the key in SecretStorage), so it can be committed and shared.
 *
 * Why this shape: one cell is one step, named, so a later step can say where its input comes from
 * with a reference that reads as a sentence (`{"from": "traders", "top": 5000}`: "the first 5,000
 * of traders"; `"by": "pnl_usd"` sorts first, largest first). A step is either a call of a catalog
 * endpoint (`call` + `inputs`, checked by the catalog's own schemas once references are filled in)
 * or a local step over earlier results that costs nothing (`take`: one column's values, optionally
 * the top N by another column; `filter`: the rows of a result that pass the table's own column
 * filters, src/core/pipeline/filter.ts; `sets`: intersect, union or subtract address lists). References may
 * only point up: a forward reference or a cycle is refused at the cell that makes it, so the order
 * of the file is the order of the run. Pure: no file access, no VS Code.
 */
import { z } from 'zod';
import { findEndpoint, validateInput, type Endpoint } from '../spec/catalog';
import { errorText } from '../errors';
import { l10n } from '../l10n';
import { lazySchema } from '../lazySchema';

/** `{"from": cell, "column"?, "top"?, "by"?}`: the values of an earlier cell's result. */
export const Reference = lazySchema(() => z.strictObject({
  from: z.string().min(1),
  /** The column whose values are taken; the result's address column when left out. */
  column: z.string().min(1).optional(),
  /** At most this many values (the first ones, or the largest by `by`). */
  top: z.number().int().positive().optional(),
  /** Sort by this column, largest first, before taking `top`. */
  by: z.string().min(1).optional(),
}));
export type Reference = z.infer<typeof Reference>;

const NAME = lazySchema(() => z.string().regex(/^[A-Za-z][\w-]{0,39}$/u, { error: 'A cell name is a letter then up to 39 letters, digits, "_" or "-".' }));

const CallCell = lazySchema(() => z.strictObject({ name: NAME, call: z.string().min(1), inputs: z.record(z.string(), z.unknown()).default({}) }));
const TakeCell = lazySchema(() => z.strictObject({ name: NAME, take: Reference }));
const SetsCell = lazySchema(() => z.strictObject({
  name: NAME,
  sets: z.strictObject({ op: z.enum(['intersect', 'union', 'subtract']), of: z.array(z.union([z.string().min(1), Reference])).min(2) }),
}));
/**
 * One condition of a filter step, in the table's own filter terms (src/core/table/types.ts
 * ColumnFilter): ">=" and "<=" are a range's inclusive bounds, "between" both, "contains" a text
 * (any case), "empty" and "nonEmpty" no value. A bound may be written as a string of digits, so a
 * number longer than a double holds ("123456789012345678901") is compared at every digit.
 */
export const FilterCondition = lazySchema(() => z.discriminatedUnion('op', [
  z.strictObject({ column: z.string().min(1), op: z.enum(['>=', '<=']), value: z.union([z.number(), z.string().min(1)]) }),
  z.strictObject({ column: z.string().min(1), op: z.literal('between'), value: z.tuple([z.union([z.number(), z.string().min(1)]), z.union([z.number(), z.string().min(1)])]) }),
  z.strictObject({ column: z.string().min(1), op: z.literal('contains'), value: z.string().min(1) }),
  z.strictObject({ column: z.string().min(1), op: z.enum(['empty', 'nonEmpty']) }),
]));
export type FilterCondition = z.infer<typeof FilterCondition>;

const FilterCell = lazySchema(() => z.strictObject({ name: NAME, filter: z.strictObject({ from: z.string().min(1), where: z.array(FilterCondition).min(1) }) }));
type FilterCell = z.infer<typeof FilterCell>;

export const PipelineCell = lazySchema(() => z.union([CallCell, TakeCell, FilterCell, SetsCell]));
export type PipelineCell = z.infer<typeof PipelineCell>;
export type CallCell = z.infer<typeof CallCell>;

/** The file: a version and the cells in run order. A cell still being typed is kept as its raw text. */
export const PipelineFile = lazySchema(() => z.strictObject({
  version: z.literal(1),
  cells: z.array(z.union([PipelineCell, z.string()])),
}));
export type PipelineFile = z.infer<typeof PipelineFile>;

export const PIPELINE_EXTENSION = '.wapipe.json';

/** Whether an input value is a reference to an earlier cell (an object with `from` and nothing foreign). */
export function asReference(v: unknown): Reference | undefined {
  if (!v || typeof v !== 'object' || Array.isArray(v) || !('from' in v)) return undefined;
  const r = Reference.safeParse(v);
  return r.success ? r.data : undefined;
}

/** The references a cell makes, in the order written. */
export function referencesOf(cell: PipelineCell): Reference[] {
  if ('take' in cell) return [cell.take];
  if ('filter' in cell) return [{ from: cell.filter.from }];
  if ('sets' in cell) return cell.sets.of.map((x) => (typeof x === 'string' ? { from: x } : x));
  return Object.values(cell.inputs).flatMap((v) => {
    const r = asReference(v);
    return r ? [r] : [];
  });
}

/** One cell's problems, said at the cell (index in the file), at `path` in its JSON when one part is wrong. */
interface CellProblem {
  readonly index: number;
  readonly name?: string;
  readonly message: string;
  /** Where in the cell's JSON (jsonc-parser's path), e.g. ["inputs", "hours"]; the whole cell when absent. */
  readonly path?: readonly (string | number)[];
}

/** The references a cell makes, each with where it is written in the cell. */
function referencesAt(cell: PipelineCell): { ref: Reference; path: (string | number)[] }[] {
  if ('take' in cell) return [{ ref: cell.take, path: ['take', 'from'] }];
  if ('filter' in cell) return [{ ref: { from: cell.filter.from }, path: ['filter', 'from'] }];
  if ('sets' in cell) return cell.sets.of.map((x, i) => (typeof x === 'string' ? { ref: { from: x }, path: ['sets', 'of', i] } : { ref: x, path: ['sets', 'of', i, 'from'] }));
  return Object.entries(cell.inputs).flatMap(([k, v]) => {
    const r = asReference(v);
    return r ? [{ ref: r, path: ['inputs', k, 'from'] }] : [];
  });
}

/**
 * Checks a pipeline as a whole: every cell parses, names are unique, calls name a known endpoint
 * whose fixed inputs pass its schema, and every reference points to an earlier cell (a later one or
 * the cell itself is refused: that is how cycles are ruled out). A Wallet Database query's own
 * checks (its fields against the server's list) are cellChecks.ts's, as in a `.waquery.json`.
 */
export function checkPipeline(file: PipelineFile): CellProblem[] {
  const problems: CellProblem[] = [];
  const seen = new Map<string, number>();
  const all = new Map<string, number>();
  file.cells.forEach((c, i) => {
    if (typeof c !== 'string' && !all.has(c.name)) all.set(c.name, i);
  });
  file.cells.forEach((c, index) => {
    if (typeof c === 'string') {
      problems.push({ index, message: l10n.t('Cell {0} is not a step yet: {1}', index + 1, cellProblem(c) ?? l10n.t('unknown problem')) });
      return;
    }
    const { name } = c;
    if (seen.has(name)) problems.push({ index, name, path: ['name'], message: l10n.t('The name “{0}” is already used by cell {1}; cell names must be unique.', name, (seen.get(name) ?? 0) + 1) });
    for (const { ref: r, path } of referencesAt(c)) {
      const at = seen.get(r.from);
      if (at === undefined) {
        const later = all.get(r.from);
        if (r.from === name) problems.push({ index, name, path, message: l10n.t('“{0}” refers to itself; a cell can only use earlier cells’ results.', name) });
        else if (later !== undefined) problems.push({ index, name, path, message: l10n.t('“{0}” uses “{1}”, which comes later (cell {2}); move it above, a cell can only use earlier results.', name, r.from, later + 1) });
        else problems.push({ index, name, path, message: l10n.t('“{0}” uses “{1}”, but no cell has that name.', name, r.from) });
      }
      if (r.by !== undefined && r.top === undefined) problems.push({ index, name, path: path.slice(0, -1), message: l10n.t('“{0}”: “by” sorts before taking “top”; give “top” too.', name) });
    }
    if ('call' in c) {
      const ep = findEndpoint(c.call);
      if (!ep) problems.push({ index, name, path: ['call'], message: l10n.t('“{0}” calls “{1}”, which is not an endpoint of the service.', name, c.call) });
      else for (const m of fixedInputProblems(ep, c.inputs)) problems.push({ index, name, path: m.key === undefined ? ['inputs'] : ['inputs', m.key], message: `“${name}”: ${m.message}` });
    }
    if (!seen.has(name)) seen.set(name, index);
  });
  return problems;
}

/**
 * The schema's problems with a call's inputs, each with the input it is about (by the key the
 * validator gives it, never by its words); the fields references fill are checked once filled in
 * (at run time), so a problem about one of them is left out.
 */
function fixedInputProblems(ep: Endpoint, inputs: Record<string, unknown>): { message: string; key?: string }[] {
  const v = validateInput(ep, inputs);
  if (v.ok) return [];
  const refs = new Set(Object.keys(inputs).filter((k) => asReference(inputs[k]) !== undefined));
  return v.problems
    .filter((p) => !(p.field !== undefined && refs.has(p.field)) && !(p.involves ?? []).some((k) => refs.has(k)))
    .map(({ message, field }) => (field !== undefined && field in inputs ? { message, key: field } : { message }));
}

/** Why one cell's text is not a step, or undefined when it is. */
function cellProblem(text: string): string | undefined {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    return l10n.t('its text is not JSON ({0}).', errorText(e));
  }
  const r = PipelineCell.safeParse(raw);
  if (r.success) return undefined;
  return l10n.t('a step is {"name", "call", "inputs"} (a call), {"name", "take": {"from", …}}, {"name", "filter": {"from", "where": [{"column", "op", "value"}]}} or {"name", "sets": {"op", "of"}} (local steps).');
}

/** Reads a pipeline file's text; a file that is not one throws with a message a person can act on. */
export function parsePipeline(text: string): PipelineFile {
  if (text.trim() === '') return { version: 1, cells: [] };
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw new Error(l10n.t('This pipeline file is not JSON: {0}', errorText(e)), { cause: e });
  }
  const r = PipelineFile.safeParse(raw);
  if (!r.success) throw new Error(l10n.t('This is not a pipeline file: it is {"version": 1, "cells": [...]}.'));
  return r.data;
}

/** One cell's text as written in the notebook: the step if it parses, else the text itself (kept, never lost). */
export function cellFromText(text: string): PipelineCell | string {
  try {
    const r = PipelineCell.safeParse(JSON.parse(text));
    return r.success ? r.data : text;
  } catch {
    return text;
  }
}

/** The file's text: stable, two-space JSON with a final newline, readable in a diff. */
export function serializePipeline(file: PipelineFile): string {
  return `${JSON.stringify(file, null, 2)}\n`;
}

/** A cell's text in the notebook editor. */
export function cellText(cell: PipelineCell | string): string {
  return typeof cell === 'string' ? cell : JSON.stringify(cell, null, 2);
}

/** The shipped example (spec §8.4): trending → top traders of its first 10 tokens → PnL of up to 5,000 of their wallets. */
export function examplePipeline(): PipelineFile {
  return {
    version: 1,
    cells: [
      { name: 'trending', call: 'trending', inputs: { hours: 1 } },
      { name: 'traders', call: 'toptraders', inputs: { tokens: { from: 'trending', top: 10 }, output: 'txt' } },
      { name: 'pnl', call: 'pnl', inputs: { wallets: { from: 'traders', top: 5000 } } },
    ],
  };
}
