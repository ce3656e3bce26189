/**
 * The free tools' work (issue 33), written once for every host: VS Code's language-model tools
 * (src/vscode/agents/agentTools.ts) and the runner's MCP server (src/runner/mcpServer.ts) answer
 * each free tool with this function. A free tool sends nothing paid: it prices a call or a pipeline
 * file, reads the account (in the host's words: the window's settings and budgets, the MCP
 * session's --max-credits), the free request history, the Wallet Database fields, the query checks,
 * or a result file through the table worker. What the service or a file says comes back fenced as
 * data (toolText.ts); an agent reads results only inside the host's results folder, and prices only
 * .wapipe.json files. What only a host knows comes in through FreeToolHost.
 */
import { readFile, stat } from 'node:fs/promises';
import { isAbsolute, relative, resolve } from 'node:path';
import { BadInputError } from '../errors';
import { endpoint, type Endpoint } from '../spec/catalog';
import type { Chain } from '../spec/addresses';
import type { ColumnInfo, RequestRecord } from '../spec/wire';
import { FreeTools, toolDeclarations, type FreeToolName } from './declarations';
import { pipelinePriceText } from './pipelineText';
import type { PriceFacts } from './priceFacts';
import { readResultText } from './resultText';
import { toolAnswer } from './toolText';
import { l10n } from '../l10n';

type Input = Record<string, unknown>;

/** What a host gives the free tools. */
export interface FreeToolHost {
  /** The free calls of the host's bound connection (core/transport/api.ts). */
  readonly api: () => {
    requests(signal?: AbortSignal): Promise<readonly RequestRecord[]>;
    columns(chain: Chain, signal?: AbortSignal): Promise<readonly ColumnInfo[]>;
    preflight(endpointId: string, rawInput: unknown, signal?: AbortSignal): Promise<Record<string, unknown>>;
  };
  /** Prices a call as the host's paid tool will (its balance, budgets, allowance). */
  price(ep: Endpoint, raw: unknown): Promise<PriceFacts | { readonly problems: readonly string[] }>;
  /** Whether the person will be asked, in the host's words. */
  askedWords(f: PriceFacts): string;
  /** The account's lines: balance, ceiling, budgets, the allowance, in the host's words. */
  account(): Promise<readonly string[]>;
  /** The folder whose results an agent may read. */
  readonly resultsFolder: () => string;
  /** What the person can do to see a whole result, in the host's words. */
  readonly openHint: (path: string) => string;
  /** The table worker's file (default: dist/tableWorker.js beside the bundle). */
  readonly workerFile?: string;
}

/** A pipeline file is a few cells of JSON: anything larger is not read. */
export const PIPELINE_MAX_BYTES = 5 * 1024 * 1024;

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const chainOf = (v: unknown): Chain => (v === 'alt' ? 'alt' : 'main');

/** True when `file` is inside `folder`: an agent reads results, never any other file. */
export function inside(folder: string, file: string): boolean {
  const rel = relative(resolve(folder), resolve(file));
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel);
}

/** The work of one free tool: input in, bounded tool text out (a failure throws; the host says it). */
export function freeTool(name: FreeToolName, host: FreeToolHost): (input: Input, signal: AbortSignal) => Promise<string> {
  switch (name) {
    case FreeTools.price:
      return async (input) => {
        const id = str(input.endpoint) ?? '';
        const ep = toolDeclarations().some((t) => t.endpointId === id) ? endpoint(id) : undefined;
        if (!ep) return toolAnswer([l10n.t('There is no paid endpoint “{0}”.', id.slice(0, 60))]);
        const f = await host.price(ep, input.inputs ?? {});
        if ('problems' in f) return toolAnswer([l10n.t('The inputs are not valid:'), ...f.problems]);
        return toolAnswer([...f.lines, host.askedWords(f), l10n.t('Nothing was sent.')]);
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
      return async () => toolAnswer([...(await host.account())]);
    case FreeTools.history:
      return async (input, signal) => {
        const limit = typeof input.limit === 'number' ? Math.min(50, Math.max(1, Math.floor(input.limit))) : 20;
        const list = await host.api().requests(signal);
        const recent = list.slice(-limit).reverse();
        return toolAnswer([l10n.t('The {0} most recent of {1} requests (newest first):', recent.length, list.length)], [recent.map((r) => JSON.stringify(r)).join('\n')]);
      };
    case FreeTools.columns:
      return async (input, signal) => {
        const cols = await host.api().columns(chainOf(input.chain), signal);
        return toolAnswer([l10n.t('{0} Wallet Database fields ({1} chain):', cols.length, chainOf(input.chain))], [cols.map((c) => JSON.stringify(c)).join('\n')]);
      };
    case FreeTools.checkQuery:
      return async (input, signal) => {
        const id = chainOf(input.chain) === 'alt' ? 'altchain_wallet_database' : 'wallet_database';
        try {
          await host.api().preflight(id, { query: input.query }, signal);
          return toolAnswer([l10n.t('The query passes every check the extension makes before sending. Its price: call {0} with endpoint “{1}”.', FreeTools.price, id)]);
        } catch (e) {
          if (e instanceof BadInputError) return toolAnswer([l10n.t('The query would not be sent:'), ...e.problems]);
          throw e;
        }
      };
    case FreeTools.readResult:
      return async (input, signal) => {
        const file = str(input.path) ?? '';
        const folder = host.resultsFolder();
        if (!inside(folder, file)) return toolAnswer([l10n.t('Only results inside the results folder ({0}) can be read.', folder)]);
        return readResultText({
          path: resolve(file),
          ...(Array.isArray(input.columns) ? { columns: input.columns.filter((c): c is string => typeof c === 'string') } : {}),
          ...(typeof input.rows === 'number' ? { rows: input.rows } : {}),
          ...(str(input.sortBy) !== undefined ? { sortBy: str(input.sortBy) } : {}),
          ...(input.ascending === true ? { ascending: true } : {}),
          ...(str(input.profile) !== undefined ? { profile: str(input.profile) } : {}),
        }, { signal, openHint: host.openHint, ...(host.workerFile ? { workerFile: host.workerFile } : {}) });
      };
  }
}
