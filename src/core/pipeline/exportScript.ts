/**
 * "Export Pipeline as Script" (issue 24 item 3): a pipeline written out as one self-contained
 * Python 3 script (requests and the standard library) that runs the same steps with the same
 * checks where the editor is not: a crontab, a CI runner, a server.
 *
 * Why it is built this way:
 * - One owner for each rule. The plan is plan.ts's own, computed here and carried as data (each
 *   line's credits and text, the total); the input checks are the catalog's field specs carried as
 *   data and read by one Python check per field kind; the poll and history paths are the catalog's
 *   entries; the file-URL rule is the snippets' FILE_URL_PATTERN. Nothing is written per endpoint.
 * - Every name and value is data: the pipeline goes into the script as one Python literal whose
 *   every string is made by pyString (notebookCode.ts, the issue-21 rule), never as code.
 * - Each step kind is one small generator here (STEP_KINDS: what the script's data says of a cell)
 *   with one Python function of the same kind in scriptRuntime.ts. A kind without a generator is
 *   refused at export with its name, never exported half-done.
 * - Exported only when the editor would run it: checkPipeline finds no problem (fixed inputs pass
 *   the catalog's validateInput, cross-field rules included) and the plan has a bound for every
 *   line. The key is never in the script: it reads WA_API_KEY.
 * Pure: no file access, no VS Code.
 */
import { ADDRESS_PATTERNS } from '../spec/addresses';
import { findEndpoint, endpoint, shortTitle, type Endpoint } from '../spec/catalog';
import { ADDRESS_NAME, ADDRESS_NAMES, AGREE, NAME_HINT, SAMPLE_ROWS } from '../table/columnKind';
import { UNIX_MAX, UNIX_MIN, type FieldSpec } from '../spec/fields';
import { callHeaders } from '../transport/http';
import { pyString } from '../codegen/notebookCode';
import { FILE_URL_PATTERN } from '../codegen/snippets';
import { asReference, checkPipeline, referencesOf, type CallCell, type FilterCondition, type PipelineCell, type PipelineFile, type Reference } from './format';
import { planPipeline, planText, type Plan } from './plan';
import { SCRIPT_RUNTIME } from './scriptRuntime';
import { l10n } from '../l10n';

/** The environment variable the script reads the key from (as every snippet does). */
const SCRIPT_KEY_VARIABLE = 'WA_API_KEY';

interface ScriptOptions {
  /** The pipeline's name as shown (its file name): data only. */
  readonly name: string;
  /** The connection's base URL; WA_BASE_URL overrides it when the script runs. */
  readonly baseUrl: string;
  /** The folder beside the script its results go to (a plain name: `example.results`). */
  readonly resultsDir: string;
}

type ExportedScript =
  | { readonly ok: true; readonly text: string; readonly plan: Plan }
  | { readonly ok: false; readonly problems: readonly string[] };

type StepData = Record<string, unknown> & { readonly kind: string; readonly name: string };

/** One generator per step kind: what the script's data says of such a cell (the Python side reads it). */
const STEP_KINDS: Readonly<Record<string, (cell: PipelineCell) => StepData>> = {
  call: (c) => callStep(c as CallCell),
  take: (c) => ({ kind: 'take', name: c.name, take: (c as { take: Reference }).take }),
  filter: (c) => {
    const f = (c as { filter: { from: string; where: readonly FilterCondition[] } }).filter;
    return { kind: 'filter', name: c.name, from: f.from, where: f.where };
  },
  sets: (c) => ({ kind: 'sets', name: c.name, op: (c as { sets: { op: string } }).sets.op, of: referencesOf(c) }),
};

/** A call: its fixed inputs, and its references apart (filled from earlier results when it runs). */
function callStep(c: CallCell): StepData {
  const inputs: Record<string, unknown> = {};
  const refs: Record<string, Reference> = {};
  for (const [k, v] of Object.entries(c.inputs)) {
    const r = asReference(v);
    if (r) refs[k] = r;
    else inputs[k] = v;
  }
  return { kind: 'call', name: c.name, call: c.call, inputs, refs };
}

/** The kind of a cell: the first of the kinds this generator knows that the cell has as a key. */
function kindOf(cell: PipelineCell): string | undefined {
  return Object.keys(STEP_KINDS).find((k) => k in cell);
}

/**
 * A JSON value as a Python literal a person can read: strings only through pyString (every name
 * and value is a string literal, never code), numbers as decimal text, true/false/null as Python
 * spells them; a container on one line when short, else one item per line.
 */
function pyLiteral(v: unknown, indent: string): string {
  if (v === null || v === undefined) return 'None';
  if (typeof v === 'boolean') return v ? 'True' : 'False';
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) throw new RangeError(l10n.t('Not a finite number: {0}', v));
    return String(v);
  }
  if (typeof v === 'string') return pyString(v);
  const inner = `${indent}    `;
  const [open, close, items] = Array.isArray(v)
    ? ['[', ']', v.map((x) => pyLiteral(x, inner))]
    : ['{', '}', Object.entries(v as Record<string, unknown>).filter(([, x]) => x !== undefined).map(([k, x]) => `${pyString(k)}: ${pyLiteral(x, inner)}`)];
  const flat = `${open}${items.join(', ')}${close}`;
  if (items.length === 0 || (flat.length + indent.length <= 110 && !flat.includes('\n'))) return flat;
  return `${open}\n${items.map((x) => `${inner}${x},`).join('\n')}\n${indent}${close}`;
}

