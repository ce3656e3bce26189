/**
 * The language-model tools in VS Code (issue 33): registers every tool core/agents/declarations.ts
 * declares (package.json's `contributes.languageModelTools` is written from the same list by
 * `npm run sync`), the paid ones through paidTool.ts (running a pipeline file: pipelineTool.ts), the free ones by core/agents/freeTools.ts
 * (the runner's MCP server answers them with the same code) from this window's connection,
 * credits, settings and allowance. Everything the service or a file says comes back fenced as data
 * (core/agents/toolText.ts).
 */
import * as vscode from 'vscode';
import { registerTool } from '../base/handOver';
import { PaidTools, toolDeclarations, toolEndpoint, type FreeToolName } from '../../core/agents/declarations';
import { freeTool, type FreeToolHost } from '../../core/agents/freeTools';
import { readResultText } from '../../core/agents/resultText';
import { toolAnswer } from '../../core/agents/toolText';
import { errorText } from '../../core/errors';
import { allowanceWords } from '../../core/money/agentAllowance';
import { resetWords } from '../../core/money/budget';
import { readSettings } from '../base/settings';
import { CommandIds } from '../base/ids';
import { abortOn, paidTool, priceFacts, type PaidToolDeps } from './paidTool';
import { pipelineTool, type PipelineToolDeps } from './pipelineTool';
import { askedWords } from '../../core/agents/priceFacts';
import { l10n } from '../../shared/l10n';
import { fmtCredits, thousands } from '../../core/numberText';

type Input = Record<string, unknown>;

/** The tools, by name, as registered: what the integration suite calls directly to stand in for a chat. */
export type AgentTools = ReadonlyMap<string, vscode.LanguageModelTool<Input>>;

/** The person's way to see a whole result: the Table. */
function openHint(file: string): string {
  return l10n.t('The person can open it in the Table: “Wallet Analytics: Open in Table” ({0}) with {1}.', CommandIds.openInTable, file);
}

/** What the free tools (core/agents/freeTools.ts) read from this window: its connection, credits, settings and allowance. */
function freeHost(deps: PaidToolDeps): FreeToolHost {
  const { connection, credits, allowance, jobs } = deps;
  return {
    api: () => connection.bind().api,
    price: (ep, raw) => priceFacts(ep, raw, deps),
    askedWords,
    account: async () => {
      const scope = connection.scope();
      const s = readSettings();
      const balance = await credits.get(60_000, scope);
      const budgets = credits.budgets(s.budgets, scope);
      return [
        l10n.t('Balance: {0} credits ({1}).', thousands(balance), connection.label()),
        l10n.t('The per-call ceiling: {0}; calls above {1} credits are confirmed.', fmtCredits(s.maxCreditsPerCall), thousands(s.confirmAbove)),
        ...(budgets.length ? budgets.map((b) => l10n.t('{0} budget: {1} spent or held, {2} left of {3}; resets {4}.', b.kind === 'day' ? l10n.t('Daily') : l10n.t('30-day'), thousands(b.spent), thousands(b.left), thousands(b.budget), resetWords(b))) : [l10n.t('No spend budget is set.')]),
        allowanceWords(allowance.state(scope)),
      ];
    },
    resultsFolder: () => jobs.folder(),
    openHint,
  };
}

/** Registers every declared tool; returns them by name (the test surface calls them directly). */
export function registerAgentTools(context: vscode.ExtensionContext, deps: Omit<PipelineToolDeps, 'summarise'>): AgentTools {
  const full: PipelineToolDeps = { ...deps, summarise: (file, signal) => readResultText({ path: file, rows: 10 }, { signal, openHint }) };
  const tools = new Map<string, vscode.LanguageModelTool<Input>>();
  for (const d of toolDeclarations()) {
    const ep = toolEndpoint(d.name);
    let tool: vscode.LanguageModelTool<Input>;
    if (ep) tool = paidTool(ep, full);
    else if (d.name === PaidTools.runPipeline) tool = pipelineTool(full);
    else {
      const run = freeTool(d.name as FreeToolName, freeHost(full));
      tool = {
        async invoke(options, token) {
          const text = await run(options.input ?? {}, abortOn(token)).catch((e: unknown) => toolAnswer([l10n.t('{0} failed; nothing was charged (it is free).', d.displayName)], [errorText(e)]));
          return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(text)]);
        },
      };
    }
    tools.set(d.name, tool);
    context.subscriptions.push(registerTool(d.name, tool));
  }
  return tools;
}
