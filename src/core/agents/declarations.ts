/**
 * The tools an AI agent may call, as data derived from the catalog (issue 33): one paid tool per
 * paid endpoint (each chain's endpoint is its own entry, so both chains get theirs), its input
 * schema the endpoint's own zod schema exported as JSON Schema, and the free tools that answer
 * from the account, the history, the query checks and the results on disk. Written here, once, so
 * every host declares the same tools from the same data: VS Code's `contributes.languageModelTools`
 * (written by `npm run sync`, held by the manifest test) and the runner's MCP server
 * (src/runner/mcpServer.ts).
 *
 * Free catalog endpoints are answered by the free tools (credits, history, columns); Reset Saved IP
 * Address is left out: it changes what the key accepts, which is the person's to decide.
 * Pure: no VS Code, no I/O.
 */
import { z } from 'zod';
import { ENDPOINTS, inputSchema, type Endpoint } from '../spec/catalog';
import { describeRule, isPaid } from '../money/pricing';

/** How every tool's name begins (VS Code and MCP both take `[A-Za-z0-9_-]`, at most 64 characters). */
export const TOOL_PREFIX = 'walletAnalytics_';

/** The free tools, by name. */
export const FreeTools = {
  price: `${TOOL_PREFIX}price`,
  pipelinePrice: `${TOOL_PREFIX}pipeline_price`,
  credits: `${TOOL_PREFIX}credits`,
  history: `${TOOL_PREFIX}history`,
  columns: `${TOOL_PREFIX}columns`,
  checkQuery: `${TOOL_PREFIX}check_query`,
  readResult: `${TOOL_PREFIX}read_result`,
} as const;
export type FreeToolName = (typeof FreeTools)[keyof typeof FreeTools];

/** The paid tools that are not one endpoint's, by name. */
export const PaidTools = {
  runPipeline: `${TOOL_PREFIX}run_pipeline`,
} as const;

/** A tool as every host declares it. `endpointId` is set for a paid endpoint's tool. */
export interface ToolDeclaration {
  readonly name: string;
  readonly displayName: string;
  /** What the model reads to choose the tool (English: it is for the model, not a person). */
  readonly modelDescription: string;
  /** What a person reads in the tools picker. */
  readonly userDescription: string;
  readonly inputSchema: Record<string, unknown>;
  readonly paid: boolean;
  readonly endpointId?: string;
  readonly tags: readonly string[];
}

/** Catalog endpoints with no tool of their own, and why (held by the declarations' unit test). */
export const NOT_A_TOOL: Readonly<Record<string, string>> = {
  reset_ip: 'changes what the key accepts: the person’s decision, never an agent’s',
  credits: `answered by ${FreeTools.credits}`,
  requests: `answered by ${FreeTools.history}`,
  request: `answered by ${FreeTools.history}`,
  wallet_database_columns: `answered by ${FreeTools.columns}`,
  altchain_wallet_database_columns: `answered by ${FreeTools.columns}`,
};

