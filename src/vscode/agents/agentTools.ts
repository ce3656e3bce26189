/**
 * The language-model tools in VS Code (issue 33): registers every tool core/agents/declarations.ts
 * declares (package.json's `contributes.languageModelTools` is written from the same list by
 * `npm run sync`), the paid ones through paidTool.ts, the free ones here. A free tool sends nothing
 * paid: it reads the account (credits, budgets, the allowance), the free request history, the
 * Wallet Database fields, the query checks, or a result file through the table worker. Everything
 * the service or a file says comes back fenced as data (core/agents/toolText.ts).
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { FreeTools, toolDeclarations, toolEndpoint, type FreeToolName } from '../../core/agents/declarations';
import { readResultText } from '../../core/agents/resultText';
import { pipelinePriceText } from '../../core/agents/pipelineText';
import { readFile, stat } from 'node:fs/promises';
import { toolAnswer } from '../../core/agents/toolText';
import { endpoint } from '../../core/spec/catalog';
import { BadInputError, errorText } from '../../core/errors';
import { allowanceWords } from '../../core/money/agentAllowance';
import { ceilingText } from '../../core/money/quota';
import { resetWords } from '../../core/money/budget';
import { readSettings } from '../base/settings';
import { CommandIds } from '../base/ids';
import { abortOn, paidTool, priceFacts, type PaidToolDeps } from './paidTool';
import { askedWords } from '../../core/agents/priceFacts';
import { l10n } from '../../shared/l10n';
import { thousands } from '../../core/numberText';

type Input = Record<string, unknown>;

/** A pipeline file is a few cells of JSON: anything larger is not read. */
const PIPELINE_MAX_BYTES = 5 * 1024 * 1024;

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const chainOf = (v: unknown): 'main' | 'alt' => (v === 'alt' ? 'alt' : 'main');

/** The tools, by name, as registered: what the integration suite calls directly to stand in for a chat. */
export type AgentTools = ReadonlyMap<string, vscode.LanguageModelTool<Input>>;

/** The person's way to see a whole result: the Table. */
function openHint(file: string): string {
  return l10n.t('The person can open it in the Table: “Wallet Analytics: Open in Table” ({0}) with {1}.', CommandIds.openInTable, file);
}

/** True when `file` is inside the results folder: an agent reads results, never any other file. */
function inside(folder: string, file: string): boolean {
  const rel = path.relative(path.resolve(folder), path.resolve(file));
  return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel);
}

