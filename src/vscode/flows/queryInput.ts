import * as vscode from 'vscode';
import { parseNumber } from '../../core/spec/parseInput';
import { inexactNumberProblem } from '../../core/query/analyze';
import { parseQueryFile } from '../../core/query/file';
import { MAX_QUERY_LIMIT, OPERATORS, type Operator, type QueryBody } from '../../core/spec/queryModel';
import { inputStep, pickStep, type StepTitle } from './multiStep';
import { l10n } from '../../shared/l10n';
import { showError } from '../base/errors';
import { thousands } from '../../core/numberText';

/** What the query step needs from its caller (inputFlow.ts's InputFlowDeps has it). */
export interface QueryInputDeps {
  /** Queryable fields, for the one-condition Wallet Database builder. */
  readonly columns: (chain: 'main' | 'alt') => Promise<readonly { name: string; type: string; description?: string }[]>;
}

/** The query step of a Wallet Database call: a saved file, the active editor, or a one-condition builder. */
export async function pickQuery(chain: 'main' | 'alt', t: StepTitle, deps: QueryInputDeps): Promise<QueryBody | undefined> {
  const active = vscode.window.activeTextEditor?.document;
  type Src = 'active' | 'file' | 'builder';
  const items: { label: string; detail?: string; value: Src }[] = [];
  if (active && /\.waquery\.json$/iu.test(active.fileName)) items.push({ label: l10n.t('$(file-code) The query in the active editor'), detail: vscode.workspace.asRelativePath(active.uri), value: 'active' });
  items.push({ label: l10n.t('$(folder-opened) A saved .waquery.json file…'), value: 'file' });
  items.push({ label: l10n.t('$(add) Quick builder: one condition'), detail: l10n.t('Pick a field, an operator and a value'), value: 'builder' });
  const src = (await pickStep(t, items, { placeholder: l10n.t('Which query?') }))?.[0];
  if (src === undefined) return undefined;
  if (src === 'builder') return buildOneCondition(chain, t, deps);
  let text: string;
  if (src === 'active' && active) text = active.getText();
  else {
    const f = await vscode.window.showOpenDialog({ title: l10n.t('Choose a Wallet Database query'), filters: { 'Wallet Database query': ['waquery.json', 'json'] } });
    if (!f?.[0]) return undefined;
    text = Buffer.from(await vscode.workspace.fs.readFile(f[0])).toString('utf8');
  }
  const parsed = parseQueryFile(text);
  if (!parsed.ok) {
    void showError(l10n.t('The query file is not valid, so nothing was sent: {0}', parsed.errors.slice(0, 3).join(' ')));
    return undefined;
  }
  return parsed.body;
}

async function buildOneCondition(chain: 'main' | 'alt', t: StepTitle, deps: QueryInputDeps): Promise<QueryBody | undefined> {
  const cols = await deps.columns(chain);
  const field = (await pickStep(t, cols.map((c) => ({ label: c.name, description: c.type, detail: c.description, value: c })), { placeholder: l10n.t('Field') }))?.[0];
  if (!field) return undefined;
  const ops = OPERATORS.filter((o) => o !== 'in' && (field.type === 'number' || field.type === 'integer' || o === '=' || o === '!='));
  const op = (await pickStep(t, ops.map((o) => ({ label: o, value: o as Operator })), { placeholder: l10n.t('{0}: operator', field.name) }))?.[0];
  if (!op) return undefined;
  const numeric = field.type === 'number' || field.type === 'integer';
  const raw = await inputStep(t, {
    prompt: op === 'between' ? l10n.t('{0} between: min, max', field.name) : `${field.name} ${op} …`,
    validate: (v) => {
      // The digits as typed (before a double rounds them): the query rule for numbers sent as written.
      const inexact = (s: string) => inexactNumberProblem(s.trim().replace(/[,_\s]/gu, '').replace(/[kmb]$/iu, ''), field.name);
      if (op === 'between') {
        const parts = v.split(/[,;\s]+/u);
        const [a, b] = parts.map(parseNumber);
        if (a === undefined || b === undefined) return 'Give two numbers: min, max.';
        return parts.slice(0, 2).map(inexact).find((p) => p !== undefined) ?? (a > b ? 'The minimum is above the maximum.' : undefined);
      }
      if (!numeric) return undefined;
      return parseNumber(v) === undefined ? 'Give a number.' : inexact(v);
    },
  });
  if (raw === undefined) return undefined;
  const value =
    op === 'between'
      ? raw.split(/[,;\s]+/u).map((s) => parseNumber(s) ?? 0).slice(0, 2)
      : numeric
        ? (parseNumber(raw) ?? 0)
        : raw.trim();
  const limit = await inputStep(t, {
    prompt: l10n.t('How many addresses to return at most? The bill follows the number of matches, not this limit.'),
    value: '100',
    validate: (v) => {
      const n = parseNumber(v);
      return n === undefined || !Number.isInteger(n) || n < 1 || n > MAX_QUERY_LIMIT ? `A whole number from 1 to ${thousands(MAX_QUERY_LIMIT)}.` : undefined;
    },
  });
  if (limit === undefined) return undefined;
  return { where: { and: [{ field: field.name, op, value }] }, limit: parseNumber(limit) ?? 100 };
}