/** What the script's data says of a cell, by its kind's generator (a kind without one is refused before this). */
function stepOf(cell: PipelineCell): StepData {
  const gen = STEP_KINDS[kindOf(cell) ?? ''];
  if (!gen) throw new Error(l10n.t('No generator for the step “{0}”.', cell.name));
  return gen(cell);
}

/** A field's rule as data for the script's checks (src/core/spec/fields.ts). */
function fieldData(f: FieldSpec): Record<string, unknown> {
  const out: Record<string, unknown> = { key: f.key, wire: f.wire, label: f.label, kind: f.kind, optional: f.optional, rule: f.rule };
  if (f.chain) out.chain = f.chain;
  if (f.default !== undefined) out.default = f.default;
  if (f.options) out.options = f.options;
  if (f.min !== undefined) out.min = f.min;
  if (f.max !== undefined) out.max = f.max;
  if (f.pattern !== undefined) out.pattern = f.pattern;
  return out;
}

function endpointData(ep: Endpoint): Record<string, unknown> {
  return {
    id: ep.id, title: shortTitle(ep), family: ep.family, method: ep.method, path: ep.path, results: ep.results, price: ep.price,
    fields: ep.fields.map(fieldData), rules: ep.rules.map((r) => r.spec),
  };
}

/** The plan as the script prints it and holds each call to: plan.ts's lines, as a person reads them. */
function planData(plan: Plan): Record<string, unknown> {
  const text = planText(plan);
  return { lines: plan.lines.map((l, i) => ({ cell: l.cell, credits: l.credits, text: text[i] ?? '' })), total: plan.total, totalText: plan.totalText };
}

/** The script, or the reasons it cannot be written (the same reasons the editor would not run it). */
export function pipelineScript(file: PipelineFile, opts: ScriptOptions): ExportedScript {
  const cells = file.cells.filter((c): c is PipelineCell => typeof c !== 'string');
  const unknown = cells.filter((c) => !kindOf(c)).map((c) => `“${c.name}” is a kind of step the exported script cannot run yet; export it without that cell.`);
  if (unknown.length > 0) return { ok: false, problems: unknown };
  const problems = checkPipeline(file).map((p) => p.message);
  if (cells.length === 0) problems.push('The pipeline has no step to export.');
  const plan = planPipeline(file);
  for (const l of plan.lines.filter((x) => !x.bounded)) problems.push(`“${l.cell}”: ${l.text}.`);
  if (problems.length > 0) return { ok: false, problems: [...new Set(problems)] };

  const used = new Map<string, Endpoint>();
  for (const c of cells) if ('call' in c) {
    const ep = findEndpoint(c.call);
    if (ep) used.set(ep.id, ep);
  }
  const [pollBefore = '', pollAfter = ''] = endpoint('request').path.split('{requestId}');
  const headers = Object.fromEntries(Object.entries(callHeaders('', false)).filter(([k]) => k !== 'api_key'));
  // What a reader looks for first (the steps, the plan), then what the runtime's checks read.
  const data = {
    name: opts.name,
    baseUrl: opts.baseUrl.replace(/\/+$/u, ''),
    resultsDir: opts.resultsDir,
    plan: planData(plan),
    steps: cells.map(stepOf),
    endpoints: Object.fromEntries([...used].map(([id, ep]) => [id, endpointData(ep)])),
    safeUrl: FILE_URL_PATTERN,
    headers,
    addressPatterns: ADDRESS_PATTERNS,
    unix: [UNIX_MIN, UNIX_MAX],
    addressNames: ADDRESS_NAMES,
    addressName: ADDRESS_NAME.source,
    walletHint: NAME_HINT.wallets.source,
    agree: AGREE,
    sampleRows: SAMPLE_ROWS,
    pollPath: [pollBefore, pollAfter],
    historyPath: endpoint('requests').path,
  };
  const header = [
    '#!/usr/bin/env python3',
    '# Wallet Analytics pipeline, exported from VS Code ("Export Pipeline as Script").',
    `# Pipeline: ${pyString(opts.name)}`,
    `# Plan: ${pyString(plan.totalText)}; the run refuses to start above --max-credits.`,
    `# Needs Python 3 and requests (python3 -m pip install requests). The key is read from ${SCRIPT_KEY_VARIABLE},`,
    '# never written here; WA_BASE_URL overrides the base URL below. Results go beside this script.',
    `# Run: ${SCRIPT_KEY_VARIABLE}=... python3 <this file> --max-credits ${plan.total}`,
  ];
  const dataLines = [`DATA = ${pyLiteral(data, '')}`];
  const text = [...header, SCRIPT_RUNTIME.trimEnd(), '', '', '# ---- the pipeline, as data ----', '', ...dataLines, '', '', 'if __name__ == "__main__":', '    sys.exit(main())', ''].join('\n');
  return { ok: true, text, plan };
}