function freeTool(name: FreeToolName, deps: PaidToolDeps): (input: Input, signal: AbortSignal) => Promise<string> {
  const { connection, credits, allowance, jobs } = deps;
  switch (name) {
    case FreeTools.price:
      return async (input) => {
        const id = str(input.endpoint) ?? '';
        const ep = toolDeclarations().some((t) => t.endpointId === id) ? endpoint(id) : undefined;
        if (!ep) return toolAnswer([l10n.t('There is no paid endpoint “{0}”.', id.slice(0, 60))]);
        const f = await priceFacts(ep, input.inputs ?? {}, deps);
        if ('problems' in f) return toolAnswer([l10n.t('The inputs are not valid:'), ...f.problems]);
        return toolAnswer([...f.lines, askedWords(f), l10n.t('Nothing was sent.')]);
      };
    case FreeTools.pipelinePrice:
      return async (input) => {
        const file = str(input.path) ?? '';
        // Only pipeline files: the tool never reads another file for an agent.
        if (!file.endsWith('.wapipe.json')) return toolAnswer([l10n.t('Only .wapipe.json pipeline files can be priced.')]);
        if ((await stat(file)).size > PIPELINE_MAX_BYTES) return toolAnswer([l10n.t('{0} is larger than a pipeline file can be.', file)]);
        return pipelinePriceText(file, await readFile(file, 'utf8'));
      };
    case FreeTools.credits:
      return async () => {
        const scope = connection.scope();
        const s = readSettings();
        const balance = await credits.get(60_000, scope);
        const budgets = credits.budgets(s.budgets, scope);
        return toolAnswer([
          l10n.t('Balance: {0} credits ({1}).', thousands(balance), connection.label()),
          l10n.t('Ceiling: {0}; calls above {1} credits are confirmed.', ceilingText(s), thousands(s.confirmAbove)),
          ...(budgets.length ? budgets.map((b) => l10n.t('{0} budget: {1} spent or held, {2} left of {3}; resets {4}.', b.kind === 'day' ? l10n.t('Daily') : l10n.t('30-day'), thousands(b.spent), thousands(b.left), thousands(b.budget), resetWords(b))) : [l10n.t('No spend budget is set.')]),
          allowanceWords(allowance.state(scope)),
        ]);
      };
    case FreeTools.history:
      return async (input, signal) => {
        const limit = typeof input.limit === 'number' ? Math.min(50, Math.max(1, Math.floor(input.limit))) : 20;
        const list = await connection.bind().api.requests(signal);
        const recent = list.slice(-limit).reverse();
        return toolAnswer([l10n.t('The {0} most recent of {1} requests (newest first):', recent.length, list.length)], [recent.map((r) => JSON.stringify(r)).join('\n')]);
      };
    case FreeTools.columns:
      return async (input, signal) => {
        const cols = await connection.bind().api.columns(chainOf(input.chain), signal);
        return toolAnswer([l10n.t('{0} Wallet Database fields ({1} chain):', cols.length, chainOf(input.chain))], [cols.map((c) => JSON.stringify(c)).join('\n')]);
      };
    case FreeTools.checkQuery:
      return async (input, signal) => {
        const id = chainOf(input.chain) === 'alt' ? 'altchain_wallet_database' : 'wallet_database';
        try {
          await connection.bind().api.preflight(id, { query: input.query }, signal);
          return toolAnswer([l10n.t('The query passes every check the extension makes before sending. Its price: call {0} with endpoint “{1}”.', FreeTools.price, id)]);
        } catch (e) {
          if (e instanceof BadInputError) return toolAnswer([l10n.t('The query would not be sent:'), ...e.problems]);
          throw e;
        }
      };
    case FreeTools.readResult:
      return async (input, signal) => {
        const file = str(input.path) ?? '';
        const folder = jobs.folder();
        if (!inside(folder, file)) return toolAnswer([l10n.t('Only results inside the results folder ({0}) can be read.', folder)]);
        return readResultText({
          path: path.resolve(file),
          ...(Array.isArray(input.columns) ? { columns: input.columns.filter((c): c is string => typeof c === 'string') } : {}),
          ...(typeof input.rows === 'number' ? { rows: input.rows } : {}),
          ...(str(input.sortBy) !== undefined ? { sortBy: str(input.sortBy) } : {}),
          ...(input.ascending === true ? { ascending: true } : {}),
          ...(str(input.profile) !== undefined ? { profile: str(input.profile) } : {}),
        }, { signal, openHint });
      };
  }
}

/** Registers every declared tool; returns them by name (the test surface calls them directly). */
export function registerAgentTools(context: vscode.ExtensionContext, deps: Omit<PaidToolDeps, 'summarise'>): AgentTools {
  const full: PaidToolDeps = { ...deps, summarise: (file, signal) => readResultText({ path: file, rows: 10 }, { signal, openHint }) };
  const tools = new Map<string, vscode.LanguageModelTool<Input>>();
  for (const d of toolDeclarations()) {
    const ep = toolEndpoint(d.name);
    let tool: vscode.LanguageModelTool<Input>;
    if (ep) tool = paidTool(ep, full);
    else {
      const run = freeTool(d.name as FreeToolName, full);
      tool = {
        async invoke(options, token) {
          const text = await run(options.input ?? {}, abortOn(token)).catch((e: unknown) => toolAnswer([l10n.t('{0} failed; nothing was charged (it is free).', d.displayName)], [errorText(e)]));
          return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(text)]);
        },
      };
    }
    tools.set(d.name, tool);
    context.subscriptions.push(vscode.lm.registerTool(d.name, tool));
  }
  return tools;
}
