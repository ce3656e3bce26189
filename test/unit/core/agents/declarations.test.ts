/**
 * The agents' tools as data (issue 33): every catalog endpoint is either a paid tool of its own or
 * named with why it has none; each paid tool's input schema is the endpoint's zod schema (what it
 * accepts, the schema says); the free tools are the ones the issue lists; and every name is one
 * VS Code and MCP both accept.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FreeTools, NOT_A_TOOL, PaidTools, TOOL_PREFIX, endpointInputSchema, toolDeclarations, toolEndpoint, type ToolDeclaration } from '../../../../src/core/agents/declarations';
import { ENDPOINTS, endpoint } from '../../../../src/core/spec/catalog';
import { isPaid } from '../../../../src/core/money/pricing';

const tools: readonly ToolDeclaration[] = toolDeclarations();

describe('agents: tool declarations from the catalog', () => {
  it('covers the catalog: each paid endpoint has its own paid tool (both chains), each other endpoint says why not', () => {
    for (const ep of ENDPOINTS) {
      const own = tools.filter((t) => t.endpointId === ep.id);
      if (isPaid(ep)) assert.equal(own.length, 1, `${ep.id} has one tool`);
      else assert.ok(NOT_A_TOOL[ep.id], `${ep.id} is free: named in NOT_A_TOOL with why`);
    }
    assert.ok(tools.some((t) => t.endpointId === 'altchain_pnl') && tools.some((t) => t.endpointId === 'wallet_database') && tools.some((t) => t.endpointId === 'altchain_wallet_database'), 'both chains');
    assert.equal(tools.find((t) => t.endpointId === 'reset_ip'), undefined, 'resetting the key’s IP is never an agent’s');
    for (const t of tools) assert.equal(t.paid, t.endpointId !== undefined || t.name === PaidTools.runPipeline, t.name);
  });

  it('declares running a pipeline file once, paid, last: the same declaration VS Code registers and the MCP server serves', () => {
    const pipe = tools.filter((t) => t.name === PaidTools.runPipeline);
    assert.equal(pipe.length, 1);
    assert.equal(pipe[0]?.paid, true);
    assert.equal(tools[tools.length - 1]?.name, PaidTools.runPipeline);
    assert.deepEqual((pipe[0]?.inputSchema as { required?: string[] }).required, ['path']);
    assert.match(pipe[0]?.modelDescription ?? '', /inside the workspace/u);
  });

  it('lists the free tools the issue names: price, credits and budgets, history, columns, query check, result read', () => {
    assert.deepEqual(tools.filter((t) => !t.paid).map((t) => t.name), Object.values(FreeTools));
  });

  it('names every tool as VS Code and MCP accept (word characters, at most 64, not copilot_/vscode_), each once', () => {
    const names = tools.map((t) => t.name);
    assert.equal(new Set(names).size, names.length);
    for (const n of names) {
      assert.match(n, /^[\w-]{1,64}$/u);
      assert.ok(n.startsWith(TOOL_PREFIX));
    }
  });

  it('takes each paid tool’s input schema from the endpoint’s zod schema: fields, required ones, defaults, enums, no other input', () => {
    const tt = endpointInputSchema(endpoint('toptraders')) as { properties: Record<string, { default?: unknown; enum?: unknown }>; required?: string[]; additionalProperties?: boolean };
    assert.deepEqual(Object.keys(tt.properties).sort(), ['output', 'tokens']);
    assert.deepEqual(tt.required, ['tokens']);
    assert.deepEqual(tt.properties.output?.enum, ['zip', 'txt']);
    assert.equal(tt.properties.output?.default, 'zip');
    assert.equal(tt.additionalProperties, false);
    for (const t of tools.filter((x) => x.endpointId !== undefined)) {
      const ep = toolEndpoint(t.name);
      assert.ok(ep, t.name);
      const props = Object.keys((t.inputSchema as { properties?: object }).properties ?? {}).sort();
      assert.deepEqual(props, ep.fields.map((f) => f.key).sort(), `${t.name}: one property per field`);
      assert.equal(t.inputSchema.type, 'object');
    }
  });

  it('says in each paid tool’s description its price rule and that the person approves what the allowance does not cover', () => {
    for (const t of tools.filter((x) => x.paid)) {
      assert.match(t.modelDescription, t.endpointId !== undefined ? /Price: /u : /plan's total/u, t.name);
      assert.match(t.modelDescription, /asks the person unless it fits the allowance/u, t.name);
    }
  });
});