/** An endpoint's input as JSON Schema, from its zod schema (what a call may be given, defaults included). */
export function endpointInputSchema(ep: Endpoint): Record<string, unknown> {
  const s = z.toJSONSchema(inputSchema(ep), { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  // The $schema line says nothing a tool host uses.
  const { $schema: _drop, ...rest } = s;
  return rest;
}

const MONEY_NOTE = 'It spends the person’s credits: the extension shows the exact price and asks the person unless it fits the allowance they set for agents; the ceiling and budgets always hold. Call walletAnalytics_price first when unsure.';

function endpointTool(ep: Endpoint): ToolDeclaration {
  const chain = ep.chain === 'alt' ? ' (alt chain)' : '';
  const queued = ep.family === 'queued' ? ' Queued: the tool returns when the result file is downloaded, with its path and a summary.' : '';
  return {
    name: `${TOOL_PREFIX}${ep.id}`,
    displayName: ep.title.replace(/\u2026$/u, ''),
    modelDescription: `${ep.summary}${chain} Price: ${describeRule(ep)}.${queued} ${MONEY_NOTE}`,
    userDescription: `${ep.summary} Paid: ${describeRule(ep)}.`,
    inputSchema: endpointInputSchema(ep),
    paid: true,
    endpointId: ep.id,
    tags: ['walletAnalytics', 'paid'],
  };
}

const chainSchema = { type: 'string', enum: ['main', 'alt'], default: 'main', description: 'The chain: main, or alt (the alternate chain).' };

function freeTools(): ToolDeclaration[] {
  const free = (name: FreeToolName, displayName: string, modelDescription: string, userDescription: string, properties: Record<string, unknown>, required: readonly string[] = []): ToolDeclaration => ({
    name, displayName, modelDescription, userDescription, paid: false, tags: ['walletAnalytics', 'free'],
    inputSchema: { type: 'object', properties, ...(required.length ? { required } : {}), additionalProperties: false },
  });
  const endpointIds = ENDPOINTS.filter(isPaid).map((e) => e.id);
  return [
    free(FreeTools.price, 'Price of a Call', 'Free. The exact price (or its bound) of one paid call with these inputs, the balance after it, the per-call ceiling, what each budget and the agent allowance leave, and whether the person will be asked. Sends nothing paid.', 'Free: the price of a call before it is made.', {
      endpoint: { type: 'string', enum: endpointIds, description: 'The endpoint id, as in the paid tools’ names after the prefix.' },
      inputs: { type: 'object', description: 'The inputs the paid tool would be given.' },
    }, ['endpoint', 'inputs']),
    free(FreeTools.pipelinePrice, 'Price of a Pipeline File', 'Free. The plan of a .wapipe.json pipeline file as the pipeline notebook shows it before Run All: each paid step’s price or bound and the total, the most the run can cost. Sends nothing.', 'Free: the price of a pipeline file.', {
      path: { type: 'string', description: 'The .wapipe.json file’s path.' },
    }, ['path']),
    free(FreeTools.credits, 'Credits and Budgets', 'Free. The credits balance, the per-call ceiling, what each spend budget and the agent allowance leave, and when they reset.', 'Free: balance, budgets and the agent allowance.', {}),
    free(FreeTools.history, 'Past Requests', 'Free. The most recent requests of this key (endpoint, time, state, credits, request id) from the service’s request history.', 'Free: the request history.', {
      limit: { type: 'integer', minimum: 1, maximum: 50, default: 20, description: 'How many of the most recent requests.' },
    }),
    free(FreeTools.columns, 'Wallet Database Columns', 'Free. The fields a Wallet Database query may filter and sort on, with their types.', 'Free: the Wallet Database fields.', { chain: chainSchema }),
    free(FreeTools.checkQuery, 'Check a Wallet Database Query', 'Free. Checks a Wallet Database query body (fields, value types, contradictions) as the extension would before sending it; sends nothing paid.', 'Free: checks a query without running it.', {
      chain: chainSchema,
      query: { type: 'object', description: 'The query body, as a .waquery.json file holds it.' },
    }, ['query']),
    free(FreeTools.readResult, 'Read a Result', 'Free. Reads a result file on disk through the table engine, never whole: its row and column counts, chosen columns of its first rows or of its top rows by a column, or one column’s profile (type, counts, min, max, mean, top values). The answer is bounded; the file opens in the Table for the person.', 'Free: reads part of a result file.', {
      path: { type: 'string', description: 'The result file’s path, as a paid tool returned it.' },
      columns: { type: 'array', items: { type: 'string' }, description: 'Columns to show (default: the first few).' },
      rows: { type: 'integer', minimum: 0, maximum: 50, default: 10, description: 'How many rows to show.' },
      sortBy: { type: 'string', description: 'Show the top rows by this column (descending unless ascending is true).' },
      ascending: { type: 'boolean', default: false },
      profile: { type: 'string', description: 'A column to profile instead of showing rows.' },
    }, ['path']),
  ];
}

/**
 * Running a pipeline file: paid, its price the plan's total. Served by both hosts from this one
 * declaration: VS Code (src/vscode/agents/pipelineTool.ts: a file inside the workspace) and the MCP
 * server (src/runner/mcpPipeline.ts: inside its working folder or the results folder's parent).
 */
const runPipelineTool: ToolDeclaration = {
  name: PaidTools.runPipeline,
  displayName: 'Run a Pipeline File',
  modelDescription: `Runs a .wapipe.json pipeline file as \`wallet-analytics run\` does: its plan's total (the most the run can cost: ${FreeTools.pipelinePrice} shows it, free) is its price; steps whose results are already beside the file are reused for free unless refresh is true. The file must be inside the workspace (VS Code) or the MCP server's working folder or its results folder's parent. Answers each step's outcome (charged, reused, refused), its result's path and what was charged. ${MONEY_NOTE}`,
  userDescription: 'Runs a pipeline file. Paid: up to its plan’s total.',
  inputSchema: {
    type: 'object',
    properties: {
      path: { type: 'string', description: 'The .wapipe.json file’s path.' },
      refresh: { type: 'boolean', default: false, description: 'Send every call again instead of reusing results already on disk.' },
    },
    required: ['path'],
    additionalProperties: false,
  },
  paid: true,
  tags: ['walletAnalytics', 'paid'],
};

let cached: readonly ToolDeclaration[] | undefined;

/** Every tool, free ones first, then one per paid endpoint in catalog order, then running a pipeline file. */
export function toolDeclarations(): readonly ToolDeclaration[] {
  cached ??= [...freeTools(), ...ENDPOINTS.filter((ep) => isPaid(ep) && NOT_A_TOOL[ep.id] === undefined).map(endpointTool), runPipelineTool];
  return cached;
}


/** The paid endpoint a tool calls, or undefined for a free tool or an unknown name. */
export function toolEndpoint(name: string): Endpoint | undefined {
  const id = toolDeclarations().find((t) => t.name === name)?.endpointId;
  return id === undefined ? undefined : ENDPOINTS.find((e) => e.id === id);
}
